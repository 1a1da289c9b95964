import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** OpenAPI 3.1 document of the whole service at /openapi.json, reference UI at /docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config, version: string): Promise<void> {
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
          '431 (request headers over 64 KB) or 400 (a malformed request), in the same {"detail"} shape. Text may not contain NUL or other control characters (422).',
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
    transform: ({ schema, url }) => {
      const s = schema as { security?: unknown[]; response?: Record<string, unknown>; hide?: boolean };
      const response = s.response && !Object.keys(s.response).some((code) => code.startsWith('4'))
        ? { ...s.response, 431: { description: 'Request headers larger than 64 KB', type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] } }
        : s.response;
      return { schema: { ...schema, security: s.security ?? [], ...(response ? { response } : {}) } as typeof schema, url };
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
