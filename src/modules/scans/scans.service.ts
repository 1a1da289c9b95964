import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { jobName, type Jobs } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import type { CompanyProfile } from '../companies/companies.schemas.js';
import type { CompanyRecord } from '../companies/company.record.js';
import type { Fetcher } from '../crawl/crawl.fetcher.js';
import { MAX_SCAN_BYTES, type ScanCompany } from './scans.context.js';
import type { Entitlement } from './scans.entitlement.js';
import { buildBundle, type BundleOptions } from './scans.files.js';
import type { HistoryRow, ScanRow, ScansRepo } from './scans.repo.js';
import { runScan } from './scans.runner.js';
import type { ScanView } from './scans.schemas.js';
import { diffScans, pointsLost, RUBRIC_VERSION, scoreResults, SEVERITY_WEIGHT, type ScanDelta } from './scans.scoring.js';
import type { CheckResult } from './scans.types.js';
import { zipStore } from './scans.zip.js';
import { isUuid } from '../../lib/ids.js';
import { isoTimeOrNull as iso } from '../../lib/time.js';

export const SCAN_JOB = jobName<{ scanId: string }>('scans.run');
export const RESCAN_JOB = jobName<object>('scans.rescan');
/** A completed scan younger than this is returned by start without force. */
export const REUSE_HOURS = 24;
/** Scheduled re-scans for entitled plans: weekly, checked hourly. */
export const RESCAN_DAYS = 7;
/** An email goes to the owners when a scheduled scan's score drops by at least this much. */
export const DROP_ALERT_POINTS = 5;

export interface ScansServiceDeps {
  repo: ScansRepo;
  companies: { getById(id: string): Promise<CompanyRecord>; toProfile(row: CompanyRecord): CompanyProfile };
  /** The crawl module's SSRF-safe fetcher with its network rules (a fresh one per scan). */
  createFetcher: (o: { timeoutMs?: number; maxBytes?: number; userAgent?: string }) => Fetcher;
  pagesOf: (companyId: string) => Promise<{ url: string; title: string }[]>;
  jobs: Jobs;
  mail: Mailer;
  ownerEmailsOf: (companyId: string) => Promise<string[]>;
  entitlement: Entitlement;
  baseUrl: string;
  serviceName: string;
  log: FastifyBaseLogger;
  /** Pause between two requests of a scan (ms). */
  delayMs: number;
  timeoutMs: number;
  /** Seconds between two forced scans of one company. */
  cooldownSeconds?: number;
  tokenTtlMinutes?: number;
}

type Summary = { score: number; grade: string; scanned_at: string };
const SUMMARY_TTL_MS = 60_000;
const hashToken = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');

function toScanCompany(row: CompanyRecord): ScanCompany {
  return {
    id: row.id, name: row.name, website_url: row.website_url, domain: row.domain, category: row.category, industry: row.industry,
    description: row.description, service_type: row.service_type, city: row.city, country: row.country, address: row.address,
    keywords: row.keywords ?? [], services: row.services ?? [], languages: row.languages ?? [], contact_email: row.contact_email, phone: row.phone,
    social_links: row.social_links ?? {}, logo_url: row.logo_url, founded_year: row.founded_year,
  };
}

/** [id, status] pairs as the diff reads them (group and severity do not matter to it). */
const statusList = (pairs: [string, string][] | null) => (pairs ?? []).map(([id, status]) => ({ id, status: status as CheckResult['status'], group: 'access' as const, severity: 'info' as const }));

