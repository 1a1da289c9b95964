import { findPlaceInText } from '../../lib/geo.js';
import { AppError } from '../../platform/errors.js';
import type { SearchResult } from '../search/search.tuning.js';
import { groupByVerdict } from '../search/verdict-groups.js';
import type { Listed } from './site.listed.js';

/**
 * What the public search page shows, read from the search's relevance verdicts (search/relevance.ts):
 * strong results are matches, partial ones only "possibly related", weak ones are never returned. The
 * same split as the deterministic /ask answer (ask.service.ts), so the page and the agents' answer agree.
 */

/**
 * A text search lists at most this many results (one search, its answer cached by the search service,
 * paged by the site): enough to count the verdicts of everything a person would page through.
 */
export const SEARCH_WINDOW = 100;

/** A filter value the search does not know, with the value it most likely meant. */
export interface UnknownFilter {
  field: 'category' | 'country';
  value: string;
  suggestion?: string;
}

export interface TextResults {
  kind: 'text';
  query: string;
  /** A place named in the query; need: the words without it ("dentist" for "dentist in Munich"), when found. */
  place?: { name: string; need?: string };
  /** Strong matches, in or serving the named place when there is one. */
  here: Listed[];
  /** Strong matches elsewhere, nearest first (only when a place was named). */
  elsewhere: Listed[];
  /** Partial results: some evidence, not a match. */
  partial: Listed[];
  /** How many results the search found; more than listed when the window cut the list. */
  found: number;
  /** Words of the request that no profile uses ("calligraphy"). */
  unmatched: string[];
}

export interface BrowseResults {
  kind: 'browse';
  companies: Listed[];
  total: number;
  hasMore: boolean;
}

export type SearchView = TextResults | BrowseResults | { kind: 'unknown-filter'; problems: UnknownFilter[] };

/** The unknown category or country a search refused (a 422 naming the closest value), or undefined for any other error. */
export function unknownFilterOf(err: unknown): UnknownFilter | undefined {
  if (!(err instanceof AppError) || err.code !== 'validation') return undefined;
  const issue = err.issues?.[0];
  const field = issue?.loc[1];
  if (field !== 'category' && field !== 'country') return undefined;
  const suggestion = /did you mean "([^"]+)"/.exec(err.message)?.[1];
  return { field, value: typeof issue?.input === 'string' ? issue.input : '', ...(suggestion ? { suggestion } : {}) };
}

/** The verdict groups of a text search's listed results. */
export function textResults(query: string, listed: Listed[], result: Pick<SearchResult, 'place' | 'total_found' | 'unmatched_words'>): TextResults {
  const place = result.place?.source === 'q' ? result.place : undefined;
  const { inPlace, elsewhere, partial } = groupByVerdict(listed, place);
  const found = Math.max(result.total_found, inPlace.length + elsewhere.length + partial.length);
  const unmatched = result.unmatched_words ?? [];
  if (!place) return { kind: 'text', query, here: inPlace, elsewhere: [], partial, found, unmatched };
  const named = findPlaceInText(query);
  const need = named && named.place.name === place.name && named.rest !== query ? named.rest : undefined;
  return {
    kind: 'text',
    query,
    place: { name: place.name, ...(need ? { need } : {}) },
    here: inPlace,
    elsewhere,
    partial,
    found,
    unmatched,
  };
}
