import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { closestOption } from '../../lib/closest.js';
import { companyFixture, seedCompanies, useTestApp } from '../../../test/helpers/index.js';
import { relevanceOf, withRelativeCut } from './relevance.js';

describe('relevance verdicts (issue 37)', () => {
  it('judges the evidence itself, not the rank', () => {
    const base = { typical: 0.2, best: 0.7 };
    assert.equal(relevanceOf({ cosine: 0.69, keyword: 0, name: 0 }, base), 'strong', 'the closest profile, far above a typical one');
    assert.equal(relevanceOf({ cosine: 0.5, keyword: 0.4, name: 0 }, base), 'strong', 'covers most of the words');
    assert.equal(relevanceOf({ cosine: null, keyword: 0, name: 0.9 }, base), 'strong', 'the name that was typed');
    assert.equal(relevanceOf({ cosine: 0.45, keyword: 0, name: 0 }, base), 'partial');
    assert.equal(relevanceOf({ cosine: 0.3, keyword: 0, name: 0 }, base), 'weak');
    assert.equal(relevanceOf({ cosine: 0.5, keyword: 0, name: 0 }, { typical: 0.45, best: 0.5 }), 'weak', 'the best of a query nobody serves, no closer than a typical profile');
    const unserved = { ...base, headUnmatched: true };
    assert.equal(relevanceOf({ cosine: 0.69, keyword: 0.1, name: 0 }, unserved), 'weak', 'meaning alone is no match when no profile uses the need\'s first word');
    assert.equal(relevanceOf({ cosine: 0.3, keyword: 0.5, name: 0 }, unserved), 'strong', 'the rest of the words, covered well, still are');
  });

  it('a partial result far below the best is filler: weak, by a share of the best score (stricter beside a strong match)', () => {
    const verdicts = (list: { score: number; relevance: 'strong' | 'partial' | 'weak' }[]) => withRelativeCut(list).map((r) => r.relevance);
    assert.deepEqual(verdicts([{ score: 1, relevance: 'partial' }, { score: 0.72, relevance: 'partial' }, { score: 0.6, relevance: 'partial' }]), ['partial', 'partial', 'weak']);
    assert.deepEqual(verdicts([{ score: 1, relevance: 'strong' }, { score: 0.76, relevance: 'partial' }, { score: 0.72, relevance: 'partial' }]), ['strong', 'partial', 'weak']);
    assert.deepEqual(verdicts([{ score: 1, relevance: 'weak' }, { score: 0.5, relevance: 'partial' }]), ['weak', 'partial'], 'the best is taken among shown results');
    assert.deepEqual(verdicts([{ score: 0.2, relevance: 'strong' }, { score: 0.1, relevance: 'strong' }]), ['strong', 'strong'], 'strong stays strong');
  });

  it('finds what a mistyped or shortened value meant', () => {
    assert.equal(closestOption('Energy', ['Legal', 'Energy & Utilities']), 'Energy & Utilities');
    assert.equal(closestOption('Germny', ['France', 'Germany']), 'Germany');
    assert.equal(closestOption('zzzz', ['France', 'Germany']), undefined);
  });

  describe('on a directory', () => {
    const t = useTestApp();
    const ids: Record<string, string> = {};
    before(async () => {
      const fixtures = [
        companyFixture({ name: 'Bayou Pest Control', category: 'Construction & Home Services', industry: 'Pest control', description: 'Pest control for homes and restaurants in Houston: cockroaches, rodents, termites and bed bugs, with discreet commercial kitchen treatments.', country: 'United States', city: 'Houston', address: '100 Main St, Houston, TX', service_type: 'local', keywords: ['pest control', 'cockroach extermination', 'restaurant pest control'] }),
        companyFixture({ name: 'Golden Dumpling House', category: 'Food & Beverage', industry: 'Restaurant', description: 'A family restaurant in Melbourne serving handmade dumplings and noodles, with takeaway and catering.', country: 'Australia', city: 'Melbourne', address: '5 Little Bourke St, Melbourne', service_type: 'local', keywords: ['dumplings', 'restaurant', 'catering'] }),
        companyFixture({ name: 'Steuerkanzlei Isar', category: 'Finance', industry: 'Tax advisory', description: 'Tax advisers in Munich for freelancers and small companies: annual accounts, VAT returns and payroll.', country: 'Germany', city: 'Munich', address: 'Leopoldstrasse 1, Munich', service_type: 'local', keywords: ['tax adviser', 'Steuerberater', 'VAT'] }),
        companyFixture({ name: 'Nordlicht VFX', category: 'Media & Entertainment', industry: 'Visual effects', description: 'Visual effects and 3D animation studio in Munich for films and commercials.', country: 'Germany', city: 'Munich', address: 'Bavariafilmplatz 7, Munich', service_type: 'hybrid', keywords: ['vfx', 'animation'] }),
      ];
      const seeded = await seedCompanies(t.app, fixtures);
      ['pest', 'dumpling', 'tax', 'vfx'].forEach((k, i) => (ids[k] = seeded[i]!));
    });
    const get = async (query: string) => t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?${query}` });
    const ask = async (question: string) => (await t.app.inject({ method: 'POST', url: `/api/v1/agent/ask?question=${encodeURIComponent(question)}` })).json();

    it('ask agrees with its results: the match first in the answer and in companies, found true', async () => {
      const body = await ask('cockroaches in my restaurant kitchen in Houston');
      assert.equal(body.found, true);
      assert.equal(body.companies[0].id, ids.pest);
      assert.equal(body.companies[0].relevance, 'strong');
      assert.match(body.answer, /^Companies in the directory that match .* Houston, best first:\n1\. Bayou Pest Control/);
      assert.doesNotMatch(body.answer, /Nothing in the directory fits/);
      assert.doesNotMatch(body.answer, /Golden Dumpling House/, 'a restaurant is not a pest controller');
    });

    it('a need nobody serves: ask says so plainly with found false, and no result is called strong', async () => {
      const body = await ask('hot air balloon ride at sunrise');
      assert.equal(body.found, false);
      assert.match(body.answer, /^Nothing in the directory fits "hot air balloon ride at sunrise"\./);
      assert.ok(body.companies.every((c: { relevance: string }) => c.relevance !== 'strong'));
      const search = (await get(`q=${encodeURIComponent('hot air balloon ride at sunrise')}`)).json();
      assert.ok(search.companies.every((c: { relevance: string }) => c.relevance === 'partial'));
      assert.equal(search.total_found, search.companies.length);
    });

    it('a short need whose first word no profile uses: nothing shown, the word named, ask says so', async () => {
      const q = encodeURIComponent('calligraphy for our restaurant kitchen');
      const shown = (await get(`q=${q}`)).json();
      assert.deepEqual(shown.companies, []);
      assert.equal(shown.total_found, 0);
      assert.deepEqual(shown.unmatched_words, ['calligraphy']);
      const all = (await get(`q=${q}&include_weak=true`)).json();
      assert.ok(all.companies.length >= 1, 'the closest profiles stay available on request');
      assert.ok(all.companies.every((c: { relevance: string }) => c.relevance === 'weak'));
      const answer = await ask('calligraphy for our restaurant kitchen');
      assert.equal(answer.found, false);
      assert.match(answer.answer, /No profile in the directory mentions "calligraphy"\./);
    });

    it('a misspelt word is read as the word the directory uses', async () => {
      const body = (await get(`q=${encodeURIComponent('cockroche extermination')}`)).json();
      assert.equal(body.unmatched_words, undefined, 'the misspelling was repaired');
      assert.equal(body.companies[0]?.id, ids.pest);
      assert.equal(body.companies[0]?.relevance, 'strong');
      assert.ok(body.companies[0].match_sources.includes('keyword'));
    });

    it('a common English word the directory does not use is not read as a misspelling of one it does', async () => {
      // "firms" is one letter from the stem of "films" (the VFX studio's): it is a word, not a typo.
      const body = (await get(`q=${encodeURIComponent('animation firms')}`)).json();
      assert.deepEqual(body.unmatched_words, ['firms']);
      assert.equal(body.companies[0]?.id, ids.vfx, 'still found by the words it does use');
    });

    it('filler is not a match: a tax adviser and a VFX studio in Munich are weak for a dentist there', async () => {
      const shown = (await get(`q=${encodeURIComponent('dentist in Munich')}`)).json();
      assert.deepEqual(shown.companies, []);
      assert.equal(shown.total_found, 0);
      assert.equal(shown.has_more, false);
      const all = (await get(`q=${encodeURIComponent('dentist in Munich')}&include_weak=true`)).json();
      assert.ok(all.companies.length >= 2);
      assert.ok(all.companies.every((c: { relevance: string }) => c.relevance === 'weak'));
      const ask2 = await ask('dentist in Munich');
      assert.equal(ask2.found, false);
    });

    it('browsing without q carries no verdict', async () => {
      const body = (await get('country=DE')).json();
      assert.ok(body.companies.length >= 2);
      assert.ok(body.companies.every((c: { relevance: unknown }) => c.relevance === null));
    });

    it('no silent empties: an unknown category or country is a 422 naming the closest value', async () => {
      const cat = await get('category=Energy');
      assert.equal(cat.statusCode, 422);
      assert.deepEqual(cat.json().detail[0].loc, ['query', 'category']);
      assert.match(cat.json().detail[0].msg, /did you mean "Energy & Utilities"\?/);
      const country = await get('country=Germny');
      assert.equal(country.statusCode, 422);
      assert.match(country.json().detail[0].msg, /did you mean "Germany"\?/);
      assert.equal((await get('country=Atlantis')).statusCode, 422);
      assert.equal((await get('category=energy%20%26%20utilities')).statusCode, 200, 'case-insensitive as before');
    });
  });
});
