import { evidenceOf, ok, type ScanContext } from './scans.context.js';
import { robotsOf } from './checks.shared.js';
import { SEARCH_BOTS, starRules, TRAINING_BOTS } from './scans.robots.js';
import type { CheckDef } from './scans.types.js';

/** Access: can AI agents and crawlers reach the site at all (A01–A10). */
const RFC9309 = 'https://www.rfc-editor.org/rfc/rfc9309';

const challenged = (status: number | null, headers: Record<string, string>) =>
  status === 401 || status === 403 || status === 429 || status === 503 || /challenge/i.test(headers['cf-mitigated'] ?? '');

export const accessChecks: CheckDef<ScanContext>[] = [
  {
    id: 'A01', key: 'home.reachable', group: 'access', title: 'Home page answers', severity: 'info',
    // The gate: an unreachable or refusing home page fails the whole scan before the checks run.
    run: async (ctx) => {
      const h = ctx.home;
      const html = /html/i.test(h.content_type);
      return {
        status: html ? 'pass' : 'warn',
        message: html ? `The home page answers HTTP ${h.status} with HTML${h.redirects.length ? ` after ${h.redirects.length} redirect(s)` : ''}.` : `The home page answers HTTP ${h.status} but as ${h.content_type || 'no content type'}, not HTML.`,
        evidence: [evidenceOf(h, '')],
        fix: html ? null : { summary: 'Serve the home page as text/html.' },
      };
    },
  },
  {
    id: 'A02', key: 'tls.https', group: 'access', title: 'Served over HTTPS', severity: 'high', spec_url: 'https://developer.mozilla.org/docs/Web/HTTP/Headers/Strict-Transport-Security',
    run: async (ctx) => {
      const finalUrl = new URL(ctx.home.final_url);
      if (finalUrl.protocol !== 'https:') {
        return {
          status: 'fail', message: `The site is served over plain HTTP (${finalUrl.origin}); agents and browsers warn about or refuse it.`,
          evidence: [evidenceOf(ctx.home, '')],
          fix: { summary: 'Serve the site over HTTPS and redirect http:// to https:// with a 301.', steps: ['Turn on HTTPS at your host or CDN (Let\'s Encrypt certificates are free).', 'Redirect every http:// URL to https:// with a 301.', 'Add Strict-Transport-Security: max-age=31536000.'] },
        };
      }
      const plain = await ctx.get(`http://${finalUrl.host}/`);
      const hsts = Boolean(ctx.home.headers['strict-transport-security']);
      const redirects = plain.status !== null && plain.final_url.startsWith('https:');
      return {
        status: redirects || plain.status === null ? 'pass' : 'warn',
        message: `HTTPS works${redirects ? ' and http:// redirects to it' : plain.status === null ? '' : ', but http:// does not redirect to https://'}${hsts ? '; HSTS is set' : ''}.`,
        evidence: [evidenceOf(ctx.home, ''), evidenceOf(plain, '')],
        fix: redirects ? null : { summary: 'Redirect http:// to https:// with a 301.' },
      };
    },
  },
  {
    id: 'A03', key: 'robots.present', group: 'access', title: 'robots.txt is present and parses', severity: 'medium', spec_url: RFC9309,
    run: async (ctx) => {
      const r = await robotsOf(ctx);
      if (r.present) {
        // The files generator restates the * rules and sitemaps in the AI groups it writes.
        const facts = { star_rules: starRules(r.analysis!.groups).slice(0, 100), sitemaps: r.analysis!.sitemaps.slice(0, 10) };
        return { status: 'pass', facts, message: `robots.txt has ${r.analysis!.directives} directive(s) in ${r.analysis!.groups.length} group(s).`, evidence: [evidenceOf(r.probe)] };
      }
      // 4xx means "no robots.txt" (allow everything, RFC 9309); an HTML page, garbage or a 5xx is worse.
      const missing = r.probe.status !== null && r.probe.status >= 400 && r.probe.status < 500;
      return {
        status: missing ? 'warn' : r.unverified ? 'error' : 'fail',
        message: missing ? 'There is no robots.txt: every crawler may fetch everything, but you state no policy for AI agents.' : `robots.txt is not usable: ${r.problem}.`,
        evidence: [evidenceOf(r.probe)],
        fix: { summary: 'Publish a plain-text robots.txt at the site root.', bundle_file: 'robots-ai.txt' },
      };
    },
  },
  {
    id: 'A04', key: 'robots.ai_allowed', group: 'access', title: 'AI search and user agents may fetch the site', severity: 'critical', spec_url: RFC9309,
    run: async (ctx) => {
      const r = await robotsOf(ctx);
      if (r.unverified) return { status: 'error', message: `Not verified: robots.txt ${r.problem}.`, evidence: [evidenceOf(r.probe, '')] };
      if (r.serverError) {
        return {
          status: 'fail', facts: { blocked_search_bots: [...SEARCH_BOTS], blocked_training_bots: [...TRAINING_BOTS], all_search_blocked: true }, evidence: [evidenceOf(r.probe, '')],
          message: `robots.txt answers HTTP ${r.probe.status}: crawlers that follow RFC 9309 treat the whole site as disallowed, AI search agents included.`,
          fix: { summary: 'Serve robots.txt with 200 (or 404 if you have none): a server error hides the whole site.', bundle_file: 'robots-ai.txt' },
        };
      }
      if (!r.present) return { status: 'pass', message: 'No usable robots.txt, so no crawler is blocked.', evidence: [evidenceOf(r.probe, '')] };
      const bots = r.analysis!.bots;
      const blockedSearch = SEARCH_BOTS.filter((b) => !bots[b]!.allowed);
      const blockedTraining = TRAINING_BOTS.filter((b) => !bots[b]!.allowed);
      const decided = (b: string) => `${b} (${bots[b]!.ownGroup ? 'its own group' : 'the * group'})`;
      const facts = { blocked_search_bots: blockedSearch, blocked_training_bots: blockedTraining, all_search_blocked: blockedSearch.length === SEARCH_BOTS.length };
      const evidence = [evidenceOf(r.probe)];
      if (blockedSearch.length) {
        return {
          status: 'fail', facts, evidence,
          message: `robots.txt blocks AI search and user agents from the home page: ${blockedSearch.map(decided).join(', ')}. AI assistants cannot read or cite the site.`,
          fix: { summary: 'Allow the AI search and user agents; block only training crawlers if that is your policy.', bundle_file: 'robots-ai.txt', steps: ['Merge the robots-ai.txt block into your robots.txt.', 'A group that names a bot replaces the * group for that bot: repeat your * rules inside it.'] },
        };
      }
      if (blockedTraining.length) {
        return {
          status: 'warn', facts, evidence,
          message: `AI search agents may fetch the site; training crawlers are blocked: ${blockedTraining.map(decided).join(', ')}. That is a legitimate policy; it only means your content is not used to train models.`,
          fix: { summary: 'Nothing to do if blocking training is deliberate; to allow it, generate the files with training allowed.', bundle_file: 'robots-ai.txt' },
        };
      }
      return { status: 'pass', facts, evidence, message: 'Every AI search, user and training agent may fetch the home page.' };
    },
  },
  {
    id: 'A05', key: 'robots.ai_explicit', group: 'access', title: 'robots.txt states a deliberate AI policy', severity: 'low',
    run: async (ctx) => {
      const r = await robotsOf(ctx);
      if (r.unverified) return { status: 'error', message: `Not verified: robots.txt ${r.problem}.` };
      const named = r.analysis?.namedAiBots ?? [];
      if (named.length) return { status: 'pass', message: `robots.txt names AI agents: ${named.join(', ')}.`, evidence: [evidenceOf(r.probe)] };
      return {
        status: 'warn', message: r.present ? 'robots.txt only has rules for all crawlers (*); it does not say what AI agents may do.' : 'There is no robots.txt stating an AI policy.',
        evidence: [evidenceOf(r.probe, '')],
        fix: { summary: 'Name the AI search and training agents in robots.txt.', bundle_file: 'robots-ai.txt' },
      };
    },
  },
  {
    id: 'A06', key: 'robots.content_signal', group: 'access', title: 'Content-Signal states how content may be used', severity: 'info', spec_url: 'https://contentsignals.org/',
    run: async (ctx) => {
      const r = await robotsOf(ctx);
      const signals = r.analysis?.contentSignals ?? [];
      if (!signals.length) return { status: 'warn', message: 'No Content-Signal line (optional; it tells AI services whether search, AI answers and training may use your content).', evidence: [evidenceOf(r.probe, '')], fix: { summary: 'Add a Content-Signal line.', bundle_file: 'robots-ai.txt' } };
      const bad = signals.find((s) => !s.valid);
      if (bad) return { status: 'warn', message: `Content-Signal does not parse: "${bad.line}". Use search=yes|no, ai-input=yes|no, ai-train=yes|no.`, evidence: [evidenceOf(r.probe)], fix: { summary: 'Correct the Content-Signal line.', bundle_file: 'robots-ai.txt' } };
      const v = signals[0]!.values;
      const bots = r.analysis!.bots;
      const contradiction = (v['ai-train'] === 'yes' && TRAINING_BOTS.some((b) => !bots[b]!.allowed)) || ((v.search === 'yes' || v['ai-input'] === 'yes') && SEARCH_BOTS.some((b) => !bots[b]!.allowed));
      if (contradiction) return { status: 'warn', message: `${signals[0]!.line} contradicts the robots.txt groups (it allows a use whose crawler is blocked).`, evidence: [evidenceOf(r.probe)], fix: { summary: 'Make Content-Signal and the robots groups say the same thing.', bundle_file: 'robots-ai.txt' } };
      return { status: 'pass', message: `${signals[0]!.line}`, evidence: [evidenceOf(r.probe)] };
    },
  },
  {
    id: 'A07', key: 'robots.llms_allowed', group: 'access', title: 'llms.txt is not disallowed', severity: 'low',
    run: async (ctx) => {
      const r = await robotsOf(ctx);
      if (r.unverified) return { status: 'error', message: `Not verified: robots.txt ${r.problem}.` };
      if (!r.present) return { status: 'pass', message: 'No robots.txt rule applies to /llms.txt.' };
      const allowed = r.analysis!.isAllowed('/llms.txt', '*') && r.analysis!.isAllowed('/llms.txt', 'GPTBot') && r.analysis!.isAllowed('/llms.txt', 'OAI-SearchBot');
      return allowed
        ? { status: 'pass', message: '/llms.txt may be fetched by AI agents.' }
        : { status: 'fail', message: 'robots.txt disallows /llms.txt, the file written for AI agents.', evidence: [evidenceOf(r.probe)], fix: { summary: 'Add "Allow: /llms.txt" to the groups that block it.', bundle_file: 'robots-ai.txt' } };
    },
  },
  {
    id: 'A08', key: 'meta.no_noai', group: 'access', title: 'No noindex or noai directive on the home page', severity: 'high',
    run: async (ctx) => {
      const meta = ctx.$('meta[name="robots" i], meta[name="googlebot" i], meta[name="gptbot" i]').map((_, el) => ctx.$(el).attr('content') ?? '').get().join(', ');
      const header = ctx.home.headers['x-robots-tag'] ?? '';
      const found = [...`${meta}, ${header}`.toLowerCase().matchAll(/\b(noindex|noai|noimageai|none)\b/g)].map((m) => m[1]!);
      if (!found.length) return { status: 'pass', message: 'The home page has no noindex/noai directive.' };
      return {
        status: 'fail', message: `The home page says ${[...new Set(found)].join(', ')} (${meta ? `meta robots "${meta}"` : ''}${meta && header ? ', ' : ''}${header ? `X-Robots-Tag "${header}"` : ''}): agents are told not to use it.`,
        evidence: [evidenceOf(ctx.home, meta || header)],
        fix: { summary: 'Remove noindex/noai from the meta robots tag and the X-Robots-Tag header of public pages.' },
      };
    },
  },
  {
    id: 'A09', key: 'bot_ua_parity', group: 'access', title: 'AI user agents get the same page as browsers', severity: 'high',
    run: async (ctx) => {
      const browser = await ctx.get(ctx.homeUrl, { as: 'browser' });
      const ai = await ctx.get(ctx.homeUrl, { as: 'ai' });
      const evidence = [evidenceOf(browser, ''), evidenceOf(ai, ai.body.slice(0, 200))];
      if (!ok(browser)) return { status: 'error', message: `Could not verify: the site refused our browser-like request too (${browser.status ?? browser.error?.message}). This is not a finding about AI agents.`, evidence };
      if (!ok(ai) && (ai.status === null || challenged(ai.status, ai.headers))) {
        return {
          status: 'fail', evidence, facts: { ai_blocked: true },
          message: `A browser gets HTTP ${browser.status}, an AI crawler (GPTBot user agent) gets ${ai.status ?? ai.error?.message}${ai.headers['cf-mitigated'] ? ` (cf-mitigated: ${ai.headers['cf-mitigated']})` : ''}: your CDN or firewall blocks AI agents whatever robots.txt says.`,
          fix: { summary: 'Allow verified AI crawlers in your CDN/WAF bot settings.', steps: ['Cloudflare: Security → Bots → allow "AI Search" / verified bots, or turn off "Block AI bots".', 'Other CDNs/WAFs: exempt the AI user agents you allow in robots.txt from bot challenges.'] },
        };
      }
      const size = (s: string) => s.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().length;
      if (ok(ai) && size(browser.body) > 500 && size(ai.body) < size(browser.body) * 0.3) {
        return { status: 'warn', evidence, message: `The AI crawler gets a much shorter page (${size(ai.body)} characters of text against ${size(browser.body)} for a browser).`, fix: { summary: 'Serve AI agents the same content as browsers.' } };
      }
      return { status: 'pass', evidence, message: `A browser and an AI crawler both get HTTP ${ai.status}.` };
    },
  },
  {
    id: 'A10', key: 'perf.ttfb', group: 'access', title: 'Home page answers quickly', severity: 'low',
    run: async (ctx) => {
      const ms = ctx.home.elapsed_ms;
      const status = ms <= 800 ? 'pass' : ms <= 2000 ? 'warn' : 'fail';
      return { status, message: `The home page took ${ms} ms${status === 'pass' ? '' : ' (agents give up on slow pages; aim for under 800 ms)'}.`, evidence: [evidenceOf(ctx.home, '')], fix: status === 'pass' ? null : { summary: 'Cache the home page at a CDN or speed up the server.' } };
    },
  },
];
