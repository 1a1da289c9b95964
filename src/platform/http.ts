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
