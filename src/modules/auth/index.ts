import type { HttpModule } from '../../platform/module.js';
import type { Config } from '../../config.js';
import type { Guards } from '../../platform/auth.js';
import type { MailService } from '../../platform/mail.js';
import type { AuthService } from './auth.service.js';
import { adminAuthRoutes, authRoutes, authSchemas, devMailboxRoutes } from './auth.routes.js';

/** What the auth module's routes need (services.ts supplies them). */
export interface AuthModuleDeps {
  config: Config;
  auth: AuthService;
  guards: Guards;
  mail: MailService;
}

/** Owners' and administrators' sign-in by magic link, sessions, and the developer mailbox. */
export const authModule: HttpModule<AuthModuleDeps> = {
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
