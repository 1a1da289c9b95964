import { closestOption } from '../../lib/closest.js';
import { countryCode, countryNames } from '../../lib/countries.js';
import { distanceKm, findPlaceInText, resolvePlace, type Place } from '../../lib/geo.js';
import { invalid } from '../../platform/errors.js';
import { CATEGORIES } from '../companies/companies.schemas.js';
import { canonicalCategory } from '../companies/company.normalize.js';
import type { SearchFilters } from './search.repo.js';
import type { SearchQuery } from './search.schemas.js';
import type { SearchResult } from './search.tuning.js';

/** Query understanding: the place a search is about, its filters, and what a place adds to a company's rank. Pure. */

/** How far a local company may be from a searched place when the caller does not say (km). */
export const DEFAULT_RADIUS_KM = 50;

/** A place the search is about: from `near` (a filter) or named in q (a ranking preference). */
export interface PlaceContext {
  place: Place;
  source: 'near' | 'q';
  radiusKm: number;
  includeRemote: boolean;
  /** For a place named in q: the words without it (ranks the companies located there). */
  rest?: string;
}

/** How a company fits a place: located there, serving it from afar (remote, hybrid, nationwide), elsewhere, or unknown. */
export type PlaceFit = 'in' | 'serves' | 'far' | 'unknown';

/**
 * What the searched place (named in q, or given as `near`) adds to a company's relevance (scores stay in [0, 1]: divided by 1 +
 * the largest bonus). A bonus, not a factor: among companies that match the words about as well,
 * the one there comes first and remote or nationwide providers next, but a company that matches
 * only the place never outranks one that matches the need (a tax adviser in Munich is no
 * answer to "a dentist in Munich"). When nothing fits there, the best matches elsewhere stay
 * listed, nearest information attached (distance_km). Located there +0.35: it was 0.25 until the
 * tags vector (companies/profile-vector.ts) lifted the semantic score of companies whose tags repeat
 * the query's words, wherever they are; our place queries (seed/eval/queries-places.jsonl) then
 * scored 0.928 nDCG@10 at 0.25 and 1.000 at 0.35 and at 0.4.
 */
export const PLACE_FIT_BONUS: Record<PlaceFit, number> = { in: 0.35, serves: 0.05, unknown: 0, far: 0 };
export const MAX_PLACE_BONUS = 0.35;
export const COUNTRY_IN_BONUS = 0.15;

export interface CandidateFacts {
  latitude: number | null;
  longitude: number | null;
  service_type: string;
  country_code: string;
}

export function distanceTo(ctx: PlaceContext, c: { latitude: number | null; longitude: number | null }): number | null {
  // A country has no centre that a distance could honestly be measured from.
  if (ctx.place.scope === 'country') return null;
  return c.latitude === null || c.longitude === null ? null : distanceKm(ctx.place, { latitude: c.latitude, longitude: c.longitude });
}

export function placeFit(ctx: PlaceContext, c: CandidateFacts): PlaceFit {
  if (ctx.place.scope === 'country') {
    if (c.country_code === ctx.place.countryCode) return 'in';
    return c.service_type === 'remote' || c.service_type === 'hybrid' ? 'serves' : 'far';
  }
  const d = distanceTo(ctx, c);
  if (d !== null && d <= ctx.radiusKm) return 'in';
  if (c.service_type === 'remote' || c.service_type === 'hybrid') return 'serves';
  if (c.service_type === 'nationwide' && (!ctx.place.countryCode || c.country_code === ctx.place.countryCode)) return 'serves';
  return d === null ? 'unknown' : 'far';
}

/** The place of a search (from near, or named in the text) and the text to rank. */
export function resolvePlaceContext(q: SearchQuery): { ctx: PlaceContext | undefined; text: string } {
  const text = (q.q ?? '').trim();
  if (q.near !== undefined) {
    const place = resolvePlace(q.near);
    if (!place) {
      const country = countryCode(q.near);
      throw invalid(['query', 'near'], country
        ? `"${q.near}" is a country: filter with country=${country} (near takes a city, optionally with its country, e.g. "Portland, US", or "lat,lng")`
        : `Unknown place "${q.near}": give a city (optionally with its country, e.g. "Portland, US") or "lat,lng" in decimal degrees`, q.near, 'value_error');
    }
    return { ctx: { place, source: 'near', radiusKm: q.radius_km ?? DEFAULT_RADIUS_KM, includeRemote: q.include_remote ?? true }, text };
  }
  if (q.radius_km !== undefined) throw invalid(['query', 'radius_km'], 'radius_km needs near (the place to measure from)', q.radius_km, 'value_error');
  // A place named in the words ranks by it, unless the caller already filtered by city or country.
  const named = text && !q.city && !q.country ? findPlaceInText(text) : undefined;
  if (named) return { ctx: { place: named.place, source: 'q', radiusKm: DEFAULT_RADIUS_KM, includeRemote: true, rest: named.rest }, text };
  if (q.sort === 'distance') throw invalid(['query', 'sort'], 'sort=distance needs near (or a place named in q)', q.sort, 'value_error');
  return { ctx: undefined, text };
}

