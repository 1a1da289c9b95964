import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FoundAddress } from '../../lib/address.js';
import { extractPage } from '../../lib/extract.js';
import { assembleMaterial } from './crawl.material.js';
import { identify, mainAddressBlock } from './crawl.identity.js';

const at = (city: string, extra: Partial<FoundAddress> = {}): FoundAddress => ({
  street: '1 Main St', city, region: '', postalCode: '', country: 'US', line: city, label: '', confidence: 0.9, lineIndex: 0, phoneDigits: [], chrome: false, ...extra,
});
const towns = (xs: FoundAddress[]) => xs.map((a) => a.city);

describe('mainAddressBlock: the main address before a phone is chosen (issue 40)', () => {
  it('follows the structured data: its number written by an address, else its town', () => {
    const found = [at('Furth im Wald', { phoneDigits: ['49099738459'] }), at('München', { phoneDigits: ['49089208027250'] })];
    assert.deepEqual(towns(mainAddressBlock(found, { city: 'München', phone: '+49 (0) 99 73 84 59 – 0' })), ['Furth im Wald']);
    assert.deepEqual(towns(mainAddressBlock(found, { city: 'München', phone: '' })), ['München']);
  });

  it('takes a head-office label, else the only town, else the only town in the header or footer', () => {
    assert.deepEqual(towns(mainAddressBlock([at('Naples'), at('Fort Myers', { label: 'Head office' })], { city: '', phone: '' })), ['Fort Myers']);
    assert.deepEqual(towns(mainAddressBlock([at('Erie'), at('Erie')], { city: '', phone: '' })), ['Erie', 'Erie']);
    assert.deepEqual(towns(mainAddressBlock([at('Schaffhausen'), at('St. Gallen', { chrome: true })], { city: '', phone: '' })), ['St. Gallen']);
  });

  it('names none when branches compete with nothing marking the main one', () => {
    assert.deepEqual(mainAddressBlock([at('Naples'), at('Cape Coral')], { city: '', phone: '' }), []);
  });
});

describe('identify: the main address among others on the page (issue 40)', () => {
  it('takes the address in the site footer over firms listed in the body text', () => {
    const html = `<html lang="de"><body><main><h1>Event</h1>
      <p>Gastgeber: Muster AG, Rheinweg 9, 8200 Schaffhausen</p><p>Partner: Beispiel GmbH, Freier Platz 10, 8200 Schaffhausen</p></main>
      <footer><p>together ag, Postfach 2150, 9001 St.Gallen, Tel. 071 222 28 18</p></footer></body></html>`;
    const id = identify(assembleMaterial([extractPage(html, 'https://together.example.ch/')], 'https://together.example.ch/'));
    assert.equal(id.address?.city, 'St. Gallen');
  });
});
