import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../../../src/config.js';
import { createEmbeddingProvider } from '../../../src/platform/embeddings/embeddings.js';
import { embedProfiles } from '../../../src/modules/companies/profile-vector.js';
import { countryCode } from '../../../src/lib/countries.js';
import { cityCoordinates } from '../../../src/lib/geo.js';
import type { IndexRow } from '../../../src/modules/search/search-index.js';
import { loadTemplates, pick, PLACES, reseed, rnd, SERVICE_TYPES, SUFFIXES, SYLLABLES, type Template } from './synthetic-companies.js';

/**
 * The rows the in-process search index reads (search.repo vectorRows), for bench:search's synthetic directory, made
 * without a database: the same templates, names, places and vectors (template vector + noise). Search vectors: each
 * template's industry, keywords and description through the database's own to_tsvector (PGlite, once per
 * template), with the company's name and place added in JavaScript (the words as they are; the real trigger stems
 * the English form too). Every text is a fresh string per row, as the database driver gives them.
 */
export interface SyntheticSource {
  templates: Template[];
  /** One unit vector per template (the real model), 512 floats. */
  vectors: Float32Array[];
  /** The template's B and C parts of search_vector: lexeme → positions with labels. */
  lexemes: [string, string[]][][];
}

const fresh = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

/** Templates, their vectors (cached in the temporary folder by content) and their search-vector parts. */
export async function syntheticSource(root: string, log: (msg: string) => void): Promise<SyntheticSource> {
  const templates = loadTemplates(root);
  const key = createHash('sha256').update(JSON.stringify(templates)).digest('hex').slice(0, 16);
  const cache = path.join(os.tmpdir(), `agentpages-template-vectors-${key}.json`);
  let vectors: number[][];
  if (fs.existsSync(cache)) vectors = JSON.parse(fs.readFileSync(cache, 'utf8')) as number[][];
  else {
    log(`embedding ${templates.length} template texts with the real model (cached in ${cache})`);
    const emb = createEmbeddingProvider(loadConfig({ ...process.env, EMBEDDINGS_WORKERS: '2' }).embeddings);
    vectors = [];
    const profiles = templates.map((t) => ({ ...t, services: [], city: '', country: '' }));
    for (let i = 0; i < profiles.length; i += 64) vectors.push(...(await embedProfiles(emb, profiles.slice(i, i + 64))));
    await emb.close();
    fs.writeFileSync(cache, JSON.stringify(vectors));
  }
  const pg = new PGlite();
  const lexemes: [string, string[]][][] = [];
  for (const t of templates) {
    const kws = t.keywords.join(' ');
    const [row] = (await pg.query<{ sv: string }>(
      `SELECT (setweight(to_tsvector('english', $1 || ' ' || $2), 'B') || setweight(to_tsvector('simple', $2), 'B') || setweight(to_tsvector('english', $3), 'C'))::text AS sv`,
      [t.industry, kws, t.description],
    )).rows;
    lexemes.push([...row!.sv.matchAll(/'((?:[^']|'')*)':?([0-9A-D,]*)/g)].map((m) => [m[1]!, m[2] ? m[2].split(',') : []]));
  }
  await pg.close();
  return { templates, vectors: vectors.map((v) => Float32Array.from(v)), lexemes };
}

/** The n rows of the synthetic directory in batches (the same n gives the same rows: the generator is reseeded). */
export function* syntheticRows(source: SyntheticSource, n: number, batch = 5000): Generator<IndexRow[]> {
  reseed();
  const d = source.vectors[0]!.length;
  for (let start = 0; start < n; start += batch) {
    const rows: IndexRow[] = [];
    for (let j = start; j < Math.min(n, start + batch); j++) {
      const ti = Math.floor(rnd() * source.templates.length);
      const t = source.templates[ti]!;
      const [country, city] = pick(PLACES);
      const word = pick(SYLLABLES) + pick(SYLLABLES) + pick(SYLLABLES);
      const suffix = pick(SUFFIXES);
      const name = `${word[0]!.toUpperCase()}${word.slice(1)} ${suffix}`;
      const base = source.vectors[ti]!;
      const vector = new Float32Array(d);
      for (let i = 0; i < d; i++) vector[i] = base[i]! + (rnd() - 0.5) * 0.07;
      const at = cityCoordinates(city, countryCode(country) ?? '');
      const id = `00000000-0000-4000-8000-${j.toString(16).padStart(12, '0')}`;
      rows.push({
        id: fresh(id),
        name: fresh(name),
        searchVector: searchVector(name, source.lexemes[ti]!, `${city} ${country}`),
        vector,
        removed: false,
        category: fresh(t.category),
        countryCode: fresh(countryCode(country) ?? ''),
        country: fresh(country),
        city: fresh(city),
        industry: fresh(t.industry),
        serviceType: fresh(pick(SERVICE_TYPES)),
        verified: rnd() < 0.6,
        latitude: at.latitude,
        longitude: at.longitude,
      });
    }
    yield rows;
  }
}

/** The tsvector text of a company: its name (A), the template's parts (B, C), its place (D), positions shifted as `||` does. */
function searchVector(name: string, template: [string, string[]][], place: string): string {
  const entries = new Map<string, string[]>();
  let position = 0;
  const add = (words: string[], label: string) => {
    for (const w of words) {
      const lexeme = w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
      if (!lexeme) continue;
      position++;
      entries.set(lexeme, [...(entries.get(lexeme) ?? []), `${position}${label}`]);
    }
  };
  add(name.split(' '), 'A');
  add(name.split(' '), 'A');
  const shift = position;
  let last = 0;
  for (const [lexeme, positions] of template) {
    const shifted = positions.map((p) => {
      const at = Number.parseInt(p, 10) + shift;
      last = Math.max(last, at);
      return `${Math.min(at, 16383)}${p.replace(/^[0-9]+/, '')}`;
    });
    entries.set(lexeme, [...(entries.get(lexeme) ?? []), ...shifted]);
  }
  position = last;
  add(place.split(' '), 'D');
  return [...entries.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([lexeme, positions]) => `'${lexeme.replace(/'/g, "''")}':${positions.join(',')}`)
    .join(' ');
}
