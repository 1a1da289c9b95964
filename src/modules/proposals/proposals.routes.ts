import formbody from '@fastify/formbody';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_SECURITY, BEARER_SECURITY, callingAgentId, type Guards } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { unsubscribePage, unsubscribeResultPage } from './invitations.pages.js';
import type { CreateResult, ProposalsService } from './proposals.service.js';
import {
  AgentListQuery,
  BatchProposalBody,
  CreateProposalBody,
  IdempotencyHeaders,
  OwnerListQuery,
  ProposalIdParams,
  ReplyBody,
  type ProposalResponseRequest,
} from './proposals.schemas.js';

export interface ProposalsRoutesOptions {
  proposals: ProposalsService;
  guards: Guards;
}

const keyAuth = { security: API_KEY_SECURITY };
const bearerAuth = { security: BEARER_SECURITY };

function sendCreated<T>(reply: FastifyReply, out: CreateResult<T>) {
  if (out.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(out.statusCode).send(out.body);
}

/** Agent API: proposals created by the calling agent (base /api/v1/agent). */
export async function agentProposalsRoutes(app: App, { proposals, guards }: ProposalsRoutesOptions): Promise<void> {
  app.post('/proposals', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'proposals.create',
      tags: ['agent'],
      summary: 'Send a proposal to a verified company',
      description:
        'Creates a proposal (status pending) on behalf of an end customer. Only verified companies accept proposals: an unknown company is 404, an unverified one 409, and nothing is stored. ' +
        'Send an Idempotency-Key header to retry safely: the same key and body return the first result (header Idempotent-Replayed: true); the same key with another body is 422.',
      ...keyAuth,
      headers: IdempotencyHeaders,
      body: CreateProposalBody,
      response: { 201: Type.Ref('ProposalDetail'), 401: err, 404: err, 409: err, 429: err, ...errorResponses },
    },
  }, async (req, reply) => sendCreated(reply, await proposals.create(callingAgentId(req), req.body, req.headers['idempotency-key'])));

  app.post('/proposals/batch', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'proposals.createBatch',
      tags: ['agent'],
      summary: 'Send the same proposal to up to 10 companies',
      description:
        'Duplicate ids collapse. Each company is decided on its own: results lists, per distinct company id, either the created proposal or the refusal reason (not_found, not_verified). ' +
        '201 when at least one proposal was created, 200 when all were refused. Idempotency-Key works as for a single create.',
      ...keyAuth,
      headers: IdempotencyHeaders,
      body: BatchProposalBody,
      response: { 200: Type.Ref('ProposalBatchResult'), 201: Type.Ref('ProposalBatchResult'), 401: err, 429: err, ...errorResponses },
    },
  }, async (req, reply) => sendCreated(reply, await proposals.createBatch(callingAgentId(req), req.body, req.headers['idempotency-key'])));

  app.get('/proposals', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'proposals.list',
      tags: ['agent'],
      summary: "The calling agent's proposals, newest first",
      ...keyAuth,
      querystring: AgentListQuery,
      response: { 200: Type.Ref('ProposalList'), 401: err, 429: err, ...errorResponses },
    },
  }, async (req) => proposals.listForAgent(callingAgentId(req), { status: req.query.status, limit: req.query.limit ?? 50, offset: req.query.offset ?? 0 }));

  app.get('/proposals/:proposal_id', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'proposals.get',
      tags: ['agent'],
      summary: 'One proposal with its conversation thread',
      description: "The thread is in order: the agent's original request, company responses and agent replies, each with author_role, text and created_at. Another agent's proposal is 404.",
      ...keyAuth,
      params: ProposalIdParams,
      response: { 200: Type.Ref('ProposalDetail'), 401: err, 404: err, 429: err, ...errorResponses },
    },
  }, async (req) => proposals.getForAgent(callingAgentId(req), req.params.proposal_id));

  app.post('/proposals/:proposal_id/reply', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'proposals.reply',
      tags: ['agent'],
      summary: 'Reply to the company; the proposal becomes pending again',
      description:
        'Appends the message to the thread and sets the status to pending (spec 3.1). Replying before the company has answered is allowed: the message joins the thread and the status stays pending. ' +
        'Idempotency-Key works as for a create: a retry with the same key and message returns the first answer (Idempotent-Replayed: true) and adds no second reply.',
      ...keyAuth,
      headers: IdempotencyHeaders,
      params: ProposalIdParams,
      body: ReplyBody,
      response: { 200: Type.Ref('ProposalDetail'), 401: err, 404: err, 429: err, ...errorResponses },
    },
  }, async (req, reply) => sendCreated(reply, await proposals.reply(callingAgentId(req), req.params.proposal_id, req.body.message, req.headers['idempotency-key'])));
}

function principalOf(req: FastifyRequest) {
  if (!req.principal) throw new AppError('unauthorized', 'Not authenticated: send Authorization: Bearer <token>');
  return req.principal;
}

