import { invalid } from '../../platform/errors.js';
import { countryCode, countryName } from '../../lib/countries.js';
import { cityCoordinates } from '../../lib/geo.js';
import { toE164 } from '../../lib/phone.js';
import { normalizeOpeningHours, type OpeningHours } from '../../lib/opening-hours.js';
import { zoneAt } from '../../lib/time-zone.js';
import { normalizePriceRange, normalizeServicePrices, type PriceRange, type ServicePrice } from '../../lib/price-range.js';
import { toPlainLine, toPlainText } from '../../lib/text.js';
import { canonicalWebsiteUrl, normalizeDomain } from '../../lib/url.js';
import { CATEGORIES, MAX_LOCATIONS, MAX_SERVICE_AREAS, SERVICE_TYPES, type CompanyInput, type CompanyLocation, type ServiceType } from './companies.schemas.js';
import type { CompanyFields, CompanyRecord } from './company.record.js';

/**
 * The rules every company write follows (import, crawl, owner and AI edits, undo): plain text,
 * canonical category and service type, domain from the website, country code from the country,
 * and the fields derived from others (coordinates, E.164 phone). Pure: no store, no model.
 */

const categoryByLower = new Map(CATEGORIES.map((c) => [c.toLowerCase(), c]));

/** The canonical spelling of a category, or undefined when it is not one of the 25. */
export function canonicalCategory(input: string | undefined | null): string | undefined {
  if (!input) return undefined;
  return categoryByLower.get(input.trim().toLowerCase());
}

/** The fields computed from others: the city's coordinates and time zone, and the phone's E.164 form for the company's country. */
export function derivedFields(c: { city: string; country_code: string; phone: string | null }): Pick<CompanyFields, 'latitude' | 'longitude' | 'phone_e164' | 'timezone'> {
  const at = cityCoordinates(c.city, c.country_code);
  return { ...at, timezone: at.latitude !== null && at.longitude !== null ? zoneAt(at.latitude, at.longitude) : null, phone_e164: toE164(c.phone, c.country_code) };
}

/** A price range checked and normalised (lib/price-range.ts); a bad one is a 422 naming the key. */
export function cleanPriceRange(input: unknown, loc: (string | number)[]): PriceRange | null {
  if (input === undefined || input === null) return null;
  const r = normalizePriceRange(input);
  if ('problem' in r) throw invalid([...loc, 'price_range', ...r.path], r.problem, input, 'value_error');
  return r.range;
}

/** Prices per service checked and normalised; null or absent is none; a bad entry is a 422 naming its index and key. */
export function cleanServicePrices(input: unknown, loc: (string | number)[]): ServicePrice[] {
  if (input === undefined || input === null) return [];
  const r = normalizeServicePrices(input);
  if ('problem' in r) throw invalid([...loc, 'service_prices', ...r.path], r.problem, input, 'value_error');
  return r.prices;
}

/** Opening hours checked and normalised (lib/opening-hours.ts); a bad schedule is a 422 naming the exact place. */
export function cleanOpeningHours(input: unknown, loc: (string | number)[]): OpeningHours | null {
  if (input === undefined || input === null) return null;
  const r = normalizeOpeningHours(input);
  if ('problem' in r) throw invalid([...loc, 'opening_hours', ...r.path], r.problem, input, 'value_error');
  return Object.keys(r.hours).length ? r.hours : null;
}

function cleanList(values: string[] | undefined, max = 50): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values ?? []) {
    const s = toPlainLine(v).slice(0, 120);
    const key = s.toLowerCase();
    if (s && !seen.has(key)) {
      seen.add(key);
      out.push(s);
    }
    if (out.length >= max) break;
  }
  return out;
}

/** Other places as plain one-line text, without empty or repeated addresses, at most MAX_LOCATIONS. */
function cleanLocations(values: CompanyLocation[] | undefined): CompanyLocation[] {
  const seen = new Set<string>();
  const out: CompanyLocation[] = [];
  for (const v of values ?? []) {
    const address = toPlainLine(v.address).slice(0, 300);
    const key = address.toLowerCase();
    if (!address || seen.has(key)) continue;
    seen.add(key);
    const phone = v.phone ? toPlainLine(v.phone).slice(0, 50) : '';
    out.push({ address, city: toPlainLine(v.city).slice(0, 100), country: toPlainLine(v.country).slice(0, 100), ...(phone ? { phone } : {}) });
    if (out.length >= MAX_LOCATIONS) break;
  }
  return out;
}

