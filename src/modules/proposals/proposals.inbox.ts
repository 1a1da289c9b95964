import type { BearerPrincipal } from '../../platform/auth.js';
import { notFound } from '../../platform/errors.js';
import type { ProposalStatus } from './proposal-status.js';
import type { ProposalsCtx } from './proposals.context.js';
import type { ProposalDetail, ProposalRow } from './proposals.schemas.js';
import { toProposal, withThreads } from './proposals.views.js';

/** Reading proposals: the agent's sent ones, the owner's inbox, the administrators' view of one agent. */
export async function detail(ctx: ProposalsCtx, id: string): Promise<ProposalDetail> {
  const row = await ctx.repo.findById(id);
  if (!row) throw notFound('Proposal');
  return (await withThreads(ctx.repo, [row]))[0]!;
}

/** The proposal behind an owner action, or 404 when the caller does not manage its company. */
export async function managedProposal(ctx: ProposalsCtx, principal: BearerPrincipal, proposalId: string): Promise<ProposalRow> {
  const row = await ctx.repo.findById(proposalId);
  if (!row) throw notFound('Proposal');
  if (principal.kind === 'admin') return row;
  if (!(await ctx.deps.ownership.owns(principal.userId, row.company_id))) throw notFound('Proposal');
  return row;
}

export async function listForAgent(ctx: ProposalsCtx, agentId: string, q: { status?: ProposalStatus; limit: number; offset: number }) {
  const { rows, total } = await ctx.repo.list({ agentId, status: q.status, includeDeleted: true, limit: q.limit, offset: q.offset });
  return { proposals: rows.map(toProposal), total, limit: q.limit, offset: q.offset, has_more: q.offset + rows.length < total };
}

export async function getForAgent(ctx: ProposalsCtx, agentId: string, proposalId: string): Promise<ProposalDetail> {
  const row = await ctx.repo.findById(proposalId);
  // Another agent's proposal does not exist for this caller.
  if (!row || row.agent_id !== agentId) throw notFound('Proposal');
  return (await withThreads(ctx.repo, [row]))[0]!;
}

export async function listForOwner(ctx: ProposalsCtx, principal: BearerPrincipal, q: { status?: ProposalStatus; limit: number; offset: number; include_deleted?: boolean; q?: string }) {
  // Administrators manage every company, so they see every proposal.
  const companyIds = principal.kind === 'admin' ? undefined : await ctx.deps.ownership.companyIdsOf(principal.userId);
  const { rows, total } = await ctx.repo.list({
    companyIds,
    status: q.status,
    includeDeleted: q.include_deleted ?? false,
    q: q.q?.trim() || undefined,
    limit: q.limit,
    offset: q.offset,
  });
  return { proposals: await withThreads(ctx.repo, rows), total, limit: q.limit, offset: q.offset, has_more: q.offset + rows.length < total };
}

export async function listForAdmin(ctx: ProposalsCtx, agentId: string, q: { limit: number; offset: number; include_deleted?: boolean }) {
  const { rows, total } = await ctx.repo.list({ agentId, includeDeleted: q.include_deleted ?? false, limit: q.limit, offset: q.offset });
  return { proposals: await withThreads(ctx.repo, rows), total, limit: q.limit, offset: q.offset, has_more: q.offset + rows.length < total };
}

export async function countsByAgents(ctx: ProposalsCtx, agentIds: string[]): Promise<Map<string, { total: number; pending: number; approved: number; rejected: number; responded: number }>> {
  const out = new Map(agentIds.map((id) => [id, { total: 0, pending: 0, approved: 0, rejected: 0, responded: 0 }]));
  for (const r of await ctx.repo.countsByAgents(agentIds)) {
    const c = out.get(r.agent_id)!;
    c[r.status] += r.n;
    c.total += r.n;
  }
  return out;
}
