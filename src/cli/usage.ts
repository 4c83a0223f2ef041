/** The error a command raises for wrong arguments: printed with the usage text, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
