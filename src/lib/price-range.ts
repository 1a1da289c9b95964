import { toPlainLine } from './text.js';

/**
 * A company's price range: from, to (optional), an ISO 4217 currency and the unit it is priced per; and the
 * conversion the max_price filter uses. The service runs without network access, so the exchange rates are a
 * table kept here with the date they were taken; `RATES_AS_OF` says how old they are, and the API says it too.
 */
export const PRICE_UNITS = ['hour', 'day', 'job', 'visit', 'project', 'month', 'year', 'person', 'night', 'item'] as const;
export type PriceUnit = (typeof PRICE_UNITS)[number];

export interface PriceRange {
  from: number;
  to?: number;
  currency: string;
  unit: PriceUnit;
}

/** Reference rates: units of each currency per 1 euro, as published on this date (updated by hand with the code). */
export const RATES_AS_OF = '2026-11-20';
export const EUR_RATES: Readonly<Record<string, number>> = {
  EUR: 1, USD: 1.08, GBP: 0.85, CHF: 0.95, JPY: 162, CNY: 7.8, CAD: 1.5, AUD: 1.65, NZD: 1.8, SEK: 11.4, NOK: 11.7, DKK: 7.46,
  PLN: 4.3, CZK: 25.2, HUF: 395, RON: 4.98, BGN: 1.96, TRY: 37.5, INR: 91, SGD: 1.45, HKD: 8.4, KRW: 1480, MXN: 20.5,
  BRL: 6.2, ZAR: 19.8, AED: 3.97, SAR: 4.05, ILS: 4.0, THB: 37.5, MYR: 4.9, IDR: 17200, PHP: 62, KES: 140, NGN: 1650,
};
export const CURRENCIES: readonly string[] = Object.keys(EUR_RATES).sort();

/** An amount in another currency by the reference rates; undefined for a currency without a rate. */
export function convert(amount: number, from: string, to: string): number | undefined {
  const a = EUR_RATES[from.toUpperCase()];
  const b = EUR_RATES[to.toUpperCase()];
  return a === undefined || b === undefined ? undefined : (amount / a) * b;
}

/** Checks and normalises a price range; the problem as a sentence with the key it concerns. */
export function normalizePriceRange(input: unknown): { range: PriceRange } | { problem: string; path: string[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { problem: 'A price range should be an object with from, to, currency and unit', path: [] };
  const o = input as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!['from', 'to', 'currency', 'unit'].includes(key)) return { problem: `Unknown key "${key}": use from, to, currency and unit`, path: [key] };
  const money = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1e9;
  if (!money(o.from)) return { problem: 'from should be an amount of 0 or more', path: ['from'] };
  if (o.to !== undefined && o.to !== null && (!money(o.to) || (o.to as number) < (o.from as number))) return { problem: 'to should be an amount no lower than from', path: ['to'] };
  const currency = typeof o.currency === 'string' ? o.currency.trim().toUpperCase() : '';
  if (!EUR_RATES[currency]) return { problem: `currency should be an ISO 4217 code such as EUR, USD or GBP (one of ${CURRENCIES.length} known)`, path: ['currency'] };
  if (typeof o.unit !== 'string' || !(PRICE_UNITS as readonly string[]).includes(o.unit)) return { problem: `unit should be one of ${PRICE_UNITS.join(', ')}`, path: ['unit'] };
  const round = (v: number) => Math.round(v * 100) / 100;
  return { range: { from: round(o.from as number), ...(typeof o.to === 'number' ? { to: round(o.to) } : {}), currency, unit: o.unit as PriceUnit } };
}

/** One service's own price ("Boiler service: from £80 per visit"): the price part is a PriceRange. */
export interface ServicePrice extends PriceRange {
  service: string;
}

/** At most this many priced services: a price list, not a catalogue. */
export const MAX_SERVICE_PRICES = 30;
export const SERVICE_NAME_MAX = 120;

/**
 * Checks and normalises a list of service prices: each service named in plain text (1–120 characters), each price
 * as normalizePriceRange reads it. A service listed twice (compared without case) is refused rather than merged:
 * which of the two prices is right is the owner's call. The problem names the index and key it concerns.
 */
export function normalizeServicePrices(input: unknown): { prices: ServicePrice[] } | { problem: string; path: (string | number)[] } {
  if (!Array.isArray(input)) return { problem: 'service_prices should be a list of {service, from, to, currency, unit}', path: [] };
  if (input.length > MAX_SERVICE_PRICES) return { problem: `At most ${MAX_SERVICE_PRICES} service prices`, path: [] };
  const prices: ServicePrice[] = [];
  const seen = new Map<string, number>();
  for (const [i, item] of input.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return { problem: 'A service price should be an object with service, from, to, currency and unit', path: [i] };
    const { service, ...price } = item as Record<string, unknown>;
    const name = typeof service === 'string' ? toPlainLine(service) : '';
    if (!name) return { problem: 'service should name the service priced', path: [i, 'service'] };
    if (name.length > SERVICE_NAME_MAX) return { problem: `service should be at most ${SERVICE_NAME_MAX} characters`, path: [i, 'service'] };
    const key = name.toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) return { problem: `"${name}" is listed twice (also at ${earlier}): give each service one price`, path: [i, 'service'] };
    seen.set(key, i);
    const r = normalizePriceRange(price);
    if ('problem' in r) return { problem: r.problem.replace('A price range', 'A service price'), path: [i, ...r.path] };
    prices.push({ service: name, ...r.range });
  }
  return { prices };
}

/** "€50–€120 per hour", "from $80 per job": the range as people and schema.org's priceRange read it. */
export function priceLine(r: PriceRange): string {
  const fmt = (v: number) => new Intl.NumberFormat('en', { style: 'currency', currency: r.currency, maximumFractionDigits: v % 1 ? 2 : 0 }).format(v);
  const amount = r.to !== undefined && r.to !== r.from ? `${fmt(r.from)}–${fmt(r.to)}` : `from ${fmt(r.from)}`;
  return `${amount} per ${r.unit}`;
}
