import { Type, type Static } from 'typebox';

export const WIDGET_POSITIONS = ['bottom-right', 'bottom-left'] as const;
export const WIDGET_SOURCES = ['profile', 'pages'] as const;
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'Hex colour, #rrggbb' });

export { ToolIdParams } from '../../platform/http.js';
export const PublicIdParams = Type.Object({ widget_public_id: Type.String({ minLength: 1, maxLength: 64 }) });
export const SiteOriginQuery = Type.Object({
  site_origin: Type.Optional(Type.String({ maxLength: 300, description: 'Origin of the page embedding the widget (scheme://host[:port]); the Origin header wins when a browser sends one' })),
});

/** POST body: every field optional, only the given ones change. Unknown fields (e.g. the read-only ones GET returns) are ignored. */
export const WidgetConfigUpdateSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    title: Type.Optional(Type.String({ maxLength: 80, description: 'Header of the chat window (default: the company name)' })),
    greeting: Type.Optional(Type.String({ maxLength: 500, description: 'First message shown to visitors' })),
    primary_color: Type.Optional(Color),
    text_color: Type.Optional(Color),
    position: Type.Optional(Type.Union(WIDGET_POSITIONS.map((p) => Type.Literal(p)))),
    allowed_origins: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
        maxItems: 20,
        description: 'Sites allowed to embed the widget, as origins (https://www.example.com) or bare domains; empty = the company website only',
      }),
    ),
    sources: Type.Optional(Type.Array(Type.Union(WIDGET_SOURCES.map((s) => Type.Literal(s))), { maxItems: 2, description: 'What answers may use: the profile, crawled pages' })),
    show_branding: Type.Optional(Type.Boolean({ description: 'false hides the "Powered by" line under the chat (pro plan; 402 on free). The line returns if the plan lapses' })),
    regenerate_public_id: Type.Optional(Type.Boolean({ description: 'true issues a new widget_public_id; embeds with the old one stop working' })),
  },
  { additionalProperties: true },
);
export type WidgetConfigUpdate = Static<typeof WidgetConfigUpdateSchema>;

export const WidgetConfigSchema = Type.Object(
  {
    tool_id: Type.String(),
    widget_public_id: Type.String({ description: 'Public, unguessable id used by the embed code' }),
    enabled: Type.Boolean(),
    title: Type.String(),
    greeting: Type.String(),
    primary_color: Type.String(),
    text_color: Type.String(),
    position: Type.String(),
    allowed_origins: Type.Array(Type.String()),
    effective_origins: Type.Array(Type.String(), { description: 'Origins actually allowed (allowed_origins, or the company website when that is empty)' }),
    sources: Type.Array(Type.String()),
    show_branding: Type.Boolean({ description: 'What the owner chose' }),
    branding_shown: Type.Boolean({ description: 'Whether visitors see the "Powered by" line now (always on a plan without widget_unbranded)' }),
    embed_code: Type.String({ description: 'The script tag to paste into the site' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WidgetConfig' },
);

export const WidgetPublicConfigSchema = Type.Object(
  {
    widget_public_id: Type.String(),
    company_name: Type.String(),
    title: Type.String(),
    greeting: Type.String(),
    primary_color: Type.String(),
    text_color: Type.String(),
    position: Type.String(),
    powered_by: Type.Union([Type.Object({ name: Type.String(), url: Type.String() }), Type.Null()], { description: 'The "Powered by" line to show, or null' }),
    accepts_requests: Type.Boolean({ description: 'Whether the widget offers "Leave your details" (POST …/lead): the company is verified' }),
  },
  { $id: 'WidgetPublicConfig' },
);

export const WidgetSourcesSchema = Type.Object(
  {
    widget_public_id: Type.String(),
    sources: Type.Array(Type.Object({ type: Type.String({ description: 'profile or page' }), title: Type.String(), url: Type.String() })),
  },
  { $id: 'WidgetSources' },
);

export const WidgetChatRequestSchema = Type.Object(
  {
    messages: Type.Array(
      Type.Object({ role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]), content: Type.String({ minLength: 1, maxLength: 2000 }) }),
      { minItems: 1, maxItems: 20, description: 'The conversation so far, oldest first; the last one is the visitor question' },
    ),
    site_origin: Type.Optional(Type.String({ maxLength: 300 })),
  },
  { additionalProperties: true },
);
export type WidgetChatRequest = Static<typeof WidgetChatRequestSchema>;

export const WidgetLeadRequestSchema = Type.Object({
  name: Type.String({ maxLength: 200, description: "The visitor's name" }),
  email: Type.String({ maxLength: 254, description: 'Where the company answers' }),
  message: Type.String({ maxLength: 5000, description: 'What the visitor needs (at least a sentence)' }),
  phone: Type.Optional(Type.String({ maxLength: 40 })),
  site_origin: Type.Optional(Type.String({ maxLength: 300 })),
});

export const WidgetChatResponseSchema = Type.Object(
  {
    answer: Type.String({ description: 'Plain text' }),
    answered: Type.Boolean({ description: 'false when the company information does not answer the question (it is recorded for the owner)' }),
  },
  { $id: 'WidgetChatResponse' },
);

export const WidgetModelOutputSchema = Type.Object({ answer: Type.String({ maxLength: 4000 }), answered: Type.Boolean() }, { additionalProperties: false });

/** An agent's question about one company: does the company information say yes, no, or nothing about it. */
export const ANSWER_STATUSES = ['yes', 'no', 'not_stated'] as const;
export type AnswerStatus = (typeof ANSWER_STATUSES)[number];
export const AgentAnswerModelOutputSchema = Type.Object(
  { answer: Type.String({ maxLength: 4000 }), answer_status: Type.Union(ANSWER_STATUSES.map((s) => Type.Literal(s))) },
  { additionalProperties: false },
);

/** $id'd schemas, registered once in app.ts before the routes. */
export const widgetSchemas = [WidgetConfigSchema, WidgetPublicConfigSchema, WidgetSourcesSchema, WidgetChatResponseSchema];
