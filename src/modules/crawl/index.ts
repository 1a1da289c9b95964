import type { HttpModule } from '../../platform/module.js';
import type { Guards } from '../../platform/auth.js';
import type { CrawlService } from './crawl.service.js';
import { crawlRoutes } from './crawl.routes.js';
import { crawlSchemas } from './crawl.schemas.js';

/** What the crawl module's routes need (services.ts supplies them). */
export interface CrawlModuleDeps {
  crawl: CrawlService;
  guards: Guards;
}

/** Crawling companies' websites into profiles: owners' recrawls and the administrators' crawl controls. */
export const crawlModule: HttpModule<CrawlModuleDeps> = {
  name: 'crawl',
  schemas: crawlSchemas,
  async routes(app, { crawl, guards }) {
    await app.register(crawlRoutes, { prefix: '/api/crawl', crawl, guards });
  },
};
