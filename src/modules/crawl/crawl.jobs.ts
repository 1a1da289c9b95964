import type { BearerPrincipal } from '../../platform/auth.js';
import { jobName } from '../../platform/jobs.js';
import { authorize, claimOwnership, CrawlFailure, ensureNotRunning, failureToAppError, runOptions, type CrawlCtx, type CrawlRunOptions } from './crawl.context.js';
import type { CrawlEvent } from './crawl.engine.js';
import { pipeline, type PipelineHooks, type PipelineResult } from './crawl.pipeline.js';
import type { CrawlJobRow, CrawlRepo } from './crawl.repo.js';
import type { CrawlRequest } from './crawl.schemas.js';
import { parseTarget, toJobView } from './crawl.views.js';

/** Crawls as jobs: run now while the caller waits, or queued and run by the worker; each tracked in a job row. */
export const CRAWL_JOB = jobName<{ jobId: number }>('crawl.run');

/** Progress hooks that buffer events and write them with each stage (and at the end). */
function trackingHooks(repo: CrawlRepo, jobId: number): { hooks: PipelineHooks; flush: () => Promise<void> } {
  const buffer: CrawlEvent[] = [];
  const flush = async () => {
    const batch = buffer.splice(0, buffer.length);
    await repo.appendEvents(jobId, batch);
  };
  const hooks: PipelineHooks = {
    event: (e) => {
      buffer.push(e);
    },
    stage: async (stage, pages) => {
      await repo.progress(jobId, { stage, ...(pages !== undefined ? { pagesFetched: pages } : {}) });
      await flush();
    },
  };
  return { hooks, flush };
}

/** What a succeeded job row records of its run. */
function jobResult(r: PipelineResult) {
  return {
    outcome: r.saved.outcome,
    changed_fields: r.changes.map((c) => c.field),
    // the monthly website check writes nothing: what it found waits for the owner
    proposed_fields: r.proposed.map((c) => c.field),
    suggestion_id: r.suggestionId,
    kept_owner_edits: r.saved.kept,
    strategies_tried: r.outcome.strategiesTried,
    analyser: r.profile.analyser,
    // where name, phone, city, country and address came from, and every address the site shows (issue 19)
    provenance: r.profile.provenance,
    locations: r.profile.locations,
    pages: r.outcome.pages.map((p) => p.url).slice(0, 100),
    failures: r.outcome.failures.slice(0, 50),
    skipped_by_robots: r.outcome.skippedByRobots.slice(0, 50),
  };
}

