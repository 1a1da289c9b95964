import { Type } from 'typebox';
import { BEARER_SECURITY, guardEveryRoute, type Guards } from '../../platform/auth.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import type { ProposalsService } from '../proposals/proposals.service.js';
import { AdminAgentProposalsQuery } from '../proposals/proposals.schemas.js';
import type { AgentsService } from './agents.service.js';
import { AdminAgentListQuery, AgentIdParams, AgentReportIdParams, ResolveAgentReportBody } from './agents.schemas.js';

export interface AdminAgentsRoutesOptions {
  agents: AgentsService;
  proposals: ProposalsService;
  guards: Guards;
}

const adminAuth = { security: BEARER_SECURITY };
const denied = { 401: err, 403: err };

/** Administration of agents (base /api/tools/admin/agents, spec 4.5). */
export async function adminAgentsRoutes(app: App, { agents, proposals, guards }: AdminAgentsRoutesOptions): Promise<void> {
  guardEveryRoute(app, guards.requireAdmin);

  const withCounts = async (rows: Awaited<ReturnType<AgentsService['mustExist']>>[]) => {
    const ids = rows.map((r) => r.id);
    const [counts, reports] = await Promise.all([proposals.countsByAgents(ids), proposals.reportCountsByAgents(ids)]);
    return rows.map((r) => agents.toAdmin(r, counts.get(r.id)!, reports.get(r.id)));
  };

  app.get('', {
    schema: {
      operationId: 'admin.agents.list',
      tags: ['admin'],
      summary: 'Agents with proposal counts, newest first',
      description: 'Page with offset, or with cursor (keyset: pass next_cursor; offset is then ignored). q matches the name or owner email.',
      ...adminAuth,
      querystring: AdminAgentListQuery,
      response: { 200: Type.Ref('AdminAgentList'), ...denied, ...errorResponses },
    },
  }, async (req) => {
    const limit = req.query.limit ?? 50;
    const offset = req.query.cursor ? 0 : (req.query.offset ?? 0);
    const page = await agents.list({ q: req.query.q, limit, offset, cursor: req.query.cursor });
    return { agents: await withCounts(page.rows), total: page.total, limit, offset, has_more: page.hasMore, next_cursor: page.nextCursor };
  });

  app.get('/reports', {
    schema: {
      operationId: 'admin.agents.reports',
      tags: ['admin'],
      summary: 'Owners\' open reports of agents, oldest first (the moderation queue)',
      ...adminAuth,
      response: { 200: Type.Ref('AgentReportQueue'), ...denied, ...errorResponses },
    },
  }, async () => proposals.openAgentReports());

  app.post('/reports/:report_id/resolve', {
    schema: {
      operationId: 'admin.agents.resolveReport',
      tags: ['admin'],
      summary: 'Dismiss a report, or deactivate the agent and close its open reports',
      ...adminAuth,
      params: AgentReportIdParams,
      body: ResolveAgentReportBody,
      response: { 200: Type.Object({ resolved: Type.Integer({ description: 'Reports closed' }), agent: Type.Ref('AdminAgent') }), 404: err, ...denied, ...errorResponses },
    },
  }, async (req) => {
    const report = await proposals.openAgentReport(req.params.report_id);
    const deactivate = req.body.decision === 'deactivate_agent';
    // The agent first: a report is closed as "deactivated" only once the agent is.
    const agent = deactivate ? await agents.setActive(report.agent_id, false) : await agents.mustExist(report.agent_id);
    const { resolved } = await proposals.resolveAgentReport(report.id, deactivate ? 'deactivated' : 'dismissed');
    return { resolved, agent: (await withCounts([agent]))[0]! };
  });

  for (const [action, active] of [['deactivate', false], ['reactivate', true]] as const) {
    app.post(`/:agent_id/${action}`, {
      schema: {
        operationId: `admin.agents.${action}`,
        tags: ['admin'],
        summary: active ? 'Reactivate an agent (its current key works again)' : 'Deactivate an agent (history kept; its key is refused)',
        ...adminAuth,
        params: AgentIdParams,
        response: { 200: Type.Ref('AdminAgent'), 404: err, ...denied, ...errorResponses },
      },
    }, async (req) => (await withCounts([await agents.setActive(req.params.agent_id, active)]))[0]!);
  }

  app.get('/:agent_id/proposals', {
    schema: {
      operationId: 'admin.agents.proposals',
      tags: ['admin'],
      summary: "An agent's proposals with threads, newest first",
      ...adminAuth,
      params: AgentIdParams,
      querystring: AdminAgentProposalsQuery,
      response: { 200: Type.Ref('ProposalDetailList'), 404: err, ...denied, ...errorResponses },
    },
  }, async (req) => {
    await agents.mustExist(req.params.agent_id);
    return proposals.listForAdmin(req.params.agent_id, { limit: req.query.limit ?? 50, offset: req.query.offset ?? 0, include_deleted: req.query.include_deleted });
  });
}
