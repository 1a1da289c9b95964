import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AppError, invalid } from '../../platform/errors.js';

/**
 * SVG rasterisation with a CPU bound. A 1–2 KB SVG of nested <use> or stacked filters can cost
 * librsvg many seconds, so:
 * - features that multiply work with no place in a logo are refused before rendering (entity
 *   declarations, more than MAX_USE <use> references or MAX_FILTER_PRIMITIVES filter primitives);
 * - rendering runs in a child process that is ended once it has used RENDER_CPU_MS of CPU time
 *   (counted by the child itself, svg-render.worker.mjs): what a render costs the server, which a
 *   busy machine does not change, where time on the clock would refuse ordinary logos under load;
 *   a child still running after RENDER_WALL_MS on the clock is stuck, not slow, and killed;
 * - one render at a time, at most MAX_WAITING waiting: a burst of uploads is refused (503) rather
 *   than queued behind each other, so uploads can never starve the rest of the server.
 */
export const RENDER_CPU_MS = 4000;
export const RENDER_WALL_MS = 120_000;
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

/** Bounds of one render; callers other than the upload route (tests) may pass their own. */
export interface SvgRenderLimits {
  /** CPU time the child may use, all its threads together. */
  cpuMs?: number;
  /** Time on the clock after which a child that has not finished is killed (a backstop for a stuck one). */
  wallMs?: number;
}

export async function renderSvg(input: Buffer, density: number, size: number, limits: SvgRenderLimits = {}): Promise<Buffer> {
  const { cpuMs = RENDER_CPU_MS, wallMs = RENDER_WALL_MS } = limits;
  refuseCostlySvg(input.toString('utf8'));
  const release = await slot();
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const child = spawn(process.execPath, [worker, String(density), String(size), String(cpuMs)], { stdio: ['pipe', 'pipe', 'ignore'] });
      const out: Buffer[] = [];
      const timer = setTimeout(() => child.kill('SIGKILL'), wallMs);
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        // SIGKILL: the child over its CPU budget (it kills itself) or stuck past the backstop.
        if (signal === 'SIGKILL') reject(invalid(['body', 'file'], `The SVG takes too long to draw (over ${cpuMs / 1000} s of processing); simplify it or upload a PNG`, undefined, 'value_error'));
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
