import type { HttpModule } from '../../platform/module.js';
import type { SearchService } from './search.service.js';
import { searchRoutes } from './search.routes.js';
import { SearchResponseSchema } from './search.schemas.js';

/** What the search module's routes need (services.ts supplies them). */
export interface SearchModuleDeps {
  search: SearchService;
}

/** Hybrid company search for agents, GET /api/v1/agent/companies. */
export const searchModule: HttpModule<SearchModuleDeps> = {
  name: 'search',
  schemas: [SearchResponseSchema],
  async agentRoutes(agent, { search }) {
    await agent.register(searchRoutes, { search });
  },
};
