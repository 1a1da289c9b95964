import type { Config } from '../../config.js';
import type { HttpModule } from '../../platform/module.js';
import type { Guards } from '../../platform/auth.js';
import type { ProposalsService } from './proposals.service.js';
import { agentProposalsRoutes, invitationRoutes, ownerProposalsRoutes } from './proposals.routes.js';
import { proposalsSchemas } from './proposals.schemas.js';

/** What the proposals module's routes need (services.ts supplies them). */
export interface ProposalsModuleDeps {
  proposals: ProposalsService;
  guards: Guards;
  config: Pick<Config, 'serviceName'>;
}

/** Proposals: agents send and reply under /api/v1/agent, owners answer under /api/proposals. */
export const proposalsModule: HttpModule<ProposalsModuleDeps> = {
  name: 'proposals',
  schemas: proposalsSchemas,
  async agentRoutes(agent, { proposals, guards }) {
    await agent.register(agentProposalsRoutes, { proposals, guards });
  },
  async routes(app, { proposals, guards, config }) {
    await app.register(ownerProposalsRoutes, { prefix: '/api/proposals', proposals, guards });
    await app.register(invitationRoutes, { prefix: '/invitations', proposals, serviceName: config.serviceName });
  },
};
