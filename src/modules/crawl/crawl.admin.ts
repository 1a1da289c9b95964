import { AppError } from '../../platform/errors.js';
import type { CrawlRepo } from './crawl.repo.js';
import { toJobView } from './crawl.views.js';

/** What administrators read about crawls: recent jobs, one job in full, success statistics. */
export function createCrawlAdminReads(repo: CrawlRepo) {
  return {
    async adminRecent(q: { limit: number; offset: number; status?: string | undefined }) {
      const { rows, total } = await repo.list(q);
      return { jobs: rows.map(toJobView), total, limit: q.limit, offset: q.offset, has_more: q.offset + rows.length < total };
    },

    async adminDetail(id: number) {
      const row = await repo.find(id);
      if (!row) throw new AppError('not_found', `Crawl job ${id} not found`);
      return {
        job: toJobView(row),
        user_id: row.user_id,
        requested_by: row.requested_by,
        options: row.options,
        error_kind: row.error_kind,
        raw_error: row.error,
        result: row.result,
        events: row.events,
      };
    },

    async stats(hours: number) {
      const s = await repo.stats(hours);
      const by = { queued: 0, running: 0, succeeded: 0, failed: 0 };
      for (const r of s.byStatus) if (r.status in by) by[r.status as keyof typeof by] = r.n;
      const finished = by.succeeded + by.failed;
      return {
        hours,
        total: by.queued + by.running + by.succeeded + by.failed,
        by_status: by,
        success_rate: finished ? Math.round((by.succeeded / finished) * 10000) / 10000 : null,
        median_duration_ms: s.median === null ? null : Math.round(s.median),
        avg_pages_fetched: s.avgPages === null ? null : Math.round(s.avgPages * 100) / 100,
        top_errors: s.errors.map((e) => ({ kind: e.kind, count: e.n, example: e.example ?? '' })),
      };
    },

  };
}
