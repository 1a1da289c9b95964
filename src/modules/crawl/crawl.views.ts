import { countryName } from '../../lib/countries.js';
import { toPlainLine, toPlainText } from '../../lib/text.js';
import { isoTimeOrNull as iso } from '../../lib/time.js';
import { normalizeDomain } from '../../lib/url.js';
import type { ExtractedPage } from '../../lib/extract.js';
import { invalid } from '../../platform/errors.js';
import { MAX_LOCATIONS, type CompanyLocation } from '../companies/companies.schemas.js';
import { CONFIDENCE_FLOOR, type SiteLocation } from './crawl.types.js';
import type { CrawlJobRow } from './crawl.repo.js';
import { PROVENANCE_FIELDS, type CrawlJobView, type CrawlProvenance } from './crawl.schemas.js';

/** Pure helpers of the crawl module: the job's public view, the target's parsing, the pages kept. */

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function toJobView(row: CrawlJobRow): CrawlJobView {
  const r = row.result ?? {};
  return {
    id: row.id,
    url: row.url,
    domain: row.domain,
    status: row.status,
    stage: row.stage,
    pages_fetched: row.pages_fetched,
    company_id: row.company_id,
    attempts: row.attempts,
    error: row.error,
    problem: row.status === 'failed' ? crawlProblem(row.error_kind, row.domain) : null,
    strategies_tried: strings(r.strategies_tried),
    changed_fields: strings(r.changed_fields),
    kept_owner_edits: strings(r.kept_owner_edits),
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    duration_ms: row.duration_ms,
  };
}

/**
 * Why a crawl failed and what to do, in a sentence for the owner (the raw `error` is for operators: it may
 * carry a resolver's or socket's own words, such as "getaddrinfo ENOTFOUND").
 */
export function crawlProblem(kind: string | null, domain: string): string {
  switch (kind) {
    case 'network':
      return `We could not reach ${domain}. Check that the address is spelled right and that the site is online, then try again.`;
    case 'timeout':
      return `${domain} took too long to answer. It may be busy or down: try again in a few minutes.`;
    case 'http':
      return `${domain} answered with an error page instead of its content. Check that the address opens your home page in a browser, then try again.`;
    case 'redirects':
      return `${domain} sends visitors round in a loop of redirects. Check the site's redirect settings, then try again.`;
    case 'too_large':
    case 'content_type':
      return `${domain} did not send a web page we can read at that address. Enter the address of your home page.`;
    case 'unsafe':
    case 'port':
    case 'bad_url':
      return `${domain} cannot be read from the internet at that address (it points to a private network or an unusual port). Enter the public address of your website.`;
    case 'robots':
      return `${domain}'s robots.txt asks crawlers not to read the site, so we did not. Allow it there, or fill in your profile by hand.`;
    case 'empty':
      return `We reached ${domain} but found no readable text (the site may show its content only with JavaScript). Try again, or fill in your profile by hand.`;
    default:
      return `Something went wrong on our side while reading ${domain}. Try again; if it keeps failing, fill in your profile by hand.`;
  }
}

/** The site to crawl: http(s) URL or bare domain → start URL (origin + path) and identity domain. */
export function parseTarget(input: string): { url: string; domain: string } {
  const s = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw invalid(['body', 'url'], 'Input should be a valid website URL or domain', input, 'url_parsing');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid(['body', 'url'], 'Only http and https websites can be crawled', input, 'url_scheme');
  if (u.username || u.password) throw invalid(['body', 'url'], 'URLs with credentials are not crawled', input, 'url_parsing');
  const domain = normalizeDomain(u.href);
  if (!domain) throw invalid(['body', 'url'], 'Input should be a valid website URL or domain', input, 'url_parsing');
  u.hash = '';
  return { url: u.href, domain };
}

/** Stored text per page is capped: enough for answers, bounded storage per company. */
export const PAGE_TEXT_MAX_CHARS = 20_000;

/** The pages worth storing for a company: readable plain text, one row per URL, at most `max`. */
export function pagesToStore(pages: ExtractedPage[], max: number): { url: string; title: string; text: string }[] {
  const seen = new Set<string>();
  const out: { url: string; title: string; text: string }[] = [];
  for (const p of pages) {
    if (out.length >= max) break;
    const text = toPlainText(p.text).slice(0, PAGE_TEXT_MAX_CHARS).trim();
    if (!text || p.scriptShell || seen.has(p.url)) continue;
    seen.add(p.url);
    out.push({ url: p.url.slice(0, 2000), title: toPlainLine(p.title).slice(0, 300), text });
  }
  return out;
}

/** Lower-case letters and digits only: two spellings of one address compare equal. */
const squash = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
/** House number and the first word of the street ("501 main"), the part two spellings of one address share. */
const streetKey = (s: string) => /\b(\d+[a-z]?)\s+([a-z]+)/.exec(s.toLowerCase())?.slice(1).join(' ') ?? '';

/**
 * The company's other places (branches): every address the crawl found with a postal code and above
 * the city's confidence floor, except the main one (the profile's address, however it is spelled), at most 20.
 */
export function branchLocations(p: { address: string; city: string; locations: SiteLocation[]; mainLine?: string | undefined }, max = MAX_LOCATIONS): CompanyLocation[] {
  const mains = [p.address, p.mainLine ?? ''].filter(Boolean);
  const isMain = (l: SiteLocation) =>
    mains.some((m) => squash(m) === squash(l.line) || (!!streetKey(m) && streetKey(m) === streetKey(l.line) && l.city.toLowerCase() === p.city.toLowerCase()));
  return p.locations
    .filter((l) => l.confidence >= CONFIDENCE_FLOOR.city && !!l.postal_code && !isMain(l))
    .slice(0, max)
    .map((l) => ({ address: l.line, city: l.city, country: countryName(l.country) ?? l.country, ...(l.phone ? { phone: l.phone } : {}) }));
}

/** The provenance a job's result holds, read defensively (older jobs have none). */
export function toProvenance(row: Pick<CrawlJobRow, 'id' | 'result' | 'finished_at'> | undefined): CrawlProvenance {
  if (!row) return { job_id: null, crawled_at: null, analyser: null, fields: {} };
  const r = row.result ?? {};
  const stored = (r.provenance && typeof r.provenance === 'object' ? r.provenance : {}) as Record<string, unknown>;
  const fields: CrawlProvenance['fields'] = {};
  for (const f of PROVENANCE_FIELDS) {
    const s = stored[f] as Record<string, unknown> | undefined;
    if (!s || typeof s.value !== 'string' || !s.value) continue;
    const confidence = typeof s.confidence === 'number' ? Math.max(0, Math.min(1, Number(s.confidence.toFixed(2)))) : 0;
    fields[f] = { value: s.value, method: typeof s.method === 'string' ? s.method : '', url: typeof s.url === 'string' ? s.url : '', confidence };
  }
  return { job_id: row.id, crawled_at: iso(row.finished_at), analyser: r.analyser === 'llm' || r.analyser === 'rules' ? r.analyser : null, fields };
}
