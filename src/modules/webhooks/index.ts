import type { HttpModule } from '../../platform/module.js';
import type { Config } from '../../config.js';
import type { Guards } from '../../platform/auth.js';
import type { WebhooksService } from './webhooks.service.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { webhooksSchemas } from './webhooks.schemas.js';

/** What the webhooks module's routes need (services.ts supplies them). */
export interface WebhooksModuleDeps {
  config: Config;
  webhooks: WebhooksService;
  guards: Guards;
}

/** Agents' webhook endpoints, their secrets and delivery log, under /api/v1/agent/webhooks. */
export const webhooksModule: HttpModule<WebhooksModuleDeps> = {
  name: 'webhooks',
  schemas: webhooksSchemas,
  async agentRoutes(agent, { config, webhooks, guards }) {
    await agent.register(webhooksRoutes, { webhooks, guards, settings: config.webhooks });
  },
};
