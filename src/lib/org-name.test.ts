import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyrightName } from './extract-contact.js';
import { chooseName } from './org-name.js';

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
