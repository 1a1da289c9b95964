import { builder, doc, ld, onepage, shop, table, wp } from './layouts.js';
import type { EvalSite } from './types.js';

/**
 * Prices as small-business sites state them (issue 39): hourly rates, per-job and monthly prices, ranges, "from"
 * prices, in English, German, French and Spanish, on home, pricing and contact pages; and sites whose amounts are
 * no price of the work (a shop's products, a delivery threshold, a discount), which must give none.
 * `expected.price` is what a person would answer to "what does it cost?". Written before the extraction was run on them.
 */
export const PRICE_SITES: EvalSite[] = [
  {
    url: 'https://www.brightsparkelectric.com/',
    style: 'hourly rate in the footer, US dollars',
    expected: { name: 'Bright Spark Electric', phone: '+15125550143', city: 'Austin', country: 'US', price: { from: 95, currency: 'USD', unit: 'hour' } },
    pages: {
      '/': doc({ title: 'Bright Spark Electric | Austin Electricians', body: wp({ logoAlt: 'Bright Spark Electric', main: '<h1>Licensed electricians in Austin</h1><p>Panel upgrades, EV chargers and rewiring.</p>', footer: '<p>Service calls $95 per hour, no hidden fees.</p><p>2100 S Lamar Blvd, Austin, TX 78704 · (512) 555-0143</p>' }) }),
    },
  },
  {
    url: 'https://www.maplecleaning.ca/',
    style: 'a pricing page with several packages, "$" in Canada',
    expected: { name: 'Maple Cleaning Co', phone: '+16045550170', city: 'Vancouver', country: 'CA', price: { from: 40, to: 55, currency: 'CAD', unit: 'hour' } },
    pages: {
      '/': doc({ title: 'Maple Cleaning Co – Vancouver House Cleaning', body: builder({ header: '<span>Maple Cleaning Co</span>', main: '<h1>Spotless homes in Vancouver</h1><p><a href="/pricing">See our prices</a></p>', footer: '<p>Vancouver, BC · 604-555-0170</p>' }) }),
      '/pricing': doc({ title: 'Pricing | Maple Cleaning Co', body: builder({ header: '<span>Maple Cleaning Co</span>', main: '<h1>Simple pricing</h1><ul><li>Regular clean: $40 per hour</li><li>Deep clean: $55 per hour</li><li>Supplies included</li></ul>', footer: '<p>Vancouver, BC · 604-555-0170</p>' }) }),
    },
  },
  {
    url: 'https://www.thameslocksmiths.co.uk/',
    style: 'per-job range with an en dash, pounds',
    expected: { name: 'Thames Locksmiths', phone: '+442075550111', city: 'London', country: 'GB', price: { from: 70, to: 120, currency: 'GBP', unit: 'job' } },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Thames Locksmiths | 24/7 London Locksmith', body: onepage({ brand: 'Thames Locksmiths', hero: '<h1>Locked out? We are 30 minutes away.</h1>', sections: '<section><h2>Prices</h2><p>Lockouts £70–£120 per job, fixed before we start.</p></section>', contact: '<p>020 7555 0111</p>', footer: '<p>Thames Locksmiths, 8 Borough High St, London SE1 9QQ</p>' }) }),
    },
  },
  {
    url: 'https://www.steuerkanzlei-weber.de/',
    style: 'German monthly fee, "ab … € pro Monat", on the Leistungen page',
    expected: { name: 'Steuerkanzlei Weber', phone: '+49695550144', city: 'Frankfurt', country: 'DE', price: { from: 149, currency: 'EUR', unit: 'month' } },
    pages: {
      '/': doc({ lang: 'de-DE', title: 'Steuerkanzlei Weber – Frankfurt am Main', body: wp({ logoAlt: 'Steuerkanzlei Weber Logo', main: '<h1>Ihre Steuerberatung in Frankfurt</h1>', footer: '<p>Zeil 10, 60313 Frankfurt am Main · Tel. 069 5550144</p>' }) }),
      '/leistungen': doc({ lang: 'de-DE', title: 'Leistungen | Steuerkanzlei Weber', body: wp({ logoAlt: 'Steuerkanzlei Weber Logo', main: '<h1>Leistungen</h1><p>Laufende Buchhaltung für Selbstständige ab 149 € pro Monat.</p>', footer: '<p>Zeil 10, 60313 Frankfurt am Main</p>' }) }),
    },
  },
  {
    url: 'https://www.nachhilfe-lernwerk.de/',
    style: 'German range with the currency only after the second amount, "/Std."',
    expected: { name: 'Lernwerk Nachhilfe', phone: '+4940555012', city: 'Hamburg', country: 'DE', price: { from: 25, to: 35, currency: 'EUR', unit: 'hour' } },
    pages: {
      '/': doc({ lang: 'de-DE', title: 'Lernwerk Nachhilfe Hamburg', body: table({ top: '<b>Lernwerk Nachhilfe</b>', main: '<p>Einzelnachhilfe in Mathe, Deutsch und Englisch: 25-35 €/Std. je nach Klassenstufe.</p>', bottom: '<p>Grindelallee 20, 20146 Hamburg · 040 555012</p>' }) }),
    },
  },
  {
    url: 'https://www.plombier-dupont.fr/',
    style: 'French "à partir de … € de l\'heure"',
    expected: { name: 'Plomberie Dupont', phone: '+33145550123', city: 'Paris', country: 'FR', price: { from: 60, currency: 'EUR', unit: 'hour' } },
    pages: {
      '/': doc({ lang: 'fr-FR', title: 'Plomberie Dupont – Plombier Paris 11e', body: wp({ logoAlt: 'Plomberie Dupont', main: '<h1>Votre plombier à Paris</h1><p>Dépannage à partir de 60 € de l\'heure, déplacement compris.</p>', footer: '<p>25 rue Oberkampf, 75011 Paris · 01 45 55 01 23</p>' }) }),
    },
  },
  {
    url: 'https://www.academiasol.es/',
    style: 'Spanish "desde … € por hora" on the contact page',
    expected: { name: 'Academia Sol', phone: '+34915550123', city: 'Madrid', country: 'ES', price: { from: 18, currency: 'EUR', unit: 'hour' } },
    pages: {
      '/': doc({ lang: 'es-ES', title: 'Academia Sol – Clases de inglés en Madrid', body: wp({ logoAlt: 'Academia Sol', main: '<h1>Clases de inglés</h1>', footer: '<p>Calle de Alcalá 50, 28014 Madrid</p>' }) }),
      '/contacto': doc({ lang: 'es-ES', title: 'Contacto | Academia Sol', body: wp({ logoAlt: 'Academia Sol', main: '<h1>Contacto</h1><p>Clases particulares desde 18 € por hora.</p><p>Tel. 915 550 123</p>', footer: '<p>Calle de Alcalá 50, 28014 Madrid</p>' }) }),
    },
  },
  {
    url: 'https://www.harbourviewbnb.com.au/',
    style: 'per night, "$" in Australia, JSON-LD priceRange without a unit ignored',
    expected: { name: 'Harbourview B&B', phone: '+61295550166', city: 'Sydney', country: 'AU', price: { from: 180, to: 260, currency: 'AUD', unit: 'night' } },
    pages: {
      '/': doc({ lang: 'en-AU', title: 'Harbourview B&B, Sydney', head: ld({ '@context': 'https://schema.org', '@type': 'BedAndBreakfast', name: 'Harbourview B&B', priceRange: '$$', telephone: '(02) 9555 0166', address: { '@type': 'PostalAddress', addressLocality: 'Sydney', addressRegion: 'NSW', addressCountry: 'AU' } }), body: onepage({ brand: 'Harbourview B&B', hero: '<h1>Wake up to the harbour</h1>', sections: '<section><h2>Rooms</h2><p>Garden room $180 per night. Harbour suite $260 per night. Breakfast included.</p></section>', contact: '<p>(02) 9555 0166</p>', footer: '<p>Harbourview B&B, Kirribilli, Sydney NSW 2061</p>' }) }),
    },
  },
  {
    url: 'https://www.greenleafcatering.com/',
    style: 'per person, "from", with other amounts around it',
    expected: { name: 'Greenleaf Catering', phone: '+13125550190', city: 'Chicago', country: 'US', price: { from: 28, currency: 'USD', unit: 'person' } },
    pages: {
      '/': doc({ title: 'Greenleaf Catering | Chicago Event Catering', body: wp({ logoAlt: 'Greenleaf Catering logo', main: '<h1>Seasonal menus for your events</h1><p>Buffet menus from $28 per person. Minimum order $500. Established 2009.</p>', footer: '<p>900 W Randolph St, Chicago, IL 60607 · (312) 555-0190</p>' }) }),
    },
  },
  {
    url: 'https://www.oakandember.com/',
    style: 'an online shop: product prices and free shipping, no price of a service',
    expected: { name: 'Oak & Ember', phone: '+15035550121', city: 'Portland', country: 'US', price: null },
    pages: {
      '/': doc({ title: 'Oak & Ember – Hand-poured candles', body: shop({ announcement: 'Free shipping on orders over $50!', logo: 'Oak & Ember', main: '<h1>Candles poured in Portland</h1><ul><li>Cedar candle $24.00</li><li>Ember candle $28.00</li><li>Gift set $65.00</li></ul>', footer: '<p>Portland, OR · 503-555-0121</p>' }) }),
    },
  },
  {
    url: 'https://www.fahrschule-brandt.de/',
    style: 'German discounts and a year, no price per unit',
    expected: { name: 'Fahrschule Brandt', phone: '+49305550177', city: 'Berlin', country: 'DE', price: null },
    pages: {
      '/': doc({ lang: 'de-DE', title: 'Fahrschule Brandt Berlin', body: wp({ logoAlt: 'Fahrschule Brandt', main: '<h1>Führerschein in Berlin seit 1985</h1><p>Jetzt 10 % Rabatt für Studierende. Über 5.000 Fahrschüler ausgebildet.</p>', footer: '<p>Kantstraße 30, 10623 Berlin · Tel. 030 5550177</p>' }) }),
    },
  },
  {
    url: 'https://www.peakfitstudio.co.uk/',
    style: 'monthly membership and a one-off joining fee',
    expected: { name: 'Peak Fit Studio', phone: '+441615550134', city: 'Manchester', country: 'GB', price: { from: 39, currency: 'GBP', unit: 'month' } },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Peak Fit Studio, Manchester', body: builder({ header: '<span>Peak Fit Studio</span>', main: '<h1>Strength classes in Ancoats</h1><p>Membership £39 a month. Joining fee £20.</p>', footer: '<p>12 Blossom St, Manchester M4 6AJ · 0161 555 0134</p>' }) }),
    },
  },
];
