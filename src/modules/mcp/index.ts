import type { HttpModule } from '../../platform/module.js';
import type { Config } from '../../config.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { McpService } from './mcp.service.js';
import { mcpRoutes } from './mcp.routes.js';

/** What the mcp module's routes need (services.ts supplies them). */
export interface McpModuleDeps {
  config: Config;
  mcp: McpService;
  agents: AgentsService;
}

/** The MCP endpoints (agent tools over Streamable HTTP), rate-limited like the REST agent routes. */
export const mcpModule: HttpModule<McpModuleDeps> = {
  name: 'mcp',
  async routes(app, { config, mcp, agents }) {
    await app.register(mcpRoutes, { mcp, baseUrl: config.baseUrl, serviceName: config.serviceName, rateLimit: { config, isWellFormedKey: agents.isWellFormedKey } });
  },
};
