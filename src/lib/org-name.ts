import { regionOf } from './regions.js';
import { findCity } from './gazetteer.js';
import { romaniseCyrillic } from './romanise.js';

/** One name candidate a page offers, with where on the page it came from (extract-contact.ts reads them). */
export interface NameEvidence {
  value: string;
  source: 'jsonld' | 'microdata' | 'og:site_name' | 'application-name' | 'logo-alt' | 'image-alt' | 'domain-phrase' | 'copyright' | 'legal-line' | 'title' | 'og:title' | 'brand' | 'domain';
}

/**
 * The organisation's own name from the candidates a site offers (structured data, og:site_name,
 * logo alt text, the copyright line, title segments...): each scored by its source, by how well
 * it matches the words of the domain, by agreement between sources, and against the shape of a
 * slogan or keyword list ("Custom License Plates, Aluminum or Plastic, Free Design").
 */
export interface ScoredName {
  value: string;
  source: string;
  url: string;
  score: number;
}

export interface ChosenName extends ScoredName {
  confidence: number;
  candidates: ScoredName[];
}

const SOURCE_WEIGHT: Record<NameEvidence['source'], number> = {
  jsonld: 3.6,
  microdata: 2.6,
  'og:site_name': 2,
  'application-name': 1.6,
  'logo-alt': 1.8,
  'image-alt': 1.1,
  'domain-phrase': 0.8,
  domain: 0.3,
  brand: 1.6,
  copyright: 1.8,
  'legal-line': 1.3,
  'og:title': 0.7,
  title: 0.8,
};

const LEGAL = /[,\s]+(?:LLC|L\.L\.C\.|Inc\.?|Incorporated|Ltd\.?|Limited|Pty\.?\s*Ltd\.?|Pty|LLP|PLLC|P\.A\.|S\.C\.|Corp\.?|GmbH|inc\.)$/i;
// Words of the page's own interface (a menu button's label or alt text, "Skip to content", a footer link) name no business either.
const JUNK = /^(home|homepage|welcome|index|untitled|logo|site logo|main|accueil|default|page not found|coming soon|(main |mobile |open |close )?menu|navigation|toggle navigation|filters?|filter results|refine results|skip to (main )?content|search|close|(shopping )?cart|log ?in|sign in|my account|back to top|privacy policy|terms of (use|service)|terms (&|and) conditions|site ?map|impressum|datenschutz(erklärung)?|legal notice|cookie policy)$/i;
// An image's alt text that describes a badge, a seal or a picture rather than naming the business (issue 40):
// "Secure Site security image", "Equal Housing Lender", "BBB Accredited Business", "Google My Business".
const NOT_A_NAME_ALT = /\b(follow (?:us|me)|(?:like|find|join) us|connect with us|security image|secur(e|ity) (site|seal|badge)|badge|seal|accredit\w*|certified by|award|equal housing|fdic|nmls|bbb|better business bureau|verified|ssl|norton|mcafee|google (my business|reviews?)|five[- ]star|5[- ]star|rating|trustpilot|yelp|member of|as seen on|photo of|picture of|image of|logos|security code|captcha|super lawyers|avvo|martindale)\b/i;
// A credential's badge ("Certified Elder Law Attorney*", "Board Certified Specialist"), or another company's own logo that a page
// shows for its map, payments or social links ("Google", "PayPal", "Facebook")
const BADGE_ALT = /^(?:board[- ])?certified\b|^(?:google(?: maps)?|facebook|twitter|youtube|linkedin|instagram|pinterest|paypal|visa|mastercard|american express|discover)$/i;
// A caption with a year: a banner ("Acme Ltd™ since 1985"), a car from a dealer's stock ("2019 Honda Civic EX"), a product and its year
const YEAR = /\b(?:19|20)\d{2}\b/;

/** An alt text that is a caption, a badge or a stock item rather than the business's name. */
export function altIsNotAName(alt: string): boolean {
  return NOT_A_NAME_ALT.test(alt) || BADGE_ALT.test(alt) || YEAR.test(alt);
}

