import type { Config } from '../../config.js';
import { setHtmlNotFoundPage } from '../../platform/error-handler.js';
import type { HttpModule } from '../../platform/module.js';
import { displayName } from '../../lib/display-name.js';
import type { SiteContext } from './site.pages.listing.js';
import { notFoundPage } from './site.pages.static.js';
import { siteRoutes } from './site.routes.js';
import type { SiteService } from './site.service.js';

export { createSiteRepo } from './site.repo.js';
export { createSiteService, type SiteService } from './site.service.js';

/** What the public website's routes need. */
export interface SiteModuleDeps {
  config: Config;
  site: SiteService;
}

/** The server-rendered public website (/, /search, /categories, /companies, sitemaps, robots.txt) and the HTML 404 page. */
export const siteModule: HttpModule<SiteModuleDeps> = {
  name: 'site',
  async routes(app, { config, site }) {
    const ctx: SiteContext = { baseUrl: config.baseUrl, siteName: displayName(config.serviceName), serviceName: config.serviceName };
    await app.register(siteRoutes, { site, ctx });
    setHtmlNotFoundPage(app, (path) => notFoundPage(ctx, path));
  },
};
