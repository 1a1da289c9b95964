import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importJsonl } from '../../../scripts/ops/import.js';
import { useTestApp } from '../../../test/helpers/index.js';

const good = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    key: `c${n}`,
    name: `Import Test ${n}`,
    website_url: `https://www.import-test-${n}.example.com/`,
    category: 'Technology',
    industry: 'Software',
    description: `Company number ${n} builds software.`,
    location: { country: 'Germany', city: 'Berlin', address: 'Street 1' },
    service_type: 'remote',
    is_verified: true,
    keywords: ['software'],
    ...extra,
  });

describe('npm run import (importJsonl)', () => {
  const t = useTestApp();

  it('reports bad lines by number, imports the rest, and a second run changes nothing', async () => {
    const text = [
      good(1),
      '{not json',
      good(2, { category: 'Underwater Basket Weaving' }),
      '',
      good(3, { service_type: 'teleport' }),
      JSON.stringify({ name: 'No website', category: 'Technology' }),
      good(4, { keywords: 'not-a-list' }),
      good(5),
      good(1, { name: 'Duplicate of line 1' }),
    ].join('\n');
    const log: string[] = [];
    const first = await importJsonl(text, t.app.services.companies, (l) => log.push(l));
    assert.equal(first.created, 2);
    assert.deepEqual(first.errors.map((e) => e.line), [2, 3, 5, 6, 7, 9]);
    assert.match(first.errors.find((e) => e.line === 3)!.message, /category/);
    assert.match(first.errors.find((e) => e.line === 6)!.message, /website_url/);
    assert.ok(log.some((l) => l.startsWith('line 2:')));
    assert.ok(log.some((l) => l.startsWith('progress: 2/2')));

    const second = await importJsonl(text, t.app.services.companies);
    assert.deepEqual({ created: second.created, updated: second.updated, unchanged: second.unchanged }, { created: 0, updated: 0, unchanged: 2 });

    const changed = await importJsonl(good(5, { description: 'Now it builds hardware.' }), t.app.services.companies);
    assert.deepEqual({ created: changed.created, updated: changed.updated, unchanged: changed.unchanged }, { created: 0, updated: 1, unchanged: 0 });

    const res = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/by-url/import-test-5.example.com' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().description, 'Now it builds hardware.');
  });
});
