import { looksHtml, ok, type Probe, type ScanContext } from './scans.context.js';
import { analyseRobots, type RobotsAnalysis } from './scans.robots.js';
import type { Evidence } from './scans.types.js';

/**
 * Facts several checks read, computed once per scan through ctx.memo: robots.txt, llms.txt,
 * the home page's JSON-LD and visible text.
 */
async function memo<T>(ctx: ScanContext, key: string, compute: () => Promise<T>): Promise<T> {
  if (!ctx.memo.has(key)) ctx.memo.set(key, compute());
  return ctx.memo.get(key) as Promise<T>;
}

export interface RobotsFacts {
  probe: Probe;
  /** A real robots.txt: 2xx, not an HTML page, at least one directive. */
  present: boolean;
  /** Why it is not present, for the finding. */
  problem?: string;
  analysis?: RobotsAnalysis;
  /** No answer (timeout, network): nothing can be said about the crawl policy. */
  unverified?: boolean;
  /** 5xx: RFC 9309 says crawlers must then assume everything is disallowed. */
  serverError?: boolean;
}

export function robotsOf(ctx: ScanContext): Promise<RobotsFacts> {
  return memo(ctx, 'robots', async () => {
    const probe = await ctx.get('/robots.txt');
    if (probe.error) return { probe, present: false, problem: `could not fetch it (${probe.error.message})`, unverified: true };
    if (probe.status! >= 500) return { probe, present: false, problem: `it answers HTTP ${probe.status}; RFC 9309 crawlers then assume the whole site is disallowed`, serverError: true };
    if (!ok(probe)) return { probe, present: false, problem: `it answers HTTP ${probe.status}` };
    if (looksHtml(probe)) return { probe, present: false, problem: 'it answers with an HTML page, not a robots.txt (a catch-all or firewall page)' };
    const analysis = analyseRobots(new URL('/robots.txt', ctx.origin).href, probe.body);
    if (analysis.directives === 0) return { probe, present: false, problem: 'it has no directive a robots parser recognises', analysis };
    return { probe, present: true, analysis };
  });
}

export interface LlmsFacts {
  probe: Probe;
  present: boolean;
  problem?: string;
  /** First non-blank line. */
  firstLine: string;
  h1: string;
  summary: string;
  sections: string[];
  links: { text: string; url: string }[];
}

export function parseLlms(text: string, base: string): Omit<LlmsFacts, 'probe' | 'present' | 'problem'> {
  const lines = text.split(/\r\n|\r|\n/);
  const firstLine = lines.find((l) => l.trim())?.trim() ?? '';
  const h1 = /^#\s+(.+)$/.exec(firstLine)?.[1]?.trim() ?? '';
  const summary = lines.find((l) => /^>\s?\S/.test(l.trim()))?.trim().replace(/^>\s?/, '') ?? '';
  const sections = lines.filter((l) => /^##\s+\S/.test(l.trim())).map((l) => l.trim().replace(/^##\s+/, ''));
  const links: { text: string; url: string }[] = [];
  for (const m of text.matchAll(/\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    try {
      links.push({ text: m[1]!, url: new URL(m[2]!, base).href });
    } catch {
      // not a URL: ignored, counted by nobody
    }
  }
  return { firstLine, h1, summary, sections, links };
}

export function llmsOf(ctx: ScanContext): Promise<LlmsFacts> {
  return memo(ctx, 'llms', async () => {
    let probe = await ctx.get('/llms.txt');
    if (!ok(probe)) {
      const alt = await ctx.get('/.well-known/llms.txt');
      if (ok(alt)) probe = alt;
    }
    const empty = { firstLine: '', h1: '', summary: '', sections: [], links: [] };
    if (probe.error) return { probe, present: false, problem: `could not fetch it (${probe.error.message})`, ...empty };
    if (!ok(probe)) return { probe, present: false, problem: `/llms.txt answers HTTP ${probe.status}`, ...empty };
    if (looksHtml(probe)) return { probe, present: false, problem: '/llms.txt answers 200 with an HTML page (a single-page-app catch-all or soft 404), not a text file', ...empty };
    if (!probe.body.trim()) return { probe, present: false, problem: '/llms.txt is empty', ...empty };
    return { probe, present: true, ...parseLlms(probe.body, probe.final_url) };
  });
}

export interface JsonLdFacts {
  blocks: { raw: string; parsed: unknown; error?: string }[];
  /** Every object with an @type, @graph flattened. */
  nodes: Record<string, unknown>[];
  /** ld+json mentioned inside ordinary scripts: JSON-LD added by JavaScript. */
  injectedByScript: boolean;
}

export function jsonLdOf(ctx: ScanContext): JsonLdFacts {
  const cached = ctx.memo.get('jsonld') as JsonLdFacts | undefined;
  if (cached) return cached;
  const $ = ctx.$;
  const blocks: JsonLdFacts['blocks'] = [];
  $('script[type="application/ld+json" i]').each((_, el) => {
    const raw = $(el).text();
    try {
      blocks.push({ raw, parsed: JSON.parse(raw) });
    } catch (err) {
      blocks.push({ raw, parsed: undefined, error: (err as Error).message });
    }
  });
  let injectedByScript = false;
  $('script:not([type="application/ld+json" i])').each((_, el) => {
    if (/ld\+json/i.test($(el).text())) injectedByScript = true;
  });
  const nodes: Record<string, unknown>[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 6 || !v || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach((x) => walk(x, depth + 1));
    const o = v as Record<string, unknown>;
    if (o['@type']) nodes.push(o);
    if (Array.isArray(o['@graph'])) walk(o['@graph'], depth + 1);
  };
  for (const b of blocks) walk(b.parsed, 0);
  const facts = { blocks, nodes, injectedByScript };
  ctx.memo.set('jsonld', facts);
  return facts;
}

export const typesOf = (n: Record<string, unknown>): string[] => (Array.isArray(n['@type']) ? n['@type'] : [n['@type']]).filter((t): t is string => typeof t === 'string');

/** Visible text of the raw home page (no scripts, styles, templates). */
export function visibleText(ctx: ScanContext): string {
  const cached = ctx.memo.get('text') as string | undefined;
  if (cached !== undefined) return cached;
  const $ = cheerioClone(ctx);
  $('script, style, noscript, template, svg').remove();
  const text = $('body').text().replace(/\s+/g, ' ').trim();
  ctx.memo.set('text', text);
  return text;
}

function cheerioClone(ctx: ScanContext) {
  // load a second tree so removing nodes never changes what other checks see
  return ctx.$.load(ctx.$.html());
}

export const noteEvidence = (url: string, note: string): Evidence => ({ url, note });
