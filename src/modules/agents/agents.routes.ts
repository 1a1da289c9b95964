import formbody from '@fastify/formbody';
import { Type } from 'typebox';
import { assertSameOrigin } from '../../platform/security-headers.js';
import { confirmEmailPage, confirmEmailResultPage } from './agents.pages.js';
import { API_KEY_SECURITY, callingAgentId, type Guards } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import type { AgentsService } from './agents.service.js';
import { RegisterBody, UpdateAgentBody } from './agents.schemas.js';

export interface AgentsRoutesOptions {
  agents: AgentsService;
  guards: Guards;
  /** The service's own origin: the confirmation form is accepted only from it. */
  baseUrl: string;
}

const keyAuth = { security: API_KEY_SECURITY };

/** Agent API: registration and the agent's own account (base /api/v1/agent). */
export async function agentsRoutes(app: App, { agents, guards, baseUrl }: AgentsRoutesOptions): Promise<void> {
  // The confirmation page posts a form (scoped to this plugin).
  await app.register(formbody);

  app.post('/register', {
    schema: {
      operationId: 'agents.register',
      tags: ['agent'],
      summary: 'Register an agent and receive its API key',
      description:
        'One agent per owner email (case-insensitive; a second registration is 409). Disposable inboxes are refused, and the email domain must accept mail. ' +
        'The API key is shown once in this response and cannot be retrieved later; usage.mcp_config is ready to paste into an MCP client. ' +
        'A confirmation link is mailed to owner_email: until it is followed nothing else is mailed there (proposal answers included), and a registration left ' +
        'unconfirmed for 24 hours expires: its key stops working and the address may register again.',
      body: RegisterBody,
      response: { 201: Type.Ref('AgentKeyEnvelope'), 409: err, 429: err, ...errorResponses },
    },
  }, async (req, reply) => reply.status(201).send(await agents.register(req.body)));

  const ConfirmQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
  app.get('/confirm-email', { schema: { hide: true, querystring: ConfirmQuery } }, async (req, reply) =>
    reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).type('text/html; charset=utf-8').send(confirmEmailPage(req.query.token)),
  );

  app.post('/confirm-email', {
    schema: {
      operationId: 'agents.confirmEmail',
      tags: ['agent'],
      summary: "Confirm the agent owner's email with the token from the emailed link",
      description: 'The link in the registration mail opens a page whose button posts here (JSON or form). The token works once, for 24 hours. Unknown, used or expired tokens are 400.',
      security: [],
      body: ConfirmQuery,
      response: { 200: Type.Object({ message: Type.String(), agent: Type.Ref('AgentInfo') }), 400: err, 403: err, ...errorResponses },
    },
  }, async (req, reply) => {
    const isForm = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    if (!isForm) return agents.confirmEmail(req.body.token);
    reply.headers({ 'cache-control': 'no-store' }).type('text/html; charset=utf-8');
    try {
      assertSameOrigin(req, baseUrl);
      const r = await agents.confirmEmail(req.body.token);
      return reply.send(confirmEmailResultPage(true, r.message));
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return reply.status(e.status as 400).send(confirmEmailResultPage(false, e.message));
      throw e;
    }
  });

  app.get('/me', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'agents.me',
      tags: ['agent'],
      summary: 'The calling agent',
      ...keyAuth,
      response: { 200: Type.Ref('AgentInfo'), 401: err, 429: err, ...errorResponses },
    },
  }, async (req) => agents.me(callingAgentId(req)));

  app.put('/me', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'agents.update',
      tags: ['agent'],
      summary: 'Update the calling agent',
      description: 'Only supplied (non-null) fields change. A new owner_email passes the same checks as at registration and must not belong to another agent (409).',
      ...keyAuth,
      body: UpdateAgentBody,
      response: { 200: Type.Ref('AgentInfo'), 401: err, 409: err, 429: err, ...errorResponses },
    },
  }, async (req) => agents.update(callingAgentId(req), req.body));

  app.delete('/me', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'agents.deactivate',
      tags: ['agent'],
      summary: 'Deactivate the calling agent',
      description: 'Proposals stay stored; every key-authenticated call answers 401 afterwards. Only an administrator can reactivate.',
      ...keyAuth,
      response: { 200: Type.Ref('AgentDeactivated'), 401: err, 429: err, ...errorResponses },
    },
  }, async (req) => agents.deactivateSelf(callingAgentId(req)));

  app.post('/rotate-key', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'agents.rotateKey',
      tags: ['agent'],
      summary: 'Issue a new API key',
      description: 'Returns a new key (shown once); the previous key stops working at once.',
      ...keyAuth,
      response: { 200: Type.Ref('AgentKeyEnvelope'), 401: err, 429: err, ...errorResponses },
    },
  }, async (req) => agents.rotateKey(callingAgentId(req)));
}
