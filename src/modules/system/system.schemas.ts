import { Type } from 'typebox';

export const HealthSchema = Type.Object({ status: Type.Literal('ok') }, { $id: 'Health' });

const CheckSchema = Type.Object({ ok: Type.Boolean(), detail: Type.Optional(Type.String()) });

export const DeepHealthSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    checks: Type.Object({
      database: CheckSchema,
      migrations: CheckSchema,
      embeddings: CheckSchema,
      jobs: CheckSchema,
      shutdown: CheckSchema,
      vector_index: CheckSchema,
    }),
    store: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
    version: Type.String(),
  },
  { $id: 'DeepHealth' },
);

export const PublicConfigSchema = Type.Object(
  {
    service_name: Type.String(),
    display_name: Type.String(),
    base_url: Type.String(),
    agent_api_base: Type.String(),
    mcp_url: Type.String(),
    version: Type.String(),
    features: Type.Object({
      llm: Type.Boolean({ description: 'A language model is configured (AI edit, ask and crawl analysis use it)' }),
      smtp: Type.Boolean({ description: 'Mail goes out through SMTP (otherwise to the developer outbox)' }),
      embeddings_provider: Type.String(),
    }),
  },
  { $id: 'PublicConfig' },
);
