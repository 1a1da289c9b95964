/**
 * Turns a free-text query into safe keyword-search terms. Conversational queries ("Hi, I need
 * someone to fix my roof in Leeds") must still find things, so terms are OR-ed and common
 * words dropped; every term is reduced to letters and digits so nothing reaches to_tsquery
 * as an operator.
 */
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him himself his ' +
    'how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out ' +
    'over own same she should so some such than that the their theirs them themselves then there these they this those through to too ' +
    'under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    'hi hello please thanks thank need needs want wants looking look find help someone somebody company companies business ' +
    "like i'm im i'd id we're ive i've get got would could can also really good best one ones"
  ).split(/\s+/),
);

export function queryTerms(q: string, max = 24): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const raw of q.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}]+/u)) {
    if (!raw || raw.length > 40 || STOP_WORDS.has(raw)) continue;
    if (raw.length === 1 && !/\d/.test(raw)) continue;
    if (seen.has(raw)) continue;
    seen.add(raw);
    terms.push(raw);
    if (terms.length >= max) break;
  }
  return terms;
}

/** `a | b | c` for to_tsquery, or undefined when no term survives. */
export function orTsQuery(terms: string[]): string | undefined {
  return terms.length ? terms.join(' | ') : undefined;
}

/**
 * Verbs a request opens with that say what to do, not what is needed ("fix a torn sail", "set up an aquarium"):
 * skipped when looking for the word that names the need.
 */
const REQUEST_VERBS = new Set(
  'fix install build make get find buy hire book set put maintain clean sell rent give send switch organise organize plan create start run do take bring arrange provide supply replace remove order'.split(' '),
);

/** The word that names the need: the first term that is not a request verb (undefined when there is none). */
export function headTerm(terms: string[]): string | undefined {
  return terms.find((t) => !REQUEST_VERBS.has(t));
}

/** "No profile in the directory mentions “calligraphy”." for the words of a request no profile uses (ask and the site say it alike). */
export function unmatchedSentence(words: string[]): string {
  if (words.length === 0) return '';
  if (words.length > 3) return 'No profile in the directory uses most of these words.';
  return `No profile in the directory mentions ${words.map((w) => `"${w}"`).join(words.length === 2 ? ' or ' : ', ')}.`;
}
