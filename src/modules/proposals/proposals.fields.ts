import { invalid } from '../../platform/errors.js';
import { toPlainLine } from '../../lib/text.js';

/**
 * The structured fields of a proposal request (issue 37), besides the free-text description: budget, needed_by,
 * location and category-specific details. The schemas (proposals.schemas.ts) refuse what JSON Schema can say; the
 * rules here add what it cannot (decimal places, a known currency, a date window relative to today, one-line plain
 * text, the type of a detail value), each as a 422 naming the field. Pure: no I/O.
 */

export const MAX_BUDGET = 1_000_000_000_000;
export const MAX_LOCATION = 200;
export const MAX_DETAILS = 20;
export const MAX_DETAIL_KEY = 40;
export const MAX_DETAIL_TEXT = 500;
export const MAX_DETAIL_NUMBER = 1_000_000_000_000;
export const NEEDED_BY_YEARS = 5;
/** snake_case: lower-case letters and digits in words joined by single underscores, starting with a letter. */
export const DETAIL_KEY_PATTERN = '^[a-z][a-z0-9]*(_[a-z0-9]+)*$';

/**
 * Currencies in circulation (ISO 4217, 2025), without funds, precious metals, testing and no-currency codes.
 * Fixed here rather than read from Intl, whose list depends on the ICU build of the running Node.
 */
const ISO_4217 = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC ' +
    'CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD ' +
    'JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD ' +
    'NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP ' +
    'SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG'
  ).split(' '),
);

export type DetailValue = string | number | boolean;
// A type, not an interface: it goes into webhook event data, which takes JSON values (index signatures).
export type Budget = { amount: number; currency: string };

/** The fields as the request carries them (already shaped by the schema). */
export interface StructuredInput {
  budget?: { amount: number; currency: string } | undefined;
  needed_by?: string | undefined;
  location?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

/** The fields as stored and shown: null when the request did not carry them. */
export interface StructuredFields {
  budget: Budget | null;
  needed_by: string | null;
  location: string | null;
  details: Record<string, DetailValue> | null;
}

// Every control character, tab and line breaks included: these fields are single lines.
const CONTROL = /\p{Cc}/u;
const noControl = (loc: (string | number)[], value: string): void => {
  if (CONTROL.test(value)) throw invalid(loc, 'Text must be one line without control characters (tabs and line breaks included)', value, 'string_pattern_mismatch');
};

function cleanBudget(budget: { amount: number; currency: string }): Budget {
  const { amount } = budget;
  const amountLoc = ['body', 'budget', 'amount'];
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) throw invalid(amountLoc, 'amount must be a number greater than 0', amount, 'greater_than');
  if (amount > MAX_BUDGET) throw invalid(amountLoc, `amount must be at most ${MAX_BUDGET}`, amount, 'less_than_equal');
  if (Math.round(amount * 100) / 100 !== amount) throw invalid(amountLoc, 'amount may have at most 2 decimal places', amount, 'decimal_max_places');
  const currency = String(budget.currency).trim().toUpperCase();
  if (!ISO_4217.has(currency)) throw invalid(['body', 'budget', 'currency'], 'currency must be an ISO 4217 code in use, such as EUR, USD or GBP', budget.currency);
  return { amount, currency };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (no February 30). */
function checkCalendarDate(value: string): string {
  const m = DATE.exec(value);
  const loc = ['body', 'needed_by'];
  if (!m) throw invalid(loc, 'needed_by must be a date written YYYY-MM-DD', value, 'date_parsing');
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) {
    throw invalid(loc, `needed_by is not a calendar date: ${value}`, value, 'date_parsing');
  }
  return value;
}

