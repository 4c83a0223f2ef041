/**
 * What kind of value a string is, for the schema.org data types a property expects: ISO 8601 dates, date-times
 * and times, numbers, booleans, URLs, ISO 4217 currency codes and ISO 8601 durations. Every pattern is anchored
 * and linear (no nested quantifiers), and the strings are short: they come from a page's structured data.
 */

const datePattern = /^\d{4}(?:-(\d{2})(?:-(\d{2}))?)?$/;
const dateTimePattern =
  /^\d{4}-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const timePattern = /^(\d{2}):(\d{2})(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const numberPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const integerPattern = /^[+-]?\d+$/;
const currencyPattern = /^[A-Z]{3}$/;
const durationPattern =
  /^P(?!$)(?:\d+(?:[.,]\d+)?Y)?(?:\d+(?:[.,]\d+)?M)?(?:\d+(?:[.,]\d+)?W)?(?:\d+(?:[.,]\d+)?D)?(?:T(?=\d)(?:\d+(?:[.,]\d+)?H)?(?:\d+(?:[.,]\d+)?M)?(?:\d+(?:[.,]\d+)?S)?)?$/;

/** An ISO 8601 date (2024, 2024-05 or 2024-05-17) or date-time (2024-05-17T09:30:00+02:00). */
export function isDateOrDateTime(value: string): boolean {
  const text = value.trim();
  const date = datePattern.exec(text);
  if (date) return inRange(date[1], 1, 12) && inRange(date[2], 1, 31);
  const dateTime = dateTimePattern.exec(text);
  return (
    dateTime !== null &&
    inRange(dateTime[1], 1, 12) &&
    inRange(dateTime[2], 1, 31) &&
    inRange(dateTime[3], 0, 24) &&
    inRange(dateTime[4], 0, 59)
  );
}

export function isTime(value: string): boolean {
  const time = timePattern.exec(value.trim());
  return time !== null && inRange(time[1], 0, 24) && inRange(time[2], 0, 59);
}

export function isNumber(value: string): boolean {
  return numberPattern.test(value.trim());
}

export function isInteger(value: string): boolean {
  return integerPattern.test(value.trim());
}

export function isBoolean(value: string): boolean {
  const text = value.trim();
  return /^(?:true|false)$/i.test(text) || /^https?:\/\/schema\.org\/(?:True|False)$/.test(text);
}

/** A URL, absolute or relative (JSON-LD and microdata resolve relative ones): no whitespace inside, parses. */
export function isUrl(value: string): boolean {
  const text = value.trim();
  if (text === "" || /\s/.test(text)) return false;
  try {
    new URL(text, "https://example.invalid/");
    return true;
  } catch {
    return false;
  }
}

export function isCurrencyCode(value: string): boolean {
  return currencyPattern.test(value.trim());
}

/** An ISO 8601 duration such as PT1H30M or P2D. */
export function isDuration(value: string): boolean {
  return durationPattern.test(value.trim());
}

function inRange(digits: string | undefined, min: number, max: number): boolean {
  if (digits === undefined) return true;
  const number = Number(digits);
  return number >= min && number <= max;
}
