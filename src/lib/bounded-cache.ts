/**
 * A least-recently-used cache bounded by the memory its entries take, not by their number: a search answer holds ten
 * profiles, a profile one, and a count-bounded cache of either grew the process by a size nobody chose (at 100k companies
 * the answer, profile and row caches and the query vectors kept about 100 MB after ten seconds each of novel, `near` and
 * place loads: scripts/dev/memory-probe.ts). The caller states each entry's size; `approximateBytes` estimates it for
 * plain data. A cache of same-sized entries counts each as 1 (the query vectors: platform/embeddings).
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private used = 0;

  constructor(readonly maxBytes: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Keeps the entry, dropping the least recently used ones until the cache fits; one larger than the whole cache is not kept. */
  set(key: K, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the entries take, as their sizes were stated. */
  get bytes(): number {
    return this.used;
  }
}

/**
 * About what plain data (objects, arrays, strings, numbers, dates) takes on the JavaScript heap: one and a half times its
 * JSON text. Company records parsed from JSON took 1.3 times their text (10,000 of the evaluation corpus's profiles:
 * 8.3 MB of JSON, 10.8 MB of heap); the rest is room for what JSON does not show (a Date is an object). An estimate
 * for sizing caches, not an accounting.
 */
export function approximateBytes(value: unknown): number {
  return Math.round(1.5 * (JSON.stringify(value)?.length ?? 0)) + 64;
}
