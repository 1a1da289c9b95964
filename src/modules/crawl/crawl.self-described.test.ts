import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPage } from '../../lib/extract.js';
import { flatEmbeddings } from '../../../test/eval/crawl/harness.js';
import { createAnalyser } from './crawl.analyse.js';
import { holdBelowThreshold } from './crawl.held.js';
import { assembleMaterial } from './crawl.material.js';
import { PUBLISH_THRESHOLD } from './crawl.types.js';

/**
 * A site without a postal address, whose title, descriptions or copyright line give the business's town (issue 40):
 * the town is read as the last resort, held for the owner unless two kinds of text agree.
 */
const analyse = (url: string, pages: Record<string, string>) => {
  const origin = new URL(url).origin;
  const extracted = Object.entries(pages).map(([path, html]) => extractPage(html, `${origin}${path}`));
  return createAnalyser({ embeddings: flatEmbeddings }).analyse(assembleMaterial(extracted, url));
};
const page = (head: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
const held = (p: Awaited<ReturnType<typeof analyse>>) =>
  holdBelowThreshold({ name: p.name, website_url: 'https://ambuja.example.com', category: p.category, city: p.city, country: p.country, address: p.address, phone: p.phone }, p, 'ambuja.example.com');
const YOGA_BODY = '<main><h1>Ambuja Yoga</h1><p>Breath-led yoga for every body, taught one to one or in small groups. Call (910) 782-0173 to book a first lesson.</p></main><footer>© 2025 Ambuja Yoga</footer>';

describe('crawl: the town a site without an address gives as its own (issue 40)', () => {
  it('reads the title’s "Private Yoga in Wilmington, NC" and holds it for the owner', async () => {
    const p = await analyse('https://ambuja.example.com/', { '/': page('<title>Ambuja Yoga | Private Yoga in Wilmington, NC</title>', YOGA_BODY) });
    assert.equal(p.city, 'Wilmington');
    assert.equal(p.country, 'United States');
    assert.equal(p.address, '');
    assert.equal(p.provenance.city?.method, 'self-described');
    assert.ok(p.provenance.city!.confidence < PUBLISH_THRESHOLD.city, `${p.provenance.city!.confidence}`);
    const { input, held: waiting } = held(p);
    assert.equal(input.city, '');
    assert.deepEqual(waiting.map((h) => [h.field, h.value, h.method]), [['city', 'Wilmington', 'self-described']]);
  });

  it('publishes the town when the title and the meta description agree', async () => {
    const head = '<title>Ambuja Yoga | Private Yoga in Wilmington, NC</title><meta name="description" content="Private and small-group yoga classes in Wilmington, North Carolina.">';
    const p = await analyse('https://ambuja.example.com/', { '/': page(head, YOGA_BODY) });
    assert.equal(p.city, 'Wilmington');
    assert.ok(p.provenance.city!.confidence >= PUBLISH_THRESHOLD.city, `${p.provenance.city!.confidence}`);
    assert.equal(held(p).input.city, 'Wilmington');
  });

  it('reads only the site’s own words on another page: not the subject of a post', async () => {
    const p = await analyse('https://ambuja.example.com/', {
      '/blog/retreats/': page('<title>Our favourite retreats in Asheville, NC | Ambuja Yoga</title>', YOGA_BODY),
    });
    assert.equal(p.city, '');
    assert.equal(p.country, 'United States', 'the phone still gives the country');
  });

  it('reads a footer sentence saying where the business is based, and holds it', async () => {
    const body = '<main><h1>Acme Soccer Shop</h1><p>Jerseys, boots and balls. Call (919) 555-0142.</p></main>'
      + '<footer><p>Acme Soccer Shop is a family business based in Hillsborough, North Carolina. We ship worldwide.</p><p>© 2025 Acme Soccer Shop</p></footer>';
    const p = await analyse('https://acme-soccer.example.com/', { '/': page('<title>Acme Soccer Shop</title>', body) });
    assert.equal(p.city, 'Hillsborough');
    assert.equal(p.country, 'United States');
    assert.equal(p.provenance.city?.method, 'self-described');
    assert.ok(p.provenance.city!.confidence < PUBLISH_THRESHOLD.city, 'one kind of text: held for the owner');
  });

  it('does not take the web designer’s town from a footer credit, nor a sentence of the page’s body', async () => {
    const credit = '<footer><p>Website designed by Pixel Studio, a web agency based in Raleigh, NC.</p><p>© 2025 Acme Soccer Shop</p></footer>';
    const story = '<main><h1>Acme Soccer Shop</h1><p>Call (919) 555-0142.</p><article><p>Our supplier is based in Charlotte, North Carolina.</p></article></main>';
    for (const body of [`<main><h1>Acme Soccer Shop</h1><p>Call (919) 555-0142.</p></main>${credit}`, `${story}<footer><p>© 2025 Acme Soccer Shop</p></footer>`]) {
      const p = await analyse('https://acme-soccer.example.com/', { '/about/': page('<title>About | Acme Soccer Shop</title>', body) });
      assert.equal(p.city, '', body);
    }
  });

  it('gives no town for the places a business serves', async () => {
    const head = '<title>House Cleaning | Acme Maids</title><meta name="description" content="Serving Raleigh, NC and surrounding areas since 2004.">';
    const p = await analyse('https://acme-maids.example.com/', { '/': page(head, '<main><h1>Acme Maids</h1><p>Call (919) 555-0142.</p></main>') });
    assert.equal(p.city, '');
  });

  it('leaves a town read from an address alone', async () => {
    const body = '<main><h1>Ambuja Yoga</h1></main><footer><p>Ambuja Yoga, 120 Main St, Durham, NC 27701 · (910) 782-0173</p></footer>';
    const p = await analyse('https://ambuja.example.com/', { '/': page('<title>Ambuja Yoga | Private Yoga in Wilmington, NC</title>', body) });
    assert.equal(p.city, 'Durham');
    assert.notEqual(p.provenance.city?.method, 'self-described');
  });

  it('fills an empty country from "based in <Town>, <Country>"', async () => {
    const body = '<main><h1>Nordlicht Software</h1><p>Nordlicht is a small software studio based in Hamburg, Germany, building tools for bakeries.</p></main>';
    const p = await analyse('https://nordlicht.example.com/', { '/': page('<title>Nordlicht Software</title>', body) });
    assert.equal(p.city, 'Hamburg');
    assert.equal(p.country, 'Germany');
    assert.equal(p.provenance.country?.method, 'self-described');
    assert.ok(p.provenance.country!.confidence >= PUBLISH_THRESHOLD.country);
    assert.ok(p.provenance.city!.confidence < PUBLISH_THRESHOLD.city);
  });
});
