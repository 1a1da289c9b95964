import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import { createServices, type ServiceDeps, type Services } from './services.js';
import { clientErrorHandler, errorBody, frameworkErrors, MAX_HEADER_BYTES, MAX_PARAM_LENGTH, registerErrorHandling } from './platform/error-handler.js';
import { registerInputBounds, tightenSchemaFormats } from './platform/input-bounds.js';
import { buildSerializerFactory } from './platform/serializer.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import { registerRouteRoles } from './platform/auth.js';
import { ErrorSchema, ValidationErrorSchema, type App } from './platform/http.js';
import { registerMetrics } from './platform/metrics.js';
import { loggerOptions } from './platform/logging.js';
import { registerOpenApi } from './platform/openapi.js';
import type { HttpModule } from './platform/module.js';
import { registerAgentRateLimit } from './platform/rate-limit.js';
import { adminModule } from './modules/admin/index.js';
import { agentsModule } from './modules/agents/index.js';
import { askModule } from './modules/ask/index.js';
import { authModule } from './modules/auth/index.js';
import { companiesModule } from './modules/companies/index.js';
import { crawlModule } from './modules/crawl/index.js';
import { discoveryModule } from './modules/discovery/index.js';
import { mcpModule } from './modules/mcp/index.js';
import { proposalsModule } from './modules/proposals/index.js';
import { searchModule } from './modules/search/index.js';
import { systemModule } from './modules/system/index.js';
import { API_VERSION } from './modules/system/system.service.js';
import { webModule } from './modules/web/index.js';
import { webhooksModule } from './modules/webhooks/index.js';
import { widgetModule } from './modules/widget/index.js';
import { paymentsModule } from './modules/payments/index.js';
import { scansModule } from './modules/scans/index.js';
import { siteModule } from './modules/site/index.js';
import { reviewsModule } from './modules/reviews/index.js';

export interface AppDeps extends ServiceDeps {
  /** Where log lines go (tests read them to check redaction); stdout by default. */
  logStream?: { write(line: string): void };
}

export type { Services };

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/**
 * The domain modules, whose services createServices builds: each says in its index.ts which services
 * it needs, which schemas it adds, which routes it serves to agents under /api/v1/agent and which
 * other routes it serves. Their order is the order of the OpenAPI document.
 */
const MODULES: readonly HttpModule<Services>[] = [
  paymentsModule,
  scansModule,
  siteModule,
  systemModule,
  authModule,
  agentsModule,
  proposalsModule,
  reviewsModule,
  webhooksModule,
  searchModule,
  askModule,
  companiesModule,
  mcpModule,
  discoveryModule,
  adminModule,
  widgetModule,
  crawlModule,
  webModule,
];

/**
 * Builds the whole service: platform (logging, errors, OpenAPI, store, embeddings, jobs),
 * then the domain modules' services, then their routes. server.ts only listens.
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(config, deps.logStream),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A 2,000-character CJK query is about 18 KB once encoded: headers may take 64 KB (Node's default is 16 KB).
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false }, onCreate: tightenSchemaFormats },
    // Answered below in the detail shape instead of Fastify's own 503 body.
    return503OnClosing: false,
    schemaController: { compilersFactory: { buildSerializer: buildSerializerFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Graceful shutdown: requests already running finish; one that arrives on a kept-alive connection after
  // SIGTERM is told to retry elsewhere (503, Retry-After, Connection: close) so the connection can end.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!closing) return;
    return reply
      .code(503)
      .header('connection', 'close')
      .header('retry-after', '1')
      .send(errorBody(req, 'unavailable', 'This instance is shutting down: retry the request (another instance, or this one after its restart, will answer)'));
  });

  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  registerErrorHandling(app);
  registerInputBounds(app);
  registerSecurityHeaders(app);
  registerRouteRoles(app);
  for (const schema of [ErrorSchema, ValidationErrorSchema, ...MODULES.flatMap((module) => module.schemas ?? [])]) {
    app.addSchema(schema);
  }
  await registerOpenApi(app, config, API_VERSION);

  const lifecycle = await createServices(config, app.log, deps);
  const { services } = lifecycle;
  registerMetrics(app, { jobs: services.jobs, token: config.metricsToken });
  app.decorate('services', services);

  await app.register(async (agent) => {
    await registerAgentRateLimit(agent, { config, isWellFormedKey: services.agents.isWellFormedKey });
    for (const module of MODULES) await module.agentRoutes?.(agent, services);
  }, { prefix: '/api/v1/agent' });
  for (const module of MODULES) await module.routes?.(app, services);

  app.addHook('onReady', lifecycle.start);
  app.addHook('onClose', lifecycle.close);

  return app;
}
