import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { adminAgentsRoutes } from './agents.admin.routes.js';
import { agentsRoutes } from './agents.routes.js';
import { agentsSchemas } from './agents.schemas.js';

/** Agent registration, API keys and e-mail confirmation; the administrators' agent list. */
export const agentsModule: HttpModule<CoreServices> = {
  name: 'agents',
  schemas: agentsSchemas,
  async agentRoutes(agent, { config, agents, guards }) {
    await agent.register(agentsRoutes, { agents, guards, baseUrl: config.baseUrl });
  },
  async routes(app, { agents, proposals, guards }) {
    await app.register(adminAgentsRoutes, { prefix: '/api/tools/admin/agents', agents, proposals, guards });
  },
};
