import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { bearer, companyFixture, seedCompanies, signInAdmin, signInOwner, useTestApp } from '../../../test/helpers/index.js';

describe('freshness (issue 39): per section, where the values came from and when they were last confirmed', () => {
  const t = useTestApp();
  let company: string;
  let owner: string;
  let admin: string;

  before(async () => {
    [company] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Fresh Florist', website_url: 'https://fresh-florist.example', description: 'Bouquets and wedding flowers.', phone: '+49 30 5550100', city: 'Berlin', country: 'Germany' }),
    ])) as [string];
    owner = (await signInOwner(t, 'owner@fresh-florist.example', 'https://fresh-florist.example')).token;
    admin = await signInAdmin(t);
  });

  const freshness = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${company}` })).json().freshness;

  it('imported data reads as its import when the row was created; sections without a value are null', async () => {
    const f = await freshness();
    const row = (await t.db.query<{ source: string; created_at: Date }>('SELECT source, created_at FROM companies WHERE id = $1', [company]))[0]!;
    assert.deepEqual(f.contact, { source: row.source, last_confirmed_at: new Date(row.created_at).toISOString() });
    assert.equal(f.hours, null);
    assert.equal(f.prices, null);
    assert.equal(f.photos, null);
  });

  it('an owner\'s edit makes the section theirs as of now; an administrator\'s edit says admin; other sections keep theirs', async () => {
    const before = await freshness();
    const edited = await t.app.inject({ method: 'PUT', url: `/api/tools/${company}`, headers: bearer(owner), payload: { opening_hours: { monday: [['09:00', '17:00']] }, phone: '+49 30 5550199' } });
    assert.equal(edited.statusCode, 200, edited.body);
    const after = await freshness();
    assert.equal(after.hours.source, 'owner');
    assert.equal(after.contact.source, 'owner');
    assert.ok(Date.now() - Date.parse(after.hours.last_confirmed_at) < 60_000);
    assert.deepEqual(after.profile, before.profile, 'the description was not touched');
    const byAdmin = await t.app.inject({ method: 'PUT', url: `/api/tools/${company}`, headers: bearer(admin), payload: { price_range: { from: 40, currency: 'EUR', unit: 'job' } } });
    assert.equal(byAdmin.statusCode, 200, byAdmin.body);
    assert.equal((await freshness()).prices.source, 'admin');
  });

  it('a save that changes nothing confirms nothing, and a refused edit stamps nothing', async () => {
    const before = await freshness();
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/tools/${company}`, headers: bearer(owner), payload: { opening_hours: { monday: [['09:00', '17:00']] } } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/tools/${company}`, headers: bearer(owner), payload: { opening_hours: { monday: [['9am', '5pm']] } } })).statusCode, 422);
    assert.deepEqual(await freshness(), before);
  });
});
