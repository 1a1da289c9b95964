import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { errorBody } from '../../platform/error-handler.js';
import { registerAgentRateLimit, type AgentRateLimitOptions } from '../../platform/rate-limit.js';
import { landingPage, skillFile } from './mcp.pages.js';
import { handleModern, isModernRequest, JSONRPC, rpcError } from './mcp.protocol.js';
import type { McpService } from './mcp.service.js';
import type { McpEndpoint } from './mcp.tools.js';

export interface McpRoutesOptions {
  mcp: McpService;
  baseUrl: string;
  serviceName: string;
  /** The agent API's per-key and per-IP rate limits apply to MCP calls too. */
  rateLimit?: AgentRateLimitOptions;
}

/** Marks a body that was not valid JSON, so the MCP endpoint can answer -32700 instead of the REST 422. */
const PARSE_FAILED = Object.freeze({ __mcpParseFailed: true });

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * DNS-rebinding defence (MCP transport rules): no Origin (non-browser clients), our own
 * origin, or a localhost page (local tools such as the Inspector) may call; any other
 * browser origin is refused.
 */
export function originAllowed(origin: string | undefined, baseUrl: string): boolean {
  if (!origin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(baseUrl).origin) return true;
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && LOCAL_HOSTS.has(parsed.hostname);
}

const TAG = 'mcp';
const postDescription =
  'Model Context Protocol over Streamable HTTP (stateless). Revision 2026-07-28: no initialize; send MCP-Protocol-Version, Mcp-Method ' +
  '(and Mcp-Name for tools/call) headers matching the body; server/discover, tools/list, tools/call. Revisions 2025-11-25 and earlier: ' +
  'initialize, then tools/list and tools/call. Send X-API-Key for the tools that act for an agent. Body: one JSON-RPC 2.0 message.';

