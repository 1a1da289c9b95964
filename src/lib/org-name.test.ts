import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyrightName } from './extract-contact.js';
import { chooseName, corroborated, UNCORROBORATED_NAME, withoutTownTail } from './org-name.js';

const page = (names: { value: string; source: Parameters<typeof chooseName>[0][number]['names'][number]['source'] }[]) => [{ names, url: 'https://x.example/' }];

describe('chooseName: the business name from what real pages offer', () => {
  it('drops a "(Logo)" marker from logo alt text', () => {
    const n = chooseName(page([{ value: 'Anwalt Niemeyer (Logo)', source: 'logo-alt' }, { value: '(Logo) Anwalt Niemeyer', source: 'logo-alt' }]), 'anwaltniemeyer.de');
    assert.equal(n?.value, 'Anwalt Niemeyer');
  });

  it('takes the business after "by" when a magazine or product is named "X by Business"', () => {
    const n = chooseName(
      page([
        { value: 'Silkes Weinblatt by Silkes Weinkeller', source: 'jsonld' },
        { value: 'Silkes Weinblatt', source: 'og:site_name' },
        { value: 'Silkes Weinkeller GmbH', source: 'copyright' },
      ]),
      'silkes-weinkeller.de',
    );
    assert.equal(n?.value, 'Silkes Weinkeller');
  });
});

describe('chooseName: a site name with a tagline', () => {
  it('keeps the name before the bar in og:site_name', () => {
    const n = chooseName(page([{ value: 'Hommés Studio | Modern Interior Design', source: 'og:site_name' }, { value: 'Hommés Studio | Modern Interior Design', source: 'jsonld' }]), 'hommes.studio');
    assert.equal(n?.value, 'Hommés Studio');
  });
});

describe('chooseName: a name written with its acronym (issue 40)', () => {
  it('keeps the name without "HSS - " or " (HSS)" when the acronym is its initials, and counts a domain that is the acronym', () => {
    const before = chooseName(page([{ value: 'HSS - Hanns-Seidel-Stiftung e.V.', source: 'jsonld' }]), 'hss.de');
    assert.equal(before?.value, 'Hanns-Seidel-Stiftung e.V.');
    assert.ok(before!.confidence > UNCORROBORATED_NAME);
    assert.equal(chooseName(page([{ value: 'National Roofing Contractors Association (NRCA)', source: 'og:site_name' }]), 'nrca.net')?.value, 'National Roofing Contractors Association');
    // letters that are not the name's initials: a segment of its own, not an acronym
    assert.equal(chooseName(page([{ value: 'ABC - Smith Plumbing', source: 'jsonld' }]), 'smithplumbing.com')?.value, 'ABC - Smith Plumbing');
  });
});

describe('copyrightName: the holder in a copyright line', () => {
  it('stops at "all rights reserved" in other languages, and never takes the phrase itself for a holder', () => {
    assert.equal(copyrightName('© 2019 Студия Эдвин. Все права защищены'), 'Студия Эдвин');
    assert.equal(copyrightName('© 2020 Acme Srl Tutti i diritti riservati'), 'Acme Srl');
    assert.equal(copyrightName('© 2015 Все Права Защищены'), '');
    assert.equal(copyrightName('© 2015 Todos los derechos reservados'), '');
    assert.equal(copyrightName('© 2018 Small Rights Agency'), 'Small Rights Agency');
  });

  it('reads past a repeated mark and the year', () => {
    assert.equal(copyrightName('© Copyright 2021 Silkes Weinkeller GmbH. Alle Rechte vorbehalten.'), 'Silkes Weinkeller GmbH');
    assert.equal(copyrightName('Copyright © 2020 Agentur MARKE ICH'), 'Agentur MARKE ICH');
  });
});

