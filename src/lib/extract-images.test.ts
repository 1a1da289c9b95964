import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as cheerio from 'cheerio';
import { readImages } from './extract-images.js';

const page = (body: string, head = '') => cheerio.load(`<html><head>${head}</head><body>${body}</body></html>`);

describe('readImages: pictures of the business a page shows, offered for the gallery', () => {
  it('keeps the share image and content photos with their captions, as absolute URLs', () => {
    const $ = page(
      `<main><figure><img src="/img/kitchen-refit.jpg" width="1200" height="800" alt="kitchen"><figcaption>A kitchen we refitted in Leeds</figcaption></figure>
       <img data-src="team.webp" alt="Our team on site"></main>`,
      '<meta property="og:image" content="https://cdn.example.com/share.jpg"><meta property="og:image:alt" content="The workshop">',
    );
    assert.deepEqual(readImages($, 'https://build.example/about/'), [
      { url: 'https://cdn.example.com/share.jpg', caption: 'The workshop' },
      { url: 'https://build.example/img/kitchen-refit.jpg', caption: 'A kitchen we refitted in Leeds' },
      { url: 'https://build.example/about/team.webp', caption: 'Our team on site' },
    ]);
  });

  it('leaves out logos, icons, badges, small pictures, SVG and GIF files, data URIs and what sits in the header or footer', () => {
    const $ = page(`<header><img src="/hero-header.jpg" width="1600"></header>
      <main><img src="/logo.png" width="800"><img src="/a.jpg" alt="Company logo" width="900"><img src="/thumb.jpg" width="120" height="90">
      <img src="/drawing.svg"><img src="/anim.gif"><img src="data:image/png;base64,AAAA"><img src="/icons/phone.png"><img src="/trustpilot-badge.png"></main>
      <footer><img src="/office.jpg" width="900"></footer>`);
    assert.deepEqual(readImages($, 'https://build.example/'), []);
  });

  it('gives at most eight per page, each once', () => {
    const imgs = Array.from({ length: 12 }, (_, i) => `<img src="/p${i % 10}.jpg">`).join('');
    const found = readImages(page(`<main>${imgs}</main>`), 'https://build.example/');
    assert.equal(found.length, 8);
    assert.equal(new Set(found.map((f) => f.url)).size, 8);
  });
});
