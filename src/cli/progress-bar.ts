/** A one-line progress bar on a terminal stream; silent when the stream is not a terminal. */

export class ProgressBar {
  private done = 0;
  private failed = 0;
  private readonly active: boolean;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly total: number,
  ) {
    this.active = Boolean(stream.isTTY) && total > 0;
  }

  tick(ok: boolean): void {
    this.done++;
    if (!ok) this.failed++;
    if (!this.active) return;
    const width = 30;
    const filled = Math.round((this.done / this.total) * width);
    this.stream.write(
      `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${this.done}/${this.total}  failed ${this.failed}`,
    );
  }

  finish(): void {
    if (this.active) this.stream.write("\n");
  }
}
