import { builder, doc, onepage, shop, table, wp } from './layouts.js';
import type { EvalSite } from './types.js';

/**
 * Prices per service (issue 39): price lists as small-business sites write them (table rows, list items with dot
 * leaders, one paragraph per service, definition lists), in English, German and French; and pages whose prices name
 * no service (a sentence about the hourly rate, a shop's products), which must give none. `expected.services` is the
 * list a person would write down, in the page's order. Written before the extraction was run on them.
 */
export const SERVICE_PRICE_SITES: EvalSite[] = [
  {
    url: 'https://www.severnheating.co.uk/',
    style: 'a price table on the prices page, one service per row',
    expected: {
      name: 'Severn Heating', phone: '+441172550188', city: 'Bristol', country: 'GB', price: { from: 60, to: 80, currency: 'GBP', unit: 'visit' },
      services: [
        { service: 'Boiler service', from: 80, currency: 'GBP', unit: 'visit' },
        { service: 'Gas safety certificate', from: 60, currency: 'GBP', unit: 'visit' },
        { service: 'Power flush', from: 350, currency: 'GBP', unit: 'job' },
      ],
    },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Severn Heating | Bristol Gas Engineers', body: wp({ logoAlt: 'Severn Heating', main: '<h1>Gas Safe engineers in Bristol</h1><p><a href="/prices">Our prices</a></p>', footer: '<p>14 Gloucester Rd, Bristol BS7 8AE · 0117 255 0188</p>' }) }),
      '/prices': doc({ lang: 'en-GB', title: 'Prices | Severn Heating', body: wp({ logoAlt: 'Severn Heating', main: '<h1>Prices</h1><table class="prices"><thead><tr><th>Service</th><th>Price</th></tr></thead><tbody><tr><td>Boiler service</td><td>£80 per visit</td></tr><tr><td>Gas safety certificate</td><td>£60 per visit</td></tr><tr><td>Power flush</td><td>from £350 per job</td></tr></tbody></table><p>All prices include VAT.</p>', footer: '<p>14 Gloucester Rd, Bristol BS7 8AE · 0117 255 0188</p>' }) }),
    },
  },
  {
    url: 'https://www.salon-lockenpracht.de/',
    style: 'German price list with dot leaders and "ab"',
    expected: {
      name: 'Salon Lockenpracht', phone: '+49895550133', city: 'München', country: 'DE', price: { from: 28, to: 60, currency: 'EUR', unit: 'person' },
      services: [
        { service: 'Haarschnitt Damen', from: 45, currency: 'EUR', unit: 'person' },
        { service: 'Haarschnitt Herren', from: 28, currency: 'EUR', unit: 'person' },
        { service: 'Färben', from: 60, currency: 'EUR', unit: 'person' },
      ],
    },
    pages: {
      '/': doc({ lang: 'de-DE', title: 'Salon Lockenpracht – Friseur in München', body: builder({ header: '<span>Salon Lockenpracht</span>', main: '<h1>Preise</h1><ul><li>Haarschnitt Damen ....... 45 € pro Person</li><li>Haarschnitt Herren ....... 28 € pro Person</li><li>Färben ab 60 € pro Person</li></ul>', footer: '<p>Schellingstraße 40, 80799 München · Tel. 089 5550133</p>' }) }),
    },
  },
  {
    url: 'https://www.menage-claire.fr/',
    style: 'French, one paragraph per service',
    expected: {
      name: 'Ménage Claire', phone: '+33472550144', city: 'Lyon', country: 'FR', price: { from: 25, to: 35, currency: 'EUR', unit: 'hour' },
      services: [
        { service: 'Ménage régulier', from: 25, currency: 'EUR', unit: 'hour' },
        { service: 'Grand ménage', from: 35, currency: 'EUR', unit: 'hour' },
      ],
    },
    pages: {
      '/': doc({ lang: 'fr-FR', title: 'Ménage Claire – Lyon', body: wp({ logoAlt: 'Ménage Claire', main: '<h1>Nos tarifs</h1><p>Ménage régulier : 25 € de l\'heure</p><p>Grand ménage : 35 € de l\'heure</p>', footer: '<p>8 rue de la République, 69002 Lyon · 04 72 55 01 44</p>' }) }),
    },
  },
  {
    url: 'https://www.happytailsgrooming.com/',
    style: 'a definition list: the service in dt, its price in dd',
    expected: {
      name: 'Happy Tails Grooming', phone: '+15035550166', city: 'Portland', country: 'US', price: { from: 15, to: 45, currency: 'USD', unit: 'visit' },
      services: [
        { service: 'Bath & brush', from: 45, currency: 'USD', unit: 'visit' },
        { service: 'Nail trim', from: 15, currency: 'USD', unit: 'visit' },
      ],
    },
    pages: {
      '/': doc({ title: 'Happy Tails Grooming | Portland', body: onepage({ brand: 'Happy Tails Grooming', hero: '<h1>Grooming for happy dogs</h1>', sections: '<section id="services"><h2>Services</h2><dl><dt>Bath &amp; brush</dt><dd>$45 per visit</dd><dt>Nail trim</dt><dd>$15 per visit</dd></dl></section>', contact: '<p>(503) 555-0166</p>', footer: '<p>Happy Tails Grooming, 2200 NE Alberta St, Portland, OR 97211</p>' }) }),
    },
  },
  {
    url: 'https://www.ridgewayhandyman.com/',
    style: 'an hourly rate in a sentence: a price, but no service named',
    expected: { name: 'Ridgeway Handyman', phone: '+16155550122', city: 'Nashville', country: 'US', price: { from: 60, currency: 'USD', unit: 'hour' }, services: [] },
    pages: {
      '/': doc({ title: 'Ridgeway Handyman | Nashville', body: table({ top: '<b>Ridgeway Handyman</b>', main: '<p>We charge $60 per hour for all work, with a one-hour minimum. Estimates are free.</p>', bottom: '<p>Nashville, TN · (615) 555-0122</p>' }) }),
    },
  },
  {
    url: 'https://www.larkspurtea.com/',
    style: 'a shop: products with prices but no unit, no service',
    expected: { name: 'Larkspur Tea', phone: '+12065550177', city: 'Seattle', country: 'US', price: null, services: [] },
    pages: {
      '/': doc({ title: 'Larkspur Tea – Loose-leaf tea', body: shop({ announcement: 'Free shipping over $40', logo: 'Larkspur Tea', main: '<h1>Loose-leaf teas</h1><ul><li>Earl Grey $12.00</li><li>Sencha $14.00</li><li>Tasting set $30.00</li></ul>', footer: '<p>Seattle, WA · 206-555-0177</p>' }) }),
    },
  },
];
