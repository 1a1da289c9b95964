import { html, type SafeHtml } from '../../lib/html.js';
import { openStatusLine, schemaOrgHours, weekLines, type OpeningHours } from '../../lib/opening-hours.js';
import { priceLine, type PriceRange, type ServicePrice } from '../../lib/price-range.js';
import type { ReviewList } from '../reviews/reviews.schemas.js';
import type { CompanyProfile, Photo } from '../companies/companies.schemas.js';
import { layout } from './site.layout.js';
import { siteUrl, type SiteContext } from './site.pages.listing.js';
import { categorySlug, locationOf } from './site.listed.js';

export interface CompanyView {
  slug: string;
  profile: CompanyProfile;
  /** Someone owns the listing. */
  claimed: boolean;
  grade?: { score: number; grade: string; scanned_at: string };
  widgetId?: string;
  /** Published reviews and the rating, when there are any. */
  reviews?: ReviewList;
}

export const companyMcpUrl = (ctx: SiteContext, id: string) => `${ctx.baseUrl}/mcp/company/${id}`;
export const discoveryUrl = (ctx: SiteContext) => `${ctx.baseUrl}/${ctx.serviceName}.md`;

const SERVICE_TYPE_LABEL: Record<string, string> = { remote: 'Remote', local: 'Local', nationwide: 'Nationwide', hybrid: 'Local and remote' };

/** A logo the page's CSP lets load: https, or this site's own logo store. */
function logoSrc(ctx: SiteContext, url: string | null): string | undefined {
  if (!url) return undefined;
  return url.startsWith('https://') || url.startsWith(`${ctx.baseUrl}/`) ? url : undefined;
}

/**
 * schema.org data: an Organization, or a LocalBusiness only with a street address (Google needs a
 * name and an address for it); a BreadcrumbList. Never a rating: scan scores are not reviews.
 */
export function companyJsonLd(ctx: SiteContext, v: CompanyView): unknown[] {
  const p = v.profile;
  const where = locationOf(p);
  const page = siteUrl(ctx, `/companies/${v.slug}`);
  const address = where.address.trim();
  const org: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': address ? 'LocalBusiness' : 'Organization',
    '@id': `${page}#org`,
    name: p.name,
    url: p.website_url,
  };
  const logo = logoSrc(ctx, p.logo_url);
  if (logo) org.logo = logo;
  if (p.description) org.description = p.description.slice(0, 500);
  if (address) {
    org.address = {
      '@type': 'PostalAddress',
      streetAddress: address,
      ...(where.city ? { addressLocality: where.city } : {}),
      ...(where.country_code ? { addressCountry: where.country_code } : {}),
    };
  }
  if (p.contact.phone) org.telephone = p.contact.phone;
  if (p.contact.email) org.email = p.contact.email;
  const sameAs = Object.values(p.social_links);
  if (sameAs.length) org.sameAs = sameAs;
  const area = p.service_type === 'local' ? where.city || where.country : where.country;
  if (area) org.areaServed = area;
  if (p.founded_year) org.foundingDate = String(p.founded_year);
  if (p.opening_hours) org.openingHoursSpecification = schemaOrgHours(p.opening_hours as OpeningHours);
  if (p.price_range) org.priceRange = priceLine(p.price_range as PriceRange);
  const servicePrices = (p.service_prices ?? []) as ServicePrice[];
  if (servicePrices.length) org.hasOfferCatalog = offerCatalog(p.name, servicePrices);
  const photos = galleryOf(ctx, p);
  if (photos.length) org.image = photos.map((x) => ({ '@type': 'ImageObject', contentUrl: x.url, width: x.width, height: x.height, ...(x.caption ? { caption: x.caption } : {}) }));
  // Reviews only from customers of proposals approved through the directory (never scan scores).
  if (v.reviews && v.reviews.rating.count > 0) {
    org.aggregateRating = { '@type': 'AggregateRating', ratingValue: v.reviews.rating.average, reviewCount: v.reviews.rating.count, bestRating: 5, worstRating: 1 };
    org.review = v.reviews.reviews.map((r) => ({ '@type': 'Review', author: { '@type': 'Person', name: r.author }, datePublished: r.published_at.slice(0, 10), reviewBody: r.text, reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 } }));
  }
  const crumbs = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: ctx.siteName, item: siteUrl(ctx, '/') },
      { '@type': 'ListItem', position: 2, name: p.category, item: siteUrl(ctx, `/categories/${categorySlug(p.category)}`) },
      { '@type': 'ListItem', position: 3, name: p.name, item: page },
    ],
  };
  return [org, crumbs];
}

