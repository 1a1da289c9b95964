import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FoundAddress } from '../../lib/address.js';
import { extractPage } from '../../lib/extract.js';
import { assembleMaterial, locateWith } from './crawl.material.js';
import { identify, mainAddressBlock, otherBlocks } from './crawl.identity.js';

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

describe('identify: offices listed as a town alone after their street (session 14)', () => {
  const site = (footer: string) => {
    const html = `<html><body><main><h1>Blog</h1></main><footer>${footer}</footer></body></html>`;
    return identify(assembleMaterial([extractPage(html, 'https://agency.example.com/')], 'https://agency.example.com/'));
  };

  it('lowers the confidence of the one full address when other offices are listed', () => {
    const alone = site('<p>777 Hornby Street Suite 600,<br>Vancouver, BC, V6Z 1S4</p>');
    const listed = site('<p>Toronto</p><p>2275 Upper Middle<br>Rd. E, Suite 101</p><p>Toronto</p><p>Vancouver</p><p>777 Hornby Street Suite 600,<br>Vancouver, BC, V6Z 1S4</p>');
    assert.equal(alone.address?.city, 'Vancouver');
    assert.equal(listed.address?.city, 'Vancouver');
    assert.equal(alone.cityDoubt('Vancouver').reasons.includes('other towns on the site, none marked as the main one'), false);
    assert.equal(listed.cityDoubt('Vancouver').reasons.includes('other towns on the site, none marked as the main one'), true);
  });

  it('lets a town alone vote for no country', () => {
    const id = site('<p>12 Main Street</p><p>London</p><p>Call (212) 555-0100</p>');
    assert.notEqual(id.country?.value, 'GB');
  });
});

describe('identify: the first of two offices, each named twice in its own block (session 15)', () => {
  it('counts a heading and its address as one mention of the town', () => {
    const a = { ...at('Snow Hill'), url: 'u', lineIndex: 84 };
    assert.equal(otherBlocks(a, [{ ...at('Snow Hill'), url: 'u', lineIndex: 82 }]), 0);
    assert.equal(otherBlocks(a, [{ ...at('Snow Hill'), url: 'u', lineIndex: 20 }, { ...at('Snow Hill'), url: 'u', lineIndex: 21 }, { ...at('Snow Hill'), url: 'v', lineIndex: 84 }]), 2);
  });

  it('takes the first office when a later disclaimer’s number follows the second', () => {
    const html = `<html><body><main><h1>Advice</h1></main><footer><p>Locations</p><p>11311 McCormick Rd., Suite 500</p><p>Hunt Valley, MD 21031</p>
      <p>Snow Hill, MD</p><p>301 N. Washington St.</p><p>Snow Hill, MD 21863</p>
      <p>${'Investment advisory services are offered through the firm, a registered investment advisor, which may only transact business in those states in which it is registered. '.repeat(2)}Contact our office at 410-821-7766.</p></footer></body></html>`;
    const id = identify(assembleMaterial([extractPage(html, 'https://advisors.example.com/')], 'https://advisors.example.com/'));
    assert.equal(id.address?.city, 'Hunt Valley');
  });
});

describe('locate: the first office listed when the page’s microdata marks the second (session 15)', () => {
  const page = (firstPhone: string) => `<html lang="de"><body><main><h1>Steuerrecht</h1></main><footer><div itemtype="http://schema.org/Organization" itemscope>
    <div><strong itemprop="brand">Muster GmbH</strong><br>Stadtplatz 3<br>DE-93437 Furth im Wald<br>Tel. <span itemprop="telephone">${firstPhone}</span></div>
    <div itemtype="http://schema.org/PostalAddress" itemscope itemprop="address"><strong>Zweigstelle</strong><br><span itemprop="streetAddress">Nymphenburger Straße 4</span><br>
    DE-<span itemprop="postalCode">80335</span> <span itemprop="addressLocality">München</span><br>Tel. +49 (0) 89 20 80 27 250</div></div></footer></body></html>`;
  const locate = (html: string) => {
    const m = assembleMaterial([extractPage(html, 'https://muster.example.de/')], 'https://muster.example.de/');
    return locateWith(m, identify(m));
  };

  it('takes the first office, written with the main phone, and holds it below the threshold', () => {
    const l = locate(page('+49 (0) 99 73 84 59 – 0'));
    assert.equal(l.city, 'Furth im Wald');
    assert.ok(l.cityConfidence < 0.85);
  });

  it('follows the microdata when the first office has no number', () => {
    assert.equal(locate(page('')).city, 'München');
  });
});

