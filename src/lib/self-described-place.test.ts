import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selfDescribedPlace, type SelfText, type SelfTextKind } from './self-described-place.js';

const text = (kind: SelfTextKind, t: string, url = 'https://acme.example.com/'): SelfText => ({ kind, text: t, url });
const town = (texts: SelfText[], hint = '') => {
  const p = selfDescribedPlace(texts, hint);
  return p ? `${p.city}|${p.country}` : undefined;
};

describe('selfDescribedPlace: the town a site gives as its own (issue 40)', () => {
  it('reads a need in a town with its state or country, in any of the short texts', () => {
    assert.equal(town([text('menu', 'Private Yoga in Wilmington, NC')]), 'Wilmington|US');
    assert.equal(town([text('paragraph', 'We are a small design studio based in San Diego, California.')]), 'San Diego|US');
    assert.equal(town([text('title', 'Dentist in St. Louis, MO | Acme Dental')]), 'St. Louis|US');
    assert.equal(town([text('description', 'A cosy cafe in the heart of Asheville, NC.')]), 'Asheville|US');
    assert.equal(town([text('title', 'Green Valley Veterinary Hospital - Tucson, AZ')]), 'Tucson|US');
    assert.equal(town([text('footer', 'Acme Yoga, Wilmington, NC')]), 'Wilmington|US');
    assert.equal(town([text('title', 'The Crown Inn | Real Ales | Hexham, Northumberland')]), 'Hexham|GB');
    assert.equal(town([text('paragraph', 'Our bakery opened in Lyon, France in 1998.')]), 'Lyon|FR');
    assert.equal(town([text('title', 'JIM\'S AUTO BODY - COLLISION REPAIR - MADISON WI')]), 'Madison|US');
  });

  it('reads "based in", a town\'s possessive, "-based", a site name ending with its town, and German and French cues', () => {
    assert.equal(town([text('paragraph', 'Acme is a branding studio based in Denver.')], 'US'), 'Denver|US');
    assert.equal(town([text('heading', 'Fort Worth\'s Trusted Roofers')], 'US'), 'Fort Worth|US');
    assert.equal(town([text('paragraph', 'A Denver-based design studio for small brands.')], 'US'), 'Denver|US');
    assert.equal(town([text('site-name', 'Vascular Institute of Chattanooga')], 'US'), 'Chattanooga|US');
    assert.equal(town([text('paragraph', 'Die Muster GmbH mit Sitz in Hamburg berät Handwerksbetriebe.')], 'DE'), 'Hamburg|DE');
    assert.equal(town([text('paragraph', 'Notre cabinet basé à Lyon accompagne les PME.')], 'FR'), 'Lyon|FR');
  });

  it('reads a bare "in <Town>" only in a tagline, and only in the site\'s country', () => {
    assert.equal(town([text('title', 'NHS & Private Dentist in York')], 'GB'), 'York|GB');
    assert.equal(town([text('title', 'Boulangerie à Paris')], 'FR'), 'Paris|FR');
    assert.equal(town([text('paragraph', 'We won an award in Leeds last year.')], 'GB'), undefined);
    assert.equal(town([text('title', 'Dentist in York')], 'DE'), undefined);
    // a capitalised word after the town: a name that starts with a town ("Austin Hardware"), not the town
    assert.equal(town([text('title', 'Fasteners In Austin Hardware Catalog')], 'US'), undefined);
  });

  it('gives none for a town the business serves, or several towns', () => {
    assert.equal(town([text('description', 'Serving Raleigh, NC and surrounding areas.')], 'US'), undefined);
    assert.equal(town([text('description', 'Pest control for homeowners in Raleigh, NC.')], 'US'), undefined);
    assert.equal(town([text('title', 'Plumber in Denver and surrounding areas')], 'US'), undefined);
    assert.equal(town([text('title', 'Plumber in the Denver Area')], 'US'), undefined);
    assert.equal(town([text('title', 'Roofing in Dallas and Fort Worth')], 'US'), undefined);
    assert.equal(town([text('description', 'Pizza in New York, NY and Boston, MA')], 'US'), undefined);
    assert.equal(town([text('title', 'Yoga in Wilmington, NC'), text('description', 'The best coffee in Raleigh, NC')], 'US'), undefined);
    // a menu that names several towns links to the places served
    const menu = ['Lancaster House Cleaning', 'Palmdale California cleaning services', 'Maid Service in Burbank, CA'].map((t) => text('menu', t));
    assert.equal(town(menu, 'US'), undefined);
    // a page whose address names the town is one of the pages written for each town served
    assert.equal(town([text('footer', 'Acme Pest, Romulus, MI', 'https://acme.example.com/areas-served/romulus-mi-pest-control')], 'US'), undefined);
  });

  it('keeps common words, regions and countries from reading as towns', () => {
    assert.equal(town([text('title', 'Tips for Reading in Bath')], 'GB'), undefined);
    assert.equal(town([text('title', 'Innovation in Mobile')], 'US'), undefined);
    assert.equal(town([text('title', 'Plant-Based Meals Delivered')], 'US'), undefined);
    assert.equal(town([text('title', 'Yoga studio in California, USA')], 'US'), undefined);
    assert.equal(town([text('title', 'Dentist in Victoria')], 'AU'), undefined);
    // with its state or county a common word is the town
    assert.equal(town([text('title', 'Pest control in Mobile, AL')], 'US'), 'Mobile|US');
    assert.equal(town([text('title', 'Yoga in Reading, Berkshire')], 'GB'), 'Reading|GB');
    assert.equal(town([text('paragraph', 'A law firm located in Washington, DC.')], 'US'), 'Washington|US');
  });

  it('reads a big city\'s short name ("NYC") as its postal name, and a site name ending with a town its domain repeats', () => {
    assert.equal(town([text('title', 'Greenwich House Music School: Private Music Lessons in NYC')], 'US'), 'New York|US');
    assert.equal(town([text('title', 'Private Music Lessons in NYC')]), 'New York|US');
    assert.equal(town([text('site-name', 'Small Business Attorney NYC', 'https://www.smallbusinessattorneynyc.com/about/')], 'US'), 'New York|US');
    assert.equal(town([text('site-name', 'Emergency Dentist Denver', 'https://emergencydentistdenver.com/')], 'US'), 'Denver|US');
    // a person's name is no business's name ending with its town
    assert.equal(town([text('site-name', 'Meryl Arnett', 'https://www.merylarnett.com/')], 'US'), undefined);
    // a title's later segment opening with a town and saying the trade
    assert.equal(town([text('title', 'Meryl Arnett | Atlanta Meditation teacher', 'https://www.merylarnett.com/')], 'US'), 'Atlanta|US');
    assert.equal(town([text('title', 'Atlanta Wedding Venues | Acme Events')], 'US'), undefined);
    // the domain does not repeat the town: a name that merely ends with one
    assert.equal(town([text('site-name', 'Grand Hotel Denver', 'https://acme-hotels.com/')], 'US'), undefined);
    // three capitals that are a country's or state's code, or no big city's, are no town
    assert.equal(town([text('title', 'Yoga teacher training in USA')]), undefined);
    assert.equal(town([text('title', 'Online marketing in NRW')], 'DE'), undefined);
    assert.equal(town([text('site-name', 'Acme Roofing NC', 'https://acmeroofingnc.com/')], 'US'), undefined);
  });

  it('refuses a town written with another country than the site\'s', () => {
    assert.equal(town([text('paragraph', 'We are a studio based in San Diego, California.')], 'GB'), undefined);
  });

  it('gives a country alone from a site name or "based in", and counts the kinds of text that agree', () => {
    assert.equal(town([text('site-name', 'Happy Coffee Deutschland')]), '|DE');
    // before a legal form
    assert.equal(town([text('site-name', 'Acredis Deutschland GmbH')]), '|DE');
    assert.equal(town([text('paragraph', 'We are based in the UK and ship worldwide.')]), '|GB');
    const agreed = selfDescribedPlace([text('title', 'Yoga in Wilmington, NC'), text('site-name', 'Wilmington Yoga in Wilmington, NC'), text('description', 'Private yoga classes in Wilmington, North Carolina.')], 'US');
    assert.equal(agreed?.groups, 2, 'the title and the site name are one statement, the description another');
    assert.equal(agreed?.strength, 'qualified');
    assert.equal(selfDescribedPlace([text('title', 'Dentist in York')], 'GB')?.strength, 'plain');
  });

  it('reads a tagline that puts the business in the centre or heart of its town, in German, French, Spanish and Italian', () => {
    assert.equal(town([text('heading', 'Ihr Hotel im Zentrum von Neubrandenburg')], 'DE'), 'Neubrandenburg|DE');
    assert.equal(town([text('title', 'Boulangerie au cœur de Lyon')], 'FR'), 'Lyon|FR');
    assert.equal(town([text('description', 'Restaurante en el centro de Sevilla')], 'ES'), 'Sevilla|ES');
    assert.equal(town([text('heading', 'Pizzeria nel cuore di Verona')], 'IT'), 'Verona|IT');
    // in a paragraph, as a bare "in <Town>", only with its country or state
    assert.equal(town([text('paragraph', 'Wir liefern mitten in Berlin aus')], 'DE'), undefined);
  });
});

describe('selfDescribedPlace: a footer made "with love" in its town (fresh set G)', () => {
  it('reads "made with ♥ in", "with love from" and "Mit ♥ aus", the heart written or left out as an icon', () => {
    assert.equal(town([text('footer-sentence', 'Made with ♥ in Portland, Oregon')], 'US'), 'Portland|US');
    assert.equal(town([text('footer-sentence', 'Mit Liebe aus Bremen')], 'DE'), 'Bremen|DE');
    assert.equal(town([text('footer-sentence', 'Mit aus Bremen')], 'DE'), 'Bremen|DE');
    assert.equal(town([text('footer-sentence', 'With love from Leeds')], 'GB'), 'Leeds|GB');
  });
});
