import { createHash } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, invalid } from '../../platform/errors.js';
import { err, errorResponses, type App } from '../../platform/http.js';
import { SITE_CSS, SITE_CSS_HASH } from './site.assets.js';
import { companyPage } from './site.pages.company.js';
import { categoriesIndexPage, categoryPage, homePage, type SiteContext } from './site.pages.listing.js';
import { searchPage } from './site.pages.search.js';
import { quoteFormPage, quoteSentPage, type QuoteProblem } from './site.pages.quote.js';
import { badRequestPage, forDevelopersPage, forOwnersPage, notFoundPage } from './site.pages.static.js';
import { categoriesSitemap, companiesSitemap, robotsTxt, sitemapIndex } from './site.sitemap.js';
import { categoryOfSlug, MAX_PAGE } from './site.listed.js';
import type { SiteService } from './site.service.js';

export interface SiteRoutesOptions {
  site: SiteService;
  ctx: SiteContext;
}

/** People's pages are cached briefly by browsers and shared caches, and revalidated by ETag. */
const PUBLIC = 'public, max-age=300';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 2000 })),
  category: Type.Optional(Type.String({ maxLength: 100 })),
  country: Type.Optional(Type.String({ maxLength: 100 })),
  city: Type.Optional(Type.String({ maxLength: 100 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
});
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })) });
const SlugParams = Type.Object({ slug: Type.String({ maxLength: 200 }) });

const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('base64url')}"`;

function matches(req: FastifyRequest, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*');
}

/** Sends a page (or XML/text) with an ETag; a matching If-None-Match is a 304 without a body. */
function send(req: FastifyRequest, reply: FastifyReply, body: string, opts: { type?: string; cache?: string; status?: number; links?: string[] } = {}) {
  const etag = etagOf(body);
  reply.header('etag', etag).header('cache-control', opts.cache ?? PUBLIC);
  if (opts.links?.length) reply.header('link', opts.links.join(', '));
  if ((opts.status ?? 200) === 200 && matches(req, etag)) return reply.code(304).send();
  return reply.code(opts.status ?? 200).type(opts.type ?? 'text/html; charset=utf-8').send(body);
}

const QuoteBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 254 })),
  phone: Type.Optional(Type.String({ maxLength: 40 })),
  message: Type.Optional(Type.String({ maxLength: 5000 })),
  website: Type.Optional(Type.String({ maxLength: 200, description: 'Hidden from people; must stay empty' })),
});

const QUOTE_FIELDS = new Set(['name', 'email', 'phone', 'message']);

/** A refused request as the form shows it: next to its field when it names one. */
function quoteProblemOf(e: AppError): QuoteProblem {
  const loc = e.issues?.[0]?.loc;
  const name = loc ? String(loc[loc.length - 1]) : undefined;
  const text = e.issues?.[0]?.msg ?? e.message;
  return name && QUOTE_FIELDS.has(name) ? { field: name as QuoteProblem['field'], text } : { text };
}

/** A schema refusal of a form field (too long), worded for people. */
function problemOfValidation(err: Error): AppError {
  const m = /body\/(\w+)/.exec(err.message);
  const name = m?.[1] ?? 'message';
  return invalid(['body', name], `This is too long: please shorten your ${name === 'message' ? 'message' : name}.`);
}