export function createScansService(deps: ScansServiceDeps) {
  const { repo, jobs, log } = deps;
  const cooldown = deps.cooldownSeconds ?? 180;
  const ttlMinutes = deps.tokenTtlMinutes ?? 15;
  const summaries = new Map<string, { value: Summary | undefined; at: number }>();

  async function deltaOf(row: ScanRow): Promise<ScanDelta> {
    const prev = row.previous_scan_id ? await repo.get(row.previous_scan_id) : undefined;
    return diffScans(
      { score: row.score, rubric_version: row.rubric_version, results: row.results ?? [] },
      prev && prev.state === 'completed' ? { id: prev.id, score: prev.score, rubric_version: prev.rubric_version, results: prev.results ?? [] } : undefined,
    );
  }

  async function view(row: ScanRow): Promise<ScanView> {
    const findings = (row.results ?? [])
      .map((r) => ({
        id: r.id,
        key: r.key,
        group: r.group,
        title: r.title,
        severity: r.severity,
        weight: SEVERITY_WEIGHT[r.severity],
        status: r.status,
        points_lost: pointsLost(r),
        message: r.message,
        evidence: r.evidence,
        fix: r.fix,
        spec_url: r.spec_url,
      }))
      .sort((a, b) => b.points_lost - a.points_lost || (a.fix?.bundle_file ? 0 : 1) - (b.fix?.bundle_file ? 0 : 1) || a.id.localeCompare(b.id));
    return {
      id: row.id, tool_id: row.company_id, url: row.url, state: row.state, trigger: row.trigger, rubric_version: row.rubric_version,
      score: row.score, grade: row.grade, group_scores: row.group_scores, counts: row.counts, coverage: row.coverage, caps: row.caps ?? [],
      requests_made: row.requests_made, failure_reason: row.failure_reason, error: row.error,
      created_at: iso(row.created_at)!, started_at: iso(row.started_at), finished_at: iso(row.finished_at),
      duration_ms: row.started_at && row.finished_at ? new Date(row.finished_at).getTime() - new Date(row.started_at).getTime() : null,
      previous_scan_id: row.previous_scan_id,
      delta: await deltaOf(row),
      top_fixes: findings.filter((f) => f.points_lost > 0).slice(0, 3).map((f) => f.id),
      findings,
    };
  }

  async function company(companyId: string): Promise<CompanyRecord> {
    const row = await deps.companies.getById(companyId);
    if (!row.website_url) throw new AppError('conflict', 'The company has no website to scan: add its website URL first');
    return row;
  }

  async function queue(companyId: string, url: string, trigger: 'manual' | 'scheduled', requestedBy: string | null): Promise<ScanRow | undefined> {
    const row = await repo.insertQueued({ companyId, url, trigger, requestedBy, rubricVersion: RUBRIC_VERSION });
    if (row) await jobs.send(SCAN_JOB, { scanId: row.id });
    return row;
  }

  async function alertOnDrop(row: ScanRow, delta: ScanDelta, name: string) {
    if (row.trigger !== 'scheduled' || delta.score === null || delta.score > -DROP_ALERT_POINTS || delta.rubric_changed) return;
    const to = await deps.ownerEmailsOf(row.company_id);
    const lines = [
      `The weekly agent-readiness scan of ${row.url} scored ${row.score} (${row.grade}), ${-delta.score} points less than last time.`,
      '',
      ...(delta.new.length ? [`New problems: ${delta.new.join(', ')}`] : []),
      ...(delta.regressed.length ? [`Got worse: ${delta.regressed.join(', ')}`] : []),
      '',
      `See the findings and fixes: ${deps.baseUrl}/api/scans/tool/${row.company_id}/latest (or your dashboard).`,
    ];
    for (const email of to) await deps.mail.send({ to: email, subject: `${name}: agent-readiness score dropped to ${row.score}`, text: lines.join('\n') });
  }

  const service = {
    async start(principal: { userId: string | null }, companyId: string, force: boolean): Promise<{ reused: boolean; scan: ScanView; status: 200 | 202 }> {
      const c = await company(companyId);
      const active = await repo.active(companyId);
      if (active) return { reused: true, scan: await view(active), status: 202 };
      if (!force) {
        const recent = await repo.latestCompleted(companyId, REUSE_HOURS);
        if (recent) return { reused: true, scan: await view(recent), status: 200 };
      } else {
        const last = await repo.lastManualCreatedAt(companyId);
        const wait = last ? Math.ceil(cooldown - (Date.now() - new Date(last).getTime()) / 1000) : 0;
        if (wait > 0) throw new AppError('rate_limited', `A forced scan can start ${cooldown} seconds after the previous one: try again in ${wait} s`, { headers: { 'retry-after': String(wait) } });
      }
      const allowance = await deps.entitlement.scansPerMonth(companyId);
      const now = new Date();
      const used = await repo.manualScansSince(companyId, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
      if (used >= allowance.limit) {
        throw new AppError('payment_required', `This company has used its ${allowance.limit} scans for this month on the ${allowance.plan} plan. The latest scan stays available; the pro plan allows more (Billing in the dashboard).`);
      }
      const row = await queue(companyId, c.website_url, 'manual', principal.userId);
      if (!row) {
        const raced = await repo.active(companyId);
        if (raced) return { reused: true, scan: await view(raced), status: 202 };
        throw new AppError('conflict', 'A scan of this company is starting: try again in a moment');
      }
      return { reused: false, scan: await view(row), status: 202 };
    },

    /** The pg-boss job: queued → running → completed | failed. Never left running. */
    async runJob(scanId: string, meta: { retryCount: number; retryLimit: number } = { retryCount: 0, retryLimit: 0 }): Promise<void> {
      const row = await repo.markRunning(scanId);
      if (!row) return; // finished or gone
      let fetcher: Fetcher | undefined;
      try {
        const c = await deps.companies.getById(row.company_id);
        fetcher = deps.createFetcher({ timeoutMs: deps.timeoutMs, maxBytes: MAX_SCAN_BYTES });
        const outcome = await runScan({ fetcher, delayMs: deps.delayMs }, toScanCompany(c));
        if (outcome.state === 'failed') {
          await repo.fail(scanId, outcome.reason, outcome.message, outcome.requests);
          return;
        }
        const card = scoreResults(outcome.results);
        const prev = await repo.latestCompleted(row.company_id);
        const done = await repo.complete(scanId, { url: outcome.url, card, results: outcome.results, requests: outcome.requests, previousId: prev?.id ?? null });
        summaries.delete(row.company_id);
        await alertOnDrop(done, await deltaOf(done), c.name).catch((err) => log.error({ err, scanId }, 'score drop alert failed'));
      } catch (err) {
        if (err instanceof AppError && err.code === 'not_found') {
          await repo.fail(scanId, 'invalid_url', 'The company no longer exists');
          return;
        }
        log.error({ err, scanId }, 'scan failed');
        if (meta.retryCount >= meta.retryLimit) await repo.fail(scanId, 'internal', 'The scan could not be completed');
        else throw err; // retried by the queue
      } finally {
        await fetcher?.close().catch(() => {});
      }
    },

    async latest(companyId: string): Promise<ScanView> {
      await deps.companies.getById(companyId);
      const row = await repo.latest(companyId);
      if (!row) throw new AppError('not_found', 'This company has not been scanned yet: start a scan first');
      return view(row);
    },

    async history(companyId: string, limit: number, offset: number) {
      await deps.companies.getById(companyId);
      const { rows, total } = await repo.history(companyId, limit, offset);
      const item = (r: HistoryRow) => ({
        id: r.id, tool_id: r.company_id, url: r.url, state: r.state, trigger: r.trigger, rubric_version: r.rubric_version,
        score: r.score, grade: r.grade, counts: r.counts, created_at: iso(r.created_at)!, finished_at: iso(r.finished_at),
        delta: diffScans(
          { score: r.score, rubric_version: r.rubric_version, results: statusList(r.statuses) },
          r.previous_scan_id && r.previous_statuses ? { id: r.previous_scan_id, score: r.previous_score, rubric_version: r.previous_rubric_version ?? '', results: statusList(r.previous_statuses) } : undefined,
        ),
      });
      return { scans: rows.map(item), total, limit, offset, has_more: offset + rows.length < total };
    },

    async generateFiles(principal: { userId: string | null }, companyId: string, scanId: string | undefined, options: BundleOptions) {
      const c = await deps.companies.getById(companyId);
      const scan = scanId ? await repo.get(scanId) : await repo.latestCompleted(companyId);
      if (scanId && (!scan || scan.company_id !== companyId)) throw new AppError('not_found', 'Scan not found for this company');
      if (!scan) throw new AppError('conflict', 'Scan the website first: the files are built from the scan and the listing');
      if (scan.state !== 'completed') throw new AppError('conflict', `The scan is ${scan.state}: files are built from a completed scan`);
      const pages = await deps.pagesOf(companyId).catch(() => []);
      const { files, training, bundleKey } = buildBundle({
        company: { ...toScanCompany(c), profile_url: deps.companies.toProfile(c).profile_url },
        scan: { id: scan.id, url: scan.url, rubric_version: scan.rubric_version, finished_at: iso(scan.finished_at)!, score: scan.score, grade: scan.grade, results: scan.results ?? [] },
        options, baseUrl: deps.baseUrl, serviceName: deps.serviceName, pages,
      });
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + ttlMinutes * 60_000);
      const slug = c.domain.replace(/[^a-z0-9]+/gi, '-').toLowerCase() || 'company';
      const filename = `agentpages-${slug}-agent-files-${iso(scan.finished_at)!.slice(0, 10)}.zip`;
      await repo.insertBundle({
        companyId,
        scanId: scan.id,
        files: files.map((f) => ({ name: f.name, content: f.content, content_type: f.content_type, install_path: f.install_path })),
        filename,
        tokenHash: hashToken(token),
        expiresAt,
        createdBy: principal.userId,
      });
      return {
        bundle_id: bundleKey,
        scan_id: scan.id,
        options: { ai_training: training },
        files: files.map((f) => ({ name: f.name, install_path: f.install_path, content_type: f.content_type, bytes: Buffer.byteLength(f.content), sha256: createHash('sha256').update(f.content).digest('hex'), addresses_checks: f.addresses_checks, content: f.content })),
        download: { url: `${deps.baseUrl}/api/scans/download/${token}`, token, expires_at: expiresAt.toISOString() },
      };
    },

    /** One download per token: 404 unknown, 410 used or expired. */
    async download(token: string): Promise<{ filename: string; zip: Buffer }> {
      const hash = hashToken(token);
      const bundle = await repo.consumeToken(hash);
      if (!bundle) {
        if (await repo.tokenExists(hash)) throw new AppError('gone', 'This download link was already used or has expired: generate the files again');
        throw new AppError('not_found', 'Unknown download link');
      }
      return { filename: bundle.filename, zip: zipStore(bundle.files.map((f) => ({ name: f.name, content: f.content }))) };
    },

    /**
     * The latest completed score and grade, for public profiles. Remembered for a minute (cleared at
     * once when this process completes a scan of the company), so hot profile reads cost no query.
     */
    async latestSummary(companyId: string): Promise<Summary | undefined> {
      const hit = summaries.get(companyId);
      if (hit && Date.now() - hit.at < SUMMARY_TTL_MS) return hit.value;
      const r = isUuid(companyId) ? await repo.latestSummary(companyId) : undefined;
      const value = r ? { score: r.score, grade: r.grade, scanned_at: iso(r.finished_at)! } : undefined;
      if (summaries.size >= 10_000) summaries.clear();
      summaries.set(companyId, { value, at: Date.now() });
      return value;
    },

    /** Hourly: queue a scheduled scan for every entitled company last scanned over a week ago. */
    async queueDueRescans(limit = 200): Promise<number> {
      await repo.failStale(60);
      await repo.deleteOldBundles(7);
      const ids = await deps.entitlement.rescanCompanyIds();
      const due = await repo.dueForRescan(ids, RESCAN_DAYS, limit);
      let n = 0;
      for (const c of due) if (await queue(c.id, c.website_url, 'scheduled', null)) n++;
      if (n) log.info({ queued: n }, 'scheduled scans queued');
      return n;
    },
  };

  jobs.define<{ scanId: string }>({
    name: SCAN_JOB,
    retryLimit: 2,
    retryDelaySeconds: 30,
    expireInSeconds: 5 * 60,
    concurrency: 2,
    handler: async (data, meta) => service.runJob(String(data.scanId), { retryCount: meta.retryCount, retryLimit: 2 }),
  });
  jobs.define<object>({ name: RESCAN_JOB, retryLimit: 1, expireInSeconds: 10 * 60, handler: async () => void (await service.queueDueRescans()) });
  jobs.schedule(RESCAN_JOB, '23 * * * *');

  return service;
}

export type ScansServiceImpl = ReturnType<typeof createScansService>;
