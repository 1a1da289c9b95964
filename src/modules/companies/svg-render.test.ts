import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../platform/errors.js';
import { refuseCostlySvg, renderSvg } from './svg-render.js';

// Issue 11 finding 3: an SVG logo can never cost the server more than a bounded time.
const nestedUse = (levels: number, fanOut: number) => {
  let defs = '<g id="l0"><rect width="1" height="1" fill="red"/></g>';
  for (let l = 1; l <= levels; l++) defs += `<g id="l${l}">${Array.from({ length: fanOut }, (_, i) => `<use href="#l${l - 1}" x="${i}"/>`).join('')}</g>`;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><defs>${defs}</defs><use href="#l${levels}"/></svg>`);
};

describe('bounded SVG rendering', () => {
  it('refuses entity declarations and features that multiply work', () => {
    const is422 = (e: unknown) => e instanceof AppError && e.status === 422;
    assert.throws(() => refuseCostlySvg('<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>'), is422);
    assert.throws(() => refuseCostlySvg(nestedUse(10, 10).toString()), is422);
    assert.throws(() => refuseCostlySvg(`<svg><filter>${'<feGaussianBlur stdDeviation="9"/>'.repeat(12)}</filter></svg>`), is422);
    refuseCostlySvg('<svg><use href="#a"/><filter><feGaussianBlur/></filter></svg>');
  });

  // The limit is CPU time, which a busy machine does not change: these hold however loaded it is.
  it('stops a render that uses more than its CPU budget', async () => {
    // This SVG costs librsvg about ten seconds of CPU; a 1 s budget can never be enough. The clock's
    // backstop is out of reach, so only the CPU budget can have stopped it.
    await assert.rejects(
      renderSvg(nestedUse(7, 8), 72, 512, { cpuMs: 1000, wallMs: 30 * 60_000 }),
      (e: unknown) => e instanceof AppError && e.status === 422 && /too long/.test(e.message),
    );
  });

  it('kills a render still running when the clock backstop passes', async () => {
    await assert.rejects(
      renderSvg(nestedUse(7, 8), 72, 512, { cpuMs: 60 * 60_000, wallMs: 1 }),
      (e: unknown) => e instanceof AppError && e.status === 422 && /too long/.test(e.message),
    );
  });

  it('renders an ordinary SVG logo to PNG', async () => {
    // A generous budget: this checks the drawing, not the limit (an ordinary logo costs a fraction of a second).
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="10" fill="#1f5eff"/></svg>');
    const png = await renderSvg(svg, 1536, 512, { cpuMs: 10 * 60_000, wallMs: 30 * 60_000 });
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  });
});
