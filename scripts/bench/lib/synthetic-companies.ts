import fs from 'node:fs';
import path from 'node:path';

/** The synthetic directory of bench:search: templates from the evaluation and demo companies, names and places from fixed lists, a seeded PRNG. */

// A seeded PRNG: the same N gives the same directory.
let seed = 42;
export const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
/** Starts the sequence again (a script that generates the same directory twice). */
export const reseed = (value = 42) => {
  seed = value;
};
export const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;

export interface Template {
  name: string;
  category: string;
  industry: string;
  description: string;
  keywords: string[];
}

export function loadTemplates(root: string): Template[] {
  const files = [path.join(root, '../shared/eval/companies.jsonl'), path.join(root, 'seed/demo-companies.jsonl')].filter((f) => fs.existsSync(f));
  return files.flatMap((f) =>
    fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => {
      const o = JSON.parse(l) as Template & { keywords?: string[] };
      return { name: o.name, category: o.category, industry: o.industry ?? '', description: o.description ?? '', keywords: o.keywords ?? [] };
    }),
  );
}

export const PLACES: [string, string][] = [
  ['United States', 'New York'], ['United States', 'Chicago'], ['United States', 'Austin'], ['United States', 'Seattle'], ['United States', 'Atlanta'],
  ['United Kingdom', 'London'], ['United Kingdom', 'Leeds'], ['United Kingdom', 'Bristol'], ['Germany', 'Berlin'], ['Germany', 'Munich'],
  ['Germany', 'Hamburg'], ['France', 'Paris'], ['France', 'Lyon'], ['Spain', 'Madrid'], ['Italy', 'Milan'], ['Netherlands', 'Amsterdam'],
  ['Canada', 'Toronto'], ['Canada', 'Vancouver'], ['Australia', 'Sydney'], ['Australia', 'Melbourne'], ['India', 'Bangalore'], ['Japan', 'Tokyo'],
  ['Brazil', 'São Paulo'], ['Mexico', 'Mexico City'], ['Kenya', 'Nairobi'], ['South Africa', 'Cape Town'], ['Ireland', 'Dublin'], ['Poland', 'Warsaw'],
];
export const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ven', 'tor', 'bel', 'sun', 'dal', 'ero', 'nix', 'qua', 'fen', 'lyn', 'ost', 'mar', 'pel', 'tri', 'zo', 'har'];
export const SUFFIXES = ['Partners', 'Group', 'Studio', 'Works', 'Solutions', 'Co', 'Labs', 'Services', 'Collective', '& Sons'];
export const SERVICE_TYPES = ['remote', 'local', 'nationwide', 'hybrid'];

export function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+/).filter(Boolean);
}
