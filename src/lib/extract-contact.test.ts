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

describe('extractContact: numbers as real pages mark them up (issue 40, session 17)', () => {
  const contact = (html: string) => extractContact(cheerio.load(html), 'https://x.example/', []);
  const texts = (html: string) => contact(html).phones.filter((p) => p.source === 'text');

  it('reads a number split over spans, and keeps two links side by side apart', () => {
    assert.deepEqual(texts('<footer><p>Call <span>(614)</span> <span>555</span>-<span>0142</span></p></footer>').map((p) => p.raw), ['(614) 555-0142']);
    const side = texts('<header><a href="tel:1-800-969-6853">1-800-969-6853</a><a href="sms:1-202-933-8111"><span>Text: 1-202-933-8111</span></a><a href="https://wa.me/12029338111">1-202-933-8111</a></header>');
    assert.deepEqual(side.map((p) => `${p.raw}=${p.label}`), ['1-800-969-6853=', '1-202-933-8111=Text:', '1-202-933-8111=']);
  });

  it('takes the number of a tel: link that shows only words', () => {
    assert.deepEqual(contact('<header><a href="tel:+16145550142">Call us</a></header>').phones.map((p) => `${p.raw}|${p.label}`), ['+16145550142|Call us']);
  });

  it('reads an icon font’s fax sign as the label of the number after it', () => {
    const phones = texts('<footer><p><i class="fa fa-fax" aria-hidden="true"></i> (614) 555-0143</p><p><i class="fa fa-phone"></i> (614) 555-0142</p></footer>');
    assert.deepEqual(phones.map((p) => `${p.raw}=${p.label}`), ['(614) 555-0143=Fax:', '(614) 555-0142=']);
  });

  it('marks numbers in a testimonial, a review or a sponsor’s block as another party’s', () => {
    const html = `<div class="has-promo-bar"><main><blockquote>"They fixed our boiler in an hour!" — Jane, Jane's Bakery, (614) 555-0199</blockquote>
      <div class="testimonial-slider"><p>Bob's Tiles <a href="tel:6145550177">614-555-0177</a></p></div><p>Call us: (614) 555-0142</p></main></div>`;
    assert.deepEqual(contact(html).phones.map((p) => `${p.raw.slice(-4)}:${p.quoted ?? false}`), ['0177:true', '0199:true', '0177:true', '0142:false']);
  });

  it('lists the numbers linked for messages and for calls', () => {
    const c = contact('<a href="tel:+18009696853">Call</a><a href="sms:1-202-933-8111">Text us</a><a href="https://wa.me/12029338111">WhatsApp</a>');
    assert.deepEqual(c.messaging, ['12029338111', '12029338111']);
    assert.deepEqual(c.calling, ['18009696853']);
  });

  it('takes the OpenGraph locale’s region when the html lang has none', () => {
    assert.equal(contact('<html lang="en"><head><meta property="og:locale" content="en_GB"></head><body></body></html>').locale, 'en-GB');
    assert.equal(contact('<html lang="en-US"><head><meta property="og:locale" content="en_GB"></head><body></body></html>').locale, 'en-US');
  });
});

describe('extractContact: the name as the page writes it (fresh set C)', () => {
  const names = (html: string, url: string) => extractContact(cheerio.load(html), url, []).names;

  it('finds the phrase spelling the domain with "&" for "and" or with the domain\'s ending', () => {
    assert.ok(names('<h1>B&T Surveyors</h1>', 'https://www.bandtsurveyors.co.uk/').some((n) => n.source === 'domain-phrase' && n.value === 'B&T Surveyors'));
    assert.ok(names('<p>Lamp Warehouse.com has been lighting homes since 1999.</p>', 'https://www.lampwarehouse.com/').some((n) => n.source === 'domain-phrase' && n.value === 'Lamp Warehouse'));
  });

  it('finds the phrase in Cyrillic that spells the domain in Latin letters', () => {
    assert.ok(names('<p>Гитары и клавишные в магазине МузДом с доставкой</p>', 'https://www.muzdom.ru/').some((n) => n.source === 'domain-phrase' && n.value === 'МузДом'));
  });

  it('reads the copyright holder from the line after one of marks and years alone', () => {
    const found = names('<footer><p>©Copyright</p><p>2009- 2012</p><p>Acme Ice Cream of Ohio</p></footer>', 'https://acme.example/');
    assert.deepEqual(found.filter((n) => n.source === 'copyright').map((n) => n.value), ['Acme Ice Cream of Ohio']);
  });
});

