import type { HttpModule } from '../../platform/module.js';
import type { Guards } from '../../platform/auth.js';
import type { ToolsService } from '../companies/tools.service.js';
import type { AdminService } from './admin.service.js';
import { adminRoutes } from './admin.routes.js';
import { adminSchemas } from './admin.schemas.js';

/** What the admin module's routes need (services.ts supplies them). */
export interface AdminModuleDeps {
  tools: ToolsService;
  admin: AdminService;
  guards: Guards;
}

/** Administrators' company moderation (verify, feature, subscriptions, reindex, audit log) under /api/tools/admin. */
export const adminModule: HttpModule<AdminModuleDeps> = {
  name: 'admin',
  schemas: adminSchemas,
  async routes(app, { tools, admin, guards }) {
    await app.register(adminRoutes, { prefix: '/api/tools/admin', tools, admin, guards });
  },
};
