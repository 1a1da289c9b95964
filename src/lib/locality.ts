import { isRegionName } from './regions.js';
import { countryCode } from './countries.js';
import { findCity } from './gazetteer.js';
import { distanceKm } from './geo.js';

/**
 * What the locality of a structured address (schema.org addressLocality and addressRegion) names, checked against
 * the gazetteer (issue 40): a town; a neighbourhood of the bigger city its region names ("Vishrantwadi", region
 * "Pune"); only a region ("California" with no other region: the state, not California, MD); or a town the gazetteer
 * does not know. Pure apart from the lazily loaded gazetteer.
 */
export type LocalityKind = 'town' | 'neighbourhood' | 'region' | 'unknown';

/** A city at least this big, this many times the locality's size and this close to it, is the town a neighbourhood belongs to. */
const NEIGHBOURHOOD = { minPopulation: 100_000, ratio: 10, maxKm: 25 } as const;

export function judgeLocality(city: string, region: string, country: string): { kind: LocalityKind; city: string } {
  const town = city.trim();
  const reg = region.trim();
  const key = (s: string) => s.toLowerCase().replace(/[^\p{L}]+/gu, '');
  const namesRegion = isRegionName(town) || (town.length > 3 && !!countryCode(town));
  if (namesRegion && (!reg || key(reg) === key(town))) return { kind: 'region', city: '' };
  const small = findCity(town, country || undefined);
  // the region names a city (not a state or province) much bigger than the locality and near it
  if (reg.length > 3 && !isRegionName(reg) && !countryCode(reg) && key(reg) !== key(town)) {
    const big = findCity(reg, country || undefined);
    const near = !small || !big || distanceKm(small, big) <= NEIGHBOURHOOD.maxKm;
    if (big && big.population >= NEIGHBOURHOOD.minPopulation && (!small || small.population * NEIGHBOURHOOD.ratio <= big.population) && near) {
      return { kind: 'neighbourhood', city: big.name };
    }
  }
  return { kind: small ? 'town' : 'unknown', city: town };
}

/** A region this big as a town is the city it names (Porto, Lisboa, Madrid), not a small town of a province's name. */
const REGION_TOWN_MIN_POPULATION = 100_000;

/**
 * The town a structured address's region names when it has no locality (session 14): {"addressRegion": "Porto",
 * "postalCode": "4150-387"} is in Porto. Only a region that is no state or province name and that the gazetteer knows
 * as a city of at least 100,000 people in that country; otherwise none.
 */
export function townOfRegion(region: string, country: string): string {
  const reg = region.trim();
  if (reg.length <= 3 || isRegionName(reg) || countryCode(reg)) return '';
  const hit = findCity(reg, country || undefined);
  return hit && hit.population >= REGION_TOWN_MIN_POPULATION ? reg : '';
}