/** Each priced service as an Offer of a Service. The price is the lowest ("from", as the page reads it): minPrice says so, maxPrice closes a range. */
function offerCatalog(name: string, prices: ServicePrice[]): Record<string, unknown> {
  return {
    '@type': 'OfferCatalog',
    name: `${name}: prices`,
    itemListElement: prices.map((s) => ({
      '@type': 'Offer',
      itemOffered: { '@type': 'Service', name: s.service },
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        price: s.from,
        minPrice: s.from,
        ...(s.to !== undefined && s.to !== s.from ? { maxPrice: s.to } : {}),
        priceCurrency: s.currency,
        unitText: s.unit,
      },
    })),
  };
}

/** Gallery photos the page's CSP lets load (this site's own photo store). */
function galleryOf(ctx: SiteContext, p: CompanyProfile): Photo[] {
  return ((p.photos ?? []) as Photo[]).filter((x) => x.url.startsWith(`${ctx.baseUrl}/`));
}

/** The gallery: the owner's photos with their captions (the caption, or a plain description, is the alt text). */
function photosSection(ctx: SiteContext, p: CompanyProfile): SafeHtml | '' {
  const photos = galleryOf(ctx, p);
  if (!photos.length) return '';
  return html`<section aria-labelledby="photos-h"><h2 id="photos-h">Photos</h2>
<ul class="gallery">${photos.map((x, i) => html`<li><figure><a href="${x.url}"><img src="${x.url}" alt="${x.caption || `Photo ${i + 1} of ${photos.length} from ${p.name}`}" width="${x.width}" height="${x.height}" loading="lazy"></a>${x.caption ? html`<figcaption>${x.caption}</figcaption>` : ''}</figure></li>`)}</ul>
</section>`;
}

/** Reviews: the rating and the latest published reviews with the company's answers. */
function reviewsSection(v: CompanyView): SafeHtml | '' {
  const r = v.reviews;
  if (!r || r.rating.count === 0) return '';
  return html`<section aria-labelledby="reviews-h"><h2 id="reviews-h">Reviews</h2>
<p><strong>${String(r.rating.average)} out of 5</strong> from ${r.rating.count} ${r.rating.count === 1 ? 'review' : 'reviews'}, each by the customer of a request ${v.profile.name} accepted through this directory.</p>
<ul class="reviews">${r.reviews.map((x) => html`<li><p><span aria-label="${x.rating} out of 5">${'★'.repeat(x.rating)}${'☆'.repeat(5 - x.rating)}</span> <strong>${x.author}</strong> · <time datetime="${x.published_at}">${x.published_at.slice(0, 10)}</time>${x.written_by === 'agent' ? ' · written with their assistant' : ''}</p>
<p>${x.text}</p>${x.reply ? html`<p class="reply"><strong>Answer from ${v.profile.name}:</strong> ${x.reply.text}</p>` : ''}</li>`)}</ul>
</section>`;
}

