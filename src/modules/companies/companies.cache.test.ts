import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, testEmbeddings, useTestApp } from '../../../test/helpers/index.js';
import { createCacheGeneration } from '../../platform/cache-generation.js';
import { createCompaniesService } from './companies.service.js';

// Issue 41: search result rows are kept within a memory budget; a page whose rows do not all fit is still whole.
describe('company rows kept within a memory budget', () => {
  const t = useTestApp();
  let ids: string[] = [];
  before(async () => {
    ids = await seedCompanies(t.app, Array.from({ length: 12 }, (_, i) => companyFixture({ name: `Budget Row ${i}`, website_url: `https://budget-row-${i}.example` })));
  });

  it('returns every requested row, in order, while keeping only what fits', async () => {
    const cache = await createCacheGeneration(t.db);
    // About three rows' worth: reading twelve pushes most of them out again while the page is assembled.
    const companies = createCompaniesService({ db: t.db, embeddings: testEmbeddings(), baseUrl: 'http://x', audit: async () => {}, cache, cacheBytes: 2 * 3 * 3_000 });
    for (const order of [ids, [...ids].reverse(), [ids[3]!, ids[3]!, ids[7]!]]) {
      const rows = await companies.readManyByIds(order);
      assert.deepEqual(rows.map((r) => r.id), order);
    }
  });
});
