import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actors, companyFixture, seedCompanies, useTestApp } from '../../../test/helpers/index.js';

/** The administrators' company list decodes its keyset cursor before any value reaches the database (issue 35 A2). */
describe('administrators\' company list cursor', () => {
  const t = useTestApp();
  const as = actors(t);

  it('refuses a cursor PostgreSQL could not read with a 422 on cursor, and follows a real one', async () => {
    const admin = (await as.admin()).headers;
    await seedCompanies(t.app, [companyFixture(), companyFixture(), companyFixture()]);
    const list = (cursor: string) => t.app.inject({ method: 'GET', url: `/api/tools/admin/companies?limit=2&cursor=${cursor}`, headers: admin });
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const uuid = '00000000-0000-4000-8000-000000000000';
    for (const value of [
      ['2020-13-45 99:99:99+00', uuid],
      ['0000-01-01 00:00:00+00', uuid],
      ['2020-02-30 00:00:00+00', uuid],
      [`2020-01-01 00:00:00.${'1'.repeat(200)}+00`, uuid],
      ['2020-01-01 00:00:00+00', '------------------------------------'],
      ['2020-01-01 00:00:00+00', 'g0000000-0000-4000-8000-000000000000'],
    ]) {
      const res = await list(encode(value));
      assert.equal(res.statusCode, 422, `${JSON.stringify(value)}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc, ['query', 'cursor']);
    }
    const first = await t.app.inject({ method: 'GET', url: '/api/tools/admin/companies?limit=2', headers: admin });
    const next = first.json().next_cursor as string;
    assert.ok(next);
    const second = await list(next);
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(second.json().companies.length, 1);
  });
});
