import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as cheerio from 'cheerio';
import { addressOfText, jsonLdOrgs, microdataAddress, splitPostcode } from './extract-jsonld.js';

describe('addressOfText: a structured address written as one string (session 14)', () => {
  it('reads the town, region and country by the shape of its lines', () => {
    assert.deepEqual(addressOfText('Nashville, TN\nUSA'), { street: '', city: 'Nashville', region: 'TN', postalCode: '', country: 'United States' });
    assert.deepEqual(addressOfText('12 Main St, Springfield, IL 62701'), { street: '12 Main St', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'United States' });
  });

  it('keeps a text it cannot read as the street, and nothing for an empty one', () => {
    assert.deepEqual(addressOfText('Somewhere by the sea'), { street: 'Somewhere by the sea', city: '', region: '', postalCode: '', country: '' });
    assert.equal(addressOfText('  '), undefined);
  });

  it('is how an organisation’s string address is read', () => {
    const $ = cheerio.load('<script type="application/ld+json">{"@type":"LocalBusiness","name":"Tastify","address":"Nashville, TN\\nUSA"}</script>');
    assert.equal(jsonLdOrgs($)[0]?.address?.city, 'Nashville');
  });
});

describe('jsonLdOrgs: an organisation that lists its branches instead of an address (session 14)', () => {
  const page = (org: object) => cheerio.load(`<script type="application/ld+json">${JSON.stringify(org)}</script>`);
  const branch = (city: string) => ({ '@type': 'LocalBusiness', name: `School | ${city}`, address: { '@type': 'PostalAddress', streetAddress: '1 Main St', addressLocality: city, addressRegion: 'KS', postalCode: '66085' } });

  it('takes the first branch’s address and says how many branches there are', () => {
    const $ = page({ '@type': 'Organization', name: 'School', subOrganization: [branch('Overland Park'), branch('Lenexa'), branch('Prairie Village')] });
    const a = jsonLdOrgs($)[0]?.address;
    assert.equal(a?.city, 'Overland Park');
    assert.equal(a?.branches, 3);
  });

  it('keeps the organisation’s own address before its branches', () => {
    const $ = page({ '@type': 'Organization', name: 'School', address: { '@type': 'PostalAddress', addressLocality: 'Olathe' }, department: [branch('Lenexa')] });
    assert.deepEqual([jsonLdOrgs($)[0]?.address?.city, jsonLdOrgs($)[0]?.address?.branches], ['Olathe', undefined]);
  });
});

describe('splitPostcode: a structured locality written with its postcode (session 14)', () => {
  const a = (city: string, postalCode = '') => ({ street: '', city, region: '', postalCode, country: '' });

  it('keeps the town alone and the code as the postcode', () => {
    assert.deepEqual(splitPostcode(a('8606 Nänikon')), a('Nänikon', '8606'));
    assert.deepEqual(splitPostcode(a('D-40764 Langenfeld', '40764')), a('Langenfeld', '40764'));
  });

  it('leaves a town without a code, or a number that is part of the name', () => {
    assert.deepEqual(splitPostcode(a('Erie')), a('Erie'));
    assert.deepEqual(splitPostcode(a('29 Palms')), a('29 Palms'));
  });

  it('is how a microdata address is read', () => {
    const $ = cheerio.load('<div itemscope itemtype="http://schema.org/PostalAddress"><span itemprop="addressLocality">8606 Nänikon</span></div>');
    assert.equal(microdataAddress($)?.city, 'Nänikon');
  });
});

describe('structured addresses: session 15 city rules (issue 40)', () => {
  it('reads a locality that carries the state and ZIP with the street before it (a town broken between the two)', () => {
    const $ = cheerio.load('<div itemscope itemtype="http://schema.org/PostalAddress"><span itemprop="streetAddress">535 Mission st, San</span> <span itemprop="addressLocality">Francisco CA 94105, USA</span></div>');
    const a = microdataAddress($);
    assert.equal(a?.city, 'San Francisco');
    assert.equal(a?.region, 'CA');
    assert.equal(a?.postalCode, '94105');
    assert.equal(a?.street, '535 Mission st');
  });

  it('keeps a locality with digits that reads as no address', () => {
    const a = { street: '', city: '29 Palms', region: '', postalCode: '', country: '' };
    assert.deepEqual(splitPostcode(a), a);
  });

  it('reads an organisation’s location given as a PostalAddress itself', () => {
    const $ = cheerio.load(`<script type="application/ld+json">${JSON.stringify({ '@type': 'Organization', name: 'Stiftung', location: { '@type': 'PostalAddress', streetAddress: 'Lazarettstraße 33', postalCode: '80636', addressLocality: 'München ', addressCountry: 'DE' } })}</script>`);
    assert.equal(jsonLdOrgs($)[0]?.address?.city, 'München');
    const place = cheerio.load(`<script type="application/ld+json">${JSON.stringify({ '@type': 'Organization', name: 'Shop', location: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Emden' } } })}</script>`);
    assert.equal(jsonLdOrgs(place)[0]?.address?.city, 'Emden');
  });
});