describe('identify: name and phone on pages shaped like real small-business sites (issue 40, session 17)', () => {
  const site = (url: string, html: string) => identify(assembleMaterial([extractPage(html, url)], url));

  it('names a dealer from its banner, not its stock list, badges or founding year', () => {
    const id = site('https://www.millersdayton.com/', `<html lang="en"><head><title>Inventory</title></head><body>
      <div class="hero"><img src="/img/hero.jpg" alt="Miller Auto Sales® — Since 1987"></div>
      <main><h1>Pre-owned inventory</h1><div class="stock"><img src="/s/1.jpg" alt="2019 Honda Civic LX"><img src="/s/2.jpg" alt="2021 Ford F-150 XLT"></div></main>
      <footer><img src="/b/ehl.png" alt="Equal Housing Lender"><img src="/b/fdic.png" alt="Member FDIC"><img src="/b/seal.png" alt="Secure site security image">
      <p>1200 Wayne Ave, Dayton, OH 45410</p></footer></body></html>`);
    assert.equal(id.name?.value, 'Miller Auto Sales');
  });

  it('takes the copyright holder without its years, licensors or a legal form the site does not use in its name', () => {
    const page = (title: string) => `<html lang="en"><head><title>${title}</title></head><body><main><h1>Custom widgets</h1></main>
      <footer><p>© 2014–2024 Acme Widgets, LLC and its licensors. All rights reserved.</p></footer></body></html>`;
    assert.equal(site('https://www.acmewidgets.com/', page('Home')).name?.value, 'Acme Widgets');
    assert.equal(site('https://www.acmewidgets.com/', page('Acme Widgets, LLC | Custom widgets')).name?.value, 'Acme Widgets, LLC');
  });

  it('names the business from a logo whose alt text describes the image', () => {
    const id = site('https://www.acmedentalcare.com/', `<html lang="en"><head><title>Home</title></head><body>
      <header><a href="/"><img src="/img/header.png" alt="Acme Dental - Home banner image"></a><img class="logo-alt" src="/img/logo-white.png" alt="logo-acme-dental-white"></header>
      <main><h1>Gentle dentistry</h1></main></body></html>`);
    assert.equal(id.name?.value, 'Acme Dental');
    assert.ok(!id.nameCandidates.some((c) => /banner|image|logo|white/i.test(c.value)), JSON.stringify(id.nameCandidates));
  });

  it('takes the main line over a fax, a sponsor’s number and a testimonial’s, and reads a vanity number', () => {
    const url = 'https://www.dayton-plumbing.com/';
    const page = extractPage(`<html lang="en"><head><title>Dayton Plumbing</title></head><body>
      <header><p>Call <span>(937)</span> <span>555</span>-<span>0142</span></p></header>
      <main><blockquote>"Fixed our boiler in an hour!" — Jane, Jane's Bakery, (937) 555-0199</blockquote>
      <div class="sponsor-box"><p>Bob's Tiles <a href="tel:9375550177">Call (937) 555-0177</a></p></div></main>
      <footer><p>1200 Wayne Ave, Dayton, OH 45410</p><p><i class="fa fa-fax"></i> (937) 555-0143</p><p>Toll-free 1-800-FLOWERS</p></footer></body></html>`, url);
    const id = identify(assembleMaterial([page], url));
    assert.equal(id.phone?.e164, '+19375550142');
    assert.ok(id.phone!.confidence >= 0.85, String(id.phone?.confidence));
    assert.ok(!id.phoneCandidates.includes('+19375550143'));
    assert.ok(page.contact.phones.some((p) => p.raw.replace(/\D/g, '') === '18003569377' && /toll-free/i.test(p.label)));
  });

  it('reads dotted and spaced numbers for the country of the domain, the address or the page language', () => {
    const phone = (url: string, footer: string, lang = 'en') => site(url, `<html lang="${lang}"><head><title>Home</title></head><body><main><h1>Welcome</h1></main><footer>${footer}</footer></body></html>`).phone;
    assert.equal(phone('https://www.acme.fr/', '<p>Tél 01 42 68 53 00</p>', 'fr')?.e164, '+33142685300');
    assert.equal(phone('https://www.acme.com/', '<p>12 Rue de Rivoli, 75001 Paris, France</p><p>Tél 01 42 68 53 00</p>')?.e164, '+33142685300');
    assert.equal(phone('https://www.acme.com/', '<p>Telefon 030 1234567</p>', 'de')?.e164, '+49301234567');
    assert.equal(phone('https://www.acme.com/', '<p>Phone 614.555.0142</p>')?.e164, '+16145550142');
    assert.equal(phone('https://www.acme.co.uk/', '<p>Tel 020 7946 0958</p>')?.e164, '+442079460958');
    assert.equal(phone('https://www.acme.com/', '<p>Tel +44.20.7946.0958</p>')?.display, '+44 20 7946 0958');
  });

  it('reads a national number by the page’s OpenGraph locale on a .com with no other country', () => {
    const id = site('https://www.scottishbuild.com/', `<html lang="en"><head><meta property="og:locale" content="en_GB"><title>News</title></head><body>
      <header><a href="tel:01382472315">01382 472315</a></header><main><h1>News</h1></main></body></html>`);
    assert.equal(id.phone?.e164, '+441382472315');
    assert.equal(id.country?.value, 'GB');
  });

  it('takes the line to call, not one linked for texts and WhatsApp', () => {
    const id = site('https://www.translate.example.com/', `<html lang="en"><head><title>Translations</title></head><body>
      <header><a href="tel:1-800-969-6853"><span>1-800-969-6853</span></a><a href="sms:1-202-933-8111"><span>Text: 1-202-933-8111</span></a><a href="https://wa.me/12029338111"><span>1-202-933-8111</span></a></header>
      <main><h1>Certified translation</h1></main><footer><address>477 Madison Avenue, 6th Floor, New York, New York 10022</address>
      <p><a href="tel:1-800-969-6853">1-800-969-6853</a></p><p><a href="https://wa.me/12029338111">1-202-933-8111</a></p></footer></body></html>`);
    assert.equal(id.phone?.e164, '+18009696853');
  });
});

