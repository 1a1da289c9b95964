// Measures the dashboard's budgets and prints them: the web/ build time (≤ 60 s on 2 cores) and
// the initial JavaScript of the dashboard, gzipped (≤ 150 KB: the entry chunk plus what
// index.html preloads; every screen is a lazily loaded chunk). Exits 1 when a budget is exceeded.
// Time to a usable inbox under 4× CPU throttling is measured by src/modules/web/dashboard.browser.test.ts.
import { execSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const web = join(import.meta.dirname, '../..', 'web');
const dist = join(web, 'dist');
const BUILD_BUDGET_S = 60;
const INITIAL_JS_BUDGET_KB = 150;

const t0 = performance.now();
execSync('npm run build', { cwd: web, stdio: 'ignore' });
const buildS = (performance.now() - t0) / 1000;

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
const gz = (f: string) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
const initialKb = initial.reduce((n, f) => n + gz(f), 0) / 1024;
const all = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const lazyKb = all.filter((f) => !initial.includes(`assets/${f}`)).reduce((n, f) => n + gz(`assets/${f}`), 0) / 1024;

console.log(`web build: ${buildS.toFixed(1)} s (budget ${BUILD_BUDGET_S} s)`);
console.log(`initial JS: ${initialKb.toFixed(1)} KB gzip in ${initial.length} file(s) (budget ${INITIAL_JS_BUDGET_KB} KB)`);
console.log(`lazy chunks: ${all.length - initial.length} files, ${lazyKb.toFixed(1)} KB gzip in total`);
const over = buildS > BUILD_BUDGET_S || initialKb > INITIAL_JS_BUDGET_KB;
if (over) console.error('budget exceeded');
process.exit(over ? 1 : 0);
