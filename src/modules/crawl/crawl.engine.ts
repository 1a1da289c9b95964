import robotsParserModule from 'robots-parser';
import { extractPage, type ExtractedPage } from '../../lib/extract.js';
import { escapeHtml } from '../../lib/html.js';
import { normalizeDomain } from '../../lib/url.js';
import { FetchError, type Fetcher } from './crawl.fetcher.js';
import { HostPacer } from './crawl.pacer.js';

export { HostPacer } from './crawl.pacer.js';

/**
 * Crawls one website politely: robots.txt (RFC 9309, our user agent, Crawl-delay), sitemap.xml
 * and on-page links to choose the pages that matter, a page and depth cap, and per-host pacing
 * shared by every crawl in the process. With adaptive retry, a crawl that got too little tries
 * other strategies and says which.
 */
interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}
// robots-parser is CommonJS (module.exports = fn) while its types declare a default export.
const robotsParser = ((robotsParserModule as unknown as { default?: unknown }).default ?? robotsParserModule) as (url: string, txt: string) => Robots;

export interface CrawlEvent {
  at: string;
  stage: string;
  message: string;
  data?: Record<string, unknown>;
}

export interface CrawlOptions {
  maxPages: number;
  maxDepth: number;
  /** Minimum delay between two requests to one host (robots Crawl-delay may raise it). */
  delayMs: number;
  adaptiveRetry: boolean;
  /** Epoch ms after which no new page is fetched (the crawl's time budget). */
  deadline?: number;
  onEvent?: (e: CrawlEvent) => void;
  onPage?: (pagesFetched: number) => void;
}

export interface PageFailure {
  url: string;
  kind: string;
  message: string;
}

export interface CrawlOutcome {
  startUrl: string;
  /** Origin the site actually lives on (after the home page's redirects). */
  origin: string;
  pages: ExtractedPage[];
  failures: PageFailure[];
  skippedByRobots: string[];
  strategiesTried: string[];
  crawlDelayMs: number;
  /** Set when nothing usable was fetched: the reason to report. */
  fatal: PageFailure | undefined;
}

/** Paths that tell who a company is, what it does and where: crawled first. */
const IMPORTANT = /about|ueber|uber|über|a-propos|quienes|chi-siamo|company|unternehmen|team|service|leistung|angebot|servicios|prestations|what-we-do|contact|kontakt|contacto|impressum|imprint|legal-notice|pricing|prices|preise|tarif|location|standort|find-us|offices|branches|solutions|products|produkte/i;
const SKIP = /\.(jpe?g|png|gif|svg|webp|ico|pdf|zip|gz|mp4|mp3|webm|css|js|json|xml|woff2?|ttf|eot|exe|dmg|docx?|xlsx?|pptx?)(\?|$)|\/(wp-admin|wp-login|cart|checkout|login|signin|signup|account|search|tag|category|feed|cdn-cgi)\b|[?&](replytocom|share|print|sort|filter|page)=/i;

function pageScore(url: string, text = ''): number {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return -1;
  }
  let s = 0;
  if (IMPORTANT.test(path) || IMPORTANT.test(text)) s += 10;
  if (/contact|kontakt|impressum|imprint/i.test(path)) s += 2;
  s -= path.split('/').filter(Boolean).length;
  return s;
}

function sameSite(a: string, b: string): boolean {
  return normalizeDomain(a) === normalizeDomain(b);
}

function canonicalPage(url: string): string {
  const u = new URL(url);
  u.hash = '';
  if (u.pathname !== '/' && u.pathname.endsWith('/')) u.pathname = u.pathname.replace(/\/+$/, '');
  return u.href;
}

