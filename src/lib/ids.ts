/** A canonical UUID (any version), the shape of every row id in the store. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a caller-supplied id can name a row at all (anything else is simply not found). */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
