import type { HttpModule } from '../../platform/module.js';
import type { Config } from '../../config.js';
import type { McpService } from '../mcp/mcp.service.js';
import { ALL_VERSIONS, describeTool } from '../mcp/mcp.protocol.js';
import { API_VERSION } from '../system/system.service.js';
import { discoveryRoutes } from './discovery.routes.js';
import { createDiscoveryService, type OpenApiDoc } from './discovery.service.js';

/** What the discovery module's routes need (services.ts supplies them). */
export interface DiscoveryModuleDeps {
  config: Config;
  mcp: McpService;
}

/** Discovery files (llms.txt, MCP and A2A cards, API catalog, security.txt); built from the live OpenAPI document and MCP tools. */
export const discoveryModule: HttpModule<DiscoveryModuleDeps> = {
  name: 'discovery',
  async routes(app, { config, mcp }) {
    const discovery = createDiscoveryService({
      config,
      version: API_VERSION,
      openapi: () => app.swagger() as OpenApiDoc,
      mcpEndpoint: () => mcp.agentEndpoint(),
      mcpConfig: () => mcp.mcpConfig(),
      // Described by the function tools/list answers with, so the card lists exactly what the server serves.
      mcpTools: () => mcp.agentEndpoint().tools.map((tool) => ({ name: tool.name, needsKey: tool.needsKey, listed: describeTool(tool) })),
      mcpProtocolVersions: ALL_VERSIONS,
    });
    await app.register(discoveryRoutes, { discovery, serviceName: config.serviceName, baseUrl: config.baseUrl });
  },
};
