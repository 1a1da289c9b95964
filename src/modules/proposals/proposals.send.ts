import { toPlainLine, toPlainText } from '../../lib/text.js';
import { AppError, invalid } from '../../platform/errors.js';
import { INITIAL_STATUS } from './proposal-status.js';
import type { ProposalInput, ProposalsCtx } from './proposals.context.js';
import { checkNeededByWindow, cleanStructured } from './proposals.fields.js';
import { requestHash, storedResult, writeOnce, type CreateResult } from './proposals.idempotency.js';
import { createAgentReportsRepo } from './agent-reports.repo.js';
import { assertNotBlocked } from './proposals.reports.js';
import { inviteIn, planDelivery, type Delivery, type DeliveryPlan, type InvitationFacts } from './proposals.invitations.js';
import { companyMessage, dispatchMail, ownerAddresses, queueMail } from './proposals.notify.js';
import type { ProposalsRepo } from './proposals.repo.js';
import type { BatchResult, ProposalDetail } from './proposals.schemas.js';
import { toMessage, toProposal } from './proposals.views.js';

/** An agent sends a proposal: to one company, or the same one to several. */
type CleanProposal = ReturnType<typeof clean>;

function clean(input: ProposalInput) {
  const customerName = toPlainLine(input.customer_name).slice(0, 200);
  if (!customerName) throw invalid(['body', 'customer_name'], 'customer_name must contain visible text', input.customer_name, 'string_too_short');
  const description = toPlainText(input.description).slice(0, 10_000);
  if (!description) throw invalid(['body', 'description'], 'description must contain visible text', input.description, 'string_too_short');
  return { customerEmail: input.customer_email.trim().toLowerCase(), customerName, description, type: input.type ?? 'custom', structured: cleanStructured(input) };
}

async function insertOne(tx: ProposalsRepo, agentId: string, companyId: string, p: CleanProposal, delivery: Delivery): Promise<string> {
  const { structured, ...fields } = p;
  const id = await tx.insert({
    agentId, companyId, ...fields, status: INITIAL_STATUS, delivery,
    budget: structured.budget, neededBy: structured.needed_by, location: structured.location, details: structured.details,
  });
  await tx.addMessage({ proposalId: id, authorRole: 'agent', kind: 'request', text: p.description });
  return id;
}

function invitationFacts(row: { id: string; agent_name: string; origin: InvitationFacts['origin'] }, p: CleanProposal): InvitationFacts {
  return { proposalId: row.id, agentName: row.agent_name, origin: row.origin, customerName: p.customerName, description: p.description, structured: p.structured };
}

export async function createProposal(ctx: ProposalsCtx, agentId: string, input: ProposalInput & { company_id: string }, idempotencyKey?: string): Promise<CreateResult<ProposalDetail>> {
  const p = clean(input);
  const hash = requestHash('proposals.create', input);
  const seen = await storedResult<ProposalDetail>(ctx, agentId, idempotencyKey, hash);
  if (seen) return seen;
  // After the replay lookup: a retry the next day replays, though its needed_by may be yesterday by then.
  checkNeededByWindow(p.structured.needed_by);
  // Company checks run before the transaction: on PGlite a query outside an open
  // transaction waits for it to end.
  const company = await ctx.deps.companies.getById(input.company_id);
  if (!company.is_verified) {
    throw new AppError('conflict', `${company.name} is not verified and does not accept proposals; only verified companies can receive proposals`);
  }
  await assertNotBlocked(ctx, company, agentId, 'proposals');
  const owners = await ownerAddresses(ctx, company.id);
  const plan = await planDelivery(ctx, company);
  const mailIds: string[] = [];
  const out = await writeOnce<ProposalDetail>(ctx, agentId, idempotencyKey, hash, async (tx, raw) => {
    const id = await insertOne(tx, agentId, company.id, p, plan.delivery);
    const row = (await tx.findById(id))!;
    await queueMail(ctx, raw, owners, companyMessage(ctx, row, 'new', p.description, p.structured), mailIds);
    await inviteIn(ctx, raw, company, plan, invitationFacts(row, p), mailIds);
    return { statusCode: 201, body: { ...toProposal(row), messages: (await tx.messagesOf([id])).map(toMessage) } };
  });
  await dispatchMail(ctx, mailIds);
  return out;
}

export async function createBatch(ctx: ProposalsCtx, agentId: string, input: ProposalInput & { company_ids: string[] }, idempotencyKey?: string): Promise<CreateResult<BatchResult>> {
  const p = clean(input);
  const hash = requestHash('proposals.batch', input);
  const seen = await storedResult<BatchResult>(ctx, agentId, idempotencyKey, hash);
  if (seen) return seen;
  checkNeededByWindow(p.structured.needed_by);
  const ids = [...new Set(input.company_ids.map((id) => id.toLowerCase()))];
  const found = new Map((await ctx.deps.companies.findManyByIds(ids)).map((c) => [c.id, c]));
  const blocked = await createAgentReportsRepo(ctx.deps.db).blockedAmong(agentId, [...found.keys()]);
  const owners = new Map<string, string[]>();
  const plans = new Map<string, DeliveryPlan>();
  for (const c of found.values()) {
    if (!c.is_verified) continue;
    owners.set(c.id, await ownerAddresses(ctx, c.id));
    plans.set(c.id, await planDelivery(ctx, c));
  }
  const mailIds: string[] = [];
  const out = await writeOnce<BatchResult>(ctx, agentId, idempotencyKey, hash, async (tx, raw) => {
    let created = 0;
    const results: BatchResult['results'] = [];
    for (const companyId of ids) {
      const company = found.get(companyId);
      if (!company) {
        results.push({ company_id: companyId, outcome: 'refused', reason: 'not_found', detail: 'No company with this id in the directory' });
      } else if (!company.is_verified) {
        results.push({ company_id: companyId, outcome: 'refused', reason: 'not_verified', detail: `${company.name} is not verified and does not accept proposals` });
      } else if (blocked.has(companyId)) {
        results.push({ company_id: companyId, outcome: 'refused', reason: 'blocked', detail: `${company.name} does not accept proposals from this agent` });
      } else {
        const plan = plans.get(companyId)!;
        const id = await insertOne(tx, agentId, companyId, p, plan.delivery);
        const row = (await tx.findById(id))!;
        await queueMail(ctx, raw, owners.get(companyId) ?? [], companyMessage(ctx, row, 'new', p.description, p.structured), mailIds);
        await inviteIn(ctx, raw, company, plan, invitationFacts(row, p), mailIds);
        created++;
        results.push({ company_id: companyId, outcome: 'created', proposal: toProposal(row) });
      }
    }
    return { statusCode: created > 0 ? 201 : 200, body: { results, created, refused: results.length - created } };
  });
  await dispatchMail(ctx, mailIds);
  return out;
}
