/**
 * Scores only some real-page sites (test/eval/crawl/real/labels.json) by id: `npx tsx scripts/bench/eval-crawl-ids.ts <ids.json>`.
 * Used to score a freshly labelled set once, before any rule is tuned on it (session 15, fresh set B): per-field
 * accuracy and the precision of the values the publish thresholds (PUBLISH_THRESHOLD) would publish. Prints no failures
 * unless asked (`--misses`, for a set already scored and joined to the development set).
 */
import { readFileSync } from 'node:fs';
import { EVAL_FIELDS, evaluate, precisionAbove } from '../../test/eval/crawl/harness.js';
import { realSites } from '../../test/eval/crawl/real/index.js';
import { PUBLISH_THRESHOLD } from '../../src/modules/crawl/crawl.types.js';

const ids = new Set(JSON.parse(readFileSync(process.argv[2] ?? 'test/eval/crawl/real/fresh-b-ids.json', 'utf8')) as string[]);
const sites = realSites((l) => ids.has(l.id));
const r = await evaluate(sites);
console.log(`${sites.length} sites`);
for (const f of EVAL_FIELDS) {
  const t = PUBLISH_THRESHOLD[f];
  const { kept, right } = precisionAbove(r, f, t);
  console.log(`  ${f.padEnd(8)} ${r.right[f]}/${r.sites} = ${((r.accuracy[f] * 100).toFixed(1))} %  published ≥${t.toFixed(2)}: ${right}/${kept}${kept ? ` = ${((right / kept) * 100).toFixed(1)} %` : ''}`);
}
// `--misses`: once the set has been scored and joined the development set, what each miss expected and got.
if (process.argv.includes('--misses')) for (const m of r.misses) console.log(`  miss: ${m}`);
