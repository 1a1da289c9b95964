import { evidenceOf, ok, str, type ScanContext } from './scans.context.js';
import { jsonLdOf, typesOf, visibleText } from './checks.shared.js';
import type { CheckDef } from './scans.types.js';

/** Understanding: can an agent read what the company is and does, without running JavaScript (U01–U10). */
const SCHEMA = 'https://schema.org/';
const ORG_TYPES = /^(Organization|Corporation|LocalBusiness|ProfessionalService|Store|Restaurant|FoodEstablishment|Plumber|Electrician|HomeAndConstructionBusiness|LegalService|Attorney|MedicalBusiness|Dentist|Physician|FinancialService|AccountingService|AutomotiveBusiness|HealthAndBeautyBusiness|LodgingBusiness|Hotel|RealEstateAgent|TravelAgency|EducationalOrganization|NGO|SoftwareApplication|WebApplication|OnlineStore|OnlineBusiness|[A-Za-z]*(Business|Service|Store|Shop|Agency|Contractor|Clinic|Restaurant|Bakery))$/;
const LOCAL = /^(LocalBusiness|Store|Restaurant|FoodEstablishment|Plumber|Electrician|HomeAndConstructionBusiness|LegalService|Attorney|Dentist|Physician|AutomotiveBusiness|Hotel|[A-Za-z]*(Store|Shop|Restaurant|Bakery|Contractor|Clinic))$/;

const entityOf = (ctx: ScanContext) => jsonLdOf(ctx).nodes.find((n) => typesOf(n).some((t) => ORG_TYPES.test(t)));
const jsonldFix = { summary: 'Add a schema.org Organization/LocalBusiness JSON-LD block to the home page\'s HTML (server-side, not by script).', bundle_file: 'schema.jsonld' };

