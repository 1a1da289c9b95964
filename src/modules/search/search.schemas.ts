import { offsetParam } from '../../platform/http.js';
import { Type, type Static } from 'typebox';
import { ServiceTypeSchema } from '../companies/companies.schemas.js';

export const SearchQuerySchema = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 2000, description: 'What the customer needs, in any words. Optional: without it the filtered directory is listed (featured, then verified, then by name).' })),
  category: Type.Optional(Type.String({ maxLength: 100, description: 'One of GET /categories (case-insensitive)' })),
  country: Type.Optional(Type.String({ maxLength: 100, description: 'Country name or ISO code (e.g. Germany, DE, DEU)' })),
  city: Type.Optional(Type.String({ maxLength: 100, description: 'City name (case-insensitive)' })),
  industry: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the industry label (case-insensitive)' })),
  service_type: Type.Optional(ServiceTypeSchema),
  is_verified: Type.Optional(Type.Boolean({ description: 'true returns verified companies only (those that accept proposals)' })),
  near: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A place: a city name, optionally with its country ("Munich", "Portland, US"), or "lat,lng" in decimal degrees. Local companies farther than radius_km are left out; remote and hybrid companies, and nationwide ones of that country, stay unless include_remote=false. Results carry distance_km. An unknown place is 422' })),
  radius_km: Type.Optional(Type.Number({ minimum: 1, maximum: 20000, description: 'With near: how far a local company may be, in km (default 50)' })),
  include_remote: Type.Optional(Type.Boolean({ description: 'With near: false keeps only companies located within radius_km (default true)' })),
  sort: Type.Optional(Type.Union([Type.Literal('relevance'), Type.Literal('distance'), Type.Literal('newest'), Type.Literal('name'), Type.Literal('rating')], { description: 'relevance (default), distance (needs near, or a place named in q), newest (first listed first), name, or rating (best average of published reviews first, companies without reviews last)' })),
  min_rating: Type.Optional(Type.Number({ minimum: 1, maximum: 5, description: 'Keeps companies whose published reviews (from customers of approved proposals) average at least this; companies without reviews are left out' })),
  include_weak: Type.Optional(Type.Boolean({ description: 'Also return weak results (relevance "weak": they share words or meaning with the query but do not meet the need). Default false: only strong and partial matches are returned and counted' })),
  open_now: Type.Optional(Type.Boolean({ description: 'true keeps only companies open at the time of the request by their opening hours, read in each company\'s own time zone (holidays and other exceptions included); companies without known hours are left out' })),
  max_price: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: 'Keeps companies whose lowest price (price_range.from, whatever its unit) is at most this amount in `currency`, converted by reference exchange rates stored with the service (their date is in the discovery file); companies without a price range are left out' })),
  currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217 currency of max_price (default EUR)' })),
  open_at: Type.Optional(Type.String({ format: 'date-time', description: 'Keeps only companies open at this instant (RFC 3339 with an offset or Z, e.g. 2026-12-24T10:00:00+01:00), by their hours in their own time zone; takes precedence over open_now' })),
  updated_since: Type.Optional(Type.String({ format: 'date-time', description: 'Only companies whose profile changed at or after this instant (RFC 3339, e.g. 2026-11-01T00:00:00Z)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
  offset: offsetParam(),
});
export type SearchQuery = Static<typeof SearchQuerySchema>;

export const SearchResponseSchema = Type.Object(
  {
    companies: Type.Array(Type.Ref('CompanySummary')),
    total_found: Type.Integer({ description: 'Companies that matched. For text queries: the strong and partial matches (and the weak ones with include_weak=true), 0 when nothing meets the need; when browsing without q, every company the filters keep' }),
    offset: Type.Integer(),
    limit: Type.Integer(),
    has_more: Type.Boolean(),
    query: Type.String({ description: 'The q that was searched ("" when browsing)' }),
    unmatched_words: Type.Optional(Type.Array(Type.String(), { description: 'Words of a short request (up to six words besides common ones and the place) that no profile in the directory uses, after correcting likely misspellings; present only when there are some. When the first word of a short request is one of them ("calligraphy for our wedding invitations"), nothing is judged a match on meaning alone: the directory lists no one who offers it' })),
    place: Type.Optional(
      Type.Union([
        Type.Object({
          name: Type.String(),
          country_code: Type.String({ description: 'ISO 3166-1 alpha-2; empty for a bare coordinate pair' }),
          latitude: Type.Number(),
          longitude: Type.Number(),
          scope: Type.Union([Type.Literal('city'), Type.Literal('country')], { description: 'city: within radius_km of it; country: a country named in q ("in Germany", "anywhere in Scotland"), whose companies rank first (no distance; latitude/longitude are its largest city)' }),
          source: Type.Union([Type.Literal('near'), Type.Literal('q')], { description: 'near: the near parameter; q: a place named in the query, which ranks companies there (and remote ones) first instead of filtering' }),
          matches_in_place: Type.Integer({ description: 'Results on this page located within the radius, or serving it remotely or nationwide' }),
        }),
        Type.Null(),
      ], { description: 'The place results were ranked or filtered for; present only when there is one' }),
    ),
  },
  { $id: 'SearchResponse' },
);