describe('chooseName: image alt text that is not the name (issue 40)', () => {
  it('skips banner captions with a year, security images, badges and stock items', () => {
    const n = chooseName(
      page([
        { value: 'Acme Roofing™ Serving Dayton Since 1985', source: 'image-alt' },
        { value: 'Secure Site security image', source: 'image-alt' },
        { value: '2019 Honda Civic EX', source: 'image-alt' },
        { value: 'Equal Housing Lender', source: 'logo-alt' },
        { value: 'BBB Accredited Business', source: 'logo-alt' },
        { value: 'Acme Roofing', source: 'copyright' },
      ]),
      'acmeroofingdayton.com',
    );
    assert.equal(n?.value, 'Acme Roofing');
    assert.ok(!n?.candidates.some((c) => /security|Honda|Equal Housing|BBB|1985/.test(c.value)));
  });

  it('keeps a plain logo alt and drops its trademark sign', () => {
    assert.equal(chooseName(page([{ value: 'Model Remodel™', source: 'logo-alt' }]), 'modelremodel.com')?.value, 'Model Remodel');
  });
});

describe('copyrightName: marks, licensors and acronyms are not the holder (issue 40)', () => {
  it('cleans the holder', () => {
    assert.equal(copyrightName('Copyright © Model Remodel™ 2025 | Contractor License # MODELL*971P1'), 'Model Remodel');
    assert.equal(copyrightName('Copyright @ 2010-2025 Synrgys Solutions. All Rights Reserved.'), 'Synrgys Solutions');
    assert.equal(copyrightName('© 2024 The Auto Llama®'), 'The Auto Llama');
    assert.equal(copyrightName('© 2023 Acme Lending, Inc. and its licensors'), 'Acme Lending, Inc.');
    assert.equal(copyrightName('Copyright © 2026 Vascular Institute of Chattanooga (VIC). All Rights Reserved.'), 'Vascular Institute of Chattanooga');
  });
});

describe("chooseName: a site builder's default site name (session 14)", () => {
  it('prefers the name written on the page to a default site name never changed', () => {
    const n = chooseName(page([{ value: 'training-line-englishs Webseite!', source: 'og:site_name' }, { value: 'Training-Line English', source: 'domain-phrase' }]), 'trainingline-english.de');
    assert.equal(n?.value, 'Training-Line English');
  });

  it('keeps a site name that only ends in "Site" or "Homes"', () => {
    const n = chooseName(page([{ value: 'Campsite', source: 'og:site_name' }, { value: 'Campsite Ltd', source: 'copyright' }]), 'campsite.co.uk');
    assert.equal(n?.value, 'Campsite');
  });
});

describe("chooseName: the page's own interface words are no name (session 14)", () => {
  it('skips a menu button read as the heading', () => {
    const n = chooseName(page([{ value: 'Menu', source: 'brand' }, { value: 'ProjectorScreenStore.com', source: 'title' }]), 'projectorscreenstore.com');
    assert.equal(n?.value, 'ProjectorScreenStore.com');
  });

  it('keeps a name that only contains such a word', () => {
    const n = chooseName(page([{ value: 'Menu Design Studio', source: 'og:site_name' }]), 'menudesignstudio.com');
    assert.equal(n?.value, 'Menu Design Studio');
  });
});

describe('chooseName: a name nothing confirms is held, not published (issue 40, session 15)', () => {
  it('caps a name that neither spells the domain nor comes from a second source below the publish threshold', () => {
    const n = chooseName(page([{ value: 'Michael Mäser', source: 'logo-alt' }]), 'oetv.at');
    assert.equal(n?.value, 'Michael Mäser');
    assert.ok(n!.confidence <= UNCORROBORATED_NAME);
  });
  it('keeps a name that a second independent source gives', () => {
    const n = chooseName(page([{ value: 'Grüne Energie', source: 'logo-alt' }, { value: 'Grüne Energie', source: 'og:site_name' }]), 'orsted.de');
    assert.ok(n!.confidence > UNCORROBORATED_NAME);
  });
  it('keeps a name one of whose distinctive words is the domain', () => {
    assert.ok(corroborated('OnPath Credit Union', 'logo-alt', 'beonpath', 1));
    assert.ok(!corroborated('Volunteers', 'title', 'acme', 1));
    assert.ok(corroborated('Volunteers', 'title', 'acme', 2));
  });
});

