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
      read_replicas: CheckSchema,
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
    payments: Type.Object({
      provider: Type.Union([Type.Literal('stripe'), Type.Literal('local'), Type.Literal('off')], { description: 'stripe; local: a test provider for development and demos that charges nothing (never in production); off: no plan can be bought here' }),
      test_mode: Type.Boolean({ description: 'Nothing is really charged (the local provider, or a Stripe test-mode key)' }),
      enabled: Type.Boolean({ description: 'A paid plan can be bought on this server' }),
    }),
  },
  { $id: 'PublicConfig' },
);
