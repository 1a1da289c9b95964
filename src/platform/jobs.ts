import { PgBoss, fromPglite } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db.js';
import { jobRunSeconds } from './outcomes.js';

/**
 * Background jobs through pg-boss on both stores (PGlite shares the app's instance).
 * Modules define a queue with its handler once (`define`), then `send` work to it. Jobs are
 * rows in the database: acknowledged work survives a restart and is retried on failure.
 * Workers run in the web process when `runJobs` is on, or in `npm run worker`.
 *
 * Naming: each queue is a `<module>.<verb>` name declared once by its module as `X_JOB = jobName<Payload>(…)`;
 * the name carries its payload type, so `define`'s handler and every `send` agree on it.
 */
declare const payloadType: unique symbol;
export type JobName<T extends object> = string & { readonly [payloadType]: T };

/** Declares a queue name with the payload its jobs carry. */
export function jobName<T extends object>(name: string): JobName<T> {
  return name as JobName<T>;
}

export interface JobDefinition<T extends object> {
  name: JobName<T>;
  handler: (data: T, meta: { id: string; retryCount: number }) => Promise<void>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  expireInSeconds?: number;
  concurrency?: number;
}

export interface Jobs {
  define<T extends object>(def: JobDefinition<T>): void;
  send<T extends object>(name: JobName<T>, data: T, options?: { singletonKey?: string; startAfterSeconds?: number; id?: string }): Promise<string | null>;
  /**
   * Runs a defined queue on a cron expression (UTC), e.g. '17 3 * * *'. Call at build time after
   * `define`; the schedule is stored in the database on start, so it fires once per occurrence
   * however many processes run, and the job goes to whichever process works that queue.
   */
  schedule<T extends object>(name: JobName<T>, cron: string): void;
  start(options: { work: boolean }): Promise<void>;
  stop(): Promise<void>;
  isRunning(): boolean;
  readonly boss: PgBoss;
}

/** How often a running job's worker must check in; a job whose worker is gone is retried after this. */
export const HEARTBEAT_SECONDS = 10;
/** How often pg-boss looks for jobs whose heartbeat stopped (and does its other supervision). */
const SUPERVISE_SECONDS = 5;

export function createJobs(db: Db, log: FastifyBaseLogger): Jobs {
  const boss = db.kind === 'pglite'
    ? new PgBoss({ db: fromPglite(db.pglite!), backend: 'pglite', schema: 'pgboss', superviseIntervalSeconds: SUPERVISE_SECONDS } as ConstructorParameters<typeof PgBoss>[0])
    // The pool's own result goes to pg-boss as it is: a multi-statement query answers an array of
    // results, which pg-boss unwraps itself (flattening it to `.rows` lost them: its monitor failed).
    : new PgBoss({ db: { executeSql: (text: string, values?: unknown[]) => db.pool!.query(text, values as unknown[]) }, schema: 'pgboss', superviseIntervalSeconds: SUPERVISE_SECONDS } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on('error', (err: unknown) => log.error({ err }, 'job queue error'));
  const definitions = new Map<string, JobDefinition<object>>();
  const schedules = new Map<string, string>();
  let running = false;

  return {
    boss,
    define(def) {
      definitions.set(def.name, def as unknown as JobDefinition<object>);
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
        const options = {
          retryLimit: def.retryLimit ?? 5,
          retryDelay: def.retryDelaySeconds ?? 5,
          retryBackoff: true,
          expireInSeconds: def.expireInSeconds ?? 15 * 60,
          // A running job proves it is alive; one whose process died (a crash, a SIGKILL) is retried
          // about HEARTBEAT_SECONDS later instead of waiting out expireInSeconds.
          heartbeatSeconds: HEARTBEAT_SECONDS,
        };
        await boss.createQueue(def.name, options);
        // createQueue leaves an existing queue as it was: settings changed since are applied here.
        await boss.updateQueue(def.name, options);
        // Upsert: restarts and extra processes rewrite the same row. Runs missed while no process
        // was up are sent once by the next cron pass rather than skipped.
        const cron = schedules.get(def.name);
        if (cron) await boss.schedule(def.name, cron, null, { tz: 'UTC', missed: 'once' });
        if (!work) continue;
        const concurrency = def.concurrency ?? 1;
        await boss.work<object>(def.name, { batchSize: 1, localConcurrency: concurrency, pollingIntervalSeconds: 0.5 }, async (jobs) => {
          for (const job of jobs) {
            const end = jobRunSeconds.startTimer({ queue: def.name });
            try {
              await def.handler(job.data, { id: job.id, retryCount: (job as unknown as { retryCount?: number }).retryCount ?? 0 });
              end({ outcome: 'completed' });
            } catch (error) {
              end({ outcome: 'failed' });
              throw error;
            }
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
