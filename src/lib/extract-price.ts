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

/** Every price with a currency and a unit in the text, in order. */
export function pricesInText(text: string): RawPrice[] {
  const flat = text.replace(/\s+/g, ' ');
  const found: { at: number; price: RawPrice }[] = [];
  for (const m of flat.matchAll(AFTER)) {
    const unit = unitOf(m[5]!);
    // "25-35 €/Std.": a bare first amount takes the currency of the second.
    const price = unit && (m[1] ? priceOf(m[1], m[2], unit) : priceOf(m[3]!, m[4], unit));
    if (price) found.push({ at: m.index, price });
  }
  for (const m of flat.matchAll(BEFORE)) {
    const price = priceOf(m[2]!, m[3], BEFORE_UNIT.get(m[1]!.toLowerCase())!);
    if (price && !found.some((f) => Math.abs(f.at - m.index) < 40)) found.push({ at: m.index, price });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.price);
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

const DOLLAR_BY_COUNTRY: Record<string, string> = { CA: 'CAD', AU: 'AUD', NZ: 'NZD', SG: 'SGD', HK: 'HKD', MX: 'MXN' };
const KRONE_BY_COUNTRY: Record<string, string> = { SE: 'SEK', NO: 'NOK', DK: 'DKK' };

/** The range with an ISO currency: "$" by the company's country (USD elsewhere), "kr" only in Sweden, Norway and Denmark. */
export function resolveCurrency(raw: RawPrice | undefined, countryCode: string): PriceRange | undefined {
  if (!raw) return undefined;
  const cc = countryCode.toUpperCase();
  const currency = raw.currency === '$' ? (DOLLAR_BY_COUNTRY[cc] ?? 'USD') : raw.currency === 'kr' ? KRONE_BY_COUNTRY[cc] : raw.currency;
  return currency ? { ...raw, currency } : undefined;
}
