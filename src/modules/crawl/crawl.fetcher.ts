import { Agent, request } from 'undici';
import { resolveSafe, safeLookup, systemResolver, UnsafeAddressError, type ResolvedAddress, type Resolver } from '../../lib/ssrf.js';

/**
 * The only way the crawler touches the network. Every hop is checked: scheme http/https, an
 * allowed port, and the address the socket connects to (resolved once by `safeLookup`, so a
 * rebinding DNS answer is never used). Redirects are followed by hand (each hop re-checked),
 * bodies are capped and only text content types are read.
 */
export type FetchErrorKind = 'bad_url' | 'unsafe' | 'port' | 'timeout' | 'too_large' | 'content_type' | 'http' | 'network' | 'redirects';

export class FetchError extends Error {
  constructor(
    readonly kind: FetchErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

/** `any` (the scans module): every content type is read, still size-capped. */
export type FetchPurpose = 'page' | 'robots' | 'sitemap' | 'any' | 'image';

/** Per-request choices (the scans module compares user agents and reports error statuses). */
export interface FetchRequestOptions {
  userAgent?: string;
  accept?: string;
  /** Answer 4xx/5xx with their status, headers and (capped) body instead of throwing. */
  keepErrorStatus?: boolean;
  /** Every hop's URL must pass this (e.g. the company's own domain); refused hops throw `bad_url`. */
  allowUrl?: (url: URL) => boolean;
}

export interface FetchResult {
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** The URLs redirected through, in order (empty when none). */
  redirects: string[];
  /** Response headers of the final hop (lower-case names; repeated headers joined with ", "). */
  headers: Record<string, string>;
  /** The body as received, for `image` fetches (their text body is empty). */
  bytes?: Buffer;
}

export interface FetcherOptions {
  userAgent: string;
  allowPrivate: boolean;
  allowedPorts: number[];
  timeoutMs: number;
  maxBytes?: number;
  maxRedirects?: number;
  resolver?: Resolver;
  /**
   * Tests only: where an address that passed the checks is actually dialled, so a fixture on
   * 127.0.0.1 can stand in for a public server while the refusal rules stay fully on.
   */
  remapAddress?: (a: ResolvedAddress) => ResolvedAddress;
}

const CONTENT_TYPES: Record<FetchPurpose, RegExp> = {
  page: /^(text\/html|application\/xhtml\+xml|text\/plain)\b/i,
  robots: /^text\/plain\b/i,
  sitemap: /^(application\/xml|text\/xml|application\/rss\+xml|text\/plain)\b/i,
  any: /^/,
  image: /^image\/(jpeg|png|webp)\b/i,
};

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface Fetcher {
  fetch(url: string, purpose: FetchPurpose, options?: FetchRequestOptions): Promise<FetchResult>;
  /** Checks a URL's scheme, port and address without fetching it. */
  check(url: string): Promise<URL>;
  close(): Promise<void>;
}

export function createFetcher(options: FetcherOptions): Fetcher {
  const resolver = options.resolver ?? systemResolver;
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const maxRedirects = options.maxRedirects ?? 5;
  const agent = new Agent({
    connect: { lookup: safeLookup(resolver, options.allowPrivate, options.remapAddress), timeout: options.timeoutMs } as Record<string, unknown>,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connections: 4,
    keepAliveTimeout: 4000,
  });

  async function check(raw: string): Promise<URL> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new FetchError('bad_url', `not a valid URL: ${raw.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError('bad_url', `only http and https URLs can be crawled, not ${url.protocol}`);
    if (url.username || url.password) throw new FetchError('bad_url', 'URLs with credentials are not crawled');
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (!options.allowedPorts.includes(port)) throw new FetchError('port', `port ${port} is not allowed (allowed: ${options.allowedPorts.join(', ')})`);
    // IP literals never reach the socket lookup, so they are judged here; names are judged
    // again at connect time by safeLookup (the address actually used).
    try {
      await resolveSafe(url.hostname, resolver, options.allowPrivate);
    } catch (err) {
      if (err instanceof UnsafeAddressError) throw new FetchError('unsafe', err.message);
      throw new FetchError('network', (err as Error).message);
    }
    return url;
  }

  type Hop = { status: number; location?: string; contentType: string; body: string; bytes?: Buffer; headers: Record<string, string> };
  async function once(url: URL, purpose: FetchPurpose, o: FetchRequestOptions): Promise<Hop> {
    const signal = AbortSignal.timeout(options.timeoutMs);
    let res;
    try {
      res = await request(url, {
        dispatcher: agent,
        method: 'GET',
        signal,
        headers: {
          'user-agent': o.userAgent ?? options.userAgent,
          accept: o.accept ?? (purpose === 'page' ? 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.5' : purpose === 'sitemap' ? 'application/xml,text/xml;q=0.9,text/plain;q=0.5' : purpose === 'any' ? '*/*' : purpose === 'image' ? 'image/jpeg,image/png,image/webp' : 'text/plain'),
          'accept-language': 'en;q=1, *;q=0.5',
        },
      });
    } catch (err) {
      throw toFetchError(err);
    }
    const status = res.statusCode;
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    if (status >= 300 && status < 400) {
      await res.body.dump().catch(() => {});
      return { status, location: header('location') ?? '', contentType: '', body: '', headers };
    }
    const contentType = (header('content-type') ?? '').trim();
    if (status >= 400 && !o.keepErrorStatus) {
      await res.body.dump().catch(() => {});
      return { status, contentType, body: '', headers };
    }
    // robots.txt served without a content type is common: read it as text.
    if (status < 400 && !(contentType === '' && purpose !== 'page') && !CONTENT_TYPES[purpose].test(contentType)) {
      await res.body.dump().catch(() => {});
      throw new FetchError('content_type', `content type ${contentType || '(none)'} is not crawled`);
    }
    const declared = Number(header('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.body.destroy();
      throw new FetchError('too_large', `response of ${declared} bytes is over the ${maxBytes}-byte cap`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          throw new FetchError('too_large', `response is over the ${maxBytes}-byte cap`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      throw toFetchError(err);
    }
    const raw = Buffer.concat(chunks);
    return purpose === 'image' ? { status, contentType, body: '', bytes: raw, headers } : { status, contentType, body: decode(raw, contentType), headers };
  }

  return {
    check,
    async fetch(raw, purpose, o = {}) {
      const redirects: string[] = [];
      let current = raw;
      for (let hop = 0; ; hop++) {
        const url = await check(current);
        if (o.allowUrl && !o.allowUrl(url)) throw new FetchError('bad_url', `${url.href} is outside the allowed site`);
        const r = await once(url, purpose, o);
        if (r.location !== undefined) {
          if (hop >= maxRedirects) throw new FetchError('redirects', `more than ${maxRedirects} redirects`);
          if (!r.location) throw new FetchError('http', `redirect ${r.status} without a location`, r.status);
          redirects.push(url.href);
          current = new URL(r.location, url).href;
          continue;
        }
        if (r.status >= 400 && !o.keepErrorStatus) throw new FetchError('http', `HTTP ${r.status} for ${url.href}`, r.status);
        return { url: url.href, status: r.status, contentType: r.contentType, body: r.body, redirects, headers: r.headers, ...(r.bytes ? { bytes: r.bytes } : {}) };
      }
    },
    close: () => agent.close(),
  };
}

function toFetchError(err: unknown): FetchError {
  if (err instanceof FetchError) return err;
  const e = err as { name?: string; code?: string; message?: string; cause?: unknown };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || /timeout/i.test(e.code ?? '')) return new FetchError('timeout', 'the site did not answer in time');
  // safeLookup's refusal surfaces as a connect error carrying our error as cause or itself.
  const unsafe = findUnsafe(err);
  if (unsafe) return new FetchError('unsafe', unsafe.message);
  return new FetchError('network', `could not connect: ${e.code ?? e.message ?? 'network error'}`);
}

function findUnsafe(err: unknown, depth = 0): UnsafeAddressError | undefined {
  if (!err || depth > 4) return undefined;
  if (err instanceof UnsafeAddressError) return err;
  return findUnsafe((err as { cause?: unknown }).cause, depth + 1);
}

function decode(buf: Buffer, contentType: string): string {
  let charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (!charset) {
    // <meta charset> in the first bytes of an HTML document
    charset = /<meta[^>]+charset=["']?([\w-]+)/i.exec(buf.subarray(0, 2048).toString('latin1'))?.[1]?.toLowerCase();
  }
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(buf);
  } catch {
    return new TextDecoder('utf-8').decode(buf);
  }
}
