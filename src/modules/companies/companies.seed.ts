import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { parseCompaniesJsonl } from './companies.import.js';
import type { CompaniesService } from './companies.service.js';
import { projectPath } from '../../platform/paths.js';

export const demoFile = projectPath('seed', 'demo-companies.jsonl');

/** Seeds the demo directory into an empty store (first start of the embedded default). */
export async function seedDemoIfEmpty(companies: CompaniesService, log: FastifyBaseLogger): Promise<number> {
  if ((await companies.count()) > 0) return 0;
  const { lines, errors } = parseCompaniesJsonl(fs.readFileSync(demoFile, 'utf8'));
  for (const e of errors) log.warn({ line: e.line }, `demo seed line skipped: ${e.message}`);
  log.info(`seeding the demo directory: ${lines.length} companies`);
  const result = await companies.upsertMany(lines.map((l) => ({ ...l.input, source: 'seed' })));
  log.info({ created: result.created }, 'demo directory ready');
  return result.created;
}
