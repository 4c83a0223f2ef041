/** A LIKE pattern's text taken literally: %, _ and \\ escaped with a backslash (`escape '\\'`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
