import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { askAgentRoutes, askRoutes } from './ask.routes.js';
import { askSchemas } from './ask.schemas.js';

/** Questions answered with matched profiles (agents and the public), and owners' unanswered-question insights. */
export const askModule: HttpModule<CoreServices> = {
  name: 'ask',
  schemas: askSchemas,
  async agentRoutes(agent, { ask }) {
    await agent.register(askAgentRoutes, { ask });
  },
  async routes(app, { ask, insights, guards }) {
    await app.register(askRoutes, { prefix: '/api', ask, insights, guards });
  },
};
