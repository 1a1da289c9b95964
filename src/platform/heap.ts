import v8 from 'node:v8';

/**
 * How far the JavaScript heap may grow past what stayed alive before V8 collects it fully (HEAP_GROWING_PERCENT).
 *
 * Why: under load a search's short-lived objects outlive the young generation (a request waits for its query
 * embedding), so they reach the old generation, and V8's own rule lets that grow to several times the live heap
 * before a full collection. At 100k companies the live heap is about 180 MB while the heap in use reaches about
 * 480 MB. With 30 % the peak resident set under `npm run bench:search` fell from 1,207 to 957 MB on PostgreSQL and
 * from 1,247–1,640 to 1,101–1,125 MB on PGlite, for more full collections: 5–9 % less throughput on PostgreSQL and
 * 6–19 % on PGlite, with a higher p99 (docs/measurements.md). Off by default, so throughput stays as it was; an
 * operator whose instances are bounded by memory turns it on. Process-wide: the worker threads' heaps follow it.
 * Set before the app is built; 0 keeps V8's rule.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
