/** Whether a string is a well-formed BCP 47 language tag, as judged by the runtime's ICU ("en", "pt-BR"). */

const verdicts = new Map<string, boolean>();

export function isLanguageTag(tag: string): boolean {
  let verdict = verdicts.get(tag);
  if (verdict === undefined) {
    verdict = judge(tag);
    if (verdicts.size > 5_000) verdicts.clear();
    verdicts.set(tag, verdict);
  }
  return verdict;
}

function judge(tag: string): boolean {
  // ICU accepts "en_US"; HTML and hreflang do not.
  if (tag === "" || tag.includes("_")) return false;
  try {
    Intl.getCanonicalLocales(tag);
    return true;
  } catch {
    return false;
  }
}
