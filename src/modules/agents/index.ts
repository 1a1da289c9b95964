import type { HttpModule } from '../../platform/module.js';
import type { Config } from '../../config.js';
import type { Guards } from '../../platform/auth.js';
import type { ProposalsService } from '../proposals/proposals.service.js';
import type { AgentsService } from './agents.service.js';
import { adminAgentsRoutes } from './agents.admin.routes.js';
import { agentsRoutes } from './agents.routes.js';
import { agentsSchemas } from './agents.schemas.js';

/** What the agents module's routes need (services.ts supplies them). */
export interface AgentsModuleDeps {
  config: Config;
  agents: AgentsService;
  proposals: ProposalsService;
  guards: Guards;
}

/** Agent registration, API keys and e-mail confirmation; the administrators' agent list. */
export const agentsModule: HttpModule<AgentsModuleDeps> = {
  name: 'agents',
  schemas: agentsSchemas,
  async agentRoutes(agent, { config, agents, guards }) {
    await agent.register(agentsRoutes, { agents, guards, baseUrl: config.baseUrl });
  },
  async routes(app, { agents, proposals, guards }) {
    await app.register(adminAgentsRoutes, { prefix: '/api/tools/admin/agents', agents, proposals, guards });
  },
};
