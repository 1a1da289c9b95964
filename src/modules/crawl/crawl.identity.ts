import type { FoundAddress } from '../../lib/address.js';
import { countryCode, ownCurrency } from '../../lib/countries.js';
import { placeKey } from '../../lib/gazetteer.js';
import { chooseName, domainLabel, nameKey } from '../../lib/org-name.js';
import { choosePhone, parsePhone, sameLine, type PhoneCandidate } from '../../lib/phone.js';
import { pageOfTown } from '../../lib/self-described-place.js';
import { locate } from './crawl.material.js';
import { type AnalysedProfile, type FieldSource, type CityDoubt, type Identity, type LlmProfile, type Material, type SiteLocation } from './crawl.types.js';

/** A legal form of American companies closing a name; the sources that write a holder's legal name. */
const AMERICAN_FORM = /\b(?:L\.?L\.?C|Inc|Incorporated)\.?\s*$/i;
const LEGAL_NAME_SOURCES = new Set(['copyright', 'legal-line', 'jsonld']);

/**
 * Who the site belongs to and where to reach it, each field with where it came from (page,
 * method) and a confidence: the organisation's name, the main phone, the main address and the
 * other locations. A field below its confidence floor stays empty rather than guessed.
 */
const TLD_COUNTRY: Record<string, string> = { uk: 'GB', au: 'AU', ca: 'CA', us: 'US', nz: 'NZ', ie: 'IE', de: 'DE', fr: 'FR', nl: 'NL', at: 'AT', ch: 'CH', it: 'IT', es: 'ES', be: 'BE', za: 'ZA', in: 'IN', sg: 'SG' };

// Two-letter endings that are not a country (.eu) or that sites pick for the word (.io, .co, .tv, .me, .ai...).
const NOT_A_COUNTRY = new Set('eu io co tv me ai fm ly to ws cc sh ac gg la nu tk gl'.split(' '));

export function tldCountry(domain: string): string | undefined {
  const tld = domain.toLowerCase().split('.').pop() ?? '';
  if (NOT_A_COUNTRY.has(tld)) return undefined;
  return TLD_COUNTRY[tld] ?? (tld.length === 2 ? countryCode(tld) : undefined);
}

const AU_AREA: Record<string, string> = { NSW: '02', ACT: '02', VIC: '03', TAS: '03', QLD: '07', SA: '08', WA: '08', NT: '08' };

const LANG_COUNTRY: Record<string, string> = { de: 'DE', fr: 'FR', it: 'IT', es: 'ES', nl: 'NL', pt: 'PT', pl: 'PL', sv: 'SE', da: 'DK', nb: 'NO', no: 'NO', fi: 'FI', cs: 'CZ', el: 'GR', hu: 'HU', ro: 'RO', ja: 'JP' };

/**
 * What lowers a town's confidence (chosen on the real-page development set, issue 40): the wrong towns there were
 * one of several towns a site shows with nothing marking the main one, or an address written once on a site
 * with no phone number (a mailbox, a region's office).
 */
const CITY_DOUBT = { rivalsUnconfirmed: 0.2, rivalsConfirmed: 0.05, oneMentionNoPhone: 0.15 } as const;

const MAIN_LABEL = /head\s?office|headquarters|\bhq\b|corporate|main office|registered office|siège/i;

/**
 * The addresses that are the main one before any phone is chosen: the one written with the structured data's own number,
 * else those in the structured address's town, else those labelled head office, else the site's only town, else its only
 * town in the header or footer; none when branches compete.
 */
export function mainAddressBlock<A extends FoundAddress>(found: A[], structured: { city: string; phone: string }): A[] {
  const oneTown = (xs: A[]) => (xs.length && new Set(xs.map((a) => placeKey(a.city))).size === 1 ? xs : []);
  // structured data can disagree with itself (one office's town, the other's number): the number written by an address settles it
  const withPhone = oneTown(found.filter((a) => a.phoneDigits.some((d) => sameLine(d, structured.phone))));
  if (withPhone.length) return found.filter((a) => placeKey(a.city) === placeKey(withPhone[0]!.city));
  if (structured.city) return found.filter((a) => placeKey(a.city) === placeKey(structured.city));
  const labelled = found.filter((a) => MAIN_LABEL.test(a.label));
  if (labelled.length) return oneTown(labelled);
  return oneTown(found).length ? found : oneTown(found.filter((a) => a.chrome));
}

/** Two addresses of one block of lines: on the same page, at most three lines apart ("Snow Hill, MD" over its street and ZIP). */
export function sameBlock(a: { url: string; lineIndex: number }, b: { url: string; lineIndex: number }): boolean {
  return a.url === b.url && Math.abs(a.lineIndex - b.lineIndex) <= 3;
}

