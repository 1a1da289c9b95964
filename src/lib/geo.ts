import { countryCode, countryName } from './countries.js';
import { findCity, largestCity } from './gazetteer.js';

/** A point on Earth with the name it was resolved from. */
export interface Place {
  name: string;
  /** ISO 3166-1 alpha-2; empty for a bare coordinate pair. */
  countryCode: string;
  latitude: number;
  longitude: number;
  /** A whole country ("in Germany", "anywhere in Scotland"): no radius; the point is its largest city. Default: a city. */
  scope?: 'city' | 'country';
}

const EARTH_RADIUS_KM = 6371;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The coordinates of a company's city, or nulls when the gazetteer does not know it. */
export function cityCoordinates(city: string, country: string): { latitude: number | null; longitude: number | null } {
  const hit = city.trim() ? findCity(city, country || undefined) : undefined;
  return hit ? { latitude: hit.latitude, longitude: hit.longitude } : { latitude: null, longitude: null };
}

const COORDINATES = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

/**
 * A `near` value: "lat,lng" (decimal degrees) or a place name, optionally with its country
 * ("Munich", "London, UK", "Portland, US"). Undefined when neither reads as a place.
 */
export function resolvePlace(input: string): Place | undefined {
  const coords = COORDINATES.exec(input);
  if (coords) {
    const latitude = Number(coords[1]);
    const longitude = Number(coords[2]);
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
    return { name: `${latitude},${longitude}`, countryCode: '', latitude, longitude };
  }
  const [cityPart = '', ...rest] = input.split(',');
  const country = rest.length ? countryCode(rest.join(',').trim()) : undefined;
  if (rest.length && !country) return undefined;
  const hit = findCity(cityPart.trim(), country);
  return hit ? { name: hit.name, countryCode: hit.country, latitude: hit.latitude, longitude: hit.longitude } : undefined;
}

/** Words that introduce a place ("a dentist in Munich", "movers near Leeds"). */
const PLACE_INTRO = /\b(in|near|around|nearby|close to|outside|from|within reach of|bei|à|en|cerca de)\s+(?:the\s+)?/giu;
/**
 * Words that are also city names somewhere ("Reading", "Mobile", "Nice", "Of"): read as a place
 * only when written with a capital after a place word.
 */
