import * as cheerio from 'cheerio';
import type { Fetcher } from '../crawl/crawl.fetcher.js';
import { accessChecks } from './checks.access.js';
import { discoveryChecks } from './checks.discovery.js';
import { interfaceChecks } from './checks.interfaces.js';
import { understandingChecks } from './checks.understanding.js';
import { applicabilityOf, BudgetExceeded, createProber, evidenceOf, ok, type Probe, type ScanCompany, type ScanContext } from './scans.context.js';
import type { CheckDef, CheckResult, FailureReason } from './scans.types.js';

/** Every check, in the order they run (and request). Ids are stable: a retired id is never reused. */
export const CHECKS: CheckDef<ScanContext>[] = [...accessChecks, ...discoveryChecks, ...understandingChecks, ...interfaceChecks];

export type ScanOutcome =
  | { state: 'completed'; url: string; results: CheckResult[]; requests: number }
  | { state: 'failed'; url: string; reason: FailureReason; message: string; requests: number };

export interface RunnerDeps {
  fetcher: Fetcher;
  /** Pause between two requests (ms); 500 keeps to 2 requests a second. */
  delayMs: number;
}

function failureOf(p: Probe): { reason: FailureReason; message: string } | undefined {
  if (p.error) {
    const m = p.error.message;
    if (p.error.kind === 'bad_url' && /outside the allowed site/.test(m)) {
      return { reason: 'invalid_url', message: `The website redirects off the company's domain (${m.replace(/ is outside the allowed site$/, '')}); a scan stays on the listed domain: update the listing's website.` };
    }
    const reason: FailureReason =
      p.error.kind === 'unsafe' ? 'private_address'
    : p.error.kind === 'bad_url' || p.error.kind === 'port' ? 'invalid_url'
          : p.error.kind === 'timeout' ? 'timeout'
            : /ENOTFOUND|EAI_AGAIN|DNS/i.test(m) ? 'dns'
              : /certificate|TLS|SSL|ERR_TLS/i.test(m) ? 'tls'
                : 'unreachable';
    return { reason, message: `The home page could not be fetched: ${m}` };
  }
  if (p.status === 429) return { reason: 'rate_limited', message: 'The site answered 429 Too Many Requests to our scanner; try again later.' };
  if (p.status === 401 || p.status === 403 || /challenge/i.test(p.headers['cf-mitigated'] ?? '')) {
    return { reason: 'blocked', message: `The site refused our scanner (HTTP ${p.status}${p.headers['cf-mitigated'] ? `, cf-mitigated: ${p.headers['cf-mitigated']}` : ''}). This says nothing yet about AI agents: allow the scanner and scan again.` };
  }
  if (!ok(p)) return { reason: 'unreachable', message: `The home page answered HTTP ${p.status}.` };
  return undefined;
}

/** Scans one company's website: the home page gate, then every check in order. Never throws for the site's faults. */
export async function runScan(deps: RunnerDeps, company: ScanCompany): Promise<ScanOutcome> {
  let home: URL;
  try {
    home = new URL(company.website_url);
    if (home.protocol !== 'http:' && home.protocol !== 'https:') throw new Error('scheme');
  } catch {
    return { state: 'failed', url: company.website_url, reason: 'invalid_url', message: 'The listing has no valid website URL.', requests: 0 };
  }
  home.hash = '';
  const prober = createProber({ fetcher: deps.fetcher, domain: company.domain || home.hostname, delayMs: deps.delayMs });
  const homeProbe = await prober.get(home.href);
  const failure = failureOf(homeProbe);
  if (failure) return { state: 'failed', url: home.href, ...failure, requests: prober.count() };

  const origin = new URL(homeProbe.final_url).origin;
  const ctx: ScanContext = {
    company,
    applies: applicabilityOf(company),
    origin,
    homeUrl: home.href,
    home: homeProbe,
    $: cheerio.load(homeProbe.body),
    get: (pathOrUrl, o = {}) => prober.get(new URL(pathOrUrl, origin).href, o.as ?? 'scanner', o.accept),
    memo: new Map(),
    ownSite: (url) => {
      try {
        return prober.allow(new URL(url));
      } catch {
        return false;
      }
    },
    requestCount: prober.count,
  };

  const results: CheckResult[] = [];
  for (const def of CHECKS) {
    const base = { id: def.id, key: def.key, group: def.group, title: def.title, severity: def.severity, spec_url: def.spec_url ?? null };
    try {
      const o = await def.run(ctx);
      // Understanding checks read the home page: it is their evidence unless they name another.
      const evidence = o.evidence?.length ? o.evidence : def.group === 'understanding' && o.status !== 'na' ? [evidenceOf(ctx.home, '')] : [];
      results.push({ ...base, status: o.status, message: o.message, evidence, fix: o.status === 'pass' || o.status === 'na' ? null : (o.fix ?? null), ...(o.facts ? { facts: o.facts } : {}) });
    } catch (err) {
      const message = err instanceof BudgetExceeded ? `Not verified: ${err.message}.` : `Not verified: the check could not run (${(err as Error).message}).`;
      results.push({ ...base, status: 'error', message, evidence: [], fix: null });
    }
  }
  // The address agents actually reach (after redirects): the files are written for it.
  return { state: 'completed', url: homeProbe.final_url, results, requests: prober.count() };
}
