import { readImages, type PageImage } from './extract-images.js';
import * as cheerio from 'cheerio';
import { extractContact, type ContactEvidence } from './extract-contact.js';
import { hoursFromText } from './extract-hours.js';
import { priceRangeFromText, servicePricesFromText, type RawPrice, type RawServicePrice } from './extract-price.js';
import type { OpeningHours } from './opening-hours.js';
import { jsonLdOrgs, microdataAddress, type StructuredAddress, type StructuredOrg } from './extract-jsonld.js';
import { toPlainLine, toPlainText } from './text.js';

/**
 * What one HTML page says about the company that publishes it, as plain text: schema.org
 * JSON-LD (and microdata addresses), OpenGraph/meta, the readable main text with navigation,
 * footers, scripts and cookie banners removed, emails, phone numbers, postal addresses, social
 * links and same-page links for the crawler. Pure: no network, no clock.
 */
export type { StructuredAddress, StructuredOrg } from './extract-jsonld.js';

export interface PageLink {
  url: string;
  text: string;
}

export interface ExtractedPage {
  url: string;
  title: string;
  lang: string;
  metaDescription: string;
  metaKeywords: string[];
  og: { title: string; description: string; siteName: string; image: string; locale: string };
  orgs: StructuredOrg[];
  /** Microdata / <address> blocks / address-like lines found in the visible page. */
  addresses: string[];
  microdataAddress: StructuredAddress | undefined;
  headings: string[];
  /** Readable main text (plain, lines separated by \n). */
  text: string;
  /** First substantial paragraphs of the main text. */
  paragraphs: string[];
  listItems: string[];
  emails: string[];
  phones: string[];
  social: Record<string, string>;
  links: PageLink[];
  alternateLangs: string[];
  logo: string;
  /** The page looks like an empty JavaScript application shell. */
  scriptShell: boolean;
  /** Name, phone and address candidates read from the whole visible page (extract-contact.ts). */
  contact: ContactEvidence;
  /** Opening hours written in the page's text or footer (extract-hours.ts). */
  hours: OpeningHours | undefined;
  /** What the page says the company charges (extract-price.ts), the currency "$" or "kr" until the country is known. */
  prices: RawPrice | undefined;
  /** Pictures of the business in the page's content (extract-images.ts): offered to the owner, never published by the crawl. */
  images: PageImage[];
  /** Services the main text prices one per line or table row (extract-price.ts), the currency unresolved. */
  servicePrices: RawServicePrice[];
}

const SOCIAL_HOSTS: [RegExp, string][] = [
  [/(^|\.)linkedin\.com$/, 'linkedin'],
  [/(^|\.)(twitter|x)\.com$/, 'twitter'],
  [/(^|\.)facebook\.com$/, 'facebook'],
  [/(^|\.)instagram\.com$/, 'instagram'],
  [/(^|\.)youtube\.com$/, 'youtube'],
  [/(^|\.)github\.com$/, 'github'],
  [/(^|\.)tiktok\.com$/, 'tiktok'],
  [/(^|\.)xing\.com$/, 'xing'],
  [/(^|\.)pinterest\.com$/, 'pinterest'],
  [/(^|\.)mastodon\.social$/, 'mastodon'],
];

export function socialNetwork(url: string): string | undefined {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
    return SOCIAL_HOSTS.find(([re]) => re.test(host))?.[1];
  } catch {
    return undefined;
  }
}

const EMAIL_RE = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,24}/gi;
// International or national numbers with at least 7 digits; separators space . - / ( ).
const PHONE_RE = /(?:\+|00)?\d[\d\s()./-]{6,20}\d/g;
const BOILERPLATE = 'script, style, noscript, template, svg, iframe, nav, header, footer, form, button, select, aside, [role=navigation], [role=banner], [role=contentinfo], [aria-hidden=true], [hidden]';
const COOKIE_RE = /cookie|consent|gdpr|banner|popup|modal|newsletter/i;