describe('identify: a number written for the country of an address line (fresh set C)', () => {
  it('parses a national number for the country of an address without a town (a county and a UK postcode) when nothing else names one', () => {
    const html = '<html><body><main><h1>Digital agency</h1></main><footer><p>Unit 2 Riverside Court<br>Westfield Business Park<br>Lancashire<br>FY9 9ZZ</p><p>Tel: 0845 519 0000</p></footer></body></html>';
    const id = identify(assembleMaterial([extractPage(html, 'https://agency.example.com/')], 'https://agency.example.com/'));
    assert.equal(id.country?.value, 'GB');
    assert.equal(id.phone?.e164, '+448455190000');
  });
});

describe('identify: the numbers by the main address (fresh set D)', () => {
  it('takes the number written by the full address over one by the town and state alone in a tagline', () => {
    const html = `<html><body><header><p>Acme Homes Springfield, IL | Custom Home Builders</p><p>Call Us Today: (217) 555-0100</p></header>
      <main><h1>New homes</h1></main><footer><p>Acme Homes<br>12 Oak Drive<br>Springfield, IL 62701<br>Phone: (217) 555-0199</p></footer></body></html>`;
    const id = identify(assembleMaterial([extractPage(html, 'https://acmehomes.example.com/')], 'https://acmehomes.example.com/'));
    assert.equal(id.phone?.e164, '+12175550199');
  });
});

describe('identify: a page written for a town it serves (issue 40)', () => {
  it("does not take the page's town, named in its address, for the business's", () => {
    const html = `<html lang="en"><body><main><h1>Pest control in Detroit</h1><p>Acme Pest Control Services, Detroit, MI</p></main>
      <footer><p>Call (313) 555-0142</p></footer></body></html>`;
    const url = 'https://acme.example.com/service-area/detroit-mi';
    assert.equal(identify(assembleMaterial([extractPage(html, url)], 'https://acme.example.com/')).address, undefined);
    // the same mention on a page about something else is the business's town, weakly
    const other = 'https://acme.example.com/about';
    assert.equal(identify(assembleMaterial([extractPage(html, other)], 'https://acme.example.com/')).address?.city, 'Detroit');
  });
});

