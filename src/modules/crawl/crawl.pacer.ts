/** Per-host politeness shared by every crawl in the process (crawl.engine.ts). */
/** At most `maxConcurrent` requests in flight and `delayMs` between request starts, per host. */
export class HostPacer {
  private readonly hosts = new Map<string, { active: number; nextAt: number; gate: Promise<void>; waiters: (() => void)[] }>();
  constructor(private readonly maxConcurrent = 2) {}

  async run<T>(host: string, delayMs: number, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(host, delayMs);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private async acquire(host: string, delayMs: number): Promise<() => void> {
    if (this.hosts.size > 1000) this.prune();
    let h = this.hosts.get(host);
    if (!h) {
      h = { active: 0, nextAt: 0, gate: Promise.resolve(), waiters: [] };
      this.hosts.set(host, h);
    }
    const state = h;
    // Admissions to one host are serialised so the delay holds between every two starts.
    const prev = state.gate;
    let open!: () => void;
    state.gate = new Promise((r) => (open = r));
    await prev;
    try {
      while (state.active >= this.maxConcurrent) await new Promise<void>((r) => state.waiters.push(r));
      const wait = state.nextAt - Date.now();
      if (wait > 0) await sleep(wait);
      state.nextAt = Date.now() + delayMs;
      state.active++;
    } finally {
      open();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The delay also runs from the end of a request: a slow answer does not shorten the pause.
      state.nextAt = Math.max(state.nextAt, Date.now() + delayMs);
      state.active--;
      state.waiters.shift()?.();
    };
  }

  private prune(): void {
    const now = Date.now();
    for (const [k, h] of this.hosts) if (h.active === 0 && h.waiters.length === 0 && h.nextAt < now) this.hosts.delete(k);
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
