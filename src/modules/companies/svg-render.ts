import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AppError, invalid } from '../../platform/errors.js';

/**
 * SVG rasterisation with a CPU bound. A 1–2 KB SVG of nested <use> or stacked filters can cost
 * librsvg many seconds, so:
 * - features that multiply work with no place in a logo are refused before rendering (entity
 *   declarations, more than MAX_USE <use> references or MAX_FILTER_PRIMITIVES filter primitives);
 * - rendering runs in a child process killed after RENDER_TIMEOUT_MS;
 * - one render at a time, at most MAX_WAITING waiting: a burst of uploads is refused (503) rather
 *   than queued behind each other, so uploads can never starve the rest of the server.
 */
export const RENDER_TIMEOUT_MS = 4000;
const MAX_USE = 64;
const MAX_FILTER_PRIMITIVES = 8;
const MAX_WAITING = 2;
const worker = fileURLToPath(new URL('./svg-render.worker.mjs', import.meta.url));

export function refuseCostlySvg(svg: string): void {
  if (/<!ENTITY/i.test(svg)) throw invalid(['body', 'file'], 'SVG entity declarations are not accepted in a logo', undefined, 'value_error');
  const uses = svg.match(/<use[\s/>]/gi)?.length ?? 0;
  if (uses > MAX_USE) throw invalid(['body', 'file'], `The SVG has ${uses} <use> references; a logo may have at most ${MAX_USE}`, undefined, 'value_error');
  const filters = svg.match(/<fe[A-Z][A-Za-z]*[\s/>]/g)?.length ?? 0;
  if (filters > MAX_FILTER_PRIMITIVES) {
    throw invalid(['body', 'file'], `The SVG has ${filters} filter effects; a logo may have at most ${MAX_FILTER_PRIMITIVES}`, undefined, 'value_error');
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running > 0) {
    if (waiting.length >= MAX_WAITING) throw new AppError('unavailable', 'Too many logo images are being processed right now: try again in a few seconds', { headers: { 'retry-after': '5' } });
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

export async function renderSvg(input: Buffer, density: number, size: number, timeoutMs = RENDER_TIMEOUT_MS): Promise<Buffer> {
  refuseCostlySvg(input.toString('utf8'));
  const release = await slot();
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const child = spawn(process.execPath, [worker, String(density), String(size)], { stdio: ['pipe', 'pipe', 'ignore'] });
      const out: Buffer[] = [];
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (timedOut) reject(invalid(['body', 'file'], `The SVG takes too long to draw (over ${timeoutMs / 1000} s); simplify it or upload a PNG`, undefined, 'value_error'));
        else if (code !== 0) reject(invalid(['body', 'file'], 'The SVG image cannot be decoded', undefined, 'value_error'));
        else resolve(Buffer.concat(out));
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    });
  } finally {
    release();
  }
}
