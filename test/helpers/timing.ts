import assert from 'node:assert/strict';
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';

/**
 * Bounds on waiting, for tests that drive real processes and browsers. Such a test waits on events
 * (a locator, a response, a process exit, a mail) and never asserts speed: a bound only decides how
 * long a wait that will never end may hang before the test fails with what it saw. Bounds are
 * generous and grow with the machine's load when the wait starts (the one-minute load average per
 * core: a suite under load 20 on 2 cores runs about ten times slower) and with TEST_TIME_FACTOR
 * (a number, 1 when unset) for machines slower still. A wait that ends costs nothing extra.
 */
export function patience(ms: number): number {
  const factor = Number(process.env.TEST_TIME_FACTOR);
  const load = os.loadavg()[0]! / os.availableParallelism();
  return Math.round(ms * (factor > 0 ? factor : 1) * Math.max(1, load));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `read` until `done` holds for its value; resolves to that value. Past `patience(boundMs)`
 * fails with `what` and the last value read. For conditions with no event to wait on (a row in a
 * store another process writes, a mail a job sends).
 */
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string, boundMs = 60_000, intervalMs = 100): Promise<T> {
  const bound = patience(boundMs);
  const deadline = Date.now() + bound;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}: still not the case after ${Math.round(bound / 1000)} s; last seen: ${JSON.stringify(value)?.slice(0, 1500)}`);
    await sleep(intervalMs);
  }
}

/** Polls `read` until its value deep-equals `expected` (a page that settles after an action); fails with the difference. */
export async function eventually<T>(read: () => T | Promise<T>, expected: T, message?: string, boundMs = 60_000): Promise<void> {
  const deadline = Date.now() + patience(boundMs);
  for (;;) {
    const value = await read();
    if (isDeepStrictEqual(value, expected)) return;
    if (Date.now() > deadline) {
      assert.deepEqual(value, expected, message);
      return;
    }
    await sleep(50);
  }
}
