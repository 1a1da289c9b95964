import { dropInstructionLike } from '../../lib/untrusted-text.js';
import type { WidgetPage } from './widget.context.js';

/** Words of a question matched against the company's text (a cheap stem, no stop words). */
const STOP = new Set('the a an and or of to in on for with at by from is are was were be do does did you your yours we our us it its this that these those can could would should will what which who whom how when where why have has had i me my there their they them any some about into than then please hello hi hey thanks thank'.split(' '));

export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w));
}

/** A cheap stem: words match when they share their first five letters (deliver/delivery, repair/repairs). */
export const stem = (w: string) => w.slice(0, 5);

/** From a long page: its opening (about half the budget), then the sentences that match the question best. */
function keepWithin(scored: { t: string; j: number; n: number }[], maxChars: number): string {
  const keep = new Set<number>();
  let used = 0;
  for (const x of scored) {
    if (used + x.t.length > maxChars / 2) break;
    keep.add(x.j);
    used += x.t.length + 1;
  }
  for (const x of scored.filter((x) => x.n > 0 && !keep.has(x.j)).sort((a, b) => b.n - a.n || a.j - b.j)) {
    if (used + x.t.length > maxChars) continue;
    keep.add(x.j);
    used += x.t.length + 1;
  }
  return scored.filter((x) => keep.has(x.j)).map((x) => x.t).join(' ');
}

/**
 * Page text for the model prompt: instruction-like sentences dropped (page text is untrusted, as
 * profile text), the pages that share most words with the question first, and from a long page
 * its opening plus its sentences that match the question (a fact deep in a page still reaches
 * the model). At most 8 pages of about 3000 characters.
 */
export function pageExcerpts(question: string, pages: WidgetPage[], maxPages = 8, maxChars = 3000): WidgetPage[] {
  const words = new Set(contentWords(question).map(stem));
  const hits = (s: string) => new Set(contentWords(s).map(stem).filter((w) => words.has(w))).size;
  return pages
    .map((p, i) => {
      const sentences = (dropInstructionLike(p.text).match(/[^.!?\n]+[.!?]*\s*/g) ?? []).map((t) => t.trim()).filter(Boolean);
      const scored = sentences.map((t, j) => ({ t, j, n: hits(t) }));
      const score = scored.reduce((n, x) => n + x.n, 0);
      let text = sentences.join(' ');
      if (text.length > maxChars) text = keepWithin(scored, maxChars);
      return { page: { url: p.url, title: p.title, text: text.slice(0, maxChars) }, score, i };
    })
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, maxPages)
    .map((x) => x.page);
}