export const understandingChecks: CheckDef<ScanContext>[] = [
  {
    id: 'U01', key: 'render.no_js', group: 'understanding', title: 'Content is readable without JavaScript', severity: 'critical',
    run: async (ctx) => {
      const text = visibleText(ctx);
      const words = text.split(/\s+/).filter((w) => /\w/.test(w)).length;
      const mount = ctx.$('#root, #app, #__next, #__nuxt, [data-reactroot], app-root').toArray().some((el) => ctx.$(el).text().trim().length < 50);
      const scripts = ctx.$('script[src]').length;
      const facts = { chars: text.length, words, empty_mount: mount };
      if (text.length >= 500 && words >= 80) return { status: 'pass', facts, message: `The raw HTML carries ${words} words of visible text.` };
      if (mount || words < 30) {
        return {
          status: 'fail', facts, evidence: [evidenceOf(ctx.home, text.slice(0, 200) || ctx.home.body.slice(0, 200))],
          message: mount || scripts > 0
            ? `The home page is an empty JavaScript shell (${words} words without JavaScript${mount ? ', an empty application mount point' : ''}); most AI agents do not run JavaScript and see nothing.`
            : `The home page has almost no text (${words} words): agents have nothing to read.`,
          fix: { summary: 'Render the page on the server (SSR or static generation) or pre-render it for crawlers.', steps: ['Next.js/Nuxt/SvelteKit: use server rendering or static export for public pages.', 'Plain React/Vue SPA: add a pre-rendering step (e.g. at build time) for the home, about, services and contact pages.'] },
        };
      }
      return { status: 'warn', facts, message: `The home page has little text (${words} words); agents have little to understand the company from.`, fix: { summary: 'Describe what you do, for whom and where in the home page text.' } };
    },
  },
  {
    id: 'U02', key: 'jsonld.valid', group: 'understanding', title: 'JSON-LD in the raw HTML parses', severity: 'high', spec_url: SCHEMA,
    run: async (ctx) => {
      const j = jsonLdOf(ctx);
      if (!j.blocks.length) {
        return {
          status: 'fail', facts: { injected_by_script: j.injectedByScript },
          message: j.injectedByScript
            ? 'The JSON-LD is added by JavaScript: the raw HTML has none, so agents that do not run scripts (most of them) see no structured data.'
            : 'The home page has no JSON-LD structured data.',
          fix: jsonldFix,
        };
      }
      const broken = j.blocks.filter((b) => b.error);
      if (broken.length) return { status: 'fail', message: `${broken.length} of ${j.blocks.length} JSON-LD block(s) do not parse: ${broken[0]!.error}.`, evidence: [evidenceOf(ctx.home, broken[0]!.raw.slice(0, 300))], fix: jsonldFix };
      const ctxOk = j.blocks.every((b) => JSON.stringify((b.parsed as Record<string, unknown>)?.['@context'] ?? '').includes('schema.org'));
      if (!ctxOk) return { status: 'warn', message: 'A JSON-LD block has no schema.org @context.', fix: jsonldFix };
      return { status: 'pass', message: `${j.blocks.length} JSON-LD block(s) parse, with types ${[...new Set(j.nodes.flatMap(typesOf))].join(', ') || '(none)'}.` };
    },
  },
  {
    id: 'U03', key: 'jsonld.entity', group: 'understanding', title: 'JSON-LD describes the business', severity: 'high', spec_url: `${SCHEMA}Organization`,
    run: async (ctx) => {
      const e = entityOf(ctx);
      if (!e) return { status: 'fail', message: 'No Organization or LocalBusiness entity in the JSON-LD: agents cannot tell reliably who runs the site.', fix: jsonldFix };
      const types = typesOf(e);
      const local = types.some((t) => LOCAL.test(t));
      const need = local ? ['name', 'address'] : ['name', 'url', 'logo'];
      const missing = need.filter((k) => !e[k]);
      const bonus = e.sameAs ? ' with sameAs profiles' : '';
      if (!missing.length) return { status: 'pass', facts: { type: types[0] }, message: `${types.join('/')} "${str(e.name)}"${bonus}.` };
      return { status: missing.includes('name') ? 'fail' : 'warn', facts: { type: types[0] }, message: `${types.join('/')} is missing ${missing.join(', ')}.`, fix: jsonldFix };
    },
  },
  {
    id: 'U04', key: 'jsonld.offers', group: 'understanding', title: 'Prices are machine-readable', severity: 'medium',
    run: async (ctx) => {
      const offers = jsonLdOf(ctx).nodes.filter((n) => typesOf(n).some((t) => /^(Offer|AggregateOffer)$/.test(t)) || n.offers);
      if (!offers.length) return { status: 'na', message: 'Neither the listing nor the page states prices to check.' };
      const priced = offers.some((o) => {
        const x = (o.offers ?? o) as Record<string, unknown>;
        const first = (Array.isArray(x) ? x[0] : x) as Record<string, unknown> | undefined;
        return Boolean(first && (first.price !== undefined || first.lowPrice !== undefined) && first.priceCurrency);
      });
      return priced ? { status: 'pass', message: 'JSON-LD offers carry price and currency.' } : { status: 'warn', message: 'JSON-LD offers lack price or priceCurrency.', fix: { summary: 'Give every Offer a price and priceCurrency.' } };
    },
  },
  {
    id: 'U05', key: 'jsonld.faq', group: 'understanding', title: 'A visible FAQ is marked up', severity: 'low',
    run: async (ctx) => {
      const hasFaq = ctx.$('h1, h2, h3, summary').toArray().some((el) => /\b(faq|frequently asked|questions)\b/i.test(ctx.$(el).text()));
      if (!hasFaq) return { status: 'na', message: 'The home page shows no FAQ.' };
      const marked = jsonLdOf(ctx).nodes.some((n) => typesOf(n).includes('FAQPage'));
      return marked ? { status: 'pass', message: 'The FAQ is marked up as FAQPage.' } : { status: 'warn', message: 'The page shows an FAQ without FAQPage markup.', fix: { summary: 'Mark the FAQ up as schema.org FAQPage.' } };
    },
  },
  {
    id: 'U06', key: 'meta.basics', group: 'understanding', title: 'Title, description, language and one H1', severity: 'medium',
    run: async (ctx) => {
      const $ = ctx.$;
      const title = $('title').first().text().trim();
      const desc = ($('meta[name="description" i]').attr('content') ?? '').trim();
      const lang = ($('html').attr('lang') ?? '').trim();
      const h1s = $('h1').toArray().filter((el) => $(el).text().trim());
      const missing = [!title && 'a <title>', !desc && 'a meta description', !lang && '<html lang>', h1s.length !== 1 && (h1s.length ? `exactly one H1 (found ${h1s.length})` : 'an H1')].filter(Boolean) as string[];
      const facts = { title: title.slice(0, 120), description: desc.slice(0, 200), lang, h1: h1s.length };
      if (!missing.length) return { status: 'pass', facts, message: `Title "${title.slice(0, 80)}", a description, lang="${lang}" and one H1.` };
      return { status: missing.length >= 3 ? 'fail' : 'warn', facts, message: `The home page lacks ${missing.join(', ')}.`, fix: { summary: `Add ${missing.join(', ')} to the home page.` } };
    },
  },
  {
    id: 'U07', key: 'meta.og', group: 'understanding', title: 'OpenGraph title and description', severity: 'low', spec_url: 'https://ogp.me/',
    run: async (ctx) => {
      const og = (p: string) => (ctx.$(`meta[property="og:${p}"]`).attr('content') ?? '').trim();
      const have = ['title', 'description'].filter((p) => og(p));
      if (have.length === 2) return { status: 'pass', message: `og:title and og:description are set${og('image') ? ', with og:image' : ''}.` };
      return { status: have.length ? 'warn' : 'fail', message: have.length ? `Only og:${have[0]} is set.` : 'No OpenGraph tags.', fix: { summary: 'Add og:title, og:description and og:image meta tags.' } };
    },
  },
  {
    id: 'U08', key: 'meta.canonical', group: 'understanding', title: 'Canonical URL', severity: 'low',
    run: async (ctx) => {
      const href = (ctx.$('link[rel="canonical" i]').attr('href') ?? '').trim();
      if (!href) return { status: 'warn', message: 'The home page declares no canonical URL.', fix: { summary: 'Add <link rel="canonical" href="https://your-domain/">.' } };
      let abs: URL;
      try {
        abs = new URL(href);
      } catch {
        return { status: 'fail', message: `The canonical URL "${href.slice(0, 100)}" is not absolute.`, fix: { summary: 'Use an absolute canonical URL.' } };
      }
      if (!ctx.ownSite(abs.href)) return { status: 'fail', message: `The canonical URL points to another site (${abs.host}).`, fix: { summary: 'Point the canonical URL at your own site.' } };
      const p = abs.href === ctx.home.final_url || abs.href === ctx.homeUrl ? ctx.home : await ctx.get(abs.href);
      return ok(p) ? { status: 'pass', message: `Canonical ${abs.href} resolves.` } : { status: 'fail', message: `Canonical ${abs.href} answers ${p.status ?? p.error?.message}.`, evidence: [evidenceOf(p, '')], fix: { summary: 'Point the canonical URL at a page that exists.' } };
    },
  },
  {
    id: 'U09', key: 'contact.machine', group: 'understanding', title: 'Contact details are machine-readable', severity: 'medium',
    run: async (ctx) => {
      const nodes = jsonLdOf(ctx).nodes;
      const inLd = nodes.some((n) => n.telephone || n.email || n.address || n.contactPoint);
      const links = ctx.$('a[href^="tel:" i], a[href^="mailto:" i]').length;
      if (inLd || links) return { status: 'pass', message: `Contact data is in ${[inLd && 'the JSON-LD', links && `${links} tel:/mailto: link(s)`].filter(Boolean).join(' and ')}.` };
      const contact = await ctx.get('/contact');
      if (ok(contact) && (/href="(tel|mailto):/i.test(contact.body) || /"(telephone|email)"\s*:/.test(contact.body))) return { status: 'pass', message: '/contact has tel:/mailto: links or contact markup.', evidence: [evidenceOf(contact, '')] };
      return { status: 'fail', message: 'No machine-readable phone, email or address on the home page or /contact.', evidence: [evidenceOf(contact, '')], fix: { summary: 'Add tel:/mailto: links and a contactPoint/address to the JSON-LD.', bundle_file: 'schema.jsonld' } };
    },
  },
  {
    id: 'U10', key: 'freshness', group: 'understanding', title: 'Freshness signal', severity: 'low',
    run: async (ctx) => {
      const modified = jsonLdOf(ctx).nodes.find((n) => n.dateModified)?.dateModified;
      const header = ctx.home.headers['last-modified'];
      if (modified || header) return { status: 'pass', message: modified ? `dateModified ${str(modified)} in the JSON-LD.` : `Last-Modified: ${header}.` };
      return { status: 'warn', message: 'Neither dateModified in the JSON-LD nor a Last-Modified header says how current the page is.', fix: { summary: 'Send Last-Modified or add dateModified to the JSON-LD.' } };
    },
  },
];
