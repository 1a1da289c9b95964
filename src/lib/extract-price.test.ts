import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAmount, priceRangeFromText, resolveCurrency } from './extract-price.js';

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
});
