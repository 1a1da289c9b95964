import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Guards } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import type { AgentsService } from './agents.service.js';
import { RegisterBody, UpdateAgentBody } from './agents.schemas.js';

export interface AgentsRoutesOptions {
  agents: AgentsService;
  guards: Guards;
}

/** The calling agent, set by guards.requireAgent. */
export function callingAgentId(req: FastifyRequest): string {
  if (!req.agent) throw new AppError('unauthorized', 'Missing API key: send the X-API-Key header');
  return req.agent.agentId;
}

const keyAuth = { security: [{ ApiKey: [] }] };

/** Agent API: registration and the agent's own account (base /api/v1/agent). */
export async function agentsRoutes(app: App, { agents, guards }: AgentsRoutesOptions): Promise<void> {
  app.post('/register', {
    schema: {
      operationId: 'agents.register',
      tags: ['agent'],
      summary: 'Register an agent and receive its API key',
      description:
        'One agent per owner email (case-insensitive; a second registration is 409). Disposable inboxes are refused, and the email domain must accept mail. ' +
        'The API key is shown once in this response and cannot be retrieved later; usage.mcp_config is ready to paste into an MCP client.',
      body: RegisterBody,
      response: { 201: Type.Ref('AgentKeyEnvelope'), 409: err, 429: err, ...errorResponses },
    },
  }, async (req, reply) => reply.status(201).send(await agents.register(req.body)));

  app.get('/me', {
    preHandler: guards.requireAgent,
    schema: {
      operationId: 'agents.me',
      tags: ['agent'],
      summary: 'The calling agent',
      ...keyAuth,
      response: { 200: Type.Ref('AgentInfo'), 401: err, 429: err, ...errorResponses },
    },
  }, async (req) => agents.me(callingAgentId(req)));

  app.put('/me', {
    preHandler: guards.requireAgent,
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
    preHandler: guards.requireAgent,
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
    preHandler: guards.requireAgent,
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
