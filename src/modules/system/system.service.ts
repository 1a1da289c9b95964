import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import type { Jobs } from '../../platform/jobs.js';
import type { ReplicaStatus } from '../../platform/read-pool.js';
import { createSystemRepo } from './system.repo.js';

export const API_VERSION = '2.0.0';

/** What the search module reports about its in-process vector index (undefined: disabled). */
export type VectorIndexReport = { state: string; companies: number; graph: string; rows?: string } | undefined;

export function createSystemService(deps: { config: Config; db: Db; embeddings: EmbeddingProvider; jobs: Jobs; vectorIndexStatus?: () => VectorIndexReport; replicas?: () => ReplicaStatus[] }) {
  const { config, embeddings, jobs } = deps;
  const repo = createSystemRepo(deps.db);
  let draining = false;
  return {
    /** Shutdown began: readiness answers 503 so load balancers stop routing here, while requests are still served. */
    beginDrain(): void {
      draining = true;
    },

    async deepHealth() {
      const database = await repo.ping().then(() => ({ ok: true }), () => ({ ok: false, detail: 'database unreachable' }));
      const migrations = database.ok
        ? await repo.pendingMigrations().then(
            (p) => (p.length === 0 ? { ok: true } : { ok: false, detail: `${p.length} migration(s) pending` }),
            () => ({ ok: false, detail: 'cannot read migrations' }),
          )
        : { ok: false, detail: 'database unreachable' };
      const emb = embeddings.isReady() ? { ok: true, detail: embeddings.runtime ? `${embeddings.model} (${embeddings.runtime})` : embeddings.model } : { ok: false, detail: 'embedding model not loaded' };
      const job = !config.runJobs ? { ok: true, detail: 'jobs run in a separate worker' } : jobs.isRunning() ? { ok: true } : { ok: false, detail: 'job queue not running' };
      const shutdown = draining ? { ok: false, detail: 'shutting down: finishing requests, routing should stop' } : { ok: true };
      // Informational: while the index loads or builds, search answers from the database (slower, still correct).
      const vi = deps.vectorIndexStatus?.();
      const vectorIndex = { ok: true, detail: vi ? `${vi.state}, ${vi.companies} companies, graph ${vi.graph}${vi.rows === 'mapped' ? ', rows read in place from the snapshot' : ''}` : 'disabled: search uses the database' };
      // Informational too: a replica down or behind only sends reads to the primary.
      const replicas = deps.replicas?.() ?? [];
      const readReplicas = {
        ok: true,
        detail: replicas.length
          ? replicas.map((r) => `${r.name} ${r.state}${r.lagMs === null ? '' : `, lag ${r.lagMs} ms`}${r.detail ? ` (${r.detail})` : ''}`).join('; ')
          : 'none: every read goes to the primary',
      };
      const ok = database.ok && migrations.ok && emb.ok && job.ok && shutdown.ok;
      return {
        status: ok ? ('ok' as const) : ('degraded' as const),
        checks: { database, migrations, embeddings: emb, jobs: job, shutdown, vector_index: vectorIndex, read_replicas: readReplicas },
        store: repo.kind,
        version: API_VERSION,
      };
    },

    publicConfig() {
      return {
        service_name: config.serviceName,
        display_name: 'AgentPages',
        base_url: config.baseUrl,
        agent_api_base: `${config.baseUrl}/api/v1/agent`,
        mcp_url: `${config.baseUrl}/mcp`,
        version: API_VERSION,
        features: {
          llm: Boolean(config.llm.baseUrl),
          smtp: Boolean(config.smtpUrl),
          embeddings_provider: config.embeddings.provider,
        },
        payments: {
          provider: config.payments.provider,
          test_mode: config.payments.testMode,
          enabled: config.payments.provider !== 'off',
        },
      };
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
