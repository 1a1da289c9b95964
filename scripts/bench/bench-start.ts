/**
 * Starting the service under a benchmark: spawns a server script on a store and resolves once it
 * answers and its in-process vector index is loaded and its graph built. Until then search answers
 * from the database and the main thread is busy loading vectors, which is not the steady state a
 * benchmark must measure.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { MALLOC_SETTINGS } from '../../src/platform/heap.js';

/**
 * Where a benchmark server on a PostgreSQL database keeps its search index snapshot: one folder per database, so
 * that a 100k and a 1M database kept side by side never replace each other's snapshot (nor the folder of `npm start`).
 */
export function benchSnapshotDir(root: string, databaseUrl: string): string {
  return path.join(root, 'data', 'bench-index', new URL(databaseUrl).pathname.slice(1) || 'default');
}

export interface BenchServer {
  pid: number;
  stop: () => void;
}

export function startBenchServer(options: {
  script: string;
  cwd: string;
  env: Record<string, string | undefined>;
  port: number;
  /** How long the start may take (loading and building the index take about a minute per 100k companies here). */
  timeoutMs: number;
  log: (msg: string) => void;
  /** Extra Node flags for the server (profiling: `--cpu-prof`). */
  nodeArgs?: string[];
}): Promise<BenchServer> {
  // A TypeScript script runs through tsx; the compiled server (dist/src/server.js, what `npm start` runs) without it.
  const loader = options.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  // The malloc settings `npm start` puts in the environment (platform/heap.ts), unless the caller's environment sets them.
  const env = { ...MALLOC_SETTINGS, ...options.env };
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, options.script], { cwd: options.cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = async () => {
      try {
        const r = await fetch(`http://127.0.0.1:${options.port}/api/health/deep`);
        const detail = r.ok ? String(((await r.json()) as { checks: { vector_index?: { detail?: string } } }).checks.vector_index?.detail) : '';
        if (r.ok && !/^(loading|ready, \d+ companies, graph building)/.test(detail)) {
          options.log(`vector index: ${detail} (server ready after ${((Date.now() - started) / 1000).toFixed(0)} s)`);
          return resolve({ pid: child.pid!, stop: () => child.kill('SIGTERM') });
        }
      } catch {
        // not up yet
      }
      if (child.exitCode !== null) return reject(new Error(`server exited with ${child.exitCode}`));
      if (Date.now() > started + options.timeoutMs) return reject(new Error('server did not become ready'));
      setTimeout(poll, 500);
    };
    void poll();
  });
}

/**
 * The dev probes' server (scripts/dev/profile-search.ts, memory-probe.ts, thread-cpu.ts): scripts/bench/bench-server.ts on
 * the store their arguments name, `--data-dir DIR` (PGlite, a folder bench:search kept) or `--database-url URL` (a
 * PostgreSQL database it kept with `--database-name`), on a random port, without jobs or rate limits, `workers`
 * embedding workers (2 by default, as bench:search).
 */
export async function startProbeServer(
  root: string,
  args: string[],
  options: { nodeArgs?: string[]; workers?: string } = {},
): Promise<BenchServer & { base: string }> {
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const dataDir = option('--data-dir');
  const databaseUrl = option('--database-url');
  if (!dataDir && !databaseUrl) throw new Error('--data-dir DIR or --database-url URL (a store filled by npm run bench:search -- --data-dir DIR | --database-name NAME)');
  const port = 19000 + Math.floor(Math.random() * 1000);
  const server = await startBenchServer({
    script: path.join(root, 'scripts/bench/bench-server.ts'),
    cwd: root,
    env: {
      ...process.env, ...(databaseUrl ? { DATABASE_URL: databaseUrl, VECTOR_INDEX_SNAPSHOT_DIR: benchSnapshotDir(root, databaseUrl) } : { DATA_DIR: path.resolve(dataDir!) }), PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production',
      EMBEDDINGS_WORKERS: options.workers ?? '2', RATE_LIMIT_IP_PER_MINUTE: '1000000', RATE_LIMIT_AGENT_PER_MINUTE: '1000000', RUN_JOBS: 'false',
    },
    port,
    timeoutMs: 900_000,
    log: (m) => console.log(m),
    nodeArgs: options.nodeArgs ?? [],
  });
  return { ...server, base: `http://127.0.0.1:${port}` };
}