/** The companies of a place named in q: within the radius of a city, or in a country (remote ones are ranked, not filtered, there). */
export function placeFilter(ctx: PlaceContext, includeRemote: boolean): Partial<SearchFilters> {
  return ctx.place.scope === 'country' ? { countryCode: ctx.place.countryCode } : { near: nearFilter(ctx, includeRemote) };
}

function nearFilter(ctx: PlaceContext, includeRemote: boolean): NonNullable<SearchFilters['near']> {
  return { latitude: ctx.place.latitude, longitude: ctx.place.longitude, radiusKm: ctx.radiusKm, countryCode: ctx.place.countryCode, includeRemote };
}

/** Enumerated filters accept only known values: an unknown one is a 422 that lists them, never a silent empty page. */
export function resolveFilters(q: SearchQuery, ctx?: PlaceContext): SearchFilters {
  const code = countryCode(q.country);
  if (q.category !== undefined && !canonicalCategory(q.category)) {
    const near = closestOption(q.category, CATEGORIES);
    throw invalid(['query', 'category'], `Unknown category "${q.category}"${near ? `: did you mean "${near}"?` : '.'} Use one of: ${CATEGORIES.join('; ')}`, q.category, 'enum');
  }
  if (q.country !== undefined && q.country.trim() && !code) {
    const near = closestOption(q.country, countryNames());
    throw invalid(['query', 'country'], `Unknown country "${q.country}"${near ? `: did you mean "${near}"?` : '.'} Give an English country name (Germany) or an ISO 3166 code (DE or DEU)`, q.country, 'enum');
  }
  return {
    updatedSince: q.updated_since,
    near: ctx?.source === 'near' ? nearFilter(ctx, ctx.includeRemote) : undefined,
    category: q.category ? (canonicalCategory(q.category) ?? q.category) : undefined,
    countryCode: code,
    countryName: q.country && !code ? q.country : undefined,
    city: q.city?.trim() || undefined,
    industry: q.industry?.trim() || undefined,
    serviceType: q.service_type,
    verifiedOnly: q.is_verified === true,
  };
}

/** The place block of a result and the distance of each company on the page. */
export function withPlace(result: SearchResult, ctx: PlaceContext | undefined, rows: Map<string, CandidateFacts>): SearchResult {
  if (!ctx) return result;
  let matches = 0;
  const list = result.companies.map((c) => {
    const facts = rows.get(c.id);
    if (!facts) return { ...c, distance_km: null };
    const fit = placeFit(ctx, facts);
    if (fit === 'in' || fit === 'serves') matches++;
    const d = distanceTo(ctx, facts);
    return { ...c, distance_km: d === null ? null : Math.round(d * 10) / 10 };
  });
  const { place } = ctx;
  return {
    ...result,
    companies: list,
    place: { name: place.name, country_code: place.countryCode, latitude: place.latitude, longitude: place.longitude, scope: place.scope ?? 'city', source: ctx.source, matches_in_place: matches },
  };
}

/**
 * Ranked candidates with the place's bonus: it grows with how well the company matches the need, up to
 * half the best match, so matching only the place earns little. The need is read from the semantic side
 * when it scored the company (a place's name barely moves the query's vector, while on the keyword side
 * it is a rare, strong word that a company there also matches), else from the fused score. Also under
 * `near`: among about equally relevant companies, the one located there comes before one that only
 * serves it remotely (the filter keeps both).
 */
export function withPlaceBonus<R extends { id: string; score: number }>(
  ranked: R[],
  ctx: PlaceContext,
  facts: Map<string, CandidateFacts>,
  need: { similarity: Map<string, number>; bestSimilarity: number; floor: number },
): R[] {
  const top = ranked.reduce((m, r) => Math.max(m, r.score), 0) || 1;
  const { similarity, bestSimilarity, floor } = need;
  return ranked
    .map((r) => {
      const f = facts.get(r.id);
      const cos = similarity.get(r.id);
      const fitsNeed = cos !== undefined && bestSimilarity > floor ? (cos - floor) / (bestSimilarity - floor) : r.score / top;
      const fit = f ? placeFit(ctx, f) : 'unknown';
      // A country is broad: being in it says less than being in the named city (and a long request may name
      // a country for one of its parts only).
      const bonus = (ctx.place.scope === 'country' && fit === 'in' ? COUNTRY_IN_BONUS : PLACE_FIT_BONUS[fit]) * Math.max(0, Math.min(1, fitsNeed / 0.5));
      return { ...r, score: (r.score + bonus) / (1 + MAX_PLACE_BONUS) };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
