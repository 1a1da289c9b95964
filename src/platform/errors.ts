/**
 * One error type with a closed set of codes, and one table from code to HTTP status.
 * Services throw AppError; the error handler (platform/error-handler.ts) turns it into
 * `{"detail": "..."}` (or the 422 list shape) and never leaks internals on 5xx.
 */
export const errorStatus = {
  /** A parameter or field has the wrong type or violates a bound (FastAPI's 422 shape). */
  validation: 422,
  bad_request: 400,
  /** A paid feature on a free plan, or a card the payment provider declined. */
  payment_required: 402,
  /** Missing, malformed or unknown credentials. */
  unauthorized: 401,
  /** Authenticated, but this caller may not do this (e.g. an owner token on an admin route). */
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The request conflicts with current state (duplicate email, nothing to undo, job already running). */
  conflict: 409,
  /** The resource existed but is no longer available (a used or expired download token). */
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  /** A dependency (the payment provider) answered with an error of its own. */
  bad_gateway: 502,
  /** A dependency (database, model, mail server) is not available right now. */
  unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues: ValidationIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { issues?: ValidationIssue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus[code];
    this.issues = options.issues;
    this.headers = options.headers;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);

/** A 422 for one field, in the same shape as schema validation errors. */
export function invalid(loc: (string | number)[], msg: string, input?: unknown, type = 'value_error'): AppError {
  const issue: ValidationIssue = { type, loc, msg };
  if (input !== undefined) issue.input = input;
  return new AppError('validation', msg, { issues: [issue] });
}
