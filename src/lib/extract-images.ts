import type { CheerioAPI } from 'cheerio';

/** A picture a page shows of the business (its work, premises, team), offered to the owner for the gallery. */
export interface PageImage {
  url: string;
  /** The page's own words for it (alt text or figure caption), plain, at most 200 characters. */
  caption: string;
}

/** Below this many pixels on the longer side (when the page states the size) a picture is an icon or a thumbnail. */
const MIN_SIDE_PX = 400;
const NOT_A_PHOTO = /logo|icon|sprite|badge|banner-ad|avatar|favicon|pixel|spacer|placeholder|loading|rating|star|payment|visa|mastercard|paypal|flag|arrow|button|qr|map|captcha|seal|award|certif/i;
const PHOTO_FILE = /\.(jpe?g|webp|png)(\?|$)/i;

const plain = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 200);

/**
 * The pictures a page shows in its content: its share image (og:image) and <img> elements outside the
 * header, navigation and footer that are JPEG, WebP or PNG files, not logos, icons, badges or tracking
 * pixels, and not stated smaller than 400 px. Read before the boilerplate is removed; at most 8 per page.
 */
export function readImages($: CheerioAPI, pageUrl: string): PageImage[] {
  const out = new Map<string, PageImage>();
  const add = (src: string | undefined, caption: string) => {
    if (!src || src.startsWith('data:')) return;
    let url: URL;
    try {
      url = new URL(src, pageUrl);
    } catch {
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return;
    url.hash = '';
    if (!PHOTO_FILE.test(url.pathname) || NOT_A_PHOTO.test(url.pathname) || out.has(url.href)) return;
    out.set(url.href, { url: url.href, caption: plain(caption) });
  };
  const og = $('meta[property="og:image"]').first().attr('content');
  if (og) add(og, $('meta[property="og:image:alt"]').first().attr('content') ?? '');
  $('img').each((_, el) => {
    const img = $(el);
    if (img.closest('header, nav, footer, [role=banner], [role=navigation], [role=contentinfo], a[href*="logo"]').length) return;
    const sig = `${img.attr('alt') ?? ''} ${img.attr('class') ?? ''} ${img.attr('id') ?? ''}`;
    if (NOT_A_PHOTO.test(sig)) return;
    const width = Number(img.attr('width'));
    const height = Number(img.attr('height'));
    if ((width > 0 || height > 0) && Math.max(width || 0, height || 0) < MIN_SIDE_PX) return;
    const srcset = (img.attr('srcset') ?? '').split(',').map((s) => s.trim().split(/\s+/)[0]).filter(Boolean);
    const src = img.attr('src') ?? img.attr('data-src') ?? srcset[srcset.length - 1];
    const figcaption = img.closest('figure').find('figcaption').first().text();
    add(src, figcaption || img.attr('alt') || '');
  });
  return [...out.values()].slice(0, 8);
}
