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
