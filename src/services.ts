import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { createGuards, type AuthVerifiers, type Guards } from './platform/auth.js';
import { cachedById, COMPANIES_CHANNEL, COMPANY_FACTS_CHANNEL, createCacheGeneration } from './platform/cache-generation.js';
import { migrate, openDb, type Db } from './platform/db.js';
import { createReadPool, type ReadPool } from './platform/read-pool.js';
import { createEmbeddingProvider, type EmbeddingProvider } from './platform/embeddings/embeddings.js';
import { createJobs, type Jobs } from './platform/jobs.js';
import { createLlm, type LlmClient } from './platform/llm.js';
import { createMailer, type MailService } from './platform/mail.js';
import type { Resolver } from './lib/ssrf.js';
import { createAdminService, recordAudit, type AdminService } from './modules/admin/admin.service.js';
import { createAgentsRepo } from './modules/agents/agents.repo.js';
import { createAgentsService, type AgentsService } from './modules/agents/agents.service.js';
import type { MailDnsResolver } from './platform/mail-dns.js';
import { createAskService, type AskService } from './modules/ask/ask.service.js';
import { createInsightsRepo } from './modules/ask/insights.repo.js';
import { createInsightsService, type InsightsService } from './modules/ask/insights.service.js';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { createCompaniesService, type CompaniesService } from './modules/companies/companies.service.js';
import { createToolsService, type ToolsService } from './modules/companies/tools.service.js';
import { createCrawlRepo } from './modules/crawl/crawl.repo.js';
import { createWebsiteChecksRepo } from './modules/crawl/website-checks.repo.js';
import { createHeldFieldsRepo } from './modules/crawl/held-fields.repo.js';
import { createCrawlService, type CrawlService } from './modules/crawl/crawl.service.js';
import { createMcpService, type McpService } from './modules/mcp/mcp.service.js';
import { createOwnershipService, type OwnershipService } from './modules/ownership/ownership.service.js';
import { createProposalsService, type ProposalsService } from './modules/proposals/proposals.service.js';
import { createSearchRepo } from './modules/search/search.repo.js';
import { createSearchService, type SearchService } from './modules/search/search.service.js';
import { defaultTuning } from './modules/search/search.tuning.js';
import { createSearchIndexSync } from './modules/search/search-index.sync.js';
import { API_VERSION, createSystemService, type SystemService } from './modules/system/system.service.js';
import { createWidgetRepo } from './modules/widget/widget.repo.js';
import { createWidgetService, type WidgetService } from './modules/widget/widget.service.js';
import { displayName } from './lib/display-name.js';
import { createEntitlements, createPayments, createSubscriptionGrants, type PaymentsService } from './modules/payments/index.js';
import { createEntitlement, createScansRepo, createScansService, type ScansService } from './modules/scans/index.js';
import { createSiteRepo, createSiteService, type SiteService } from './modules/site/index.js';
import { createWebhookEmitter } from './modules/webhooks/webhooks.events.js';
import { createWebhooksService, type WebhooksService } from './modules/webhooks/webhooks.service.js';
import { emailConfirmed } from './modules/agents/agents.service.js';
import { createSharedLimits, type SharedLimits } from './platform/shared-limits.js';
import { cachedReachability, createReachability, type ReachabilityOf } from './modules/proposals/proposals.reachability.js';
import { createReviewsService, type ReviewsService } from './modules/reviews/index.js';

export interface ServiceDeps {
  /** Supplied by tests to share one store; otherwise opened from config (and migrated) and closed with the services. */
  db?: Db;
  embeddings?: EmbeddingProvider;
  /** DNS for the email MX check of agents and owners (EMAIL_CHECK_MX); tests pass a fake. */
  mailDns?: MailDnsResolver;
  /** DNS for the crawler's fetcher; tests make fixture host names resolve to 127.0.0.1. */
  crawlResolver?: Resolver;
}

