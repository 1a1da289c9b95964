import type { HttpModule } from '../../platform/module.js';
import type { CoreServices } from '../../services.js';
import { companiesRoutes } from './companies.routes.js';
import {
  CategoriesResponseSchema,
  ChangesResponseSchema,
  CompanyChangeSchema,
  CompanyLocationSchema,
  CompanyProfileSchema,
  CompanySummarySchema,
  LocationSchema,
} from './companies.schemas.js';
import { toolsRoutes } from './tools.routes.js';
import { toolSchemas } from './tools.schemas.js';

/** Company lookup for agents (by id, website, changes, categories) and the owners' company management under /api/tools. */
export const companiesModule: HttpModule<CoreServices> = {
  name: 'companies',
  schemas: [
    LocationSchema,
    CompanyLocationSchema,
    CompanySummarySchema,
    CompanyProfileSchema,
    CompanyChangeSchema,
    ChangesResponseSchema,
    CategoriesResponseSchema,
    ...toolSchemas,
  ],
  async agentRoutes(agent, { companies, reachability }) {
    await agent.register(companiesRoutes, { companies, reachabilityOf: reachability });
  },
  async routes(app, { tools, guards }) {
    await app.register(toolsRoutes, { prefix: '/api/tools', tools, guards });
  },
};
