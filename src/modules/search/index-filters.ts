import type { SearchFilters } from './search.repo.js';

/** The per-slot columns the search filters read (lower-cased text; NaN where no coordinates). */
export interface FilterColumns {
  category: string[];
  countryCode: string[];
  country: string[];
  city: string[];
  industry: string[];
  serviceType: string[];
  verified: Uint8Array;
  latitude: Float64Array;
  longitude: Float64Array;
}

const EARTH_DIAMETER_KM = 12742;
const rad = (d: number) => (d * Math.PI) / 180;

/** The filters of search.repo.ts's whereFilters, evaluated on the in-memory columns. */
export function filterPredicate(f: SearchFilters, c: FilterColumns): (slot: number) => boolean {
  const tests: ((slot: number) => boolean)[] = [];
  if (f.category) {
    const v = f.category.toLowerCase();
    tests.push((s) => c.category[s] === v);
  }
  if (f.countryCode) {
    const v = f.countryCode;
    tests.push((s) => c.countryCode[s] === v);
  } else if (f.countryName) {
    const v = f.countryName.toLowerCase();
    tests.push((s) => c.country[s] === v);
  }
  if (f.city) {
    const v = f.city.toLowerCase();
    tests.push((s) => c.city[s] === v);
  }
  if (f.industry) {
    const v = f.industry.toLowerCase();
    tests.push((s) => c.industry[s]!.includes(v));
  }
  if (f.serviceType) {
    const v = f.serviceType;
    tests.push((s) => c.serviceType[s] === v);
  }
  if (f.verifiedOnly) tests.push((s) => c.verified[s] === 1);
  if (f.near) {
    const { latitude, longitude, radiusKm, countryCode, includeRemote } = f.near;
    const cosLat = Math.cos(rad(latitude));
    const local = (s: number) => {
      const lat = c.latitude[s]!;
      const lng = c.longitude[s]!;
      if (Number.isNaN(lat) || Number.isNaN(lng)) return false;
      const h = Math.sin(rad(lat - latitude) / 2) ** 2 + cosLat * Math.cos(rad(lat)) * Math.sin(rad(lng - longitude) / 2) ** 2;
      return EARTH_DIAMETER_KM * Math.asin(Math.min(1, Math.sqrt(h))) <= radiusKm;
    };
    if (includeRemote) {
      tests.push((s) => {
        const type = c.serviceType[s];
        return local(s) || type === 'remote' || type === 'hybrid' || (type === 'nationwide' && (c.countryCode[s] === countryCode || countryCode === ''));
      });
    } else tests.push(local);
  }
  return (slot) => {
    for (const t of tests) if (!t(slot)) return false;
    return true;
  };
}

export function hasFilters(f: SearchFilters): boolean {
  return Boolean(f.category || f.countryCode || f.countryName || f.city || f.industry || f.serviceType || f.verifiedOnly || f.near || f.updatedSince);
}
