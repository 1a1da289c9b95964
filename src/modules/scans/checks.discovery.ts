import { evidenceOf, looksHtml, ok, type Probe, type ScanContext } from './scans.context.js';
import { llmsOf, robotsOf } from './checks.shared.js';
import type { CheckDef } from './scans.types.js';

/** Discovery: can an agent find what the site offers (D01–D09). */
const LLMS = 'https://llmstxt.org/';
/** llms.txt links checked per scan (the rest of the 30-request budget belongs to other checks). */
export const MAX_LINKS_CHECKED = 8;

async function sitemapOf(ctx: ScanContext): Promise<{ probe: Probe; present: boolean; urls: number; withLastmod: number; problem?: string }> {
  if (!ctx.memo.has('sitemap')) {
    ctx.memo.set('sitemap', (async () => {
      const robots = await robotsOf(ctx);
      const declared = (robots.analysis?.sitemaps ?? []).find((s) => {
        try {
          return ctx.ownSite(new URL(s, ctx.origin).href);
        } catch {
          return false;
        }
      });
      const probe = await ctx.get(declared ? new URL(declared, ctx.origin).href : '/sitemap.xml');
      if (!ok(probe)) return { probe, present: false, urls: 0, withLastmod: 0, problem: probe.error ? probe.error.message : `HTTP ${probe.status}` };
      if (looksHtml(probe) || !/<(urlset|sitemapindex)[\s>]/i.test(probe.body)) return { probe, present: false, urls: 0, withLastmod: 0, problem: 'it is not a sitemap (no <urlset> or <sitemapindex>)' };
      const entries = probe.body.match(/<(url|sitemap)[\s>][\s\S]*?<\/\1>/gi) ?? [];
      return { probe, present: true, urls: entries.length, withLastmod: entries.filter((e) => /<lastmod>\s*\S/i.test(e)).length };
    })());
  }
  return ctx.memo.get('sitemap') as ReturnType<typeof sitemapOf>;
}

const llmsFix = { summary: 'Publish /llms.txt: a Markdown file with an H1 name, a one-line summary and sections of links.', bundle_file: 'llms.txt' };

