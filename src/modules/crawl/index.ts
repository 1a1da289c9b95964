import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { crawlRoutes } from './crawl.routes.js';
import { crawlSchemas } from './crawl.schemas.js';

/** Crawling companies' websites into profiles: owners' recrawls and the administrators' crawl controls. */
export const crawlModule: HttpModule<CoreServices> = {
  name: 'crawl',
  schemas: crawlSchemas,
  async routes(app, { crawl, guards }) {
    await app.register(crawlRoutes, { prefix: '/api/crawl', crawl, guards });
  },
};
