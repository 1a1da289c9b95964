import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countryCode, registeredCountry } from './countries.js';

describe('countries', () => {
  it('reads a country from its name or code', () => {
    assert.equal(countryCode('Germany'), 'DE');
    assert.equal(countryCode('gb'), 'GB');
    assert.equal(countryCode('Atlantis'), undefined);
  });

  it('reads the jurisdiction of a registration statement (fresh set G)', () => {
    assert.equal(registeredCountry('Operated by TOPICSEED LIMITED, a company registered in England & Wales (Company No. 11746352)'), 'GB');
    assert.equal(registeredCountry('Reg. Charity No: 279228 (England and Wales) and SC049495 (Scotland)'), 'GB');
    assert.equal(registeredCountry('Registered in Ireland No. 123456'), 'IE');
    assert.equal(registeredCountry('KvK 12345678'), 'NL');
    assert.equal(registeredCountry('ABN 12 345 678 901'), 'AU');
    // a town or a word alone is no registration
    assert.equal(registeredCountry('Our shop in England sells tea'), undefined);
    assert.equal(registeredCountry('Registered users sign in here'), undefined);
  });
});
