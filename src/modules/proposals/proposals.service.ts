import type { BearerPrincipal } from '../../platform/auth.js';
import type { Queryable } from '../../platform/db.js';
import type { ProposalStatus, ResponseAction } from './proposal-status.js';
import type { PersonChannel, ProposalInput, ProposalsCtx, ProposalsServiceDeps } from './proposals.context.js';
import { createPersonLimiter, requestFromPerson, type PersonRequest } from './proposals.people.js';
import { countsByAgents, getForAgent, listForAdmin, listForAgent, listForOwner } from './proposals.inbox.js';
import { reply, respond, setDeleted } from './proposals.replies.js';
import { createProposalsRepo } from './proposals.repo.js';
import { createBatch, createProposal } from './proposals.send.js';
import { unsubscribeInvitations } from './proposals.invitations.js';
import { openAgentReport, openAgentReports, reportAgent, reportCountsByAgents, resolveAgentReport, unblockAgent } from './proposals.reports.js';
import type { ReportReason } from './agent-reports.repo.js';

export type { AgentAddresses, PersonChannel, ProposalsServiceDeps } from './proposals.context.js';
export type { PersonRequest, PersonRequestResult } from './proposals.people.js';
export type { CreateResult } from './proposals.idempotency.js';
export { toProposal } from './proposals.views.js';

/**
 * Proposals from agents to verified companies and the thread that follows. The verbs live by group:
 * sending (proposals.send.ts), the thread after it (proposals.replies.ts), reading (proposals.inbox.ts);
 * mail and webhook events in proposals.notify.ts, Idempotency-Key replays in proposals.idempotency.ts.
 */
export function createProposalsService(deps: ProposalsServiceDeps) {
  const ctx: ProposalsCtx = { deps, repo: createProposalsRepo(deps.db) };
  const personLimiter = createPersonLimiter();
  return {
    // People (the company page's quote form, the company's chat widget)
    requestFromPerson: (channel: PersonChannel, companyId: string, input: PersonRequest, ip: string) => requestFromPerson(ctx, personLimiter, channel, companyId, input, ip),

    // Agent side
    create: (agentId: string, input: ProposalInput & { company_id: string }, idempotencyKey?: string) => createProposal(ctx, agentId, input, idempotencyKey),
    createBatch: (agentId: string, input: ProposalInput & { company_ids: string[] }, idempotencyKey?: string) => createBatch(ctx, agentId, input, idempotencyKey),
    listForAgent: (agentId: string, q: { status?: ProposalStatus; limit: number; offset: number }) => listForAgent(ctx, agentId, q),
    getForAgent: (agentId: string, proposalId: string) => getForAgent(ctx, agentId, proposalId),
    reply: (agentId: string, proposalId: string, message: string, idempotencyKey?: string) => reply(ctx, agentId, proposalId, message, idempotencyKey),

    // Owner side
    listForOwner: (principal: BearerPrincipal, q: { status?: ProposalStatus; limit: number; offset: number; include_deleted?: boolean; q?: string }) => listForOwner(ctx, principal, q),
    respond: (principal: BearerPrincipal, proposalId: string, body: { action: ResponseAction; message?: string | undefined }) => respond(ctx, principal, proposalId, body),
    setDeleted: (principal: BearerPrincipal, proposalId: string, deleted: boolean) => setDeleted(ctx, principal, proposalId, deleted),
    /** Agents that proposed to a company, read with the caller's query runner (inside its transaction). */
    agentIdsProposedTo: (q: Queryable, companyId: string): Promise<string[]> => createProposalsRepo(q).agentIdsProposedTo(companyId),

    report: (principal: BearerPrincipal, proposalId: string, body: { reason: ReportReason; note?: string | undefined; block?: boolean | undefined }) => reportAgent(ctx, principal, proposalId, body),
    unblock: (principal: BearerPrincipal, proposalId: string) => unblockAgent(ctx, principal, proposalId),

    // Claim invitations (the link in the mail)
    unsubscribeInvitations: (token: string) => unsubscribeInvitations(ctx, token),

    // Administration
    listForAdmin: (agentId: string, q: { limit: number; offset: number; include_deleted?: boolean }) => listForAdmin(ctx, agentId, q),
    countsByAgents: (agentIds: string[]) => countsByAgents(ctx, agentIds),
    reportCountsByAgents: (agentIds: string[]) => reportCountsByAgents(ctx, agentIds),
    openAgentReports: (limit?: number) => openAgentReports(ctx, limit),
    openAgentReport: (reportId: string) => openAgentReport(ctx, reportId),
    resolveAgentReport: (reportId: string, resolution: 'dismissed' | 'deactivated') => resolveAgentReport(ctx, reportId, resolution),
  };
}

export type ProposalsService = ReturnType<typeof createProposalsService>;
