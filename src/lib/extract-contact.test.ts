import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as cheerio from 'cheerio';
import { extractContact, pageLines } from './extract-contact.js';

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

describe('extractContact: where a number is written (issue 40)', () => {
  it('takes a short line of words alone as the label of the number below it', () => {
    const $ = cheerio.load('<footer><p>Phone</p><p>(816) 246-2800</p><p>Fax</p><p>(816) 246-2890</p><p>Toll-Free</p><p>(800) 821-3520</p></footer>');
    const labels = extractContact($, 'https://x.example/', []).phones.map((p) => `${p.raw}=${p.label}`);
    assert.deepEqual(labels, ['(816) 246-2800=Phone', '(816) 246-2890=Fax', '(800) 821-3520=Toll-Free']);
  });

  it('marks the lines and links of the site header and footer, not those of an article', () => {
    const html = '<header><a href="tel:+15551230001">Call</a></header><article><p>Venue: 555-123-0002</p><footer>Posted by Ann, 555-123-0003</footer></article><div id="footer">555-123-0004</div>';
    const $ = cheerio.load(html);
    assert.deepEqual(pageLines($).map((l) => `${l.text}:${l.chrome}`), ['Call:true', 'Venue: 555-123-0002:false', 'Posted by Ann, 555-123-0003:false', '555-123-0004:true']);
    const phones = extractContact($, 'https://x.example/', []).phones.map((p) => `${p.raw.slice(-4)}:${p.chrome}`);
    assert.deepEqual(phones, ['0001:true', '0002:false', '0003:false', '0004:true']);
  });
});
