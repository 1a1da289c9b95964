import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { searchRoutes } from './search.routes.js';
import { SearchResponseSchema } from './search.schemas.js';

/** Hybrid company search for agents, GET /api/v1/agent/companies. */
export const searchModule: HttpModule<CoreServices> = {
  name: 'search',
  schemas: [SearchResponseSchema],
  async agentRoutes(agent, { search }) {
    await agent.register(searchRoutes, { search });
  },
};
