import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { API_VERSION } from '../system/system.service.js';
import { discoveryRoutes } from './discovery.routes.js';
import { createDiscoveryService, type OpenApiDoc } from './discovery.service.js';

/** Discovery files (llms.txt, agent cards, OpenAPI links); built from the live OpenAPI document. */
export const discoveryModule: HttpModule<CoreServices> = {
  name: 'discovery',
  async routes(app, { config, mcp }) {
    const discovery = createDiscoveryService({
      config,
      version: API_VERSION,
      openapi: () => app.swagger() as OpenApiDoc,
      mcpEndpoint: () => mcp.agentEndpoint(),
      mcpConfig: () => mcp.mcpConfig(),
    });
    await app.register(discoveryRoutes, { discovery, serviceName: config.serviceName });
  },
};
