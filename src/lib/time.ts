/** A database timestamp (Date or string) as ISO 8601 UTC, the one form every API answer uses. */
export const isoTime = (value: Date | string): string => new Date(value).toISOString();

/** The same for a nullable column: null stays null. */
export const isoTimeOrNull = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