/** Opening hours: open now or not, the week, and the dated exceptions still ahead (in the company's own time zone). */
function hoursSection(p: CompanyProfile): SafeHtml | '' {
  const hours = p.opening_hours as OpeningHours | null;
  if (!hours) return '';
  const today = new Date().toISOString().slice(0, 10);
  const ahead = (hours.exceptions ?? []).filter((e) => e.date >= today).slice(0, 5);
  return html`<section aria-labelledby="hours-h"><h3 id="hours-h">Opening hours</h3>
${p.open_now !== null ? html`<p class="open-status">${openStatusLine(p.open_now, p.next_change_at)}${p.timezone ? html` <span class="meta">(${p.timezone.replace(/_/g, ' ')} time)</span>` : ''}</p>` : ''}
<table class="hours" aria-labelledby="hours-h"><tbody>${weekLines(hours).map((l) => html`<tr><th scope="row">${l.day}</th><td>${l.text}</td></tr>`)}</tbody></table>
${ahead.length ? html`<p>Exceptions:</p><ul>${ahead.map((e) => html`<li><time datetime="${e.date}">${e.date}</time>: ${e.closed ? 'closed' : (e.hours ?? []).map(([a, b]) => `${a}–${b}`).join(', ')}${e.note ? ` (${e.note})` : ''}</li>`)}</ul>` : ''}
</section>`;
}

/** The price range and, under it, each priced service ("Boiler service: from £80 per visit"). */
function pricesFacts(p: CompanyProfile): SafeHtml | '' {
  const services = (p.service_prices ?? []) as ServicePrice[];
  if (!p.price_range && !services.length) return '';
  return html`<dt>Prices</dt><dd>${p.price_range ? priceLine(p.price_range as PriceRange) : ''}${services.length ? html`<ul class="service-prices">${services.map((s) => html`<li>${s.service}: ${priceLine(s)}</li>`)}</ul>` : ''}</dd>`;
}

function paragraphs(text: string): SafeHtml {
  return html`${text.split(/\n{2,}/).map((t) => t.trim()).filter(Boolean).map((t) => html`<p>${t}</p>`)}`;
}

/** What a person does next, first on a phone: ask for a quote (verified companies), call, write. */
function actionsRow(v: CompanyView): SafeHtml | '' {
  const p = v.profile;
  if (!p.accepts_proposals && !p.contact.phone && !p.contact.email) return '';
  return html`<p class="actions">${p.accepts_proposals ? html`<a class="button" href="/companies/${v.slug}/quote">Ask for a quote</a>` : ''}
${p.contact.phone ? html`<a class="button secondary" href="tel:${p.contact.phone.replace(/[^+\d]/g, '')}">Call ${p.contact.phone}</a>` : ''}
${p.contact.email ? html`<a class="button secondary" href="mailto:${p.contact.email}">Email ${p.name}</a>` : ''}</p>`;
}

