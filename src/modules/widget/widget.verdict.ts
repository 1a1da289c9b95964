import { INTENT_TOPICS, topicFor } from '../../lib/insight-topics.js';
import { dropInstructionLike } from '../../lib/untrusted-text.js';
import type { CompanyRecord } from '../companies/company.record.js';
import type { AnswerStatus } from './widget.schemas.js';

/** Text of a page the crawl module stored for a company. */
interface PageText {
  text: string;
}

/**
 * The deterministic verdict behind an agent's question about one company (no language model): "yes" only when one
 * statement of the company (a sentence of its description or pages, a service, a keyword), together with its
 * category and place, contains every specific word of the question; otherwise "not_stated". It never says "no":
 * a profile that is silent on something does not deny it.
 */
export interface ProfileVerdict {
  status: Exclude<AnswerStatus, 'no'>;
  /** The statements that carry a "yes" (at most two), in profile order. */
  evidence: string[];
  /** A question that asks whether (Do you…? Can you…?), not what, where or how. */
  yesNo: boolean;
}

/** Words that say nothing about what was asked: question filler and the verbs of offering. */
const FILLER = new Set(
  ('the a an and or of to in on for with at by from is are was were be been do does did you your yours we our us it its this that these those can could ' +
    'would should will shall may might must what which who whom how when where why have has had i me my there their they them any some about into than ' +
    'then please hello hi hey thanks thank also still really currently ever just very more most much many such other own same both each well too ' +
    'after before during since while like need needs want wants get gets able kind type types sort something anything someone anyone yourself yourselves ' +
    'offer offers offered offering provide provides providing sell sells handle handles work works working help helps service services company business ' +
    'firm customer customers client clients speak located based location area areas available availability open opening hours price prices pricing ' +
    'cost costs charge charges fee fees rate rates quote contact email phone call reach address languages language').split(' '),
);

const YES_NO = /^\s*(?:do|does|did|can|could|are|is|was|were|will|would|have|has|should|shall|may|might)\b/i;

/** A word reduced to a comparable form: lower case, plural and -ing/-ed endings dropped, six letters at most. */
function norm(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w.slice(0, 6);
}

const words = (text: string): string[] => text.match(/[\p{L}\p{N}]{3,}/gu) ?? [];

/** The specific words of a question (normalised): what a statement must mention to answer it. */
export function keyTerms(question: string): string[] {
  return [...new Set(words(question).filter((w) => !FILLER.has(w.toLowerCase())).map(norm))];
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

function languageName(code: string): string {
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export function profileVerdict(question: string, c: CompanyRecord, pages: PageText[]): ProfileVerdict {
  const yesNo = YES_NO.test(question);
  const sentences = [c.description, ...pages.map((p) => p.text)]
    .flatMap((t) => dropInstructionLike(t).match(/[^.!?\n]+[.!?]?/g) ?? [])
    .map((s) => s.trim())
    .filter((s) => s.length > 10);
  const intent = topicFor(question, 'intent');
  const place = [c.address, c.address && c.city && c.address.includes(c.city) ? '' : c.city, c.country].filter(Boolean).join(', ');
  // Where the company is and what it is hold for every one of its statements (not for a question about languages:
  // "German" would find Germany).
  const facts = new Set(intent === 'Languages' ? [] : words([c.category, c.industry, place].join(' ')).map(norm));
  // Sentences first: they quote best.
  let statements = [...sentences, ...c.services, ...c.keywords];
  // A question about prices, hours, delivery... is answered only by a statement about that.
  const intentWords = INTENT_TOPICS[intent];
  if (intentWords) {
    const re = new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${intentWords.join('|')})(?=$|[^\\p{L}\\p{N}])`, 'iu');
    statements = statements.filter((s) => re.test(s));
    if (intent === 'Contact & support' && (c.contact_email || c.phone)) statements.push([c.contact_email, c.phone].filter(Boolean).join(', '));
    if (intent === 'Location & service area' && place) statements.push(place);
    if (intent === 'Languages' && c.languages.length) statements.push(c.languages.map(languageName).join(', '));
  }
  const terms = keyTerms(question);
  if (terms.length === 0 && !intentWords) return { status: 'not_stated', evidence: [], yesNo };
  // "Are you in Berlin?": the place or category alone answers it.
  if (terms.length > 0 && terms.every((t) => facts.has(t))) {
    return { status: 'yes', evidence: [[c.industry || c.category, place].filter(Boolean).join(', ')], yesNo };
  }
  const evidence = statements.filter((s) => {
    const said = new Set(words(s).map(norm));
    return terms.every((t) => said.has(t) || facts.has(t));
  });
  const quote = (s: string) => (s.length > 300 ? `${s.slice(0, 299)}…` : s);
  return evidence.length ? { status: 'yes', evidence: evidence.slice(0, 2).map(quote), yesNo } : { status: 'not_stated', evidence: [], yesNo };
}
