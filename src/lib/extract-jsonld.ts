import type * as cheerio from 'cheerio';
import { findAddresses } from './address.js';
import { countryName } from './countries.js';
import { toPlainLine, toPlainText } from './text.js';
import { hoursFromSchemaOrg } from './extract-hours.js';
import type { OpeningHours } from './opening-hours.js';

/**
 * The organisation a page describes in structured data: schema.org JSON-LD nodes of an
 * organisation type, and a microdata PostalAddress. Pure, like extract.ts.
 */
export interface StructuredAddress {
  street: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  /** Read from the first of this many branches (subOrganization, department) of an organisation with no address of its own. */
  branches?: number;
}

export interface StructuredOrg {
  types: string[];
  name: string;
  description: string;
  email: string;
  telephone: string;
  url: string;
  logo: string;
  sameAs: string[];
  address: StructuredAddress | undefined;
  areaServed: string[];
  foundingYear: number | undefined;
  services: string[];
  keywords: string[];
  /** openingHoursSpecification / openingHours (lib/extract-hours.ts). */
  openingHours: OpeningHours | undefined;
}

function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return str(v[0]);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return str(o.name ?? o['@value'] ?? o.url ?? o['@id'] ?? '');
  }
  return '';
}

function list(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

function typesOf(node: Record<string, unknown>): string[] {
  return list(node['@type']).map((t) => str(t).replace(/^https?:\/\/schema\.org\//, '')).filter(Boolean);
}

const ORG_TYPES = /Organization|Corporation|LocalBusiness|Store|Restaurant|Service|Agency|Clinic|Dentist|Physician|Attorney|LegalService|Plumber|Electrician|HVACBusiness|RoofingContractor|HomeAndConstructionBusiness|GeneralContractor|AutoRepair|AutoDealer|Hotel|LodgingBusiness|BeautySalon|HairSalon|DaySpa|HealthClub|FinancialService|AccountingService|InsuranceAgency|RealEstateAgent|TravelAgency|EducationalOrganization|School|NGO|Bakery|CafeOrCoffeeShop|FoodEstablishment|MedicalBusiness|MedicalOrganization|ProfessionalService|EmploymentAgency|MovingCompany|Winery|Brewery|Florist|Pharmacy|Optician|VeterinaryCare|Library|Museum|SportsActivityLocation|EntertainmentBusiness|ShoppingCenter|OnlineStore|OnlineBusiness|Farm|Brand|Airline|Consortium|NewsMediaOrganization/;

/**
 * An address written as one string ("Nashville, TN\nUSA", "12 Main St, Springfield, IL 62701"): read by its shape like the
 * page's lines, so the town, region, postcode and country are known; otherwise the whole text as the street.
 */
export function addressOfText(text: string): StructuredAddress | undefined {
  const line = toPlainLine(text);
  if (!line) return undefined;
  const found = findAddresses(text.split(/\n|<br\s*\/?>/i).map(toPlainLine).filter(Boolean))[0];
  if (!found) return { street: line, city: '', region: '', postalCode: '', country: '' };
  return { street: found.street, city: found.city, region: found.region, postalCode: found.postalCode, country: countryName(found.country) ?? found.country };
}

function parseAddress(v: unknown): StructuredAddress | undefined {
  const a = list(v)[0];
  if (!a) return undefined;
  if (typeof a === 'string') return addressOfText(a);
  if (typeof a !== 'object') return undefined;
  const o = a as Record<string, unknown>;
  const addr = splitPostcode({
    street: toPlainLine(str(o.streetAddress)),
    city: toPlainLine(str(o.addressLocality)),
    region: toPlainLine(str(o.addressRegion)),
    postalCode: toPlainLine(str(o.postalCode)),
    country: toPlainLine(str(o.addressCountry)),
  });
  return Object.values(addr).some(Boolean) ? addr : undefined;
}

/**
 * An organisation without an address of its own that lists its branches (schema.org subOrganization or department, each
 * with its address): the first branch's address, saying how many branches there are (session 14).
 */
function branchAddress(node: Record<string, unknown>): StructuredAddress | undefined {
  const found = [...list(node.subOrganization), ...list(node.department)]
    .map((b) => (b && typeof b === 'object' ? parseAddress((b as Record<string, unknown>).address) : undefined))
    .filter((a): a is StructuredAddress => !!a && !!a.city);
  return found[0] ? { ...found[0], branches: found.length } : undefined;
}

function flattenJsonLd(value: unknown, out: Record<string, unknown>[], depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) flattenJsonLd(v, out, depth + 1);
    return;
  }
  const o = value as Record<string, unknown>;
  if (o['@graph']) flattenJsonLd(o['@graph'], out, depth + 1);
  if (o['@type']) out.push(o);
  for (const key of ['publisher', 'provider', 'author', 'brand', 'mainEntity', 'about', 'itemReviewed', 'organizer']) {
    if (o[key] && typeof o[key] === 'object') flattenJsonLd(o[key], out, depth + 1);
  }
}

function orgFrom(node: Record<string, unknown>): StructuredOrg {
  const contactPoints = list(node.contactPoint).filter((c): c is Record<string, unknown> => !!c && typeof c === 'object');
  const email = str(node.email) || contactPoints.map((c) => str(c.email)).find(Boolean) || '';
  const telephone = str(node.telephone) || contactPoints.map((c) => str(c.telephone)).find(Boolean) || '';
  const founding = /\b(1[0-9]{3}|20[0-9]{2})\b/.exec(str(node.foundingDate))?.[1];
  const services: string[] = [];
  for (const offer of list(node.makesOffer)) {
    const o = offer as Record<string, unknown>;
    const name = str(o?.itemOffered ?? o?.name);
    if (name) services.push(name);
  }
  const catalog = list(node.hasOfferCatalog)[0] as Record<string, unknown> | undefined;
  for (const item of list(catalog?.itemListElement)) {
    const o = item as Record<string, unknown>;
    const name = str(o?.itemOffered ?? o?.name);
    if (name) services.push(name);
  }
  for (const s of list(node.knowsAbout)) if (str(s)) services.push(str(s));
  const keywords = list(node.keywords).flatMap((k) => str(k).split(','));
  return {
    types: typesOf(node),
    name: toPlainLine(str(node.name) || str(node.legalName)),
    description: toPlainText(str(node.description)),
    email: email.replace(/^mailto:/i, '').trim().toLowerCase(),
    telephone: toPlainLine(telephone.replace(/^tel:/i, '')),
    url: str(node.url),
    logo: str(node.logo) || str(node.image),
    sameAs: list(node.sameAs).map(str).filter((u) => /^https?:\/\//i.test(u)),
    address: parseAddress(node.address) ?? locationAddress(node.location) ?? branchAddress(node),
    areaServed: list(node.areaServed).map((a) => toPlainLine(str(a))).filter(Boolean),
    foundingYear: founding ? Number(founding) : undefined,
    services: services.map((s) => toPlainLine(s)).filter(Boolean),
    keywords: keywords.map((k) => toPlainLine(k)).filter(Boolean),
    openingHours: hoursFromSchemaOrg(node),
  };
}

/** Every organisation node of the page's JSON-LD blocks (hand-written JSON with stray control characters or trailing commas included). */
export function jsonLdOrgs($: cheerio.CheerioAPI): StructuredOrg[] {
  const orgs: StructuredOrg[] = [];
  $('script[type="application/ld+json"]').each((_, el) => {
    const raw = $(el).text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      try {
        // stray control characters and trailing commas are common in hand-written JSON-LD
        parsed = JSON.parse(raw.replace(/[\u0000-\u001f]+/g, ' ').replace(/,\s*([}\]])/g, '$1'));
      } catch {
        return;
      }
    }
    const nodes: Record<string, unknown>[] = [];
    flattenJsonLd(parsed, nodes);
    for (const n of nodes) if (typesOf(n).some((t) => ORG_TYPES.test(t))) orgs.push(orgFrom(n));
  });
  return orgs;
}

