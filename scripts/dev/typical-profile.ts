/**
 * Writes the typical profile vector of the bundled embedding model (src/modules/search/typical-profile.json):
 * the mean of the demo directory's 325 profile vectors (all 25 categories), built exactly as the service
 * builds them. The relevance verdicts measure a company's closeness to a need against how close a typical
 * profile is (relevance.ts); a fixed reference keeps that independent of the size of a directory.
 * `npx tsx scripts/dev/typical-profile.ts` (run again only when the model or the profile vector changes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { migrate, openDb } from '../../src/platform/db.js';
import { createEmbeddingProvider } from '../../src/platform/embeddings/embeddings.js';
import { createCompaniesService } from '../../src/modules/companies/companies.service.js';
import { parseCompaniesJsonl } from '../../src/modules/companies/companies.import.js';
import { demoFile } from '../../src/modules/companies/companies.seed.js';

const config = loadConfig({ LOG_LEVEL: 'silent' });
const embeddings = createEmbeddingProvider(config.embeddings);
const db = await openDb({});
await migrate(db);
const companies = createCompaniesService({ db, embeddings, baseUrl: config.baseUrl, audit: async () => {} });
const { lines } = parseCompaniesJsonl(fs.readFileSync(demoFile, 'utf8'));
await companies.upsertMany(lines.map((l) => l.input));
const row = (await db.query<{ v: string; n: number }>('SELECT avg(embedding)::text AS v, count(*)::int AS n FROM companies'))[0]!;
const vector = (JSON.parse(row.v) as number[]).map((x) => Math.round(x * 1e6) / 1e6);
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/modules/search/typical-profile.json');
fs.writeFileSync(out, JSON.stringify({ model: embeddings.model, companies: row.n, source: 'seed/demo-companies.jsonl', vector }) + '\n');
console.log(`wrote ${out}: mean of ${row.n} profiles, model ${embeddings.model}`);
await db.close();
await embeddings.close();
