import { builder, doc, ld, onepage, shop, table, wp } from './layouts.js';
import type { EvalSite } from './types.js';

/**
 * Opening hours as small-business sites write them (issue 39): schema.org in both forms, and text in English,
 * German, French and Spanish, in footers, tables and contact pages. `expected.hours` is the weekly schedule a
 * person reads (days left out are closed).
 */
const wk = (open: string, close: string) => Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, [[open, close]]])) as Record<string, [string, string][]>;

export const HOURS_SITES: EvalSite[] = [
  {
    url: 'https://www.harbourlinebakery.com/',
    style: 'JSON-LD openingHoursSpecification with a holiday',
    expected: { name: 'Harbourline Bakery', phone: '+12075550142', city: 'Portland', country: 'US', hours: { ...wk('07:00', '15:00'), saturday: [['08:00', '14:00']] } },
    pages: {
      '/': doc({ title: 'Harbourline Bakery | Portland, Maine', head: ld({ '@context': 'https://schema.org', '@type': 'Bakery', name: 'Harbourline Bakery', telephone: '(207) 555-0142', address: { '@type': 'PostalAddress', streetAddress: '12 Commercial St', addressLocality: 'Portland', addressRegion: 'ME', addressCountry: 'US' }, openingHoursSpecification: [{ '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '07:00', closes: '15:00' }, { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Saturday', opens: '08:00:00', closes: '14:00:00' }, { '@type': 'OpeningHoursSpecification', validFrom: '2026-12-25', validThrough: '2026-12-25', opens: '00:00', closes: '00:00' }] }), body: wp({ logoAlt: 'Harbourline Bakery', main: '<h1>Bread from the waterfront</h1>', footer: '<p>12 Commercial St, Portland, ME 04101 · (207) 555-0142</p>' }) }),
    },
  },
  {
    url: 'https://www.redrockdental.com/',
    style: 'JSON-LD openingHours strings',
    expected: { name: 'Red Rock Dental', phone: '+17025550188', city: 'Las Vegas', country: 'US', hours: { ...wk('08:00', '17:00'), friday: [['08:00', '13:00']] } },
    pages: {
      '/': doc({ title: 'Red Rock Dental – Family Dentist Las Vegas', head: ld({ '@context': 'https://schema.org', '@type': 'Dentist', name: 'Red Rock Dental', telephone: '+1-702-555-0188', address: { '@type': 'PostalAddress', addressLocality: 'Las Vegas', addressRegion: 'NV', addressCountry: 'US' }, openingHours: ['Mo-Th 08:00-17:00', 'Fr 08:00-13:00'] }), body: builder({ header: '<span>Red Rock Dental</span>', main: '<p>Gentle family dentistry.</p>', footer: '<p>Call 702-555-0188</p>' }) }),
    },
  },
  {
    url: 'https://www.oakvilleautocare.ca/',
    style: 'hours in a footer widget, am/pm, Sunday closed',
    expected: { name: 'Oakville Auto Care', phone: '+19055550199', city: 'Oakville', country: 'CA', hours: { ...wk('07:30', '18:00'), saturday: [['08:00', '14:00']] } },
    pages: {
      '/': doc({ title: 'Oakville Auto Care | Brakes, Tires, Oil Changes', body: wp({ logoAlt: 'Oakville Auto Care logo', main: '<h1>Honest auto repair since 1994</h1>', footer: '<h3>Hours</h3><p>Monday - Friday: 7:30 am - 6:00 pm<br>Saturday: 8:00 am - 2:00 pm<br>Sunday: Closed</p><p>455 Speers Rd, Oakville, ON L6K 3S2 · 905-555-0199</p>' }) }),
    },
  },
  {
    url: 'https://www.thegreenforkcafe.co.uk/',
    style: 'short day names and bare hours, "9-5"',
    expected: { name: 'The Green Fork Cafe', phone: '+441865550123', city: 'Oxford', country: 'GB', hours: { ...wk('09:00', '17:00'), saturday: [['10:00', '16:00']], sunday: [['10:00', '14:00']] } },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'The Green Fork Cafe, Oxford', body: onepage({ brand: 'The Green Fork Cafe', hero: '<h1>Seasonal plates in Jericho</h1>', sections: '<section id="about"><p>Brunch, cakes and coffee.</p></section>', contact: '<p>Open Mon-Fri 9-5, Sat 10-4, Sun 10-2</p><p>01865 550123</p>', footer: '<p>The Green Fork Cafe, 14 Walton St, Oxford OX1 2HG</p>' }) }),
    },
  },
  {
    url: 'https://www.sydneyharbourphysio.com.au/',
    style: 'contact page table of hours',
    expected: { name: 'Sydney Harbour Physio', phone: '+61295550177', city: 'Sydney', country: 'AU', hours: { monday: [['07:00', '19:00']], tuesday: [['07:00', '19:00']], wednesday: [['07:00', '19:00']], thursday: [['07:00', '19:00']], friday: [['07:00', '16:00']], saturday: [['08:00', '12:00']] } },
    pages: {
      '/': doc({ lang: 'en-AU', title: 'Sydney Harbour Physio', body: wp({ logoAlt: 'Sydney Harbour Physio', main: '<h1>Physiotherapy in the CBD</h1>', footer: '<p>Level 2, 88 Pitt St, Sydney NSW 2000</p>' }) }),
      '/contact': doc({ lang: 'en-AU', title: 'Contact | Sydney Harbour Physio', body: wp({ logoAlt: 'Sydney Harbour Physio', main: '<h1>Contact us</h1><p>Phone (02) 9555 0177</p><table><tr><td>Mon – Thu</td><td>7:00am – 7:00pm</td></tr><tr><td>Fri</td><td>7:00am – 4:00pm</td></tr><tr><td>Sat</td><td>8:00am – 12:00pm</td></tr><tr><td>Sun</td><td>Closed</td></tr></table>', footer: '<p>Level 2, 88 Pitt St, Sydney NSW 2000</p>' }) }),
    },
  },
  {
    url: 'https://www.baeckerei-sonnenschein.de/',
    style: 'German, "Montag bis Freitag 6–18 Uhr", Sonntag geschlossen',
    expected: { name: 'Bäckerei Sonnenschein', phone: '+49895550123', city: 'Munich', country: 'DE', hours: { ...wk('06:00', '18:00'), saturday: [['06:00', '12:00']] } },
    pages: {
      '/': doc({ lang: 'de-DE', title: 'Bäckerei Sonnenschein – München', body: wp({ logoAlt: 'Bäckerei Sonnenschein', main: '<h1>Frisches Brot aus Schwabing</h1>', footer: '<p><strong>Öffnungszeiten</strong><br>Montag bis Freitag 6–18 Uhr<br>Samstag 6–12 Uhr<br>Sonntag geschlossen</p><p>Leopoldstraße 5, 80802 München · Tel. 089 5550123</p>' }) }),
    },
  },
  {
    url: 'https://www.praxis-dr-lehmann.de/',
    style: 'German doctor, split day "Mo–Fr 8:00–12:00 und 14:00–18:00"',
    expected: { name: 'Praxis Dr. Lehmann', phone: '+49305550188', city: 'Berlin', country: 'DE', hours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, [['08:00', '12:00'], ['14:00', '18:00']]])) as Record<string, [string, string][]> },
    pages: {
      '/': doc({ lang: 'de-DE', title: 'Praxis Dr. Lehmann | Allgemeinmedizin Berlin', body: table({ top: '<img src="logo.gif" alt="Praxis Dr. Lehmann">', main: '<p>Sprechzeiten: Mo–Fr 8:00–12:00 und 14:00–18:00</p>', bottom: 'Praxis Dr. Lehmann, Kantstraße 20, 10623 Berlin, Telefon 030 5550188' }) }),
    },
  },
  {
    url: 'https://www.boulangerie-martin.fr/',
    style: 'French, "du lundi au vendredi de 7h à 19h30"',
    expected: { name: 'Boulangerie Martin', phone: '+33145550123', city: 'Paris', country: 'FR', hours: { ...wk('07:00', '19:30'), saturday: [['08:00', '13:00']] } },
    pages: {
      '/': doc({ lang: 'fr-FR', title: 'Boulangerie Martin – Paris 11e', body: shop({ logo: 'Boulangerie Martin', main: '<h2>Nos pains</h2>', footer: '<p>Horaires : du lundi au vendredi de 7h à 19h30, samedi 8h-13h, dimanche fermé</p><p>18 rue Oberkampf, 75011 Paris · 01 45 55 01 23</p>' }) }),
    },
  },
  {
    url: 'https://www.taller-garcia.es/',
    style: 'Spanish, "Lunes a Viernes de 9:00 a 14:00 y de 16:00 a 20:00"',
    expected: { name: 'Taller García', phone: '+34915550123', city: 'Madrid', country: 'ES', hours: { ...Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, [['09:00', '14:00'], ['16:00', '20:00']]])), saturday: [['10:00', '13:00']] } as Record<string, [string, string][]> },
    pages: {
      '/': doc({ lang: 'es-ES', title: 'Taller García – Mecánica en Madrid', body: builder({ header: '<span>Taller García</span>', main: '<p>Horario: Lunes a Viernes 9:00 a 14:00 y 16:00 a 20:00. Sábado 10:00 a 13:00. Domingo cerrado.</p>', footer: '<p>Calle de Alcalá 120, 28009 Madrid · 915 550 123</p>' }) }),
    },
  },
  {
    url: 'https://www.nightowlbar.com/',
    style: 'a bar open past midnight',
    expected: { name: 'Night Owl Bar', phone: '+15125550166', city: 'Austin', country: 'US', hours: { wednesday: [['17:00', '00:00']], thursday: [['17:00', '00:00']], friday: [['17:00', '02:00']], saturday: [['17:00', '02:00']] } },
    pages: {
      '/': doc({ title: 'Night Owl Bar | Cocktails on 6th Street', body: onepage({ brand: 'Night Owl Bar', hero: '<h1>Cocktails till late</h1>', sections: '', contact: '<p>Wed–Thu 5pm–12am<br>Fri–Sat 5pm–2am</p><p>(512) 555-0166</p>', footer: '<p>Night Owl Bar, 401 E 6th St, Austin, TX 78701</p>' }) }),
    },
  },
  {
    url: 'https://www.citylocksmith24.co.uk/',
    style: 'open 24 hours every day',
    expected: { name: 'City Locksmith 24', phone: '+441615550111', city: 'Manchester', country: 'GB', hours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [['00:00', '24:00']]])) as Record<string, [string, string][]> },
    pages: {
      '/': doc({ lang: 'en-GB', title: 'Emergency Locksmith Manchester – 24/7', body: wp({ logoAlt: 'City Locksmith 24', main: '<h1>Locked out? We come to you</h1><p>Mon-Sun: 24 hours</p>', footer: '<p>City Locksmith 24, Manchester M1 1AA · 0161 555 0111</p>' }) }),
    },
  },
  {
    url: 'https://www.lakesideyoga.com/',
    style: 'no hours anywhere (classes by timetable): nothing to read',
    expected: { name: 'Lakeside Yoga', phone: '+16085550133', city: 'Madison', country: 'US', hours: {} },
    pages: {
      '/': doc({ title: 'Lakeside Yoga Madison', body: wp({ logoAlt: 'Lakeside Yoga', main: '<h1>Classes for every body</h1><p>Book 5-10 classes and save. We have taught since 2009 - 2024 saw our 15th year.</p>', footer: '<p>Lakeside Yoga, 220 E Washington Ave, Madison, WI 53703 · 608-555-0133</p>' }) }),
    },
  },
];
