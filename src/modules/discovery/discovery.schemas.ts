import { Type } from 'typebox';

export const AiPluginSchema = Type.Object(
  {
    schema_version: Type.Literal('v1'),
    name_for_human: Type.String({ maxLength: 20 }),
    name_for_model: Type.String({ maxLength: 50, pattern: '^[a-zA-Z0-9_]+$' }),
    description_for_human: Type.String({ maxLength: 100 }),
    description_for_model: Type.String({ maxLength: 8000 }),
    auth: Type.Object({ type: Type.Literal('none') }),
    api: Type.Object({ type: Type.Literal('openapi'), url: Type.String(), is_user_authenticated: Type.Boolean() }),
    logo_url: Type.String(),
    contact_email: Type.String(),
    legal_info_url: Type.String(),
  },
  { $id: 'AiPluginManifest' },
);

const UcpEntity = Type.Object(
  {
    version: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    spec: Type.Optional(Type.String()),
    schema: Type.Optional(Type.String()),
    transport: Type.Optional(Type.Union([Type.Literal('rest'), Type.Literal('mcp'), Type.Literal('a2a'), Type.Literal('embedded')])),
    endpoint: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const UcpProfileSchema = Type.Object(
  {
    ucp: Type.Object({
      version: Type.String({ description: 'UCP version (YYYY-MM-DD)' }),
      services: Type.Record(Type.String(), Type.Array(UcpEntity), { description: 'Service bindings keyed by reverse-domain name: REST and MCP transports' }),
      capabilities: Type.Record(Type.String(), Type.Array(UcpEntity)),
      payment_handlers: Type.Record(Type.String(), Type.Array(UcpEntity), { description: 'Empty: the directory takes no payments from agents' }),
    }),
  },
  { $id: 'UcpProfile' },
);
