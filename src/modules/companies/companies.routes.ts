import { Type } from 'typebox';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import type { CompaniesService } from './companies.service.js';
import { CategoriesResponseSchema, ChangesQuerySchema, CompanyIdParams, WebsiteParams, type CompanyChange, type CompanyProfile } from './companies.schemas.js';

export interface CompaniesRoutesOptions {
  companies: CompaniesService;
  /** How a proposal reaches the company, from its proposal history (the proposals module's read port). */
  reachabilityOf: (company: { id: string; is_verified: boolean; contact_email: string | null }) => Promise<CompanyProfile['reachability']>;
  /** The rating from published reviews (the reviews module's read port). */
  ratingsOf: (ids: string[]) => Promise<Map<string, CompanyProfile['rating']>>;
}

/** Agent API: company lookup and categories (base /api/v1/agent). */
export async function companiesRoutes(app: App, { companies, reachabilityOf, ratingsOf }: CompaniesRoutesOptions): Promise<void> {
  // The latest agent-readiness score and grade (scans module) and the reachability, read at request time.
  const withReadiness = async (profile: CompanyProfile): Promise<CompanyProfile> => ({
    ...profile,
    agent_readiness: (await app.services?.scans?.latestSummary(profile.id)) ?? null,
    reachability: await reachabilityOf({ id: profile.id, is_verified: profile.is_verified, contact_email: profile.contact.email }),
    rating: (await ratingsOf([profile.id])).get(profile.id),
  });

  app.get('/companies/changes', {
    schema: {
      operationId: 'companies.changes',
      tags: ['agent'],
      summary: 'Change feed: companies created, updated or removed since a cursor',
      description:
        'Mirrors the directory: read from the start (no since), keep next_cursor, and read again with since=next_cursor (at once while has_more, later to catch up). ' +
        'Changes come oldest first; each company appears once per page with its current profile, or as a removed tombstone. ' +
        'The cursor never skips a change, even when writes commit out of order: a change becomes visible only once every older transaction has finished. ' +
        'A malformed cursor is 422.',
      querystring: ChangesQuerySchema,
      response: { 200: Type.Ref('ChangesResponse'), ...errorResponses },
    },
  }, async (req) => {
    const page = await companies.changes(req.query.since || undefined, req.query.limit ?? 100);
    // Each profile with its rating, as a lookup has it (a published or hidden review is a change of the company).
    const changes = page.changes as CompanyChange[];
    const ratings = await ratingsOf(changes.flatMap((c) => (c.company ? [c.id] : [])));
    return { ...page, changes: changes.map((c) => (c.company ? { ...c, company: { ...c.company, rating: ratings.get(c.id) } } : c)) };
  });

  app.get('/companies/:company_id', {
    schema: {
      operationId: 'companies.get',
      tags: ['agent'],
      summary: 'Full company profile by id',
      description: 'Everything the directory knows about a company, as plain text. A malformed id is 422; an unknown one 404.',
      params: CompanyIdParams,
      response: { 200: Type.Ref('CompanyProfile'), 404: err, ...errorResponses },
    },
  }, async (req) => withReadiness(await companies.getProfile(req.params.company_id)));

  const byUrlSchema = {
    operationId: 'companies.getByWebsite',
    tags: ['agent'],
    summary: 'Company profile by website',
    description: 'Accepts a URL or bare domain (acme.com, https://www.Acme.com/about/, URL-encoded or not); scheme, www., case, path and trailing slash are ignored.',
    params: WebsiteParams,
    response: { 200: Type.Ref('CompanyProfile'), 404: err, ...errorResponses },
  };
  app.get('/companies/by-url/:website_url', { schema: byUrlSchema }, async (req) => withReadiness(await companies.getProfileByWebsite(req.params.website_url)));
  // The same lookup when the URL is sent unencoded (its slashes split it into segments).
  app.get('/companies/by-url/*', {
    schema: { hide: true, params: Type.Object({ '*': Type.String({ maxLength: 2048 }) }), response: byUrlSchema.response },
  }, async (req) => withReadiness(await companies.getProfileByWebsite(req.params['*'])));

  app.get('/categories', {
    schema: {
      operationId: 'categories.list',
      tags: ['agent'],
      summary: 'The 25 directory categories',
      response: { 200: Type.Ref('CategoriesResponse'), ...errorResponses },
    },
  }, async () => companies.categories());
}

export { CategoriesResponseSchema };
