import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

/** The Fastify instance as routes see it: TypeBox schemas give validation, types and OpenAPI at once. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** `{"detail": "..."}`: every non-validation error. */
export const ErrorSchema = Type.Object({ detail: Type.String() }, { $id: 'Error' });

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

/** Deepest row a list may skip to: an offset past it is a 422, never a database error. Use cursors to go further. */
export const MAX_OFFSET = 1_000_000;

/** The `offset` query parameter of every list route. */
export const offsetParam = (description = 'Rows to skip') =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description }));
