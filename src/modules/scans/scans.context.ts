import type * as cheerio from 'cheerio';
import type { Fetcher, FetchRequestOptions } from '../crawl/crawl.fetcher.js';
import { FetchError } from '../crawl/crawl.fetcher.js';
import type { CompanyRecord } from '../companies/company.record.js';
import type { Evidence } from './scans.types.js';

/**
 * What every check reads: the company's listing, its applicability profile, and `get`, the one
 * way a check touches the network. `get` goes through the crawl module's SSRF-safe fetcher,
 * only to the company's own site, memoised (two checks asking for /llms.txt cost one request),
 * paced (at most 2 requests a second by default) and counted against a fixed budget.
 */
export const MAX_REQUESTS = 30;
/** Body cap per response: enough for any agent file, small enough to scan many sites. */
export const MAX_SCAN_BYTES = 512 * 1024;

export const USER_AGENTS = {
  browser: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  /** What an AI crawler's request looks like to a CDN (the parity check compares it with a browser). */
  ai: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
} as const;

/** What a scan reads of a company (its listing): the stored record's fields, nothing of its own. */
export type ScanCompany = Pick<CompanyRecord, 'id' | 'name' | 'website_url' | 'domain' | 'category' | 'industry' | 'description' | 'service_type' | 'city'
  | 'country' | 'address' | 'keywords' | 'services' | 'languages' | 'contact_email' | 'phone' | 'social_links' | 'logo_url' | 'founded_year'>;

/** Which agent interfaces apply to this company (from its listing; found surfaces always count). */
export interface Applicability {
  has_api: boolean;
  has_mcp: boolean;
  has_agent: boolean;
  sells_online: boolean;
  local_business: boolean;
}

export function applicabilityOf(c: ScanCompany): Applicability {
  const text = [c.description, c.industry, ...c.keywords, ...c.services].join(' \n ');
  return {
    has_api: /\b(apis?|rest api|graphql|sdk|openapi|developer platform)\b/i.test(text),
    has_mcp: /\b(mcp|model context protocol)\b/i.test(text),
    has_agent: /\b(a2a|agent-to-agent|ai agents?)\b/i.test(text),
    sells_online: /\b(online (shop|store)|e-?commerce|webshop|shop online|buy online)\b/i.test(text),
    local_business: c.service_type === 'local' || c.service_type === 'hybrid',
  };
}

export interface Probe {
  url: string;
  final_url: string;
  /** null when no HTTP answer arrived (see error). */
  status: number | null;
  content_type: string;
  headers: Record<string, string>;
  body: string;
  bytes: number;
  elapsed_ms: number;
  redirects: string[];
  error?: { kind: string; message: string };
}

export type ProbeAs = 'scanner' | 'browser' | 'ai';

export interface ScanContext {
  company: ScanCompany;
  applies: Applicability;
  /** scheme://host[:port] of the company website. */
  origin: string;
  homeUrl: string;
  home: Probe;
  $: cheerio.CheerioAPI;
  get(pathOrUrl: string, o?: { as?: ProbeAs; accept?: string }): Promise<Probe>;
  /** Shared values computed once by one check and read by later ones (robots analysis, llms.txt parse). */
  memo: Map<string, unknown>;
  /** Whether a URL is on the company's own site (same host or a subdomain of its domain). */
  ownSite(url: string): boolean;
  requestCount(): number;
}

export class BudgetExceeded extends Error {
  constructor() {
    super(`the scan's budget of ${MAX_REQUESTS} requests is used up`);
  }
}

export function sameSite(domain: string): (url: URL) => boolean {
  const base = domain.toLowerCase().replace(/^www\d?\./, '');
  return (u) => {
    const h = u.hostname.toLowerCase().replace(/\.+$/, '');
    return h === base || h.endsWith(`.${base}`);
  };
}

export interface ProberDeps {
  fetcher: Fetcher;
  domain: string;
  delayMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** The memoised, paced, budgeted request function behind ScanContext.get. */
export function createProber(deps: ProberDeps) {
  const cache = new Map<string, Promise<Probe>>();
  const allow = sameSite(deps.domain);
  const now = deps.now ?? (() => performance.now());
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let count = 0;
  let last = -Infinity;
  let chain: Promise<unknown> = Promise.resolve();

  async function exchange(url: string, as: ProbeAs, accept: string | undefined): Promise<Probe> {
    if (count >= MAX_REQUESTS) throw new BudgetExceeded();
    count++;
    const wait = last + deps.delayMs - now();
    if (wait > 0) await sleep(wait);
    const started = now();
    last = started;
    const opts: FetchRequestOptions = { keepErrorStatus: true, allowUrl: allow };
    if (as !== 'scanner') opts.userAgent = USER_AGENTS[as];
    opts.accept = accept ?? 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8';
    try {
      const r = await deps.fetcher.fetch(url, 'any', opts);
      return {
        url,
        final_url: r.url,
        status: r.status,
        content_type: r.contentType,
        headers: r.headers,
        body: r.body,
        bytes: Buffer.byteLength(r.body),
        elapsed_ms: Math.round(now() - started),
        redirects: r.redirects,
      };
    } catch (err) {
      const e = err instanceof FetchError ? { kind: err.kind, message: err.message } : { kind: 'network', message: (err as Error).message };
      return { url, final_url: url, status: null, content_type: '', headers: {}, body: '', bytes: 0, elapsed_ms: Math.round(now() - started), redirects: [], error: e };
    }
  }

  return {
    get(url: string, as: ProbeAs = 'scanner', accept?: string): Promise<Probe> {
      const key = `${as} ${accept ?? ''} ${url}`;
      let p = cache.get(key);
      if (!p) {
        // One request at a time, in the order the checks ask (deterministic, polite).
        p = chain.then(() => exchange(url, as, accept));
        chain = p.catch(() => undefined);
        cache.set(key, p);
      }
      return p;
    },
    count: () => count,
    allow,
  };
}

/** A probe as evidence: status, type, size, time and a short excerpt (≤ 300 characters). */
export function evidenceOf(p: Probe, excerpt?: string): Evidence {
  const e: Evidence = { url: p.url, final_url: p.final_url, http_status: p.status, content_type: p.content_type, bytes: p.bytes, elapsed_ms: p.elapsed_ms };
  const ex = excerpt ?? p.body.slice(0, 300);
  if (ex) e.excerpt = ex.slice(0, 300);
  if (p.error) e.note = `${p.error.kind}: ${p.error.message}`.slice(0, 300);
  return e;
}

export const ok = (p: Probe) => p.status !== null && p.status >= 200 && p.status < 300;
export const looksHtml = (p: Probe) => /html/i.test(p.content_type) || /^\s*(<!doctype html|<html|<head|<body)/i.test(p.body);

/** Parses JSON, undefined when it does not parse. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** A JSON document at a path: present only when 2xx, not HTML, and it parses to an object. */
export async function getJson(ctx: ScanContext, path: string): Promise<{ probe: Probe; json: Record<string, unknown> | undefined; present: boolean }> {
  const probe = await ctx.get(path, { accept: 'application/json' });
  if (!ok(probe) || looksHtml(probe) || !probe.body.trim()) return { probe, json: undefined, present: false };
  const json = parseJson(probe.body);
  return { probe, json: json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined, present: true };
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
