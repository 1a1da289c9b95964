import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function loadStylesheet(): string {
  // Next to this file when run from src (tsx); from the build folder, back in src.
  for (const p of [path.join(here, 'site.css'), path.resolve(here, '../../../../src/modules/site/site.css')]) {
    if (fs.existsSync(p)) return fs.readFileSync(p, 'utf8');
  }
  throw new Error('site.css not found');
}

/** The one stylesheet of the public pages (and the sign-in pages), addressed by its content hash. */
export const SITE_CSS = loadStylesheet();
export const SITE_CSS_HASH = createHash('sha256').update(SITE_CSS).digest('hex').slice(0, 12);
export const SITE_CSS_HREF = `/assets/site.${SITE_CSS_HASH}.css`;
