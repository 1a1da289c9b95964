import { extractPage } from '../../../src/lib/extract.js';
import { countryCode } from '../../../src/lib/countries.js';
import type { EmbeddingProvider } from '../../../src/platform/embeddings/embeddings.js';
import { createAnalyser, type AnalysedProfile } from '../../../src/modules/crawl/crawl.analyse.js';
import { assembleMaterial } from '../../../src/modules/crawl/crawl.material.js';
import { createEngine, HostPacer } from '../../../src/modules/crawl/crawl.engine.js';
import { createFetcher } from '../../../src/modules/crawl/crawl.fetcher.js';
import { FIXTURE_SITES, fixtureResolver, startFixtureFarm } from '../../fixtures/crawl/farm.js';
import type { EvalSite } from './sites/index.js';

/**
 * Field accuracy of the crawl's deterministic extraction on the evaluation sites (issue 19):
 * each site's pages go through extractPage, assembleMaterial and the analyser without a
 * language model; name, phone, city and country are compared with what a person reads.
 */
export const EVAL_FIELDS = ['name', 'phone', 'city', 'country'] as const;
export type EvalField = (typeof EVAL_FIELDS)[number];

export interface EvalReport {
  sites: number;
  right: Record<EvalField, number>;
  accuracy: Record<EvalField, number>;
  misses: string[];
  /** Per field, each value the crawl filled in: its provenance confidence and whether it was right. */
  scored: Record<EvalField, { confidence: number; ok: boolean }[]>;
}

/** Of the filled-in values at or above a confidence, how many and how many right (precision). */
export function precisionAbove(r: EvalReport, field: EvalField, threshold: number): { kept: number; right: number } {
  const kept = r.scored[field].filter((s) => s.confidence >= threshold);
  return { kept: kept.length, right: kept.filter((s) => s.ok).length };
}

/** Category does not matter here: a constant embedding keeps the evaluation offline and fast. */
export const flatEmbeddings: EmbeddingProvider = {
  model: 'flat',
  dimensions: 1,
  embed: async (texts) => texts.map(() => [1]),
  embedQuery: async () => [1],
  ready: async () => {},
  isReady: () => true,
  close: async () => {},
};

const LEGAL = /\b(llc|l\.l\.c|inc|incorporated|ltd|limited|pty|llp|pllc|plc|co|corp|corporation|company|gmbh|p\.?a|s\.?c|inc\.)\.?$/i;

/** Names compare without case, punctuation, a leading "The" or a trailing legal form. */
export function sameName(a: string, b: string): boolean {
  const norm = (s: string) => {
    // letters of any script ("МузДом"), not only Latin ones
    let t = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/&/g, ' and ').replace(/[^\p{L}\p{N} ]+/gu, ' ').replace(/\s+/g, ' ').trim();
    for (let i = 0; i < 3; i++) t = t.replace(LEGAL, '').trim();
    return t.replace(/^the /, '');
  };
  return norm(a) !== '' && norm(a) === norm(b);
}

export function samePlace(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\bst\.?\s/g, 'saint ').replace(/[^\p{L}]+/gu, '');
  return norm(a) !== '' && norm(a) === norm(b);
}

export const digitsOf = (p: string | null): string => (p ?? '').replace(/\D/g, '');

export async function profileOf(site: EvalSite): Promise<AnalysedProfile> {
  const origin = new URL(site.url).origin;
  const pages = Object.entries(site.pages).map(([path, html]) => extractPage(html, `${origin}${path}`));
  const analyser = createAnalyser({ embeddings: flatEmbeddings });
  return analyser.analyse(assembleMaterial(pages, site.url));
}

export async function evaluate(sites: EvalSite[]): Promise<EvalReport> {
  const right: Record<EvalField, number> = { name: 0, phone: 0, city: 0, country: 0 };
  const misses: string[] = [];
  const scored: EvalReport['scored'] = { name: [], phone: [], city: [], country: [] };
  for (const site of sites) {
    const p = await profileOf(site);
    const e = site.expected;
    const ok: Record<EvalField, boolean> = {
      name: sameName(p.name, e.name) || (e.altNames ?? []).some((n) => sameName(p.name, n)),
      // E.164 digits; a site without a phone must give none
      phone: e.phone === null ? p.phone === null : digitsOf(p.phone) === digitsOf(e.phone) || digitsOf(p.phone) === digitsOf(e.phone).replace(/^1/, ''),
      // a site that states no town (or only a region) must give none
      city: e.city === '' ? p.city === '' : samePlace(p.city, e.city),
      country: countryCode(p.country) === e.country,
    };
    const got: Record<EvalField, string> = { name: p.name, phone: p.phone ?? 'null', city: p.city, country: p.country };
    const filled: Record<EvalField, boolean> = { name: p.name !== '', phone: p.phone !== null, city: p.city !== '', country: p.country !== '' };
    for (const f of EVAL_FIELDS) {
      if (filled[f]) scored[f].push({ confidence: p.provenance[f]?.confidence ?? 0, ok: ok[f] });
      if (ok[f]) right[f]++;
      else misses.push(`${new URL(site.url).hostname} ${f}: expected ${JSON.stringify(f === 'phone' ? e.phone : e[f])}, got ${JSON.stringify(got[f])}`);
    }
  }
  const accuracy = Object.fromEntries(EVAL_FIELDS.map((f) => [f, sites.length ? right[f] / sites.length : 0])) as Record<EvalField, number>;
  return { sites: sites.length, right, accuracy, misses, scored };
}