describe('extractContact: a footer without a footer element (fresh set G)', () => {
  it('reads a registration statement\'s country and a "made with love in" sentence from the last lines of a page', () => {
    const body = `${'<p>Recipe step.</p>'.repeat(30)}<div class="bottom"><p>Operated by ACME LIMITED, a company registered in England &amp; Wales (Company No. 11746352)</p><p>Made with ♥ in Leeds</p></div>`;
    const c = extractContact(cheerio.load(`<body>${body}</body>`), 'https://acme.example.com/', []);
    assert.equal(c.registeredIn, 'GB');
    assert.deepEqual(c.selfLines, ['Made with ♥ in Leeds']);
    // body text far above the end is an article's, not the site's
    const article = extractContact(cheerio.load(`<body><p>Beta Ltd is registered in Ireland.</p>${'<p>More text.</p>'.repeat(30)}</body>`), 'https://acme.example.com/', []);
    assert.equal(article.registeredIn, undefined);
  });
});

describe('extractContact: logo images (issue 40)', () => {
  const logos = (html: string) => extractContact(cheerio.load(html), 'https://x.example/', []).names.filter((n) => n.source === 'logo-alt').map((n) => n.value);

  it("reads a logo's alt text, not a picture of a studio's logo-design service", () => {
    assert.deepEqual(logos('<header><img src="/logo.svg" alt="Doodlo"></header><main><img src="/work2.webp" alt="Logo Design"></main>'), ['Doodlo']);
  });
});

describe('extractContact: microdata names only from an organisation\'s own item (issue 40)', () => {
  const microdata = (html: string) => extractContact(cheerio.load(html), 'https://x.example/', []).names.filter((n) => n.source === 'microdata').map((n) => n.value);

  it('skips breadcrumbs, posts and their authors, and reads an organisation\'s name from a meta', () => {
    const html = `
      <ol itemscope itemtype="https://schema.org/BreadcrumbList"><li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><span itemprop="name">Grüne Energie</span></li></ol>
      <article itemscope itemtype="http://schema.org/Article"><span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Jane Roe</span></span>
        <div itemprop="publisher" itemscope itemtype="https://schema.org/Organization">
          <div itemprop="logo" itemscope itemtype="https://schema.org/ImageObject"><meta itemprop="name" content="logo-bwe.jpg"></div>
          <meta itemprop="name" content="Bundesverband WindEnergie">
        </div>
      </article>`;
    assert.deepEqual(microdata(html), ['Bundesverband WindEnergie']);
  });

  it('never takes a nested item\'s name (the address\'s) for the organisation\'s', () => {
    const html = '<div itemscope itemtype="https://schema.org/LocalBusiness"><div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="name">Head office</span></div><h2 itemprop="name">Acme Plumbing</h2></div>';
    assert.deepEqual(microdata(html), ['Acme Plumbing']);
  });
});

describe('extractContact: the currencies a page prices in (issue 40)', () => {
  const currencies = (html: string) => extractContact(cheerio.load(html), 'https://x.example/', []).currencies;

  it('reads JSON-LD offers, microdata and a shop\'s price meta, each ISO code once, and nothing from prose', () => {
    assert.deepEqual(currencies('<script type="application/ld+json">{"offers":[{"priceCurrency":"USD"},{"priceCurrency": "USD"}]}</script>'), ['USD']);
    assert.deepEqual(currencies('<div itemscope itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="GBP"></div><meta property="product:price:currency" content="EUR">'), ['GBP', 'EUR']);
    assert.deepEqual(currencies('<p>Prices from USD 20 or $15.</p><meta property="og:price:currency" content="dollars">'), []);
  });
});
