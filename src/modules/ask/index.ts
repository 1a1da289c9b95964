import type { HttpModule } from '../../platform/module.js';
import type { Guards } from '../../platform/auth.js';
import type { AskService } from './ask.service.js';
import type { InsightsService } from './insights.service.js';
import { askAgentRoutes, askRoutes } from './ask.routes.js';
import { askSchemas } from './ask.schemas.js';

/** What the ask module's routes need (services.ts supplies them). */
export interface AskModuleDeps {
  ask: AskService;
  insights: InsightsService;
  guards: Guards;
}

/** Questions answered with matched profiles (agents and the public), and owners' unanswered-question insights. */
export const askModule: HttpModule<AskModuleDeps> = {
  name: 'ask',
  schemas: askSchemas,
  async agentRoutes(agent, { ask }) {
    await agent.register(askAgentRoutes, { ask });
  },
  async routes(app, { ask, insights, guards }) {
    await app.register(askRoutes, { prefix: '/api', ask, insights, guards });
  },
};
