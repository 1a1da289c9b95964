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
