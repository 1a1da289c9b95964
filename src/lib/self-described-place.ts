import { isRegionName, regionOf } from './regions.js';
import { countryCode } from './countries.js';
import { isCommonEnglishWord } from './english-words.js';
import { domainLabel } from './org-name.js';
import { findCity, placeKey, type GazetteerCity } from './gazetteer.js';

/**
 * The place a site gives as the business's own in its short self-descriptions (issue 40), for a site that writes no
 * postal address: "Private Yoga in Wilmington, NC", "based in San Diego, California", "Chattanooga's leading vein clinic",
 * "a Denver-based studio", "Vascular Institute of Chattanooga", "mit Sitz in Hamburg", "basé à Lyon". A town it only
 * serves ("serving Raleigh", "throughout Leeds", "in Dallas and Fort Worth", "and surrounding areas") or that a text lists
 * with other towns is not one. Every town is confirmed by the gazetteer (in the state or country written with it, else in
 * the site's country when one is known) and written with a capital; a town that is also a common word ("Reading",
 * "Mobile", "Bath") counts only with its state or country, or after "based in" and its kin. Pure apart from the lazily
 * loaded gazetteer and word list.
 */
/** 'footer': the copyright line; 'footer-sentence': a sentence of the site's header or footer that says where it is based. */
export type SelfTextKind = 'title' | 'site-name' | 'heading' | 'description' | 'paragraph' | 'menu' | 'footer' | 'footer-sentence';

export interface SelfText {
  kind: SelfTextKind;
  text: string;
  url: string;
}

/** How the place was said: with its state or country, after "based in" and its kin, or a bare "in <Town>" of a tagline. */
export type PlaceStrength = 'qualified' | 'cue' | 'plain';

export interface SelfDescribedPlace {
  /** The town as written ('' when the texts give only a country: "Happy Coffee Deutschland", "based in Germany"). */
  city: string;
  /** ISO alpha-2, '' when unknown. */
  country: string;
  /** Where the country comes from: written with the town or alone, the site's country the caller gave, or the gazetteer's most populous town of that name. */
  countryFrom: 'written' | 'hint' | 'gazetteer';
  strength: PlaceStrength;
  /** How many independent kinds of text give it (a title, its site name and h1 are one; the descriptions another; the body, menu and footer one each). */
  groups: number;
  url: string;
}

/** Kinds that repeat one statement: the title, og:title, site name and h1; the meta and og descriptions. */
const GROUP: Record<SelfTextKind, string> = { title: 'name', 'site-name': 'name', heading: 'name', description: 'description', paragraph: 'body', menu: 'menu', footer: 'footer', 'footer-sentence': 'footer' };
/** A legal form closing a name ("GmbH", "Ltd", "S.A."): the country before it ends the name. */
const TRAILING_LEGAL_FORM = /[,\s]+(?:GmbH(?:\s*&\s*Co\.?\s*KG)?|AG|KG|e\.\s?V\.|Ltd\.?|Limited|Inc\.?|LLC|S\.A\.S?|SARL|S\.r\.l\.|B\.V\.|N\.V\.|Pty\.?\s*Ltd\.?|Oy|AB|A\/S|ApS)$/u;
/** Where a bare "in <Town>" is a tagline: the body's "in Paris" may be anything. */
const TAGLINE = new Set<SelfTextKind>(['title', 'site-name', 'heading', 'description']);
/** Where a town and its state open a part of their own ("Wilmington, NC" as a title segment, "Acme Yoga, Wilmington, NC" as the copyright holder). */
const LIST_LIKE = new Set<SelfTextKind>(['title', 'site-name', 'footer']);
const STRONG: PlaceStrength[] = ['qualified', 'cue', 'plain'];

/**
 * "based in", "located in", "mit Sitz in", "basé à", and a footer's "made with ♥ in" / "Mit ♥ aus" (the heart often an
 * icon the text leaves out: "Mit aus Bremen"): the business's own place.
 */
