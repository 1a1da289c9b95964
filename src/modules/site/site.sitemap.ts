import { escapeHtml } from '../../lib/html.js';
import { isoTime } from '../../lib/time.js';
import { CATEGORIES } from '../companies/companies.schemas.js';
import { siteUrl, type SiteContext } from './site.pages.listing.js';
import { categorySlug } from './site.listed.js';

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** The sitemap index: the categories sitemap, then one sitemap per 50,000 companies with its newest change. */
export function sitemapIndex(ctx: SiteContext, chunks: { chunk: number; lastmod: Date }[]): string {
  const newest = chunks.reduce<Date | undefined>((m, c) => (!m || new Date(c.lastmod) > m ? new Date(c.lastmod) : m), undefined);
  const entries = [
    `<sitemap><loc>${escapeHtml(siteUrl(ctx, '/sitemaps/categories.xml'))}</loc>${newest ? `<lastmod>${isoTime(newest)}</lastmod>` : ''}</sitemap>`,
    ...chunks.map((c) => `<sitemap><loc>${escapeHtml(siteUrl(ctx, `/sitemaps/companies-${c.chunk}.xml`))}</loc><lastmod>${isoTime(c.lastmod)}</lastmod></sitemap>`),
  ];
  return `${HEAD}<sitemapindex xmlns="${NS}">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

export function companiesSitemap(ctx: SiteContext, entries: { slug: string; updated_at: Date }[]): string {
  const urls = entries.map((e) => `<url><loc>${escapeHtml(siteUrl(ctx, `/companies/${e.slug}`))}</loc><lastmod>${isoTime(e.updated_at)}</lastmod></url>`);
  return `${HEAD}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`;
}

export function categoriesSitemap(ctx: SiteContext): string {
  const urls = [siteUrl(ctx, '/'), siteUrl(ctx, '/categories'), siteUrl(ctx, '/for-owners'), siteUrl(ctx, '/for-agent-developers'), ...CATEGORIES.map((c) => siteUrl(ctx, `/categories/${categorySlug(c)}`))];
  return `${HEAD}<urlset xmlns="${NS}">\n${urls.map((u) => `<url><loc>${escapeHtml(u)}</loc></url>`).join('\n')}\n</urlset>\n`;
}

export function robotsTxt(ctx: SiteContext): string {
  // /search is not disallowed: its noindex must be seen to be obeyed.
  return `User-agent: *\nAllow: /\nDisallow: /app/\nDisallow: /admin/\n\nSitemap: ${siteUrl(ctx, '/sitemap.xml')}\n`;
}