/** The public directory website: server-rendered HTML that needs no script (see README "Public website"). */
export async function siteRoutes(app: App, { site, ctx }: SiteRoutesOptions): Promise<void> {
  await app.register(formbody);
  const discoveryLink = `<${ctx.baseUrl}/${ctx.serviceName}.md>; rel="alternate"; type="text/markdown"`;
  const page = (req: FastifyRequest, reply: FastifyReply, body: string, opts: { cache?: string; links?: string[] } = {}) =>
    send(req, reply, body, { ...opts, links: [...(opts.links ?? []), discoveryLink] });
  const notFound = (req: FastifyRequest, reply: FastifyReply) =>
    send(req, reply, notFoundPage(ctx, req.url.split('?')[0] ?? '/'), { status: 404, cache: 'no-store' });
  const hide = { hide: true } as const;

  app.get('/', { schema: hide }, async (req, reply) => page(req, reply, homePage(ctx, await site.home())));

  app.get('/search', { schema: { ...hide, querystring: SearchQuery }, attachValidation: true }, async (req, reply) => {
    if (req.validationError) {
      return send(req, reply, badRequestPage(ctx, 'The search was too long or had an invalid page number.'), { status: 400, cache: 'no-store' });
    }
    const { page: n, category, view } = await site.searchPage(req.query);
    const trim = (v: string | undefined) => v?.trim() || undefined;
    // An unknown category is not kept in the form (the page says which one was not understood).
    const q = { q: trim(req.query.q), category, country: trim(req.query.country), city: trim(req.query.city) };
    return page(req, reply, searchPage(ctx, q, n, view), { cache: 'public, max-age=60' });
  });

  app.get('/categories', { schema: hide }, async (req, reply) => page(req, reply, categoriesIndexPage(ctx, await site.categoryCounts())));

  app.get('/categories/:slug', { schema: { ...hide, params: SlugParams, querystring: PageQuery }, attachValidation: true }, async (req, reply) => {
    const category = categoryOfSlug(req.params.slug);
    if (!category || req.validationError) return notFound(req, reply);
    const n = req.query.page ?? 1;
    const data = await site.categoryPage(category, n);
    if (!data) return notFound(req, reply);
    return page(req, reply, categoryPage(ctx, category, n, data));
  });

  app.get('/companies/:slug', { schema: { ...hide, params: SlugParams }, attachValidation: true }, async (req, reply) => {
    if (req.validationError) return notFound(req, reply);
    const found = await site.companyPage(req.params.slug);
    if (!found) return notFound(req, reply);
    if (found.kind === 'moved') return reply.header('cache-control', PUBLIC).redirect(`/companies/${encodeURIComponent(found.slug)}`, 301);
    return page(req, reply, companyPage(ctx, found), { links: [`<${found.profile.profile_url}>; rel="alternate"; type="application/json"`] });
  });

  // "Ask for a quote": the form (no script needed), and its POST (form, or JSON for scripts and tests).
  const quotePage = async (slug: string) => {
    const found = await site.companyPage(slug.toLowerCase());
    return found?.kind === 'found' ? found : undefined;
  };
  app.get('/companies/:slug/quote', { schema: { ...hide, params: SlugParams }, attachValidation: true }, async (req, reply) => {
    const found = req.validationError ? undefined : await quotePage(req.params.slug);
    if (!found) return notFound(req, reply);
    return send(req, reply, quoteFormPage(ctx, found), { cache: 'no-store' });
  });

  app.post('/companies/:slug/quote', {
    schema: {
      operationId: 'site.requestQuote',
      tags: ['site'],
      summary: 'A person asks a company for a quote from its page',
      description:
        "The company page's \"Ask for a quote\" form posts here (form-encoded; JSON works too). The request lands in the owner's inbox as a proposal " +
        "(origin quote_form) and the owner's answer is emailed to the person. Only verified companies take requests (409 otherwise). Spam limits: " +
        'a few requests per network address an hour and per email address a day, and one open request per company and address; the hidden field "website" must stay empty. A form gets an HTML page back; JSON gets {message}.',
      security: [],
      params: SlugParams,
      body: QuoteBody,
      response: { 201: Type.Object({ message: Type.String() }), 404: err, 409: err, 429: err, ...errorResponses },
    },
    attachValidation: true,
  }, async (req, reply) => {
    const isForm = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const found = await quotePage(req.params.slug);
    if (!found) throw new AppError('not_found', 'There is no company at this address.');
    const input = req.body ?? {};
    const quote = { ...input, name: input.name ?? '', email: input.email ?? '', message: input.message ?? '' };
    if (!isForm) {
      if (req.validationError) throw req.validationError;
      return reply.code(201).send(await site.sendQuote(found.profile.id, quote, req.ip));
    }
    try {
      if (req.validationError) throw problemOfValidation(req.validationError);
      const sent = await site.sendQuote(found.profile.id, quote, req.ip);
      return send(req, reply, quoteSentPage(ctx, found, sent.message), { cache: 'no-store' });
    } catch (e) {
      if (!(e instanceof AppError) || e.status >= 500) throw e;
      const values = { name: input.name, email: input.email, phone: input.phone, message: input.message };
      return send(req, reply, quoteFormPage(ctx, found, values, quoteProblemOf(e)), { cache: 'no-store', status: e.status });
    }
  });

  app.get('/for-owners', { schema: hide }, async (req, reply) => page(req, reply, forOwnersPage(ctx)));
  app.get('/for-agent-developers', { schema: hide }, async (req, reply) => page(req, reply, forDevelopersPage(ctx)));

  const xml = 'application/xml; charset=utf-8';
  app.get('/sitemap.xml', { schema: hide }, async (req, reply) => send(req, reply, sitemapIndex(ctx, await site.sitemapChunks()), { type: xml, cache: 'public, max-age=3600' }));
  app.get('/sitemaps/:file', { schema: { ...hide, params: Type.Object({ file: Type.String({ maxLength: 40 }) }) }, attachValidation: true }, async (req, reply) => {
    if (req.validationError) return notFound(req, reply);
    if (req.params.file === 'categories.xml') return send(req, reply, categoriesSitemap(ctx), { type: xml, cache: 'public, max-age=3600' });
    const m = /^companies-([1-9]\d{0,5})\.xml$/.exec(req.params.file);
    const entries = m ? await site.sitemapEntries(Number(m[1])) : [];
    if (entries.length === 0) return notFound(req, reply);
    return send(req, reply, companiesSitemap(ctx, entries), { type: xml, cache: 'public, max-age=3600' });
  });

  app.get('/robots.txt', { schema: hide }, async (req, reply) => send(req, reply, robotsTxt(ctx), { type: 'text/plain; charset=utf-8', cache: 'public, max-age=3600' }));

  // The stylesheet under its content hash (cached for good); an older hash gets the current file, briefly cached.
  app.get('/assets/:file', { schema: { ...hide, params: Type.Object({ file: Type.String({ maxLength: 60 }) }) }, attachValidation: true }, async (req, reply) => {
    const m = req.validationError ? null : /^site\.([0-9a-f]{12})\.css$/.exec(req.params.file);
    if (!m) return notFound(req, reply);
    return send(req, reply, SITE_CSS, { type: 'text/css; charset=utf-8', cache: m[1] === SITE_CSS_HASH ? IMMUTABLE : 'public, max-age=300' });
  });
}
