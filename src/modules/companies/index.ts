import type { HttpModule } from '../../platform/module.js';
import type { Guards } from '../../platform/auth.js';
import type { ReachabilityOf } from '../proposals/proposals.reachability.js';
import type { CompaniesService } from './companies.service.js';
import type { ToolsService } from './tools.service.js';
import { companiesRoutes } from './companies.routes.js';
import {
  CategoriesResponseSchema,
  ChangesResponseSchema,
  CompanyChangeSchema,
  CompanyLocationSchema,
  CompanyProfileSchema,
  CompanySummarySchema,
  LocationSchema,
  OpeningHoursSchema,
  PhotoSchema,
  PriceRangeSchema,
  ServicePriceSchema,
} from './companies.schemas.js';
import { photosRoutes } from './photos.routes.js';
import { toolsRoutes } from './tools.routes.js';
import { toolSchemas } from './tools.schemas.js';
import { heldFieldsRoutes } from './held-fields.routes.js';
import { heldFieldSchemas } from './held-fields.schemas.js';
import { websiteCheckRoutes } from './website-check.routes.js';
import { websiteCheckSchemas } from './website-check.schemas.js';

/** What the companies module's routes need (services.ts supplies them). */
export interface CompaniesModuleDeps {
  companies: CompaniesService;
  reachability: ReachabilityOf;
  tools: ToolsService;
  guards: Guards;
  /** The reviews module's read port: ratings from published reviews. */
  reviews: { ratings(ids: string[]): Promise<Map<string, unknown>> };
}

/** Company lookup for agents (by id, website, changes, categories) and the owners' company management under /api/tools. */
export const companiesModule: HttpModule<CompaniesModuleDeps> = {
  name: 'companies',
  schemas: [
    LocationSchema,
    CompanyLocationSchema,
    OpeningHoursSchema,
    PriceRangeSchema,
    ServicePriceSchema,
    PhotoSchema,
    CompanySummarySchema,
    CompanyProfileSchema,
    CompanyChangeSchema,
    ChangesResponseSchema,
    CategoriesResponseSchema,
    ...toolSchemas,
    ...websiteCheckSchemas,
    ...heldFieldSchemas,
  ],
  async agentRoutes(agent, { companies, reachability, reviews }) {
    await agent.register(companiesRoutes, { companies, reachabilityOf: reachability, ratingsOf: reviews.ratings });
  },
  async routes(app, { tools, guards }) {
    await app.register(toolsRoutes, { prefix: '/api/tools', tools, guards });
    await app.register(photosRoutes, { prefix: '/api/tools', tools, guards });
    await app.register(websiteCheckRoutes, { prefix: '/api/tools', tools, guards });
    await app.register(heldFieldsRoutes, { prefix: '/api/tools', tools, guards });
  },
};
