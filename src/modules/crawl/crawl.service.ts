import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { emailMayClaimWebsite } from '../../lib/email-domain.js';
import type { Resolver } from '../../lib/ssrf.js';
import { toPlainLine } from '../../lib/text.js';
import { normalizeDomain } from '../../lib/url.js';
import type { BearerPrincipal } from '../../platform/auth.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { AppError, invalid } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs.js';
import type { LlmClient } from '../../platform/llm.js';
import type { CompaniesService } from '../companies/companies.service.js';
import { createAnalyser, type AnalysedProfile } from './crawl.analyse.js';
import { assembleMaterial } from './crawl.material.js';
import { createEngine, HostPacer, type CrawlEvent, type Engine } from './crawl.engine.js';
import { createFetcher, FetchError, type Fetcher } from './crawl.fetcher.js';
import type { CrawlJobRow, CrawlRepo } from './crawl.repo.js';
import type { CrawlJobProgress, CrawlJobView, CrawlRequest } from './crawl.schemas.js';
import { createCrawlAdminReads } from './crawl.admin.js';
import { branchLocations, pagesToStore, parseTarget, toJobView, toProvenance } from './crawl.views.js';

export { PAGE_TEXT_MAX_CHARS, pagesToStore, parseTarget, toJobView } from './crawl.views.js';

export const CRAWL_QUEUE = 'crawl.run';

export interface CrawlServiceDeps {
  repo: CrawlRepo;
  companies: CompaniesService;
  embeddings: EmbeddingProvider;
  llm?: LlmClient | undefined;
  jobs: Jobs;
  config: Pick<Config, 'crawl' | 'baseUrl'>;
  log: FastifyBaseLogger;
  /** Company ownership (the ownership module). */
  ownership: {
    owns: (userId: string, companyId: string) => Promise<boolean>;
    claim?: (userId: string, companyId: string) => Promise<void>;
  };
  /** DNS for the fetcher (tests make fixture names resolve to 127.0.0.1). */
  resolver?: Resolver;
  /** Politeness between two requests to one host, ms (default 1000; robots Crawl-delay may raise it). */
  delayMs?: number;
  timeoutMs?: number;
  /** The whole crawl of one site stops fetching after this long (ms). */
  budgetMs?: number;
}

export interface CrawlRunOptions {
  maxPages: number;
  maxDepth: number;
  adaptiveRetry: boolean;
}

class CrawlFailure extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly pagesFetched = 0,
    readonly strategies: string[] = [],
  ) {
    super(message);
  }
}

