import { Type } from 'typebox';
import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/http.js';
import { A2aAgentCardSchema, AiPluginSchema, ApiCatalogSchema, McpServerCardSchema, UcpProfileSchema } from './discovery.schemas.js';
import type { DiscoveryService } from './discovery.service.js';
import { API_CATALOG_TYPE, apiCatalogLink } from './discovery.well-known.js';

export interface DiscoveryRoutesOptions {
  discovery: DiscoveryService;
  serviceName: string;
  baseUrl: string;
}

const TAG = 'discovery';
const textPlain = (description: string) => ({ description, content: { 'text/plain': { schema: Type.String() } } });
/** Every discovery file: public, cacheable for an hour. */
const CACHE = 'public, max-age=3600';

/**
 * Discovery files at the root: /{service}.md, /llms.txt, and under /.well-known: ai-plugin.json, ucp,
 * mcp/server-card.json, agent-card.json (and the legacy agent.json), api-catalog, security.txt.
 */
export async function discoveryRoutes(app: App, { discovery, serviceName, baseUrl }: DiscoveryRoutesOptions): Promise<void> {
  for (const schema of [AiPluginSchema, UcpProfileSchema, McpServerCardSchema, A2aAgentCardSchema, ApiCatalogSchema]) app.addSchema(schema);

  app.get(`/${serviceName}.md`, {
    schema: {
      operationId: 'discovery.agentGuide',
      tags: [TAG],
      summary: 'Agent discovery file (Markdown, llms.txt format)',
      description: 'What the service is, base URLs, authentication, every agent endpoint with an example, the MCP config, limits and error shapes. Generated from this OpenAPI document.',
      response: { 200: textPlain('Markdown in the llms.txt format') },
    },
  }, async (_req, reply) => reply.type('text/plain; charset=utf-8').header('cache-control', CACHE).send(discovery.markdown()));

  app.get('/llms.txt', {
    schema: {
      operationId: 'discovery.llmsTxt',
      tags: [TAG],
      summary: `Redirects (301) to /${serviceName}.md`,
      response: { 301: Type.Null({ description: `Moved permanently: the Location header names /${serviceName}.md` }) },
    },
  }, async (_req, reply) => reply.redirect(`/${serviceName}.md`, 301));

  app.get('/.well-known/ai-plugin.json', {
    schema: {
      operationId: 'discovery.aiPlugin',
      tags: [TAG],
      summary: 'Plugin manifest for agent discovery',
      response: { 200: Type.Ref('AiPluginManifest'), ...errorResponses },
    },
  }, async (_req, reply) => reply.header('cache-control', CACHE).send(discovery.aiPlugin()));

  app.get('/.well-known/ucp', {
    schema: {
      operationId: 'discovery.ucp',
      tags: [TAG],
      summary: 'Universal Commerce Protocol business profile',
      description: 'UCP 2026-04-08 profile: the REST and MCP service bindings of this directory. Served without redirects and cacheable for an hour.',
      response: { 200: Type.Ref('UcpProfile'), ...errorResponses },
    },
  }, async (_req, reply) => reply.header('cache-control', CACHE).send(discovery.ucpProfile()));

  app.get('/.well-known/mcp/server-card.json', {
    schema: {
      operationId: 'discovery.mcpServerCard',
      tags: [TAG],
      summary: 'MCP Server Card of the agent MCP server',
      description: 'The /mcp endpoint (Streamable HTTP), the protocol revisions it answers, its tools as tools/list lists them, and the X-API-Key header the proposal and webhook tools need (searching needs none).',
      response: { 200: Type.Ref('McpServerCard'), ...errorResponses },
    },
  }, async (_req, reply) => reply.header('cache-control', CACHE).send(discovery.mcpServerCard()));

  const agentCardSchema = (operationId: string, summary: string, extra: object = {}) => ({
    operationId,
    tags: [TAG],
    summary,
    description: 'Agent2Agent (A2A 1.0) AgentCard: name, provider, the MCP and REST interfaces, skills with examples, and the API key scheme for the skills that need it.',
    response: { 200: Type.Ref('A2aAgentCard'), ...errorResponses },
    ...extra,
  });
  app.get('/.well-known/agent-card.json', { schema: agentCardSchema('discovery.agentCard', 'A2A agent card') }, async (_req, reply) =>
    reply.header('cache-control', CACHE).send(discovery.agentCard()));
  app.get('/.well-known/agent.json', { schema: agentCardSchema('discovery.agentCardLegacy', 'A2A agent card (legacy path)', { deprecated: true }) }, async (_req, reply) =>
    reply.header('cache-control', CACHE).send(discovery.agentCard()));

  // GET and HEAD (Fastify answers HEAD from the GET route) both carry the Link header (RFC 9727 section 2).
  app.get('/.well-known/api-catalog', {
    schema: {
      operationId: 'discovery.apiCatalog',
      tags: [TAG],
      summary: 'API catalog (RFC 9727 linkset)',
      description: 'A linkset (application/linkset+json) whose anchor is the API base, with service-desc (this OpenAPI document), service-doc (/docs) and status (the health check). HEAD answers with the Link header only.',
      response: { 200: { description: 'The API catalog', content: { 'application/linkset+json': { schema: Type.Ref('ApiCatalog') } } }, ...errorResponses },
    },
  }, async (_req, reply) => reply.type(API_CATALOG_TYPE).header('cache-control', CACHE).header('link', apiCatalogLink(baseUrl)).send(discovery.apiCatalog()));

  app.get('/.well-known/security.txt', {
    schema: {
      operationId: 'discovery.securityTxt',
      tags: [TAG],
      summary: 'Security contact (RFC 9116 security.txt)',
      description: 'Contact, Expires (one year after the request), Canonical and Preferred-Languages.',
      response: { 200: textPlain('security.txt') },
    },
  }, async (_req, reply) => reply.type('text/plain; charset=utf-8').header('cache-control', CACHE).send(discovery.securityTxt()));

  app.get('/.well-known/logo.svg', {
    schema: { operationId: 'discovery.logo', tags: [TAG], summary: 'Logo of the service (SVG)', hide: true },
  }, async (_req, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(discovery.logoSvg()));
}
