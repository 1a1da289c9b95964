import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { webhooksSchemas } from './webhooks.schemas.js';

/** Agents' webhook endpoints, their secrets and delivery log, under /api/v1/agent/webhooks. */
export const webhooksModule: HttpModule<CoreServices> = {
  name: 'webhooks',
  schemas: webhooksSchemas,
  async agentRoutes(agent, { config, webhooks, guards }) {
    await agent.register(webhooksRoutes, { webhooks, guards, settings: config.webhooks });
  },
};
