import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import { migrate, openDb, type Db } from './platform/db.js';
import { createEmbeddingProvider, type EmbeddingProvider } from './platform/embeddings/embeddings.js';
import { createChangeFeed } from './platform/change-feed.js';
import { createGuards, refuseAll, type AuthVerifiers, type Guards } from './platform/auth.js';
import { clientErrorHandler, frameworkErrors, MAX_HEADER_BYTES, MAX_PARAM_LENGTH, registerErrorHandling } from './platform/error-handler.js';
import { registerInputBounds } from './platform/input-bounds.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import { ErrorSchema, ValidationErrorSchema, type App } from './platform/http.js';
import { createJobs, type Jobs } from './platform/jobs.js';
import { registerMetrics } from './platform/metrics.js';
import { createLlm, type LlmClient } from './platform/llm.js';
import { createMailer, type MailService } from './platform/mail.js';
import { loggerOptions } from './platform/logging.js';
import { registerOpenApi } from './platform/openapi.js';
import { registerAgentRateLimit } from './platform/rate-limit.js';
import { createAgentsRepo } from './modules/agents/agents.repo.js';
import { adminAgentsRoutes } from './modules/agents/agents.admin.routes.js';
import { agentsRoutes } from './modules/agents/agents.routes.js';
import { agentsSchemas } from './modules/agents/agents.schemas.js';
import { createAgentsService, type AgentsService } from './modules/agents/agents.service.js';
import type { MailDnsResolver } from './modules/agents/email-domain.js';
import { agentProposalsRoutes, ownerProposalsRoutes } from './modules/proposals/proposals.routes.js';
import { proposalsSchemas } from './modules/proposals/proposals.schemas.js';
import { createProposalsService, type ProposalsService } from './modules/proposals/proposals.service.js';
import { adminAuthRoutes, authRoutes, authSchemas, devMailboxRoutes } from './modules/auth/auth.routes.js';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { createCompaniesRepo } from './modules/companies/companies.repo.js';
import { companiesRoutes } from './modules/companies/companies.routes.js';
import {
  CategoriesResponseSchema,
  CompanyProfileSchema,
  CompanySummarySchema,
  LocationSchema,
} from './modules/companies/companies.schemas.js';
import { createCompaniesService, type CompaniesService } from './modules/companies/companies.service.js';
import { toolsRoutes } from './modules/companies/tools.routes.js';
import { toolSchemas } from './modules/companies/tools.schemas.js';
import { createToolsService, type ToolsService } from './modules/companies/tools.service.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { adminSchemas } from './modules/admin/admin.schemas.js';
import { createAdminService, recordAudit, type AdminService } from './modules/admin/admin.service.js';
import { askAgentRoutes, askRoutes } from './modules/ask/ask.routes.js';
import { createAskService, type AskService } from './modules/ask/ask.service.js';
import { askSchemas } from './modules/ask/ask.schemas.js';
import { createWidgetRepo } from './modules/widget/widget.repo.js';
import { widgetPublicRoutes, widgetRoutes, widgetScriptRoutes } from './modules/widget/widget.routes.js';
import { widgetSchemas } from './modules/widget/widget.schemas.js';
import { createWidgetService, type WidgetService } from './modules/widget/widget.service.js';
import { createInsightsRepo } from './modules/ask/insights.repo.js';
import { createInsightsService, type InsightsService } from './modules/ask/insights.service.js';
import { createSearchRepo } from './modules/search/search.repo.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { SearchResponseSchema } from './modules/search/search.schemas.js';
import { createSearchService, type SearchService } from './modules/search/search.service.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { DeepHealthSchema, HealthSchema, PublicConfigSchema } from './modules/system/system.schemas.js';
import { API_VERSION, createSystemService } from './modules/system/system.service.js';
import { createMcpService, type McpService } from './modules/mcp/mcp.service.js';
import { mcpRoutes } from './modules/mcp/mcp.routes.js';
import { createDiscoveryService, type OpenApiDoc } from './modules/discovery/discovery.service.js';
import { discoveryRoutes } from './modules/discovery/discovery.routes.js';
import type { Resolver } from './lib/ssrf.js';
import { createCrawlRepo } from './modules/crawl/crawl.repo.js';
import { crawlRoutes } from './modules/crawl/crawl.routes.js';
import { crawlSchemas } from './modules/crawl/crawl.schemas.js';
import { createCrawlService, type CrawlService } from './modules/crawl/crawl.service.js';
import { paymentsModule, type PaymentsService } from './modules/payments/index.js';
import { scansModule, type ScansService } from './modules/scans/index.js';
import { siteModule } from './modules/site/index.js';
import { webRoutes } from './modules/web/web.routes.js';

export interface AppDeps {
  /** Supplied by tests to share one store; otherwise opened from config and closed with the app. */
  db?: Db;
  embeddings?: EmbeddingProvider;
  /** DNS for the agent email MX check (EMAIL_CHECK_MX); tests pass a fake. */
  mailDns?: MailDnsResolver;
  /** DNS for the crawler's fetcher; tests make fixture host names resolve to 127.0.0.1. */
  crawlResolver?: Resolver;
  /** Where log lines go (tests read them to check redaction); stdout by default. */
  logStream?: { write(line: string): void };
}

export interface Services {
  config: Config;
  db: Db;
  embeddings: EmbeddingProvider;
  jobs: Jobs;
  mail: MailService;
  auth: AuthService;
  /** Credential verifiers: the auth module sets bearer/owns, the agents module sets apiKey. */
  verifiers: AuthVerifiers;
  guards: Guards;
  companies: CompaniesService;
  search: SearchService;
  agents: AgentsService;
  proposals: ProposalsService;
  mcp: McpService;
  /** The language-model client; undefined when no model is configured (modules use their fallback). */
  llm: LlmClient | undefined;
  insights: InsightsService;
  ask: AskService;
  widget: WidgetService;
  tools: ToolsService;
  admin: AdminService;
  crawl: CrawlService;
  payments: PaymentsService;
  scans: ScansService;
}

