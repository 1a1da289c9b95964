import type { App } from '../../platform/http.js';
import type { CoreServices } from '../../app.js';
import type { PaymentsService } from '../payments/index.js';
import { createEntitlement } from './scans.entitlement.js';
import { createScansRepo } from './scans.repo.js';
import { scansRoutes } from './scans.routes.js';
import { scansSchemas } from './scans.schemas.js';
import { createScansService, type ScansServiceImpl } from './scans.service.js';

/** What the scans module offers the rest of the service (the public site, the agent API, tests). */
export interface ScansService {
  /** The latest completed scan's score and grade (undefined before the first completed scan). */
  latestSummary(companyId: string): Promise<{ score: number; grade: string; scanned_at: string } | undefined>;
  /** The whole scan service (owner operations, the job handler, scheduled re-scans). */
  readonly impl: ScansServiceImpl;
}

/** Builds the scans service and registers its routes (/api/scans). */
export async function scansModule(app: App, core: CoreServices & { payments: PaymentsService }): Promise<ScansService> {
  const { config } = core;
  const impl = createScansService({
    repo: createScansRepo(core.db),
    companies: core.companies,
    createFetcher: (o) => core.crawl.createFetcher(o),
    pagesOf: (companyId) => core.crawl.pagesOf(companyId),
    jobs: core.jobs,
    mail: core.mail,
    ownerEmailsOf: core.ownership.ownerEmailsOf,
    entitlement: createEntitlement(core.db, core.payments),
    baseUrl: config.baseUrl,
    serviceName: config.serviceName,
    log: app.log,
    // The crawler's politeness delay capped at 500 ms: a scan is a short fixed list (at most 30
    // requests) that an owner waits for, so it never waits longer than 2 requests a second would;
    // CRAWL_DELAY_MS=0 (tests, a site of one's own) turns the delay off for scans too.
    delayMs: Math.min(config.crawl.delayMs, 500),
    timeoutMs: Math.min(config.crawl.timeoutMs, 8000),
  });
  for (const schema of scansSchemas) app.addSchema(schema);
  await app.register(scansRoutes, { prefix: '/api/scans', scans: impl, guards: core.guards });
  return { latestSummary: impl.latestSummary, impl };
}
