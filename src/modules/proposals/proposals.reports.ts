import { toPlainText } from '../../lib/text.js';
import type { BearerPrincipal } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import { createAgentReportsRepo, type ReportReason } from './agent-reports.repo.js';
import type { ProposalsCtx } from './proposals.context.js';
import { managedProposal } from './proposals.inbox.js';

/**
 * Owners report an agent that sent spam or abuse (administrators see the reports next to the agent) and, by
 * default, block it: a blocked agent's proposals and replies to that company are refused (issue 38).
 */
export async function reportAgent(ctx: ProposalsCtx, principal: BearerPrincipal, proposalId: string, body: { reason: ReportReason; note?: string | undefined; block?: boolean | undefined }) {
  const row = await managedProposal(ctx, principal, proposalId);
  assertFromAgent(row);
  const note = toPlainText(body.note ?? '').slice(0, 2000);
  const block = body.block !== false;
  await ctx.deps.db.transaction(async (tx) => {
    const repo = createAgentReportsRepo(tx);
    await repo.report({ agentId: row.agent_id, companyId: row.company_id, proposalId: row.id, userId: principal.kind === 'user' ? principal.userId : null, reason: body.reason, note });
    if (block) await repo.block(row.company_id, row.agent_id);
  });
  ctx.deps.log?.warn({ agentId: row.agent_id, companyId: row.company_id, reason: body.reason }, 'agent reported by a company');
  return {
    message: block
      ? `Reported, and blocked: ${row.agent_name} can no longer send ${row.company_name} proposals or replies. Administrators review reports.`
      : `Reported. Administrators review reports; ${row.agent_name} can still write to ${row.company_name}.`,
    blocked: block,
  };
}

export async function unblockAgent(ctx: ProposalsCtx, principal: BearerPrincipal, proposalId: string) {
  const row = await managedProposal(ctx, principal, proposalId);
  assertFromAgent(row);
  await createAgentReportsRepo(ctx.deps.db).unblock(row.company_id, row.agent_id);
  return { message: `${row.agent_name} may write to ${row.company_name} again.`, blocked: false };
}

/** A person's request (quote form, widget) has no agent to report or block: the owner declines it instead. */
function assertFromAgent(row: { origin: string }): void {
  if (row.origin !== 'api') throw new AppError('conflict', 'This request came from a person, not an agent: there is no agent to report or block. Decline it if it is not for you.');
}

/** Refuses an agent the company blocked (a sentence the agent can pass on). */
export async function assertNotBlocked(ctx: ProposalsCtx, company: { id: string; name: string }, agentId: string, what: 'proposals' | 'replies'): Promise<void> {
  if (await createAgentReportsRepo(ctx.deps.db).blocked(company.id, agentId)) {
    throw new AppError('forbidden', `${company.name} does not accept ${what} from this agent.`);
  }
}

/** Reports and blocks per agent, for the administrators' agent list. */
export async function reportCountsByAgents(ctx: ProposalsCtx, agentIds: string[]): Promise<Map<string, { reports: number; blocked_by: number }>> {
  const rows = await createAgentReportsRepo(ctx.deps.db).countsByAgents(agentIds);
  return new Map(rows.map((r) => [r.agent_id, { reports: r.reports, blocked_by: r.blocked_by }]));
}

/** The administrators' queue of open reports, oldest first. */
export async function openAgentReports(ctx: ProposalsCtx, limit = 100) {
  const rows = await createAgentReportsRepo(ctx.deps.db).open(limit);
  return { reports: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })) };
}

/** The agent an open report is about; a 404 when it is unknown or already resolved. */
export async function openAgentReport(ctx: ProposalsCtx, reportId: string): Promise<{ id: string; agent_id: string }> {
  const row = await createAgentReportsRepo(ctx.deps.db).openById(reportId);
  if (!row) throw new AppError('not_found', 'This report is not open: it was resolved already, or it does not exist.');
  return row;
}

/** Closes a report: dismissed alone, or with every open report of its agent once the agent is deactivated. */
export async function resolveAgentReport(ctx: ProposalsCtx, reportId: string, resolution: 'dismissed' | 'deactivated'): Promise<{ resolved: number }> {
  const resolved = await createAgentReportsRepo(ctx.deps.db).resolve(reportId, resolution);
  if (!resolved) throw new AppError('not_found', 'This report is not open: it was resolved already, or it does not exist.');
  return { resolved };
}
