import v8 from 'node:v8';

/**
 * How far the JavaScript heap may grow past what stayed alive before V8 collects it fully (HEAP_GROWING_PERCENT).
 *
 * Why: under load a search's short-lived objects outlive the young generation (a request waits for its query
 * embedding), so they reach the old generation, and V8's own rule lets that grow to several times the live heap
 * before a full collection. At 100k companies the live heap is about 180 MB while the heap in use reaches about
 * 480 MB. Through tsx, 30 % lowered the peak resident set under `npm run bench:search` from 1,207 to 957 MB on
 * PostgreSQL for 5–9 % less throughput (session 14). On the compiled server (`npm start`, session 19) it is the default
 * on PostgreSQL: peak 797–812 MB against 1,051–1,272 MB, with throughput within the runs' own spread. On the embedded
 * store it is the default too since session 25: own memory 665–712 MB against 978–1,191 MB after a restart at 100k, for
 * 5–10 % less throughput and a p99 that stays under 200 ms (docs/measurements.md). An operator whose instances are
 * bounded by CPU rather than memory sets 0.
 * Process-wide: the worker threads' heaps follow it. Set before the app is built; 0 keeps V8's rule.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * glibc malloc settings that `npm start` and `npm run worker` put in the environment (package.json) when the operator
 * has not set them. They are read when the process starts, before any of its threads exists, so they cannot be set from
 * inside it.
 *
 * Why: Node's threads (the embedding and graph workers, V8's helpers, libuv's pool) each take a malloc arena of their own,
 * and glibc raises its mmap threshold after each large block is freed, so freed buffers (query vectors, worker messages,
 * PGlite's results) stay resident inside the arenas. Two arenas and a fixed 128 KiB threshold (larger blocks mapped on
 * their own and given back when freed) lowered the compiled server's peak resident set after a restart at 100k companies
 * on PGlite from 982–993 to 864–900 MB (own memory 680–687 to 560–596 MB) with the searches' throughput within the runs'
 * spread; at 1M on PostgreSQL own memory went from 852 to 736–751 MB, browsing with filters 10–25 % slower
 * (docs/measurements.md, session 26).
 */
export const MALLOC_SETTINGS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } as const;

/**
 * What the start log says when this process was started without the malloc settings (systemd, a container's own
 * command): undefined when they are all set, or when the system has no glibc (musl and other systems ignore them).
 * `glibc` is asked only when one is missing, so a start through npm builds no diagnostic report.
 */
export function mallocSettingsNotice(env: NodeJS.ProcessEnv, glibc: () => boolean = runsOnGlibc): string | undefined {
  const missing = Object.keys(MALLOC_SETTINGS).filter((name) => env[name] === undefined);
  if (missing.length === 0 || !glibc()) return undefined;
  const wanted = missing.map((name) => `${name}=${MALLOC_SETTINGS[name as keyof typeof MALLOC_SETTINGS]}`).join(' ');
  return `started without ${wanted} in the environment, which npm start and npm run worker set: about 90 MB more resident memory at 100k companies (docs/operations.md, Install)`;
}

/** Whether this process runs on glibc (Linux's usual C library). */
export function runsOnGlibc(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return typeof report?.header?.glibcVersionRuntime === 'string';
}
