import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { adminRoutes } from './admin.routes.js';
import { adminSchemas } from './admin.schemas.js';

/** Administrators' company moderation (verify, feature, subscriptions, reindex, audit log) under /api/tools/admin. */
export const adminModule: HttpModule<CoreServices> = {
  name: 'admin',
  schemas: adminSchemas,
  async routes(app, { tools, admin, guards }) {
    await app.register(adminRoutes, { prefix: '/api/tools/admin', tools, admin, guards });
  },
};
