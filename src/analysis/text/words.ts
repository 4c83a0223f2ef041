/**
 * Splitting text into words. Scripts written without spaces (Chinese, Japanese, Thai, …) are segmented by the
 * runtime's ICU word segmenter; everything else splits on letters and digits, which is much faster.
 */

const wordPattern = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’-]*/gu;
const unspacedScriptGlobal =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;

// Thai, Lao, Myanmar, Khmer, kana, CJK ideographs (BMP, compatibility, and the surrogates of the rest). A
// plain character class scans natively, many times faster than a Unicode-property class or a JS loop.
const unspacedCharacter =
  /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\ud840-\ud87f]/;

/** Whether the text holds characters of a script written without spaces. */
export function hasUnspacedScript(text: string): boolean {
  return unspacedCharacter.test(text);
}

const letterOrDigit = /[\p{L}\p{N}\p{M}]/u;

/** Whether a (lower-cased) text contains the word as a whole word, not inside a longer one. */
export function containsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? "" : (text[at - 1] as string);
    const after = text[at + word.length] ?? "";
    if (!letterOrDigit.test(before) && !letterOrDigit.test(after)) return true;
  }
  return false;
}

/** Runs of letters and digits; a run of an unspaced script comes out as one "word". */
function spacedWords(lower: string): string[] {
  return lower.match(wordPattern) ?? [];
}

/** Lower-cased words of a (short) text, such as a title. */
export function wordsOf(text: string): string[] {
  const lower = text.toLowerCase();
  if (!hasUnspacedScript(lower)) return spacedWords(lower);
  const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
  const words: string[] = [];
  for (const segment of segmenter.segment(lower)) if (segment.isWordLike) words.push(segment.segment);
  return words;
}

/**
 * Approximate word count of a long text. Characters of unspaced scripts count as half a word each (a
 * typical word there is two characters), which avoids segmenting whole pages.
 */
export function countWords(text: string): number {
  if (!hasUnspacedScript(text)) return countSpacedWords(text);
  const unspacedCharacters = text.match(unspacedScriptGlobal)?.length ?? 0;
  return countSpacedWords(text.replace(unspacedScriptGlobal, " ")) + Math.round(unspacedCharacters / 2);
}

/**
 * Space-separated tokens that hold a letter or digit (the text is already whitespace-collapsed). Any
 * character beyond ASCII counts as a letter: a character loop is many times faster than a Unicode regex.
 */
function countSpacedWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 32) {
      inWord = false;
    } else if (
      !inWord &&
      (code > 127 || (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122))
    ) {
      inWord = true;
      count++;
    }
  }
  return count;
}
