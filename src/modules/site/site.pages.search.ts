import { unmatchedSentence } from '../../lib/search-query.js';
import { html, type SafeHtml } from '../../lib/html.js';
import { layout } from './site.layout.js';
import { companyCards, pager, searchForm, siteUrl, type SiteContext } from './site.pages.listing.js';
import type { SearchView, TextResults, UnknownFilter } from './site.search.js';
import { categorySlug, locationOf, PAGE_SIZE, type Listed } from './site.listed.js';

/** The search as the person wrote it (trimmed), the category in its canonical spelling when known. */
export interface SearchParams {
  q?: string;
  category?: string;
  country?: string;
  city?: string;
}

const kmFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
/** "9,682 km", "3.4 km". */
export const km = (d: number) => `${d < 10 ? String(Math.round(d * 10) / 10) : kmFormat.format(d)} km`;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const searchHref = (ctx: SiteContext, params: Record<string, string | number | undefined>) => siteUrl({ ...ctx, baseUrl: '' }, '/search', params);

/** The filters in words: " (category Finance, city Berlin)". */
function scopeOf(q: SearchParams): string {
  const parts = [q.category && `category ${q.category}`, q.city && `city ${q.city}`, q.country && `country ${q.country}`].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** Words that show the need is a sentence ("I need a dentist"), not a noun phrase that reads well after "No". */
const SENTENCE_WORDS = new Set(['i', 'we', 'me', 'my', 'our', 'us', 'need', 'needs', 'looking', 'find', 'want', 'who', 'where', 'which', 'what', 'how', 'any', 'for', 'to', 'please', 'help', 'can', 'is', 'are']);

/** "No dentist in Munich." for a short noun phrase; otherwise the need is quoted. */
function nothingInPlace(need: string, place: string): SafeHtml {
  const words = need.replace(/^(a|an|the|some)\s+/i, '').split(/\s+/).filter(Boolean);
  const bare = words.length > 0 && words.length <= 3 && words.every((w) => /^[\p{L}\p{N}&'’-]+$/u.test(w) && !SENTENCE_WORDS.has(w.toLowerCase()));
  return bare ? html`No ${words.join(' ')} in ${place}.` : html`Nothing in or near ${place} clearly fits “${need}”.`;
}

/** Where a company is, for the sentence about the nearest match: "(Tokyo, 9,682 km)". */
function whereAbout(c: Listed): string {
  const loc = locationOf(c);
  const parts = [loc.city || loc.country, typeof c.distance_km === 'number' ? km(c.distance_km) : ''].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** The verdict of a card, written as text (never colour alone), with the distance to a named place. */
function verdictNote(label: 'Clear match' | 'Possibly related', place: string | undefined): (c: Listed) => SafeHtml {
  return (c) => {
    const facts: string[] = [];
    if (place && typeof c.distance_km === 'number') facts.push(c.distance_km < 1 ? `in ${place}` : `${km(c.distance_km)} from ${place}`);
    if (place && (c.service_type === 'remote' || c.service_type === 'hybrid')) facts.push('works remotely');
    if (place && c.service_type === 'nationwide') facts.push('serves the whole country');
    return html`<p class="verdict"><span class="label ${label === 'Clear match' ? 'strong' : 'partial'}">${label}</span>${facts.length ? html` <span class="meta">${facts.join(', ')}</span>` : ''}</p>`;
  };
}

/** The sentences at the top of a text search: what was found, judged by the verdicts, and what to do next. */
function textSummary(ctx: SiteContext, q: SearchParams, r: TextResults, page: number, listed: number): SafeHtml {
  const lines: SafeHtml[] = [];
  const scope = scopeOf(q);
  const { here, elsewhere, partial, place } = r;
  const partialLine = () => html`${plural(partial.length, 'profile shares', 'profiles share')} some words or meaning with your search; ${partial.length === 1 ? 'it is' : 'they are'} listed below as possibly related, not as ${partial.length === 1 ? 'a match' : 'matches'}.`;
  if (here.length > 0) {
    lines.push(html`${plural(here.length, 'clear match', 'clear matches')} for “${place?.need ?? r.query}”${place ? ` in or serving ${place.name}` : ''}${scope}.${elsewhere.length ? ` ${plural(elsewhere.length, 'more clear match is', 'more clear matches are')} farther away.` : ''}`);
    if (partial.length) lines.push(partialLine());
  } else if (place && elsewhere.length > 0) {
    const nearest = elsewhere[0]!;
    // Unknown distances sort last: when even the first has none, it is not called the nearest.
    const lead = typeof nearest.distance_km === 'number' ? 'The nearest' : 'A clear match elsewhere';
    lines.push(html`${nothingInPlace(place.need ?? r.query, place.name)} ${lead}: <a href="/companies/${nearest.slug}">${nearest.name}</a>${whereAbout(nearest)}.${elsewhere.length > 1 ? ` ${plural(elsewhere.length - 1, 'more clear match', 'more clear matches')} farther away ${elsewhere.length > 2 ? 'are' : 'is'} listed below.` : ''}`);
    if (partial.length) lines.push(partialLine());
  } else {
    lines.push(html`Nothing in the directory clearly fits “${r.query}”${scope}.`);
    if (r.unmatched.length) lines.push(html`${unmatchedSentence(r.unmatched)}`);
    const filtered = Boolean(q.category || q.city || q.country);
    const browse = q.category
      ? html`<a href="/categories/${categorySlug(q.category)}">see every ${q.category} company</a>`
      : html`<a href="/categories">browse the categories</a>`;
    lines.push(html`Try other words or a broader request${filtered ? html`, <a href="${searchHref(ctx, { q: r.query })}">search without the filters</a>` : ''}, or ${browse}.`);
    if (partial.length) lines.push(partialLine());
  }
  if (r.found > listed) lines.push(html`Only the closest ${listed} of ${r.found} results are listed: add words or a filter to narrow the search.`);
  const from = (page - 1) * PAGE_SIZE + 1;
  if (page > 1 && from > listed) lines.push(html`This page is past the end of the results: <a href="${searchHref(ctx, { ...q })}">back to the first page</a>.`);
  else if (listed > PAGE_SIZE) lines.push(html`Showing ${from}–${Math.min(listed, page * PAGE_SIZE)} of ${listed}.`);
  return html`<div class="summary" role="status">${lines.map((l) => html`<p>${l}</p>`)}</div>`;
}

/** One page of a text search, grouped by verdict: clear matches, clear matches elsewhere, possibly related. */
function textPage(ctx: SiteContext, q: SearchParams, r: TextResults, page: number): SafeHtml {
  const groups = [
    { id: 'matches', list: r.here },
    { id: 'elsewhere', list: r.elsewhere },
    { id: 'related', list: r.partial },
  ] as const;
  const ordered = groups.flatMap((g) => g.list.map((c) => ({ group: g.id, c })));
  const slice = ordered.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const on = (id: string) => slice.filter((s) => s.group === id).map((s) => s.c);
  const place = r.place?.name;
  const section = (id: string, heading: string, note: SafeHtml | '', list: Listed[], label: 'Clear match' | 'Possibly related') =>
    list.length ? html`<section aria-labelledby="${id}-h"><h2 id="${id}-h">${heading}</h2>${note}${companyCards(list, 'h3', verdictNote(label, place))}</section>` : '';
  return html`${textSummary(ctx, q, r, page, ordered.length)}
${section('matches', place ? `Clear matches in or serving ${place}` : 'Clear matches', '', on('matches'), 'Clear match')}
${section('elsewhere', r.here.length ? 'Clear matches farther away' : 'Clear matches elsewhere, nearest first', html`<p class="note">They do what you asked, but are not in ${place ?? 'that place'} and do not serve it remotely.</p>`, on('elsewhere'), 'Clear match')}
${section('related', 'Possibly related (not a clear match)', html`<p class="note">These profiles share some words or meaning with your search, but nothing in them shows clearly that they do what you asked. Check a profile before you rely on it.</p>`, on('related'), 'Possibly related')}
${pager(ctx, '/search', { ...q }, page, page * PAGE_SIZE < ordered.length)}`;
}

/** "We don't know the category “Energy”. Did you mean Energy & Utilities?", with links to the search that works. */
function unknownFilters(ctx: SiteContext, q: SearchParams, problems: UnknownFilter[]): SafeHtml {
  const known: Record<string, string | undefined> = { ...q };
  for (const p of problems) known[p.field] = undefined;
  const lines = problems.map((p) => {
    const fix = p.suggestion
      ? html`Did you mean <a href="${searchHref(ctx, { ...known, [p.field]: p.suggestion })}">${p.suggestion}</a>?`
      : p.field === 'category'
        ? html`Choose one from the list, or <a href="/categories">browse the categories</a>.`
        : html`Give its English name (Germany) or its code (DE).`;
    return html`<p>We don't know the ${p.field} “${p.value}”. ${fix}</p>`;
  });
  const without = problems.length === 1 ? 'this filter' : 'these filters';
  return html`<div class="summary" role="status">${lines}<p>Or <a href="${searchHref(ctx, known)}">search without ${without}</a>.</p></div>`;
}

function browseResults(ctx: SiteContext, q: SearchParams, r: { companies: Listed[]; total: number; hasMore: boolean }, page: number): SafeHtml {
  const scope = scopeOf(q);
  const status = r.total === 0
    ? 'No company in the directory matches these filters. Try fewer filters.'
    : `${plural(r.total, 'company', 'companies')}${scope ? ` with these filters${scope}` : ' in the directory'}.`;
  return html`<p role="status">${status}</p>
${r.companies.length ? companyCards(r.companies, 'h2') : ''}
${pager(ctx, '/search', { ...q }, page, r.hasMore)}`;
}

export function searchPage(ctx: SiteContext, q: SearchParams, page: number, view: SearchView): string {
  const params = { q: q.q, category: q.category, country: q.country, city: q.city };
  const what = q.q ? `“${q.q}”` : 'all companies';
  const body = view.kind === 'text' ? textPage(ctx, params, view, page)
    : view.kind === 'browse' ? browseResults(ctx, params, view, page)
      : unknownFilters(ctx, params, view.problems);
  return layout({
    title: `Search: ${q.q || 'all companies'} | ${ctx.siteName}`,
    description: `Search results for ${what} in the ${ctx.siteName} directory: clear matches first, possibly related companies marked as such.`,
    canonical: siteUrl(ctx, '/search', { ...params, page: page > 1 ? page : undefined }),
    siteName: ctx.siteName, baseUrl: ctx.baseUrl,
    // Internal search pages are thin and unbounded: not indexed, their links followed.
    robots: 'noindex,follow',
    alternates: [{ type: 'application/json', href: siteUrl(ctx, '/api/v1/agent/companies', { ...params, limit: 20, offset: page > 1 ? (page - 1) * 20 : undefined }), title: 'These results as JSON (agent API)' }],
  }, html`<h1 id="search-heading">Search the directory</h1>
${searchForm(params, 'search-heading')}
${body}`);
}