/** The cue alone (the words that follow it, a town or a country, are read by the caller). */
export const SELF_PLACE_CUE = /(?:\b(?:(?:proudly|locally|family[- ]owned and|currently)\s+)?(?:based|located|headquartered|situated|hq['’]?d)\s+(?:right\s+)?(?:here\s+)?(?:in|out of)|\bhead\s?quarters?\s+(?:is\s+|are\s+)?in|\bhead office\s+(?:is\s+)?in|\bmit Sitz in|\bSitz in|\bansässig in|\bbeheimatet in|\bbasée?s?\s+à|\bsituée?s?\s+à|\bimplantée?s?\s+à|\binstallée?s?\s+à|\bsiège(?:\s+social)?\s+(?:est\s+)?à|\bcon sede (?:en|a|in)|\bmade\s+with\s+(?:love|♥|❤\uFE0F?)?\s*(?:in|from)|\bwith\s+(?:love|♥|❤\uFE0F?)\s+from|\bmit\s+(?:(?:viel\s+)?liebe|♥|❤\uFE0F?)?\s*aus)/iu;
const CUE = new RegExp(`${SELF_PLACE_CUE.source}\\s+`, 'giu');
// "in", and the centre or heart of a town as German, French, Spanish and Italian write it ("Ihr Hotel im Zentrum von Neubrandenburg")
const PLAIN = /(?:^|[\s(])(?:in|à|im\s+(?:Zentrum|Herzen)\s+von|mitten\s+in|au\s+(?:cœur|coeur|centre)\s+de|en\s+el\s+centro\s+de|nel\s+(?:cuore|centro)\s+di)\s+/giu;
/** Words before the intro that make the town one the business serves, visits or lists, not its own. */
const SERVICE_BEFORE = /\b(serv(?:e|es|ed|ing|icing)|service areas?|throughout|across|deliver\w*|shipping|ships|cover(?:s|ing)?|all over|surrounding|nearby|near|around|including|such as|clients|customers|residents|homeowners|families|visiting|visitors|events|conferences?|also|branches|locations|liefer\w*|versand|im raum|rund um|umgebung|einzugsgebiet|kunden|dans toute|autour|partout|livr\w*|interv\w+)\b/i;
/** Words after the town that make it an area ("Denver and surrounding areas", "the Boston area", "Bay Area"). */
const AREA_AFTER = /^\s*(?:,\s*)?(?:and|&|\+|or|und|et)?\s*(?:the\s+)?(?:surrounding|nearby|neighbou?ring|wider|greater|metro(?:politan|plex)?|beyond|vicinity|environs|alentours|umgebung|umland|region|regions|area|areas|county|counties|valley|suburbs)\b/iu;
/** What a list of towns goes on with: "in Dallas and Fort Worth", "Leeds, Bradford & York". */
const LIST_AFTER = /^\s*(?:,|\b[Aa]nd\b|&|\b[Oo]r\b|\/|\+|\b[Uu]nd\b|\b[Ee]t\b)\s*(?:the\s+)?(?=\p{Lu})/u;
const PREFIX_WORDS = /^(?:the\s+)?(?:(?:heart|centre|center|city|town|village)\s+of\s+(?:the\s+)?|(?:downtown|central|beautiful|historic|sunny|lovely|scenic|charming)\s+)?/iu;
const CONNECTOR = /^(?:upon|on|am|an|im|der|de|del|la|le|les|sur|sous|en|du|di|da|of|the|aan|den|bij|ob|bei|y)$/;
const CAPITAL = /^[\p{Lu}][\p{L}\p{M}'’.-]*$/u;
const COUNTRY_ABBREVIATIONS = new Set(['UK', 'USA', 'US', 'U.S.', 'U.S.A.', 'UAE', 'U.K.']);
const POSSESSIVE = /((?:[\p{Lu}][\p{L}\p{M}.-]*\s){0,2}[\p{Lu}][\p{L}\p{M}.-]*)['’]s\s+(?=(\S+))/gu;
/** What a town's possessive goes on with when the business names itself by it ("Chattanooga's leading vein clinic"). */
const PRAISE = /^(?:very|own|leading|best|premier|premiere|favou?rite|first|only|oldest|original|top|trusted|#1|number|no\.?\s?1|largest|friendliest|finest|go-to|newest|local|award-winning|top-rated|highest-rated|most)\b/i;
const BASED = /((?:[\p{Lu}][\p{L}\p{M}.]*[\s-]){0,2}[\p{Lu}][\p{L}\p{M}.]*)[-\s]based\b/gu;
const ORG_OF = /\s(?:of|de|von|di|du)\s+(?:the\s+)?((?:[\p{Lu}][\p{L}\p{M}'’.-]*\s?){1,3})$/u;
/** What follows a town opening a title's segment when it says what the business is: one to four words, the last a trade. */
const TOWN_THEN_TRADE = /^\s+(?:[\p{L}&'’-]+\s+){0,3}(?:teachers?|coach(?:es|ing)?|therap(?:ist|ists|y)|photograph(?:er|ers|y)|dentists?|dentistry|lawyers?|attorneys?|accountants?|CPAs?|realtors?|plumb(?:er|ers|ing)|electricians?|roof(?:er|ers|ing)|landscap(?:er|ers|ing)|clean(?:er|ers|ing)|bakery|cafe|café|restaurant|salon|barbers?|florists?|tutors?|trainers?|instructors?|studio|clinic|chiropractors?|physiotherap(?:ist|y)|massage|spa|yoga|pilates|gym|fitness|designers?|architects?|consultants?|agency|contractors?|builders?|mechanics?|repairs?|movers|moving|storage|vets?|veterinarians?|doctors?|counsel(?:l?or|l?ors|l?ing)|mediators?|notary|tattoo|caterers?|catering|DJs?|planners?|officiants?|hotel|inn|B&B)$/iu;
/** A town at least this big is no common word when written with a capital after "in" ("in Hamburg", "in Phoenix"). */
const COMMON_WORD_TOWN_MIN = 1_000_000;

interface Mention {
  city: string;
  country: string;
  countryFrom: SelfDescribedPlace['countryFrom'];
  strength: PlaceStrength;
  kind: SelfTextKind;
  url: string;
}

/** A country written as a place: a name of four letters or more, or a well-known abbreviation; not a US state ("Georgia"). */
function countryOf(words: string): string | undefined {
  const s = words.trim();
  if (isRegionName(s)) return undefined;
  if (s.replace(/\./g, '').length <= 3) return COUNTRY_ABBREVIATIONS.has(s) ? countryCode(s) : undefined;
  return countryCode(s);
}

/** The words that open `s` and may name a town: capitalised, with lower-case joins between them ("Stratford upon Avon"). */
function capitalRun(s: string): string[] {
  const words = (/^[^,;:|()!?"“”\n]*/u.exec(s)?.[0] ?? '').split(/\s+/).filter(Boolean);
  const run: string[] = [];
  for (let i = 0; i < words.length && run.length < 6; i++) {
    const w = words[i]!;
    if (CAPITAL.test(w)) run.push(w);
    else if (CONNECTOR.test(w) && run.length && CAPITAL.test(words[i + 1] ?? '')) run.push(w);
    else break;
    // a full stop ends the run unless it abbreviates ("St. Louis")
    if (/\.$/.test(w) && !/^(?:St|Ste|Mt|Ft)\.$/.test(w)) break;
  }
  return run;
}

/** The state, province, county or country written right after a town: ", NC", " NC", ", North Carolina", ", Germany". */
function qualifierAfter(rest: string): { country: string; state?: string; length: number } | undefined {
  const m = /^(\s*,\s*|\s+)/.exec(rest);
  if (!m) return undefined;
  const run = capitalRun(rest.slice(m[0].length));
  for (let k = Math.min(4, run.length); k >= 1; k--) {
    const words = run.slice(0, k).join(' ');
    const bare = words.replace(/\.$/, '');
    const code = /^[A-Z]{2,3}$/.test(bare);
    // after a space only a state's code or name ("Wilmington NC", "Portland Oregon"); a county or country needs the comma
    const region = regionOf(bare);
    if (region && (m[1]!.includes(',') || code || region.country !== 'GB')) return { ...region, length: m[0].length + words.length };
    const country = m[1]!.includes(',') ? countryOf(bare) : undefined;
    if (country) return { country, length: m[0].length + words.length };
  }
  return undefined;
}

const AU_STATE_NAMES = /^(?:new south wales|victoria|queensland|south australia|western australia|tasmania|northern territory|australian capital territory)$/i;

/** A region of the site's country (or of any, without one) written as a town would be. */
function regionNamed(name: string, country: string): boolean {
  const region = regionOf(name);
  return isRegionName(name) || (!!region && region.country === country) || (country === 'AU' && AU_STATE_NAMES.test(name));
}

/** A town whose name is also a common word ("Reading", "Mobile", "Bath", "Surprise") unless it is a very big city. */
function commonWord(name: string, hit: GazetteerCity): boolean {
  return !/\s/.test(name) && isCommonEnglishWord(name.toLowerCase()) && hit.population < COMMON_WORD_TOWN_MIN;
}

/** A town written in capitals ("LEEDS") as the gazetteer spells it; otherwise as written. */
function display(written: string, hit: GazetteerCity): string {
  return written === written.toUpperCase() ? hit.name : written;
}

interface Read {
  city: string;
  hit: GazetteerCity;
  qualifier?: { country: string; state?: string };
  /** The rest of the clause after the town (and its qualifier). */
  after: string;
  /** A capitalised word follows the town that is none of its qualifier ("in Austin Hardware"). */
  capitalAfter: boolean;
  /** Written as the city's short name ("NYC"): no state's name, whatever its postal name shares with one. */
  abbreviated?: boolean;
}

/** A city's short name of three capitals is read only for a city this big ("NYC"; "Usa" in Japan is no "USA"). */
const ABBREVIATED_CITY_MIN = 1_000_000;

/**
 * "NYC": a big city's short name the gazetteer knows, written as the city's postal name ("New York", which the
 * gazetteer may call "New York City": its name without "City" when that names the same place). Never a region's or
 * country's code.
 */
function cityAbbreviation(written: string, rest: string, hint: string): Read | undefined {
  if (written.length !== 3 || regionOf(written) || countryOf(written)) return undefined;
  const hit = findCity(written, hint || undefined);
  if (!hit || hit.population < ABBREVIATED_CITY_MIN || placeKey(hit.name) === placeKey(written)) return undefined;
  const shorter = hit.name.replace(/\s+City$/u, '');
  const postal = shorter !== hit.name && findCity(shorter, hit.country) === hit ? shorter : hit.name;
  return { city: postal, hit, after: rest, capitalAfter: /^\s+\p{Lu}/u.test(rest), abbreviated: true };
}

/** The town that opens `s`: the longest run of capitalised words the gazetteer knows, with the qualifier written after it. */
function readTown(s: string, hint: string): Read | undefined {
  const text = s.replace(PREFIX_WORDS, '');
  const run = capitalRun(text);
  for (let k = Math.min(4, run.length); k >= 1; k--) {
    if (!CAPITAL.test(run[k - 1]!)) continue;
    const written = run.slice(0, k).join(' ');
    const city = written.replace(/\.$/, '');
    if (city.length < 3) continue;
    const rest = text.slice(text.indexOf(written) + written.length);
    // two or three capitals are a state's or country's code ("NC", "USA"), unless the gazetteer knows them as a big
    // city's own short name ("NYC")
    if (/^\p{Lu}{2,3}$/u.test(city)) {
      const short = cityAbbreviation(city, rest, hint);
      if (short) return short;
      continue;
    }
    const q = qualifierAfter(rest);
    if (q) {
      // GeoNames writes the capital "Washington, D.C.": the town and its state's code together
      const hit = findCity(city, q.country, q.country === 'US' ? q.state : undefined) ?? (q.state ? findCity(`${city} ${q.state}`, q.country, q.state) : undefined);
      if (!hit) return undefined;
      let after = rest.slice(q.length);
      // "Wilmington, NC, USA": the country after the state
      const more = qualifierAfter(after);
      if (more && more.country === q.country && !more.state) after = after.slice(more.length);
      return { city: display(city, hit), hit, qualifier: q, after, capitalAfter: false };
    }
    const hit = (hint ? findCity(city, hint) : undefined) ?? findCity(city);
    if (!hit) continue;
    return { city: display(city, hit), hit, after: rest, capitalAfter: /^\s+\p{Lu}/u.test(rest) };
  }
  return undefined;
}

/** A text that goes on from a town to another one ("in Dallas and Fort Worth"). */
function listsAnother(after: string, city: string, hint: string): boolean {
  const m = LIST_AFTER.exec(after);
  if (!m) return false;
  const next = readTown(after.slice(m[0].length), hint);
  return !!next && placeKey(next.city) !== placeKey(city) && !countryOf(next.city);
}

/** Whether a town read in a text stands as the business's place, and its country. */
function accept(read: Read, strength: PlaceStrength, hint: string): { country: string; countryFrom: SelfDescribedPlace['countryFrom'] } | undefined {
  // a state, province or county ("in California", "in Kent", "in Victoria"): a town of that name only with its state ("New York, NY")
  if (regionNamed(read.city, hint || read.hit.country) && !read.qualifier?.state && !read.abbreviated) return undefined;
  if (countryOf(read.city)) return undefined;
  if (strength === 'plain' && commonWord(read.city, read.hit)) return undefined;
  if (AREA_AFTER.test(read.after)) return undefined;
  if (read.qualifier) {
    // a town in another country than the site's: a place the text talks about, not the business's
    if (hint && read.qualifier.country !== hint) return undefined;
    return { country: read.qualifier.country, countryFrom: 'written' };
  }
  if (read.capitalAfter) return undefined;
  if (hint) return read.hit.country === hint ? { country: hint, countryFrom: 'hint' } : undefined;
  return { country: read.hit.country, countryFrom: 'gazetteer' };
}

/** The places one text gives as the business's own; none when it lists several towns. */
function mentionsIn(t: SelfText, hint: string): Mention[] {
  const out: Mention[] = [];
  let listed = false;
  const clauses = t.text.split(/(?<!\b(?:St|Ste|Mt|Ft|Dr|Mr|Mrs|Ms|Inc|Co|Ltd|Jr|Sr|\p{Lu}))[.!?](?=\s|$)|\s[|•·»–—-]\s|[|;\n•·»]/u);
  for (const [at, clause] of clauses.entries()) {
    const seen = new Set<number>();
    const take = (index: number, read: Read | undefined, strength: PlaceStrength) => {
      if (!read || seen.has(index)) return;
      seen.add(index);
      if (listsAnother(read.after, read.city, hint)) {
        listed = true;
        return;
      }
      const ok = accept(read, read.qualifier ? 'qualified' : strength, hint);
      if (ok) out.push({ city: read.city, ...ok, strength: read.qualifier ? 'qualified' : strength, kind: t.kind, url: t.url });
    };
    // the last words of a run that name a town ("Welcome To Chattanooga's" → Chattanooga), as strong as "based in"
    const takeSuffix = (run: string, index: number) => {
      const words = run.split(/[\s-]+/);
      for (let i = 0; i < words.length; i++) {
        const read = readTown(words.slice(i).join(' '), hint);
        if (read && read.city.split(/\s+/).length === words.length - i && !commonWord(read.city, read.hit)) {
          take(index + i, { ...read, capitalAfter: false, after: '' }, 'cue');
          return;
        }
      }
    };
    for (const m of clause.matchAll(CUE)) {
      const start = m.index + m[0].length;
      const country = countryOf(capitalRun(clause.slice(start).replace(/^the\s+/i, '')).join(' '));
      if (country && (!hint || country === hint)) out.push({ city: '', country, countryFrom: 'written', strength: 'cue', kind: t.kind, url: t.url });
      else take(start, readTown(clause.slice(start), hint), 'cue');
    }
    for (const m of clause.matchAll(PLAIN)) {
      const start = m.index + m[0].length;
      if (SERVICE_BEFORE.test(clause.slice(0, m.index))) continue;
      const read = readTown(clause.slice(start), hint);
      // a bare "in <Town>" is a tagline's; elsewhere only with the town's state or country
      if (read && (read.qualifier || TAGLINE.has(t.kind))) take(start, read, 'plain');
    }
    // "Wilmington, NC" opening a title segment, or after the copyright holder's name ("Acme Yoga, Wilmington, NC")
    if (LIST_LIKE.has(t.kind)) {
      for (const m of clause.matchAll(/(?:^\s*|,\s*)(?=\p{Lu})/gu)) {
        const start = m.index + m[0].length;
        const read = readTown(clause.slice(start), hint);
        if (read?.qualifier && !SERVICE_BEFORE.test(clause.slice(0, m.index))) take(start, read, 'qualified');
      }
    }
    // "Meryl Arnett - Atlanta Meditation Teacher": a title's later segment that opens with a town and says what the
    // business is (its first segment is often the page's subject: "Atlanta Wedding Venues | Acme")
    if (t.kind === 'title' && at > 0) {
      const segment = clause.trim();
      const read = readTown(segment, hint);
      const what = read ? segment.slice(read.city.length) : '';
      if (read && segment.startsWith(read.city) && read.capitalAfter && TOWN_THEN_TRADE.test(what) && !commonWord(read.city, read.hit)) {
        take(0, { ...read, capitalAfter: false, after: '' }, 'plain');
      }
    }
    for (const m of clause.matchAll(POSSESSIVE)) if (PRAISE.test(m[2]!)) takeSuffix(m[1]!, m.index);
    for (const m of clause.matchAll(BASED)) takeSuffix(m[1]!, m.index);
  }
  if (t.kind === 'site-name') {
    const text = t.text.trim();
    // "Vascular Institute of Chattanooga": a site name that ends with its town
    const of = ORG_OF.exec(text);
    const read = of ? readTown(of[1]!.trim(), hint) : undefined;
    if (read && read.city === of![1]!.trim() && !commonWord(read.city, read.hit)) {
      const ok = accept({ ...read, capitalAfter: false, after: '' }, 'cue', hint);
      if (ok) out.push({ city: read.city, ...ok, strength: 'cue', kind: t.kind, url: t.url });
    }
    // "Small Business Attorney NYC" at smallbusinessattorneynyc.com: a site name that ends with a town its domain repeats,
    // after two words or more ("Meryl Arnett" is a person, whatever Arnett, Oklahoma)
    const words = text.split(/\s+/);
    const label = siteLabel(t.url);
    for (let i = Math.max(2, words.length - 3); i < words.length && label; i++) {
      const written = words.slice(i).join(' ');
      const read = readTown(written, hint);
      if (!read || !label.includes(placeKey(written)) || (!read.abbreviated && read.city !== written) || commonWord(read.city, read.hit)) continue;
      const ok = accept({ ...read, capitalAfter: false, after: '' }, 'cue', hint);
      if (ok) out.push({ city: read.city, ...ok, strength: 'cue', kind: t.kind, url: t.url });
      break;
    }
    // "Happy Coffee Deutschland": a site name that ends with its country (before a legal form: "Acredis Deutschland GmbH")
    const last = /\s((?:[\p{Lu}][\p{L}.]*\s?){1,3})$/u.exec(text.replace(TRAILING_LEGAL_FORM, ''))?.[1]?.trim();
    for (const words of last ? [last, last.split(/\s+/).pop()!] : []) {
      const country = countryOf(words);
      if (country && (!hint || country === hint)) {
        out.push({ city: '', country, countryFrom: 'written', strength: 'plain', kind: t.kind, url: t.url });
        break;
      }
    }
  }
  return listed ? out.filter((m) => !m.city) : out;
}

/** The site's own word in its host name ("smallbusinessattorneynyc"), '' for an address that is none. */
function siteLabel(url: string): string {
  try {
    return domainLabel(new URL(url).hostname);
  } catch {
    return '';
  }
}

/**
 * A page whose address names the town ("/areas-served/wayne-county/romulus-mi-pest-control", "/lancaster-ca/") is one of
 * the pages a business writes for each town it serves: what it says names that town, not the business's.
 */
export function pageOfTown(url: string, city: string): boolean {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return false;
  }
  const slug = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).join('-');
  return `-${slug(path)}-`.includes(`-${slug(city)}-`);
}

/**
 * The business's own place from the short texts it describes itself with (title segments, site name, descriptions, h1,
 * first paragraph, menu items, copyright line), or undefined: none found, or several different towns. `hint` is the site's
 * country (ISO alpha-2) when it is known otherwise: a town without its state or country must be one of it, and a town
 * written with another country is not the business's.
 */
export function selfDescribedPlace(texts: SelfText[], hint = ''): SelfDescribedPlace | undefined {
  const mentions = texts.filter((t) => t.kind !== 'menu').flatMap((t) => mentionsIn(t, hint));
  // menu items that name several towns (opening an item, or after "in") link to the places a business serves
  // ("Palmdale California cleaning services", "Lancaster House Cleaning"): none of them is its own
  const menu = texts.filter((t) => t.kind === 'menu');
  const menuMentions = menu.flatMap((t) => mentionsIn(t, hint));
  const opening = menu.map((t) => readTown(t.text, hint)).filter((r) => !!r && !commonWord(r.city, r.hit) && (!hint || r.hit.country === hint));
  if (new Set([...opening, ...menuMentions].filter((m) => m!.city).map((m) => placeKey(m!.city))).size < 2) mentions.push(...menuMentions);
  const towns = mentions.filter((m) => m.city && !pageOfTown(m.url, m.city));
  if (new Set(towns.map((m) => placeKey(m.city))).size > 1) return undefined;
  const written = new Set(mentions.filter((m) => m.countryFrom === 'written').map((m) => m.country));
  if (written.size > 1) return undefined;
  const writtenCountry = [...written][0];
  const found = towns.length ? towns : mentions.filter((m) => !m.city);
  const first = STRONG.map((s) => found.find((m) => m.strength === s)).find(Boolean);
  if (!first) return undefined;
  const groups = new Set(found.map((m) => GROUP[m.kind])).size;
  if (!towns.length) return { city: '', country: first.country, countryFrom: 'written', strength: first.strength, groups, url: first.url };
  // a country written elsewhere ("Happy Coffee Deutschland") decides which town of that name is meant
  if (writtenCountry && first.country !== writtenCountry && !findCity(first.city, writtenCountry)) return undefined;
  const country = writtenCountry ?? first.country;
  return { city: first.city, country, countryFrom: writtenCountry ? 'written' : first.countryFrom, strength: first.strength, groups, url: first.url };
}
