import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { adminAuthRoutes, authRoutes, authSchemas, devMailboxRoutes } from './auth.routes.js';

/** Owners' and administrators' sign-in by magic link, sessions, and the developer mailbox. */
export const authModule: HttpModule<CoreServices> = {
  name: 'auth',
  schemas: authSchemas,
  async routes(app, { config, auth, guards, mail }) {
    const options = { auth, guards, serviceName: config.serviceName, baseUrl: config.baseUrl };
    await app.register(authRoutes, { prefix: '/api/auth', ...options });
    await app.register(adminAuthRoutes, { prefix: '/api/admin', ...options });
    // Only where mail cannot be delivered anyway, never in production (the route also refuses non-loopback callers).
    if (config.nodeEnv !== 'production' && !config.smtpUrl) await app.register(devMailboxRoutes, { prefix: '/dev', mail });
  },
};
