import { CATEGORIES } from '../companies/companies.schemas.js';
import { html, raw, type SafeHtml } from '../../lib/html.js';
import { layout } from './site.layout.js';
import { categorySlug, locationOf, type Listed } from './site.listed.js';

/** What every page needs to know about the site. */
export interface SiteContext {
  baseUrl: string;
  siteName: string;
  serviceName: string;
}

/** An absolute URL on this site with empty parameters dropped (the canonical form). */
export function siteUrl(ctx: SiteContext, path: string, params: Record<string, string | number | undefined> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && String(v).trim() !== '') qs.set(k, String(v).trim());
  const s = qs.toString();
  return `${ctx.baseUrl}${path}${s ? `?${s}` : ''}`;
}

const place = (c: Listed) => [locationOf(c).city, locationOf(c).country].filter(Boolean).join(', ');

/** Company cards; `note` adds a line under the heading (the search page's verdict and distance). */
export function companyCards(list: Listed[], headingLevel: 'h2' | 'h3' = 'h3', note?: (c: Listed) => SafeHtml): SafeHtml {
  if (list.length === 0) return html`<p>No companies here yet.</p>`;
  return html`<ul class="cards">${list.map((c) => html`<li class="card">
<${raw(headingLevel)}><a href="/companies/${c.slug}">${c.name}</a>${c.is_verified ? html` <span class="badge">Verified</span>` : ''}</${raw(headingLevel)}>
${note ? note(c) : ''}<p class="meta">${c.category}${c.industry ? html` · ${c.industry}` : ''}${place(c) ? html` · ${place(c)}` : ''}</p>
${c.description ? html`<p>${c.description.length > 220 ? `${c.description.slice(0, 219).trimEnd()}…` : c.description}</p>` : ''}
</li>`)}</ul>`;
}

export function searchForm(values: { q?: string; category?: string; country?: string; city?: string }, headingId?: string): SafeHtml {
  return html`<form class="search" method="get" action="/search" role="search"${headingId ? html` aria-labelledby="${headingId}"` : ''}>
<div class="field q"><label for="q">What do you need?</label><input id="q" name="q" type="search" maxlength="2000" value="${values.q ?? ''}" placeholder="e.g. emergency plumber, payroll software"></div>
<div class="field"><label for="category">Category</label><select id="category" name="category"><option value="">All categories</option>${CATEGORIES.map((c) => html`<option value="${c}"${values.category === c ? html` selected` : ''}>${c}</option>`)}</select></div>
<div class="field"><label for="city">City</label><input id="city" name="city" maxlength="100" value="${values.city ?? ''}"></div>
<div class="field"><label for="country">Country</label><input id="country" name="country" maxlength="100" value="${values.country ?? ''}"></div>
<button type="submit">Search</button></form>`;
}

export function pager(ctx: SiteContext, path: string, params: Record<string, string | undefined>, page: number, hasMore: boolean): SafeHtml {
  if (page <= 1 && !hasMore) return html``;
  const href = (p: number) => siteUrl({ ...ctx, baseUrl: '' }, path, { ...params, page: p > 1 ? p : undefined });
  return html`<nav class="pager" aria-label="Pages">${page > 1 ? html`<a rel="prev" href="${href(page - 1)}">← Previous page</a>` : ''}<span>Page ${page}</span>${hasMore ? html`<a rel="next" href="${href(page + 1)}">Next page →</a>` : ''}</nav>`;
}

export function homePage(ctx: SiteContext, data: { categories: { name: string; slug: string; count: number }[]; total: number; featured: Listed[]; recent: Listed[] }): string {
  const url = siteUrl(ctx, '/');
  return layout({
    title: `${ctx.siteName}: find companies, for people and AI agents`,
    description: `Search ${data.total} companies in 25 categories by what you need. Every profile is also an API record and an MCP server for AI agents.`,
    canonical: url, siteName: ctx.siteName, baseUrl: ctx.baseUrl,
    alternates: [{ type: 'text/markdown', href: `${ctx.baseUrl}/${ctx.serviceName}.md`, title: `${ctx.siteName} for agents` }],
    jsonLd: [{ '@context': 'https://schema.org', '@type': 'WebSite', name: ctx.siteName, url, potentialAction: { '@type': 'SearchAction', target: `${ctx.baseUrl}/search?q={search_term_string}`, 'query-input': 'required name=search_term_string' } }],
  }, html`<h1 id="search-heading">Find a company that does what you need</h1>
<p class="lead">${data.total} companies, searched by meaning and by words. The same directory answers AI agents through its API and MCP servers.</p>
${searchForm({}, 'search-heading')}
<section aria-labelledby="cat-h"><h2 id="cat-h">Categories</h2>
<ul class="grid">${data.categories.map((c) => html`<li><a href="/categories/${c.slug}"><span>${c.name}</span><span class="count">${c.count}<span class="sr"> companies</span></span></a></li>`)}</ul></section>
<section aria-labelledby="feat-h"><h2 id="feat-h">Featured and verified</h2>${companyCards(data.featured)}</section>
<section aria-labelledby="new-h"><h2 id="new-h">Recently added</h2>${companyCards(data.recent)}</section>`);
}

export function categoriesIndexPage(ctx: SiteContext, counts: Map<string, number>): string {
  return layout({
    title: `Categories | ${ctx.siteName}`,
    description: `The 25 categories of the ${ctx.siteName} directory and how many companies each holds.`,
    canonical: siteUrl(ctx, '/categories'), siteName: ctx.siteName, baseUrl: ctx.baseUrl,
  }, html`<h1>Categories</h1><ul class="grid">${CATEGORIES.map((c) => html`<li><a href="/categories/${categorySlug(c)}"><span>${c}</span><span class="count">${counts.get(c) ?? 0}<span class="sr"> companies</span></span></a></li>`)}</ul>`);
}

export function categoryPage(ctx: SiteContext, category: string, page: number, result: { companies: Listed[]; total_found: number; has_more: boolean; pages: number }): string {
  const path = `/categories/${categorySlug(category)}`;
  // Each page of a category is its own canonical (never page 1).
  const canonical = siteUrl(ctx, path, { page: page > 1 ? page : undefined });
  return layout({
    title: `${category} companies${page > 1 ? ` (page ${page})` : ''} | ${ctx.siteName}`,
    description: `${result.total_found} ${category} companies in the ${ctx.siteName} directory: profiles, services, contact and how AI agents reach them.`,
    canonical, siteName: ctx.siteName, baseUrl: ctx.baseUrl,
    alternates: [{ type: 'application/json', href: siteUrl(ctx, '/api/v1/agent/companies', { category, limit: 20, offset: page > 1 ? (page - 1) * 20 : undefined }), title: `${category} companies as JSON (agent API)` }],
    jsonLd: [{
      '@context': 'https://schema.org', '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: ctx.siteName, item: siteUrl(ctx, '/') },
        { '@type': 'ListItem', position: 2, name: category, item: siteUrl(ctx, path) },
      ],
    }],
  }, html`<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/categories">Categories</a></li><li><a href="${path}" aria-current="page">${category}</a></li></ol></nav>
<h1>${category}</h1>
<p class="lead">${result.total_found} ${result.total_found === 1 ? 'company' : 'companies'}${result.pages > 1 ? html`, page ${page} of ${result.pages}` : ''}. <a href="/search?category=${encodeURIComponent(category)}">Search within ${category}</a></p>
${companyCards(result.companies, 'h2')}
${pager(ctx, path, {}, page, result.has_more)}`);
}
