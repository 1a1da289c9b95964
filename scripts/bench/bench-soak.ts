/**
 * Soak run: `npm run bench:soak [-- --duration 600] [--users 8] [--sample 10] [--url http://127.0.0.1:8000]`.
 *
 * Starts the real server (src/server.ts) on a fresh embedded store with the demo directory (or drives
 * --url, an instance already running on loopback, whose process memory is then not sampled) and runs
 * mixed traffic from --users virtual users for --duration seconds: novel and repeated searches,
 * filtered and place searches, company lookups by id, asks, proposal creation and listing by agents,
 * and owner actions (inbox, responding). Prints, every --sample seconds, the requests done, errors and
 * the server's RSS; at the end, per operation: count, p50, p99, 4xx and 5xx, and the memory curve.
 * An error is a 5xx or a network failure; 4xx answers are counted apart (a 409 on a proposal answered
 * twice is expected traffic).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/lib/free-port.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : fallback;
};
const duration = Number(option('--duration', '60'));
const users = Number(option('--users', '8'));
const sampleEvery = Number(option('--sample', '10'));
const externalUrl = args.includes('--url') ? option('--url', '') : undefined;
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

let seed = 7;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;

const NEEDS = ['boiler repair', 'payroll for a small team', 'wedding photographer', 'solar panels for my roof', 'contract lawyer', 'dentist', 'web design for a bakery', 'moving company', 'tax adviser', 'IT support', 'catering for 80 people', 'translation of legal documents', 'roof repair', 'yoga classes', 'accountant for freelancers'];
const WHO = ['', 'cheap ', 'reliable ', 'urgent ', 'certified ', 'family-run ', 'English-speaking '];
const PLACES = ['', ' in Berlin', ' in London', ' near Munich', ' in Paris', ' in Austin', ' in Toronto'];
const REPEATED = ['plumber', 'accounting software', 'marketing agency', 'restaurant', 'law firm'];

function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

interface Stat { count: number; ms: number[]; c4xx: number; c5xx: number; network: number }
const stats = new Map<string, Stat>();
function record(op: string, ms: number, status: number): void {
  const s = stats.get(op) ?? { count: 0, ms: [], c4xx: 0, c5xx: 0, network: 0 };
  s.count++;
  s.ms.push(ms);
  if (status === 0) s.network++;
  else if (status >= 500) s.c5xx++;
  else if (status >= 400) s.c4xx++;
  stats.set(op, s);
}
const pct = (a: number[], p: number) => {
  if (a.length === 0) return 0;
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

let base = externalUrl ?? '';
async function call(op: string, method: string, url: string, headers: Record<string, string> = {}, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    record(op, performance.now() - started, res.status);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  } catch {
    record(op, performance.now() - started, 0);
    return { status: 0, json: undefined, text: '' };
  }
}

async function main(): Promise<void> {
  let child: ChildProcess | undefined;
  let dataDir: string | undefined;
  if (!externalUrl) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agp-soak-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    log(`starting the server on ${base} (embedded store in ${dataDir}, demo directory)`);
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: {
        ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), BASE_URL: base, DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: 'true',
        LOG_LEVEL: 'warn', RATE_LIMIT_AGENT_PER_MINUTE: '1000000', RATE_LIMIT_IP_PER_MINUTE: '1000000', EMAIL_CHECK_MX: 'false', SMTP_URL: '', LLM_BASE_URL: '',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    serverProcess = child;
    const deadline = Date.now() + 180_000;
    while (!(await fetch(`${base}/api/health/deep`).then((r) => r.ok, () => false))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  // Fixtures: verified companies, an agent key per user, an owner of the company the proposals go to.
  const browsed = await call('setup', 'GET', '/api/v1/agent/companies?is_verified=true&limit=20');
  const browse = browsed.json as { companies?: { id: string; website_url: string | null }[] } | undefined;
  if (!browse?.companies) throw new Error(`browsing the directory failed: ${browsed.status} ${browsed.text.slice(0, 300)}`);
  const verified = browse.companies.filter((c) => c.website_url);
  if (verified.length === 0) throw new Error('no verified company with a website in the directory');
  const target = verified[0]!;
  const domain = new URL(target.website_url!).hostname.replace(/^www\./, '');
  const ownerEmail = `owner@${domain}`;
  await call('setup', 'POST', '/api/auth/magic-link', {}, { email: ownerEmail, purpose: 'verify', website_url: target.website_url });
  const mailbox = (await call('setup', 'GET', `/dev/mailbox?to=${encodeURIComponent(ownerEmail)}`)).text;
  const token = /token=([A-Za-z0-9_-]+)/.exec(mailbox)?.[1];
  if (!token) throw new Error('no sign-in link in the developer mailbox (run without SMTP_URL, on loopback)');
  const signedIn = (await call('setup', 'GET', `/api/auth/verify-magic?token=${token}&purpose=verify`)).json as { access_token: string };
  const owner = { authorization: `Bearer ${signedIn.access_token}` };
  const keys: string[] = [];
  for (let u = 0; u < users; u++) {
    const reg = (await call('setup', 'POST', '/api/v1/agent/register', {}, { name: `Soak agent ${u}`, owner_email: `soak${u}@soak-agents.example.com` })).json as { api_key: string };
    keys.push(reg.api_key);
  }
  const companyIds = ((await call('setup', 'GET', '/api/v1/agent/companies?limit=20')).json as { companies: { id: string }[] }).companies.map((c) => c.id);
  stats.clear();

  const ops: [number, string, (u: number) => Promise<unknown>][] = [
    [30, 'search novel', () => call('search novel', 'GET', `/api/v1/agent/companies?q=${encodeURIComponent(`${pick(WHO)}${pick(NEEDS)}${pick(PLACES)} ${Math.floor(rnd() * 1e6)}`)}&limit=10`)],
    [15, 'search repeated', () => call('search repeated', 'GET', `/api/v1/agent/companies?q=${encodeURIComponent(pick(REPEATED))}&limit=10`)],
    [8, 'search filtered', () => call('search filtered', 'GET', `/api/v1/agent/companies?q=${encodeURIComponent(pick(NEEDS))}&country=${pick(['DE', 'GB', 'US', 'FR'])}&limit=10`)],
    [5, 'search near', () => call('search near', 'GET', `/api/v1/agent/companies?q=${encodeURIComponent(pick(NEEDS))}&near=${pick(['Berlin', 'London', 'Paris'])}&radius_km=100`)],
    [15, 'company by id', () => call('company by id', 'GET', `/api/v1/agent/companies/${pick(companyIds)}`)],
    [4, 'ask', () => call('ask', 'POST', `/api/v1/agent/ask?question=${encodeURIComponent(`Who offers ${pick(NEEDS)}${pick(PLACES)}?`)}`)],
    [8, 'proposal create', (u) => call('proposal create', 'POST', '/api/v1/agent/proposals', { 'x-api-key': keys[u]! }, { company_id: target.id, customer_email: 'ann@example.org', customer_name: 'Ann', description: `Quote for ${pick(NEEDS)}` })],
    [5, 'proposal list (agent)', (u) => call('proposal list (agent)', 'GET', '/api/v1/agent/proposals?limit=20', { 'x-api-key': keys[u]! })],
    [6, 'owner inbox + respond', async () => {
      const inbox = (await call('owner inbox', 'GET', '/api/proposals?status=pending&limit=5', owner)).json as { proposals?: { id: string }[] } | undefined;
      const first = inbox?.proposals?.[0];
      if (first) await call('owner respond', 'POST', `/api/proposals/${first.id}/respond`, owner, { action: pick(['respond', 'approve', 'reject']), message: 'Thanks, we can help.' });
    }],
    [4, 'owner profile read', () => call('owner profile read', 'GET', `/api/tools/${target.id}/edit-data`, owner)],
  ];
  const total = ops.reduce((s, o) => s + o[0], 0);
  const chooseOp = () => {
    let r = rnd() * total;
    for (const o of ops) if ((r -= o[0]) < 0) return o;
    return ops[0]!;
  };

  const started = Date.now();
  const endAt = started + duration * 1000;
  const curve: { t: number; done: number; errors: number; rss: number | null }[] = [];
  const counts = () => {
    let done = 0;
    let errors = 0;
    for (const s of stats.values()) {
      done += s.count;
      errors += s.c5xx + s.network;
    }
    return { done, errors };
  };
  const sampler = setInterval(() => {
    const { done, errors } = counts();
    const point = { t: Math.round((Date.now() - started) / 1000), done, errors, rss: rssMb(child?.pid) };
    curve.push(point);
    log(`t=${point.t}s requests=${done} errors=${errors} server RSS=${point.rss ?? '?'} MB`);
  }, sampleEvery * 1000);

  log(`soak: ${users} users for ${duration} s`);
  await Promise.all(Array.from({ length: users }, async (_, u) => {
    while (Date.now() < endAt) await chooseOp()[2](u);
  }));
  clearInterval(sampler);
  const elapsed = (Date.now() - started) / 1000;
  const { done, errors } = counts();

  console.log(`\n${done} requests in ${elapsed.toFixed(0)} s: ${(done / elapsed).toFixed(1)} req/s, errors (5xx or network): ${errors}`);
  console.log('operation                 count    p50 ms   p99 ms   4xx   5xx  network');
  for (const [op, s] of [...stats.entries()].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`${op.padEnd(24)} ${String(s.count).padStart(6)} ${pct(s.ms, 50).toFixed(0).padStart(9)} ${pct(s.ms, 99).toFixed(0).padStart(8)} ${String(s.c4xx).padStart(5)} ${String(s.c5xx).padStart(5)} ${String(s.network).padStart(8)}`);
  }
  if (curve.length) {
    const rss = curve.map((p) => p.rss).filter((v): v is number => v !== null);
    if (rss.length) {
      const half = rss.slice(Math.floor(rss.length / 2));
      console.log(`server RSS: first ${rss[0]} MB, peak ${Math.max(...rss)} MB, last ${rss[rss.length - 1]} MB; second half ${Math.min(...half)}–${Math.max(...half)} MB`);
    }
    console.log(`memory curve (s:MB): ${curve.map((p) => `${p.t}:${p.rss ?? '?'}`).join(' ')}`);
  }

  if (child) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  process.exitCode = errors > 0 ? 1 : 0;
}

let serverProcess: ChildProcess | undefined;
main().catch((err: unknown) => {
  console.error(err);
  serverProcess?.kill('SIGKILL');
  process.exit(1);
});