function socialLinks(links: Record<string, string> | undefined): Record<string, string> {
  const social: Record<string, string> = {};
  for (const [k, v] of Object.entries(links ?? {})) {
    const key = toPlainLine(k).toLowerCase().slice(0, 40);
    if (key && typeof v === 'string' && /^https?:\/\//i.test(v)) social[key] = v.trim().slice(0, 500);
  }
  return social;
}

/**
 * Validates and normalises one company for writing, with its derived fields. Throws a
 * 422-shaped AppError naming the field (under `loc`).
 */
export function normalizeCompany(input: CompanyInput, loc: (string | number)[] = ['body']): CompanyFields {
  const name = toPlainLine(input.name).slice(0, 200);
  if (!name) throw invalid([...loc, 'name'], 'Field required', input.name, 'missing');
  const website = canonicalWebsiteUrl(input.website_url ?? '');
  const domain = website ? normalizeDomain(website) : undefined;
  if (!website || !domain) throw invalid([...loc, 'website_url'], 'Input should be a valid website URL or domain', input.website_url, 'url_parsing');
  const category = canonicalCategory(input.category);
  if (!category) throw invalid([...loc, 'category'], `Input should be one of the ${CATEGORIES.length} categories (GET /api/v1/agent/categories)`, input.category, 'enum');
  const serviceType = (input.service_type ?? 'remote') as ServiceType;
  if (!SERVICE_TYPES.includes(serviceType)) throw invalid([...loc, 'service_type'], "Input should be 'remote', 'local', 'nationwide' or 'hybrid'", input.service_type, 'enum');
  const rawCountry = toPlainLine(input.country ?? '');
  const code = countryCode(rawCountry) ?? '';
  const country = rawCountry && code && rawCountry.length <= 3 ? (countryName(code) ?? rawCountry) : rawCountry;
  const founded = input.founded_year ?? null;
  if (founded !== null && (!Number.isInteger(founded) || founded < 1000 || founded > 2100)) {
    throw invalid([...loc, 'founded_year'], 'Input should be a year between 1000 and 2100', founded);
  }
  const city = toPlainLine(input.city).slice(0, 100);
  const phone = input.phone ? toPlainLine(input.phone).slice(0, 50) : null;
  return {
    name,
    website_url: website,
    domain,
    category,
    industry: toPlainLine(input.industry).slice(0, 200),
    description: toPlainText(input.description).slice(0, 5000),
    country: country.slice(0, 100),
    country_code: code,
    city,
    address: toPlainLine(input.address).slice(0, 300),
    service_type: serviceType,
    is_verified: input.is_verified ?? false,
    is_featured: input.is_featured ?? false,
    keywords: cleanList(input.keywords, 30),
    services: cleanList(input.services, 50),
    languages: cleanList(input.languages, 20).map((l) => l.toLowerCase()),
    contact_email: input.contact_email ? toPlainLine(input.contact_email).toLowerCase().slice(0, 254) : null,
    phone,
    locations: cleanLocations(input.locations),
    social_links: socialLinks(input.social_links),
    logo_url: input.logo_url && /^https?:\/\//i.test(input.logo_url) ? input.logo_url.trim().slice(0, 1000) : null,
    founded_year: founded,
    opening_hours: cleanOpeningHours(input.opening_hours, loc),
    price_range: cleanPriceRange(input.price_range, loc),
    service_prices: cleanServicePrices(input.service_prices, loc),
    service_areas: cleanList(input.service_areas, MAX_SERVICE_AREAS).map((a) => a.slice(0, 100)),
    source: input.source ?? 'import',
    ...derivedFields({ city, country_code: code, phone }),
  };
}

/** A stored company as input again, so a partial change goes through the same rules as a whole one. */
export function recordAsInput(row: CompanyRecord): CompanyInput {
  return {
    name: row.name, website_url: row.website_url, category: row.category, industry: row.industry, description: row.description,
    country: row.country, city: row.city, address: row.address, service_type: row.service_type, is_verified: row.is_verified,
    is_featured: row.is_featured, keywords: row.keywords, services: row.services, languages: row.languages, contact_email: row.contact_email,
    phone: row.phone, locations: row.locations, social_links: row.social_links, logo_url: row.logo_url, founded_year: row.founded_year, source: row.source,
    opening_hours: row.opening_hours,
    price_range: row.price_range,
    service_prices: row.service_prices,
    service_areas: row.service_areas,
  };
}
