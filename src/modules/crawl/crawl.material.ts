import type { ExtractedPage, StructuredOrg } from '../../lib/extract.js';
import { countryCode, countryName } from '../../lib/countries.js';
import { placeKey } from '../../lib/gazetteer.js';
import { judgeLocality, townOfRegion } from '../../lib/locality.js';
import { toPlainLine, toPlainText } from '../../lib/text.js';
import { normalizeDomain, onSameSite } from '../../lib/url.js';
import type { ServiceType } from '../companies/companies.schemas.js';
import { selfDescribedLocation } from './crawl.self-described.js';
import { CONFIDENCE_FLOOR, knownCity, type FieldSource, type Identity, type Material } from './crawl.types.js';

/**
 * What a site states, read without judgement: the pages' organisation nodes merged, contacts
 * (contact pages first), addresses, and the deterministic readings of name, description, place,
 * service type, services and industry that both analysers (model and deterministic) start from.
 */
const GENERIC_TYPES = /^(Organization|Corporation|LocalBusiness|Store|ProfessionalService|OnlineBusiness|Brand|WebSite|WebPage|Thing)$/;
const LOCAL_TYPES = /Plumber|Electrician|HVAC|Roofing|Contractor|Restaurant|Bakery|Cafe|Dentist|Physician|Clinic|Salon|Spa|Hotel|AutoRepair|AutoDealer|Store|Pharmacy|Optician|Veterinary|LocalBusiness|Locksmith|Painter|BarOrPub|HealthClub/;

const PHONE_COUNTRY: [string, string][] = [
  ['+351', 'PT'], ['+353', 'IE'], ['+358', 'FI'], ['+420', 'CZ'], ['+971', 'AE'],
  ['+44', 'GB'], ['+49', 'DE'], ['+33', 'FR'], ['+34', 'ES'], ['+39', 'IT'], ['+31', 'NL'], ['+43', 'AT'], ['+41', 'CH'],
  ['+32', 'BE'], ['+45', 'DK'], ['+46', 'SE'], ['+47', 'NO'], ['+48', 'PL'], ['+61', 'AU'], ['+64', 'NZ'], ['+81', 'JP'],
  ['+91', 'IN'], ['+55', 'BR'], ['+52', 'MX'], ['+65', 'SG'], ['+27', 'ZA'], ['+30', 'GR'], ['+36', 'HU'], ['+40', 'RO'],
];

const US_STATES = new Set('AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC'.split(' '));

function pageKind(p: ExtractedPage, re: RegExp): boolean {
  try {
    return re.test(new URL(p.url).pathname);
  } catch {
    return false;
  }
}

export function assembleMaterial(pages: ExtractedPage[], siteUrl: string): Material {
  const domain = normalizeDomain(siteUrl) ?? '';
  const home = pages.find((p) => new URL(p.url).pathname === '/' || /^\/(index\.\w+)?$/.test(new URL(p.url).pathname)) ?? pages[0];
  // An organisation whose address is another site's is the site's maker or publisher ("JTnet, Inc." as the #creator), not the business
  const orgs = pages.flatMap((p) => p.orgs).filter((o) => !o.url || onSameSite(o.url, domain));
  // The richest organisation node wins; a specific business type breaks ties.
  const filled = (o: StructuredOrg) => [
    o.name,
    o.description,
    o.email,
    o.telephone,
    o.address?.city,
    o.address?.country,
    o.logo,
  ].filter(Boolean).length + (o.types.some((t) => !GENERIC_TYPES.test(t)) ? 0.5 : 0);
  const org = orgs.sort((a, b) => filled(b) - filled(a))[0];
  if (org) {
    // Fill gaps from other nodes describing the same organisation.
    for (const o of orgs) {
      if (o === org) continue;
      if (o.name && org.name && o.name.toLowerCase() !== org.name.toLowerCase()) continue;
      org.email ||= o.email;
      org.telephone ||= o.telephone;
      org.address ??= o.address;
      org.description ||= o.description;
      org.logo ||= o.logo;
      org.openingHours ??= o.openingHours;
      org.sameAs = [...new Set([...org.sameAs, ...o.sameAs])];
      org.services = [...new Set([...org.services, ...o.services])];
    }
  }
  const contactFirst = [...pages].sort((a, b) => Number(pageKind(b, /contact|kontakt|impressum|imprint/i)) - Number(pageKind(a, /contact|kontakt|impressum|imprint/i)));
  const uniq = (xs: string[]) => [...new Set(xs.filter(Boolean))];
  const PRICING = /pric|preise|tarif|rates|kosten|precios|fees/i;
  const pricingFirst = [...contactFirst].sort((a, b) => Number(pageKind(b, PRICING)) - Number(pageKind(a, PRICING)));
  const social: Record<string, string> = {};
  for (const p of pages) for (const [k, v] of Object.entries(p.social)) social[k] ??= v;
  const languages = uniq(pages.flatMap((p) => [p.lang, ...p.alternateLangs]).filter((l) => /^[a-z]{2}$/.test(l)));
  return {
    domain,
    home,
    pages,
    org,
    emails: uniq([org?.email ?? '', ...contactFirst.flatMap((p) => p.emails)]),
    phones: uniq([org?.telephone ?? '', ...contactFirst.flatMap((p) => p.phones)]),
    addresses: uniq(contactFirst.flatMap((p) => p.addresses)),
    structuredAddress: org?.address ?? pages.map((p) => p.microdataAddress).find(Boolean),
    // Structured hours first; else the fullest schedule written on a page, contact pages first.
    hours: org?.openingHours ?? contactFirst.map((p) => p.hours).filter((h) => h !== undefined).sort((a, b) => Object.keys(b).length - Object.keys(a).length)[0],
    // A pricing page first, then contact pages, then the rest.
    prices: pricingFirst.map((p) => p.prices).find((x) => x !== undefined),
    // One page's list, not a merge: two pages may price the same service differently.
    servicePrices: pricingFirst.map((p) => p.servicePrices).find((x) => x.length > 0) ?? [],
    social,
    languages,
    corpus: `${pages.map((p) => `${p.title}\n${p.metaDescription}\n${p.text}\n${p.addresses.join('\n')}\n${p.emails.join(' ')}\n${p.phones.join(' ')}`).join('\n').toLowerCase()}\n${JSON.stringify(org ?? {}).toLowerCase()}`,
  };
}

