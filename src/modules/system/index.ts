import type { HttpModule } from '../../platform/module.js';
import type { SystemService } from './system.service.js';
import { systemRoutes } from './system.routes.js';
import { DeepHealthSchema, HealthSchema, PublicConfigSchema } from './system.schemas.js';

/** What the system module's routes need (services.ts supplies them). */
export interface SystemModuleDeps {
  system: SystemService;
}

/** Health (plain and deep) and the public runtime configuration, under /api. */
export const systemModule: HttpModule<SystemModuleDeps> = {
  name: 'system',
  schemas: [HealthSchema, DeepHealthSchema, PublicConfigSchema],
  async routes(app, { system }) {
    await app.register(systemRoutes, { prefix: '/api', system });
  },
};
