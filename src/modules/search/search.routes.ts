import { Type } from 'typebox';
import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/http.js';
import { SearchQuerySchema } from './search.schemas.js';
import type { SearchService } from './search.service.js';

export interface SearchRoutesOptions {
  search: SearchService;
}

/** Agent API: hybrid company search (base /api/v1/agent). */
export async function searchRoutes(app: App, { search }: SearchRoutesOptions): Promise<void> {
  app.get('/companies', {
    schema: {
      operationId: 'companies.search',
      tags: ['agent'],
      summary: 'Search companies (hybrid semantic + keyword)',
      description:
        'Finds companies by meaning and by words at once and ranks them by match_score; match_sources says which side matched. ' +
        'Filters narrow the result (case-insensitive; country accepts names and ISO codes). Without q, lists the filtered directory: featured first, then verified, then by name.',
      querystring: SearchQuerySchema,
      response: { 200: Type.Ref('SearchResponse'), ...errorResponses },
    },
  }, async (req) => search.search(req.query));
}
