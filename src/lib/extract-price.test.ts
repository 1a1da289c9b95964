import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPage } from './extract.js';
import { parseAmount, priceRangeFromText, resolveCurrency, servicePricesFromText } from './extract-price.js';

describe('prices read from websites (issue 39)', () => {
  it('reads a price with a currency and a unit in English, German, French and Spanish', () => {
    const cases: [string, unknown][] = [
      ['Call-outs from $45 per hour, weekends extra.', { from: 45, currency: '$', unit: 'hour' }],
      ['Rates: $80–$120/job depending on size', { from: 80, to: 120, currency: '$', unit: 'job' }],
      ['Lessons £30 an hour', { from: 30, currency: 'GBP', unit: 'hour' }],
      ['Beratung ab 45 € pro Stunde', { from: 45, currency: 'EUR', unit: 'hour' }],
      ['Stundensatz: 55,50 €', { from: 55.5, currency: 'EUR', unit: 'hour' }],
      ['Nachhilfe 25-35 €/Std.', { from: 25, to: 35, currency: 'EUR', unit: 'hour' }],
      ["Cours à partir de 40 € de l'heure", { from: 40, currency: 'EUR', unit: 'hour' }],
      ['Clases desde 30 € por hora', { from: 30, currency: 'EUR', unit: 'hour' }],
      ['Bookkeeping from CHF 1.200 per month', { from: 1200, currency: 'CHF', unit: 'month' }],
      ['Dinner menu 65 € per person', { from: 65, currency: 'EUR', unit: 'person' }],
    ];
    for (const [text, expected] of cases) assert.deepEqual(priceRangeFromText(text), expected, text);
  });

  it('says nothing for amounts without a unit: shop prices, delivery thresholds, years and phone numbers', () => {
    for (const text of ['Free delivery on orders over $50', 'Sourdough loaf €4.50', 'Since 1994 · call 555-0142', 'Save 20% this month', 'Our team of 12 works 7 days']) {
      assert.equal(priceRangeFromText(text), undefined, text);
    }
  });

  it('takes the unit stated most often, from its lowest to its highest amount', () => {
    assert.deepEqual(priceRangeFromText('Standard clean $35 per hour. Deep clean $50 per hour. Move-out package $300 per job.'), { from: 35, to: 50, currency: '$', unit: 'hour' });
  });

  it('reads amounts the European and the English way', () => {
    assert.equal(parseAmount('1.200,50'), 1200.5);
    assert.equal(parseAmount('1,200.50'), 1200.5);
    assert.equal(parseAmount('1 200'), 1200);
    assert.equal(parseAmount('45,50'), 45.5);
    assert.equal(parseAmount('1.200'), 1200);
  });

  it('resolves "$" and "kr" by the country', () => {
    const raw = { from: 45, currency: '$', unit: 'hour' as const };
    assert.equal(resolveCurrency(raw, 'CA')?.currency, 'CAD');
    assert.equal(resolveCurrency(raw, 'US')?.currency, 'USD');
    assert.equal(resolveCurrency(raw, 'AU')?.currency, 'AUD');
    assert.equal(resolveCurrency({ ...raw, currency: 'kr' }, 'SE')?.currency, 'SEK');
    assert.equal(resolveCurrency({ ...raw, currency: 'kr' }, 'DE'), undefined, 'an unknown krone is no price');
  });

  it('reads services priced one per line: lists, table rows, leaders and "from" words', () => {
    const text = [
      'Our services',
      'Boiler service — £80 per visit',
      'Gas safety certificate: from £60 per visit',
      'Haarschnitt ....... 35 € pro Person',
      'Beratung ab 45 € pro Stunde',
      'Deep clean | $50 per hour',
      'Nachhilfe 25-35 €/Std.',
    ].join('\n');
    assert.deepEqual(servicePricesFromText(text), [
      { service: 'Boiler service', price: { from: 80, currency: 'GBP', unit: 'visit' } },
      { service: 'Gas safety certificate', price: { from: 60, currency: 'GBP', unit: 'visit' } },
      { service: 'Haarschnitt', price: { from: 35, currency: 'EUR', unit: 'person' } },
      { service: 'Beratung', price: { from: 45, currency: 'EUR', unit: 'hour' } },
      { service: 'Deep clean', price: { from: 50, currency: '$', unit: 'hour' } },
      { service: 'Nachhilfe', price: { from: 25, to: 35, currency: 'EUR', unit: 'hour' } },
    ]);
  });

  it('names no service for sentences, headings, phrases, two prices on a line, amounts without a unit', () => {
    for (const line of [
      'We charge $45 per hour',
      'Our rates start at £30 an hour',
      'Prices from 40 € pro Stunde',
      'Hourly rate: $60',
      'Stundensatz: 55 €',
      'Garden room $180 per night. Harbour suite $260 per night.',
      'Einzelnachhilfe in Mathe, Deutsch und Englisch: 25-35 €/Std. je nach Klassenstufe.',
      'Cedar candle $24.00',
      'Free shipping on orders over $50 per order',
      '$45 per hour',
      'Call us on 555-0142 for a quote of $45 per hour',
      'A very long description of everything this company might do for you at $45 per hour',
    ]) {
      assert.deepEqual(servicePricesFromText(line), [], line);
    }
  });

  it('keeps the first price of a service named twice, and at most the limit', () => {
    const text = ['Window cleaning: $30 per hour', 'window cleaning: $35 per hour', ...Array.from({ length: 40 }, (_, i) => `Service ${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}: $${10 + i} per job`)].join('\n');
    const found = servicePricesFromText(text);
    assert.equal(found.length, 30);
    assert.deepEqual(found[0], { service: 'Window cleaning', price: { from: 30, currency: '$', unit: 'hour' } });
    assert.equal(found.filter((f) => f.service.toLowerCase() === 'window cleaning').length, 1);
  });

  it('reads table rows and definition lists of a page as one line per service, and leaves the footer out', () => {
    const page = extractPage(
      '<html><body><main><table><tr><th>Service</th><th>Price</th></tr><tr><td>Boiler service</td><td>£80 per visit</td></tr><tr><td>Power flush</td><td>from £350 per job</td></tr></table>' +
        '<dl><dt>Nail trim</dt><dd>$15 per visit</dd></dl></main><footer><p>Call-outs £50 per hour</p></footer></body></html>',
      'https://example.test/prices',
    );
    assert.deepEqual(page.servicePrices.map((s) => [s.service, s.price.from, s.price.unit]), [['Boiler service', 80, 'visit'], ['Power flush', 350, 'job'], ['Nail trim', 15, 'visit']]);
  });
});
