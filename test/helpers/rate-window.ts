/**
 * Rate limits count in fixed windows that start on whole minutes (a 15-minute window too). A test that expects
 * its N-th attempt to be refused would see the count restart if a window ended in the middle of it, so such
 * tests first wait, when needed, until the current minute has at least `marginSeconds` left.
 */
export async function awayFromWindowEdge(marginSeconds = 10): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  const left = 60_000 - intoMinute;
  if (left < marginSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