describe('chooseName: logo alt text that describes the image (session 15)', () => {
  it('drops "logo icon" after the name', () => {
    assert.equal(chooseName(page([{ value: 'yeti logo icon', source: 'logo-alt' }]), 'yeti.co')?.value.toLowerCase(), 'yeti');
  });
  it('drops what is left of "Logo del Parco" / "Logo of the firm"', () => {
    const n = chooseName(page([{ value: 'Logo del Parco', source: 'logo-alt' }, { value: 'Logo of the firm', source: 'logo-alt' }]), 'parcoabruzzo.it');
    assert.ok(!n || !/^(del|of) /.test(n.value));
  });
});

describe('chooseName: real-page alt text, copyright holders and logo descriptions (issue 40, session 17)', () => {
  it('reads the name before a banner caption’s founding tail, and never a year, a stock car or a badge', () => {
    const n = chooseName(
      page([
        { value: 'Miller Auto Sales® — Since 1987', source: 'image-alt' },
        { value: '2019 Honda Civic LX', source: 'image-alt' },
        { value: 'Trek Domane SL 6 2023', source: 'image-alt' },
        { value: 'Member FDIC', source: 'image-alt' },
        { value: 'NMLS #12345', source: 'logo-alt' },
        { value: 'Secure site', source: 'image-alt' },
      ]),
      'millerautosales.com',
    );
    assert.equal(n?.value, 'Miller Auto Sales');
    assert.ok(!n?.candidates.some((c) => /\d|FDIC|NMLS|Secure|Honda|Trek/.test(c.value)), JSON.stringify(n?.candidates));
  });

  it('drops the words that describe a logo or banner image, a file-like alt included', () => {
    const name = (alt: string, domain: string) => chooseName(page([{ value: alt, source: 'logo-alt' }]), domain)?.value;
    assert.equal(name('Acme Dental header', 'acmedentalcare.com'), 'Acme Dental');
    assert.equal(name('Acme Dental banner image', 'acmedentalcare.com'), 'Acme Dental');
    assert.equal(name('acme-dental-logo', 'acmedentalcare.com'), 'Acme Dental');
    assert.equal(name('logo-acme', 'acme.com'), 'Acme');
    // a name that ends in a word for a picture keeps it; so does "Northern Light"
    assert.equal(name('Perfect Image', 'perfectimagesalon.com'), 'Perfect Image');
    assert.equal(name('Northern Light logo', 'northernlight.com'), 'Northern Light');
    const n = chooseName(page([{ value: 'Acme Dental - Home banner image', source: 'logo-alt' }, { value: 'Logo light', source: 'logo-alt' }]), 'acmedentalcare.com');
    assert.deepEqual(n?.candidates.filter((c) => c.source === 'logo-alt').map((c) => c.value), ['Acme Dental']);
  });

  it('shows a copyright holder’s legal form only when the site writes it in its own name elsewhere', () => {
    const holder = { value: 'Acme Widgets, LLC', source: 'copyright' as const };
    assert.equal(chooseName(page([holder]), 'acmewidgets.com')?.value, 'Acme Widgets');
    assert.equal(chooseName(page([holder, { value: 'Acme Widgets | Custom widgets', source: 'title' }]), 'acmewidgets.com')?.value, 'Acme Widgets');
    assert.equal(chooseName(page([holder, { value: 'Acme Widgets, LLC | Custom widgets', source: 'title' }]), 'acmewidgets.com')?.value, 'Acme Widgets, LLC');
    assert.equal(chooseName(page([{ value: 'Foo Bar Inc.', source: 'copyright' }]), 'foobar.com')?.value, 'Foo Bar');
  });

  it('drops a stray number another source writes the name without, and keeps one the site writes twice', () => {
    assert.equal(chooseName(page([{ value: 'Acme Widgets 2', source: 'copyright' }, { value: 'Acme Widgets', source: 'title' }]), 'widgets.example')?.value, 'Acme Widgets');
    assert.equal(chooseName(page([{ value: 'Ebene', source: 'title' }, { value: 'Ebene 11', source: 'logo-alt' }, { value: 'Ebene 11', source: 'domain-phrase' }]), 'ebene11.com')?.value, 'Ebene 11');
  });
});

