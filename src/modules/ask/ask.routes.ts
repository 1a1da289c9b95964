import { Type } from 'typebox';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { BEARER_SECURITY, type Guards } from '../../platform/auth.js';
import { AskQuerySchema, InsightsDeleteQuerySchema, InsightsQuerySchema, ToolIdParams } from './ask.schemas.js';
import type { AskService } from './ask.service.js';
import type { InsightsService } from './insights.service.js';

const ASK_DESCRIPTION =
  'Answers a natural-language question from the directory: a hybrid search (plus the context companies you pass) retrieves profiles, ' +
  'then the answer names the companies that fit and why, or says plainly that nothing fits. Plain text only. ' +
  'With a language model configured the answer is written by the model from the retrieved profiles only (it can never name a company that was not retrieved); ' +
  'without one it is built deterministically from the profiles. Unknown context ids are ignored.';

/** Agent API: POST /ask with query parameters (base /api/v1/agent). */
export async function askAgentRoutes(app: App, { ask }: { ask: AskService }): Promise<void> {
  app.post('/ask', {
    schema: {
      operationId: 'agent.ask',
      tags: ['agent'],
      summary: 'Ask the directory a question',
      description: ASK_DESCRIPTION,
      querystring: AskQuerySchema,
      response: { 200: Type.Ref('AskResponse'), ...errorResponses },
    },
  }, async (req) => ask.ask(req.query, 'query'));
}

/** /api/ask (JSON body) and the owners' audience insights (base /api). */
export async function askRoutes(app: App, { ask, insights, guards }: { ask: AskService; insights: InsightsService; guards: Guards }): Promise<void> {
  app.post('/ask', {
    schema: {
      operationId: 'ask.ask',
      tags: ['ask'],
      summary: 'Ask the directory a question (JSON body)',
      description: ASK_DESCRIPTION,
      body: Type.Ref('AskRequest'),
      response: { 200: Type.Ref('AskResponse'), ...errorResponses },
    },
  }, async (req) => ask.ask(req.body as { question: string; context_company_ids?: string[] }, 'body'));

  const manager = guards.requireCompanyManager('tool_id');

  app.get('/tools/:tool_id/insights', {
    onRequest: manager,
    schema: {
      operationId: 'insights.list',
      tags: ['tools'],
      summary: 'Audience insights: questions the directory or your profile could not answer well',
      description:
        'Unanswered or poorly answered questions that concern this company (searches and asks where it came up only as a weak match or where nothing fit, ' +
        'and questions to its chat widget that its profile could not answer), grouped into categories (topics) with counts, recent examples and last seen. ' +
        'Only the question text is stored, nothing about who asked; a daily job deletes questions older than 180 days. ' +
        'The counts cover the plan\'s history window (history_days: 7 days on free, 90 on pro). Owner of the company or administrator.',
      params: ToolIdParams,
      querystring: InsightsQuerySchema,
      security: BEARER_SECURITY,
      response: { 200: Type.Ref('InsightsResponse'), 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => insights.list(req.params.tool_id, req.query.limit ?? 50));

  app.get('/tools/:tool_id/insights/export.csv', {
    onRequest: manager,
    schema: {
      operationId: 'insights.exportCsv',
      tags: ['tools'],
      summary: 'Download the insight questions as CSV (pro plan)',
      description:
        'Every recorded question of the plan\'s history window, newest first: asked_at, category, source, reason, question (RFC 4180, UTF-8; ' +
        'cells that a spreadsheet would read as a formula are prefixed with an apostrophe). A company on the free plan gets 402 naming the plan that unlocks it. ' +
        'Owner of the company or administrator.',
      params: ToolIdParams,
      security: BEARER_SECURITY,
      response: {
        200: { description: 'CSV file', content: { 'text/csv': { schema: Type.String() } } },
        401: err, 402: err, 404: err, ...errorResponses,
      },
    },
  }, async (req, reply) => {
    const csv = await insights.exportCsv(req.params.tool_id);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="insights-${req.params.tool_id}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  app.delete('/tools/:tool_id/insights', {
    onRequest: manager,
    schema: {
      operationId: 'insights.clear',
      tags: ['tools'],
      summary: 'Clear one insight category',
      description: 'Deletes every recorded question of that category for this company (case-insensitive). Clearing an empty category reports deleted: 0.',
      params: ToolIdParams,
      querystring: InsightsDeleteQuerySchema,
      security: BEARER_SECURITY,
      response: { 200: Type.Ref('InsightsClearResponse'), 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => insights.clear(req.params.tool_id, req.query.category));
}
