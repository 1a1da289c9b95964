/**
 * `npm run import -- FILE.jsonl`: imports companies in the evaluation corpus format into the
 * configured store (DATABASE_URL, or PGlite in DATA_DIR). Every line is validated; bad lines are
 * reported with their numbers and the rest imported. Upserts by website domain, so a second run
 * reports everything unchanged; embeds in batches and shows progress. Exit code 0 when every
 * line was imported, 1 when some lines were skipped (the rest is imported), 2 for bad usage.
 */
import fs from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../../src/config.js';
import Fastify from 'fastify';
import type { CompaniesService } from '../../src/modules/companies/companies.service.js';
import { createServices } from '../../src/services.js';
import { parseCompaniesJsonl, type LineError } from '../../src/modules/companies/companies.import.js';

export interface ImportReport {
  lines: number;
  errors: LineError[];
  created: number;
  updated: number;
  unchanged: number;
}

/** Validates and imports one JSONL text; `log` receives progress and error lines. */
export async function importJsonl(
  text: string,
  companies: CompaniesService,
  log: (line: string) => void = () => {},
  bar?: (done: number, total: number, seconds: number) => void,
): Promise<ImportReport> {
  const { lines, errors } = parseCompaniesJsonl(text);
  for (const e of errors) log(`line ${e.line}: ${e.message}`);
  const total = lines.length;
  let lastShown = 0;
  const started = Date.now();
  const result = await companies.upsertMany(
    lines.map((l) => l.input),
    {
      batchSize: 64,
      onProgress: (done) => {
        const secs = (Date.now() - started) / 1000;
        if (bar) return bar(done, total, secs);
        // Without a terminal: a line about every 5 %, plus the end, readable in logs.
        if (done === total || done - lastShown >= Math.max(64, total / 20)) {
          lastShown = done;
          log(`progress: ${done}/${total} (${Math.round((done / total) * 100)} %, ${secs.toFixed(0)} s, ${(done / Math.max(secs, 0.001)).toFixed(1)} companies/s)`);
        }
      },
    },
  );
  return { lines: total + errors.length, errors, created: result.created, updated: result.updated, unchanged: result.unchanged };
}

/** A one-line progress bar redrawn in place (terminals only). */
function progressBar(done: number, total: number, seconds: number): void {
  const width = 30;
  const filled = Math.round((done / Math.max(total, 1)) * width);
  const rate = done / Math.max(seconds, 0.001);
  const eta = rate > 0 ? Math.ceil((total - done) / rate) : 0;
  process.stdout.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round((done / Math.max(total, 1)) * 100)).padStart(3)} % ${done}/${total}  ${rate.toFixed(1)} companies/s  ${done === total ? `${seconds.toFixed(1)} s   ` : `ETA ${eta} s   `}`);
  if (done === total) process.stdout.write('\n');
}

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npm run import -- FILE.jsonl');
    return 2;
  }
  if (!fs.existsSync(file)) {
    console.error(`no such file: ${file}`);
    return 2;
  }
  const config = loadConfig();
  // An import is embedding-bound: one embedding worker per core (the web process keeps EMBEDDINGS_WORKERS).
  const workers = Math.max(config.embeddings.workers, os.availableParallelism());
  const core = await createServices({ ...config, runJobs: false, embeddings: { ...config.embeddings, workers } }, Fastify({ logger: { level: 'warn' } }).log);
  try {
    const { companies } = core.services;
    console.log(`importing ${file} into ${config.databaseUrl ? 'PostgreSQL' : `PGlite at ${config.dataDir}`}`);
    const r = await importJsonl(fs.readFileSync(file, 'utf8'), companies, (l) => console.log(l), process.stdout.isTTY ? progressBar : undefined);
    console.log(`done: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ${r.errors.length} bad line(s) skipped`);
    return r.errors.length ? 1 : 0;
  } finally {
    await core.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err);
      process.exit(1);
    },
  );
}
