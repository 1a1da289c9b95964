import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import { migrate, openDb, type Db } from './platform/db.js';
import { createEmbeddingProvider, type EmbeddingProvider } from './platform/embeddings/embeddings.js';
import { createGuards, refuseAll, type AuthVerifiers, type Guards } from './platform/auth.js';
import { registerErrorHandling } from './platform/error-handler.js';
import { ErrorSchema, ValidationErrorSchema, type App } from './platform/http.js';
import { createJobs, type Jobs } from './platform/jobs.js';
import { loggerOptions } from './platform/logging.js';
import { registerOpenApi } from './platform/openapi.js';
import { createCompaniesRepo } from './modules/companies/companies.repo.js';
import { companiesRoutes } from './modules/companies/companies.routes.js';
import {
  CategoriesResponseSchema,
  CompanyProfileSchema,
  CompanySummarySchema,
  LocationSchema,
} from './modules/companies/companies.schemas.js';
import { createCompaniesService, type CompaniesService } from './modules/companies/companies.service.js';
import { createSearchRepo } from './modules/search/search.repo.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { SearchResponseSchema } from './modules/search/search.schemas.js';
import { createSearchService, type SearchService } from './modules/search/search.service.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { DeepHealthSchema, HealthSchema, PublicConfigSchema } from './modules/system/system.schemas.js';
import { API_VERSION, createSystemService } from './modules/system/system.service.js';

export interface AppDeps {
  /** Supplied by tests to share one store; otherwise opened from config and closed with the app. */
  db?: Db;
  embeddings?: EmbeddingProvider;
}

export interface Services {
  config: Config;
  db: Db;
  embeddings: EmbeddingProvider;
  jobs: Jobs;
  /** Credential verifiers: the auth module sets bearer/owns, the agents module sets apiKey. */
  verifiers: AuthVerifiers;
  guards: Guards;
  companies: CompaniesService;
  search: SearchService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/**
 * Builds the whole service: platform (logging, errors, OpenAPI, store, embeddings, jobs),
 * then the domain modules' services, then their routes. server.ts only listens.
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(config),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: true,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  registerErrorHandling(app);
  for (const schema of [ErrorSchema, ValidationErrorSchema, LocationSchema, CompanySummarySchema, CompanyProfileSchema, CategoriesResponseSchema, SearchResponseSchema, HealthSchema, DeepHealthSchema, PublicConfigSchema]) {
    app.addSchema(schema);
  }
  await registerOpenApi(app, config, API_VERSION);

  const ownsDb = !deps.db;
  const db = deps.db ?? (await openDb({ databaseUrl: config.databaseUrl, pgliteDir: config.dataDir }));
  if (ownsDb) await migrate(db);
  const ownsEmbeddings = !deps.embeddings;
  const embeddings = deps.embeddings ?? createEmbeddingProvider(config.embeddings);
  const jobs = createJobs(db, app.log);

  const verifiers: AuthVerifiers = { ...refuseAll };
  const guards = createGuards(verifiers);

  const companies = createCompaniesService({ repo: createCompaniesRepo(db), embeddings, baseUrl: config.baseUrl });
  const search = createSearchService({ repo: createSearchRepo(db), companies, embeddings });
  const system = createSystemService({ config, db, embeddings, jobs });

  const services: Services = { config, db, embeddings, jobs, verifiers, guards, companies, search };
  app.decorate('services', services);

  await app.register(systemRoutes, { prefix: '/api', system });
  await app.register(async (agent) => {
    await agent.register(searchRoutes, { search });
    await agent.register(companiesRoutes, { companies });
  }, { prefix: '/api/v1/agent' });

  app.addHook('onReady', async () => {
    await jobs.start({ work: config.runJobs });
  });
  app.addHook('onClose', async () => {
    await jobs.stop();
    if (ownsEmbeddings) await embeddings.close();
    if (ownsDb) await db.close();
  });

  return app;
}
