import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvalSite } from '../sites/types.js';

/**
 * Real small-business pages (issue 40): saved pages from public repositories whose licence allows
 * redistribution (ATTRIBUTION.md), labelled by hand in labels.json. `set` is 'dev' (failures may be
 * printed and studied) or 'holdout' (scored only; never tune on it).
 */
export interface RealSiteLabel {
  id: string;
  set: 'dev' | 'holdout';
  /** The address a crawl would start from. */
  url: string;
  /** Path on the site → file in sites/<id>/. */
  pages: Record<string, string>;
  expected: { name: string; altNames?: string[]; phone: string | null; city: string; country: string };
  /** What makes the site hard, in a few words. */
  style: string;
  source: { repo: string; paths: string[]; commit: string; licence: string };
}

const HERE = dirname(fileURLToPath(import.meta.url));

export function realLabels(): RealSiteLabel[] {
  return JSON.parse(readFileSync(join(HERE, 'labels.json'), 'utf8')) as RealSiteLabel[];
}

function toEvalSite(l: RealSiteLabel): EvalSite {
  const pages = Object.fromEntries(Object.entries(l.pages).map(([path, file]) => [path, readFileSync(join(HERE, 'sites', l.id, file), 'utf8')]));
  return { url: l.url, style: l.style, expected: { ...l.expected }, pages };
}

/** The sites whose label passes `keep` (e.g. a list of ids). */
export function realSites(keep: (l: RealSiteLabel) => boolean): EvalSite[] {
  return realLabels().filter(keep).map(toEvalSite);
}

export const REAL_DEV_SITES: EvalSite[] = realLabels().filter((l) => l.set === 'dev').map(toEvalSite);
export const REAL_HOLDOUT_SITES: EvalSite[] = realLabels().filter((l) => l.set === 'holdout').map(toEvalSite);
