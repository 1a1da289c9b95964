import { offsetParam } from '../../platform/http.js';
import { Type, type Static } from 'typebox';
import { ServiceTypeSchema } from '../companies/companies.schemas.js';

export const SearchQuerySchema = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 2000, description: 'What the customer needs, in any words. Optional: without it the filtered directory is listed (featured, then verified, then by name).' })),
  category: Type.Optional(Type.String({ maxLength: 100, description: 'One of GET /categories (case-insensitive)' })),
  country: Type.Optional(Type.String({ maxLength: 100, description: 'Country name or ISO code (e.g. Germany, DE, DEU)' })),
  city: Type.Optional(Type.String({ maxLength: 100, description: 'City name (case-insensitive)' })),
  industry: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the industry label (case-insensitive)' })),
  service_type: Type.Optional(ServiceTypeSchema),
  is_verified: Type.Optional(Type.Boolean({ description: 'true returns verified companies only (those that accept proposals)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
  offset: offsetParam(),
});
export type SearchQuery = Static<typeof SearchQuerySchema>;

export const SearchResponseSchema = Type.Object(
  {
    companies: Type.Array(Type.Ref('CompanySummary')),
    total_found: Type.Integer({ description: 'Companies that matched. For text queries this counts the fused candidates (at most 200 keyword + 100 semantic + 20 name matches), not every company that shares a word' }),
    offset: Type.Integer(),
    limit: Type.Integer(),
    has_more: Type.Boolean(),
    query: Type.String({ description: 'The q that was searched ("" when browsing)' }),
  },
  { $id: 'SearchResponse' },
);