export function createCrawlService(deps: CrawlServiceDeps) {
  const { repo, companies, jobs, config, log } = deps;
  const delayMs = deps.delayMs ?? 1000;
  const fetcher: Fetcher = createFetcher({
    userAgent: config.crawl.userAgent,
    allowPrivate: config.crawl.allowPrivate,
    allowedPorts: config.crawl.allowedPorts,
    timeoutMs: deps.timeoutMs ?? 10_000,
    ...(deps.resolver ? { resolver: deps.resolver } : {}),
  });
  // One pacer for every crawl in this process: two crawls of one host share its politeness.
  const engine: Engine = createEngine({ fetcher, userAgent: config.crawl.userAgent, pacer: new HostPacer(2) });
  const analyser = createAnalyser({ embeddings: deps.embeddings, llm: deps.llm });

  function runOptions(req: CrawlRequest, adaptiveRetry: boolean): CrawlRunOptions {
    return {
      maxPages: Math.min(req.options?.max_pages ?? config.crawl.maxPages, config.crawl.maxPages),
      maxDepth: Math.min(req.options?.max_depth ?? config.crawl.maxDepth, config.crawl.maxDepth),
      adaptiveRetry,
    };
  }

  /** Owners crawl sites whose domain their email proves (as for a magic link) or companies they own; admins anything. */
  async function authorize(principal: BearerPrincipal, domain: string): Promise<void> {
    if (principal.kind === 'admin') return;
    if (emailMayClaimWebsite(principal.email, domain)) return;
    const existing = await companies.getByWebsite(domain).catch(() => undefined);
    if (existing && (await deps.ownership.owns(principal.userId, existing.id))) return;
    throw new AppError('forbidden', `You can crawl only your own company's website: sign in with an address at ${domain}, or verify ownership first (POST /api/auth/magic-link with purpose verify)`);
  }

  async function ensureNotRunning(domain: string, exceptId?: number): Promise<void> {
    const active = await repo.findActiveByDomain(domain);
    if (active && active.id !== exceptId) throw new AppError('conflict', `A crawl of ${domain} is already ${active.status} (job ${active.id}): follow it at GET /api/crawl/${active.id}`);
  }

  /** Fetch, extract, analyse, save. Reports progress through the callbacks; throws CrawlFailure for site problems. */
  async function pipeline(
    target: { url: string; domain: string },
    opts: CrawlRunOptions,
    hooks: { event: (e: CrawlEvent) => void; stage: (s: string, pages?: number) => Promise<void> },
  ) {
    const deadline = Date.now() + (deps.budgetMs ?? 180_000);
    let pagesFetched = 0;
    let outcome;
    try {
      await hooks.stage('robots');
      outcome = await engine.crawl(target.url, {
        maxPages: opts.maxPages,
        maxDepth: opts.maxDepth,
        delayMs,
        adaptiveRetry: opts.adaptiveRetry,
        deadline,
        onEvent: (e) => {
          hooks.event(e);
          if (e.stage === 'fetch' && e.message === 'page fetched' && pagesFetched === 0) void hooks.stage('fetch', 1).catch(() => {});
        },
        onPage: (n) => {
          pagesFetched = n;
          if (n % 3 === 0) void hooks.stage('fetch', n).catch(() => {});
        },
      });
    } catch (err) {
      if (err instanceof FetchError) throw new CrawlFailure(err.kind, err.message, pagesFetched);
      throw err;
    }
    if (outcome.fatal) throw new CrawlFailure(outcome.fatal.kind, `Could not read ${target.domain}: ${outcome.fatal.message}`, 0, outcome.strategiesTried);
    const material = assembleMaterial(outcome.pages, outcome.origin);
    const textChars = outcome.pages.reduce((n, p) => n + p.text.length, 0);
    if (textChars < 40 && !material.org) {
      throw new CrawlFailure('empty', `Could not read ${target.domain}: its pages have no readable text (a JavaScript-only site?)${opts.adaptiveRetry ? '' : '; try again with adaptive_retry=true'}`, outcome.pages.length, outcome.strategiesTried);
    }
    await hooks.stage('analyse', outcome.pages.length);
    const profile: AnalysedProfile = await analyser.analyse(material);
    hooks.event({ at: new Date().toISOString(), stage: 'analyse', message: `profile analysed (${profile.analyser})`, data: { category: profile.category, city: profile.city, country: profile.country, service_type: profile.service_type } });
    await hooks.stage('save', outcome.pages.length);
    // The identity is the domain asked for; the website the one the site actually lives on when it is the same domain.
    const website = normalizeDomain(outcome.origin) === target.domain ? outcome.origin : new URL(target.url).origin;
    const saved = await companies.saveCrawled({
      name: toPlainLine(profile.name) || target.domain,
      website_url: website,
      category: profile.category,
      industry: profile.industry,
      description: profile.description,
      country: profile.country,
      city: profile.city,
      address: profile.address,
      service_type: profile.service_type,
      keywords: profile.keywords,
      services: profile.services,
      languages: profile.languages,
      contact_email: profile.contact_email,
      phone: profile.phone,
      // the addresses found beyond the main one: the company's branches
      locations: branchLocations({ address: profile.address, city: profile.city, locations: profile.locations, mainLine: profile.provenance.address?.value }),
      social_links: profile.social_links,
      logo_url: profile.logo_url,
      founded_year: profile.founded_year,
    });
    // The widget answers from these: the company's stored pages become exactly this crawl's pages.
    const stored = pagesToStore(outcome.pages, config.crawl.maxPages);
    await repo.replacePages(saved.row.id, stored);
    const changes = Object.entries(saved.changes).map(([field, c]) => ({ field, before: c.before, after: c.after }));
    hooks.event({
      at: new Date().toISOString(),
      stage: 'save',
      message: `company ${saved.outcome}`,
      data: { company_id: saved.row.id, changed: changes.map((c) => c.field), kept_owner_edits: saved.kept, pages_stored: stored.length },
    });
    return { saved, changes, outcome, profile };
  }

  /** Runs a tracked job row through the pipeline; records progress, events and the outcome. */
  async function runTracked(row: CrawlJobRow, opts: CrawlRunOptions, userId: string | null) {
    const buffer: CrawlEvent[] = [];
    const flush = async () => {
      const batch = buffer.splice(0, buffer.length);
      await repo.appendEvents(row.id, batch);
    };
    const hooks = {
      event: (e: CrawlEvent) => {
        buffer.push(e);
      },
      stage: async (stage: string, pages?: number) => {
        await repo.progress(row.id, { stage, ...(pages !== undefined ? { pagesFetched: pages } : {}) });
        await flush();
      },
    };
    hooks.event({ at: new Date().toISOString(), stage: 'queued', message: `attempt ${row.attempts} started`, data: { url: row.url, ...opts } });
    try {
      const r = await pipeline({ url: row.url, domain: row.domain }, opts, hooks);
      if (userId && row.requested_by !== 'admin') await claimOwnership(userId, r.saved.row.id, hooks.event);
      await flush();
      const job = await repo.succeed(row.id, {
        companyId: r.saved.row.id,
        pagesFetched: r.outcome.pages.length,
        result: {
          outcome: r.saved.outcome,
          changed_fields: r.changes.map((c) => c.field),
          kept_owner_edits: r.saved.kept,
          strategies_tried: r.outcome.strategiesTried,
          analyser: r.profile.analyser,
          // where name, phone, city, country and address came from, and every address the site shows (issue 19)
          provenance: r.profile.provenance,
          locations: r.profile.locations,
          pages: r.outcome.pages.map((p) => p.url).slice(0, 100),
          failures: r.outcome.failures.slice(0, 50),
          skipped_by_robots: r.outcome.skippedByRobots.slice(0, 50),
        },
      });
      return { ...r, job: job! };
    } catch (err) {
      const failure = err instanceof CrawlFailure ? err : undefined;
      hooks.event({ at: new Date().toISOString(), stage: 'failed', message: failure ? failure.message : 'internal error' });
      await flush().catch(() => {});
      if (!failure) throw err;
      const job = await repo.fail(row.id, { kind: failure.kind, error: failure.message, pagesFetched: failure.pagesFetched, result: { strategies_tried: failure.strategies } });
      throw Object.assign(failure, { job });
    }
  }

  /** The owner who crawled their own site becomes its owner; a failure here never fails the crawl. */
  async function claimOwnership(userId: string, companyId: string, event: (e: CrawlEvent) => void = () => {}) {
    if (!deps.ownership.claim) return;
    try {
      if (await deps.ownership.owns(userId, companyId)) return;
      await deps.ownership.claim(userId, companyId);
      event({ at: new Date().toISOString(), stage: 'save', message: 'requesting user recorded as owner' });
    } catch (err) {
      log.warn({ err, companyId }, 'could not record the crawling user as owner');
    }
  }

  function failureToAppError(err: unknown, jobId?: number): unknown {
    if (!(err instanceof CrawlFailure)) return err;
    const suffix = jobId ? ` (job ${jobId})` : '';
    if (['unsafe', 'port', 'bad_url'].includes(err.kind)) return invalid(['body', 'url'], `This address cannot be crawled: ${err.message}`, undefined, 'url_refused');
    if (err.kind === 'timeout') return new AppError('upstream_timeout', `${err.message}${suffix}`);
    if (err.kind === 'network') return new AppError('unavailable', `${err.message}${suffix}`);
    return new AppError('bad_request', `${err.message}${suffix}`);
  }

  const service = {
    /** POST /api/crawl (and /admin): crawls now and answers with the saved profile. */
    async crawlNow(principal: BearerPrincipal, req: CrawlRequest, flags: { trackJob: boolean; adaptiveRetry: boolean }) {
      const target = parseTarget(req.url);
      await authorize(principal, target.domain);
      await ensureNotRunning(target.domain);
      const opts = runOptions(req, flags.adaptiveRetry);
      const userId = principal.kind === 'user' ? principal.userId : null;
      if (flags.trackJob) {
        const created = await repo.create({
          url: target.url,
          domain: target.domain,
          userId: principal.kind === 'user' ? principal.userId : principal.adminId,
          requestedBy: principal.kind === 'admin' ? 'admin' : 'user',
          companyId: null,
          options: { max_pages: opts.maxPages, max_depth: opts.maxDepth, adaptive_retry: opts.adaptiveRetry },
          status: 'queued',
        });
        const row = (await repo.claim(created.id))!;
        try {
          const r = await runTracked(row, opts, userId);
          return { ...resultView(r), job: toJobView(r.job) };
        } catch (err) {
          // Nobody retries a crawl the caller waited for: close the row so it never stays running.
          if (!(err instanceof CrawlFailure)) await repo.fail(row.id, { kind: 'internal', error: 'internal error while crawling' }).catch(() => {});
          throw failureToAppError(err, row.id);
        }
      }
      try {
        const r = await pipeline(target, opts, { event: () => {}, stage: async () => {} });
        if (userId) await claimOwnership(userId, r.saved.row.id);
        return { ...resultView(r), job: null };
      } catch (err) {
        throw failureToAppError(err);
      }
    },

    /** Queues a crawl (POST /api/crawl/start, the magic-link path): answers at once with the job. */
    async start(principal: BearerPrincipal | { kind: 'magic_link'; userId: string; companyId: string }, req: CrawlRequest, flags: { adaptiveRetry: boolean } = { adaptiveRetry: true }) {
      const target = parseTarget(req.url);
      if (principal.kind !== 'magic_link') await authorize(principal, target.domain);
      await ensureNotRunning(target.domain);
      const opts = runOptions(req, flags.adaptiveRetry);
      const row = await repo.create({
        url: target.url,
        domain: target.domain,
        userId: principal.kind === 'admin' ? principal.adminId : principal.userId,
        requestedBy: principal.kind === 'admin' ? 'admin' : principal.kind === 'magic_link' ? 'magic_link' : 'user',
        companyId: principal.kind === 'magic_link' ? principal.companyId : null,
        options: { max_pages: opts.maxPages, max_depth: opts.maxDepth, adaptive_retry: opts.adaptiveRetry },
      });
      // The pg-boss job id is derived from the row: sending twice never makes two runs.
      await jobs.send(CRAWL_QUEUE, { jobId: row.id }, { singletonKey: `crawl-${row.id}` });
      return { job_id: row.id, status: row.status, job: toJobView(row), status_url: `${config.baseUrl}/api/crawl/${row.id}` };
    },

    /** The queue handler. Idempotent: a finished job is left alone; an interrupted one runs again. */
    async runJob(jobId: number, meta: { retryCount: number; retryLimit: number } = { retryCount: 0, retryLimit: 0 }): Promise<'skipped' | 'succeeded' | 'failed'> {
      const existing = await repo.find(jobId);
      if (!existing || existing.status === 'succeeded' || existing.status === 'failed') return 'skipped';
      const row = await repo.claim(jobId);
      if (!row) return 'skipped';
      const o = row.options as { max_pages?: number; max_depth?: number; adaptive_retry?: boolean };
      const opts: CrawlRunOptions = {
        maxPages: Math.min(o.max_pages ?? config.crawl.maxPages, config.crawl.maxPages),
        maxDepth: Math.min(o.max_depth ?? config.crawl.maxDepth, config.crawl.maxDepth),
        adaptiveRetry: o.adaptive_retry ?? true,
      };
      const userId = row.requested_by === 'admin' ? null : row.user_id;
      try {
        await runTracked(row, opts, userId);
        return 'succeeded';
      } catch (err) {
        if (err instanceof CrawlFailure) return 'failed';
        log.error({ err, jobId }, 'crawl job failed unexpectedly');
        // Retried by the queue; on the last attempt the row is closed so it never stays "running".
        if (meta.retryCount >= meta.retryLimit) await repo.fail(jobId, { kind: 'internal', error: 'internal error while crawling' });
        throw err;
      }
    },

    /** Wired into the auth service: the `crawl` magic-link purpose queues a crawl of the verified site. */
    async startForOwner(userId: string, companyId: string, websiteUrl: string) {
      return service.start({ kind: 'magic_link', userId, companyId }, { url: websiteUrl });
    },

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

  function resultView(r: Awaited<ReturnType<typeof pipeline>>) {
    return {
      profile: companies.toProfile(r.saved.row),
      outcome: r.saved.outcome,
      changes: r.changes,
      kept_owner_edits: r.saved.kept,
      strategies_tried: r.outcome.strategiesTried,
      pages_fetched: r.outcome.pages.length,
      analyser: r.profile.analyser,
    };
  }

  jobs.define<{ jobId: number }>({
    name: CRAWL_QUEUE,
    retryLimit: 3,
    retryDelaySeconds: 30,
    expireInSeconds: 15 * 60,
    concurrency: 2,
    handler: async (data, meta) => {
      await service.runJob(Number(data.jobId), { retryCount: meta.retryCount, retryLimit: 3 });
    },
  });

  return service;
}

export type CrawlService = ReturnType<typeof createCrawlService>;
