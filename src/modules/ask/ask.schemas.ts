import { Type, type Static } from 'typebox';

const QuestionSchema = Type.String({ minLength: 1, maxLength: 2000, description: 'What the customer needs, in natural language (1 to 2000 characters)' });
const ContextIdsSchema = Type.Array(Type.String({ format: 'uuid' }), {
  maxItems: 10,
  description: 'Up to 10 company ids from an earlier search to consider first. Ids that are unknown or deleted are ignored (they may come from an old search), never an error.',
});

/** POST /api/v1/agent/ask takes its fields in the query string (as the spec says). */
export const AskQuerySchema = Type.Object({
  question: QuestionSchema,
  context_company_ids: Type.Optional(ContextIdsSchema),
});
export type AskQuery = Static<typeof AskQuerySchema>;

/** POST /api/ask: the same fields as a JSON body. */
export const AskRequestSchema = Type.Object(
  {
    question: QuestionSchema,
    context_company_ids: Type.Optional(ContextIdsSchema),
  },
  { $id: 'AskRequest', additionalProperties: false },
);
export type AskRequest = Static<typeof AskRequestSchema>;

export const AskResponseSchema = Type.Object(
  {
    question: Type.String(),
    answer: Type.String({ description: 'Plain text built from the same verdicts as `companies`: names the strong matches (in a named place first) and why, or says plainly that nothing in the directory fits (and where the nearest matches are when a place was named); partial results are never called matches.' }),
    found: Type.Boolean({ description: 'true when at least one company meets the need (a strong match, in the named place when one was named); false when the answer says nothing fits' }),
    companies: Type.Array(Type.Ref('CompanySummary'), { description: 'The profiles the answer is grounded in: context companies first, then the matches in the order the answer names them, then partial results (each carries relevance)' }),
    total_found: Type.Integer({ description: 'Number of companies in `companies`' }),
  },
  { $id: 'AskResponse' },
);
export type AskResponse = Static<typeof AskResponseSchema>;

/** What the language model must return; recommended_ids are checked against the retrieved profiles. */
export const AskModelOutputSchema = Type.Object(
  {
    answer: Type.String({ maxLength: 6000 }),
    recommended_ids: Type.Array(Type.String(), { maxItems: 20 }),
    nothing_fits: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const InsightsQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Maximum number of insight categories' })),
});
export const InsightsDeleteQuerySchema = Type.Object({
  category: Type.String({ minLength: 1, maxLength: 200, description: 'The insight category to clear (case-insensitive)' }),
});
export { ToolIdParams } from '../../platform/http.js';

export const InsightsResponseSchema = Type.Object(
  {
    tool_id: Type.String(),
    categories: Type.Array(
      Type.Object({
        category: Type.String({ description: 'Topic: an intent (Pricing & costs, Opening hours & availability, ...), a directory category, or Other' }),
        count: Type.Integer({ description: 'Unanswered or poorly answered questions in this category' }),
        examples: Type.Array(Type.String(), { description: 'Up to 5 recent distinct questions, newest first' }),
        sources: Type.Array(Type.String(), { description: 'Where they were asked: search, ask, widget' }),
        last_seen: Type.String({ format: 'date-time' }),
      }),
    ),
    total_categories: Type.Integer(),
    total_queries: Type.Integer(),
    retention_days: Type.Integer({ description: 'Questions older than this are deleted' }),
    history_days: Type.Integer({ description: 'How many days back the counts and examples reach: 7 on the free plan, 90 on pro' }),
    plan: Type.String({ description: "The company's effective plan (free or pro)" }),
  },
  { $id: 'InsightsResponse' },
);

export const InsightsClearResponseSchema = Type.Object(
  { tool_id: Type.String(), category: Type.String(), deleted: Type.Integer() },
  { $id: 'InsightsClearResponse' },
);

/** $id'd schemas, registered once in app.ts before the routes. */
export const askSchemas = [AskRequestSchema, AskResponseSchema, InsightsResponseSchema, InsightsClearResponseSchema];
