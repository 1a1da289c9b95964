import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, useTestApp } from '../../../test/helpers/index.js';

interface Hit {
  id: string;
  name: string;
  distance_km?: number | null;
  relevance?: string | null;
}

describe('search near a place: near, radius_km, include_remote, sort, places named in q, updated_since', () => {
  const t = useTestApp();
  const id: Record<string, string> = {};
  const dental = { category: 'Healthcare', industry: 'Dental practice', description: 'Dentist: check-ups, fillings, implants and emergency dental care.', keywords: ['dentist', 'dental care'] };

  const search = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?${query}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { companies: Hit[]; place?: { name: string; source: string; matches_in_place: number }; total_found: number };
  };
  const names = (hits: Hit[]) => hits.map((h) => h.name);

  before(async () => {
    const fixtures = {
      munichDentist: companyFixture({ ...dental, name: 'Isar Dental Munich', city: 'Munich', country: 'Germany', service_type: 'local' }),
      augsburgDentist: companyFixture({ ...dental, name: 'Augsburg Zahnarztpraxis', city: 'Augsburg', country: 'Germany', service_type: 'local' }),
      sanDiegoDentist: companyFixture({ ...dental, name: 'Pacific Smiles Dental', city: 'San Diego', country: 'US', service_type: 'local' }),
      remoteDental: companyFixture({ ...dental, name: 'TeleDent Online Consults', city: 'Paris', country: 'France', service_type: 'remote', description: 'Online dentist consultations by video.' }),
      germanChain: companyFixture({ ...dental, name: 'Zahnkette Deutschland', city: 'Hamburg', country: 'Germany', service_type: 'nationwide' }),
      frenchChain: companyFixture({ ...dental, name: 'Chaine Dentaire France', city: 'Lyon', country: 'France', service_type: 'nationwide' }),
      munichTax: companyFixture({ name: 'Steuerberatung Isar', category: 'Finance', industry: 'Tax advice', description: 'Tax returns and bookkeeping for Munich businesses.', keywords: ['tax adviser'], city: 'Munich', country: 'Germany', service_type: 'local' }),
      leedsPlumber: companyFixture({ name: 'Aire Valley Plumbing', category: 'Construction & Home Services', industry: 'Plumbing', description: 'Plumber for leaks, boilers and bathrooms.', keywords: ['plumber'], city: 'Leeds', country: 'United Kingdom', service_type: 'local' }),
      nowhere: companyFixture({ ...dental, name: 'Dental Somewhere', city: 'Qwxzville', country: 'Germany', service_type: 'local' }),
    };
    const ids = await seedCompanies(t.app, Object.values(fixtures));
    Object.keys(fixtures).forEach((k, i) => (id[k] = ids[i]!));
  });

  it('near keeps local companies within the radius, plus remote ones and nationwide ones of that country, with distance_km', async () => {
    const body = await search('q=dentist&near=Munich&limit=20');
    assert.equal(body.place?.source, 'near');
    assert.deepEqual(new Set(names(body.companies)), new Set(['Isar Dental Munich', 'TeleDent Online Consults', 'Zahnkette Deutschland', 'Steuerberatung Isar'].filter((n) => names(body.companies).includes(n))));
    for (const n of ['Isar Dental Munich', 'TeleDent Online Consults', 'Zahnkette Deutschland']) assert.ok(names(body.companies).includes(n), `${n} is kept`);
    for (const n of ['Pacific Smiles Dental', 'Augsburg Zahnarztpraxis', 'Chaine Dentaire France', 'Dental Somewhere']) assert.ok(!names(body.companies).includes(n), `${n} is left out`);
    assert.equal(body.companies[0]!.name, 'Isar Dental Munich');
    assert.equal(body.companies.find((c) => c.name === 'Isar Dental Munich')!.distance_km, 0);
    // A wider radius reaches Augsburg (about 55 km); include_remote=false keeps only located companies.
    assert.ok(names((await search('q=dentist&near=Munich&radius_km=80&limit=20')).companies).includes('Augsburg Zahnarztpraxis'));
    const located = await search('q=dentist&near=Munich&radius_km=80&include_remote=false&limit=20');
    assert.deepEqual(new Set(names(located.companies).filter((n) => /Dent|Zahn/.test(n))), new Set(['Isar Dental Munich', 'Augsburg Zahnarztpraxis']));
  });

  it('sorts by distance (unknown places last), and accepts coordinates', async () => {
    const body = await search(`near=${encodeURIComponent('48.37,10.89')}&radius_km=20000&sort=distance&limit=20`);
    const d = body.companies.map((c) => c.distance_km ?? Infinity);
    assert.deepEqual(d, [...d].sort((a, b) => a - b));
    assert.equal(body.companies[0]!.name, 'Augsburg Zahnarztpraxis');
    // A local company whose city is unknown cannot be within any radius.
    assert.ok(!names(body.companies).includes('Dental Somewhere'));
    const text = await search('q=dentist&near=Augsburg&radius_km=20000&sort=distance&limit=20');
    assert.equal(text.companies[0]!.name, 'Augsburg Zahnarztpraxis');
    assert.equal(text.companies[1]!.name, 'Isar Dental Munich');
  });

  it('ranks a place named in q: the dentist there first, then dentists serving it, without filtering the others out', async () => {
    const body = await search(`q=${encodeURIComponent('I need a dentist in Munich')}&limit=20`);
    assert.equal(body.place?.source, 'q');
    assert.equal(body.place?.name, 'Munich');
    const order = names(body.companies);
    assert.equal(order[0], 'Isar Dental Munich');
    // A company there that matches only the place is no match (issue 37): left out, and weak when asked for.
    assert.ok(!order.includes('Steuerberatung Isar'), order.join(' > '));
    assert.equal(body.companies[0]!.relevance, 'strong');
    const all = await search(`q=${encodeURIComponent('I need a dentist in Munich')}&limit=20&include_weak=true`);
    const tax = all.companies.find((c) => c.name === 'Steuerberatung Isar');
    assert.equal(tax?.relevance, 'weak');
    for (const n of ['TeleDent Online Consults', 'Zahnkette Deutschland']) assert.ok(names(all.companies).indexOf(n) < names(all.companies).indexOf('Steuerberatung Isar'));
    assert.ok(all.total_found > body.total_found);
    // Not a filter: the dentist in San Diego is still listed.
    assert.ok(order.includes('Pacific Smiles Dental'));
    // A word that is also a city, written in lower case, is not read as a place.
    assert.equal((await search(`q=${encodeURIComponent('help in time for a dental emergency')}`)).place, undefined);
  });

  it('reads a city written last without a place word ("dentist Munich", "dentist munich") as the place, never a common word or the whole query', async () => {
    for (const q of ['dentist Munich', 'dentist munich', 'Zahnarzt München']) {
      const body = await search(`q=${encodeURIComponent(q)}&limit=20`);
      assert.equal(body.place?.name, 'Munich', q);
      if (!q.startsWith('Zahnarzt')) assert.equal(names(body.companies)[0], 'Isar Dental Munich', q);
      assert.ok(!names(body.companies).includes('Steuerberatung Isar'), `${q}: the place alone is no match`);
    }
    for (const q of ['Munich', 'dental care reading', 'dentist open in the evening, Munich.']) assert.equal((await search(`q=${encodeURIComponent(q)}`)).place, undefined, q);
  });

  it('understands a country or nation named in q like a city (issue 37): its companies first, remote ones next, no distance', async () => {
    const body = await search(`q=${encodeURIComponent('a dentist in Germany')}&limit=20`);
    assert.deepEqual([body.place?.name, body.place?.source, (body.place as { scope?: string } | undefined)?.scope], ['Germany', 'q', 'country']);
    const order = names(body.companies);
    const german = ['Isar Dental Munich', 'Augsburg Zahnarztpraxis', 'Zahnkette Deutschland'];
    for (const n of german) assert.ok(order.indexOf(n) >= 0 && order.indexOf(n) < order.indexOf('Pacific Smiles Dental'), order.join(' > '));
    assert.ok(body.companies.every((c) => c.distance_km === null));
    assert.ok(!order.includes('Steuerberatung Isar'), 'need first: a German tax adviser is no dentist');
    const scotland = await search(`q=${encodeURIComponent('plumber anywhere in Scotland')}`);
    assert.equal((scotland.place as { country_code?: string } | undefined)?.country_code, 'GB');
    assert.equal(scotland.companies[0]!.name, 'Aire Valley Plumbing');
    // Not a country: "IT" is a word here, and a lower-case code is never read as one.
    assert.equal((await search(`q=${encodeURIComponent('help in IT support')}`)).place, undefined);
    const near = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=dentist&near=Germany' });
    assert.equal(near.statusCode, 422);
    assert.match(near.json().detail[0].msg, /is a country: filter with country=DE/);
    const ask = (await t.app.inject({ method: 'POST', url: `/api/v1/agent/ask?question=${encodeURIComponent('I need a dentist in Germany')}` })).json();
    assert.equal(ask.found, true);
    assert.match(ask.answer, /in or for Germany, best first:\n1\. (Isar Dental Munich|Augsburg Zahnarztpraxis|Zahnkette Deutschland) \(/);
  });

  it('ask says plainly when nothing fits in the named place and offers the nearest matches', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/agent/ask?question=${encodeURIComponent('I need a plumber in Munich')}` });
    assert.equal(res.statusCode, 200, res.body);
    const { answer } = res.json();
    assert.match(answer, /Nothing in the directory fits "I need a plumber in Munich" in Munich/);
    assert.match(answer, /Aire Valley Plumbing/);
    assert.match(answer, /km from Munich/);
  });

  it('updated_since keeps companies changed at or after the instant', async () => {
    await t.db.query("UPDATE companies SET updated_at = '2020-01-01T00:00:00Z' WHERE id <> $1", [id.munichTax]);
    const body = await search(`updated_since=${encodeURIComponent('2024-01-01T00:00:00Z')}&limit=20`);
    assert.deepEqual(names(body.companies), ['Steuerberatung Isar']);
    assert.equal((await search('updated_since=2019-12-31T00:00:00Z&limit=20')).total_found, 9);
  });

  it('refuses an unknown place, a radius without a place, distance sorting without a place and bad values with a 422 naming the field', async () => {
    for (const [query, field] of [
      ['near=Qwxzville', 'near'],
      ['near=Munich,%20Atlantis', 'near'],
      ['near=91,10', 'near'],
      ['q=dentist&radius_km=10', 'radius_km'],
      ['q=dentist&sort=distance', 'sort'],
      ['near=Munich&radius_km=0', 'radius_km'],
      ['near=Munich&sort=closest', 'sort'],
      ['updated_since=yesterday', 'updated_since'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?${query}` });
      assert.equal(res.statusCode, 422, `${query}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc, ['query', field], query);
    }
  });
});
