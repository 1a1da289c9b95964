import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { projectPath } from '../../platform/paths.js';

/**
 * Serves the dashboard (web/, a Vite + React SPA) from its build folder:
 * - /app/assets/* — content-hashed files, cached for good (immutable); unknown names are 404, never the SPA;
 * - /app, /app/*, /admin, /admin/* — index.html, never cached, so a new build is picked up at once.
 * Nothing here answers under /api. Paths that leave the assets folder (.., encoded or not) are 404.
 * When the build is missing (web/ not built), the pages say how to build it (503).
 */
export interface WebRoutesOptions {
  /** The Vite build output; web/dist of this checkout by default. */
  distDir?: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
const IMMUTABLE = 'public, max-age=31536000, immutable';

export const WEB_DIST = projectPath('web', 'dist');

export async function webRoutes(app: FastifyInstance, { distDir = WEB_DIST }: WebRoutesOptions): Promise<void> {
  const root = resolve(distDir);
  const assets = join(root, 'assets');

  const notFound = (url: string) => new AppError('not_found', `Not found: GET ${url.split('?')[0]}`);

  async function sendIndex(reply: FastifyReply) {
    reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
    let index: Buffer;
    try {
      // Read on every request (a small file, from the OS cache): a rebuild is served at once, never an
      // index naming assets an earlier build had and the new one removed.
      index = await readFile(join(root, 'index.html'));
    } catch {
      return reply.status(503).type('text/plain; charset=utf-8').send('The dashboard is not built: run `npm run build --prefix web` (npm install does it).\n');
    }
    return reply.type('text/html; charset=utf-8').send(index);
  }

  app.get('/app/assets/*', { schema: { hide: true } }, async (req, reply) => {
    const rel = (req.params as { '*': string })['*'];
    const file = resolve(assets, rel);
    if (!rel || rel.includes('\0') || !file.startsWith(assets + sep)) throw notFound(req.url);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw notFound(req.url);
    return reply
      .header('cache-control', IMMUTABLE)
      .type(TYPES[extname(file)] ?? 'application/octet-stream')
      .send(await readFile(file));
  });

  for (const base of ['/app', '/admin']) {
    app.get(base, { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
    app.get(`${base}/*`, { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
  }
}
