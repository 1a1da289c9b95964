import { cyrillicAddress } from './address-cyrillic.js';
import { countryCode } from './countries.js';
import { findCity } from './gazetteer.js';
import { phonesInLine } from './phone.js';
import { AU_STATES, BR_STATES, CA_PROVINCE_NAMES, CA_PROVINCES, IE_COUNTIES, isRegionName, UK_AREAS, US_STATE_NAMES, US_STATES } from './regions.js';

/**
 * Postal addresses found by their shape in the visible lines of a page, for the US, Canada,
 * the UK and Australia: a locality anchor (state + ZIP, province + postal code, postcode,
 * state + 4-digit postcode), the city just before it checked against the gazetteer, the street
 * before that; and continental Europe's postcode-first form, the town after the code. Pure apart from the lazily loaded gazetteer.
 */
export interface FoundAddress {
  street: string;
  city: string;
  region: string;
  postalCode: string;
  /** ISO alpha-2. */
  country: string;
  /** The address as one line. */
  line: string;
  /** Words that label the block ("Head office", "Derby", "Corporate Office"). */
  label: string;
  /** 0..1: the city is a known city of that country, a postcode is present. */
  confidence: number;
  /** Index of the line the anchor sits on. */
  lineIndex: number;
  /** Digits of the phone numbers written next to the address (same block). */
  phoneDigits: string[];
  /** Written in the site's own header or footer. */
  chrome: boolean;
}

const US_STATE_LINE = new RegExp(`^(?:${US_STATES.join('|')}|${US_STATE_NAMES})$`);

const STREET_WORD = /\b(st|street|rd|road|ave|avenue|blvd|boulevard|dr|drive|ln|lane|way|ct|court|pl|place|pkwy|parkway|hwy|highway|trail|tr|terrace|tce|cres|crescent|close|row|square|sq|walk|parade|pde|esplanade|circuit|cct|plaza|market place|rue|chemin|boul|route|suite|ste|unit|level|floor|box|po box|building|bldg|park|farm|wharf|marina|n|s|e|w|ne|nw|se|sw)\b\.?/i;

const SEP_RE = /\s*(?:\n|,|·|•|\||—|–|\s-\s)\s*/;

function tidy(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/^[\s,.;:·•|–—-]+|[\s,;:·•|–—-]+$/g, '').trim();
}

/** "St.Gallen" is written "St. Gallen": the town as a profile shows it, and as it compares with other spellings. */
function spacedAbbreviation(city: string): string {
  return city.replace(/\b(St|Ste|Mt|Ft)\.(?=\p{Lu})/gu, '$1. ');
}

