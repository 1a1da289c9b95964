import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeLocality, townOfRegion } from './locality.js';

describe('judgeLocality: what a structured address names as its town (issue 40)', () => {
  it('keeps a town the gazetteer knows', () => {
    assert.deepEqual(judgeLocality('Erie', 'PA', 'US'), { kind: 'town', city: 'Erie' });
  });

  it('reads a neighbourhood as the bigger city its region names', () => {
    assert.deepEqual(judgeLocality('Koregaon Parkxyz', 'Pune', 'IN'), { kind: 'neighbourhood', city: 'Pune' });
  });

  it('keeps a town whose region is a state, however big the state’s namesake city', () => {
    assert.equal(judgeLocality('Albany', 'New York', 'US').kind, 'town');
  });

  it('leaves the town empty when the locality is only a region, but keeps a town named like a state', () => {
    assert.deepEqual(judgeLocality('California', '', 'US'), { kind: 'region', city: '' });
    assert.deepEqual(judgeLocality('Ontario', 'Ontario', 'CA'), { kind: 'region', city: '' });
    assert.equal(judgeLocality('California', 'MD', 'US').city, 'California');
  });

  it('says when the gazetteer does not know the town', () => {
    assert.equal(judgeLocality('Qwertzhausen', '', 'DE').kind, 'unknown');
  });
});

describe('townOfRegion: a structured address with a region and no locality (session 14)', () => {
  it('reads a region that is a big city of the country as the town', () => {
    assert.equal(townOfRegion('Porto', 'PT'), 'Porto');
    assert.equal(townOfRegion('Madrid', 'ES'), 'Madrid');
  });

  it('reads no town from a state, a province code, a country or a small namesake', () => {
    assert.equal(townOfRegion('California', 'US'), '');
    assert.equal(townOfRegion('ON', 'CA'), '');
    assert.equal(townOfRegion('Portugal', 'PT'), '');
    assert.equal(townOfRegion('Erie', 'US'), '');
  });
});
