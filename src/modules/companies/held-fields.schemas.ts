import { Type } from 'typebox';

export const HeldFieldIdParams = Type.Object({ tool_id: Type.String({ format: 'uuid' }), held_id: Type.String({ format: 'uuid' }) });

export const HeldFieldSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    field: Type.Union(['name', 'phone', 'city', 'country', 'address'].map((f) => Type.Literal(f)), { description: 'The profile field the value is for' }),
    value: Type.String({ description: 'What the crawl read' }),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: 'How sure the crawl was (below the field\'s publish threshold, so it was not published)' }),
    source_url: Type.String({ description: 'The page it was read on' }),
    method: Type.String({ description: 'How it was read: jsonld, tel, address-shape, structured-address, tld...' }),
    found_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'HeldField' },
);

export const HeldFieldsResponseSchema = Type.Object(
  { held: Type.Array(Type.Ref('HeldField'), { description: 'Values a crawl read but was not sure of; none is on the public profile until it is used' }) },
  { $id: 'HeldFields' },
);

export const AcceptHeldFieldResultSchema = Type.Object(
  {
    accepted: Type.Ref('HeldField'),
    held: Type.Array(Type.Ref('HeldField'), { description: 'What is still waiting' }),
    company: Type.Ref('ToolDetailResponse'),
  },
  { $id: 'AcceptHeldFieldResult' },
);

export const DismissHeldFieldResultSchema = Type.Object(
  { dismissed: Type.Ref('HeldField'), held: Type.Array(Type.Ref('HeldField'), { description: 'What is still waiting' }) },
  { $id: 'DismissHeldFieldResult' },
);

export const heldFieldSchemas = [HeldFieldSchema, HeldFieldsResponseSchema, AcceptHeldFieldResultSchema, DismissHeldFieldResultSchema];
