import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import { createServices, type CoreServices, type ServiceDeps } from './services.js';
import { clientErrorHandler, errorBody, frameworkErrors, MAX_HEADER_BYTES, MAX_PARAM_LENGTH, registerErrorHandling } from './platform/error-handler.js';
import { registerInputBounds, tightenSchemaFormats } from './platform/input-bounds.js';
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
import { paymentsModule, type PaymentsService } from './modules/payments/index.js';
import { scansModule, type ScansService } from './modules/scans/index.js';
import { siteModule } from './modules/site/index.js';

export interface AppDeps extends ServiceDeps {
  /** Where log lines go (tests read them to check redaction); stdout by default. */
  logStream?: { write(line: string): void };
}

/** Every service of the app: the core ones and those of the newer modules. */
export interface Services extends CoreServices {
  payments: PaymentsService;
  scans: ScansService;
}

export type { CoreServices };

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/**
 * The domain modules whose services createServices builds: each says in its index.ts which schemas
 * it adds, which routes it serves to agents under /api/v1/agent and which other routes it serves.
 * Their order is the order of the OpenAPI document. Payments, scans and the public site build their
 * own service and come first (buildApp below).
 */
const MODULES: readonly HttpModule<CoreServices>[] = [
  systemModule,
  authModule,
  agentsModule,
  proposalsModule,
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
  const core = lifecycle.services;
  registerMetrics(app, { jobs: core.jobs, token: config.metricsToken });

  // The newer modules build their service and register their own routes, in dependency order.
  const payments = await paymentsModule(app, core);
  const scans = await scansModule(app, { ...core, payments });
  await siteModule(app, { ...core, payments, scans });
  const services: Services = { ...core, payments, scans };
  app.decorate('services', services);

  await app.register(async (agent) => {
    await registerAgentRateLimit(agent, { config, isWellFormedKey: core.agents.isWellFormedKey });
    for (const module of MODULES) await module.agentRoutes?.(agent, core);
  }, { prefix: '/api/v1/agent' });
  for (const module of MODULES) await module.routes?.(app, core);

  app.addHook('onReady', lifecycle.start);
  // After the job runner started: payment events acknowledged before a stop get their job now.
  app.addHook('onReady', async () => {
    await payments.impl.queuePending();
  });
  app.addHook('onClose', lifecycle.close);

  return app;
}
