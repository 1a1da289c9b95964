import { ownCurrency } from './countries.js';
import type { PriceRange, PriceUnit } from './price-range.js';

/**
 * Prices as small-business sites write them (issue 39): "from $45 per hour", "$80–$120/job", "£30 an hour",
 * "ab 45 € pro Stunde", "45 €/Std.", "Stundensatz: 55 €", "à partir de 40 € de l'heure", "desde 30 € por hora".
 * Only an amount with a currency and a unit counts: "free delivery over $50" or a shop's product prices say
 * nothing about what the company charges for its work, and a wrong price is worse than none.
 *
 * A bare "$" or "kr" is resolved by the company's country (resolveCurrency): "$" is CAD in Canada.
 */
export interface RawPrice {
  from: number;
  to?: number;
  /** ISO 4217, or "$" / "kr" until the country is known. */
  currency: string;
  unit: PriceUnit;
}

const CURRENCY = String.raw`(?:US\$|CA\$|C\$|A\$|AU\$|NZ\$|\$|£|€|CHF|EUR|USD|GBP|CAD|AUD)`;
const NUMBER = String.raw`\d{1,3}(?:[,.\u00a0 ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
const MONEY = String.raw`(?:${CURRENCY}\s?(?:${NUMBER})|(?:${NUMBER})\s?(?:${CURRENCY}|kr\b|SEK|NOK|DKK))`;
const RANGE = String.raw`\s?(?:-|–|—|to|bis|à|a|hasta)\s?`;

/** Unit words after "per", "/", "pro", "par", "por", "a(n)", "each", "je", "de l'", "la", "el". */
const UNIT_WORDS: [RegExp, PriceUnit][] = [
  [/^(?:hours?|hourly|hrs?|h|stunden?|std\.?|heures?|horas?|uur)$/i, 'hour'],
  [/^(?:days?|daily|tag|jour|d[ií]a)$/i, 'day'],
  [/^(?:jobs?|call-?outs?|einsatz|intervention)$/i, 'job'],
  [/^(?:visits?|besuch|visite|visita)$/i, 'visit'],
  [/^(?:projects?|projekt|projet|proyecto)$/i, 'project'],
  [/^(?:months?|monthly|mo|monat|mois|mes)$/i, 'month'],
  [/^(?:years?|yearly|annually|yr|jahr|année|año)$/i, 'year'],
  [/^(?:persons?|people|pp|guests?|heads?|personne|persona)$/i, 'person'],
  [/^(?:nights?|nacht|nuit|noche)$/i, 'night'],
];
const UNIT = String.raw`(?:(?:per|pro|par|por|an?|each|je|de\s?l'|la|el|\/)\s?)?(hours?|hourly|hrs?|h|stunden?|std\.?|heures?|horas?|uur|days?|daily|tag|jour|d[ií]a|jobs?|call-?outs?|einsatz|intervention|visits?|besuch|visite|visita|projects?|projekt|projet|proyecto|months?|monthly|mo|monat|mois|mes|years?|yearly|annually|yr|jahr|année|año|persons?|people|pp|guests?|heads?|personne|persona|nights?|nacht|nuit|noche)`;

/** "55 € per hour", "$80–$120/job", "45-60 € pro Stunde" (the unit after the amount). */
const AFTER = new RegExp(String.raw`(?:(${NUMBER})${RANGE}(${MONEY})|(${MONEY})(?:${RANGE}(${MONEY}|${NUMBER}))?)\s?(?:\+\s?)?(?:VAT\s|MwSt\.?\s|HT\s|TTC\s)?${UNIT}(?![\p{L}])`, 'giu');
/** "Stundensatz: 55 €", "day rate £300" (the unit named before the amount): each phrase with its unit. */
const BEFORE_PHRASES: readonly (readonly [string, PriceUnit])[] = [
  ['hourly rate', 'hour'], ['stundensatz', 'hour'], ['stundenlohn', 'hour'], ['tarif horaire', 'hour'], ['taux horaire', 'hour'],
  ['tarifa por hora', 'hour'], ['precio por hora', 'hour'],
  ['day rate', 'day'], ['daily rate', 'day'], ['tagessatz', 'day'],
  ['monthly fee', 'month'],
];
const BEFORE_UNIT = new Map(BEFORE_PHRASES);
const BEFORE = new RegExp(String.raw`(${BEFORE_PHRASES.map(([p]) => p).join('|')})[^\d€$£]{0,15}(${MONEY})(?:${RANGE}(${MONEY}|${NUMBER}))?`, 'giu');

function unitOf(word: string): PriceUnit | undefined {
  const w = word.replace(/\.$/, '');
  return UNIT_WORDS.find(([re]) => re.test(w) || re.test(word))?.[1];
}

/** "1.200,50" (European), "1,200.50" (English), "1 200", "45,50", "45.5": the amount as a number. */
export function parseAmount(text: string): number | undefined {
  const s = text.replace(/[\u00a0 ]/g, '');
  const lastSep = Math.max(s.lastIndexOf(','), s.lastIndexOf('.'));
  let normalised: string;
  if (lastSep < 0) normalised = s;
  else {
    const decimals = s.length - lastSep - 1;
    // A separator followed by exactly three digits groups thousands ("1.200 €", "$1,200"); one or two digits are cents.
    normalised = decimals === 3 ? s.replace(/[.,]/g, '') : `${s.slice(0, lastSep).replace(/[.,]/g, '')}.${s.slice(lastSep + 1)}`;
  }
  const n = Number(normalised);
  return Number.isFinite(n) && n > 0 && n < 1e7 ? n : undefined;
}

function currencyOf(money: string): string | undefined {
  const m = /US\$|CA\$|C\$|A\$|AU\$|NZ\$|\$|£|€|CHF|EUR|USD|GBP|CAD|AUD|SEK|NOK|DKK|kr\b/i.exec(money)?.[0];
  if (!m) return undefined;
  const map: Record<string, string> = { 'US$': 'USD', 'CA$': 'CAD', 'C$': 'CAD', 'A$': 'AUD', 'AU$': 'AUD', 'NZ$': 'NZD', '£': 'GBP', '€': 'EUR', $: '$', KR: 'kr' };
  return map[m.toUpperCase()] ?? m.toUpperCase();
}

const amountOf = (money: string) => parseAmount(money.replace(/[^\d.,\u00a0 ]/g, '').trim());

function priceOf(fromMoney: string, toMoney: string | undefined, unit: PriceUnit): RawPrice | undefined {
  const currency = currencyOf(fromMoney) ?? (toMoney ? currencyOf(toMoney) : undefined);
  const from = amountOf(fromMoney);
  if (!currency || from === undefined) return undefined;
  const to = toMoney ? amountOf(toMoney) : undefined;
  if (toMoney && currencyOf(toMoney) && currencyOf(toMoney) !== currency) return undefined;
  return { from, ...(to !== undefined && to > from ? { to } : {}), currency, unit };
}

/** A price found in a text: where it starts, and whether a phrase before the amount named its unit ("Stundensatz: 55 €"). */
interface FoundPrice {
  at: number;
  price: RawPrice;
  phrase: boolean;
}

function findPrices(flat: string): FoundPrice[] {
  const found: FoundPrice[] = [];
  for (const m of flat.matchAll(AFTER)) {
    const unit = unitOf(m[5]!);
    // "25-35 €/Std.": a bare first amount takes the currency of the second.
    const price = unit && (m[1] ? priceOf(m[1], m[2], unit) : priceOf(m[3]!, m[4], unit));
    if (price) found.push({ at: m.index, price, phrase: false });
  }
  for (const m of flat.matchAll(BEFORE)) {
    const price = priceOf(m[2]!, m[3], BEFORE_UNIT.get(m[1]!.toLowerCase())!);
    if (price && !found.some((f) => Math.abs(f.at - m.index) < 40)) found.push({ at: m.index, price, phrase: true });
  }
  return found.sort((a, b) => a.at - b.at);
}

/** Every price with a currency and a unit in the text, in order. */
export function pricesInText(text: string): RawPrice[] {
  return findPrices(text.replace(/\s+/g, ' ')).map((f) => f.price);
}

/** A priced service as a page states it; the currency unresolved, as in RawPrice. */
export interface RawServicePrice {
  service: string;
  price: RawPrice;
}

/** Leaders and separators between a service and its price: "Boiler service — £80", "Haarschnitt ....... 35 €", "Deep clean | $50". */
const LEADER = /[\s:|·•*–—-]+$|\s*\.{2,}\s*$|\s*…\s*$/u;
/** "from", "ab", "à partir de" just before the amount belong to the price, not to the service. */
const FROM_WORD = /\s+(?:from|starting (?:at|from)|only|just|ab|von|für|à partir de|dès|desde|a partir de|por solo)$/iu;
/**
 * Words that make a label a sentence or a heading rather than a service's name: "We charge $45 per hour", "Our rates: …",
 * "Prices start at …", "Stundensatz: …". Such a line says what something costs, but not which service.
 */
const NOT_A_SERVICE = new RegExp(String.raw`(?:^|[^\p{L}])(?:we|our|us|you|your|i|my|is|are|be|costs?|charges?|charging|starts?|prices?|pricing|rates?|fees?|tarifs?|tarife?|preise?|kosten|ab|wir|unser\w*|sie|ihr\w*|ist|sind|nous|notre|nos|vous|votre|vos|est|sont|prix|nuestr\w*|precios?|es|son|total|minimum|min|max|maximum|save|off|discount|shipping|delivery|orders?|over|under|up)(?![\p{L}])`, 'iu');

/** The service a line names before its price, or undefined when the text before the price is not a short name. */
function serviceLabel(before: string): string | undefined {
  let label = before;
  for (let previous = ''; previous !== label; ) {
    previous = label;
    label = label.replace(LEADER, '').replace(FROM_WORD, '').trim();
  }
  if (label.length < 3 || label.length > 60 || label.split(' ').length > 6) return undefined;
  // A name starts with a letter and holds no amount, no sentence punctuation and no other price.
  if (!/^\p{L}/u.test(label) || /[\d.,;!?€$£%]/.test(label) || NOT_A_SERVICE.test(label)) return undefined;
  return label;
}

/**
 * Services priced one per line, as price lists and table rows write them ("Boiler service — £80 per visit",
 * "Haarschnitt … 35 € pro Person"): the line states exactly one price with a unit, and the text before it is a
 * short name (at most six words, no figures, not a sentence). A line with two prices, a sentence around a price, or a
 * price after a phrase that names its unit ("Hourly rate: $60") gives nothing: a price put on the wrong service is
 * worse than none. Each service once (the first line wins), at most `max`.
 */
export function servicePricesFromText(text: string, max = 30): RawServicePrice[] {
  const out: RawServicePrice[] = [];
  const seen = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (line.length < 6 || line.length > 160) continue;
    const found = findPrices(line);
    if (found.length !== 1 || found[0]!.phrase) continue;
    const service = serviceLabel(line.slice(0, found[0]!.at));
    if (!service || seen.has(service.toLowerCase())) continue;
    seen.add(service.toLowerCase());
    out.push({ service, price: found[0]!.price });
    if (out.length >= max) break;
  }
  return out;
}

/**
 * The company's range from the prices a page states: the unit stated most often (the first on a tie), from
 * its lowest to its highest amount in one currency. Undefined when the page states none.
 */
export function priceRangeFromText(text: string): RawPrice | undefined {
  const prices = pricesInText(text);
  if (!prices.length) return undefined;
  const counts = new Map<string, number>();
  for (const p of prices) counts.set(`${p.unit} ${p.currency}`, (counts.get(`${p.unit} ${p.currency}`) ?? 0) + 1);
  const best = [...counts.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const same = prices.filter((p) => `${p.unit} ${p.currency}` === best);
  const from = Math.min(...same.map((p) => p.from));
  const to = Math.max(...same.map((p) => p.to ?? p.from));
  return { from, ...(to > from ? { to } : {}), currency: same[0]!.currency, unit: same[0]!.unit };
}

/** The currencies written "$" and "kr": a country's own one of them (lib/countries.ts) is what it means there. */
const DOLLARS = new Set(['CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN']);
const KRONER = new Set(['SEK', 'NOK', 'DKK']);

/** The range with an ISO currency: "$" by the company's country (USD elsewhere), "kr" only in Sweden, Norway and Denmark. */
export function resolveCurrency(raw: RawPrice | undefined, countryCode: string): PriceRange | undefined {
  if (!raw) return undefined;
  const own = ownCurrency(countryCode) ?? '';
  const currency = raw.currency === '$' ? (DOLLARS.has(own) ? own : 'USD') : raw.currency === 'kr' ? (KRONER.has(own) ? own : undefined) : raw.currency;
  return currency ? { ...raw, currency } : undefined;
}
