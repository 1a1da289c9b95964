import { isOpenAt } from '../../lib/opening-hours.js';
import { convert, EUR_RATES, CURRENCIES } from '../../lib/price-range.js';
import { invalid } from '../../platform/errors.js';
import type { PostFilterFacts } from './search.repo.js';
import type { SearchQuery } from './search.schemas.js';

/**
 * Filters decided in code, after retrieval: open_now / open_at (each company's hours in its own time zone) and
 * max_price (the price range's lower bound converted to the currency asked, by the reference rates of
 * lib/price-range.ts). Companies without the facts a filter reads are left out by it.
 */
export interface PostFilter {
  openAt?: Date;
  maxPrice?: { amount: number; currency: string };
  /** Only companies whose published reviews average at least this. */
  minRating?: number;
}

export function postFilterOf(q: SearchQuery): PostFilter {
  const post: PostFilter = {};
  if (q.open_at) {
    const at = new Date(q.open_at);
    if (Number.isNaN(at.getTime())) throw invalid(['query', 'open_at'], 'Input should be a valid RFC 3339 date-time', q.open_at, 'datetime_parsing');
    post.openAt = at;
  } else if (q.open_now) {
    // Read at the minute of the request: the answer cache keeps it for that minute at most.
    post.openAt = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  }
  if (q.max_price !== undefined) {
    const currency = (q.currency ?? 'EUR').toUpperCase();
    if (!EUR_RATES[currency]) throw invalid(['query', 'currency'], `Input should be an ISO 4217 currency code with a known rate: ${CURRENCIES.join(', ')}`, q.currency, 'enum');
    post.maxPrice = { amount: q.max_price, currency };
  } else if (q.currency !== undefined) {
    throw invalid(['query', 'currency'], 'currency is the currency of max_price: send max_price with it', q.currency, 'value_error');
  }
  if (q.min_rating !== undefined) post.minRating = q.min_rating;
  return post;
}

export const isPostFiltered = (p: PostFilter): boolean => Boolean(p.openAt || p.maxPrice || p.minRating !== undefined);

/** Whether a company passes; `f` is read only for open_* and max_price, `average` (its rating) only for min_rating. */
export function passes(f: PostFilterFacts | undefined, p: PostFilter, average: number | null = null): boolean {
  if (p.openAt && (!f?.opening_hours || !f.timezone || !isOpenAt(f.opening_hours, f.timezone, p.openAt))) return false;
  if (p.maxPrice) {
    if (!f?.price_range) return false;
    const from = convert(f.price_range.from, f.price_range.currency, p.maxPrice.currency);
    if (from === undefined || from > p.maxPrice.amount) return false;
  }
  if (p.minRating !== undefined && (average === null || average < p.minRating)) return false;
  return true;
}
