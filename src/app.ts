import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import { createServices, type CoreServices, type ServiceDeps } from './services.js';
import { clientErrorHandler, errorBody, frameworkErrors, MAX_HEADER_BYTES, MAX_PARAM_LENGTH, registerErrorHandling } from './platform/error-handler.js';
import { registerInputBounds } from './platform/input-bounds.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import { ErrorSchema, ValidationErrorSchema, type App } from './platform/http.js';
import { registerMetrics } from './platform/metrics.js';
import { loggerOptions } from './platform/logging.js';
import { registerOpenApi } from './platform/openapi.js';
import { registerAgentRateLimit } from './platform/rate-limit.js';
import { adminAgentsRoutes } from './modules/agents/agents.admin.routes.js';
import { agentsRoutes } from './modules/agents/agents.routes.js';
import { agentsSchemas } from './modules/agents/agents.schemas.js';
import { agentProposalsRoutes, ownerProposalsRoutes } from './modules/proposals/proposals.routes.js';
import { proposalsSchemas } from './modules/proposals/proposals.schemas.js';
import { adminAuthRoutes, authRoutes, authSchemas, devMailboxRoutes } from './modules/auth/auth.routes.js';
import { companiesRoutes } from './modules/companies/companies.routes.js';
import {
  CategoriesResponseSchema,
  ChangesResponseSchema,
  CompanyChangeSchema,
  CompanyProfileSchema,
  CompanySummarySchema,
  LocationSchema,
} from './modules/companies/companies.schemas.js';
import { toolsRoutes } from './modules/companies/tools.routes.js';
import { toolSchemas } from './modules/companies/tools.schemas.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { adminSchemas } from './modules/admin/admin.schemas.js';
import { askAgentRoutes, askRoutes } from './modules/ask/ask.routes.js';
import { askSchemas } from './modules/ask/ask.schemas.js';
import { widgetPublicRoutes, widgetRoutes, widgetScriptRoutes } from './modules/widget/widget.routes.js';
import { widgetSchemas } from './modules/widget/widget.schemas.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { SearchResponseSchema } from './modules/search/search.schemas.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { DeepHealthSchema, HealthSchema, PublicConfigSchema } from './modules/system/system.schemas.js';
import { API_VERSION } from './modules/system/system.service.js';
import { mcpRoutes } from './modules/mcp/mcp.routes.js';
import { createDiscoveryService, type OpenApiDoc } from './modules/discovery/discovery.service.js';
import { discoveryRoutes } from './modules/discovery/discovery.routes.js';
import { crawlRoutes } from './modules/crawl/crawl.routes.js';
import { crawlSchemas } from './modules/crawl/crawl.schemas.js';
import { paymentsModule, type PaymentsService } from './modules/payments/index.js';
import { scansModule, type ScansService } from './modules/scans/index.js';
import { siteModule } from './modules/site/index.js';
import { webRoutes } from './modules/web/web.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { webhooksSchemas } from './modules/webhooks/webhooks.schemas.js';

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
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false } },
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
  for (const schema of [
    ErrorSchema,
    ValidationErrorSchema,
    LocationSchema,
    CompanySummarySchema,
    CompanyProfileSchema,
    CompanyChangeSchema,
    ChangesResponseSchema,
    CategoriesResponseSchema,
    SearchResponseSchema,
    HealthSchema,
    DeepHealthSchema,
    PublicConfigSchema,
  ]) {
    app.addSchema(schema);
  }
  await registerOpenApi(app, config, API_VERSION);

  const lifecycle = await createServices(config, app.log, deps);
  const core = lifecycle.services;
  const { jobs, mail, auth, guards, companies, search, system, agents, proposals, tools, admin, insights, ask, widget, mcp, crawl, webhooks } = core;
  registerMetrics(app, { jobs, token: config.metricsToken });
  const discovery = createDiscoveryService({
    config,
    version: API_VERSION,
    openapi: () => app.swagger() as OpenApiDoc,
    mcpEndpoint: () => mcp.agentEndpoint(),
    mcpConfig: () => mcp.mcpConfig(),
  });

  // The newer modules build their service and register their own routes, in dependency order.
  const payments = await paymentsModule(app, core);
  const scans = await scansModule(app, { ...core, payments });
  await siteModule(app, { ...core, payments, scans });
  const services: Services = { ...core, payments, scans };
  app.decorate('services', services);

  await app.register(systemRoutes, { prefix: '/api', system });
  for (const schema of authSchemas) app.addSchema(schema);
  for (const schema of crawlSchemas) app.addSchema(schema);
  await app.register(authRoutes, { prefix: '/api/auth', auth, guards, serviceName: config.serviceName, baseUrl: config.baseUrl });
  await app.register(adminAuthRoutes, { prefix: '/api/admin', auth, guards, serviceName: config.serviceName, baseUrl: config.baseUrl });
  // Only where mail cannot be delivered anyway, never in production (the route also refuses non-loopback callers).
  if (config.nodeEnv !== 'production' && !config.smtpUrl) await app.register(devMailboxRoutes, { prefix: '/dev', mail });
  for (const schema of [...agentsSchemas, ...proposalsSchemas, ...webhooksSchemas]) app.addSchema(schema);
  for (const schema of [...askSchemas, ...widgetSchemas]) app.addSchema(schema);
  await app.register(async (agent) => {
    await registerAgentRateLimit(agent, { config, isWellFormedKey: agents.isWellFormedKey });
    await agent.register(agentsRoutes, { agents, guards, baseUrl: config.baseUrl });
    await agent.register(agentProposalsRoutes, { proposals, guards });
    await agent.register(webhooksRoutes, { webhooks, guards, settings: config.webhooks });
    await agent.register(searchRoutes, { search });
    await agent.register(askAgentRoutes, { ask });
    await agent.register(companiesRoutes, { companies });
  }, { prefix: '/api/v1/agent' });
  await app.register(ownerProposalsRoutes, { prefix: '/api/proposals', proposals, guards });
  await app.register(mcpRoutes, { mcp, baseUrl: config.baseUrl, serviceName: config.serviceName, rateLimit: { config, isWellFormedKey: agents.isWellFormedKey } });
  await app.register(discoveryRoutes, { discovery, serviceName: config.serviceName });
  await app.register(adminAgentsRoutes, { prefix: '/api/tools/admin/agents', agents, proposals, guards });
  for (const schema of [...toolSchemas, ...adminSchemas]) app.addSchema(schema);
  await app.register(toolsRoutes, { prefix: '/api/tools', tools, guards });
  await app.register(askRoutes, { prefix: '/api', ask, insights, guards });
  await app.register(widgetRoutes, { prefix: '/api/widget', widget, guards });
  await app.register(widgetPublicRoutes, { prefix: '/api/widget/public', widget });
  await app.register(widgetScriptRoutes);
  await app.register(adminRoutes, { prefix: '/api/tools/admin', tools, admin, guards });
  await app.register(crawlRoutes, { prefix: '/api/crawl', crawl, guards });
  await app.register(webRoutes, {});

  app.addHook('onReady', lifecycle.start);
  app.addHook('onClose', lifecycle.close);

  return app;
}
