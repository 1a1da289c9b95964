import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as cheerio from 'cheerio';
import { addressOfText, jsonLdOrgs } from './extract-jsonld.js';

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
