import type { Db, Queryable } from '../../platform/db.js';
import { AppError, notFound } from '../../platform/errors.js';
import { jobName, type Jobs } from '../../platform/jobs.js';
import type { AdminAuditEntry } from '../../platform/audit.js';
import type { Actor, ToolsService } from '../companies/tools.service.js';
import { createAdminRepo, type ReindexRunRow } from './admin.repo.js';
import { isoTimeOrNull as iso } from '../../lib/time.js';

export const REINDEX_JOB = jobName<{ runId: number }>('admin.reindex');
/** A run that has not reported progress for this long is considered dead and no longer blocks a new one. */
const STALE_RUN_SECONDS = 15 * 60;

/** Writes one audit row with the caller's query runner (a transaction: the action and its record commit together). */
export function recordAudit(q: Queryable, entry: AdminAuditEntry): Promise<void> {
  return createAdminRepo(q).recordAudit(entry);
}

export interface AdminServiceDeps {
  db: Db;
  tools: ToolsService;
  jobs: Jobs;
  log?: { error: (obj: object, msg: string) => void };
}

export function toRun(r: ReindexRunRow) {
  return {
    id: r.id, status: r.status, total: r.total, done: r.done,
    progress: r.total > 0 ? Math.min(1, r.done / r.total) : r.status === 'done' ? 1 : 0,
    error: r.error, started_by: r.started_by,
    created_at: iso(r.created_at)!, started_at: iso(r.started_at), finished_at: iso(r.finished_at),
  };
}

export function createAdminService({ db, tools, jobs, log }: AdminServiceDeps) {
  const repo = createAdminRepo(db);

  async function runReindex(runId: number): Promise<void> {
    const run = await repo.getRun(runId);
    if (run?.status !== 'queued') return;
    await repo.updateRun(runId, { status: 'running', total: await tools.countLive() });
    try {
      const done = await tools.reindexAll(async (n) => repo.updateRun(runId, { done: n }));
      await repo.updateRun(runId, { status: 'done', done });
    } catch (err) {
      log?.error({ err }, 'reindex failed');
      await repo.updateRun(runId, { status: 'failed', error: err instanceof Error ? err.message.slice(0, 500) : 'failed' });
    }
  }

  jobs.define<{ runId: number }>({ name: REINDEX_JOB, retryLimit: 0, expireInSeconds: 6 * 60 * 60, handler: async ({ runId }) => runReindex(runId) });

  return {
    runReindex,

    /** Queues a reindex run; a second one while one is queued or running is 409. */
    async startReindex(actor: Actor) {
      await repo.failStaleRuns(STALE_RUN_SECONDS);
      const total = await tools.countLive();
      const run = await db.transaction(async (tx) => {
        const r = createAdminRepo(tx);
        const created = await r.createRun(actor.email, total);
        if (created) await r.recordAudit({ adminId: actor.id, adminEmail: actor.email, action: 'reindex.start', targetType: 'reindex', targetId: String(created.id), after: { total } });
        return created;
      });
      if (!run) {
        const active = await repo.latestRun();
        throw new AppError('conflict', `A reindex is already ${active?.status ?? 'running'} (run ${active?.id ?? '?'}, ${active?.done ?? 0}/${active?.total ?? 0}); wait for it to finish`);
      }
      try {
        await jobs.send(REINDEX_JOB, { runId: run.id });
      } catch (err) {
        await repo.updateRun(run.id, { status: 'failed', error: 'could not be queued' });
        throw err;
      }
      return toRun(run);
    },

    async getRun(id?: number) {
      const run = id === undefined ? await repo.latestRun() : await repo.getRun(id);
      if (!run) throw notFound('Reindex run');
      return toRun(run);
    },

    async auditLog(o: { limit?: number | undefined; offset?: number | undefined; target_id?: string | undefined; action?: string | undefined }) {
      const { rows, total } = await repo.listAudit({ targetId: o.target_id, action: o.action, limit: o.limit ?? 50, offset: o.offset ?? 0 });
      return { entries: rows.map((r) => ({ ...r, created_at: iso(r.created_at)! })), total };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