const COMMON_WORDS = new Set([
  'me', 'my', 'us', 'you', 'town', 'city', 'area', 'general', 'time', 'person', 'office', 'house', 'home', 'mind', 'total', 'order',
  'place', 'stock', 'case', 'need', 'addition', 'particular', 'touch', 'good', 'best', 'future', 'short', 'advance', 'progress',
  'reading', 'mobile', 'nice', 'bath', 'deal', 'march', 'orange', 'university', 'hope', 'paradise', 'victoria', 'florence',
  'english', 'german', 'french', 'spanish', 'person', 'bulk', 'demand', 'business', 'private', 'public', 'charge', 'front',
]);
const WORD = /[\p{L}][\p{L}.'’-]*/gu;

/** Short codes that read as a country in running text (not "IT", "CA", "DE" or "US" in lower case). */
const COUNTRY_ABBREVIATIONS = new Set(['UK', 'USA', 'US', 'UAE', 'U.S.', 'U.K.']);

/** The country a phrase names, when it reads as one: a name (or nation, "Scotland") of four letters or more, or a well-known abbreviation. */
function countryNamed(phrase: string, capitalised: boolean): string | undefined {
  if (phrase.replace(/\./g, '').length <= 3) return COUNTRY_ABBREVIATIONS.has(phrase) ? countryCode(phrase) : undefined;
  if (!capitalised && COMMON_WORDS.has(phrase.toLowerCase())) return undefined;
  return countryCode(phrase);
}

/** A place named in free text, with the words that named it (to be taken out of the query). */
export interface PlaceInText {
  place: Place;
  /** The matched span of the text, including the word that introduced it. */
  phrase: string;
  /** The text without that span. */
  rest: string;
}

/**
 * Finds a place named in a query or question: after a place word ("in", "near", ...), a country
 * ("in Germany", "anywhere in Scotland") or the longest run of up to three words the gazetteer knows; a lower-case word must be a city of at least
 * 100,000 people that is not also a common word. Only the most populous city of a name counts
 * ("London" is London, GB). Undefined when nothing reads as a place.
 */
export function findPlaceInText(text: string): PlaceInText | undefined {
  for (const intro of text.matchAll(PLACE_INTRO)) {
    const start = intro.index + intro[0].length;
    const words = [...text.slice(start).matchAll(WORD)].slice(0, 3);
    // Words must follow each other with only spaces between them (no comma, no full stop).
    const run: RegExpExecArray[] = [];
    for (const w of words) {
      const prev = run[run.length - 1];
      const gap = prev ? text.slice(start + prev.index + prev[0].length, start + w.index) : text.slice(start, start + w.index);
      if (!/^\s*$/.test(gap)) break;
      run.push(w as unknown as RegExpExecArray);
    }
    for (let n = run.length; n >= 1; n--) {
      const span = run.slice(0, n);
      const phraseText = span.map((w) => w[0]).join(' ').replace(/[.'’-]+$/u, '');
      const capitalised = span.every((w) => /^\p{Lu}/u.test(w[0]));
      const key = phraseText.toLowerCase();
      if (!capitalised && (COMMON_WORDS.has(key) || key.length < 3)) continue;
      const last = span[n - 1]!;
      let end = start + last.index + last[0].length;
      // A country (or a nation of one, "Scotland"): the whole country, before any city of that name.
      // "from the UK": where something comes from, not where the work is.
      const country = /^from\b/i.test(intro[0]) ? undefined : countryNamed(phraseText, capitalised);
      if (country) {
        const hub = largestCity(country);
        const rest = `${text.slice(0, intro.index)} ${text.slice(end)}`.replace(/\s+/g, ' ').trim();
        return {
          place: { name: countryName(country) ?? phraseText, countryCode: country, latitude: hub?.latitude ?? 0, longitude: hub?.longitude ?? 0, scope: 'country' },
          phrase: text.slice(intro.index, end),
          rest: rest || text,
        };
      }
      // "Paris, France" / "Portland, US": the country after a comma picks the city and joins the phrase.
      // Two capitals are an acronym ("help in IT", "HR", "PR"), not a city's alternate name.
      if (/^\p{Lu}{2}$/u.test(phraseText)) continue;
      const countryAfter = /^\s*,\s*([\p{L}][\p{L} .]*?)\s*(?=$|[,.;!?])/u.exec(text.slice(end));
      const cityCountry = countryAfter ? countryCode(countryAfter[1]!) : undefined;
      const hit = cityCountry ? findCity(phraseText, cityCountry) : findCity(phraseText);
      if (!hit) continue;
      if (!capitalised && hit.population < 100_000) continue;
      if (capitalised && COMMON_WORDS.has(key) && hit.population < 100_000) continue;
      if (cityCountry && countryAfter) end += countryAfter[0].length;
      const phrase = text.slice(intro.index, end);
      const rest = `${text.slice(0, intro.index)} ${text.slice(end)}`.replace(/\s+/g, ' ').trim();
      return { place: { name: hit.name, countryCode: hit.country, latitude: hit.latitude, longitude: hit.longitude }, phrase, rest: rest || text };
    }
  }
  return trailingCity(text);
}

/**
 * A city written last in a short query without a place word ("Zahnarzt Hamburg", "dentist munich",
 * "Lastenrad Lieferdienst Berlin"): the longest run of up to three last words that the gazetteer knows as a
 * city of at least 20,000 people when capitalised, 500,000 in lower case, never a common word, and never the
 * whole query (a company called "Berlin" is a name).
 */
function trailingCity(text: string): PlaceInText | undefined {
  const words = [...text.matchAll(WORD)];
  if (words.length < 2 || words.length > 8 || /[,.;!?]\s*$/.test(text.trim())) return undefined;
  for (let n = Math.min(3, words.length - 1); n >= 1; n--) {
    const span = words.slice(-n);
    // Only spaces between the words, and nothing after the last one.
    if (text.slice(span[n - 1]!.index + span[n - 1]![0].length).trim()) return undefined;
    if (span.some((w, i) => i > 0 && !/^\s+$/.test(text.slice(span[i - 1]!.index + span[i - 1]![0].length, w.index)))) continue;
    const phraseText = span.map((w) => w[0]).join(' ');
    const key = phraseText.toLowerCase();
    if (COMMON_WORDS.has(key) || key.length < 3 || /^\p{Lu}{2,3}$/u.test(phraseText)) continue;
    const capitalised = span.every((w) => /^\p{Lu}/u.test(w[0]));
    const hit = findCity(phraseText);
    if (!hit || hit.population < (capitalised ? 20_000 : 500_000)) continue;
    const start = span[0]!.index;
    return { place: { name: hit.name, countryCode: hit.country, latitude: hit.latitude, longitude: hit.longitude }, phrase: text.slice(start).trim(), rest: text.slice(0, start).trim() };
  }
  return undefined;
}
