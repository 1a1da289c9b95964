import { html, raw, type SafeHtml } from '../../lib/html.js';
import { SITE_CSS_HREF, siteFooter, siteHeader } from '../../platform/page-shell.js';

// The header, footer and plain page are the shell the sign-in pages share (platform/page-shell.ts).
export { plainPage, siteFooter, siteHeader } from '../../platform/page-shell.js';

/** What every page's head says: title, description, canonical URL, robots, OpenGraph, alternates. */
export interface PageMeta {
  title: string;
  description: string;
  /** Absolute canonical URL (config.baseUrl + path, empty parameters dropped). */
  canonical: string;
  siteName: string;
  baseUrl: string;
  ogType?: 'website' | 'profile';
  ogImage?: string;
  robots?: string;
  /** <link rel="alternate"> entries: the JSON record, the discovery file. */
  alternates?: { type: string; href: string; title: string }[];
  jsonLd?: unknown[];
}

/** JSON inside <script type="application/ld+json">: `<` is escaped so no text can close the element. */
export function jsonLdScript(data: unknown): SafeHtml {
  return raw(`<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`);
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

export function layout(meta: PageMeta, body: SafeHtml): string {
  const title = cut(meta.title, 70);
  const description = cut(meta.description.replace(/\s+/g, ' ').trim(), 160);
  const image = meta.ogImage ?? `${meta.baseUrl}/.well-known/logo.svg`;
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="canonical" href="${meta.canonical}">
${meta.robots ? html`<meta name="robots" content="${meta.robots}">` : ''}
<meta property="og:site_name" content="${meta.siteName}">
<meta property="og:type" content="${meta.ogType ?? 'website'}">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${meta.canonical}">
<meta property="og:image" content="${image}">
<meta name="twitter:card" content="summary">
${(meta.alternates ?? []).map((a) => html`<link rel="alternate" type="${a.type}" href="${a.href}" title="${a.title}">\n`)}<link rel="stylesheet" href="${SITE_CSS_HREF}">
<link rel="icon" href="/.well-known/logo.svg" type="image/svg+xml">
${(meta.jsonLd ?? []).map(jsonLdScript)}
</head><body>
<a class="skip" href="#main">Skip to content</a>
${siteHeader(meta.siteName)}
<main id="main"><div class="wrap">${body}</div></main>
${siteFooter(meta.siteName)}
</body></html>`}`;
}
