import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as cheerio from 'cheerio';
import { extractContact } from './extract-contact.js';

const tel = (html: string) => extractContact(cheerio.load(html), 'https://x.example/', []).phones.filter((p) => p.source === 'tel').map((p) => p.raw.replace(/\D/g, ''));

describe('extractContact: phone links (issue 40)', () => {
  it('takes the number shown when a tel: link points at another one', () => {
    assert.deepEqual(tel('<footer><a href="tel:(330)%20954-1809">(440) 768-1350</a></footer>'), ['4407681350']);
  });

  it('keeps the target when the link shows a word or the same number', () => {
    assert.deepEqual(tel('<a href="tel:+15551234567">Call us</a><a href="tel:555.123.4567">555.123.4567</a>'), ['15551234567', '5551234567']);
  });

  it('reads a dotted number split over inline elements as one line', () => {
    const $ = cheerio.load('<footer><p>Phone: <span>830</span>.<span>796</span>.<span>7961</span></p></footer>');
    const phones = extractContact($, 'https://x.example/', []).phones.map((p) => p.raw.replace(/\D/g, ''));
    assert.ok(phones.includes('8307967961'), phones.join(','));
  });
});