export function companyPage(ctx: SiteContext, v: CompanyView): string {
  const p = v.profile;
  const where = locationOf(p);
  const url = siteUrl(ctx, `/companies/${v.slug}`);
  const place = [where.city, where.country].filter(Boolean).join(', ');
  const catPath = `/categories/${categorySlug(p.category)}`;
  const logo = logoSrc(ctx, p.logo_url);
  const mcp = companyMcpUrl(ctx, p.id);
  const summary = p.description || `${p.name}${p.industry ? `, ${p.industry}` : ''}${place ? ` in ${place}` : ''}.`;
  return layout({
    title: `${p.name}${place ? ` (${place})` : ''} | ${ctx.siteName}`,
    description: summary,
    canonical: url, siteName: ctx.siteName, baseUrl: ctx.baseUrl, ogType: 'profile',
    ...(logo ?? galleryOf(ctx, p)[0]?.url ? { ogImage: logo ?? galleryOf(ctx, p)[0]!.url } : {}),
    alternates: [
      { type: 'application/json', href: p.profile_url, title: `${p.name}: directory record (JSON)` },
      { type: 'text/markdown', href: discoveryUrl(ctx), title: `${ctx.siteName} for agents` },
    ],
    jsonLd: companyJsonLd(ctx, v),
  }, html`<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="${catPath}">${p.category}</a></li><li><a href="/companies/${v.slug}" aria-current="page">${p.name}</a></li></ol></nav>
<div class="profile"><article>
${logo ? html`<img class="logo" src="${logo}" alt="${p.name} logo" width="96" height="96">` : ''}
<h1>${p.name}${p.is_verified ? html` <span class="badge" title="The owner confirmed this company">Verified</span>` : ''}</h1>
<p class="meta">${p.industry || p.category}${place ? html` · ${place}` : ''}</p>
${actionsRow(v)}
${p.description ? paragraphs(p.description) : html`<p>No description yet.</p>`}
${photosSection(ctx, p)}
${p.services.length ? html`<h2>Services</h2><ul>${p.services.map((s) => html`<li>${s}</li>`)}</ul>` : ''}
${p.keywords.length ? html`<h2>Keywords</h2><ul class="tags">${p.keywords.map((k) => html`<li>${k}</li>`)}</ul>` : ''}
${reviewsSection(v)}
${v.grade ? html`<h2>Agent readiness</h2><p>Latest scan: <span class="grade">${v.grade.grade}</span> ${v.grade.score}/100, on <time datetime="${v.grade.scanned_at}">${v.grade.scanned_at.slice(0, 10)}</time>. The scan checks how well AI agents can find and use this company's website.</p>` : ''}
<h2>How AI agents reach ${p.name}</h2>
<p>AI assistants find ${p.name} in this directory${p.accepts_proposals ? html` and can send it requests on behalf of their users; the owner answers from a dashboard` : ''}. For developers connecting an assistant:</p>
<ul>
<li><a href="${p.profile_url}">The directory record</a> (JSON)</li>
<li><a href="${mcp}/SKILL.md">SKILL.md</a>: instructions for assistants</li>
<li><a href="${discoveryUrl(ctx)}">The directory's guide for agents</a></li>
</ul>
<details><summary>MCP server address</summary><p><code>${mcp}</code></p></details>
${v.widgetId ? html`<h2>Ask ${p.name}</h2><p>A chat assistant answers questions about ${p.name} from its profile and website (it needs JavaScript).</p><script src="/widget.js" data-widget-id="${v.widgetId}" async></script>` : ''}
</article>
<aside aria-labelledby="contact-h"><h2 id="contact-h">Contact and location</h2>
<dl class="facts">
<dt>Website</dt><dd><a href="${p.website_url}" rel="noopener">${p.domain}</a></dd>
${p.contact.email ? html`<dt>Email</dt><dd><a href="mailto:${p.contact.email}">${p.contact.email}</a></dd>` : ''}
${p.contact.phone ? html`<dt>Phone</dt><dd><a href="tel:${p.contact.phone.replace(/[^+\d]/g, '')}">${p.contact.phone}</a></dd>` : ''}
${where.address ? html`<dt>Address</dt><dd>${where.address}</dd>` : ''}
${place ? html`<dt>Place</dt><dd>${place}</dd>` : ''}
${p.service_areas.length ? html`<dt>Also serves</dt><dd>${p.service_areas.join(', ')}</dd>` : ''}
<dt>Serves</dt><dd>${SERVICE_TYPE_LABEL[p.service_type] ?? p.service_type}</dd>
${p.languages.length ? html`<dt>Languages</dt><dd>${p.languages.join(', ')}</dd>` : ''}
${p.founded_year ? html`<dt>Founded</dt><dd>${p.founded_year}</dd>` : ''}
${pricesFacts(p)}
<dt>Category</dt><dd><a href="${catPath}">${p.category}</a></dd>
</dl>
${hoursSection(p)}
${Object.keys(p.social_links).length ? html`<h3>Elsewhere</h3><ul>${Object.entries(p.social_links).map(([k, u]) => html`<li><a href="${u}" rel="noopener nofollow">${k}</a></li>`)}</ul>` : ''}
${v.claimed ? '' : html`<section class="claim" aria-labelledby="claim-h"><h3 id="claim-h">Is this your business?</h3>
<p>Claim the listing for free to correct the profile and answer the requests AI assistants send ${p.name}. You need an email address at ${p.domain}.</p>
<p><a class="button" href="/app/sign-in?claim=${encodeURIComponent(p.domain)}">Claim this business</a></p></section>`}
</aside></div>`);
}
