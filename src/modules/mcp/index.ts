import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { mcpRoutes } from './mcp.routes.js';

/** The MCP endpoints (agent tools over Streamable HTTP), rate-limited like the REST agent routes. */
export const mcpModule: HttpModule<CoreServices> = {
  name: 'mcp',
  async routes(app, { config, mcp, agents }) {
    await app.register(mcpRoutes, { mcp, baseUrl: config.baseUrl, serviceName: config.serviceName, rateLimit: { config, isWellFormedKey: agents.isWellFormedKey } });
  },
};
