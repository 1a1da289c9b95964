/**
 * Starting the service under a benchmark: spawns a server script on a store and resolves once it
 * answers and its in-process vector index is loaded and its graph built. Until then search answers
 * from the database and the main thread is busy loading vectors, which is not the steady state a
 * benchmark must measure.
 */
import { spawn } from 'node:child_process';

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
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', options.script], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'inherit', 'inherit'] });
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
