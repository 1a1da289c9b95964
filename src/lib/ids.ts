/** A canonical UUID (any version), the shape of every row id in the store. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a caller-supplied id can name a row at all (anything else is simply not found). */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/** The largest value of each PostgreSQL type a cursor carries: a cursor number beyond it is refused (422), never sent to the database. */
export const PG_MAX = { integer: 2_147_483_647n, bigint: 9_223_372_036_854_775_807n, xid8: 18_446_744_073_709_551_615n } as const;

/** Whether a string of decimal digits is a value from 0 to `max` (one of PG_MAX). */
export const digitsWithin = (digits: string, max: bigint): boolean => /^\d{1,20}$/.test(digits) && BigInt(digits) <= max;
