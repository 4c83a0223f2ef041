/** Terminal colours, on only when the stream is a terminal (NO_COLOR turns them off, FORCE_COLOR on). */

export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
}

export function paletteFor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined> = process.env,
): Palette {
  const on = env.FORCE_COLOR ? env.FORCE_COLOR !== "0" : Boolean(stream.isTTY) && env.NO_COLOR === undefined;
  const wrap = (open: number, close: number) => (text: string) =>
    on ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    red: wrap(31, 39),
  };
}
