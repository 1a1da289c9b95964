/** A database timestamp (Date or string) as ISO 8601 UTC, the one form every API answer uses. */
export const isoTime = (value: Date | string): string => new Date(value).toISOString();

/** The same for a nullable column: null stays null. */
export const isoTimeOrNull = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/**
 * An RFC 3339 date-time that both PostgreSQL's timestamptz and JavaScript's Date read as meant, so a
 * caller's value never reaches either as an error: year 0001-9999 (PostgreSQL has no year 0), `T`
 * between date and time (with a space, Date reads `0001-01-01 00:00:00Z` as the year 2001), seconds
 * 00-59 (Date refuses a leap second), at most 9 fractional digits (PostgreSQL refuses very long ones),
 * and a UTC offset `Z` or `±HH:MM` of at most 15:59 (PostgreSQL refuses ±16:00 and beyond).
 */
export const DATE_TIME_RULE =
  'Input should be an RFC 3339 date-time such as 2026-11-01T00:00:00Z: year 0001 to 9999, seconds 00 to 59, at most 9 fractional digits, UTC offset Z or from -15:59 to +15:59';
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:[Zz]|[+-](?:0\d|1[0-5]):?[0-5]\d)$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isStorableDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}
