import { isoTimeOrNull as iso } from '../../lib/time.js';
import { AppError } from '../../platform/errors.js';
import { jobName } from '../../platform/jobs.js';
import type { CrawlCtx } from './crawl.context.js';
import { CRAWL_JOB } from './crawl.jobs.js';
import { parseTarget } from './crawl.views.js';
import { FetchError, type Fetcher } from './crawl.fetcher.js';
import type { WebsiteCheckStatus } from '../companies/tools.website-check.js';

/** The hourly pass that starts the month's website checks that are due. */
export const WEBSITE_CHECK_JOB = jobName<object>('crawl.website-checks');
/** A website check runs this often per company. */
export const WEBSITE_CHECK_DAYS = 30;
/** Checks started per hourly pass (each is one crawl job, run at the crawl queue's own pace). */
const CHECKS_PER_PASS = 50;
/** A picture the owner accepts is fetched once, up to the gallery's upload limit. */
const PICTURE_MAX_BYTES = 8 * 1024 * 1024;

/** Monthly website checks (issue 39): owners opt in; each month a crawl proposes what changed, and the owner decides. */
export function createWebsiteChecks(ctx: CrawlCtx, newFetcher: (o: { maxBytes: number; timeoutMs: number }) => Fetcher) {
  const { checks, repo, jobs, log } = ctx.deps;

  async function status(companyId: string): Promise<WebsiteCheckStatus> {
    const [check, pending] = await Promise.all([checks.check(companyId), checks.pending(companyId)]);
    return {
      monthly: Boolean(check),
      next_check_at: check ? iso(check.next_run_at) : null,
      last_check_at: check ? iso(check.last_run_at) : null,
      suggestion: pending ? { id: pending.id, found_at: iso(pending.created_at)!, changes: pending.changes, photos: pending.photos } : null,
    };
  }

  /** Queues a reviewed crawl of the company's site as a system job (nobody waits for it). */
  async function startCheck(companyId: string, websiteUrl: string): Promise<number | undefined> {
    const target = parseTarget(websiteUrl);
    if (await repo.findActiveByDomain(target.domain)) return undefined;
    const { maxPages, maxDepth } = ctx.deps.config.crawl;
    const row = await repo.create({
      url: target.url, domain: target.domain, userId: null, requestedBy: 'system', companyId,
      options: { max_pages: maxPages, max_depth: maxDepth, adaptive_retry: true, review: true },
    });
    await jobs.send(CRAWL_JOB, { jobId: row.id }, { singletonKey: `crawl-${row.id}` });
    return row.id;
  }

  return {
    websiteCheck: status,

    /** Turns the monthly check on (the first one runs within the hour) or off. */
    async setWebsiteCheck(companyId: string, monthly: boolean, userId: string | null): Promise<WebsiteCheckStatus> {
      if (monthly) await checks.enable(companyId, userId, 0);
      else await checks.disable(companyId);
      return status(companyId);
    },

    /** Closes the pending suggestion with what the owner accepted; a 404 when it is not the pending one any more. */
    async resolveSuggestion(companyId: string, suggestionId: string, accepted: { fields: string[]; photos: string[] }) {
      const row = await checks.resolve(companyId, suggestionId, accepted);
      if (!row) throw new AppError('not_found', 'This suggestion is no longer open: it was decided already or a newer check replaced it. Reload to see the current one.');
      return row;
    },

    pendingSuggestion: (companyId: string) => checks.pending(companyId),

    /** A picture from the company's site, fetched by the crawler's network rules (no private addresses, size-capped). */
    async fetchPicture(url: string): Promise<{ bytes: Buffer } | { problem: string }> {
      const fetcher = newFetcher({ maxBytes: PICTURE_MAX_BYTES, timeoutMs: 20_000 });
      try {
        const r = await fetcher.fetch(url, 'image');
        return r.bytes?.length ? { bytes: r.bytes } : { problem: 'the website sent an empty file' };
      } catch (err) {
        if (!(err instanceof FetchError)) throw err;
        return { problem: err.kind === 'too_large' ? 'it is larger than 8 MB' : err.kind === 'content_type' ? 'it is not a JPEG, PNG or WebP picture' : 'the website did not send it' };
      } finally {
        await fetcher.close();
      }
    },

    /** Hourly: starts the checks that are due (each moves a month on as it is taken). */
    async queueDueChecks(limit = CHECKS_PER_PASS): Promise<number> {
      const due = await checks.claimDue(WEBSITE_CHECK_DAYS, limit);
      let n = 0;
      for (const c of due) if (await startCheck(c.company_id, c.website_url).catch((err: unknown) => log.warn({ err, companyId: c.company_id }, 'website check not started'))) n++;
      if (n) log.info({ started: n }, 'website checks started');
      return n;
    },
  };
}