function looksLikePlace(s: string): boolean {
  const words = s.split(/\s+/);
  return words.length <= 4 && !/\d/.test(s) && /^[\p{Lu}]/u.test(s) && !STREET_WORD.test(s) && words.every((w) => /^[\p{Lu}(]|^(de|du|la|le|on|the|upon|sur|en|of|and)$|^-/u.test(w));
}

/**
 * A town broken across two lines: the last one or two capitalised words of the line before ("San", "Palm") and the words
 * opening this line ("Francisco", "Beach") together name a town the gazetteer knows in that country, and the second part
 * alone names none (or a smaller one). The words taken leave the rest of the line before as the street.
 */
function brokenTown(before: string, seg: string, country: string): { city: string; rest: string } | undefined {
  const head = /^[\p{Lu}][\p{L}'’.-]*(?:\s[\p{Lu}][\p{L}'’.-]*){0,2}/u.exec(seg)?.[0];
  if (!head || head !== seg) return undefined;
  const prev = before.split(/\s+/);
  const alone = findCity(head, country);
  for (let j = Math.min(2, prev.length); j >= 1; j--) {
    const tail = prev.slice(-j);
    if (!tail.every((w) => /^[\p{Lu}][\p{L}'’.-]*$/u.test(w)) || STREET_WORD.test(tail.join(' '))) continue;
    const joined = `${tail.join(' ')} ${head}`;
    const hit = findCity(joined, country);
    if (hit && (!alone || hit.population > alone.population)) return { city: spacedAbbreviation(joined), rest: prev.slice(0, -j).join(' ') };
  }
  return undefined;
}

/** The city written just before a locality anchor, nearest segment first. */
function cityBefore(prefix: string, country: string): { city: string; known: boolean; streetParts: string[] } | undefined {
  // each segment remembers whether it opens its line: a town can be broken across two ("535 Mission st, San" / "Francisco CA 94105")
  const lineStarts = new Set<number>();
  const segments: string[] = [];
  for (const l of prefix.split('\n')) {
    const parts = l.split(SEP_RE).map(tidy).filter(Boolean);
    if (parts.length) lineStarts.add(segments.length);
    segments.push(...parts);
  }
  for (let i = segments.length - 1, n = 0; i >= 0 && n < 3; i--, n++) {
    const seg = segments[i]!.replace(/\(.*\)$/, '').trim();
    const words = seg.split(/\s+/);
    const broken = lineStarts.has(i) && i > 0 ? brokenTown(segments[i - 1]!, seg, country) : undefined;
    if (broken) return { city: broken.city, known: true, streetParts: [...segments.slice(Math.max(0, i - 3), i - 1), broken.rest].map(tidy).filter(Boolean) };
    // longest word suffix that the gazetteer knows, so "100 Collins Street Melbourne" gives Melbourne
    for (let k = Math.min(4, words.length); k >= 1; k--) {
      const cand = words.slice(-k).join(' ').replace(/[.,]$/, '');
      // a county is skipped in the UK only: Durham, Kent or Surrey are towns in the US and Canada
      if (country === 'GB' && UK_AREAS.has(cand.toLowerCase())) continue;
      if (!/^[\p{L}]/u.test(cand) || (k === words.length && false)) continue;
      const hit = findCity(cand, country);
      if (hit && /^[\p{Lu}]/u.test(cand)) {
        const upper = cand === cand.toUpperCase();
        return { city: upper ? hit.name : spacedAbbreviation(cand), known: true, streetParts: [...segments.slice(Math.max(0, i - 2), i), words.slice(0, -k).join(' ')].map(tidy).filter(Boolean) };
      }
    }
    // "Bedford Road, Petersfield," / "HAMPSHIRE. GU32 3QF": the county's full stop is no part of it
    if (country === 'GB' && UK_AREAS.has(seg.replace(/[.,]+$/, '').toLowerCase())) continue;
    // "Lahaska, Bucks County, PA 18931": the county between the town and the state is not the town
    if (country !== 'GB' && /\s(county|parish|borough)$/i.test(seg)) continue;
    if (looksLikePlace(seg)) return { city: seg, known: false, streetParts: segments.slice(Math.max(0, i - 2), i) };
    const m = /(?:^|\s)(?:st|street|rd|road|ave|avenue|dr|drive|blvd|lane|ln|way|hwy|pde|parade)\.?\s+([\p{Lu}][\p{L}'-]+(?:\s[\p{Lu}][\p{L}'-]+){0,2})$/iu.exec(seg);
    if (m && looksLikePlace(m[1]!)) return { city: m[1]!, known: false, streetParts: [seg.slice(0, m.index + m[0].length - m[1]!.length)] };
    return undefined;
  }
  return undefined;
}

/**
 * A building or estate written where the town goes, the town after the state and ZIP ("645 Fifth Avenue, Olympic Tower,
 * NY 10022, New York, USA"): when the words before the anchor are no town the gazetteer knows, a town it knows in that
 * country (and, in the US, that state) written right after the code is the town, and the words before join the street.
 */
function townAfterCode(after: string, country: string, region: string, postalCode: string, before: ReturnType<typeof cityBefore>): ReturnType<typeof cityBefore> {
  if (before?.known || !postalCode || country === 'GB') return before;
  const seg = after.split(SEP_RE).map(tidy).find(Boolean) ?? '';
  if (!looksLikePlace(seg)) return before;
  const hit = findCity(seg, country);
  if (!hit || (country === 'US' && region.length === 2 && hit.admin !== region)) return before;
  return { city: seg === seg.toUpperCase() ? hit.name : spacedAbbreviation(seg), known: true, streetParts: before ? [...before.streetParts, before.city] : [] };
}

interface Anchor {
  re: RegExp;
  country: string;
  check?: (m: RegExpExecArray) => boolean;
}

/** India's states and union territories as addresses write them before the PIN. */
const IN_STATES = [
  'Andhra Pradesh', 'Arunachal Pradesh', 'Assam', 'Bihar', 'Chhattisgarh', 'Goa', 'Gujarat', 'Haryana', 'Himachal Pradesh', 'Jharkhand',
  'Karnataka', 'Kerala', 'Madhya Pradesh', 'Maharashtra', 'Manipur', 'Meghalaya', 'Mizoram', 'Nagaland', 'Odisha', 'Punjab', 'Rajasthan',
  'Sikkim', 'Tamil Nadu', 'Telangana', 'Tripura', 'Uttar Pradesh', 'Uttarakhand', 'West Bengal', 'Delhi', 'New Delhi', 'Chandigarh',
  'Puducherry', 'Jammu and Kashmir', 'Ladakh',
].join('|');
/** A building's name standing for the house number in a British street line. */
const BUILDING = /^[\p{Lu}][\p{L}'’ -]* (?:House|Building|Court|Centre|Center|Chambers|Tower|Mill|Hall|Lodge|Works|Studios|Wharf|Quay)$/u;

const ANCHORS: Anchor[] = [
  // "Fort Worth, TX 76107", "MADISON, WI 53704", "Portland, Oregon 97211"
  // a state and ZIP alone on their line: the town sits in the cell or line before ("New Braunfels" / "TX 78132")
  // "La Pine • Oregon • 97739": a dot or bar between the state and the ZIP, as between the other parts
  // "Grants Pass, OR USA 97526": the country written between the state and the ZIP
  { re: new RegExp(`(?:^|,\\s*|\\s)(${US_STATES.join('|')}|${US_STATE_NAMES})\\.?,?(?:\\s+(?:USA|U\\.S\\.A\\.?|U\\.S\\.),?)?(?:\\s+|\\s*[•·|]\\s*)(\\d{5})(?:-\\d{4})?\\b`, 'g'), country: 'US' },
  // "Plymouth, MA · (508) 395-4410", "Tomball, Texas (866) ...": a state without ZIP, kept only for a city the gazetteer knows
  { re: new RegExp(`,\\s*(${US_STATES.join('|')}|${US_STATE_NAMES})()(?!\\s*[·•|]\\s*\\d{5})(?=\\s*$|\\s*[·•|,(]|\\s+[-–—]\\s)`, 'g'), country: 'US' },
  // "Vancouver, BC V6K 4L9", "Montréal (Québec) H2Y 2M8", "Ottawa, ON"
  { re: new RegExp(`(?:,\\s*|\\s)\\(?(${CA_PROVINCES.join('|')}|${CA_PROVINCE_NAMES})\\)?\\.?,?(?:\\s+([A-Z]\\d[A-Z]\\s?\\d[A-Z]\\d)|(?=\\s*$|\\s*\\n))`, 'g'), country: 'CA' },
  // "Parramatta NSW 2150", "Melbourne VIC 3000"
  { re: new RegExp(`(?:,\\s*|\\s)(${AU_STATES.join('|')}),?\\s+(\\d{4})\\b`, 'g'), country: 'AU' },
  // "Tullamore, Co. Offaly": Ireland wrote no postcode before 2015, the county after the town; kept only for a town the gazetteer knows
  { re: new RegExp(`,\\s*(?:Co\\.?|County)\\s+(${IE_COUNTIES})()\\b`, 'g'), country: 'IE' },
  // "São Bernardo do Campo - SP", "Curitiba/PR, 80010-000": Brazil's state code after a dash or slash, the CEP after it or on the
  // next line; kept only for a town the gazetteer places in Brazil
  { re: new RegExp(`(?:\\s[-–]\\s|\\s?/\\s?)(${BR_STATES.join('|')})\\b(?:[\\s,.-]*(?:CEP:?\\s*)?(\\d{5}-?\\d{3})\\b)?(?!\\s*\\p{L})`, 'gu'), country: 'BR' },
  // "Guildford GU1 4RR", "London\nE2 7RG"
  { re: /(?:^|[\s,])()([A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})\b/g, country: 'GB' },
  // "113 Detroit House, Motor City, Dubai, UAE", "Office 12, West Bay, Doha, Qatar": countries that write no postcode, the country after
  // the town; kept only for a town the gazetteer places there, with a numbered street before it
  { re: /,\s*(?:UAE|U\.A\.E\.|United Arab Emirates)()()(?=\s*$|\s*[|·•(])/g, country: 'AE' },
  { re: /,\s*(?:State of )?Qatar()()(?=\s*$|\s*[|·•(])/g, country: 'QA' },
  // "HSR Layout, Bengaluru, Karnataka 560102", "Clover Hills Plaza, Pune, 411048", "Andheri East, Mumbai - 400069": India's
  // six-digit PIN after the town (and state); kept only for a town the gazetteer places in India
  { re: new RegExp(`(?:,\\s*|\\s)(?:(${IN_STATES})\\s*,?\\s*)?(?:[-–]\\s*)?([1-8]\\d{2}\\s?\\d{3})\\b(?![-–/.]?\\d)`, 'g'), country: 'IN' },
];

// Continental Europe writes the postcode before the town: "26721 Emden", "D-40764 Langenfeld", "CH-9001 St.Gallen",
// "I-39020 Kastelbell-Tschars", "1012 AB Amsterdam", "114 55 Stockholm", "00-950 Warszawa", "4745-330 Trofa",
// "071 01 Michalovce".
const EU_PREFIX: Record<string, string> = { D: 'DE', DE: 'DE', A: 'AT', AT: 'AT', CH: 'CH', I: 'IT', IT: 'IT', F: 'FR', FR: 'FR', B: 'BE', BE: 'BE', NL: 'NL', L: 'LU', LU: 'LU', DK: 'DK', S: 'SE', SE: 'SE', N: 'NO', NO: 'NO', FIN: 'FI', FI: 'FI', E: 'ES', ES: 'ES', P: 'PT', PT: 'PT', PL: 'PL', CZ: 'CZ', SK: 'SK' };
const EU_COUNTRIES = new Set([...Object.values(EU_PREFIX), 'LI', 'IE', 'IS']);
// Iceland's postcodes have three digits ("101 Reykjavík"): kept only for a town the gazetteer places in Iceland
const EU_ANCHOR = new RegExp(`(?:^|[\\s,;|*(·•])(?:(${Object.keys(EU_PREFIX).join('|')})\\s?[-–]\\s?)?(\\d{4,5}|\\d{4}\\s?[A-Z]{2}|\\d{3}\\s\\d{2}|\\d{4}-\\d{3}|\\d{2}-\\d{3}|\\d{3})(?:\\s+[-–]\\s+|\\s+)(?=\\p{Lu})`, 'gu');
const PLACE_WORD = /^[\p{Lu}][\p{L}.'’-]*$|^(am|an|im|in|bei|ob|sur|sous|en|de|del|di|la|le|les|aan|den|bij|upon|a\.|d\.)$/u;

/** The shape of a postcode in the countries whose domain hints at a town the gazetteer does not know. */
const POSTCODE_SHAPE: Record<string, RegExp> = { DE: /^\d{5}$/, FR: /^\d{5}$/, IT: /^\d{5}$/, ES: /^\d{5}$/, AT: /^\d{4}$/, CH: /^\d{4}$/, BE: /^\d{4}$/, NL: /^\d{4}\s?[A-Z]{2}$/, PL: /^\d{2}-\d{3}$/, PT: /^\d{4}-\d{3}$/ };

/**
 * A province written in brackets right after the town: Italy's two-letter code ("Pescasseroli (AQ)"), Spain's province
 * ("Madrid (Madrid)"); not a country ("Berlin (Deutschland)").
 */
function provinceAfter(rest: string, city: string): boolean {
  const m = /^\s*\(([A-Z]{2}|\p{Lu}[\p{L}' -]{2,30})\)/u.exec(rest.slice(city.length));
  return !!m && rest.startsWith(city) && (m[1]!.length === 2 || !countryCode(m[1]!.trim()));
}

/** The town after a postcode: the gazetteer's (in the prefix's country), else with a country prefix or the domain's hint one shaped like a place. */
function townAfter(code: string, placeWords: string[], prefixCountry: string | undefined, countryHint: string): { city: string; country: string; known: boolean; hinted: boolean; code: string } {
  let city = '';
  let country = prefixCountry ?? '';
  let known = false;
  for (let k = placeWords.length; k >= 1 && !city; k--) {
    const cand = placeWords.slice(0, k).join(' ');
    const hit = findCity(cand, prefixCountry);
    if (hit && EU_COUNTRIES.has(hit.country) && (!prefixCountry || hit.country === prefixCountry) && (/^\d{3}$/.test(code) ? hit.country === 'IS' : hit.country !== 'IS')) {
      city = cand === cand.toUpperCase() ? hit.name : spacedAbbreviation(cand);
      country = hit.country;
      known = true;
    }
  }
  if (!city && prefixCountry && placeWords[0] && looksLikePlace(placeWords[0]) && !/^\d{3}$/.test(code)) city = placeWords[0];
  const hinted = !city && !prefixCountry && !!POSTCODE_SHAPE[countryHint]?.test(code) && !!placeWords[0] && looksLikePlace(placeWords[0]);
  if (hinted) {
    city = placeWords[0]!;
    country = countryHint;
  }
  return { city, country, known, hinted, code };
}

/**
 * Postcode-first addresses of one line: the town after the code (the gazetteer's or, with a country prefix, one shaped like a
 * place; or, with a street before it and a postcode of the shape the site's country domain uses, one shaped like a place:
 * "An der Breitach 3" / "87538 Fischen" on a .de site).
 */
function europeanAddresses(lines: string[], idx: number, countryHint = ''): Omit<FoundAddress, 'label' | 'phoneDigits' | 'lineIndex' | 'chrome'>[] {
  const line = lines[idx]!;
  const out: Omit<FoundAddress, 'label' | 'phoneDigits' | 'lineIndex' | 'chrome'>[] = [];
  for (const m of line.matchAll(EU_ANCHOR)) {
    const start = (m.index ?? 0) + m[0].length;
    const prefixCountry = m[1] ? EU_PREFIX[m[1]] : undefined;
    const words = line.slice(start).split(/[\s,;|*·•()]+/).slice(0, 5);
    const placeWords: string[] = [];
    for (const w of words) {
      if (!PLACE_WORD.test(w)) break;
      placeWords.push(w.replace(/[.,]$/, ''));
    }
    // a Dutch code's two letters after a space ("5683 CG Best"): part of the code when they lead to a Dutch town ("7100 LA
    // LOUVIERE" stays a Belgian code and its town)
    const dutch = /^\d{4}$/.test(m[2]!) && /^[A-Z]{2}$/.test(placeWords[0] ?? '') ? townAfter(`${m[2]} ${placeWords[0]}`, placeWords.slice(1, 5), prefixCountry, countryHint) : undefined;
    const { city, country, known, hinted, code } = dutch?.country === 'NL' && dutch.city ? dutch : townAfter(m[2]!, placeWords.slice(0, 4), prefixCountry, countryHint);
    if (!city || !country) continue;
    // the street: the segment before the code on this line, else the line before ("Am Delft 24, 26721 Emden")
    const before = line.slice(0, m.index ?? 0).split(SEP_RE).map(tidy).filter(Boolean);
    // or one of the two lines before ("1 rue de Menin / Parc de l'innovation / 59250 Marquette Lez Lille")
    const streetLike = (x: string) => /\p{L}.*\d|\d.*\p{L}/u.test(x) && x.length <= 80;
    const streetSeg = before.length ? before[before.length - 1]! : ([lines[idx - 1], lines[idx - 2]].map((x) => tidy(x ?? '')).find(streetLike) ?? '');
    const hasStreet = streetLike(streetSeg);
    // a bare number before a town ("seit 2010 Berlin") is an address only with a street, a country prefix, or a province in
    // brackets after a town the gazetteer knows with a postcode of its country's shape ("viale Santa Lucia - 67032 Pescasseroli (AQ)")
    if (!prefixCountry && !hasStreet && !(known && provinceAfter(line.slice(start), city) && !!POSTCODE_SHAPE[country]?.test(code))) continue;
    // the domain's hint needs the street on a line of its own or before the code on this line, not a year in a sentence
    if (hinted && (!/^\d{1,4}\s*[a-z]?$/i.test(streetSeg.split(/\s+/).pop() ?? '') || /^(19|20)\d{2}$/.test(code))) continue;
    const street = hasStreet ? streetSeg : '';
    const postalCode = code;
    out.push({
      street,
      city,
      region: '',
      postalCode,
      country,
      line: [street, `${postalCode} ${city}`].filter(Boolean).join(', '),
      confidence: Math.min(0.98, (known ? 0.6 : 0.3) + 0.3 + (hasStreet ? 0.08 : 0)),
    });
  }
  return out;
}

/** A line this long is a paragraph, not a line of an address block. */
const PROSE_LINE = 200;

/**
 * Digits of the numbers written in an address's block: the line before the anchor and three after, and further up
 * the lines the street was read from ("814-983-7093" / "3325 W. 26th St." / "Erie, PA 16506").
 */
function blockPhones(lines: string[], idx: number, street: string): string[] {
  let start = Math.max(0, idx - 1);
  while (start > Math.max(0, idx - 4) && street && street.includes(tidy(lines[start - 1] ?? '\u0000').slice(0, 40))) start--;
  // the block's numbers written right above its street ("Office: ..." / "Fax: ..." / "492 Highway 93" / "Invermere, BC ..."),
  // never past a line that is not the street: above a heading ("Kearney, Nebraska") is the previous block's number
  const numbered = (l: string | undefined) => !!l && l.length <= 80 && phonesInLine(l).length > 0;
  let top = street && street.includes(tidy(lines[start] ?? '\u0000').slice(0, 40)) ? start : idx;
  while (top > Math.max(0, idx - 7) && numbered(lines[top - 1])) top--;
  start = Math.min(start, top);
  // below it, the heading of the next block ("Springs Office", "Downtown Branch") ends this one
  let end = idx + 4;
  for (let k = idx + 1; k < end; k++) if ((lines[k]?.length ?? 0) < 40 && NEXT_BLOCK.test(lines[k] ?? '')) end = k;
  // a paragraph in the window is no part of the block: its number is the one the paragraph gives (a disclaimer's "contact
  // our office at ..." after the last of several offices)
  return lines.slice(start, end).filter((l) => l.length <= PROSE_LINE).flatMap((l) => phonesInLine(l).map((p) => p.raw.replace(/\D/g, '')));
}

/** A line that heads an office's block: "Fairmont Office", "Downtown Branch", "Our Location"; no number on it. */
const NEXT_BLOCK = /^[^\d]*\b(?:office|branch|location|store|showroom|clinic)\s*:?$/i;

const BARE_REGION = new RegExp(`^(?:(${[...US_STATES, ...CA_PROVINCES, ...AU_STATES].join('|')}),\\s*)?(.+)$`);
const REGION_COUNTRY = new Map<string, string>([...US_STATES.map((r) => [r, 'US'] as const), ...CA_PROVINCES.map((r) => [r, 'CA'] as const), ...AU_STATES.map((r) => [r, 'AU'] as const)]);

/** A street line: a number and a street word ("135 Laurier Ave W,", "Rd. E, Suite 101"), not a phone number. */
function streetLine(line: string): boolean {
  return line.length <= 80 && /\d/.test(line) && STREET_WORD.test(line) && !phonesInLine(line).length;
}

/**
 * A town alone on the line after a street, without region or postcode, as sites list their offices ("Toronto" /
 * "2275 Upper Middle" / "Rd. E, Suite 101" / "Toronto"; "135 Laurier Ave W," / "ON, Ottawa"): kept only for a town the
 * gazetteer knows, with a low confidence. It seldom decides the main address; it shows the site has more than one town.
 */
function bareTownAfterStreet(lines: string[], idx: number): Omit<FoundAddress, 'label' | 'phoneDigits' | 'lineIndex' | 'chrome'> | undefined {
  const line = tidy(lines[idx]!);
  const prev = tidy(lines[idx - 1] ?? '');
  if (line.length > 40 || !streetLine(prev)) return undefined;
  const m = BARE_REGION.exec(line);
  const town = m?.[2]?.trim() ?? '';
  if (!looksLikePlace(town) || isRegionName(town)) return undefined;
  const regionCountry = m?.[1] ? REGION_COUNTRY.get(m[1]) : undefined;
  const hit = findCity(town, regionCountry);
  if (!hit) return undefined;
  const street = tidy([lines[idx - 2] ?? '', prev].filter((l) => streetLine(tidy(l))).join(', '));
  return { street, city: spacedAbbreviation(town), region: m?.[1] ?? '', postalCode: '', country: hit.country, line: [street, town].filter(Boolean).join(', '), confidence: 0.5 };
}

/**
 * A postcode alone on its line below the town, as contact forms lay out their fields ("Meridiaan 2" / "Hulst" / "Nederland" /
 * "4561 PH"): the town one to three lines above (a country's name may sit between), one the gazetteer knows in a country whose
 * postcodes have that shape, with a street line above it.
 */
function townAbovePostcode(lines: string[], idx: number): Omit<FoundAddress, 'label' | 'phoneDigits' | 'lineIndex' | 'chrome'> | undefined {
  const code = /^(\d{4}\s?[A-Z]{2}|\d{4,5})$/.exec(tidy(lines[idx]!))?.[1];
  if (!code) return undefined;
  for (let j = idx - 1; j >= Math.max(1, idx - 3); j--) {
    const town = tidy(lines[j]!);
    if (countryCode(town)) continue;
    const hit = looksLikePlace(town) ? findCity(town) : undefined;
    const street = tidy(lines[j - 1]!);
    if (!hit || !EU_COUNTRIES.has(hit.country) || !POSTCODE_SHAPE[hit.country]?.test(code) || !/\p{L}.*\d|\d.*\p{L}/u.test(street) || street.length > 80) return undefined;
    return { street, city: spacedAbbreviation(town), region: '', postalCode: code, country: hit.country, line: `${street}, ${code} ${town}`, confidence: 0.9 };
  }
  return undefined;
}

/** A postcode, or the outward half of a British one ("ME15", "SW1A 1AA", "D02", "2000"): skipped between a town and its country. */
const POSTCODE_PART = /^(?=.*\d)[A-Z0-9]{2,5}(?:[\s-][A-Z0-9]{3,4})?$/;

/**
 * A street, a town and the country's name written out, without a postcode the anchors know, as shops outside North America
 * write their address in a footer ("StyleLocker, 313 The Mall," / "ME15, Maidstone," / "United Kingdom"): the line ends with a
 * country's name; before it, past a region or a postcode part, a town the gazetteer knows in that country; before the town,
 * within two parts, a part with a house number. Kept with a known town's confidence and no postcode's.
 */
function townBeforeCountry(lines: string[], idx: number): Omit<FoundAddress, 'label' | 'phoneDigits' | 'lineIndex' | 'chrome'> | undefined {
  // the country first, from this line alone: most lines end with none, and the block is not built for them
  const named = tidy(lines[idx]!).split(SEP_RE).map(tidy).filter(Boolean).at(-1) ?? '';
  const country = named.length >= 4 || named === 'UK' ? countryCode(named) : undefined;
  if (!country) return undefined;
  const block = [tidy(lines[idx]!)];
  for (let j = idx - 1; j >= Math.max(0, idx - 2) && tidy(lines[j]!).length <= 80; j--) block.unshift(tidy(lines[j]!));
  const parts = block.join(', ').split(SEP_RE).map(tidy).filter(Boolean);
  let k = parts.length - 2;
  while (k >= 0 && (POSTCODE_PART.test(parts[k]!) || isRegionName(parts[k]!))) k--;
  const known = (part: string) => looksLikePlace(part) && !isRegionName(part) && findCity(part, country)?.country === country;
  // a region the lists do not hold ("Emilia-Romagna") may stand between the town and the country
  if (k >= 2 && !known(parts[k]!) && looksLikePlace(parts[k]!)) k--;
  const town = parts[k] ?? '';
  if (k < 1 || !known(town)) return undefined;
  const street = parts.slice(Math.max(0, k - 2), k).find((p) => /^\d+[a-z]?\s+\p{L}|\p{L}.*\s\d+[a-z]?$/u.test(p) && p.length <= 60 && !phonesInLine(p).length);
  if (!street) return undefined;
  return { street, city: spacedAbbreviation(town), region: '', postalCode: '', country, line: `${street}, ${town}, ${named}`, confidence: 0.68 };
}

/** Addresses in the lines of one page. */
export function findAddresses(lines: string[], chromeLines: ReadonlySet<number> = new Set(), countryHint = ''): FoundAddress[] {
  const out: FoundAddress[] = [];
  const bares = new Set<FoundAddress>();
  const countryWritten = new Set<FoundAddress>();
  lines.forEach((line, idx) => {
    const before = out.length;
    const bare = () => {
      if (out.length > before || out.some((a) => a.lineIndex === idx - 1)) return;
      const a = bareTownAfterStreet(lines, idx);
      if (!a) return;
      const found = { ...a, label: '', lineIndex: idx, phoneDigits: blockPhones(lines, idx, a.street), chrome: chromeLines.has(idx) };
      bares.add(found);
      out.push(found);
    };
    const below = line.length <= 9 ? townAbovePostcode(lines, idx) : undefined;
    if (below) out.push({ ...below, label: '', lineIndex: idx, phoneDigits: blockPhones(lines, idx, below.street), chrome: chromeLines.has(idx) });
    if (line.length <= 400 && /\d{2}/.test(line)) {
      for (const a of europeanAddresses(lines, idx, countryHint)) {
        const prev = lines.slice(Math.max(0, idx - 4), idx).filter((l) => l.length <= 120);
        const labelLine = [...prev].reverse().find((l) => /office|headquarters|\bhq\b|branch|location|store|clinic|visit|address|sitz|zentrale|standort|filiale|anschrift/i.test(l) && l.length < 60) ?? '';
        out.push({ ...a, label: tidy(labelLine), lineIndex: idx, phoneDigits: blockPhones(lines, idx, a.street), chrome: chromeLines.has(idx) });
      }
    }
    const cyrillic = cyrillicAddress(line, countryHint);
    if (cyrillic) out.push({ ...cyrillic, label: '', lineIndex: idx, phoneDigits: blockPhones(lines, idx, cyrillic.street), chrome: chromeLines.has(idx) });
    // a country's name ends the line: no anchor of the ones below is on it
    if (line.length <= 120 && !out.some((a) => a.lineIndex >= idx - 2)) {
      const written = townBeforeCountry(lines, idx);
      if (written) {
        const withBlock = { ...written, label: '', lineIndex: idx, phoneDigits: blockPhones(lines, idx, written.street), chrome: chromeLines.has(idx) };
        countryWritten.add(withBlock);
        out.push(withBlock);
      }
    }
    // "Southgate" / "MI" / "48195": a state and its ZIP each in their own cell read as one line
    const next = lines[idx + 1]?.trim() ?? '';
    const text = US_STATE_LINE.test(line.trim()) && /^\d{5}(?:-\d{4})?$/.test(next) ? `${line.trim()} ${next}` : line;
    // cheap pre-check: every anchor needs a digit, a ", XX" region code or a Brazilian " - SP"
    if (text.length > 400 || !/\d|,\s*\(?[A-Z][A-Za-zé]|[-–/]\s?[A-Z]{2}\b/.test(text)) {
      bare();
      return;
    }
    for (const a of ANCHORS) {
      for (const m of text.matchAll(a.re)) {
        const start = m.index ?? 0;
        const prev = lines.slice(Math.max(0, idx - 4), idx).filter((l) => l.length <= 120);
        const prefix = [...prev, text.slice(0, start)].join('\n');
        // Brazil's CEP on the line after the town and state
        const postalCode = m[2] || (a.country === 'BR' ? (/^CEP:?\s*(\d{5}-?\d{3})$/i.exec(next)?.[1] ?? '') : '');
        const found = townAfterCode(text.slice(start + m[0].length), a.country, m[1] ?? '', postalCode, cityBefore(prefix, a.country));
        if (!found) continue;
        const region = a.country === 'GB' ? '' : m[1] ?? '';
        if (a.country === 'CA' && !postalCode && !found.known) continue;
        if (a.country === 'US' && (region.length > 2 || !postalCode) && !found.known) continue;
        if ((a.country === 'IE' || a.country === 'BR' || a.country === 'IN') && !found.known) continue;
        if ((a.country === 'AE' || a.country === 'QA') && (!found.known || !found.streetParts.some((p) => /\d/.test(p)))) continue;
        // a house number, or a building's name as British addresses write it instead ("Alexander House, James Street West")
        const confidence = (found.known ? 0.6 : 0.3) + (postalCode ? 0.3 : 0) + (found.streetParts.some((s) => /\d/.test(s) || BUILDING.test(s)) ? 0.08 : 0);
        const street = found.streetParts.filter((s) => /\d|box/i.test(s) || STREET_WORD.test(s)).slice(-2).join(', ');
        const labelLine = [...prev].reverse().find((l) => /office|headquarters|\bhq\b|branch|location|store|clinic|yard|visit|find us|address/i.test(l) && l.length < 60) ?? '';
        const inlineLabel = /^([^:\d]{3,40}):/.exec(line)?.[1] ?? '';
        out.push({
          street,
          city: found.city,
          region,
          postalCode,
          country: a.country,
          line: [street, found.city, [region, postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', '),
          label: tidy(`${labelLine} ${inlineLabel}`),
          confidence: Math.min(0.98, confidence),
          lineIndex: idx,
          phoneDigits: blockPhones(lines, idx, street),
          chrome: chromeLines.has(idx),
        });
      }
    }
    bare();
  });
  // the town alone on its line, then its state and ZIP on the next ("New Braunfels" / "TX 78132"): one address, the anchored one
  const sameTown = (a: FoundAddress, b: FoundAddress) => b.city.toLowerCase() === a.city.toLowerCase();
  return out.filter(
    (a) =>
      (!bares.has(a) || !out.some((b) => !bares.has(b) && b.lineIndex > a.lineIndex && b.lineIndex <= a.lineIndex + 2 && sameTown(a, b))) &&
      // an anchor on the same block (a postcode below the country, "Doha, Qatar") reads it with more certainty
      (!countryWritten.has(a) || !out.some((b) => !countryWritten.has(b) && Math.abs(b.lineIndex - a.lineIndex) <= 3 && sameTown(a, b))),
  );
}