/** How many blocks of lines other than a's hold the addresses xs (each block counted once). */
export function otherBlocks<A extends { url: string; lineIndex: number }>(a: A, xs: A[]): number {
  const counted: A[] = [];
  for (const b of [...xs].sort((x, y) => x.url.localeCompare(y.url) || x.lineIndex - y.lineIndex)) {
    if (!sameBlock(a, b) && !counted.some((c) => sameBlock(b, c))) counted.push(b);
  }
  return counted.length;
}

export function identify(m: Material): Identity {
  const pages = m.pages;
  const urlOf = (i: number) => pages[i]?.url ?? '';
  // 1. Addresses found by shape, on every page (home and contact first as assembled)
  const found: (FoundAddress & { url: string; order: number })[] = [];
  // a town without a house number (opening or closing the street) or postcode on a page whose address names it is the page's subject
  // ("Acme Pest Control, Detroit, MI" on "/service-area/detroit-mi")
  const subjectOfPage = (a: FoundAddress, url: string) => !/^\s*\d|\d\s*$/.test(a.street) && !a.postalCode && pageOfTown(url, a.city);
  pages.forEach((p, i) => p.contact.addresses.forEach((a, j) => subjectOfPage(a, p.url) || found.push({ ...a, url: p.url, order: i * 100 + j })));

  // 2. The site's country: structured address, addresses by shape, ccTLD, html lang region, +prefix numbers
  const votes = new Map<string, number>();
  const vote = (c: string | undefined, w: number) => c && votes.set(c, (votes.get(c) ?? 0) + w);
  const structured = m.structuredAddress?.country ? countryCode(m.structuredAddress.country) : undefined;
  vote(structured, 5);
  // a town alone after a street ("Toronto") votes for no country: the same name stands in several
  for (const a of found) if (a.postalCode || a.region) vote(a.country, 1 + a.confidence);
  const tld = tldCountry(m.domain);
  vote(tld, 1.5);
  for (const p of pages.slice(0, 3)) {
    const region = /^[a-z]{2}[-_]([a-z]{2})$/i.exec(p.contact.locale)?.[1]?.toUpperCase();
    vote(region, 0.4);
    // a shop's prices in that country's own currency ("en-US" and priceCurrency USD): a second, independent hint
    if (region && p.contact.currencies.includes(ownCurrency(region) ?? '')) vote(region, 0.3);
  }
  const phoneCands: PhoneCandidate[] = pages.flatMap((p) => p.contact.phones);
  // Australian numbers are often written without their area code ("Ph 6331 1234"): the state gives it
  const auRegion = found.find((a) => a.country === 'AU' && a.region)?.region;
  const area = auRegion ? AU_AREA[auRegion] : undefined;
  if (area) {
    for (const c of [...phoneCands]) if (/^[2-9]\d{7}$/.test(c.raw.replace(/[\s-]/g, ''))) phoneCands.push({ ...c, raw: `${area}${c.raw.replace(/[\s-]/g, '')}` });
  }
  const phoneVoted = new Set<string>();
  for (const c of phoneCands) {
    const prefixed = /^\s*(\+|00)/.test(c.raw) ? parsePhone(c.raw, [])?.country : undefined;
    if (prefixed) phoneVoted.add(prefixed);
    vote(prefixed, 0.5);
  }
  // a registration statement's jurisdiction ("registered in England & Wales"): a legal fact, as strong as a country domain
  // and stronger than a page language's region (site builders write en_US by default); weaker than an address
  const registered = pages.map((p) => p.contact.registeredIn).find((c) => c !== undefined);
  vote(registered, 1.5);
  // an American legal form closing the copyright holder ("Uplifted Yoga LLC"): a weak hint that with an en-US page language
  // (and nothing against them) names the US; either alone stays below the floor (development: both, 47 of 47 American)
  const americanForm = pages.some((p) => p.contact.names.some((n) => LEGAL_NAME_SOURCES.has(n.source) && AMERICAN_FORM.test(n.value)));
  if (americanForm) vote('US', 0.3);
  // the country of an address line no town could be read from ("Business Park" / "Lancashire" / "FY4 5GU"): the last, weakest
  // hint, so that a number written for that country ("0845 ...") is not read as American on a .com site
  const lineCountry = votes.size ? undefined : countryCode(locate(m).country);
  vote(lineCountry, 0.3);
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const siteCountry = ranked[0]?.[0];
  const countryHow = siteCountry === structured ? 'structured-address' : found.some((a) => a.country === siteCountry) ? 'address-shape' : siteCountry === tld ? 'tld' : siteCountry === registered ? 'registration' : siteCountry === lineCountry ? 'address-line' : phoneVoted.has(siteCountry ?? '') ? 'phone-prefix' : americanForm && siteCountry === 'US' ? 'legal-form' : 'page-language';

  // 3. Phone: parsed for the site's country, then the TLD's, then a US guess (valid there or dropped)
  // the page language is a last hint before the US guess: "030 1234567" on a German .com
  const langCountry = pages.map((p) => LANG_COUNTRY[p.lang]).find(Boolean);
  const tries = [siteCountry, tld, ...ranked.map((r) => r[0]), langCountry, 'US'].filter((c): c is string => !!c);
  const calling = pages.flatMap((p) => p.contact.calling);
  const messagingOnly = pages.flatMap((p) => p.contact.messaging).filter((d) => !calling.some((c) => sameLine(c, d)));
  const mainBlock = mainAddressBlock(found, { city: m.structuredAddress?.city ?? '', phone: m.org?.telephone || (phoneCands.find((c) => c.source === 'jsonld' || c.source === 'microdata')?.raw ?? '') });
  // the town and state alone in a tagline ("Acme Homes Huntsville, AL" / "Call Us Today: ...") is a mention, not the address
  // block: the numbers by the main address are those written by one with its street or postcode, when the site writes one
  const fullMain = mainBlock.filter((a) => a.street || a.postalCode);
  const nearMainAddress = (fullMain.length ? fullMain : mainBlock).flatMap((a) => a.phoneDigits);
  const phone = choosePhone(phoneCands, [...new Set(tries)], { nearMainAddress, messagingOnly });

  // 4. Main address: a head-office label, the main phone next to it, the header or footer, repetition, order
  const mainDigits = phone?.e164.replace(/\D/g, '') ?? '';
  // the same line however written: "+49 (0) 99 73 84 59 – 0" (trunk zero, switchboard's -0) is +49 9973 84590
  const nearMainPhone = (a: FoundAddress) => !!mainDigits && a.phoneDigits.some((d) => d.length >= 7 && (mainDigits.endsWith(d.slice(-9)) || sameLine(d, mainDigits)));
  // a number shared by several addresses ("All clinics: ...") says nothing about which one is the main
  const sharedPhone = new Set(found.filter(nearMainPhone).map((a) => a.city.toLowerCase())).size > 1;
  const scored = found
    .filter((a) => !siteCountry || a.country === siteCountry || a.confidence >= 0.8)
    .map((a) => {
      // the other blocks that name the town: a heading and its address a line or two apart are one mention, not two; a
      // town alone ("Bend, OR" in a list of towns served) is no address written again
      const repeats = otherBlocks(a, found.filter((b) => b !== a && b.city.toLowerCase() === a.city.toLowerCase() && !!(b.street || b.postalCode)));
      const nearMain = !sharedPhone && nearMainPhone(a);
      // the site's own header or footer holds its address; body text also lists venues, clients and other firms
      const score = a.confidence + (MAIN_LABEL.test(a.label) ? 0.5 : 0) + (nearMain ? 0.3 : 0) + (a.chrome ? 0.2 : 0) + Math.min(repeats, 3) * 0.1 - a.order * 0.001;
      return { a, score };
    })
    .sort((x, y) => y.score - x.score);
  const main = scored[0]?.a;
  const locations: SiteLocation[] = [];
  const seen = new Set<string>();
  const phonesTaken = new Set<string>();
  for (const { a } of [...scored].sort((x, y) => x.a.order - y.a.order)) {
    const key = `${a.street.toLowerCase()}|${a.city.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // a block's window can reach the number of the block before it: prefer one no earlier address has
    const phones = a.phoneDigits.map((d) => parsePhone(d, [a.country]) ?? parsePhone(`+${d}`, [])).filter((p) => !!p);
    const chosen = phones.find((p) => !phonesTaken.has(p.e164)) ?? phones[0];
    if (chosen) phonesTaken.add(chosen.e164);
    const phone = chosen?.display;
    locations.push({ line: a.line, city: a.city, region: a.region, postal_code: a.postalCode, country: a.country, label: a.label, url: a.url, confidence: a.confidence, ...(phone ? { phone } : {}) });
  }

  // the main address, written with the main phone, comes before every address of the structured data's other town on its page
  const structuredCity = m.structuredAddress?.city ?? '';
  const leadsStructured = (a: FoundAddress & { url: string }) => {
    if (!structuredCity || placeKey(a.city) === placeKey(structuredCity) || sharedPhone || !nearMainPhone(a)) return false;
    const theirs = found.filter((b) => b.url === a.url && placeKey(b.city) === placeKey(structuredCity));
    return theirs.length > 0 && theirs.every((b) => b.lineIndex > a.lineIndex);
  };

  // 5. How much the site confirms a town: other towns competing with it, the main number or a head-office label next to it
  const cityDoubt = (city: string): CityDoubt => {
    const key = city.toLowerCase();
    const blocks = found.filter((a) => a.city.toLowerCase() === key);
    const rivals = new Set(found.filter((a) => a.city && a.city.toLowerCase() !== key).map((a) => a.city.toLowerCase())).size;
    const confirmed = blocks.some((a) => MAIN_LABEL.test(a.label) || (!sharedPhone && nearMainPhone(a)));
    const reasons: string[] = [];
    let penalty = 0;
    if (rivals && !confirmed) {
      penalty += CITY_DOUBT.rivalsUnconfirmed;
      reasons.push('other towns on the site, none marked as the main one');
    } else if (rivals) {
      penalty += CITY_DOUBT.rivalsConfirmed;
      reasons.push('other towns on the site');
    }
    if (!phone && blocks.length <= 1) {
      penalty += CITY_DOUBT.oneMentionNoPhone;
      reasons.push('written once, no phone number to confirm it');
    }
    return { penalty, reasons };
  };

  const name = chooseName(pages.map((p) => ({ names: p.contact.names, url: p.url })), m.domain);
  return {
    name: name ? { value: name.value, method: name.source, url: name.url, confidence: name.confidence } : undefined,
    nameCandidates: (name?.candidates ?? []).filter((c, i) => i === 0 || c.score >= 1.5),
    phone: phone ? { value: phone.display, e164: phone.e164, display: phone.display, method: phone.source, url: phone.url, confidence: phone.confidence } : undefined,
    phoneCandidates: phone ? [phone.e164, ...phone.others] : [],
    // no address, country domain or +prefix: the main number's own country ("(716) 229-0080" on a .com is a US line)
    // the main number valid in the country the votes chose confirms it
    country: siteCountry
      ? { value: siteCountry, method: countryHow, url: urlOf(0), confidence: Math.max(Math.min(0.95, 0.4 + (ranked[0]![1] - (ranked[1]?.[1] ?? 0)) * 0.15), phone?.country === siteCountry ? 0.55 : 0) }
      : phone?.country
        ? { value: phone.country, method: 'phone-number', url: phone.url, confidence: 0.55 }
        : undefined,
    address: main ? { value: main.line, city: main.city, country: main.country, street: main.street, region: main.region, postalCode: main.postalCode, method: 'address-shape', url: main.url, confidence: main.confidence, leadsStructured: leadsStructured(main) } : undefined,
    locations: locations.slice(0, 20),
    cityDoubt,
  };
}

/** The scored candidates the model chooses from. */
export function evidenceText(id: Identity): string {
  const names = id.nameCandidates.slice(0, 6).map((c) => `"${c.value}" (${c.source}, score ${c.score})`);
  const locations = id.locations.slice(0, 6).map((l) => `${l.line}${l.label ? ` [${l.label}]` : ''}`);
  return [
    'Candidates (scored by the crawler, best first):',
    `- name: ${names.join('; ') || 'none'}`,
    `- phone: ${id.phoneCandidates.join('; ') || 'none'}`,
    `- address: ${locations.join(' | ') || 'none'}`,
  ].join('\n');
}

/**
 * The model's name, phone and city are kept only when they are one of the candidates; otherwise
 * (or when the model leaves them empty) the rules' values stand.
 */
export function llmChoices(out: LlmProfile, id: Identity, base: AnalysedProfile): { name?: string; phone?: string | null; city?: string; provenance: Record<string, FieldSource> } {
  const provenance: Record<string, FieldSource> = {};
  const r: { name?: string; phone?: string | null; city?: string; provenance: Record<string, FieldSource> } = { provenance };
  const nameHit = out.name ? id.nameCandidates.find((c) => nameKey(c.value) === nameKey(out.name)) : undefined;
  if (nameHit) {
    r.name = nameHit.value;
    provenance.name = { value: nameHit.value, method: `llm:${nameHit.source}`, url: nameHit.url, confidence: base.provenance.name?.value === nameHit.value ? base.provenance.name.confidence : 0.6 };
  }
  if (out.phone) {
    const countries = [countryCode(base.country) ?? '', id.country?.value ?? '', 'US'].filter(Boolean);
    const e164 = parsePhone(out.phone, countries)?.e164;
    if (e164 && id.phoneCandidates.includes(e164)) {
      r.phone = base.provenance.phone?.value === e164 ? base.phone : (parsePhone(out.phone, countries)?.display ?? null);
      provenance.phone = { value: e164, method: 'llm:candidate', url: base.provenance.phone?.url ?? '', confidence: base.provenance.phone?.value === e164 ? base.provenance.phone.confidence : 0.6 };
    }
  }
  const loc = out.city ? id.locations.find((l) => l.city.toLowerCase() === out.city.trim().toLowerCase()) : undefined;
  if (loc) {
    r.city = loc.city;
    provenance.city = { value: loc.city, method: 'llm:address-shape', url: loc.url, confidence: loc.confidence };
  }
  return r;
}

export { domainLabel };
