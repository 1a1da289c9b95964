import type { App } from '../../platform/http.js';
import type { CoreServices } from '../../app.js';
import { setHtmlNotFoundPage } from '../../platform/error-handler.js';
import { displayName } from '../../lib/display-name.js';
import type { PaymentsService } from '../payments/index.js';
import type { ScansService } from '../scans/index.js';
import type { SiteContext } from './site.pages.listing.js';
import { notFoundPage } from './site.pages.static.js';
import { createSiteRepo } from './site.repo.js';
import { siteRoutes } from './site.routes.js';
import { createSiteService, type SiteService } from './site.service.js';

export type { SiteService };

/** Registers the server-rendered public website (/, /search, /categories, /companies, sitemaps, robots.txt) and the HTML 404 page. */
export async function siteModule(app: App, core: CoreServices & { payments: PaymentsService; scans: ScansService }): Promise<SiteService> {
  const { config } = core;
  const site = createSiteService({
    repo: createSiteRepo(core.db),
    companies: core.companies,
    search: core.search,
    scans: core.scans,
    widget: core.widget,
    baseUrl: config.baseUrl,
  });
  const ctx: SiteContext = { baseUrl: config.baseUrl, siteName: displayName(config.serviceName), serviceName: config.serviceName };
  await app.register(siteRoutes, { site, ctx });
  setHtmlNotFoundPage(app, (path) => notFoundPage(ctx, path));
  return site;
}