export async function mcpRoutes(app: App, { mcp, baseUrl, serviceName, rateLimit }: McpRoutesOptions): Promise<void> {
  if (rateLimit) await registerAgentRateLimit(app, rateLimit);
  // JSON-RPC wants -32700 for a body that is not JSON; this parser is scoped to this plugin.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(null, PARSE_FAILED);
    }
  });

  /**
   * Answers one POST. Every branch that answers through Fastify returns the reply: an async handler that
   * resolves to undefined before the async onSend hooks have written the answer makes Fastify send a
   * second one (ERR_HTTP_HEADERS_SENT, counted as a 500). The SDK path hijacks the reply and writes it itself.
   */
  async function serve(req: FastifyRequest, reply: FastifyReply, endpoint: McpEndpoint): Promise<FastifyReply | undefined> {
    const rawKey = req.headers['x-api-key'];
    const apiKey = (Array.isArray(rawKey) ? rawKey[0] : rawKey)?.trim() || undefined;
    if (req.body === PARSE_FAILED) {
      return reply.code(400).send(rpcError(null, JSONRPC.PARSE_ERROR, 'Parse error: the body is not valid JSON'));
    }
    if (isModernRequest(req.headers, req.body)) {
      const answer = await handleModern(req.headers, req.body, { ...mcp.runner, endpoint, apiKey });
      reply.code(answer.status);
      return answer.body === undefined ? reply.send() : reply.type('application/json').send(answer.body);
    }
    // The SDK's transport answers 406 unless Accept names both JSON and SSE; a client that sends
    // no Accept (or */*) accepts anything, so it is told so rather than refused.
    const accept = req.raw.headers.accept?.trim();
    if (!accept || accept === '*/*') req.raw.headers.accept = 'application/json, text/event-stream';
    // Initialize-era clients: the SDK's transport, one fresh server per request (stateless).
    reply.hijack();
    const server = mcp.legacyServer(endpoint, apiKey);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    } catch (e) {
      req.log.error({ err: e }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify(rpcError(null, JSONRPC.INTERNAL_ERROR, 'Internal server error')));
      }
    }
    return undefined;
  }

  // Origin is checked before anything else on the MCP endpoints.
  const checkOrigin = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!originAllowed(req.headers.origin, baseUrl)) {
      return reply.code(403).send({ jsonrpc: '2.0', error: { code: JSONRPC.INVALID_REQUEST, message: 'Forbidden: this Origin may not call the MCP endpoint' } });
    }
  };

  // JSON-RPC answers (results and errors) are documented as such; their shape is the MCP specification's.
  const rpcAnswer = Type.Object({ jsonrpc: Type.Literal('2.0') }, { additionalProperties: true, description: 'A JSON-RPC 2.0 response (result or error)' });

  // A body in another type than JSON (or none declared): the framework's 415, in the {detail} shape.
  const unsupportedType = Type.Ref('Error', { description: 'The body is not application/json' });

  const notAllowed = (allow: string) => async (request: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).header('allow', allow).send(errorBody(request, 'method_not_allowed', `Method Not Allowed: this MCP endpoint is stateless and answers ${allow} only`));

  app.post('/mcp', {
    preHandler: checkOrigin,
    schema: { operationId: 'mcp.agent', tags: [TAG], summary: 'Agent MCP server (JSON-RPC over Streamable HTTP)', description: postDescription, response: { 200: rpcAnswer, 400: rpcAnswer, 403: rpcAnswer, 415: unsupportedType, 422: errorResponses[422] } },
  }, async (req, reply) => serve(req, reply, mcp.agentEndpoint()));

  app.get('/mcp', {
    schema: {
      operationId: 'mcp.landing',
      tags: [TAG],
      summary: 'How to connect to the MCP server (HTML)',
      description: 'A page for people: the endpoint, the client configuration and the tools. A client asking for an SSE stream (Accept: text/event-stream without text/html) gets 405: the server is stateless and has none.',
      response: {
        200: { description: 'The page', content: { 'text/html': { schema: Type.String() } } },
        405: Type.Ref('Error', { description: 'No server-to-client SSE stream: POST JSON-RPC messages instead' }),
      },
    },
  }, async (req, reply) => {
    const accept = req.headers.accept ?? '';
    // A legacy client opening its server-to-client SSE stream: there is none (stateless).
    if (accept.includes('text/event-stream') && !accept.includes('text/html')) {
      return reply.code(405).header('allow', 'GET, POST').send(errorBody(req, 'method_not_allowed', 'Method Not Allowed: no SSE stream; POST JSON-RPC messages to this endpoint'));
    }
    const endpoint = mcp.agentEndpoint();
    return reply
      .type('text/html; charset=utf-8')
      .send(landingPage({ baseUrl, serviceName, endpoint, mcpConfig: mcp.mcpConfig() }));
  });
  app.delete('/mcp', { schema: { operationId: 'mcp.agentDelete', hide: true } }, notAllowed('GET, POST'));

  const CompanyParams = Type.Object({ tool_id: Type.String({ maxLength: 100, description: 'Company id (UUID)' }) });

  app.post('/mcp/company/:tool_id', {
    preHandler: checkOrigin,
    schema: {
      operationId: 'mcp.company',
      tags: [TAG],
      summary: 'MCP server of one company',
      description: `${postDescription} Tools: get_profile, get_services_and_contact, ask_about_company (answered from this company's profile and pages only: yes, no or not stated), send_proposal (X-API-Key). Unknown or deleted company: 404.`,
      params: CompanyParams,
      response: { 200: rpcAnswer, 400: rpcAnswer, 403: rpcAnswer, 404: err, 415: unsupportedType, 422: errorResponses[422] },
    },
  }, async (req, reply) => {
    const { endpoint } = await mcp.companyEndpoint(req.params.tool_id);
    return serve(req, reply, endpoint);
  });
  app.get('/mcp/company/:tool_id', { schema: { operationId: 'mcp.companyGet', hide: true, params: CompanyParams } }, notAllowed('POST'));
  app.delete('/mcp/company/:tool_id', { schema: { operationId: 'mcp.companyDelete', hide: true, params: CompanyParams } }, notAllowed('POST'));

  app.get('/mcp/company/:tool_id/SKILL.md', {
    schema: {
      operationId: 'mcp.companySkill',
      tags: [TAG],
      summary: 'Agent Skills file of a company MCP server (text/plain)',
      params: CompanyParams,
      response: {
        200: { description: 'SKILL.md: YAML front matter (name, description) and Markdown', content: { 'text/plain': { schema: Type.String() } } },
        404: err,
        422: errorResponses[422],
      },
    },
  }, async (req, reply) => {
    const { endpoint, profile } = await mcp.companyEndpoint(req.params.tool_id);
    const text = skillFile({ baseUrl, serviceName, name: mcp.skillName(profile), profile, endpoint });
    return reply.type('text/plain; charset=utf-8').send(text);
  });
}
