import type { HttpModule } from '../../platform/module.js';
import { webRoutes } from './web.routes.js';

/** The owners' and administrators' dashboard (the built browser app in web/dist) under /app and /admin. */
export const webModule: HttpModule<object> = {
  name: 'web',
  async routes(app) {
    await app.register(webRoutes, {});
  },
};
