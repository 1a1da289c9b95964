import type { Static } from 'typebox';
import { CATEGORIES, type CompanySummary, type LocationSchema } from '../companies/companies.schemas.js';

/** What the public pages list and link: page sizes, category slugs and a company as a card shows it. */

export const PAGE_SIZE = 20;
/** Sitemaps hold at most 50,000 URLs each (sitemaps.org). */
export const SITEMAP_SIZE = 50_000;
/** Deepest result page a person can ask for (search depth is bounded anyway). */
export const MAX_PAGE = 500;

/** "Food & Beverage" → "food-and-beverage". */
export function categorySlug(category: string): string {
  return category.toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
const categoryBySlug = new Map(CATEGORIES.map((c) => [categorySlug(c), c]));
export const categoryOfSlug = (slug: string): string | undefined => categoryBySlug.get(slug);

/** The schemas type `location` as a reference; this is what it holds. */
export type Location = Static<typeof LocationSchema>;
export const locationOf = (c: { location: unknown }): Location => c.location as Location;

export type Listed = CompanySummary & { slug: string };
