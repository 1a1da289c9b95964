import { PgBoss, fromPglite } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db.js';

/**
 * Background jobs through pg-boss on both stores (PGlite shares the app's instance).
 * Modules define a queue with its handler once (`define`), then `send` work to it. Jobs are
 * rows in the database: acknowledged work survives a restart and is retried on failure.
 * Workers run in the web process when `runJobs` is on, or in `npm run worker`.
 */
export interface JobDefinition<T extends object> {
  name: string;
  handler: (data: T, meta: { id: string; retryCount: number }) => Promise<void>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  expireInSeconds?: number;
  concurrency?: number;
}

export interface Jobs {
  define<T extends object>(def: JobDefinition<T>): void;
  send<T extends object>(name: string, data: T, options?: { singletonKey?: string; startAfterSeconds?: number; id?: string }): Promise<string | null>;
  /**
   * Runs a defined queue on a cron expression (UTC), e.g. '17 3 * * *'. Call at build time after
   * `define`; the schedule is stored in the database on start, so it fires once per occurrence
   * however many processes run, and the job goes to whichever process works that queue.
   */
  schedule(name: string, cron: string): void;
  start(options: { work: boolean }): Promise<void>;
  stop(): Promise<void>;
  isRunning(): boolean;
  readonly boss: PgBoss;
}

export function createJobs(db: Db, log: FastifyBaseLogger): Jobs {
  const boss = db.kind === 'pglite'
    ? new PgBoss({ db: fromPglite(db.pglite!), backend: 'pglite', schema: 'pgboss' } as ConstructorParameters<typeof PgBoss>[0])
    // The pool's own result goes to pg-boss as it is: a multi-statement query answers an array of
    // results, which pg-boss unwraps itself (flattening it to `.rows` lost them: its monitor failed).
    : new PgBoss({ db: { executeSql: (text: string, values?: unknown[]) => db.pool!.query(text, values as unknown[]) }, schema: 'pgboss' } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on('error', (err: unknown) => log.error({ err }, 'job queue error'));
  const definitions = new Map<string, JobDefinition<object>>();
  const schedules = new Map<string, string>();
  let running = false;

  return {
    boss,
    define(def) {
      definitions.set(def.name, def as JobDefinition<object>);
    },
    async send(name, data, options = {}) {
      if (!definitions.has(name)) throw new Error(`unknown job queue ${name}`);
      return boss.send(name, data, {
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
        ...(options.id ? { id: options.id } : {}),
      });
    },
    schedule(name, cron) {
      if (!definitions.has(name)) throw new Error(`unknown job queue ${name}`);
      schedules.set(name, cron);
    },
    async start({ work }) {
      await boss.start();
      for (const def of definitions.values()) {
        await boss.createQueue(def.name, {
          retryLimit: def.retryLimit ?? 5,
          retryDelay: def.retryDelaySeconds ?? 5,
          retryBackoff: true,
          expireInSeconds: def.expireInSeconds ?? 15 * 60,
        });
        // Upsert: restarts and extra processes rewrite the same row. Runs missed while no process
        // was up are sent once by the next cron pass rather than skipped.
        const cron = schedules.get(def.name);
        if (cron) await boss.schedule(def.name, cron, null, { tz: 'UTC', missed: 'once' });
        if (!work) continue;
        const concurrency = def.concurrency ?? 1;
        await boss.work<object>(def.name, { batchSize: 1, localConcurrency: concurrency, pollingIntervalSeconds: 0.5 }, async (jobs) => {
          for (const job of jobs) {
            await def.handler(job.data, { id: job.id, retryCount: (job as unknown as { retryCount?: number }).retryCount ?? 0 });
          }
        });
      }
      running = true;
    },
    async stop() {
      if (!running) return;
      running = false;
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
    isRunning: () => running,
  };
}