export function siteName(m: Material): string {
  if (m.org?.name) return m.org.name;
  const h = m.home;
  if (h?.og.siteName) return h.og.siteName;
  const title = h?.og.title || h?.title || '';
  const parts = title.split(/\s+[|–—:·-]\s+/).map((s) => s.trim()).filter(Boolean);
  if (parts.length) {
    // The part that matches the domain name is the company; otherwise the first.
    const label = m.domain.split('.')[0]!.replace(/-/g, '');
    return parts.find((p) => p.toLowerCase().replace(/[^a-z0-9]/g, '').includes(label)) ?? parts[0]!;
  }
  const label = m.domain.split('.')[0] ?? m.domain;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

export function siteDescription(m: Material): string {
  const about = m.pages.find((p) => pageKind(p, /about|ueber|über|a-propos|company|unternehmen|who-we-are/i));
  const candidates = [m.org?.description, m.home?.metaDescription, m.home?.og.description, about?.paragraphs[0], m.home?.paragraphs[0], m.pages.find((p) => p.paragraphs.length)?.paragraphs[0]];
  const d = candidates.find((c) => c && c.length >= 20) ?? candidates.find(Boolean) ?? '';
  return toPlainText(d).slice(0, 1000);
}

/** City and country from a structured address, then address lines, then the phone's country code. */
export function locate(m: Material): { city: string; country: string; address: string } {
  let city = '';
  let country = '';
  let address = '';
  const sa = m.structuredAddress;
  if (sa) {
    city = sa.city;
    const code = countryCode(sa.country);
    country = code ? (countryName(code) ?? sa.country) : sa.country;
    address = [sa.street, [sa.postalCode, sa.city].filter(Boolean).join(' '), sa.region, country].filter(Boolean).join(', ');
  }
  for (const line of m.addresses) {
    if (city && country) break;
    const us = /([A-Z][\p{L}.]+(?:\s[A-Z][\p{L}.]+)?),\s*([A-Z]{2})\s+\d{5}(?:-\d{4})?\b/u.exec(line);
    if (us && US_STATES.has(us[2]!)) {
      city ||= us[1]!;
      country ||= 'United States';
      address ||= line;
      continue;
    }
    const eu = /\b(?:[A-Z]{1,2}-)?\d{4,5}(?:\s?[A-Z]{2})?\s+([A-ZÄÖÜÉ][\p{L}.-]+(?:[\s-](?:am|an|im|sur|de|del)?\s?[A-ZÄÖÜ][\p{L}.-]+)?)/u.exec(line);
    if (eu) {
      city ||= eu[1]!.replace(/[.,]$/, '');
      address ||= line;
    }
    if (!country) {
      for (const part of line.split(/[,\n]|\s[-–]\s/).map((s) => s.trim())) {
        const code = part.length > 2 ? countryCode(part) : undefined;
        if (code) {
          country = countryName(code) ?? part;
          break;
        }
      }
    }
    // a UK postcode stands alone: "MQ2Y2SL/A" is a product code
    if (/(?<![\w/-])[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}(?![\w/-])/.test(line) && !country) {
      country = 'United Kingdom';
      address ||= line;
      const gb = /,\s*([A-Z][\p{L}]+)\s*,?\s*[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}/u.exec(line);
      if (gb) city ||= gb[1]!;
    }
  }
  if (!country) {
    for (const phone of m.phones) {
      const p = phone.replace(/[\s().-]/g, '').replace(/^00/, '+');
      const hit = PHONE_COUNTRY.find(([prefix]) => p.startsWith(prefix));
      if (hit) {
        country = countryName(hit[1]) ?? '';
        break;
      }
    }
  }
  return { city: toPlainLine(city).slice(0, 100), country: toPlainLine(country).slice(0, 100), address: toPlainLine(address).slice(0, 300) };
}

/**
 * City, country and address: a structured address first; then the main address found by its
 * shape (checked against the gazetteer); then the older line heuristics, whose city is kept only
 * when the gazetteer knows it; the country last from the TLD or the phone's prefix; and with no town
 * found, the town (and an empty country) the site gives as its own in its title, descriptions or
 * site name (crawl.self-described.ts).
 */
export function locateWith(m: Material, id: Identity): Located {
  const { localityDoubt = 0, ...l } = locateRaw(m, id);
  // the town's (and so the address's) confidence less what the site's other addresses put in doubt; the country keeps its own
  const doubt = l.city ? id.cityDoubt(l.city).penalty + localityDoubt : 0;
  return { ...l, cityConfidence: Math.max(0, Math.round((l.confidence - doubt) * 100) / 100) };
}

/** `countrySource`: the country's own provenance when it is not the town's (a town the site only describes itself by). */
type Located = { city: string; country: string; address: string; method: string; url: string; confidence: number; cityConfidence: number; countrySource?: FieldSource | undefined };

/**
 * How far a structured address's locality is in doubt (issue 40): a neighbourhood read as its city is held for the owner;
 * a town the gazetteer does not know and no address on the page repeats is a weak signal; a region read as the town for
 * want of a locality, and the first of several branches read for an organisation without an address, are held too; so is
 * the first office listed (with the main phone) when the page's microdata marks another.
 */
const LOCALITY_DOUBT = { neighbourhood: 0.25, unknownUnconfirmed: 0.15, regionAsTown: 0.25, firstOfBranches: 0.2, microdataOfAnother: 0.2 } as const;

type RawLocated = Omit<Located, 'cityConfidence'> & { localityDoubt?: number };

/** The last resort (issue 40): no town from any address, the one the site describes itself by; its country fills an empty one. */
function locateRaw(m: Material, id: Identity): RawLocated {
  const l = locateFromAddresses(m, id);
  if (l.city) return l;
  const self = selfDescribedLocation(m, id, l.country);
  if (!self) return l;
  if (self.city && self.confidence >= CONFIDENCE_FLOOR.city) {
    // a country known before keeps the provenance it has without a town
    const countrySource = l.country ? (id.country ?? { value: l.country, method: 'address-line', url: '', confidence: 0.5 }) : self.countrySource;
    return { city: self.city, country: self.country, address: l.address, method: 'self-described', url: self.url, confidence: self.confidence, countrySource };
  }
  // no town to keep: the country the texts write fills an empty one
  return l.country || !self.country ? l : { ...l, country: self.country, countrySource: self.countrySource };
}

function locateFromAddresses(m: Material, id: Identity): RawLocated {
  const sa = m.structuredAddress;
  // a page's microdata marks one of the offices it lists, not the first one, which the main phone is written with: the
  // first office, held for the owner since the structured data names another town
  const a0 = id.address;
  if (sa?.city && !m.org?.address && a0?.leadsStructured && a0.confidence >= CONFIDENCE_FLOOR.city) {
    const country = countryName(a0.country) ?? a0.country;
    return { city: a0.city, country, address: a0.value, method: a0.method, url: a0.url, confidence: a0.confidence, localityDoubt: LOCALITY_DOUBT.microdataOfAnother };
  }
  if (sa && (sa.city || sa.country)) {
    const found = locate(m);
    // the structured address names no town: a town read from the page's lines must be one the gazetteer knows ("© 2025 HOMMÉS STUDIO" is no postcode and town)
    let city = !sa.city && found.city && !knownCity(found.city) ? '' : found.city;
    const country = found.country || (id.country ? (countryName(id.country.value) ?? '') : '');
    let localityDoubt = 0;
    if (sa.city && city === toPlainLine(sa.city).slice(0, 100)) {
      const judged = judgeLocality(city, sa.region, countryCode(country) ?? id.country?.value ?? '');
      const onPage = id.locations.some((loc) => placeKey(loc.city) === placeKey(city));
      if (judged.kind === 'neighbourhood') localityDoubt = LOCALITY_DOUBT.neighbourhood;
      else if (judged.kind === 'unknown' && !onPage) localityDoubt = LOCALITY_DOUBT.unknownUnconfirmed;
      city = judged.city;
      // the first of several branches the structured data lists, none of them the organisation's own address
      if ((sa.branches ?? 0) > 1) localityDoubt += LOCALITY_DOUBT.firstOfBranches;
    }
    // no locality, a region that is a big city ("Porto"): that town, held for the owner
    if (!sa.city && !city) {
      city = townOfRegion(sa.region, countryCode(country) ?? id.country?.value ?? '');
      if (city) localityDoubt = LOCALITY_DOUBT.regionAsTown;
    }
    const l = { ...found, city, country };
    if (l.city || !id.address) return { ...l, method: 'structured-address', url: m.pages.find((p) => p.orgs.length || p.microdataAddress)?.url ?? '', confidence: 0.95, localityDoubt };
  }
  const a = id.address;
  if (a && a.confidence >= CONFIDENCE_FLOOR.city) {
    return { city: a.city, country: countryName(a.country) ?? a.country, address: a.value, method: a.method, url: a.url, confidence: a.confidence };
  }
  const l = locate(m);
  const city = l.city && knownCity(l.city) ? l.city : '';
  const country = l.country || (id.country && id.country.confidence >= 0.5 ? (countryName(id.country.value) ?? '') : '');
  return { city, country, address: city ? l.address : '', method: 'address-line', url: '', confidence: city ? 0.55 : 0.3 };
}

export function provenanceOf(m: Material, id: Identity, name: string, loc: ReturnType<typeof locateWith>): Record<string, FieldSource> {
  const out: Record<string, FieldSource> = {};
  out.name = id.name && id.name.value === name ? id.name : { value: name, method: 'fallback', url: m.home?.url ?? '', confidence: 0.2 };
  if (id.phone) out.phone = { value: id.phone.e164, method: id.phone.method, url: id.phone.url, confidence: id.phone.confidence };
  if (loc.city) out.city = { value: loc.city, method: loc.method, url: loc.url, confidence: loc.cityConfidence };
  if (loc.address) out.address = { value: loc.address, method: loc.method, url: loc.url, confidence: loc.city ? loc.cityConfidence : loc.confidence };
  if (loc.country) out.country = loc.countrySource ?? (loc.city ? { value: loc.country, method: loc.method, url: loc.url, confidence: loc.confidence } : (id.country ?? { value: loc.country, method: 'address-line', url: '', confidence: 0.5 }));
  return out;
}

export function serviceTypeOf(m: Material, hasAddress: boolean): ServiceType {
  const text = m.corpus;
  const nationwide = /\b(nationwide|across the (country|uk|us)|all over (the )?(country|germany|france|uk)|bundesweit|deutschlandweit|national coverage|coast to coast|partout en france)\b/.test(text);
  const remote = /\b(remote(ly)?|online|worldwide|clients (around|across) the (world|globe)|anywhere in the world|international clients|fully distributed|virtual)\b/.test(text);
  const local = (m.org?.types ?? []).some((t) => LOCAL_TYPES.test(t) && t !== 'LocalBusiness') ||
    /\b(visit (us|our)|(book|schedule) (a|an|your) (visit|appointment|table|treatment)|your visit|opening hours|öffnungszeiten|our (shop|store|showroom|restaurant|clinic|salon|practice|office) in|walk-ins?|book a table|in-store|on-site|serving (the )?[a-z]+ (area|region)|service area|local(ly)?)\b/.test(text);
  if (nationwide && !remote) return 'nationwide';
  if (local && remote) return 'hybrid';
  if (local || (hasAddress && (m.org?.types ?? []).some((t) => t === 'LocalBusiness'))) return 'local';
  if (nationwide) return 'nationwide';
  return 'remote';
}

export function servicesOf(m: Material): string[] {
  if (m.org?.services.length) return m.org.services.slice(0, 20);
  const page = m.pages.find((p) => pageKind(p, /service|leistung|angebot|what-we-do|solutions|prestations|servicios/i));
  if (!page) return [];
  const items = page.listItems.filter((t) => t.split(' ').length <= 8 && !/@|\+?\d{5,}/.test(t));
  if (items.length) return items.slice(0, 20);
  return page.headings.slice(1).filter((h) => h.split(' ').length <= 8).slice(0, 20);
}

export function industryOf(m: Material): string {
  const specific = (m.org?.types ?? []).find((t) => !GENERIC_TYPES.test(t));
  return specific ? specific.replace(/([a-z])([A-Z])/g, '$1 $2') : '';
}

export function pickEmail(m: Material): string | null {
  const own = m.emails.find((e) => e.endsWith(`@${m.domain}`) || e.endsWith(`.${m.domain}`));
  return own ?? m.emails[0] ?? null;
}