/** Runs a tracked job row through the pipeline; records progress, events and the outcome. */
async function runTracked(ctx: CrawlCtx, row: CrawlJobRow, opts: CrawlRunOptions, userId: string | null) {
  const { repo } = ctx.deps;
  const { hooks, flush } = trackingHooks(repo, row.id);
  hooks.event({ at: new Date().toISOString(), stage: 'queued', message: `attempt ${row.attempts} started`, data: { url: row.url, ...opts } });
  try {
    const r = await pipeline(ctx, { url: row.url, domain: row.domain }, opts, hooks, row.id);
    if (userId && row.requested_by !== 'admin') await claimOwnership(ctx, userId, r.saved.row.id, hooks.event);
    await flush();
    const job = await repo.succeed(row.id, { companyId: r.saved.row.id, pagesFetched: r.outcome.pages.length, result: jobResult(r) });
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

function resultView(ctx: CrawlCtx, r: PipelineResult) {
  return {
    profile: ctx.deps.companies.toProfile(r.saved.row),
    outcome: r.saved.outcome,
    changes: r.changes,
    kept_owner_edits: r.saved.kept,
    strategies_tried: r.outcome.strategiesTried,
    pages_fetched: r.outcome.pages.length,
    analyser: r.profile.analyser,
  };
}

/** POST /api/crawl (and /admin): crawls now and answers with the saved profile. */
export async function crawlNow(ctx: CrawlCtx, principal: BearerPrincipal, req: CrawlRequest, flags: { trackJob: boolean; adaptiveRetry: boolean }) {
  const target = parseTarget(req.url);
  await authorize(ctx, principal, target.domain);
  await ensureNotRunning(ctx, target.domain);
  const userId = principal.kind === 'user' ? principal.userId : null;
  // An owner's crawl proposes the site's pictures for the gallery.
  const opts: CrawlRunOptions = { ...runOptions(ctx, req.options, flags.adaptiveRetry), ...(userId ? { suggest: 'photos' as const } : {}) };
  if (flags.trackJob) return crawlNowTracked(ctx, principal, target, opts, userId);
  try {
    const r = await pipeline(ctx, target, opts, { event: () => {}, stage: async () => {} });
    if (userId) await claimOwnership(ctx, userId, r.saved.row.id);
    return { ...resultView(ctx, r), job: null };
  } catch (err) {
    throw failureToAppError(err);
  }
}

async function crawlNowTracked(ctx: CrawlCtx, principal: BearerPrincipal, target: { url: string; domain: string }, opts: CrawlRunOptions, userId: string | null) {
  const { repo } = ctx.deps;
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
    const r = await runTracked(ctx, row, opts, userId);
    return { ...resultView(ctx, r), job: toJobView(r.job) };
  } catch (err) {
    // Nobody retries a crawl the caller waited for: close the row so it never stays running.
    if (!(err instanceof CrawlFailure)) await repo.fail(row.id, { kind: 'internal', error: 'internal error while crawling' }).catch(() => {});
    throw failureToAppError(err, row.id);
  }
}

/** Queues a crawl (POST /api/crawl/start, the magic-link path): answers at once with the job. */
export async function startCrawl(ctx: CrawlCtx, principal: BearerPrincipal | { kind: 'magic_link'; userId: string; companyId: string }, req: CrawlRequest, flags: { adaptiveRetry: boolean } = { adaptiveRetry: true }) {
  const { repo, jobs, config } = ctx.deps;
  const target = parseTarget(req.url);
  if (principal.kind !== 'magic_link') await authorize(ctx, principal, target.domain);
  await ensureNotRunning(ctx, target.domain);
  const opts = runOptions(ctx, req.options, flags.adaptiveRetry);
  const row = await repo.create({
    url: target.url,
    domain: target.domain,
    userId: principal.kind === 'admin' ? principal.adminId : principal.userId,
    requestedBy: principal.kind === 'admin' ? 'admin' : principal.kind === 'magic_link' ? 'magic_link' : 'user',
    companyId: principal.kind === 'magic_link' ? principal.companyId : null,
    options: { max_pages: opts.maxPages, max_depth: opts.maxDepth, adaptive_retry: opts.adaptiveRetry },
  });
  // The pg-boss job id is derived from the row: sending twice never makes two runs.
  await jobs.send(CRAWL_JOB, { jobId: row.id }, { singletonKey: `crawl-${row.id}` });
  return { job_id: row.id, status: row.status, job: toJobView(row), status_url: `${config.baseUrl}/api/crawl/${row.id}` };
}

/** The queue handler. Idempotent: a finished job is left alone; an interrupted one runs again. */
export async function runJob(ctx: CrawlCtx, jobId: number, meta: { retryCount: number; retryLimit: number } = { retryCount: 0, retryLimit: 0 }): Promise<'skipped' | 'succeeded' | 'failed'> {
  const { repo, log } = ctx.deps;
  const existing = await repo.find(jobId);
  if (!existing || existing.status === 'succeeded' || existing.status === 'failed') return 'skipped';
  const row = await repo.claim(jobId);
  if (!row) return 'skipped';
  const o = row.options as { max_pages?: number; max_depth?: number; adaptive_retry?: boolean; review?: boolean };
  const byOwner = row.requested_by === 'user' || row.requested_by === 'magic_link';
  const suggest = o.review ? 'changes' as const : byOwner ? 'photos' as const : undefined;
  const opts: CrawlRunOptions = { ...runOptions(ctx, o, o.adaptive_retry ?? true), ...(suggest ? { suggest } : {}) };
  const userId = row.requested_by === 'admin' ? null : row.user_id;
  try {
    await runTracked(ctx, row, opts, userId);
    return 'succeeded';
  } catch (err) {
    if (err instanceof CrawlFailure) return 'failed';
    log.error({ err, jobId }, 'crawl job failed unexpectedly');
    // Retried by the queue; on the last attempt the row is closed so it never stays "running".
    if (meta.retryCount >= meta.retryLimit) await repo.fail(jobId, { kind: 'internal', error: 'internal error while crawling' });
    throw err;
  }
}
