/**
 * A response body gathered as it arrives, into memory of its own: each chunk is copied in when it comes (a few
 * microseconds a turn), instead of one copy of the whole body at the end, which for a 5 MiB page held the event
 * loop for tens of milliseconds (a new allocation touched for the first time, then filled). The memory is sized
 * from Content-Length when the server sends one, and otherwise doubles as the body grows; it never exceeds the
 * cap it is given.
 */

/** The first allocation when the size is not announced. */
const initialBytes = 64 * 1024;

export class BodyBuffer {
  private memory: Uint8Array;
  private length = 0;
  private taken = false;

  /**
   * `expectedBytes`: the size the response announces (Content-Length), if any; `maxBytes`: the most this body
   * may hold (the caller stops appending there).
   */
  constructor(
    expectedBytes: number | null,
    private readonly maxBytes: number,
  ) {
    const first =
      expectedBytes !== null && Number.isSafeInteger(expectedBytes) && expectedBytes >= 0
        ? expectedBytes
        : initialBytes;
    this.memory = new Uint8Array(Math.min(first, maxBytes));
  }

  /** Bytes held so far. */
  get size(): number {
    return this.length;
  }

  /** Copies `chunk` in, growing the memory if need be; throws past the cap (the caller checks first). */
  append(chunk: Uint8Array): void {
    if (this.taken) throw new Error("The body was already taken.");
    const needed = this.length + chunk.length;
    if (needed > this.maxBytes) throw new RangeError("The body would exceed its cap.");
    if (needed > this.memory.length) {
      const grown = new Uint8Array(Math.min(this.maxBytes, Math.max(needed, this.memory.length * 2)));
      grown.set(this.memory.subarray(0, this.length));
      this.memory = grown;
    }
    this.memory.set(chunk, this.length);
    this.length = needed;
  }

  /** The body, as the one view of its memory; the buffer cannot be used after. */
  take(): Buffer {
    if (this.taken) throw new Error("The body was already taken.");
    this.taken = true;
    return Buffer.from(this.memory.buffer, 0, this.length);
  }
}