// A banner's founding tail after the name: "Acme Plumbing — Since 1987", "Acme Roofing Serving Dayton Since 1985", "Est. 1990"
const FOUNDED_TAIL = /\s*(?:[-–—|,:·•]\s*)?(?:(?:proudly\s+|family[- ]owned(?:\s+(?:and|&)\s+operated)?\s+|serving\s+[\p{L} ,.&'-]{2,40}?\s+)?(?:since|est\.?|established|founded|seit|depuis)\s+(?:in\s+)?(?:19|20)\d{2})\.?$/iu;
// Words that say what an image is ("Acme Dental header logo", "Logo light", "Home banner image"): a run of them with one of
// the first kind is a description; the others alone are left ("Perfect Image" is a salon), and before it only a few
// ("Northern Light logo" keeps its light)
const IMAGE_WORD = 'logo|logotype|banner|header';
const IMAGE_BEFORE = 'site|footer|mobile|sticky|retina|transparent';
const IMAGE_AFTER = 'image|img|icon|graphic|picture|photo|mark|white|black|dark|light|colou?r|mono|retina|transparent|sticky|mobile|footer|main|site|small|large|inverse|inverted|reversed|png|svg|jpe?g';
const IMAGE_RUN = `(?:(?:${IMAGE_WORD}|${IMAGE_BEFORE})\\s+)*(?:${IMAGE_WORD})(?:\\s+(?:${IMAGE_WORD}|${IMAGE_AFTER}))*`;
const IMAGE_TAIL = new RegExp(`\\s+${IMAGE_RUN}$`, 'i');
const IMAGE_HEAD = new RegExp(`^${IMAGE_RUN}\\s*[:–-]?\\s+`, 'i');
const IMAGE_ONLY = new RegExp(`^(?:(?:${IMAGE_WORD}|${IMAGE_AFTER}|home|homepage)(?:\\s+|$))+$`, 'i');
// a file-like alt with the word logo: "logo-acme", "acme-dental-logo-2x"; its other words, in capitals ("Acme Dental")
const LOGO_SLUG = /^[a-z0-9]+(?:[-_][a-z0-9]+)+$/;
const SLUG_NOISE = new RegExp(`^(?:${IMAGE_WORD}|${IMAGE_AFTER}|\\d+x?|v\\d+|new|final)$`, 'i');

/**
 * A name without the town and the state or province written after it ("Acme Realty Invermere BC", "Acme Plumbing, Dayton,
 * Ohio"), when the gazetteer knows the town in that region's country; at least two words of name are left.
 */
export function withoutTownTail(value: string): string {
  const m = /^(.+?),?\s+(\p{Lu}{2,3}|\p{Lu}\p{Ll}+(?:\s\p{Lu}\p{Ll}+)?)$/u.exec(value);
  const region = m ? regionOf(m[2]!) : undefined;
  if (!m || !region) return value;
  const words = m[1]!.replace(/,$/, '').split(/\s+/);
  for (let k = Math.min(3, words.length - 2); k >= 1; k--) {
    const town = words.slice(-k).join(' ').replace(/,$/, '');
    // "Bank of Springfield IL": a town after "of" or "in" is part of the name
    const rest = words.slice(0, -k).join(' ').replace(/,$/, '');
    if (/^\p{Lu}/u.test(town) && !/\s(?:of|in|at|the|and|&|de|du|la)$/i.test(rest) && findCity(town, region.country, region.state)) return rest;
  }
  return value;
}

/** An image's alt text without what describes the image; empty when nothing else is left. */
function altName(alt: string, source: NameEvidence['source']): string {
  if (source === 'logo-alt' && LOGO_SLUG.test(alt) && /(?:^|[-_])logo(?:$|[-_])/i.test(alt)) {
    const words = alt.split(/[-_]/).filter((w) => !SLUG_NOISE.test(w));
    // "300dpi-triangle-logo-colour-option-7b" is a file's name, not the business's
    if (!words.length || words.length > 4 || words.some((w) => /\d/.test(w))) return '';
    return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
  }
  const s = alt.replace(FOUNDED_TAIL, '').replace(IMAGE_TAIL, '').replace(IMAGE_HEAD, '').trim();
  return IMAGE_ONLY.test(s) ? '' : s;
}

const SLOGAN_WORDS = /\b(for sale|near me|free|best|cheap|affordable|quality|services?|repairs?|installation|experts?|specialists?|solutions|compare|fast|same[- ]day|24\/7|emergency|call|book|shop|online|welcome to|your|our|we|you|in \w+ since)\b/i;

const SITE_BUILDER_DEFAULT = /^(?:.+?['’]?s|my|meine?)\s+(?:webseite|website|web site|homepage|site)!?$/i;

function keyOf(s: string, letters: RegExp): string {
  let t = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  for (let i = 0; i < 2; i++) t = t.replace(LEGAL, '');
  return t.toLowerCase().replace(/&/g, 'and').replace(/^the\s+/, '').replace(letters, '');
}

/**
 * One name however it is written: case, accents, spaces, punctuation, a leading "The" and a legal form aside. Letters of
 * every script count, so "S-Style. Сумки оптом" is not the same name as "S-Style", and "МузДом" is a name at all.
 */
export function nameKey(s: string): string {
  return keyOf(s, /[^\p{L}\p{N}]+/gu);
}

/** A name's key in the domain's letters (Latin, Cyrillic romanised): "МузДом" → muzdom, to compare with muzdom.ru. */
export function domainKey(s: string): string {
  return keyOf(romaniseCyrillic(s), /[^a-z0-9]+/g);
}

/** The registrable label of a domain: fincar.com.au → fincar, www.the-crown.co.uk → thecrown. */
export function domainLabel(domain: string): string {
  const parts = domain.toLowerCase().replace(/^www\./, '').split('.');
  const sld = parts.length >= 3 && /^(co|com|net|org|gov|ac|edu|ltd|plc|asn|id)$/.test(parts[parts.length - 2]!) ? parts[parts.length - 3] : parts[parts.length - 2] ?? parts[0];
  return (sld ?? '').replace(/[^a-z0-9]/g, '');
}

/** A name's words in the domain's letters (Latin without accents, Cyrillic romanised), lower case. */
function domainWords(value: string): string[] {
  return romaniseCyrillic(value).toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').split(/[^a-z0-9]+/);
}

function domainMatch(value: string, label: string): number {
  const key = domainKey(value);
  if (!key || !label) return 0;
  if (key === label) return 2.5;
  if (key.length >= 4 && (label.includes(key) || key.includes(label))) return 1.6;
  const words = domainWords(value).filter((w) => w.length >= 3 && !['the', 'and', 'llc', 'inc', 'ltd', 'pty'].includes(w));
  if (!words.length) return 0;
  const hits = words.filter((w) => label.includes(w)).length;
  // "Kitsilano Family Dental" on kitsdental.ca: initial letters of the words also count
  const initials = words.map((w) => w[0]).join('');
  const prefixHit = label.startsWith(words[0]!.slice(0, 4)) ? 0.3 : 0;
  // the domain is the name's acronym ("Hanns-Seidel-Stiftung" on hss.de)
  if (initials.length >= 3 && label === initials) return 1.6;
  return (1.4 * hits) / words.length + prefixHit + (initials.length >= 2 && label.includes(initials) ? 0.4 : 0);
}

function shapePenalty(value: string, source: string): number {
  let p = 0;
  // SEO titles put the trade before the town: "Electricians Glasgow", "Tyres Townsville"
  const words0 = value.split(/\s+/);
  if ((source === 'title' || source === 'og:title') && words0.length >= 2 && findCity(words0[words0.length - 1]!)) p += 0.8;
  // the comma before a legal form ("Acme Tools, Inc.") lists nothing
  const commas = (value.replace(LEGAL, '').match(/,/g) ?? []).length;
  const words = value.split(/\s+/).length;
  if (commas >= 1) p += 0.8 * commas;
  if (words > 5) p += 0.35 * (words - 5);
  if (SLOGAN_WORDS.test(value)) p += 0.9;
  if (/[!?]$/.test(value)) p += 1;
  // a site builder's default site name, never changed: "training-line-englishs Webseite!", "Jane's Website", "Meine Homepage"
  if (SITE_BUILDER_DEFAULT.test(value)) p += 1.5;
  if (/^[a-z0-9-]+$/.test(value) && value.includes('-')) p += 1.2; // a slug: "bellaluna-salon"
  if (/\.(com|net|org|co|ca|au|uk)\b/i.test(value)) p += 0.6;
  // a web address in lower case ("© shop-acme.co.uk") names the site; "Acme.com" in capitals can be the business's name
  if (/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(value)) p += 0.8;
  return p;
}

/** The last segment of a page's path in name-key letters ("/leistungen/volunteer-work.html" → volunteerwork); empty for a home page. */
function pageSlugKey(url: string): string {
  const path = URL.canParse(url) ? new URL(url).pathname : '';
  const last = path.split('/').filter(Boolean).pop() ?? '';
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // a malformed escape ("%zz") in the page's address: its letters as written
  }
  return domainKey(decoded.replace(/\.[a-z0-9]{2,5}$/i, ''));
}

/** The initials of a name's words, hyphenated parts included, its legal form left out ("Hanns-Seidel-Stiftung e.V." → HSS). */
function acronymOf(name: string): string {
  return name.replace(LEGAL, '').replace(/\s+e\.\s?V\.$/u, '').split(/[\s-]+/).filter((w) => /^\p{Lu}/u.test(w)).map((w) => w[0]).join('');
}

/**
 * A name written with its acronym, "HSS - Hanns-Seidel-Stiftung e.V." or "Hanns-Seidel-Stiftung (HSS)": the name alone,
 * when the acronym is its words' initials. Any other "X - Y" is left to the segment rules.
 */
function withoutAcronym(value: string): string {
  const before = /^(\p{Lu}{2,6})\s+[-–—:]\s+(\p{Lu}.{3,})$/u.exec(value);
  if (before && acronymOf(before[2]!) === before[1]) return before[2]!.trim();
  const after = /^(\p{Lu}.{3,}?)\s+\((\p{Lu}{2,6})\)$/u.exec(value);
  if (after && acronymOf(after[1]!) === after[2]) return after[1]!.trim();
  return value;
}

/** Title-like values are split into their segments; every segment is its own candidate. */
function expand(e: NameEvidence, url: string): ScoredName[] {
  const v = e.value.replace(/^(welcome to|home\s*[-|:]\s*|bienvenue (chez|à))\s*/i, '').replace(/\s*[-|:]\s*home$/i, '').trim();
  // a site name or structured name with a bar is "Name | tagline" ("Hommés Studio | Modern Interior Design")
  const barred = e.source === 'og:site_name' || e.source === 'jsonld' || e.source === 'application-name';
  const segs =
    e.source === 'title' || e.source === 'og:title' || e.source === 'logo-alt'
      ? v.split(/\s+[|–—:·•-]\s+|\s*\|\s*/).map((s) => s.trim()).filter(Boolean)
      : barred
        ? v.split(/\s+\|\s+/).map((s) => s.trim()).filter(Boolean)
        : [v];
  // "Volunteers – The Triangle Volunteer Center" on /volunteers/: the title's segment that spells the page's own address names the page
  const pageSlug = segs.length > 1 && (e.source === 'title' || e.source === 'og:title') ? pageSlugKey(url) : '';
  const out: ScoredName[] = [];
  for (const seg of segs) {
    // "Anwalt Niemeyer (Logo)", "(Logo) Anwalt Niemeyer", "Logo: Acme": the word says what the image is, not who
    let s = seg
      .replace(/\s*[™®℠]\s*/g, ' ')
      .replace(/\s*[([]\s*(?:logo|logotype|banner|image|bild)\s*[)\]]\s*/gi, ' ')
      .replace(/\s+(logo|logotype)(?:\s+(?:icon|image|mark|graphic))?$/i, '')
      .replace(/^logo\s*[:–-]?\s+/i, '')
      .trim();
    s = withoutAcronym(s);
    const alt = e.source === 'logo-alt' || e.source === 'image-alt';
    if (alt) s = altName(s, e.source);
    s = withoutTownTail(s);
    const pageName = pageSlug !== '' && domainKey(s) === pageSlug;
    const score = SOURCE_WEIGHT[e.source] - (segs.length > 1 && (e.source === 'logo-alt' || barred) ? 0.3 : 0) - (pageName ? 1.2 : 0);
    // "Law Offices of Jane Roe, Estate Planning and Elder Law Attorney in Ohio": a title's name before its one comma, then what
    // the business does (a title too long to be a name keeps its head)
    const head = e.source === 'title' || e.source === 'og:title' ? /^([^,]{4,60}),\s+\p{L}[^,]+$/u.exec(s)?.[1] : undefined;
    if (head && head.split(/\s+/).length >= 2 && !LEGAL.test(`, ${s.slice(head.length + 1).trim()}`) && !JUNK.test(head)) out.push({ value: head, source: e.source, url, score: score - 0.3 });
    if (!s || JUNK.test(s) || s.length > 90 || !/\p{L}/u.test(s)) continue;
    // what was left of "Logo del Parco", "logo of the firm": a description of the image, not a name
    if (/^(?:of|for|del|della|dello|de|du|des|der|die|das|von|van|the)\s/.test(s)) continue;
    if (alt && altIsNotAName(s)) continue;
    out.push({ value: s, source: e.source, url, score });
    // "Silkes Weinblatt by Silkes Weinkeller": a publication or product of the business; the part after "by" is a candidate too
    const by = /^(.{2,60}?)\s+by\s+(\p{Lu}.{1,60})$/u.exec(s);
    if (by && e.source !== 'copyright') out.push({ value: by[2]!.trim(), source: e.source, url, score: score - 0.3 });
  }
  return out;
}

/** Below the name's publish threshold (PUBLISH_THRESHOLD.name): the cap of a name nothing else on the site confirms. */
export const UNCORROBORATED_NAME = 0.3;

/**
 * Whether a name is confirmed: it spells the domain's own words (whole, or most of its words), or a second independent
 * source gives the same name. A phrase found because it spells the domain confirms itself.
 */
export function corroborated(value: string, source: string, label: string, sourceCount: number): boolean {
  if (source === 'domain-phrase' || sourceCount >= 2) return true;
  if (domainMatch(value, label) >= 0.7) return true;
  // one distinctive word of the name in the domain ("OnPath Credit Union" on beonpath.org)
  const words = domainWords(value).filter((w) => w.length >= 4);
  return words.some((w) => label.includes(w));
}

/**
 * "Acme Widgets 2" beside "Acme Widgets": a number after a name that another source gives without it is a stray (a footnote,
 * a counter, a slide's number run into the text), not part of the name.
 */
function withoutStrayNumbers(all: ScoredName[]): ScoredName[] {
  const keys = new Map<string, Set<string>>();
  for (const c of all) keys.set(nameKey(c.value), (keys.get(nameKey(c.value)) ?? new Set()).add(c.source));
  const others = (key: string, source: string) => [...(keys.get(key) ?? [])].some((s) => s !== source);
  return all.map((c) => {
    const m = /^(.*\p{L}[.)]?)[\s,-]*\d{1,2}$/u.exec(c.value);
    // "Ebene 11" written so by a second source too is the name with its number
    return m && others(nameKey(m[1]!), c.source) && !others(nameKey(c.value), c.source) ? { ...c, value: m[1]! } : c;
  });
}

// a page's own name run into the business's in a title or heading: "Contact Us Acme Tools", "About Acme Tools, Inc."
const PAGE_WORD = /^(?:contact(?:\s+us)?|about(?:\s+us)?|kontakt|impressum)\s+(?=\p{Lu})/iu;

/** "Contact Acme Tools" beside "Acme Tools": the page's word before a name another candidate gives is not part of it ("Contact Energy" alone stays). */
function withoutPageWords(all: ScoredName[]): ScoredName[] {
  const keys = new Set(all.map((c) => nameKey(c.value)));
  return all.map((c) => {
    const rest = c.value.replace(PAGE_WORD, '');
    return rest !== c.value && keys.has(nameKey(rest)) ? { ...c, value: rest } : c;
  });
}

/**
 * "BetterBuilders" in the copyright line, "Better Builders" in the title and the text: of the spellings of one name that
 * differ only in spaces, the one most sources write is shown (a tie keeps the stronger source's).
 */
function commonSpelling(top: ScoredName, all: ScoredName[]): string {
  const squeeze = (v: string) => v.replace(/\s+/g, '');
  const counts = new Map<string, Set<string>>();
  for (const c of all) {
    if (c.source === 'domain' || c.value === top.value || squeeze(c.value) !== squeeze(top.value)) continue;
    counts.set(c.value, (counts.get(c.value) ?? new Set()).add(c.source));
  }
  const own = new Set(all.filter((c) => c.value === top.value).map((c) => c.source)).size;
  const rival = [...counts.entries()].sort((a, b) => b[1].size - a[1].size)[0];
  return rival && rival[1].size > own ? rival[0] : top.value;
}

const LEGAL_MENTION = new Set(['copyright', 'legal-line']);

/**
 * The chosen name as shown: a legal form read from the copyright holder or a legal line ("Acme Widgets, LLC") is kept only when
 * the site also writes it in its own name elsewhere (title, logo, site name, structured data); the registered entity is
 * not the name the business goes by.
 */
function shownName(top: ScoredName, all: ScoredName[]): string {
  const value = top.value.replace(/\s+/g, ' ');
  if (!LEGAL_MENTION.has(top.source) || !LEGAL.test(value)) return value;
  const key = nameKey(value);
  if (all.some((c) => !LEGAL_MENTION.has(c.source) && c.source !== 'domain' && LEGAL.test(c.value) && nameKey(c.value) === key)) return value;
  const bare = value.replace(LEGAL, '').replace(LEGAL, '').trim();
  return bare && /\p{L}/u.test(bare) ? bare : value;
}

export function chooseName(evidence: { names: NameEvidence[]; url: string }[], domain: string): ChosenName | undefined {
  const label = domainLabel(domain);
  const all = withoutPageWords(withoutStrayNumbers(evidence.flatMap((p) => p.names.flatMap((n) => expand(n, p.url)))));
  // the domain itself is the last resort: fincar.com.au → Fincar
  if (label) all.push({ value: label.charAt(0).toUpperCase() + label.slice(1), source: 'domain', url: evidence[0]?.url ?? '', score: SOURCE_WEIGHT.domain });
  // agreement: distinct sources naming the same organisation
  const sources = new Map<string, Set<string>>();
  for (const c of all) {
    const k = nameKey(c.value);
    if (!k) continue;
    if (!sources.has(k)) sources.set(k, new Set());
    // a phrase found because it spells the domain is not independent evidence
    if (c.source !== 'domain' && c.source !== 'domain-phrase') sources.get(k)!.add(c.source);
  }
  const phrases = all.filter((c) => c.source === 'domain-phrase').map((c) => nameKey(c.value));
  const best = new Map<string, ScoredName>();
  for (const c of all) {
    const k = nameKey(c.value);
    if (!k) continue;
    const agree = (sources.get(k)?.size ?? 1) - 1;
    if (c.source === 'domain') {
      best.set(`domain:${k}`, c);
      continue;
    }
    // a longer name that begins with the words spelling the domain ("Tri-State Crane" + " Rental")
    const extendsPhrase = c.source !== 'domain-phrase' && phrases.some((p) => k.startsWith(p)) ? 0.9 : 0;
    const score = c.score + domainMatch(c.value, label) + Math.min(Math.max(agree, 0), 3) * 0.7 + extendsPhrase - shapePenalty(c.value, c.source);
    const prev = best.get(k);
    // the same name keeps its best score; the variant from the stronger source is shown
    if (!prev || score > prev.score) best.set(k, { ...c, score });
  }
  const ranked = [...best.values()].sort((a, b) => b.score - a.score).map((r) => ({ ...r, value: commonSpelling(r, all) }));
  const top = ranked[0];
  if (!top) return undefined;
  const margin = top.score - (ranked[1]?.score ?? 0);
  let confidence = Math.max(0.1, Math.min(0.99, 0.2 + top.score * 0.12 + Math.min(margin, 3) * 0.08));
  // uncorroborated (issue 40): a name that neither spells the domain's own words nor is given by a second independent
  // source (title, og:site_name, JSON-LD, logo alt, copyright holder...) is only a guess: held for the owner, not published
  if (top.source !== 'domain' && !corroborated(top.value, top.source, label, sources.get(nameKey(top.value))?.size ?? 0)) confidence = Math.min(confidence, UNCORROBORATED_NAME);
  return { ...top, value: shownName(top, all), confidence: Number(confidence.toFixed(2)), candidates: ranked.slice(0, 8).map((r) => ({ ...r, score: Number(r.score.toFixed(2)) })) };
}