export function parseSitemap(xml: string): { pages: string[]; sitemaps: string[] } {
  const locs = (block: string) => [...block.matchAll(/<loc>\s*(?:<!\[CDATA\[)?\s*([^<\]\s]+)\s*(?:\]\]>)?\s*<\/loc>/gi)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  if (/<sitemapindex/i.test(xml)) return { pages: [], sitemaps: locs(xml) };
  if (/<urlset/i.test(xml)) return { pages: locs(xml), sitemaps: [] };
  // plain-text sitemap: one URL per line
  return { pages: xml.split(/\s+/).filter((l) => /^https?:\/\//i.test(l)), sitemaps: [] };
}

export interface Engine {
  crawl(startUrl: string, options: CrawlOptions): Promise<CrawlOutcome>;
}

type EngineDeps = { fetcher: Fetcher; pacer: HostPacer; agentToken: string };
type RobotsState = { parsed: Robots | undefined; disallowAll: boolean };

/** One crawl of one site: what it has fetched and learnt so far. Its steps below read and update it. */
interface SiteRun {
  deps: EngineDeps;
  startUrl: string;
  options: CrawlOptions;
  emit: (stage: string, message: string, data?: Record<string, unknown>) => void;
  pages: ExtractedPage[];
  failures: PageFailure[];
  skippedByRobots: string[];
  strategiesTried: string[];
  fetched: Set<string>;
  /** The pause between two requests: the caller's, raised by a robots Crawl-delay. */
  delayMs: number;
  /** The origin the site lives on (moves when the home page redirects within the domain). */
  origin: string;
  robots: RobotsState;
}

const pastDeadline = (run: SiteRun) => run.options.deadline !== undefined && Date.now() > run.options.deadline;

async function loadRobots(run: SiteRun, o: string): Promise<RobotsState> {
  const { deps, emit } = run;
  const robotsUrl = `${o}/robots.txt`;
  try {
    const r = await deps.pacer.run(new URL(o).host, run.delayMs, () => deps.fetcher.fetch(robotsUrl, 'robots'));
    const parsed = robotsParser(robotsUrl, r.body);
    const crawlDelay = parsed.getCrawlDelay(deps.agentToken) ?? parsed.getCrawlDelay('*');
    if (crawlDelay && crawlDelay > 0) run.delayMs = Math.max(run.delayMs, Math.min(crawlDelay * 1000, 30_000));
    emit('robots', 'robots.txt read', { crawl_delay_ms: run.delayMs, sitemaps: parsed.getSitemaps().length });
    return { parsed, disallowAll: false };
  } catch (err) {
    const fe = err instanceof FetchError ? err : new FetchError('network', (err as Error).message);
    // RFC 9309: unavailable (4xx) = no restrictions; unreachable (5xx) = complete disallow.
    if (fe.kind === 'http' && fe.status !== undefined && fe.status >= 500) {
      emit('robots', 'robots.txt unreachable (server error): site treated as disallowed', { status: fe.status });
      return { parsed: undefined, disallowAll: true };
    }
    if (fe.kind === 'unsafe' || fe.kind === 'port' || fe.kind === 'bad_url') throw fe;
    emit('robots', 'no robots.txt: no restrictions', { reason: fe.message });
    return { parsed: undefined, disallowAll: false };
  }
}

function allowed(run: SiteRun, url: string): boolean {
  if (run.robots.disallowAll) return false;
  return run.robots.parsed?.isAllowed(url, run.deps.agentToken) ?? true;
}

async function fetchPage(run: SiteRun, url: string, pace = run.delayMs): Promise<ExtractedPage | undefined> {
  const { deps, emit, pages, failures, skippedByRobots, fetched, options } = run;
  const key = canonicalPage(url);
  if (fetched.has(key)) return undefined;
  fetched.add(key);
  if (!allowed(run, url)) {
    skippedByRobots.push(url);
    emit('fetch', 'skipped (robots.txt disallows)', { url });
    return undefined;
  }
  try {
    const r = await deps.pacer.run(new URL(url).host, pace, () => deps.fetcher.fetch(url, 'page'));
    fetched.add(canonicalPage(r.url));
    if (!sameSite(r.url, run.origin)) {
      failures.push({ url, kind: 'offsite', message: `redirected off the site to ${new URL(r.url).host}` });
      return undefined;
    }
    if (!allowed(run, r.url)) {
      skippedByRobots.push(r.url);
      return undefined;
    }
    const page = /html/i.test(r.contentType) || /^\s*</.test(r.body) ? extractPage(r.body, r.url) : extractPage(`<html><body><pre>${escapeHtml(r.body)}</pre></body></html>`, r.url);
    pages.push(page);
    options.onPage?.(pages.length);
    emit('fetch', 'page fetched', { url: r.url, chars: page.text.length, ...(r.redirects.length ? { redirects: r.redirects.length } : {}) });
    return page;
  } catch (err) {
    const fe = err instanceof FetchError ? err : new FetchError('network', (err as Error).message);
    failures.push({ url, kind: fe.kind, message: fe.message });
    emit('fetch', `page failed: ${fe.message}`, { url, kind: fe.kind });
    // A refused start address refuses the crawl; a refused inner page (a redirect to an
    // internal address) is only that page's failure.
    if ((fe.kind === 'unsafe' || fe.kind === 'port' || fe.kind === 'bad_url') && key === canonicalPage(run.startUrl)) throw fe;
    return undefined;
  }
}

async function sitemapUrls(run: SiteRun): Promise<string[]> {
  const { deps, robots, origin } = run;
  const candidates = [...new Set([...(robots.parsed?.getSitemaps() ?? []), `${origin}/sitemap.xml`])].slice(0, 3);
  const out: string[] = [];
  const queue = [...candidates];
  let reads = 0;
  const listed = new Set(robots.parsed?.getSitemaps() ?? []);
  while (queue.length && reads < 4) {
    const sm = queue.shift()!;
    // A sitemap robots.txt names may be read; a guessed one only where crawling is allowed.
    if (!sameSite(sm, origin) || (!listed.has(sm) && !allowed(run, sm))) continue;
    reads++;
    try {
      const r = await deps.pacer.run(new URL(sm).host, run.delayMs, () => deps.fetcher.fetch(sm, 'sitemap'));
      const parsed = parseSitemap(r.body);
      out.push(...parsed.pages.filter((p) => sameSite(p, origin)).slice(0, 1000));
      queue.push(...parsed.sitemaps.slice(0, 3));
    } catch (err) {
      if (err instanceof FetchError && (err.kind === 'unsafe' || err.kind === 'port')) throw err;
    }
  }
  if (out.length) run.emit('sitemap', `sitemap lists ${out.length} pages`);
  return out;
}

/** Home page, then sitemap and link candidates by importance, breadth-first to maxDepth. */
async function standardPass(run: SiteRun, seedPaths: string[] = [], useHome = true, useSitemap = true, pace = run.delayMs): Promise<void> {
  const { options, pages, fetched } = run;
  const frontier: { url: string; depth: number; score: number }[] = [];
  const queued = new Set<string>();
  const enqueue = (url: string, depth: number, text = '') => {
    if (depth > options.maxDepth || SKIP.test(url) || !sameSite(url, run.origin)) return;
    const key = canonicalPage(url);
    if (queued.has(key) || fetched.has(key)) return;
    queued.add(key);
    const u = new URL(url);
    u.hash = '';
    // The key only deduplicates: the URL fetched is the one the site links to.
    frontier.push({ url: u.href, depth, score: pageScore(key, text) });
  };
  if (useHome) {
    const home = await fetchPage(run, run.startUrl, pace);
    if (home && new URL(home.url).origin !== run.origin) {
      // The site lives elsewhere on the same domain (http → https, apex → www).
      run.origin = new URL(home.url).origin;
      run.robots = await loadRobots(run, run.origin);
    }
    for (const l of home?.links ?? []) enqueue(l.url, 1, l.text);
  }
  for (const p of seedPaths) enqueue(new URL(p, run.origin).href, 1);
  // Normally only the sitemap's important pages; without a usable home page, any it lists.
  if (useSitemap) for (const u of (await sitemapUrls(run)).filter((u) => !useHome || IMPORTANT.test(new URL(u).pathname)).slice(0, 50)) enqueue(u, 1);

  // Under a robots Crawl-delay the site asked for one request at a time.
  const workers = Array.from({ length: run.delayMs > options.delayMs ? 1 : 2 }, async () => {
    while (pages.length < options.maxPages && frontier.length && !pastDeadline(run)) {
      frontier.sort((a, b) => b.score - a.score || a.depth - b.depth);
      const next = frontier.shift()!;
      const page = await fetchPage(run, next.url, pace);
      if (page && next.depth < options.maxDepth) for (const l of page.links) enqueue(l.url, next.depth + 1, l.text);
    }
  });
  await Promise.all(workers);
}

/** Too little = nothing fetched, only JavaScript shells, or almost no text and no structured data. */
function tooLittle(pages: ExtractedPage[]): boolean {
  return pages.length === 0 || pages.every((p) => p.scriptShell) || (pages.reduce((n, p) => n + p.text.length, 0) < 150 && !pages.some((p) => p.orgs.length > 0));
}

/** After a pass that got too little: the sitemap alone, well-known entry pages, then slower pacing. */
async function adaptiveRetry(run: SiteRun): Promise<void> {
  const { pages, failures, strategiesTried, emit } = run;
  const homeFailure = failures.find((f) => canonicalPage(f.url) === canonicalPage(run.startUrl));
  emit('retry', 'too little content: trying other strategies', { pages: pages.length, reason: homeFailure?.message ?? 'empty or script-only pages' });
  // 1. the pages the sitemap lists, without the home page
  strategiesTried.push('sitemap_only');
  await standardPass(run, [], false, true);
  // 2. well-known entry pages
  if (tooLittle(pages)) {
    strategiesTried.push('entry_pages');
    await standardPass(run, ['/about', '/about-us', '/contact', '/services', '/en/', '/index.html', '/home', '/impressum'], false, false);
  }
  // 3. slower pacing, for sites that refuse or time out under load
  if (tooLittle(pages) && failures.some((f) => f.kind === 'timeout' || (f.kind === 'http' && /HTTP (429|503)/.test(f.message)))) {
    strategiesTried.push('slow_pacing');
    for (const f of failures.slice(0, 3)) run.fetched.delete(canonicalPage(f.url));
    await standardPass(run, [], true, false, Math.max(run.delayMs * 3, 2000));
  }
  emit('retry', `strategies tried: ${strategiesTried.join(', ')}`, { pages: pages.length });
}

async function crawlSite(deps: EngineDeps, startUrl: string, options: CrawlOptions): Promise<CrawlOutcome> {
  const run: SiteRun = {
    deps,
    startUrl,
    options,
    emit: (stage, message, data) => options.onEvent?.({ at: new Date().toISOString(), stage, message, ...(data ? { data } : {}) }),
    pages: [],
    failures: [],
    skippedByRobots: [],
    strategiesTried: ['standard'],
    fetched: new Set<string>(),
    delayMs: options.delayMs,
    origin: new URL(startUrl).origin,
    robots: { parsed: undefined, disallowAll: false },
  };
  run.robots = await loadRobots(run, run.origin);
  run.emit('fetch', `crawling ${run.origin}`, { max_pages: options.maxPages, max_depth: options.maxDepth });
  await standardPass(run);

  const { pages, failures, skippedByRobots } = run;
  const refusedByRobots = run.robots.disallowAll || skippedByRobots.some((u) => canonicalPage(u) === canonicalPage(startUrl));
  if (options.adaptiveRetry && tooLittle(pages) && !pastDeadline(run) && !refusedByRobots) await adaptiveRetry(run);

  let fatal: PageFailure | undefined;
  if (pages.length === 0) {
    fatal = refusedByRobots
      ? { url: startUrl, kind: 'robots', message: 'robots.txt does not allow crawling this site' }
      : failures[0] ?? { url: startUrl, kind: 'empty', message: 'no page could be fetched' };
  }
  return { startUrl, origin: run.origin, pages: pages.slice(0, options.maxPages), failures, skippedByRobots, strategiesTried: run.strategiesTried, crawlDelayMs: run.delayMs, fatal };
}

export function createEngine(deps: { fetcher: Fetcher; userAgent: string; pacer?: HostPacer }): Engine {
  // robots.txt matching uses the product token (the part before "/").
  const engineDeps: EngineDeps = { fetcher: deps.fetcher, pacer: deps.pacer ?? new HostPacer(2), agentToken: deps.userAgent.split(/[/\s]/)[0] ?? deps.userAgent };
  return { crawl: (startUrl, options) => crawlSite(engineDeps, startUrl, options) };
}