describe('copyrightName: years, marks and separators around the holder (issue 40, session 17)', () => {
  it('keeps the holder whole and nothing else', () => {
    assert.equal(copyrightName('© 2014–2024 Acme Widgets, LLC and its licensors. All rights reserved.'), 'Acme Widgets, LLC');
    assert.equal(copyrightName('Copyright (c) 2019 Foo Bar Inc.'), 'Foo Bar Inc.');
    assert.equal(copyrightName('Copyright 2024 © Foo Bar'), 'Foo Bar');
    assert.equal(copyrightName('© 2014-24 Foo Bar'), 'Foo Bar');
    assert.equal(copyrightName('© 2014 — 2024 Foo Bar'), 'Foo Bar');
    assert.equal(copyrightName('© 2024 - Foo Bar'), 'Foo Bar');
    assert.equal(copyrightName('© Foo Bar 2014-2024'), 'Foo Bar');
    assert.equal(copyrightName('© Foo Bar, 2014-2024'), 'Foo Bar');
    assert.equal(copyrightName('© Foo Bar 2024. All rights reserved'), 'Foo Bar');
    assert.equal(copyrightName('© 2024 Foo Bar, a division of Baz Corp'), 'Foo Bar');
    assert.equal(copyrightName(': G. & L. Hoppe'), '');
    assert.equal(copyrightName('© 2024: G. & L. Hoppe'), 'G. & L. Hoppe');
  });

  it('reads no holder from a line whose next item is a link', () => {
    assert.equal(copyrightName('Copyright 2019 | Privacy Policy'), '');
  });
});

describe('chooseName: fresh set C (old small-business pages)', () => {
  it('skips alt text of badges, credentials, other firms\' logos and a form\'s captcha', () => {
    const n = chooseName(
      page([
        { value: 'Bar Council and Law Society logos', source: 'logo-alt' },
        { value: 'Security Code', source: 'image-alt' },
        { value: 'Certified Estate Planning Specialist*', source: 'logo-alt' },
        { value: 'Super Lawyers', source: 'logo-alt' },
        { value: 'Google', source: 'logo-alt' },
        { value: 'Roe Estate Law', source: 'copyright' },
      ]),
      'estateplanninglaw.example',
    );
    assert.equal(n?.value, 'Roe Estate Law');
    assert.ok(!n?.candidates.some((c) => /logos|Security|Certified|Super|Google/.test(c.value)), n?.candidates.map((c) => c.value).join(', '));
  });

  it('drops the page\'s own word run into the name when another source gives the name without it', () => {
    const n = chooseName(page([{ value: 'Contact Us Acme Tooling Supplies', source: 'title' }, { value: 'Acme Tooling Supplies Ltd', source: 'legal-line' }]), 'shop-ats.co.uk');
    assert.equal(n?.value, 'Acme Tooling Supplies');
    // "Contact Energy" alone is a name
    assert.equal(chooseName(page([{ value: 'Contact Energy', source: 'og:site_name' }]), 'contactenergy.example')?.value, 'Contact Energy');
  });

  it('does not count the comma before a legal form as a list', () => {
    const n = chooseName(page([{ value: 'Contact Data Systems Group, Inc.', source: 'title' }, { value: 'Data Systems Group, Inc.', source: 'legal-line' }]), 'dsgroup.example');
    assert.equal(n?.value, 'Data Systems Group, Inc.');
  });

  it('prefers a name to its web address in lower case as the copyright holder', () => {
    const n = chooseName(page([{ value: 'shop-ats.co.uk', source: 'copyright' }, { value: 'Acme Tooling Supplies Ltd', source: 'legal-line' }]), 'shop-ats.co.uk');
    assert.equal(n?.value, 'Acme Tooling Supplies');
  });

  it('reads the name before a title\'s one comma, before what the business does', () => {
    const n = chooseName(
      page([{ value: 'Law Offices of Jane Q. Roe, Wills and Estate Planning Attorney in Ohio', source: 'title' }, { value: 'Law Offices of Jane Q. Roe', source: 'logo-alt' }, { value: 'Jane Q. Roe', source: 'copyright' }]),
      'ohioestatelawyer.example',
    );
    assert.equal(n?.value, 'Law Offices of Jane Q. Roe');
  });

  it('shows the spelling most sources write when they differ only in spaces', () => {
    const n = chooseName(page([{ value: 'SmartBuilders', source: 'copyright' }, { value: 'Contact | Smart Builders', source: 'title' }, { value: 'Smart Builders', source: 'domain-phrase' }]), 'smartbuilders.example');
    assert.equal(n?.value, 'Smart Builders');
  });

  it('drops a town and its state or province written after the name', () => {
    assert.equal(withoutTownTail('Lakeside Realty Invermere BC'), 'Lakeside Realty');
    assert.equal(withoutTownTail('Acme Plumbing, Dayton, Ohio'), 'Acme Plumbing');
    assert.equal(withoutTownTail('Bank of Springfield IL'), 'Bank of Springfield IL');
    assert.equal(withoutTownTail('First Bank of Georgia'), 'First Bank of Georgia');
  });

  it('prefers the title\'s name that extends the words spelling the domain', () => {
    const n = chooseName(page([{ value: 'Prism Pump Products - Contact Us', source: 'title' }, { value: 'Prism Pump', source: 'domain-phrase' }]), 'prismpump.example');
    assert.equal(n?.value, 'Prism Pump Products');
  });
});