describe('identify: offices in the footer (issue 40)', () => {
  it('takes the first office when the other town is named again only alone, as a town served', () => {
    const html = `<html lang="en"><body><main><h1>Heating in Sunriver</h1><p>Areas we serve:</p><ul><li>Sunriver, Oregon</li><li>Bend, OR</li></ul></main>
      <footer><p>Redmond Office</p><p>2516 SW Glacier Pl, Redmond, OR 97756</p><p>Bend Office</p><p>840 SE Woodland Blvd Suite #135, Bend, OR 97702</p></footer></body></html>`;
    const id = identify(assembleMaterial([extractPage(html, 'https://heat.example.com/')], 'https://heat.example.com/'));
    assert.equal(id.address?.city, 'Redmond');
  });
});

describe('identify: an American legal form and an en-US page (issue 40)', () => {
  const country = (lang: string, holder: string) =>
    identify(assembleMaterial([extractPage(`<html lang="${lang}"><body><main><h1>Yoga</h1></main><footer><p>© 2025 ${holder}</p></footer></body></html>`, 'https://yoga.example.com/')], 'https://yoga.example.com/')).country;

  it('names the US from both together, held below the floor from either alone', () => {
    const both = country('en-US', 'Uplifted Yoga LLC');
    assert.equal(both?.value, 'US');
    assert.equal(both?.method, 'legal-form');
    assert.ok(both!.confidence >= 0.5);
    assert.ok(both!.confidence > country('en-US', 'Uplifted Yoga')!.confidence);
    assert.ok(country('en-US', 'Uplifted Yoga')!.confidence < 0.5);
    assert.ok(country('en', 'Uplifted Yoga LLC')!.confidence < 0.5);
  });
});

describe('identify: a shop pricing in the currency of its page language\'s country (issue 40)', () => {
  const country = (lang: string, offer: string) =>
    identify(assembleMaterial([extractPage(`<html lang="${lang}"><head><script type="application/ld+json">{"@type":"Product","name":"Elixir","offers":{"@type":"Offer","price":"15.00","priceCurrency":"${offer}"}}</script></head><body><main><h1>Elixir</h1></main></body></html>`, 'https://shop.example.com/')], 'https://shop.example.com/')).country;

  it('names the country from both together; the language alone, or another currency, stays below the floor', () => {
    const both = country('en-US', 'USD');
    assert.equal(both?.value, 'US');
    assert.ok(both!.confidence >= 0.5);
    assert.ok(country('en-US', 'EUR')!.confidence < 0.5);
    assert.ok(country('en-GB', 'USD')!.confidence < 0.5);
    assert.equal(country('en-GB', 'GBP')?.value, 'GB');
    assert.ok(country('en-GB', 'GBP')!.confidence >= 0.5);
  });
});

describe('assembleMaterial: structured data of another site (issue 40)', () => {
  it("sets aside the web agency's organisation (its url on another site), keeps the business's", () => {
    const graph = { '@context': 'https://schema.org', '@graph': [
      { '@type': 'ClothingStore', name: "Louie's Tux Shop", telephone: '(574) 291-0496', url: 'https://www.tux.example.com' },
      { '@type': 'ProfessionalService', name: 'JTnet', url: 'http://www.agency.example.net', telephone: '217-425-2588',
        address: { '@type': 'PostalAddress', streetAddress: '363 S. Main', addressLocality: 'Decatur', addressRegion: 'IL', postalCode: '62523', addressCountry: 'US' } },
    ] };
    const html = `<html><head><script type="application/ld+json">${JSON.stringify(graph)}</script></head><body><h1>Tuxedos</h1></body></html>`;
    const m = assembleMaterial([extractPage(html, 'https://shop.tux.example.com/shoes')], 'https://shop.tux.example.com/');
    assert.equal(m.org?.name, "Louie's Tux Shop");
    assert.equal(m.structuredAddress, undefined);
  });
});
