import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * Phone numbers as a person reads them on a business website, checked with libphonenumber:
 * parsed for the site's country (or the number's own +prefix), stored in E.164 with a display
 * form, and scored so the main number wins over fax, toll-free, after-hours and branch lines.
 */
export interface PhoneCandidate {
  raw: string;
  /** Words just before the number on its line ("Fax:", "Toll free", "Office"). */
  label: string;
  source: 'jsonld' | 'microdata' | 'tel' | 'text' | 'alt';
  url: string;
  /** Written in the site's own header or footer (not the body text, where other firms' numbers are quoted). */
  chrome?: boolean;
  /** Written in a testimonial, a review or a sponsor's block: another party's number. */
  quoted?: boolean;
}

export interface ParsedPhone {
  e164: string;
  /** International display form: the site's own when it wrote +CC, else libphonenumber's. */
  display: string;
  country: string;
  type: string;
}

/** Extension marks ("ext. 101", "x12", "poste 3") are cut before parsing: the main line is the number. */
const EXTENSION_RE = /\s*(?:,|;)?\s*(?:ext\.?|extension|x|poste|#)\s*\d{1,6}\s*$/i;

export function parsePhone(raw: string, countries: string[]): ParsedPhone | undefined {
  const cleaned = raw.replace(/^tel:/i, '').replace(EXTENSION_RE, '').replace(/\(0\)/g, '').trim();
  if (cleaned.replace(/\D/g, '').length < 7) return undefined;
  const international = /^(\+|00)/.test(cleaned);
  const tries = international ? [undefined] : [...new Set(countries)].filter(Boolean).map((c) => c as CountryCode);
  for (const c of tries) {
    const p = parsePhoneNumberFromString(cleaned.replace(/^00/, '+'), c);
    if (!p || !p.isValid()) continue;
    // the site's own grouping, dots and dashes read as spaces ("+44.20.7946.0958"); a number written without any (a tel: link's
    // "+16145550142") takes libphonenumber's
    const sitesOwn = international && /^\+[\d\s().-]+$/.test(cleaned) ? cleaned.replace(/[()]/g, '').replace(/\s*[-.]\s*/g, ' ').replace(/\s+/g, ' ').trim() : '';
    return { e164: p.number, display: sitesOwn.includes(' ') ? sitesOwn : p.formatInternational(), country: p.country ?? c ?? '', type: p.getType() ?? '' };
  }
  return undefined;
}

/**
 * The E.164 form of a stored phone (as a company or its owner wrote it), parsed for the company's
 * country (ISO alpha-2; a +CC number needs none); null when it is empty or does not parse.
 */
export function toE164(phone: string | null | undefined, countryCode: string): string | null {
  if (!phone) return null;
  return parsePhone(phone, countryCode ? [countryCode.toUpperCase()] : [])?.e164 ?? null;
}

const NANP_BARE = /^[2-9]\d{2}[2-9]\d{6}$/;
const ZIP_BEFORE = /(?:\b[A-Z]{2},?\s+\d{5}(?:-\d{4})?|\b\d{5}(?:-\d{4})?,?\s+(?:United States|USA|U\.S\.A\.))[\s,.|·•]*$/;

// Dialable shapes: +CC groups, (area) groups, digit groups with spaces, dots or dashes; an optional extension.
const NUMBER_RE = /(?:\+|00)?\(?\d[\d\s().\-/–]{5,20}\d(?:\s*(?:,\s*)?(?:ext\.?|extension|x|poste)\s*\d{1,6})?/gi;

// Vanity numbers, read as the digits they dial: a local North American number ending in a word (VANITY_LOCAL), a North American toll-free code then letters ("1-800-FLOWERS", "(888) GO-PLUMB";
// letters past the seventh are not dialled), an Australian 1300/1800 number ("1300 FINCAR"). In capitals, or after "1-": "Box 800 Lincoln"
// is an address.
const VANITY_NANP = /(?<![\w+])((?:\+?1[\s.-]?)?(?:\(8(?:00|33|44|55|66|77|88)\)|8(?:00|33|44|55|66|77|88))[\s.-]?)([A-Z0-9]+(?:[.-][A-Z0-9]+)*)(?![\w-])/gi;
const VANITY_AU = /(?<![\w+])(1[38]00[\s-]?)([A-Z0-9]{6})(?![\w-])/g;
// a local North American number whose last four are a word in capitals: "303.333.PAUL", "(617) 555-SHOE"; dots or dashes between
// the groups, not spaces ("Suite 200 300 MAIN" is an address)
const VANITY_LOCAL = /(?<![\w+.-])((?:\+?1[.-])?(?:\([2-9]\d{2}\)\s?|[2-9]\d{2}[.-])[2-9]\d{2}[.-])([A-Z]{4})(?![\w-])/g;
const KEYPAD = 'ABC DEF GHI JKL MNO PQRS TUV WXYZ'.split(' ');
const dialled = (c: string) => (/\d/.test(c) ? c : String(KEYPAD.findIndex((k) => k.includes(c.toUpperCase())) + 2));

function vanityDigits(text: string): string {
  // "1-800-FLOWERS" → "1-800 356-9377", "1300 FINCAR" → "1300 346-227"
  const spell = (prefix: string, word: string, length: number, upTo: number) => {
    const chars = word.replace(/[.-]/g, '');
    if (chars.length < length || chars.length > upTo || (chars.match(/[A-Z]/gi) ?? []).length < 3) return undefined;
    const digits = [...chars.slice(0, length)].map(dialled).join('');
    return `${prefix.replace(/[\s.-]+$/, '')} ${digits.slice(0, 3)}-${digits.slice(3)}`;
  };
  return text
    // written as a number: "1 800 ...", "(800) ...", "800-..." ("Box 800 LINCOLN" is an address); longer words after a "1" only
    .replace(VANITY_NANP, (m, prefix: string, word: string) => {
      const one = /^\+?1[\s.-]/.test(prefix);
      if (/^\d{3}\s*$/.test(prefix) || (/[a-z]/.test(word) && !/^\+?1[.-]/.test(prefix))) return m;
      return spell(prefix, word, 7, one ? 9 : 7) ?? m;
    })
    .replace(VANITY_AU, (m, prefix: string, word: string) => spell(prefix, word, 6, 6) ?? m)
    .replace(VANITY_LOCAL, (_m, prefix: string, word: string) => `${prefix}${[...word].map(dialled).join('')}`);
}

/**
 * Where a match runs on into a second number ("(614) 555-0142 (614) 555-0143", two links side by side) or starts with a
 * postcode ("28202 (855) 463-5490"), when the run holds more digits than one national number (13 or more): the first space
 * after which a whole number stands on the left, else before a whole "(area) number" on the right, else between two parts
 * long enough to be numbers.
 */
function runOnCut(raw: string): number {
  const digits = (x: string) => x.replace(/\D/g, '').length;
  if (/^(?:\+|00)/.test(raw) || digits(raw) < 13) return -1;
  const cuts = [...raw.matchAll(/\s+(?=[\d(])/g)].map((m) => ({ at: m.index, left: digits(raw.slice(0, m.index)), right: raw.slice(m.index).trim() }));
  const cut =
    cuts.find((c) => c.left >= 10 && digits(c.right) >= 3) ??
    cuts.find((c) => c.right.startsWith('(') && digits(c.right) >= 10) ??
    cuts.find((c) => c.left >= 8 && digits(c.right) >= 7);
  return cut?.at ?? -1;
}

// After a number, what says it is a fax: "(614) 555-0143 (fax)", "555-0143 - Fax", "555-0143 fax" at the end of its part of the line
// (before another number, a bare "Fax" is that number's label: "0049 30 1234 Fax 0049 30 1235")
const FAX_AFTER = /^\s*(?:\(\s*(?:fax|f)\s*\)|[-–—:]?\s*(?:fax|facsimile)\b\.?\s*(?:$|[|,;/·•]))/i;
const FAX_BETWEEN = /^\s*(?:\(\s*(?:fax|f)\s*\)|[-–—:]?\s*(?:fax|facsimile)\b\.?\s*[|,;/·•])/i;

// A company's registry, tax or bank number written where footers write phones: "P.IVA 01234567890" or "SIREN 552 100 554"
// read as a phone of that country, "ОГРН 1027700132195", "ABN 12 345 678 901". Checked on the words right before the
// number (a country prefix of a VAT number, "DE", "IT", may sit between). Short acronyms that are also words in some
// language ("ein", "nie", "ape", "cf.") count only in capitals.
const REGISTRY_TAIL = String.raw`\.?\s*(?:[:#.]|n[°º]|no\.?)?\s*(?:[A-Za-z]{2}\s?)?$`;
const REGISTRY_WORDS = new RegExp(
  String.raw`(?:\b(?:vat|tva|btw|mwst|iva|p\.?\s?iva|partita\s+iva|codice\s+fiscale|ust\.?[\s-]?id(?:[\s-]?nr)?|steuer[\s-]?(?:nr|nummer)|handelsregister|siret|siren|rcs(?:\s+[a-zà-ÿ' -]{2,30})?|kvk|abn|acn|arbn|nzbn|tax\s+id|org\.?\s?nr|iban|swift|sort\s+code|account\s+(?:no|number)|nmls(?:\s+id)?|licen[cs]e|company\s+(?:no|number|reg(?:istration)?)|reg(?:istration|istered)?\.?\s*(?:no|nr|number|num)|registered\s+(?:in\s+[a-z ]{2,30}\s+)?(?:no|number)|ondernemingsnummer|numéro\s+d['’]entreprise)` +
    String.raw`|(?:огрн(?:ип)?|инн|кпп|окпо|р\/с|к\/с|бик))` + REGISTRY_TAIL,
  'i',
);
const REGISTRY_ACRONYMS = new RegExp(String.raw`\b(?:EIN|REA|APE|NAF|NIE|NIF|CIF|C\.?F|GST|HST|BIC|HRB|HRA|CVR|KBO)` + REGISTRY_TAIL);

function isRegistryLabel(before: string): boolean {
  const tail = before.slice(-48).trimEnd();
  return REGISTRY_WORDS.test(tail) || REGISTRY_ACRONYMS.test(tail);
}

/** Numbers in one line of visible text, each with the words just before it as its label. */
export function phonesInLine(text: string): { raw: string; label: string }[] {
  const out: { raw: string; label: string; end: number }[] = [];
  // "028 9068 1234 / 07801 234567": a spaced slash separates two numbers
  // ("030 / 123 456 78" is one German number: the left side is too short to be a number of its own)
  const line = vanityDigits(text).replace(/(\d[\d ().-]*\d)\s+\/\s+/g, (m: string, left: string) => (left.replace(/\D/g, '').length >= 8 ? `${left} | ` : m));
  const re = new RegExp(NUMBER_RE.source, 'gi');
  let last = 0;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const at = m.index;
    const cut = runOnCut(m[0]);
    const whole = cut > 0 ? m[0].slice(0, cut) : m[0];
    if (cut > 0) re.lastIndex = at + cut;
    const end = at + whole.length;
    const raw = whole.trim();
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 8 || digits.length > 17) {
      last = end;
      continue;
    }
    // dates, year ranges, ids without any separator
    if (/^\d{1,4}[./-]\d{1,2}[./-]\d{2,4}$/.test(raw) || /^(19|20)\d{2}\s*[-–]\s*(19|20)\d{2}$/.test(raw)) continue;
    // date ranges: "23.10.2015 - 25.10.2015", "10.2003 - 02.2004" (a dotted number never has a 4-digit year group)
    // and ISO timestamps: "2018-06-22 10:20:00" ("57 2018-06-22 10" after another one's seconds), a date run on from a time
    // ("10:20:0022.06.2018")
    if (/\d{1,2}\.\d{1,2}\.(?:19|20)\d{2}\b|(?:^|\s)\d{1,2}\.(?:19|20)\d{2}\b|\b(?:19|20)\d{2}-[01]\d-[0-3]\d\b/.test(raw)) {
      last = end;
      continue;
    }
    // digits without a separator are ids, but for a North American number written after its address's ZIP
    // ("Milwaukee, WI, 53203, United States 4143132807")
    if (!/[+\s().-]/.test(raw) && !raw.startsWith('0') && !(NANP_BARE.test(raw) && ZIP_BEFORE.test(line.slice(0, at)))) continue;
    // an en dash joins a European number's parts ("+49 431 – 5 36 22 67", "0431 – 5362267") but also ranges ("1800 – 2000 m")
    if (raw.includes('–') && !/^(?:\+|0|\()/.test(raw)) continue;
    // template placeholders left on a live site: "(123) 555-6789", "123-456-7890", a theme's "+44 1234 567890"
    if (/^\(?123\)?[\s.-]*(?:456|555)[\s.-]*\d{4}$/.test(raw) || digits.includes('123456789')) {
      last = end;
      continue;
    }
    const before = line.slice(last, at);
    if (isRegistryLabel(before)) {
      last = end;
      continue;
    }
    out.push({ raw, label: before.replace(/^.*[|·•]\s*/, '').slice(-40).trim(), end });
    last = end;
  }
  return out.map(({ raw, label, end }, i) => {
    const next = out[i + 1];
    const after = line.slice(end, next ? line.indexOf(next.raw, end) : line.length);
    if ((next ? FAX_BETWEEN : FAX_AFTER).test(after)) return { raw, label: `${label} (fax)`.trim() };
    // a note in brackets after the number says what line it is: "1-323-555-0100 (from overseas)", "0800 123 456 (toll-free)"
    const note = /^\s*\(([^()\d]{3,30})\)/.exec(after)?.[1];
    return { raw, label: note ? `${label} (${note.trim()})`.trim() : label };
  });
}

// a line for callers abroad beside the main one ("International Phone +1-309-..."; "Acme International" is a name)
// ("For our international customers, please call ...")
const ABROAD = /(?:^|[|·•:]\s*)international\b(?!\s+(?:inc|ltd|llc|corp|group|airport)\b)|\binternational (?:customers|callers|calls|clients|orders)\b|outside (the )?(us|usa|u\.s\.a?\.?|uk|canada|country)\b|from abroad|overseas/i;

const TOLL_FREE_LABEL = /toll[\s-]?free|freephone|free\s?call|sans frais|\b1-?800\b/i;
const TOLL_FREE_SCORE = -1.2;

const LABEL_SCORES: [RegExp, number][] = [
  [/\bfax\b|\bfacsimile\b|\bf\s*[:.]/i, -10],
  [TOLL_FREE_LABEL, TOLL_FREE_SCORE],
  [/after[\s-]?hours|emergency|24\s*\/?\s*7|24\s*hr|urgence/i, -1.0],
  [/billing|accounts|support|careers|media|press|bookings?\b/i, -0.4],
  // a directory's visitor is a new customer: the sales line is theirs before support's, billing's or the press's
  [/sales/i, -0.2],
  [/mobile|cell|\bmob\b|\bm\s*[:.]/i, -0.2],
  [/main|office|phone|\btel\b|\bph\b|\bp\s*[:.]|\bt\s*[:.]|call|téléphone|tél|general\s+(?:enquir|inquir|info)/i, 0.6],
  // "Corporate" alone or with its office is the head office; "Corporate Events" or "Corporate Sales" is a department
  [/head\s?office|headquarters|\bcorporate(?:\s+(?:office|headquarters|hq))?\b(?!\s*[a-z])|main office/i, 0.8],
  // a capital letter alone before the number, as footers abbreviate: "F (614) 555-0143 P (614) 555-0142"
  [/(?:^|\s)F$/, -10],
  [/(?:^|\s)[PT]$/, 0.6],
  // another party's number: an advertiser, a sponsor, a partner, a reviewer quoted
  [/\bsponsor(ed|s)?\b|\badvertis(ement|ing|er)\b|\bour partners?\b|\bpartner\s*:|testimonial/i, -0.8],
  [ABROAD, -1.2],
];

// a number given for messages only ("Text: ...", "WhatsApp"), not calls ("Call or text" is a phone line)
const MESSAGES_ONLY = /^(?:.*[|·•:]\s*)?(?:text(?:\s+us)?|sms|whats\s?app|signal|telegram|viber)(?:\s+only)?\s*[:.]?$/i;

export function labelScore(label: string): number {
  let s = 0;
  // "Tel/Fax", "Phone & Fax": one line for both, not a fax-only number
  const both = /\b(tel|phone|ph)\b\s*(\/|&|and)\s*fax|fax\s*(\/|&|and)\s*(tel|phone)/i.test(label);
  for (const [re, v] of LABEL_SCORES) if (re.test(label) && !(both && v <= -5)) s += v;
  if (MESSAGES_ONLY.test(label.trim())) s -= 1;
  return s;
}

const MOBILE_LABEL = /mobile|cell|\bmob\b|\bm\s*[:.]/i;

const SOURCE_SCORES: Record<PhoneCandidate['source'], number> = { jsonld: 3, microdata: 2.8, tel: 2.2, text: 1.5, alt: 1.3 };

/**
 * Where a number is written, beyond its label (issue 40): the site's header or footer, and the block of its main
 * address, are where a business puts its own number; body text also quotes a venue's, a client's or a branch's, and a
 * testimonial, a review or a sponsor's block gives another party's.
 */
const PLACE_SCORES = { chrome: 0.4, nearMainAddress: 0.6, quoted: -1.5, messagingOnly: -1.5 } as const;
/** A rival within this score of an unmarked winner puts it in doubt: its confidence falls by the penalty (below the publish threshold). */
const UNMARKED_RIVAL_MARGIN = 1;
const UNMARKED_RIVAL_PENALTY = 0.15;
/** Geographic lines: a toll-free number loses to one of these (the "label fax and toll-free"). */
const GEOGRAPHIC = /^(FIXED_LINE|FIXED_LINE_OR_MOBILE|MOBILE)$/;
const NON_GEOGRAPHIC = /TOLL_FREE|PREMIUM_RATE|SHARED_COST/;

export interface ChosenPhone extends ParsedPhone {
  source: string;
  url: string;
  confidence: number;
  /** Other valid numbers the site shows, best first. */
  others: string[];
}

/**
 * Whether two ways of writing digits are the same line: the same last eight digits, allowing the longer one up to two
 * more at its end ("+49 (0) 99 73 84 59 – 0": a German switchboard's "-0") and any country code or trunk zero in front.
 */
export function sameLine(a: string, b: string): boolean {
  const [short, long] = [a.replace(/\D/g, ''), b.replace(/\D/g, '')].sort((x, y) => x.length - y.length) as [string, string];
  if (short.length < 7) return false;
  const tail = short.slice(-8);
  for (let k = 0; k <= 2 && long.length - k >= tail.length; k++) if (long.slice(0, long.length - k).endsWith(tail)) return true;
  return false;
}

export interface PhoneHints {
  /** Digits of the numbers written in the block of the site's main address. */
  nearMainAddress?: string[];
  /** Digits of the numbers the site links only for messages (sms:, WhatsApp), never for calls. */
  messagingOnly?: string[];
}

interface RankedPhone {
  parsed: ParsedPhone;
  score: number;
  best: PhoneCandidate;
  seen: number;
  fax: boolean;
  /** Labelled as a line to call somewhere ("Tel:", "Teléfono:"): written also as the fax, it is one line for both. */
  called: boolean;
  /** Labelled as the line for callers abroad: no rival that makes a toll-free main line lose. */
  abroad: boolean;
  /** Written only in testimonials, reviews or sponsors' blocks: another party's, even when one stands by the main address. */
  quotedOnly: boolean;
  /** Something on the page marks it as the main line: a positive label, structured data, the main address's block. */
  marked: boolean;
}

/** Each valid number once, scored, best first (see choosePhone). */
export function rankPhones(cands: PhoneCandidate[], countries: string[], hints: PhoneHints = {}): RankedPhone[] {
  const byNumber = new Map<string, RankedPhone & { bestScore: number }>();
  const near = hints.nearMainAddress ?? [];
  cands.forEach((c, i) => {
    const parsed = parsePhone(c.raw, countries);
    if (!parsed) return;
    const label = labelScore(c.label);
    const chrome = c.chrome && (c.source === 'text' || c.source === 'tel') ? PLACE_SCORES.chrome : 0;
    const quoted = c.quoted ? PLACE_SCORES.quoted : 0;
    // earlier in the material (home page, header) weighs a little more
    const s = SOURCE_SCORES[c.source] + label + chrome + quoted - Math.min(i, 40) * 0.01;
    const marked = label > 0 || c.source === 'jsonld' || c.source === 'microdata';
    const e = byNumber.get(parsed.e164);
    const abroad = ABROAD.test(c.label);
    const called = label > 0;
    if (!e) byNumber.set(parsed.e164, { parsed, score: s, best: c, bestScore: s, seen: 1, fax: label <= -5, called, abroad, quotedOnly: !!c.quoted, marked });
    else {
      e.seen++;
      e.fax ||= label <= -5;
      e.called ||= called;
      e.abroad ||= abroad;
      e.quotedOnly &&= !!c.quoted;
      e.marked ||= marked;
      if (s > e.bestScore) Object.assign(e, { best: c, bestScore: s });
      e.score = Math.max(e.score, s);
    }
  });
  const messaging = (e: RankedPhone) => (hints.messagingOnly ?? []).some((d) => sameLine(d, e.parsed.e164));
  // "Tel: 96 155 70 43" / "Fax: 96 155 70 43": one line for calls and faxes, a phone
  const all = [...byNumber.values()].map((e) => ({ ...e, fax: e.fax && !e.called }));
  // a number the site labels as a mobile beside its freephone "Telephone" is the owner's own phone, not a local line it prefers
  const geographicRival = all.some((e) => !e.fax && !e.abroad && !messaging(e) && GEOGRAPHIC.test(e.parsed.type) && !MOBILE_LABEL.test(e.best.label));
  // the site's one line: "Toll free" says which kind it is, not that another line is the main one
  const alone = all.filter((e) => !e.fax).length === 1;
  return all
    .map(({ bestScore: _bestScore, ...e }) => {
      let score = e.score + Math.min(e.seen - 1, 3) * 0.35;
      if (e.fax) score -= 10;
      if (alone && TOLL_FREE_LABEL.test(e.best.label)) score -= TOLL_FREE_SCORE;
      if (messaging(e)) score += PLACE_SCORES.messagingOnly;
      const nearMain = !e.quotedOnly && near.some((d) => sameLine(d, e.parsed.e164));
      if (nearMain) score += PLACE_SCORES.nearMainAddress;
      if (NON_GEOGRAPHIC.test(e.parsed.type) && !/^\+61/.test(e.parsed.e164)) score -= geographicRival ? 1.5 : 0.8;
      if (countries[0] && e.parsed.country === countries[0]) score += 0.5;
      return { ...e, score, marked: e.marked || nearMain };
    })
    .sort((a, b) => b.score - a.score);
}

/**
 * The site's main number. Countries are tried in order (the site's country first); a number
 * valid in none of them is dropped. Labels, the source, where it is written (header, footer, next to the main
 * address), repetition across pages and whether it is a toll-free or premium line decide between valid numbers.
 * The confidence falls with a close rival, and more so when nothing on the page marks the winner as the main line.
 */
export function choosePhone(cands: PhoneCandidate[], countries: string[], hints: PhoneHints = {}): ChosenPhone | undefined {
  const ranked = rankPhones(cands, countries, hints);
  const top = ranked[0];
  if (!top || top.score < 0.5) return undefined;
  const margin = top.score - (ranked[1]?.score ?? 0);
  // other real lines close behind, and nothing on the page (label, structured data, the main address) naming this one
  const rivals = ranked.slice(1).filter((r) => !r.fax && top.score - r.score < UNMARKED_RIVAL_MARGIN).length;
  const doubt = !top.marked && rivals ? UNMARKED_RIVAL_PENALTY : 0;
  const confidence = Math.max(0.3, Math.min(0.99, 0.45 + top.score * 0.12 + Math.min(margin, 2) * 0.08) - doubt);
  return {
    ...top.parsed,
    source: top.best.source,
    url: top.best.url,
    confidence: Number(confidence.toFixed(2)),
    others: ranked.slice(1).filter((r) => r.score > 0.5).slice(0, 5).map((r) => r.parsed.e164),
  };
}