/** Opening hours read from the hours sites: the weekly schedule must equal what a person reads (exceptions not compared). */
export async function evaluateHours(sites: EvalSite[]): Promise<{ sites: number; right: number; misses: string[] }> {
  let right = 0;
  const misses: string[] = [];
  for (const site of sites) {
    if (!site.expected.hours) continue;
    const p = await profileOf(site);
    const { exceptions: _exceptions, ...weekly } = p.opening_hours ?? {};
    const norm = (h: Record<string, unknown>) => JSON.stringify(Object.keys(h).sort().map((k) => [k, h[k]]));
    if (norm(weekly) === norm(site.expected.hours)) right++;
    else misses.push(`${new URL(site.url).hostname} hours: expected ${JSON.stringify(site.expected.hours)}, got ${JSON.stringify(weekly)}`);
  }
  return { sites: sites.filter((s) => s.expected.hours).length, right, misses };
}

/** Price ranges read from the prices sites: from, to, currency and unit must equal what a person reads; none where the site states none. */
export async function evaluatePrices(sites: EvalSite[]): Promise<{ sites: number; right: number; misses: string[] }> {
  let right = 0;
  const misses: string[] = [];
  const priced = sites.filter((s) => s.expected.price !== undefined);
  for (const site of priced) {
    const got = (await profileOf(site)).price_range;
    if (JSON.stringify(got ?? null) === JSON.stringify(site.expected.price)) right++;
    else misses.push(`${new URL(site.url).hostname} price: expected ${JSON.stringify(site.expected.price)}, got ${JSON.stringify(got)}`);
  }
  return { sites: priced.length, right, misses };
}

/** Prices per service read from the service price sites: the list must equal what a person writes down, in order; none where the page names no service. */
export async function evaluateServicePrices(sites: EvalSite[]): Promise<{ sites: number; right: number; misses: string[] }> {
  let right = 0;
  const misses: string[] = [];
  const listed = sites.filter((s) => s.expected.services !== undefined);
  for (const site of listed) {
    const got = (await profileOf(site)).service_prices;
    if (JSON.stringify(got) === JSON.stringify(site.expected.services)) right++;
    else misses.push(`${new URL(site.url).hostname} services: expected ${JSON.stringify(site.expected.services)}, got ${JSON.stringify(got)}`);
  }
  return { sites: listed.length, right, misses };
}

const TIDY_FIELDS = ['city', 'country', 'phone', 'email'] as const;

/**
 * The tidy fixture sites without the network: every HTML page they serve as a plain string,
 * less what robots.txt disallows, straight into extraction. Deterministic on a loaded machine
 * (no fetch timeouts); `evaluateFixtures` is the same check through the real engine.
 */
export async function evaluateFixturesOffline(): Promise<{ right: number; total: number; misses: string[] }> {
  const analyser = createAnalyser({ embeddings: flatEmbeddings });
  let right = 0;
  let total = 0;
  const misses: string[] = [];
  for (const site of FIXTURE_SITES) {
    if (!site.expected) continue;
    const robots = typeof site.routes['/robots.txt'] === 'string' ? site.routes['/robots.txt'] : '';
    const disallowed = [...robots.matchAll(/^Disallow:\s*(\S+)/gim)].map((m) => m[1]!);
    const origin = `http://${site.host}`;
    const pages = Object.entries(site.routes)
      .filter((e): e is [string, string] => typeof e[1] === 'string' && !/\.(txt|xml)$/.test(e[0]) && !disallowed.some((d) => e[0].startsWith(d)))
      .map(([path, html]) => extractPage(html.replaceAll('PORT', ''), `${origin}${path}`));
    const p = await analyser.analyse(assembleMaterial(pages, `${origin}/`));
    const got = { city: p.city, country: p.country, phone: p.phone, email: p.contact_email };
    for (const f of TIDY_FIELDS) {
      total++;
      if (got[f] === site.expected[f]) right++;
      else misses.push(`${site.host} ${f}: expected ${JSON.stringify(site.expected[f])}, got ${JSON.stringify(got[f])}`);
    }
  }
  return { right, total, misses };
}

/**
 * The tidy fixture sites crawled through the real fetcher and engine: city, country, phone, email.
 * A generous timeout: on a loaded machine a timed-out page would read as an extraction miss.
 */
export async function evaluateFixtures(): Promise<{ right: number; total: number; misses: string[] }> {
  const farm = await startFixtureFarm();
  const fetcher = createFetcher({ userAgent: 'agentpages-eval', allowPrivate: true, allowedPorts: [farm.port], timeoutMs: 8000, resolver: fixtureResolver });
  const engine = createEngine({ fetcher, userAgent: 'agentpages-eval', pacer: new HostPacer(2) });
  const analyser = createAnalyser({ embeddings: flatEmbeddings });
  let right = 0;
  let total = 0;
  const misses: string[] = [];
  try {
    await Promise.all(
      FIXTURE_SITES.filter((s) => s.expected).map(async (site) => {
        const o = await engine.crawl(farm.url(site.host), { maxPages: 10, maxDepth: 2, delayMs: 0, adaptiveRetry: true });
        const p = o.fatal ? undefined : await analyser.analyse(assembleMaterial(o.pages, o.origin));
        const got = { city: p?.city, country: p?.country, phone: p?.phone, email: p?.contact_email };
        for (const f of TIDY_FIELDS) {
          total++;
          if (got[f] === site.expected![f]) right++;
          else misses.push(`${site.host} ${f}: expected ${JSON.stringify(site.expected![f])}, got ${JSON.stringify(got[f])}`);
        }
      }),
    );
  } finally {
    await fetcher.close();
    await farm.close();
  }
  return { right, total, misses };
}
