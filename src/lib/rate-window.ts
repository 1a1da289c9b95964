/**
 * A fixed-window counter per key, in process memory. Enough for abuse brakes on sign-in
 * (magic-link requests, admin login failures) on one instance; several instances each keep
 * their own count, which multiplies the limit by the instance count but never blocks wrongly.
 */
export interface WindowLimiter {
  /** Counts one hit; ok false (with seconds until the window resets) once the limit is passed. */
  hit(key: string): { ok: boolean; retryAfterSeconds: number };
  /** Whether the key is over its limit, without counting. */
  blocked(key: string): { blocked: boolean; retryAfterSeconds: number };
  reset(key: string): void;
}

export function createWindowLimiter({ limit, windowMs, now = Date.now }: { limit: number; windowMs: number; now?: () => number }): WindowLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();

  function current(key: string): { start: number; count: number } | undefined {
    const t = now();
    // Drop stale windows now and then so memory stays bounded by recent traffic.
    if (t - lastSweep > windowMs) {
      for (const [k, w] of windows) if (t - w.start >= windowMs) windows.delete(k);
      lastSweep = t;
    }
    const w = windows.get(key);
    if (w && t - w.start < windowMs) return w;
    windows.delete(key);
    return undefined;
  }
  const retryAfter = (w: { start: number }) => Math.max(1, Math.ceil((w.start + windowMs - now()) / 1000));

  return {
    hit(key) {
      let w = current(key);
      if (!w) {
        w = { start: now(), count: 0 };
        windows.set(key, w);
      }
      w.count++;
      return { ok: w.count <= limit, retryAfterSeconds: retryAfter(w) };
    },
    blocked(key) {
      const w = current(key);
      return w && w.count >= limit ? { blocked: true, retryAfterSeconds: retryAfter(w) } : { blocked: false, retryAfterSeconds: 0 };
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

/**
 * A limiter whose block grows each time the key is blocked again: `limit` hits per window, then a
 * block of one window, then two, four... up to maxBlockMs. A key left alone for maxBlockMs is
 * forgotten. Used per (address, client) pair on sign-in, so repeated guessing from one client
 * slows down fast while the real person, from their own client, is never locked out by it.
 */
export function createBackoffLimiter({ limit, windowMs, maxBlockMs, now = Date.now }: { limit: number; windowMs: number; maxBlockMs: number; now?: () => number }): WindowLimiter {
  const entries = new Map<string, { start: number; count: number; strikes: number; blockedUntil: number; last: number }>();
  let lastSweep = now();
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  function entry(key: string) {
    const t = now();
    if (t - lastSweep > windowMs) {
      for (const [k, e] of entries) if (t - e.last > maxBlockMs && e.blockedUntil <= t) entries.delete(k);
      lastSweep = t;
    }
    let e = entries.get(key);
    if (!e) {
      e = { start: t, count: 0, strikes: 0, blockedUntil: 0, last: t };
      entries.set(key, e);
    }
    if (t - e.start >= windowMs) {
      e.start = t;
      e.count = 0;
    }
    return e;
  }

  return {
    hit(key) {
      const e = entry(key);
      const t = now();
      e.last = t;
      if (e.blockedUntil > t) return { ok: false, retryAfterSeconds: seconds(e.blockedUntil - t) };
      e.count++;
      if (e.count <= limit) return { ok: true, retryAfterSeconds: 0 };
      e.blockedUntil = t + Math.min(windowMs * 2 ** e.strikes, maxBlockMs);
      e.strikes++;
      e.start = t;
      e.count = 0;
      return { ok: false, retryAfterSeconds: seconds(e.blockedUntil - t) };
    },
    blocked(key) {
      const e = entries.get(key);
      const t = now();
      if (!e) return { blocked: false, retryAfterSeconds: 0 };
      if (e.blockedUntil > t) return { blocked: true, retryAfterSeconds: seconds(e.blockedUntil - t) };
      // The limit-th failure blocks the next attempt (not only the one after it).
      if (t - e.start < windowMs && e.count >= limit) return { blocked: true, retryAfterSeconds: seconds(e.start + windowMs - t) };
      return { blocked: false, retryAfterSeconds: 0 };
    },
    reset(key) {
      entries.delete(key);
    },
  };
}
