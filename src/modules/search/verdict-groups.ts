import type { Relevance } from './relevance.js';
import { DEFAULT_RADIUS_KM } from './search.places.js';
import type { SearchResult } from './search.tuning.js';

type Place = NonNullable<SearchResult['place']>;
/** What a listed result needs for the grouping (the agent API's summary and the site's card both have it). */
interface Placed {
  relevance?: Relevance | null | undefined;
  distance_km?: number | null | undefined;
  service_type: string;
  location: unknown;
}

/**
 * Whether a result is in a place named in the query or serves it: within the default radius of a city (or in
 * the named country), remote or hybrid, or nationwide in that country. Ask and the site's search page judge alike.
 */
export function servesPlace(c: Placed, place: Place): boolean {
  const country = (c.location as { country_code?: string } | null)?.country_code;
  if (c.service_type === 'remote' || c.service_type === 'hybrid') return true;
  if (place.scope === 'country') return country === place.country_code;
  if (typeof c.distance_km === 'number' && c.distance_km <= DEFAULT_RADIUS_KM) return true;
  return c.service_type === 'nationwide' && country === place.country_code;
}

/** The results by verdict: strong ones in (or serving) the named place, strong ones elsewhere (nearest first), partial ones. */
export function groupByVerdict<C extends Placed>(list: C[], place: Place | undefined): { inPlace: C[]; elsewhere: C[]; partial: C[] } {
  const strong = list.filter((c) => c.relevance === 'strong');
  return {
    inPlace: place ? strong.filter((c) => servesPlace(c, place)) : strong,
    elsewhere: place ? strong.filter((c) => !servesPlace(c, place)).sort((a, b) => (a.distance_km ?? Infinity) - (b.distance_km ?? Infinity)) : [],
    partial: list.filter((c) => c.relevance === 'partial'),
  };
}
