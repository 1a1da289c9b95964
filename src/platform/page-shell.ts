import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { html, type SafeHtml } from '../lib/html.js';

/**
 * The shell every server-rendered page for people shares: the stylesheet, the header and footer,
 * and a plain page in that look. Here rather than in the site module because the sign-in pages
 * (auth) use it too, and modules do not borrow each other's layouts.
 */
const here = path.dirname(fileURLToPath(import.meta.url));

/** Next to this file (the build copies it beside the compiled module). */
function loadStylesheet(): string {
  return fs.readFileSync(path.join(here, 'site.css'), 'utf8');
}

/** The one stylesheet of the public pages (and the sign-in pages), addressed by its content hash. */
export const SITE_CSS = loadStylesheet();
export const SITE_CSS_HASH = createHash('sha256').update(SITE_CSS).digest('hex').slice(0, 12);
export const SITE_CSS_HREF = `/assets/site.${SITE_CSS_HASH}.css`;

export function siteHeader(siteName: string): SafeHtml {
  return html`<header class="site"><div class="wrap"><a class="brand" href="/">${siteName}</a>
<nav aria-label="Main"><ul><li><a href="/search">Search</a></li><li><a href="/categories">Categories</a></li><li><a href="/for-owners">For owners</a></li><li><a href="/for-agent-developers">For agent developers</a></li><li><a href="/app/">Sign in</a></li></ul></nav></div></header>`;
}

export function siteFooter(siteName: string): SafeHtml {
  return html`<footer class="site"><div class="wrap"><ul><li><a href="/for-owners">Claim your company</a></li><li><a href="/for-agent-developers">API and MCP for agents</a></li><li><a href="/sitemap.xml">Sitemap</a></li><li><a href="/docs">API reference</a></li><li><a href="/admin/">Administration</a></li></ul>
<p>${siteName}: a business directory for people and AI agents. Profiles are written by the companies themselves or read from their websites.</p></div></footer>`;
}

/** A plain page in the site's look without the crawler head (sign-in pages, errors): noindex. */
export function plainPage(opts: { title: string; siteName: string; body: SafeHtml; referrer?: 'no-referrer' }): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">${opts.referrer ? html`<meta name="referrer" content="${opts.referrer}">` : ''}<title>${opts.title}</title>
<link rel="stylesheet" href="${SITE_CSS_HREF}"></head><body>
<a class="skip" href="#main">Skip to content</a>
${siteHeader(opts.siteName)}
<main id="main"><div class="wrap narrow">${opts.body}</div></main>
${siteFooter(opts.siteName)}
</body></html>`}`;
}