/** Dashboard: proposals to the caller's companies (base /api/proposals). */
export async function ownerProposalsRoutes(app: App, { proposals, guards }: ProposalsRoutesOptions): Promise<void> {
  app.get('', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'proposals.ownerList',
      tags: ['proposals'],
      summary: "Proposals to the caller's companies, with threads",
      description: 'Newest first. q searches the customer name or email; soft-deleted proposals only with include_deleted=true. An administrator sees every proposal.',
      ...bearerAuth,
      querystring: OwnerListQuery,
      response: { 200: Type.Ref('ProposalDetailList'), 401: err, ...errorResponses },
    },
  }, async (req) => proposals.listForOwner(principalOf(req), { ...req.query, limit: req.query.limit ?? 10, offset: req.query.offset ?? 0 }));

  app.post('/:proposal_id/respond', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'proposals.respond',
      tags: ['proposals'],
      summary: 'Approve, reject or answer a proposal',
      description:
        'approve → approved, reject → rejected, respond (message required) → responded; the message joins the thread and the agent\'s owner is emailed. ' +
        'A proposal that is already approved or rejected is 409 until the agent replies; a deleted one must be restored first (409). Another owner\'s proposal is 404.',
      ...bearerAuth,
      params: ProposalIdParams,
      body: Type.Ref('ProposalResponseRequest'),
      response: { 200: Type.Ref('ProposalDetail'), 401: err, 404: err, 409: err, ...errorResponses },
    },
  }, async (req) => proposals.respond(principalOf(req), req.params.proposal_id, req.body as ProposalResponseRequest));

  app.delete('/:proposal_id', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'proposals.delete',
      tags: ['proposals'],
      summary: 'Soft-delete a proposal (status unchanged)',
      ...bearerAuth,
      params: ProposalIdParams,
      response: { 200: Type.Ref('ProposalDetail'), 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => proposals.setDeleted(principalOf(req), req.params.proposal_id, true));

  const ReportOutcome = Type.Object({ message: Type.String(), blocked: Type.Boolean({ description: 'Whether the agent is now blocked from this company' }) });

  app.post('/:proposal_id/report', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'proposals.report',
      tags: ['proposals'],
      summary: "Report the proposal's agent (spam, abuse) and, by default, block it from this company",
      description:
        'Administrators see reports next to each agent. A blocked agent\'s new proposals and replies to this company are refused (403, in a sentence); ' +
        'undo it with DELETE /api/proposals/{proposal_id}/block. Reporting the same proposal again records nothing new.',
      ...bearerAuth,
      params: ProposalIdParams,
      body: Type.Object({
        reason: Type.Union([Type.Literal('spam'), Type.Literal('abuse'), Type.Literal('other')]),
        note: Type.Optional(Type.String({ maxLength: 2000, description: 'What happened, for the administrators (plain text)' })),
        block: Type.Optional(Type.Boolean({ description: 'Block the agent from this company (default true)' })),
      }),
      response: { 200: ReportOutcome, 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => proposals.report(principalOf(req), req.params.proposal_id, req.body));

  app.delete('/:proposal_id/block', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'proposals.unblock',
      tags: ['proposals'],
      summary: "Let the proposal's agent write to this company again",
      ...bearerAuth,
      params: ProposalIdParams,
      response: { 200: ReportOutcome, 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => proposals.unblock(principalOf(req), req.params.proposal_id));

  app.post('/:proposal_id/restore', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'proposals.restore',
      tags: ['proposals'],
      summary: 'Restore a soft-deleted proposal',
      ...bearerAuth,
      params: ProposalIdParams,
      response: { 200: Type.Ref('ProposalDetail'), 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => proposals.setDeleted(principalOf(req), req.params.proposal_id, false));
}

const UnsubscribeToken = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

/**
 * The unsubscribe link of claim invitations (base /invitations): GET shows a button, POST opts the address out.
 * A mail client's one-click unsubscribe (RFC 8058) posts to the same address with the token in the query.
 */
export async function invitationRoutes(app: App, { proposals, serviceName }: { proposals: ProposalsService; serviceName: string }): Promise<void> {
  await app.register(formbody);
  app.get('/unsubscribe', { schema: { hide: true, querystring: UnsubscribeToken } }, async (req, reply) =>
    reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).type('text/html; charset=utf-8').send(unsubscribePage(req.query.token, serviceName)),
  );

  app.post('/unsubscribe', {
    schema: {
      operationId: 'invitations.unsubscribe',
      tags: ['proposals'],
      summary: 'Stop invitations to claim a listing at the address they were sent to',
      description:
        'The link in a claim invitation opens a page whose button posts here (form or JSON, token in the body); mail clients post here for one-click ' +
        'unsubscribe (RFC 8058, token in the query). Unknown tokens are 400. Repeating it is harmless.',
      security: [],
      querystring: Type.Partial(UnsubscribeToken),
      body: Type.Optional(Type.Object({ token: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), 'List-Unsubscribe': Type.Optional(Type.String()) })),
      response: { 200: Type.Object({ message: Type.String() }), 400: err, ...errorResponses },
    },
  }, async (req, reply) => {
    const token = req.body?.token ?? req.query.token;
    const isForm = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    if (!token) throw new AppError('bad_request', 'The unsubscribe link has no token: use the link from the invitation email as it was sent.');
    if (!isForm) return proposals.unsubscribeInvitations(token);
    reply.headers({ 'cache-control': 'no-store' }).type('text/html; charset=utf-8');
    try {
      return reply.send(unsubscribeResultPage(true, (await proposals.unsubscribeInvitations(token)).message));
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return reply.status(400).send(unsubscribeResultPage(false, e.message));
      throw e;
    }
  });
}