function absolute(href: string, base: string): string | undefined {
  try {
    const u = new URL(href, base);
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}

/** Phone candidates: digits only count; dates, years and long ids are dropped. */
export function findPhones(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PHONE_RE)) {
    const raw = m[0].trim();
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    if (/^\d{4}[-/.]\d{2}[-/.]\d{2}$/.test(raw) || /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(raw)) continue;
    if (/^(19|20)\d{2}\s*[-–]\s*(19|20)\d{2}$/.test(raw)) continue;
    // a plain run of digits without + or separators is more likely an id than a phone
    if (!/[+\s()./-]/.test(raw) && !raw.startsWith('0')) continue;
    out.push(raw.replace(/\s+/g, ' '));
  }
  return out;
}

export function findEmails(text: string): string[] {
  return [...text.matchAll(EMAIL_RE)]
    .map((m) => m[0].toLowerCase().replace(/\.+$/, ''))
    .filter((e) => !/\.(png|jpe?g|gif|svg|webp|css|js)$/.test(e) && !/^(example|user|name|you|your)@/.test(e) && !e.endsWith('@example.com'));
}

// "Hauptstrasse 12, 10115 Berlin", "12 Main Street, Springfield, IL 62701", "75001 Paris, France"
const ADDRESS_LINE_RE = /\b(\d{4,5}\s+[A-ZÄÖÜ][\p{L}.-]+(?:\s[A-ZÄÖÜ][\p{L}.-]+)?|[A-Z][\p{L}.]+(?:\s[A-Z][\p{L}.]+)?,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})\b/u;

type Page = cheerio.CheerioAPI;

/** mailto: and tel: links, social profiles, and the page's other http(s) links (for the crawler). */
function readLinks($: Page, pageUrl: string) {
  const social: Record<string, string> = {};
  const emails = new Set<string>();
  const phones = new Set<string>();
  const links: PageLink[] = [];
  $('a[href]').each((_, el) => {
    const href = ($(el).attr('href') ?? '').trim();
    if (/^mailto:/i.test(href)) {
      const e = decodeURIComponent(href.slice(7).split('?')[0] ?? '').trim().toLowerCase();
      if (findEmails(e).length) emails.add(e);
      return;
    }
    if (/^tel:/i.test(href)) {
      const t = toPlainLine(decodeURIComponent(href.slice(4)));
      if (t.replace(/\D/g, '').length >= 7) phones.add(t);
      return;
    }
    const abs = absolute(href, pageUrl);
    if (!abs || !/^https?:/i.test(abs)) return;
    const net = socialNetwork(abs);
    if (net) {
      social[net] ??= abs;
      return;
    }
    links.push({ url: abs, text: toPlainLine($(el).text()).slice(0, 100) });
  });
  return { social, emails, phones, links };
}

/** Language, alternates, title, logo and script count: read while the whole document is still there. */
function readHead($: Page, meta: (sel: string) => string) {
  const lang = ($('html').attr('lang') ?? meta('meta[http-equiv="content-language"]')).trim().toLowerCase().slice(0, 2);
  const alternateLangs = $('link[rel="alternate"][hreflang]')
    .map((_, el) => ($(el).attr('hreflang') ?? '').toLowerCase().slice(0, 2))
    .get()
    .filter((l) => /^[a-z]{2}$/.test(l));
  const title = toPlainLine($('title').first().text());
  const logoImg = $('img[src]')
    .filter((_, el) => /logo/i.test(`${$(el).attr('alt') ?? ''} ${$(el).attr('class') ?? ''} ${$(el).attr('id') ?? ''} ${$(el).attr('src') ?? ''}`))
    .first()
    .attr('src');
  return { lang, alternateLangs, title, logoImg, scriptCount: $('script[src]').length };
}

/** Readable text: boilerplate and anything that looks like a cookie/consent banner removed (changes the document). */
function readMainText($: Page) {
  $(BOILERPLATE).remove();
  $('div, section, p').each((_, el) => {
    const sig = `${$(el).attr('id') ?? ''} ${$(el).attr('class') ?? ''}`;
    if (COOKIE_RE.test(sig)) $(el).remove();
  });
  const root = $('main').length ? $('main') : $('article').length ? $('article') : $('body');
  const headings = root
    .find('h1, h2, h3')
    .map((_, el) => toPlainLine($(el).text()))
    .get()
    .filter((h) => h && h.length <= 150);
  const paragraphs = root
    .find('p')
    .map((_, el) => toPlainLine($(el).text()))
    .get()
    .filter((p) => p.length >= 40 && !/cookie/i.test(p));
  const listItems = root
    .find('li')
    .map((_, el) => toPlainLine($(el).text()))
    .get()
    .filter((t) => t.length >= 3 && t.length <= 80);
  root.find('p, li, h1, h2, h3, h4, h5, h6, div, br, tr, address').each((_, el) => {
    $(el).append('\n');
  });
  // Cells of a row stay on its line but apart: "<td>Boiler service</td><td>£80 per visit</td>" is not "Boiler service£80".
  // A term and its description likewise ("<dt>Nail trim</dt><dd>$15 per visit</dd>"), each pair a line.
  root.find('td, th, dt').each((_, el) => {
    $(el).append(' ');
  });
  root.find('dd').each((_, el) => {
    $(el).append('\n');
  });
  const text = toPlainText(root.text()).slice(0, 50_000);
  return { headings, paragraphs, listItems, text };
}

