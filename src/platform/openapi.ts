import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** One method and path the app answers (Fastify's own HEAD for each GET left out), for the document's coverage test. */
export interface ServedRoute {
  method: string;
  url: string;
  /** `schema.hide`: left out of the document on purpose. */
  hidden: boolean;
}

const served = new WeakMap<FastifyInstance, ServedRoute[]>();

/** Every route the app registered, in order (openapi-lint.test.ts compares them with /openapi.json). */
export function servedRoutes(app: FastifyInstance): readonly ServedRoute[] {
  return served.get(app) ?? [];
}

/**
 * Fastify answers HEAD for every GET with a HEAD route of its own that shares the GET's handler: the GET
 * documents it. A HEAD route written on purpose (the payment webhook's URL probe) is an operation of its
 * own, which @fastify/swagger leaves out unless the route asks: this marks it so.
 */
function collectRoutes(app: FastifyInstance): void {
  const routes: ServedRoute[] = [];
  served.set(app, routes);
  const getHandlers = new WeakSet<object>();
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map(String);
    if (methods.includes('GET')) getHandlers.add(route.handler);
    const implicitHead = methods.length === 1 && methods[0] === 'HEAD' && getHandlers.has(route.handler);
    if (implicitHead) return;
    if (methods.includes('HEAD')) route.config = { ...route.config, swagger: { ...route.config?.swagger, exposeHeadRoute: true } };
    const hidden = Boolean((route.schema as { hide?: boolean } | undefined)?.hide);
    for (const method of methods) routes.push({ method, url: route.url ?? route.path, hidden });
  });
}

/** OpenAPI 3.1 document of the whole service at /openapi.json, reference UI at /docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config, version: string): Promise<void> {
  // Before the swagger plugin's own onRoute hook, which reads the HEAD marking.
  collectRoutes(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'AgentPages API',
        version,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        description:
          'AgentPages is a business directory built for AI agents: hybrid company search, lookups, proposals to verified companies, ' +
          'and the dashboard API for company owners and administrators. Agent API base: /api/v1/agent. Errors: {"detail": "..."}; ' +
          'validation errors are 422 {"detail":[{"type","loc","msg","input"}]}. Any operation may also answer 414 (a path segment over 500 characters), ' +
          '431 (request headers over 64 KB) or 400 (a malformed request), in the same {"detail"} shape. Text may not contain NUL or other control characters, ' +
          'nor an unpaired UTF-16 surrogate (422); date-times are RFC 3339 with a year from 0001 to 9999 and a UTC offset within ±15:59 (422 otherwise).',
      },
      servers: [{ url: config.baseUrl }],
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Agent API key from POST /api/v1/agent/register' },
          OAuth2PasswordBearer: {
            type: 'oauth2',
            description: 'Bearer token from the magic-link sign-in (owners) or admin login',
            flows: { password: { tokenUrl: '/api/admin/login', scopes: {} } },
          },
        },
      },
      tags: [
        { name: 'agent', description: 'Agent API (/api/v1/agent)' },
        { name: 'system', description: 'Health and configuration' },
      ],
    },
    // An operation that declares no credential is public: say so (security: []) rather than leave
    // readers and linters to guess. An operation that documents no 4xx still has one: 431 for
    // oversized headers, answered by the HTTP layer for every route.
    // A HEAD route's operationId gets a `-head` suffix from @fastify/swagger (against a clash with its GET):
    // only HEAD routes of their own are documented (collectRoutes), so they keep the id they were given.
    transform: ({ schema, url, route }) => {
      const s = schema as { security?: unknown[]; response?: Record<string, unknown>; hide?: boolean; operationId?: string };
      // A route without response schemas (the webhook URL probe) gets the default 200 @fastify/swagger would write.
      const documented = s.response ?? { 200: { description: 'Default Response', type: 'null' } };
      const response = !Object.keys(documented).some((code) => code.startsWith('4'))
        ? { ...documented, 431: { description: 'Request headers larger than 64 KB', type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] } }
        : documented;
      const operationId = route.method === 'HEAD' && s.operationId?.endsWith('-head') ? { operationId: s.operationId.slice(0, -'-head'.length) } : {};
      return { schema: { ...schema, ...operationId, security: s.security ?? [], response } as typeof schema, url };
    },
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
}
