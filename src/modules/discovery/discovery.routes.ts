import { Type } from 'typebox';
import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/http.js';
import { AiPluginSchema, UcpProfileSchema } from './discovery.schemas.js';
import type { DiscoveryService } from './discovery.service.js';

export interface DiscoveryRoutesOptions {
  discovery: DiscoveryService;
  serviceName: string;
}

const TAG = 'discovery';
const textPlain = (description: string) => ({ description, content: { 'text/plain': { schema: Type.String() } } });

/** Discovery files at the root: /{service}.md, /llms.txt, /.well-known/ai-plugin.json, /.well-known/ucp. */
export async function discoveryRoutes(app: App, { discovery, serviceName }: DiscoveryRoutesOptions): Promise<void> {
  for (const schema of [AiPluginSchema, UcpProfileSchema]) app.addSchema(schema);

  app.get(`/${serviceName}.md`, {
    schema: {
      operationId: 'discovery.agentGuide',
      tags: [TAG],
      summary: 'Agent discovery file (Markdown, llms.txt format)',
      description: 'What the service is, base URLs, authentication, every agent endpoint with an example, the MCP config, limits and error shapes. Generated from this OpenAPI document.',
      response: { 200: textPlain('Markdown in the llms.txt format') },
    },
  }, async (_req, reply) => reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(discovery.markdown()));

  app.get('/llms.txt', {
    schema: { operationId: 'discovery.llmsTxt', tags: [TAG], summary: `Redirects (301) to /${serviceName}.md`, hide: true },
  }, async (_req, reply) => reply.redirect(`/${serviceName}.md`, 301));

  app.get('/.well-known/ai-plugin.json', {
    schema: {
      operationId: 'discovery.aiPlugin',
      tags: [TAG],
      summary: 'Plugin manifest for agent discovery',
      response: { 200: Type.Ref('AiPluginManifest'), ...errorResponses },
    },
  }, async (_req, reply) => reply.header('cache-control', 'public, max-age=3600').send(discovery.aiPlugin()));

  app.get('/.well-known/ucp', {
    schema: {
      operationId: 'discovery.ucp',
      tags: [TAG],
      summary: 'Universal Commerce Protocol business profile',
      description: 'UCP 2026-04-08 profile: the REST and MCP service bindings of this directory. Served without redirects and cacheable for an hour.',
      response: { 200: Type.Ref('UcpProfile'), ...errorResponses },
    },
  }, async (_req, reply) => reply.header('cache-control', 'public, max-age=3600').send(discovery.ucpProfile()));

  app.get('/.well-known/logo.svg', {
    schema: { operationId: 'discovery.logo', tags: [TAG], summary: 'Logo of the service (SVG)', hide: true },
  }, async (_req, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(discovery.logoSvg()));
}
