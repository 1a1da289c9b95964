import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

/** The Fastify instance as routes see it: TypeBox schemas give validation, types and OpenAPI at once. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/**
 * `{"detail": "...", "code": "not_found", "request_id": "..."}`: every non-validation error. `detail` is for people,
 * `code` (one of the closed set in platform/errors.ts) for programs, `request_id` to quote to support (also the
 * `x-request-id` header).
 */
export const ErrorSchema = Type.Object(
  {
    detail: Type.String(),
    code: Type.Optional(Type.String({ description: 'Machine-readable error code: validation, bad_request, unauthorized, forbidden, not_found, conflict, gone, payment_required, payload_too_large, unsupported_media_type, rate_limited, internal, unavailable, upstream_timeout, …' })),
    request_id: Type.Optional(Type.String({ description: 'The id of this request, as in the x-request-id response header' })),
  },
  { $id: 'Error' },
);

/** FastAPI's 422 shape. */
export const ValidationErrorSchema = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        type: Type.String(),
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
        msg: Type.String(),
        input: Type.Optional(Type.Unknown()),
      }),
    ),
  },
  { $id: 'ValidationError' },
);

export const errorResponses = {
  422: Type.Ref('ValidationError'),
  500: Type.Ref('Error'),
} as const;

export const err = Type.Ref('Error');

/** The `{tool_id}` path parameter of every company-management operation (the spec calls companies "tools" there). */
export const ToolIdParams = Type.Object({
  tool_id: Type.String({ format: 'uuid', description: 'Company (tool) id' }),
});

/** The Idempotency-Key header of the agent API's creates (proposals, their replies, webhook endpoints). */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$', description: 'Retrying with the same key returns the first result and creates nothing twice (kept 24 hours)' })),
});

/** Deepest row a list may skip to: an offset past it is a 422, never a database error. Use cursors to go further. */
export const MAX_OFFSET = 1_000_000;

/** The `offset` query parameter of every list route. */
export const offsetParam = (description = 'Rows to skip') =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description }));