export const discoveryChecks: CheckDef<ScanContext>[] = [
  {
    id: 'D01', key: 'sitemap.present', group: 'discovery', title: 'Sitemap is present and parses', severity: 'medium', spec_url: 'https://www.sitemaps.org/protocol.html',
    run: async (ctx) => {
      const s = await sitemapOf(ctx);
      if (s.present) return { status: 'pass', message: `The sitemap lists ${s.urls} URL(s).`, evidence: [evidenceOf(s.probe)] };
      return { status: s.probe.error ? 'error' : 'fail', message: `No usable sitemap: ${s.problem}.`, evidence: [evidenceOf(s.probe)], fix: { summary: 'Publish /sitemap.xml and name it in robots.txt (Sitemap: line).', bundle_file: 'robots-ai.txt' } };
    },
  },
  {
    id: 'D02', key: 'sitemap.fresh', group: 'discovery', title: 'Sitemap entries carry <lastmod>', severity: 'low',
    run: async (ctx) => {
      const s = await sitemapOf(ctx);
      if (!s.present || s.urls === 0) return { status: 'na', message: 'No sitemap entries to check.' };
      const share = s.withLastmod / s.urls;
      return share >= 0.8
        ? { status: 'pass', message: `${s.withLastmod} of ${s.urls} sitemap entries have <lastmod>.` }
        : { status: 'warn', message: `Only ${s.withLastmod} of ${s.urls} sitemap entries have <lastmod>; agents cannot tell what changed.`, evidence: [evidenceOf(s.probe)], fix: { summary: 'Have your CMS write <lastmod> for every URL.' } };
    },
  },
  {
    id: 'D03', key: 'llms.present', group: 'discovery', title: '/llms.txt is present', severity: 'high', spec_url: LLMS,
    run: async (ctx) => {
      const l = await llmsOf(ctx);
      if (l.present && l.probe.content_type && !/^text\/(plain|markdown)\b/i.test(l.probe.content_type)) {
        return { status: 'warn', message: `${new URL(l.probe.final_url).pathname} is served as ${l.probe.content_type}; agents and browsers expect text/plain or text/markdown.`, evidence: [evidenceOf(l.probe)], fix: { summary: 'Serve llms.txt as text/plain; charset=utf-8.', bundle_file: 'headers.md' } };
      }
      if (l.present) return { status: 'pass', message: `${new URL(l.probe.final_url).pathname} answers with ${l.probe.bytes} bytes of ${l.probe.content_type || 'text'}.`, evidence: [evidenceOf(l.probe)] };
      return { status: l.probe.error && l.probe.error.kind !== 'http' ? 'error' : 'fail', message: `No llms.txt: ${l.problem}.`, evidence: [evidenceOf(l.probe)], fix: llmsFix };
    },
  },
  {
    id: 'D04', key: 'llms.structure', group: 'discovery', title: 'llms.txt follows the llmstxt.org structure', severity: 'medium', spec_url: LLMS,
    run: async (ctx) => {
      const l = await llmsOf(ctx);
      if (!l.present) return { status: 'na', message: 'No llms.txt to check.' };
      const facts = { first_line: l.firstLine.slice(0, 200), sections: l.sections.length, links: l.links.length };
      const evidence = [evidenceOf(l.probe)];
      if (!l.h1) return { status: 'fail', facts, evidence, message: `The first line must be an H1 ("# Name"); it is "${l.firstLine.slice(0, 80)}".`, fix: llmsFix };
      if (!l.links.length) return { status: 'fail', facts, evidence, message: 'llms.txt has no Markdown links ([name](url)) for agents to follow.', fix: llmsFix };
      const missing = [!l.summary && 'a "> " summary line', !l.sections.length && 'a "## " section'].filter(Boolean);
      if (missing.length) return { status: 'warn', facts, evidence, message: `H1 "${l.h1}" and ${l.links.length} link(s), but no ${missing.join(' and no ')}.`, fix: llmsFix };
      return { status: 'pass', facts, evidence, message: `H1 "${l.h1}", a summary, ${l.sections.length} section(s) and ${l.links.length} link(s).` };
    },
  },
  {
    id: 'D05', key: 'llms.links_resolve', group: 'discovery', title: 'Links in llms.txt resolve', severity: 'medium',
    run: async (ctx) => {
      const l = await llmsOf(ctx);
      if (!l.present) return { status: 'na', message: 'No llms.txt to check.' };
      const own = [...new Set(l.links.map((x) => x.url.split('#')[0]!))].filter((u) => ctx.ownSite(u));
      if (!own.length) return { status: 'na', message: l.links.length ? 'llms.txt links only to other sites (not fetched: a scan stays on your domain).' : 'llms.txt has no links.' };
      const sample = own.slice(0, MAX_LINKS_CHECKED);
      const probes: Probe[] = [];
      for (const u of sample) probes.push(await ctx.get(u));
      // A link to a file over the size cap exists all the same.
      const good = probes.filter((p) => (ok(p) && p.body.trim().length > 0) || p.error?.kind === 'too_large');
      const share = good.length / probes.length;
      const broken = probes.filter((p) => !good.includes(p));
      const evidence = broken.slice(0, 5).map((p) => evidenceOf(p, ''));
      const facts = { checked: probes.length, resolved: good.length, broken: broken.map((p) => p.url) };
      const msg = `${good.length} of ${probes.length} link(s) checked resolve${own.length > sample.length ? ` (first ${sample.length} of ${own.length})` : ''}${broken.length ? `; broken: ${broken.slice(0, 3).map((p) => `${new URL(p.url).pathname} (${p.status ?? p.error?.kind})`).join(', ')}` : ''}.`;
      const fix = { summary: 'Fix or remove the broken links in llms.txt.', bundle_file: 'llms.txt' };
      if (share >= 0.9) return { status: 'pass', message: msg, facts };
      return { status: share >= 0.5 ? 'warn' : 'fail', message: msg, evidence, facts, fix };
    },
  },
  {
    id: 'D06', key: 'llms.size', group: 'discovery', title: 'llms.txt fits an agent\'s context', severity: 'low',
    run: async (ctx) => {
      const l = await llmsOf(ctx);
      if (!l.present) return { status: 'na', message: 'No llms.txt to check.' };
      return l.probe.bytes <= 50 * 1024
        ? { status: 'pass', message: `llms.txt is ${l.probe.bytes} bytes.` }
        : { status: 'warn', message: `llms.txt is ${l.probe.bytes} bytes; keep it under 50 KB and move detail to llms-full.txt.`, fix: { summary: 'Shorten llms.txt; put the long version in llms-full.txt.' } };
    },
  },
  {
    id: 'D07', key: 'llms_full.present', group: 'discovery', title: '/llms-full.txt is present', severity: 'low', spec_url: LLMS,
    run: async (ctx) => {
      const p = await ctx.get('/llms-full.txt');
      if (ok(p) && !looksHtml(p) && p.bytes >= 1024) return { status: 'pass', message: `llms-full.txt has ${p.bytes} bytes.`, evidence: [evidenceOf(p, '')] };
      const why = !ok(p) ? `it answers ${p.status ?? p.error?.message}` : looksHtml(p) ? 'it answers with an HTML page' : `it has only ${p.bytes} bytes`;
      return { status: 'warn', message: `No useful llms-full.txt (${why}); it gives agents your whole content in one read.`, evidence: [evidenceOf(p)], fix: { summary: 'Publish /llms-full.txt with the full text of your key pages.' } };
    },
  },
  {
    id: 'D08', key: 'link_headers', group: 'discovery', title: 'Link headers point agents to machine-readable files', severity: 'low', spec_url: 'https://www.rfc-editor.org/rfc/rfc8288',
    run: async (ctx) => {
      const link = ctx.home.headers.link ?? '';
      const rels = [...link.matchAll(/rel="?([^";,]+)"?/gi)].map((m) => m[1]!.toLowerCase());
      const useful = rels.filter((r) => ['describedby', 'alternate', 'api-catalog', 'service-desc', 'service-doc'].some((u) => r.split(/\s+/).includes(u)));
      if (useful.length) return { status: 'pass', message: `The home page sends Link: ${link.slice(0, 200)}`, evidence: [evidenceOf(ctx.home, link)] };
      return { status: 'warn', message: link ? `The Link header has no agent-relevant relation (${rels.join(', ')}).` : 'The home page sends no Link header pointing to llms.txt or an API description.', fix: { summary: 'Send Link: </llms.txt>; rel="describedby" on the home page.', bundle_file: 'headers.md' } };
    },
  },
  {
    id: 'D09', key: 'md.negotiation', group: 'discovery', title: 'Markdown on request', severity: 'low',
    run: async (ctx) => {
      const p = await ctx.get(ctx.homeUrl, { accept: 'text/markdown, text/plain;q=0.5' });
      if (ok(p) && /text\/markdown/i.test(p.content_type)) return { status: 'pass', message: 'Accept: text/markdown returns the home page as Markdown.', evidence: [evidenceOf(p)] };
      const mirror = await ctx.get('/index.md');
      if (ok(mirror) && !looksHtml(mirror) && mirror.body.trim()) return { status: 'pass', message: 'The home page has a Markdown mirror at /index.md.', evidence: [evidenceOf(mirror)] };
      return { status: 'warn', message: `Asking for text/markdown returns ${p.content_type || p.status}; agents must parse HTML.`, evidence: [evidenceOf(p, '')], fix: { summary: 'Serve Markdown for Accept: text/markdown (or a .md mirror of key pages).', bundle_file: 'headers.md' } };
    },
  },
];