/** Today (UTC) or later, at most NEEDED_BY_YEARS ahead. Separate from `cleanStructured`: it depends on the day it runs. */
export function checkNeededByWindow(neededBy: string | null, now = new Date()): void {
  if (neededBy === null) return;
  const today = now.toISOString().slice(0, 10);
  // ISO dates compare as strings; the bound need not be a real date (2031-02-29 still orders right).
  const latest = `${Number(today.slice(0, 4)) + NEEDED_BY_YEARS}${today.slice(4)}`;
  if (neededBy < today) throw invalid(['body', 'needed_by'], `needed_by must not be in the past (today is ${today}, UTC)`, neededBy);
  if (neededBy > latest) throw invalid(['body', 'needed_by'], `needed_by must be at most ${NEEDED_BY_YEARS} years ahead (${latest} or earlier)`, neededBy);
}

function cleanLocation(location: string): string {
  noControl(['body', 'location'], location);
  const text = toPlainLine(location).slice(0, MAX_LOCATION);
  if (!text) throw invalid(['body', 'location'], 'location must contain visible text', location, 'string_too_short');
  return text;
}

function cleanDetails(details: Record<string, unknown>): Record<string, DetailValue> | null {
  const entries = Object.entries(details);
  if (entries.length > MAX_DETAILS) throw invalid(['body', 'details'], `details may have at most ${MAX_DETAILS} keys`, undefined, 'too_long');
  const keyPattern = new RegExp(DETAIL_KEY_PATTERN);
  const out: Record<string, DetailValue> = {};
  for (const [key, value] of entries) {
    const loc = ['body', 'details', key];
    if (key.length > MAX_DETAIL_KEY || !keyPattern.test(key)) {
      throw invalid(loc, `details keys must be snake_case (lower-case letters, digits and single underscores), at most ${MAX_DETAIL_KEY} characters`, key, 'string_pattern_mismatch');
    }
    if (typeof value === 'boolean') {
      out[key] = value;
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value) || Math.abs(value) > MAX_DETAIL_NUMBER) throw invalid(loc, `a number in details must be between -${MAX_DETAIL_NUMBER} and ${MAX_DETAIL_NUMBER}`, value);
      out[key] = value;
    } else if (typeof value === 'string') {
      noControl(loc, value);
      if (value.length > MAX_DETAIL_TEXT) throw invalid(loc, `text in details may have at most ${MAX_DETAIL_TEXT} characters`, undefined, 'string_too_long');
      const text = toPlainLine(value);
      if (!text) throw invalid(loc, 'text in details must contain visible text', value, 'string_too_short');
      out[key] = text;
    } else {
      throw invalid(loc, 'a value in details must be plain text, a number or a boolean (not an object, a list or null)', undefined, 'value_error');
    }
  }
  return entries.length ? out : null;
}

/** The structured fields checked and normalised (currency upper-cased, text made plain); everything but the date window. */
export function cleanStructured(input: StructuredInput): StructuredFields {
  return {
    budget: input.budget === undefined ? null : cleanBudget(input.budget),
    needed_by: input.needed_by === undefined ? null : checkCalendarDate(input.needed_by),
    location: input.location === undefined ? null : cleanLocation(input.location),
    details: input.details === undefined ? null : cleanDetails(input.details),
  };
}

/** "€2,500" or "€2,500.50" (English formatting, for mails). */
export function formatBudget(b: Budget): string {
  const digits = Number.isInteger(b.amount) ? 0 : 2;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: b.currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(b.amount);
  } catch {
    return `${b.currency} ${b.amount.toFixed(digits)}`;
  }
}

/** property_type → "Property type". */
export const detailLabel = (key: string): string => {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const detailText = (v: DetailValue): string => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v));

/** The fields as "Label: value" lines (the owner's new-proposal mail); none when the request carried none. */
export function structuredLines(f: StructuredFields): string[] {
  return [
    ...(f.budget ? [`Budget: ${formatBudget(f.budget)}`] : []),
    ...(f.needed_by ? [`Needed by: ${f.needed_by}`] : []),
    ...(f.location ? [`Location: ${f.location}`] : []),
    ...Object.entries(f.details ?? {}).map(([k, v]) => `${detailLabel(k)}: ${detailText(v)}`),
  ];
}
