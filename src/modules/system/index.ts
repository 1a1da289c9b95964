import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { systemRoutes } from './system.routes.js';
import { DeepHealthSchema, HealthSchema, PublicConfigSchema } from './system.schemas.js';

/** Health (plain and deep) and the public runtime configuration, under /api. */
export const systemModule: HttpModule<CoreServices> = {
  name: 'system',
  schemas: [HealthSchema, DeepHealthSchema, PublicConfigSchema],
  async routes(app, { system }) {
    await app.register(systemRoutes, { prefix: '/api', system });
  },
};
