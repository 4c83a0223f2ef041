/**
 * Time bounds around work that may never finish (a browser that stops answering, a page that never settles): a
 * deadline the work must beat, and whether a promise settles within a time. Shared by rendering, its
 * accessibility audit and the report PDFs.
 */

/**
 * The work's result, or the failure `pastDeadline` makes at the deadline (the caller then closes what the work
 * held; a later rejection of the work is not left unhandled).
 */
export function beforeDeadline<T>(
  work: Promise<T>,
  deadlineAt: number,
  pastDeadline: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(pastDeadline()), Math.max(0, deadlineAt - performance.now()));
  });
  work.catch(() => {});
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Whether the promise settled (either way) within the time. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  const result = await Promise.race([settled, timeout]);
  clearTimeout(timer);
  return result;
}
