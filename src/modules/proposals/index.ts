import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { agentProposalsRoutes, ownerProposalsRoutes } from './proposals.routes.js';
import { proposalsSchemas } from './proposals.schemas.js';

/** Proposals: agents send and reply under /api/v1/agent, owners answer under /api/proposals. */
export const proposalsModule: HttpModule<CoreServices> = {
  name: 'proposals',
  schemas: proposalsSchemas,
  async agentRoutes(agent, { proposals, guards }) {
    await agent.register(agentProposalsRoutes, { proposals, guards });
  },
  async routes(app, { proposals, guards }) {
    await app.register(ownerProposalsRoutes, { prefix: '/api/proposals', proposals, guards });
  },
};