/** Every service of the app: app.ts hands each module the ones it declares it needs. */
export interface Services {
  config: Config;
  db: Db;
  /** Where public reads go: the read replicas of DATABASE_READ_URL within the lag bound, else the primary. */
  reads: ReadPool;
  embeddings: EmbeddingProvider;
  jobs: Jobs;
  mail: MailService;
  ownership: OwnershipService;
  auth: AuthService;
  /** Credential verifiers behind the guards (MCP checks API keys with them too). */
  verifiers: AuthVerifiers;
  guards: Guards;
  companies: CompaniesService;
  search: SearchService;
  system: SystemService;
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
  /** Agents' webhook endpoints and the delivery of their events. */
  webhooks: WebhooksService;
  /** How a proposal reaches a company (claimed, delivery, response rate), from its proposal history. */
  reachability: ReachabilityOf;
  /** Abuse brakes shared by every instance through Redis when REDIS_URL is set (promo checks, checkouts, SVG logos). */
  limits: SharedLimits;
  payments: PaymentsService;
  scans: ScansService;
  /** The public website's pages. */
  site: SiteService;
  /** Reviews from the customers of approved proposals, ratings, moderation. */
  reviews: ReviewsService;
}

export interface ServicesLifecycle {
  services: Services;
  /** Starts the job runner (when config.runJobs) and re-queues undelivered mail. */
  start(): Promise<void>;
  /** Flushes buffers, stops jobs and closes what these services opened. */
  close(): Promise<void>;
}

/**
 * Builds every core service in dependency order, each from finished parts: no forward reference,
 * nothing assigned after construction. Used by the HTTP app, the worker and the scripts alike.
 */
