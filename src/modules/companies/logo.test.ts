import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { AppError } from '../../platform/errors.js';
import { normaliseLogo, sniffImage } from './logo.js';

describe('logo content sniffing and normalisation', () => {
  const cases: [string, Buffer, string | undefined][] = [
    ['png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'png'],
    ['jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]), 'jpeg'],
    ['webp', Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'), 'webp'],
    ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'svg'],
    ['svg with BOM, declaration, comment and doctype', Buffer.from('\ufeff<?xml version="1.0"?>\n<!-- logo --><!DOCTYPE svg>\n<svg width="1" height="1"></svg>'), 'svg'],
    ['html', Buffer.from('<html><svg></svg></html>'), undefined],
    ['gif', Buffer.from('GIF89a', 'latin1'), undefined],
    ['text', Buffer.from('hello'), undefined],
    ['empty', Buffer.alloc(0), undefined],
  ];
  for (const [name, buf, expected] of cases) {
    it(`detects ${name}`, () => assert.equal(sniffImage(buf), expected));
  }

  it('keeps the aspect ratio and never enlarges a raster', async () => {
    const small = await sharp({ create: { width: 30, height: 60, channels: 3, background: '#123456' } }).png().toBuffer();
    const out = await normaliseLogo(small);
    assert.deepEqual([out.width, out.height, out.contentType], [30, 60, 'image/png']);
  });

  it('rasterises an SVG to a PNG of 512 px', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" fill="#1f5eff"/></svg>');
    // A generous render budget: this checks the result, not the limit (svg-render.test.ts does).
    const out = await normaliseLogo(svg, { cpuMs: 10 * 60_000, wallMs: 30 * 60_000 });
    assert.deepEqual([out.width, out.height, out.contentType, out.originalFormat], [512, 512, 'image/png', 'svg']);
  });

  it('refuses a body that claims PNG but is not one', async () => {
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really')]);
    await assert.rejects(normaliseLogo(fake), (e: unknown) => e instanceof AppError && e.status === 422);
  });
});
