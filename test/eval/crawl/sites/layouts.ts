/**
 * Page shells in the styles small-business sites are built with: a WordPress theme, a site
 * builder's nested divs, an old table layout, a one-page Bootstrap template, a shop platform.
 * The evaluation sites (sites-*.ts) fill them with their own header, content and footer.
 */
export interface Doc {
  title: string;
  head?: string;
  body: string;
  lang?: string;
}

export function doc(d: Doc): string {
  return `<!DOCTYPE html><html lang="${d.lang ?? 'en-US'}"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${d.title}</title>${d.head ?? ''}<link rel="stylesheet" href="/wp-content/themes/theme/style.css"></head><body class="home page-template-default">${d.body}<script src="/wp-includes/js/jquery/jquery.min.js"></script></body></html>`;
}

export const ld = (o: unknown): string => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;
export const meta = (name: string, content: string): string => `<meta name="${name}" content="${content}">`;
export const og = (prop: string, content: string): string => `<meta property="og:${prop}" content="${content}">`;

/** WordPress theme: masthead with a logo image, primary menu, content, widget footer. */
export function wp(o: { logoAlt: string; logoSrc?: string; topbar?: string; main: string; footer: string; menu?: string[] }): string {
  const menu = (o.menu ?? ['Home', 'About Us', 'Services', 'Gallery', 'Contact Us']).map((m) => `<li class="menu-item"><a href="/${m === 'Home' ? '' : m.toLowerCase().replace(/\s+/g, '-')}">${m}</a></li>`).join('');
  return `${o.topbar ? `<div class="top-bar"><div class="container">${o.topbar}</div></div>` : ''}<header id="masthead" class="site-header"><div class="site-branding"><a href="/" rel="home"><img src="${o.logoSrc ?? '/wp-content/uploads/2021/03/logo.png'}" class="custom-logo" alt="${o.logoAlt}" width="240" height="80"></a></div><nav id="site-navigation" class="main-navigation"><ul id="primary-menu">${menu}</ul></nav></header><div id="content" class="site-content"><main id="main" class="site-main">${o.main}</main></div><footer id="colophon" class="site-footer"><div class="footer-widgets">${o.footer}</div></footer>`;
}

/** Site builder markup: nested divs and spans, no semantic elements at all. */
export function builder(o: { header: string; main: string; footer: string }): string {
  return `<div id="SITE_CONTAINER"><div id="SITE_HEADER" class="comp-header"><div class="comp-1"><div class="txtNew">${o.header}</div></div></div><div id="PAGES_CONTAINER"><div class="comp-section">${o.main}</div></div><div id="SITE_FOOTER" class="comp-footer"><div class="txtNew">${o.footer}</div></div></div>`;
}

/** An early-2000s table layout with font tags. */
export function table(o: { top: string; left?: string; main: string; bottom: string }): string {
  return `<table width="780" border="0" align="center" cellpadding="0" cellspacing="0" bgcolor="#FFFFFF"><tr><td colspan="2">${o.top}</td></tr><tr>${o.left ? `<td width="180" valign="top" bgcolor="#003366"><font face="Arial" size="2" color="#FFFFFF">${o.left}</font></td>` : ''}<td valign="top"><font face="Verdana, Arial" size="2">${o.main}</font></td></tr><tr><td colspan="2" align="center"><font face="Arial" size="1">${o.bottom}</font></td></tr></table>`;
}

/** One-page Bootstrap template: navbar, hero, sections, contact section, footer. */
export function onepage(o: { brand: string; hero: string; sections: string; contact: string; footer: string }): string {
  return `<nav class="navbar navbar-expand-lg fixed-top"><div class="container"><a class="navbar-brand" href="#page-top">${o.brand}</a><ul class="navbar-nav"><li><a href="#services">Services</a></li><li><a href="#about">About</a></li><li><a href="#contact">Contact</a></li></ul></div></nav><header class="masthead"><div class="container">${o.hero}</div></header>${o.sections}<section id="contact" class="page-section"><div class="container">${o.contact}</div></section><footer class="footer py-4"><div class="container">${o.footer}</div></footer>`;
}

/** A hosted shop theme: announcement bar, header, product grid, footer blocks. */
export function shop(o: { announcement?: string; logo: string; main: string; footer: string }): string {
  return `${o.announcement ? `<div class="announcement-bar"><p>${o.announcement}</p></div>` : ''}<div class="header-wrapper"><header class="header"><h1 class="header__heading"><a href="/" class="header__heading-link">${o.logo}</a></h1><nav class="header__inline-menu"><a href="/collections/all">Shop</a> <a href="/pages/about">About</a> <a href="/pages/contact">Contact</a></nav></header></div><main id="MainContent" class="content-for-layout">${o.main}</main><footer class="footer"><div class="footer__content-top">${o.footer}</div></footer>`;
}
