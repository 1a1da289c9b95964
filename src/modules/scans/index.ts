import type { Guards } from '../../platform/auth.js';
import type { HttpModule } from '../../platform/module.js';
import { scansRoutes } from './scans.routes.js';
import { scansSchemas } from './scans.schemas.js';
import type { ScansServiceImpl } from './scans.service.js';

export { createEntitlement } from './scans.entitlement.js';
export { createScansRepo } from './scans.repo.js';
export { createScansService } from './scans.service.js';

/** Agent-readiness scans: owner operations, the job handler, scheduled re-scans and the latest grade (the public site shows it). */
export type ScansService = ScansServiceImpl;

/** What the scans routes need. */
export interface ScansModuleDeps {
  scans: ScansService;
  guards: Guards;
}

/** Owners' agent-readiness scans and their downloadable files under /api/scans. */
export const scansModule: HttpModule<ScansModuleDeps> = {
  name: 'scans',
  schemas: scansSchemas,
  async routes(app, { scans, guards }) {
    await app.register(scansRoutes, { prefix: '/api/scans', scans, guards });
  },
};
