import type { BearerPrincipal } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import { createCrawlAdminReads } from './crawl.admin.js';
import { createAnalyser } from './crawl.analyse.js';
import type { CrawlCtx, CrawlRunOptions, CrawlServiceDeps } from './crawl.context.js';
import { createEngine, HostPacer } from './crawl.engine.js';
import { createFetcher, type Fetcher } from './crawl.fetcher.js';
import { CRAWL_JOB, crawlNow, runJob, startCrawl } from './crawl.jobs.js';
import type { CrawlJobProgress, CrawlJobView, CrawlRequest } from './crawl.schemas.js';
import { toJobView, toProvenance } from './crawl.views.js';
import { createWebsiteChecks, WEBSITE_CHECK_JOB } from './crawl.website-checks.js';
import { createHeldFields } from './crawl.held.js';

export { PAGE_TEXT_MAX_CHARS, pagesToStore, parseTarget, toJobView } from './crawl.views.js';
export { CRAWL_JOB } from './crawl.jobs.js';
export type { CrawlRunOptions, CrawlServiceDeps } from './crawl.context.js';

/**
 * Crawling a company's website into its profile. The verbs live by group: the crawl itself
 * (crawl.pipeline.ts), runs and their job rows (crawl.jobs.ts), administrators' reads (crawl.admin.ts).
 */
export function createCrawlService(deps: CrawlServiceDeps) {
  const { repo, companies, jobs, config } = deps;
  const delayMs = deps.delayMs ?? 1000;
  const fetcherOptions = { allowPrivate: config.crawl.allowPrivate, allowedPorts: config.crawl.allowedPorts, ...(deps.resolver ? { resolver: deps.resolver } : {}) };
  const fetcher: Fetcher = createFetcher({ userAgent: config.crawl.userAgent, timeoutMs: deps.timeoutMs ?? 10_000, ...fetcherOptions });
  // One pacer for every crawl in this process: two crawls of one host share its politeness.
  const engine = createEngine({ fetcher, userAgent: config.crawl.userAgent, pacer: new HostPacer(2) });
  const ctx: CrawlCtx = { deps, engine, analyser: createAnalyser({ embeddings: deps.embeddings, llm: deps.llm }), delayMs };

  const service = {
    crawlNow: (principal: BearerPrincipal, req: CrawlRequest, flags: { trackJob: boolean; adaptiveRetry: boolean }) => crawlNow(ctx, principal, req, flags),
    start: (principal: BearerPrincipal | { kind: 'magic_link'; userId: string; companyId: string }, req: CrawlRequest, flags?: { adaptiveRetry: boolean }) => startCrawl(ctx, principal, req, flags),
    runJob: (jobId: number, meta?: { retryCount: number; retryLimit: number }) => runJob(ctx, jobId, meta),

    /** Wired into the auth service: the `crawl` magic-link purpose queues a crawl of the verified site. */
    startForOwner: (userId: string, companyId: string, websiteUrl: string) => startCrawl(ctx, { kind: 'magic_link', userId, companyId }, { url: websiteUrl }),

    /**
     * The whole job for an administrator, the user who asked for it or an owner of its company;
     * anyone else (job ids are sequential) sees state and progress only: no URL, company or error.
     */
    async getJob(id: number, principal?: BearerPrincipal): Promise<CrawlJobView | CrawlJobProgress> {
      const row = await repo.find(id);
      if (!row) throw new AppError('not_found', `Crawl job ${id} not found`);
      const view = toJobView(row);
      if (principal?.kind === 'admin') return view;
      if (principal?.kind === 'user') {
        if (row.user_id === principal.userId) return view;
        if (row.company_id && (await deps.ownership.owns(principal.userId, row.company_id))) return view;
      }
      const { id: jobId, status, stage, pages_fetched, attempts, created_at, started_at, finished_at, duration_ms } = view;
      return { id: jobId, status, stage, pages_fetched, attempts, created_at, started_at, finished_at, duration_ms };
    },

    async myLatest(principal: BearerPrincipal) {
      const row = await repo.latestOfUser(principal.kind === 'user' ? principal.userId : principal.adminId);
      if (!row) return { job: null, company: null };
      const company = row.company_id ? await companies.getById(row.company_id).catch(() => undefined) : undefined;
      return { job: toJobView(row), company: company ? { id: company.id, name: company.name, website_url: company.website_url } : null };
    },

    /** Where the company's crawled fields came from, from its latest successful crawl (the route checks ownership). */
    async provenance(companyId: string) {
      await companies.getById(companyId);
      return toProvenance(await repo.latestSucceededOfCompany(companyId));
    },

    ...createCrawlAdminReads(repo),

    /** The readable text of the company's pages from its latest crawl (crawl order; [] when never crawled). */
    async pagesOf(companyId: string): Promise<{ url: string; title: string; text: string }[]> {
      return (await repo.pagesOf(companyId, config.crawl.maxPages)).map((p) => ({ url: p.url, title: p.title, text: p.text }));
    },

    /** Crawls without saving (bench, diagnostics). */
    crawlSite: (url: string, opts: CrawlRunOptions) => engine.crawl(url, { ...opts, delayMs }),
    /** A separate fetcher with the crawler's network rules (SSRF checks, ports, DNS) for the scans module; the caller closes it. */
    createFetcher: (o: { userAgent?: string; timeoutMs?: number; maxBytes?: number; maxRedirects?: number } = {}): Fetcher =>
      createFetcher({
        userAgent: o.userAgent ?? config.crawl.userAgent,
        allowPrivate: config.crawl.allowPrivate,
        allowedPorts: config.crawl.allowedPorts,
        timeoutMs: o.timeoutMs ?? deps.timeoutMs ?? 10_000,
        ...(o.maxBytes ? { maxBytes: o.maxBytes } : {}),
        ...(o.maxRedirects !== undefined ? { maxRedirects: o.maxRedirects } : {}),
        ...(deps.resolver ? { resolver: deps.resolver } : {}),
      }),
    close: () => fetcher.close(),
  };
  const websiteChecks = createWebsiteChecks(ctx, (o) => service.createFetcher(o));

  jobs.define<{ jobId: number }>({
    name: CRAWL_JOB,
    retryLimit: 3,
    retryDelaySeconds: 30,
    expireInSeconds: 15 * 60,
    concurrency: 2,
    handler: async (data, meta) => {
      await runJob(ctx, Number(data.jobId), { retryCount: meta.retryCount, retryLimit: 3 });
    },
  });

  jobs.define<object>({ name: WEBSITE_CHECK_JOB, retryLimit: 1, expireInSeconds: 10 * 60, handler: async () => void (await websiteChecks.queueDueChecks()) });
  jobs.schedule(WEBSITE_CHECK_JOB, '41 * * * *');

  return { ...service, ...websiteChecks, ...createHeldFields(ctx) };
}

export type CrawlService = ReturnType<typeof createCrawlService>;
