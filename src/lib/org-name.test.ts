import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyrightName } from './extract-contact.js';
import { chooseName, corroborated, UNCORROBORATED_NAME } from './org-name.js';

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

describe('copyrightName: the holder in a copyright line', () => {
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