describe('copyrightName: the mark repeated is no holder (fresh set C)', () => {
  it('reads nothing from "©Copyright" alone', () => {
    assert.equal(copyrightName('©Copyright'), '');
    assert.equal(copyrightName('©Copyright 2009- 2012 Acme Ice Cream of Ohio'), 'Acme Ice Cream of Ohio');
  });
});

describe('chooseName: names in other scripts, and what names a page rather than the business', () => {
  it('reads a name written in Cyrillic and compares it with the domain in romanised letters', () => {
    const n = chooseName(
      page([
        { value: 'Музыкальные инструменты в магазине МузДом: гитары, клавишные, ударные', source: 'title' },
        { value: 'Интернет-магазин МУЗДОМ', source: 'logo-alt' },
        { value: 'МузДом.рф', source: 'copyright' },
        { value: 'МузДом', source: 'domain-phrase' },
      ]),
      'muzdom.ru',
    );
    assert.match(n?.value ?? '', /^МузДом(\.рф)?$/);
    assert.ok(corroborated('МузДом', 'title', 'muzdom', 1));
  });

  it('does not take a Latin name followed by a Cyrillic tagline for the same name as the Latin name alone', () => {
    const n = chooseName(
      [
        {
          names: [
            { value: 'Хозяйственные сумки | «S-Style» - Сумки и аксессуары оптом', source: 'title' },
            { value: 'S-Style. Сумки и аксессуары оптом', source: 'copyright' },
          ],
          url: 'http://www.sumka-style.ru/catalog/zhenskie-sumki/khozyaystvennye-sumki/',
        },
      ],
      'sumka-style.ru',
    );
    assert.notEqual(n?.value, 'S-Style. Сумки и аксессуары оптом');
    assert.notEqual(n?.value, 'Хозяйственные сумки');
  });

  it('scores down the title segment that spells the page\'s own address', () => {
    const n = chooseName(
      [
        { names: [{ value: 'Catering – Gasthof Adler', source: 'title' }], url: 'https://adler-wirt.example/catering/' },
        { names: [{ value: 'Catering | Gasthof Adler', source: 'title' }], url: 'https://adler-wirt.example/catering.html' },
      ],
      'adler-wirt.example',
    );
    assert.equal(n?.value, 'Gasthof Adler');
    // a malformed escape in the page's address is read as written, not an error
    assert.equal(chooseName([{ names: [{ value: 'Catering | Gasthof Adler', source: 'title' }], url: 'https://adler-wirt.example/%zz/catering%' }], 'adler-wirt.example')?.value, 'Gasthof Adler');
  });

  it('never takes a social link\'s alt text or a logo file\'s name for a name', () => {
    const n = chooseName(
      page([
        { value: 'Follow Us on Facebook', source: 'image-alt' },
        { value: '300dpi-triangle-logo-colour-option-7b', source: 'logo-alt' },
        { value: 'Burnaby Cariboo RV Park', source: 'title' },
      ]),
      'bcrvpark.com',
    );
    assert.equal(n?.value, 'Burnaby Cariboo RV Park');
    assert.ok(!n?.candidates.some((c) => /follow|300dpi/i.test(c.value)));
  });
});