/** Microdata PostalAddress (itemprop); read before boilerplate removal: it often sits in the footer. */
export function microdataAddress($: cheerio.CheerioAPI): StructuredAddress | undefined {
  const md = $('[itemtype*="PostalAddress"]').first();
  if (!md.length) return undefined;
  const prop = (p: string) => toPlainLine(md.find(`[itemprop="${p}"]`).first().text());
  const a = splitPostcode({ street: prop('streetAddress'), city: prop('addressLocality'), region: prop('addressRegion'), postalCode: prop('postalCode'), country: prop('addressCountry') });
  return Object.values(a).some(Boolean) ? a : undefined;
}

/** A locality written with its postcode ("8606 Nänikon", "D-40764 Langenfeld"): the town alone, the code as the postcode when none is given. */
export function splitPostcode(a: StructuredAddress): StructuredAddress {
  const m = /^(?:[A-Z]{1,3}[-–]\s?)?(\d{4,5}|\d{2}-\d{3}|\d{4}\s?[A-Z]{2})\s+(\p{Lu}.*)$/u.exec(a.city);
  return m ? { ...a, city: m[2]!.trim(), postalCode: a.postalCode || m[1]! } : regionInLocality(a);
}

/**
 * A locality that carries the rest of the address ("Francisco CA 94105, USA", the street "535 Mission st, San"): the
 * street and locality read as two lines of a page, by their shape, give the town, region and postcode; when they give no
 * town, the locality stays as written.
 */
function regionInLocality(a: StructuredAddress): StructuredAddress {
  if (!/\d/.test(a.city)) return a;
  const found = findAddresses([a.street, a.city].map(toPlainLine).filter(Boolean))[0];
  if (!found?.city) return a;
  const country = a.country || (countryName(found.country) ?? found.country);
  return { ...a, street: found.street || a.street, city: found.city, region: a.region || found.region, postalCode: a.postalCode || found.postalCode, country };
}

/** An organisation's location given as a PostalAddress itself ("location": {"@type": "PostalAddress", ...}) or as a Place with its address. */
function locationAddress(v: unknown): StructuredAddress | undefined {
  const loc = list(v)[0];
  if (!loc || typeof loc !== 'object') return undefined;
  const o = loc as Record<string, unknown>;
  return typesOf(o).includes('PostalAddress') ? parseAddress(o) : parseAddress(o.address);
}
