import { toPlainLine, toPlainText } from '../../lib/text.js';
import { isoTimeOrNull as iso } from '../../lib/time.js';
import { normalizeDomain } from '../../lib/url.js';
import type { ExtractedPage } from '../../lib/extract.js';
import { invalid } from '../../platform/errors.js';
import type { CrawlJobRow } from './crawl.repo.js';
import type { CrawlJobView } from './crawl.schemas.js';

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
    strategies_tried: strings(r.strategies_tried),
    changed_fields: strings(r.changed_fields),
    kept_owner_edits: strings(r.kept_owner_edits),
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    duration_ms: row.duration_ms,
  };
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