export function extractPage(html: string, pageUrl: string): ExtractedPage {
  const $ = cheerio.load(html);
  const meta = (sel: string) => toPlainLine($(sel).first().attr('content') ?? '');

  const orgs = jsonLdOrgs($);
  // before the boilerplate is removed: headers, footers and images carry the contact details
  const contact = extractContact($, pageUrl, orgs);
  // Microdata PostalAddress before boilerplate removal: it often sits in the footer.
  const mdAddress = microdataAddress($);
  const { social, emails, phones, links } = readLinks($, pageUrl);
  const images = readImages($, pageUrl);

  // Footer text still carries contact details: read them before it is removed.
  // Line breaks where the footer breaks lines: "Hours<br>Monday - Friday: 9-5<br>Saturday: 10-2" must not run together.
  $('footer, [role=contentinfo], address').find('br').replaceWith('\n');
  $('footer, [role=contentinfo], address').find('p, li, div, h1, h2, h3, h4, h5, h6, tr, td, th, dt, dd').append('\n');
  const footerText = toPlainText($('footer, [role=contentinfo], address').text());
  const addresses = new Set<string>();
  $('address').each((_, el) => {
    const t = toPlainLine($(el).text());
    if (t) addresses.add(t.slice(0, 300));
  });
  const { lang, alternateLangs, title, logoImg, scriptCount } = readHead($, meta);
  const { headings, paragraphs, listItems, text } = readMainText($);

  const allText = `${text}\n${footerText}`;
  for (const e of findEmails(allText)) emails.add(e);
  for (const p of findPhones(allText.replace(/\S+@\S+/g, ' '))) phones.add(p);
  for (const line of allText.split('\n')) {
    if (line.length <= 160 && ADDRESS_LINE_RE.test(line)) addresses.add(line.trim());
  }
  for (const o of orgs) {
    if (o.email) emails.add(o.email);
    if (o.telephone) phones.add(o.telephone);
    for (const s of o.sameAs) {
      const net = socialNetwork(s);
      if (net) social[net] ??= s;
    }
  }

  return {
    url: pageUrl,
    title,
    lang: /^[a-z]{2}$/.test(lang) ? lang : '',
    metaDescription: meta('meta[name="description"]'),
    metaKeywords: meta('meta[name="keywords"]').split(',').map((k) => k.trim()).filter(Boolean).slice(0, 30),
    og: {
      title: meta('meta[property="og:title"]'),
      description: meta('meta[property="og:description"]'),
      siteName: meta('meta[property="og:site_name"]'),
      image: absolute(meta('meta[property="og:image"]'), pageUrl) ?? '',
      locale: meta('meta[property="og:locale"]'),
    },
    orgs,
    addresses: [...addresses].slice(0, 10),
    microdataAddress: mdAddress,
    headings: headings.slice(0, 60),
    text,
    paragraphs: paragraphs.slice(0, 30),
    listItems: listItems.slice(0, 100),
    emails: [...emails].slice(0, 20),
    phones: [...phones].slice(0, 20),
    social,
    links: links.slice(0, 500),
    alternateLangs: [...new Set(alternateLangs)],
    logo: (logoImg && absolute(logoImg, pageUrl)) || '',
    scriptShell: text.length < 200 && scriptCount > 0,
    contact,
    hours: hoursFromText(allText),
    prices: priceRangeFromText(allText),
    images,
    // The main text only: a price list is content; a footer's line is a summary, not a list.
    servicePrices: servicePricesFromText(text),
  };
}