/** The services every module may build on; the newer modules (payments, scans, site) receive these. */
export type CoreServices = Omit<Services, 'payments' | 'scans'>;

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
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  registerErrorHandling(app);
  registerInputBounds(app);
  registerSecurityHeaders(app);
  for (const schema of [ErrorSchema, ValidationErrorSchema, LocationSchema, CompanySummarySchema, CompanyProfileSchema, CategoriesResponseSchema, SearchResponseSchema, HealthSchema, DeepHealthSchema, PublicConfigSchema]) {
    app.addSchema(schema);
  }
  await registerOpenApi(app, config, API_VERSION);

  const ownsDb = !deps.db;
  const db = deps.db ?? (await openDb({ databaseUrl: config.databaseUrl, pgliteDir: config.dataDir }));
  if (ownsDb) await migrate(db);
  const ownsEmbeddings = !deps.embeddings;
  const embeddings = deps.embeddings ?? createEmbeddingProvider(config.embeddings);
  const jobs = createJobs(db, app.log);
  registerMetrics(app, { jobs, token: config.metricsToken });

  const verifiers: AuthVerifiers = { ...refuseAll };
  const guards = createGuards(verifiers);
  const mail = createMailer({ config, db, jobs, log: app.log });

  const changes = await createChangeFeed(db);
  const companies = createCompaniesService({ repo: createCompaniesRepo(db), embeddings, baseUrl: config.baseUrl, changes });
  const insights = createInsightsService({ repo: createInsightsRepo(db), jobs, embeddings, log: app.log });
  const search = createSearchService({ repo: createSearchRepo(db), companies, embeddings, onWeakResult: insights.onWeakSearch });
  const system = createSystemService({ config, db, embeddings, jobs });
  const auth = createAuthService({
    db, companies, mail, config, log: app.log,
    // The `crawl` magic-link purpose queues a crawl of the verified site (crawl is built below; called only at request time).
    onCrawlRequested: (userId, companyId, websiteUrl) => crawl.startForOwner(userId, companyId, websiteUrl),
  });
  verifiers.bearer = auth.verifyBearer;
  verifiers.owns = auth.ownsCompany;
  await auth.ensureConfiguredAdmin();
  const agents = createAgentsService({
    repo: createAgentsRepo(db),
    serviceName: config.serviceName,
    baseUrl: config.baseUrl,
    mail,
    checkMx: config.emailCheckMx,
    ...(deps.mailDns ? { dns: deps.mailDns } : {}),
  });
  verifiers.apiKey = agents.verifyApiKey;
  const proposals = createProposalsService({
    db,
    companies,
    agents,
    ownership: { companyIdsOf: auth.companyIdsOwnedBy, owns: auth.ownsCompany },
    mail,
    ownerEmailsOf: auth.ownerEmailsOf,
    serviceName: config.serviceName,
    baseUrl: config.baseUrl,
    log: app.log,
  });

  const llm = createLlm(config.llm);
  const ask = createAskService({ search, companies, insights, llm, log: app.log });
  const widget = createWidgetService({
    repo: createWidgetRepo(db), companies, insights, llm, baseUrl: config.baseUrl, log: app.log,
    // Crawled page text (crawl is built below; called only at request time).
    pages: (companyId) => crawl.pagesOf(companyId),
  });
  const tools = createToolsService({ db, companies, embeddings, llm, baseUrl: config.baseUrl, audit: recordAudit, ownedCompanyIds: auth.companyIdsOwnedBy });
  const admin = createAdminService({ db, tools, jobs, log: app.log });
  const crawl = createCrawlService({
    repo: createCrawlRepo(db), companies, embeddings, llm, jobs, config, log: app.log,
    ownership: { owns: auth.ownsCompany, claim: auth.claimCompany },
    ...(deps.crawlResolver ? { resolver: deps.crawlResolver } : {}),
    delayMs: config.crawl.delayMs,
    timeoutMs: config.crawl.timeoutMs,
  });

  const mcp = createMcpService({ config, version: API_VERSION, search, companies, verifiers, agents, proposals, ask, log: app.log });
  const discovery = createDiscoveryService({
    config,
    version: API_VERSION,
    openapi: () => app.swagger() as OpenApiDoc,
    mcpEndpoint: () => mcp.agentEndpoint(),
    mcpConfig: () => mcp.mcpConfig(),
  });

  const core: CoreServices = { config, db, embeddings, jobs, mail, auth, verifiers, guards, companies, search, agents, proposals, llm, tools, admin, insights, ask, widget, mcp, crawl };
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
  for (const schema of [...agentsSchemas, ...proposalsSchemas]) app.addSchema(schema);
  for (const schema of [...askSchemas, ...widgetSchemas]) app.addSchema(schema);
  await app.register(async (agent) => {
    await registerAgentRateLimit(agent, { config, isWellFormedKey: agents.isWellFormedKey });
    await agent.register(agentsRoutes, { agents, guards, baseUrl: config.baseUrl });
    await agent.register(agentProposalsRoutes, { proposals, guards });
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

  app.addHook('onReady', async () => {
    await jobs.start({ work: config.runJobs });
    await mail.requeuePending();
  });
  app.addHook('onClose', async () => {
    await insights.flush();
    await jobs.stop();
    await mail.close();
    await crawl.close();
    await changes.close();
    if (ownsEmbeddings) await embeddings.close();
    if (ownsDb) await db.close();
  });

  return app;
}
