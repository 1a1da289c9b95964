// Runs every *.test.ts under src and test with node's test runner (through tsx): once on PGlite, and again on
// PostgreSQL, for the files that reach the store, when TEST_DATABASE_URL is set. Node 20 does not expand globs itself.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return findTests(p);
    return p.endsWith('.test.ts') ? [p] : [];
  });
}

const only = process.argv.slice(2);
// TEST_SUBSET=node-line: the second CI run on the Node LTS line checks what can differ between Node versions, not every
// rule again: the pure helpers and the platform (db, crypto, workers, native kernels, HTTP limits), every route file
// (each module's routes through app.inject), and the files that lean on Node's networking, workers or an SDK.
const NODE_LINE_EXTRAS = [
  'mcp.journey.test.ts', 'payments.stripe.test.ts', 'crawl.ssrf.test.ts', 'crawl.engine.test.ts', 'webhooks.test.ts',
  'svg-render.test.ts', 'search-index.sync.test.ts', 'vector-graph.test.ts', 'security.test.ts',
];
const inNodeLineSubset = (f) =>
  /^src\/(lib|platform)\//.test(f) || f.endsWith('.routes.test.ts') || NODE_LINE_EXTRAS.some((name) => f.endsWith(`/${name}`));
const subset = process.env.TEST_SUBSET === 'node-line';
// TEST_SKIP_BROWSER=1 leaves out the journeys in Chromium (*.browser.test.ts): the second CI run on the Node LTS
// line checks the server on that Node; the browser does not change with it, and those journeys are the slowest files.
const skipBrowser = process.env.TEST_SKIP_BROWSER === '1';
const found = ['src', 'test'].flatMap(findTests).filter((f) => !(skipBrowser && f.endsWith('.browser.test.ts'))).filter((f) => !subset || inNodeLineSubset(f));
// Longest first: the runner starts files in the order given, a few at a time, so a long file started last runs alone at
// the end. The browser journeys are the longest; after them, a larger file usually takes longer.
const isBrowser = (f) => f.endsWith('.browser.test.ts');
const files = only.length ? only : found.sort((a, b) => Number(isBrowser(b)) - Number(isBrowser(a)) || statSync(b).size - statSync(a).size || a.localeCompare(b));
// The PostgreSQL pass runs the files that reach the store: those that build an app or open a database through the
// test helpers. A file that never opens one (pure helpers, kernels, extraction) answers the same on either store, and
// the browser journeys drive pages whose every call the route files check on both stores.
const touchesStore = (f) => /test\/helpers\/(index|app)\.js|TEST_STORE|TEST_DATABASE_URL|openDb\(/.test(readFileSync(f, 'utf8'));
const storeFiles = only.length ? only : files.filter((f) => !isBrowser(f) && touchesStore(f));
const stores = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
let failed = false;
for (const store of stores) {
  const run = store === 'postgres' ? storeFiles : files;
  console.log(`\n# store: ${store} (${run.length} test files, Node ${process.version})`);
  // Three files at a time on two cores: a test process spends part of its time waiting (on the browser, a server
  // process, PostgreSQL, timers), and two at a time left a fifth of the cores idle.
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-reporter=tap', ...run], {
    stdio: 'inherit',
    env: { ...process.env, TEST_STORE: store, NODE_ENV: 'test' },
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