export async function createServices(config: Config, log: FastifyBaseLogger, deps: ServiceDeps = {}): Promise<ServicesLifecycle> {
  const ownsDb = !deps.db;
  const db = deps.db ?? (await openDb({ databaseUrl: config.databaseUrl, pgliteDir: config.dataDir }));
  if (ownsDb) await migrate(db);
  // Replicas only on PostgreSQL (config refuses DATABASE_READ_URL without DATABASE_URL); none: the pool is the primary.
  const reads = createReadPool({ primary: db, replicaUrls: db.kind === 'postgres' ? config.databaseReadUrls : [], maxLagMs: config.databaseReadMaxLagMs, log });
  const replicated = reads.replicaCount > 0;
  const ownsEmbeddings = !deps.embeddings;
  const embeddings = deps.embeddings ?? createEmbeddingProvider(config.embeddings);
  const jobs = createJobs(db, log);
  const mail = createMailer({ config, db, jobs, log });
  const llm = createLlm(config.llm);
  const limits = createSharedLimits(config.redisUrl, log);
  const cacheGeneration = await createCacheGeneration(db);
  // What a lookup and a search page read beside the profiles (reachability, ratings), kept while nothing it depends on is written.
  const factsGeneration = await createCacheGeneration(db, [COMPANIES_CHANNEL, COMPANY_FACTS_CHANNEL], { listenOnPostgres: config.postgresFactsCache, log });
  // Records webhook events in the transactions of the changes that cause them (agents, proposals, tools).
  const webhookEvents = createWebhookEmitter({ db, jobs, baseUrl: config.baseUrl });

  const cacheBytes = config.cacheMemoryMb * 1024 * 1024;
  const companies = createCompaniesService({ db, embeddings, baseUrl: config.baseUrl, audit: recordAudit, cache: cacheGeneration, cacheBytes: cacheBytes / 2, ...(replicated ? { reads } : {}) });
  const ownership = createOwnershipService({ db, companies });
  const reviewsService = createReviewsService({ db, mail, events: webhookEvents, ownerEmailsOf: ownership.ownerEmailsOf, baseUrl: config.baseUrl, serviceName: displayName(config.serviceName), log });
  // A published review moves the companies generation (0030), a deleted one the facts generation (0039); ten minutes at most all the same.
  const reviews: ReviewsService = { ...reviewsService, ratings: cachedById(factsGeneration, reviewsService.ratings, { ttlMs: 600_000 }) };
  // Plan limits (payments.plans.ts), read straight from the subscription record: enforced by the modules that own the features.
  const entitlements = createEntitlements(db);
  const insights = createInsightsService({ repo: createInsightsRepo(db), jobs, embeddings, log, entitlements });
  const searchRepo = createSearchRepo(replicated ? reads : db);
  const primarySearchRepo = createSearchRepo(db);
  const searchIndex = config.vectorIndex.enabled
    ? createSearchIndexSync(searchRepo, {
        ...(replicated ? { session: <T>(fn: () => Promise<T>) => reads.pinned(undefined, fn) } : {}),
        dimensions: config.embeddings.dimensions,
        exactBelow: config.vectorIndex.exactBelow,
        nativeKernels: config.vectorIndex.nativeKernels,
        mapSnapshot: config.vectorIndex.mapSnapshot,
        searchThreads: config.vectorIndex.searchThreads,
        buildThreads: config.vectorIndex.buildThreads,
        ...(config.vectorIndex.snapshotDir ? { snapshotDir: config.vectorIndex.snapshotDir } : {}),
        keywords: { fieldWeights: defaultTuning.fieldWeights, prefixLength: defaultTuning.prefixMinLength },
        log,
      })
    : undefined;
  const search = createSearchService({
    repo: searchRepo, companies, embeddings, onWeakResult: insights.onWeakSearch, ratingsOf: reviews.ratings, answerCacheBytes: cacheBytes / 2,
    ...(searchIndex ? { index: searchIndex } : {}),
    ...(replicated ? { reads: { primaryStats: () => primarySearchRepo.corpusStats(), pinned: reads.pinned } } : {}),
  });
  const system = createSystemService({ config, db, embeddings, jobs, vectorIndexStatus: () => search.vectorIndexStatus(), replicas: () => reads.status() });
  const crawl = createCrawlService({
    repo: createCrawlRepo(db), checks: createWebsiteChecksRepo(db), held: createHeldFieldsRepo(db), companies, embeddings,
    notifyOwners: async (companyId, m) => {
      for (const to of await ownership.ownerEmailsOf(companyId)) await mail.send({ to, ...m });
    }, llm, jobs, config, log, ownership,
    ...(deps.crawlResolver ? { resolver: deps.crawlResolver } : {}),
    delayMs: config.crawl.delayMs,
    timeoutMs: config.crawl.timeoutMs,
  });
  const auth = createAuthService({
    db, companies, mail, config, log, ownership, dns: deps.mailDns,
    // The `crawl` magic-link purpose queues a crawl of the verified site.
    onCrawlRequested: (userId, companyId, websiteUrl) => crawl.startForOwner(userId, companyId, websiteUrl),
  });
  await auth.ensureConfiguredAdmin();
  const agents = createAgentsService({
    repo: createAgentsRepo(db),
    serviceName: config.serviceName,
    baseUrl: config.baseUrl,
    mail,
    checkMx: config.emailCheckMx,
    ...(deps.mailDns ? { dns: deps.mailDns } : {}),
    events: { emitter: webhookEvents, db },
  });
  const verifiers: AuthVerifiers = { bearer: auth.verifyBearer, owns: ownership.owns, apiKey: agents.verifyApiKey };
  const guards = createGuards(verifiers);
  const proposals = createProposalsService({
    db, companies, agents, ownership, mail,
    ownerEmailsOf: ownership.ownerEmailsOf,
    serviceName: config.serviceName,
    baseUrl: config.baseUrl,
    log,
    events: webhookEvents,
    reviewInvitations: reviews,
  });
  const ask = createAskService({ search, companies, insights, llm, log });
  const widget = createWidgetService({
    repo: createWidgetRepo(db), companies, insights, llm, baseUrl: config.baseUrl, log, entitlements, siteName: displayName(config.serviceName),
    pages: (companyId) => crawl.pagesOf(companyId),
    leads: { send: (companyId, input, ip) => proposals.requestFromPerson('widget', companyId, input, ip) },
  });
  const tools = createToolsService({
    db, companies, llm, baseUrl: config.baseUrl, audit: recordAudit, ownedCompanyIds: ownership.companyIdsOf, websiteChecks: crawl, heldFields: crawl,
    subscriptions: createSubscriptionGrants(db),
    // An SVG costs up to seconds of a core to draw: a few per caller per ten minutes.
    svgLogoLimiter: limits.limiter('logo.svg', { limit: 6, windowMs: 10 * 60_000 }),
    events: {
      // Every agent that proposed to the company hears that it is no longer verified.
      async companyUnverified(tx, companyId) {
        for (const agentId of await proposals.agentIdsProposedTo(tx, companyId)) {
          await webhookEvents.emit(tx, { type: 'company.unverified', agentId, data: { company_id: companyId } });
        }
      },
      dispatch: () => webhookEvents.dispatch(),
    },
  });
  const admin = createAdminService({ db, tools, jobs, log });
  const webhooks = createWebhooksService({
    db, jobs, config, mail, log,
    outbox: webhookEvents,
    ownerOf: async (agentId) => {
      const agent = await agents.getById(agentId);
      return agent && emailConfirmed(agent) ? { email: agent.owner_email, name: agent.name } : undefined;
    },
  });
  const payments = createPayments({
    db, config, jobs, mail, log,
    owns: ownership.owns, companyIdsOf: ownership.companyIdsOf, ownerEmailsOf: ownership.ownerEmailsOf,
    companyName: async (id) => (await companies.getById(id)).name,
  });
  const scans = createScansService({
    repo: createScansRepo(db),
    companies,
    createFetcher: (o) => crawl.createFetcher(o),
    pagesOf: (companyId) => crawl.pagesOf(companyId),
    jobs,
    mail,
    ownerEmailsOf: ownership.ownerEmailsOf,
    entitlement: createEntitlement(db, payments),
    baseUrl: config.baseUrl,
    serviceName: config.serviceName,
    log,
    // The crawler's politeness delay capped at 500 ms: a scan is a short fixed list (at most 30
    // requests) that an owner waits for, so it never waits longer than 2 requests a second would;
    // CRAWL_DELAY_MS=0 (tests, a site of one's own) turns the delay off for scans too.
    delayMs: Math.min(config.crawl.delayMs, 500),
    timeoutMs: Math.min(config.crawl.timeoutMs, 8000),
  });
  const site = createSiteService({
    repo: createSiteRepo(db), companies, search, scans, widget, isClaimed: ownership.isClaimed, reviews, baseUrl: config.baseUrl,
    quoteRequests: { send: (companyId, input, ip) => proposals.requestFromPerson('quote_form', companyId, input, ip) },
  });
  const mcp = createMcpService({ config, version: API_VERSION, search, companies, verifiers, agents, proposals, ask, companyAnswers: widget, webhooks, reviews, log });

  const services: Services = {
    config,
    db,
    reads,
    embeddings,
    jobs,
    mail,
    ownership,
    auth,
    verifiers,
    guards,
    companies,
    search,
    system,
    agents,
    proposals,
    llm,
    tools,
    admin,
    insights,
    ask,
    widget,
    mcp,
    crawl,
    webhooks,
    limits,
    reachability: cachedReachability(factsGeneration, createReachability(db)),
    payments,
    scans,
    site,
    reviews,
  };
  return {
    services,
    async start() {
      reads.start();
      searchIndex?.start();
      await jobs.start({ work: config.runJobs });
      await mail.requeuePending();
      // Deliveries recorded while no process could queue them (a stop between a commit and its dispatch).
      await webhooks.queuePending();
      // Payment events acknowledged before a stop get their job now.
      await payments.queuePending();
    },
    async close() {
      await insights.flush();
      await jobs.stop();
      await webhooks.close();
      await mail.close();
      await crawl.close();
      await searchIndex?.close();
      await reads.close();
      await cacheGeneration.close();
      await factsGeneration.close();
      await limits.close();
      if (ownsEmbeddings) await embeddings.close();
      if (ownsDb) await db.close();
    },
  };
}
