import type * as cheerio from 'cheerio';
import { findAddresses, type FoundAddress } from './address.js';
import { registeredCountry } from './countries.js';
import { domainKey, domainLabel, type NameEvidence } from './org-name.js';
import { romaniseCyrillic } from './romanise.js';
import { phonesInLine, type PhoneCandidate } from './phone.js';
import { SELF_PLACE_CUE } from './self-described-place.js';
import { toPlainLine } from './text.js';

/**
 * Contact evidence of one page, read from the whole page as a visitor sees it (header, footer
 * and images' alt text included, which the readable-text pass drops): name candidates, phone
 * candidates with their labels, and addresses found by their shape. Pure, like extract.ts.
 */
export interface ContactEvidence {
  names: NameEvidence[];
  phones: PhoneCandidate[];
  addresses: FoundAddress[];
  /** Digits of the numbers the page links for messages (sms:, WhatsApp), and of those it links for calls (tel:). */
  messaging: string[];
  calling: string[];
  /** The html lang attribute as written (en-GB, fr-CA), or the og:locale when only it has a region: a weak country hint. */
  locale: string;
  /** Sentences of the site's header or footer that say where it is based ("a family business based in Hillsborough, NC"). */
  selfLines: string[];
  /** ISO 4217 codes the page's structured data prices in (schema.org priceCurrency, product:price:currency), each once. */
  currencies: string[];
  /** The country a registration statement names ("a company registered in England & Wales"), in the header or footer, or in the last lines of a page that marks neither. */
  registeredIn?: string;
}

const BLOCK = new Set('p div li tr td th h1 h2 h3 h4 h5 h6 address section header footer nav ul ol table center dd dt article aside main form blockquote figure figcaption dl'.split(' '));
const SKIP = new Set('script style noscript template svg iframe select head'.split(' '));
const MAX_LINES = 3000;

/** The parts of a parsed node the walk reads (domhandler's shape, without depending on it). */
interface DomNode {
  type: string;
  data?: string;
  name?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
}

/**
 * The site's own header and footer (not an article's): where a business puts its main number and address, while body text
 * also quotes other firms (a venue, a client, a testimonial). `<header>`/`<footer>`, their landmark roles, or the usual ids.
 */
const CHROME_TAG = new Set(['header', 'footer']);
const CHROME_ROLE = /^(banner|contentinfo)$/i;
const CHROME_ID = /^(site-?|page-?|main-?)?(header|footer|masthead|colophon)$/i;

function isChrome(name: string, attribs: Record<string, string>): boolean {
  return CHROME_TAG.has(name) || CHROME_ROLE.test(attribs.role ?? '') || CHROME_ID.test(attribs.id ?? '');
}

/** Whether an element sits in the site's header or footer, by the rule pageLines applies: a chrome ancestor not inside an article. */
function inChrome(ancestors: { name: string; attribs?: Record<string, string> }[]): boolean {
  for (const el of [...ancestors].reverse()) {
    if (isChrome(el.name, el.attribs ?? {})) return true;
    if (el.name === 'article') return false;
  }
  return false;
}

// private-use marks around a chrome element's text, so each line can say whether it sits in one
const ENTER_CHROME = '\uE000';
const LEAVE_CHROME = '\uE001';

// private-use marks around a quoting block's text (isQuoted)
const ENTER_QUOTED = '\uE002';
const LEAVE_QUOTED = '\uE003';
// a class or id word that begins so ("testimonial-slider", "reviews", "sponsor-box"), not one that only holds it ("has-promo-bar")
const QUOTED_WORD = /^(?:testimonial|review|sponsor|advert)/i;

/**
 * Text that quotes another party (issue 40): a testimonial, a review, a sponsor's or advertiser's block; the numbers in it
 * are theirs. A block quotation, or a block whose class or id names such a block (inline elements keep their line whole).
 */
function isQuoted(name: string, attribs: Record<string, string>): boolean {
  if (!BLOCK.has(name)) return false;
  return name === 'blockquote' || `${attribs.class ?? ''} ${attribs.id ?? ''}`.split(/\s+/).some((w) => QUOTED_WORD.test(w));
}

// an icon font's fax sign (<i class="fa fa-fax" aria-hidden="true">, hidden from screen readers but seen) stands for the word
// "Fax" before the number it marks
const FAX_ICON = /(?:^|[\s_-])fax(?:$|[\s_-])/i;
const ICON_TAG = new Set(['i', 'span', 'em']);
const hasText = (n: DomNode): boolean => (n.type === 'text' ? !!n.data?.trim() : (n.children ?? []).some(hasText));

/** One visible line, whether it sits in the site's header or footer, and whether it quotes another party. */
export interface PageLine {
  text: string;
  chrome: boolean;
  quoted?: boolean;
}

/**
 * Visible lines of the whole page, without changing the document: images read as their alt text,
 * blocks and <br> break lines. One walk over the tree; a very long page keeps its first and last
 * lines (where headers and footers are).
 */
export function pageLines($: cheerio.CheerioAPI): PageLine[] {
  const parts: string[] = [];
  const walk = (node: DomNode, inArticle: boolean) => {
    if (node.type === 'text') {
      parts.push(node.data ?? '');
      return;
    }
    // cheerio parses <script> and <style> as their own node types: only tags and the root are walked
    if (node.type !== 'tag' && node.type !== 'root') return;
    const el = node;
    const attribs = el.attribs ?? {};
    let chrome = false;
    let quoted = false;
    if (node.type === 'tag') {
      const name = el.name ?? '';
      if (ICON_TAG.has(name) && FAX_ICON.test(attribs.class ?? '') && !hasText(el)) {
        parts.push(' Fax: ');
        return;
      }
      if (SKIP.has(name) || attribs.hidden !== undefined || attribs['aria-hidden'] === 'true') return;
      if (name === 'br') {
        parts.push('\n');
        return;
      }
      if (name === 'img') {
        const alt = toPlainLine(attribs.alt ?? '');
        if (alt && !/\.(png|jpe?g|gif|svg|webp)$/i.test(alt)) parts.push(` ${alt} \n`);
        return;
      }
      chrome = !inArticle && isChrome(name, attribs);
      if (chrome) parts.push(`\n${ENTER_CHROME}\n`);
      quoted = isQuoted(name, attribs);
      if (quoted) parts.push(`\n${ENTER_QUOTED}\n`);
    }
    const article = inArticle || el.name === 'article';
    let previous: DomNode | undefined;
    for (const child of el.children ?? []) {
      // two links side by side ("<a>1-800-969-6853</a><a>1-202-933-8111</a>") are two items, not one run of digits
      if (previous?.type === 'tag' && previous.name === 'a' && child.type === 'tag' && child.name === 'a') parts.push(' ');
      walk(child, article);
      previous = child;
    }
    if (node.type === 'tag' && BLOCK.has(el.name ?? '')) parts.push('\n');
    if (quoted) parts.push(`\n${LEAVE_QUOTED}\n`);
    if (chrome) parts.push(`\n${LEAVE_CHROME}\n`);
  };
  const body = $('body').get(0) ?? $.root().get(0);
  if (body) walk(body as unknown as DomNode, false);
  const lines: PageLine[] = [];
  let depth = 0;
  let quotes = 0;
  for (const raw of parts.join('').replace(/\u00a0/g, ' ').split('\n')) {
    const text = raw.replace(/[ \t\r\f\v]+/g, ' ').trim();
    if (text === ENTER_CHROME) depth++;
    else if (text === LEAVE_CHROME) depth--;
    else if (text === ENTER_QUOTED) quotes++;
    else if (text === LEAVE_QUOTED) quotes--;
    else if (text) lines.push(quotes > 0 ? { text, chrome: depth > 0, quoted: true } : { text, chrome: depth > 0 });
  }
  return lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES - 500), ...lines.slice(-500)] : lines;
}

/** A short line of words alone ("Phone", "Fax:", "Toll-Free") labels the number on the line after it. */
const LABEL_LINE = /^[\p{L}][\p{L} .&/-]{0,24}:?$/u;

// a year or a range of years ("2014–2024", "2014-24", "2019 - present") in a copyright line: never part of the holder's name
const YEARS = String.raw`(?:19|20)\d{2}(?:\s*[-–—/]\s*(?:(?:19|20)?\d{2}\b|present|today|heute|aujourd'hui))?`;
const MARK = String.raw`(?:©|\(c\)|&copy;|copyright|@(?=\s*(?:19|20)\d{2}))`;
// the marks, then any years, further marks and dashes or commas before the holder ("Copyright 2024 ©, Acme", "© 2014-24 - Acme");
// after a bar comes another item ("Copyright 2019 | Privacy Policy")
const COPYRIGHT_RE = new RegExp(String.raw`(?:${MARK}\s*)+(?:(?:${YEARS}|${MARK}|[,.:;–—-])\s*)*(?:by\s+)?(.+)$`, 'i');
const TRAILING_YEARS = new RegExp(String.raw`[\s,;:–—-]*${YEARS}\s*$`);
// "All rights reserved" in the languages of the development set's sites: never part of a name, nor a name alone
const ALL_RIGHTS = String.raw`\b(?:all rights|tous droits|alle rechte|alle rechten|todos los derechos|tutti i diritti|wszelkie prawa|všechna práva)\b|(?<![а-яёіїєґ])(?:все|усі|всі)\s+права`;
const COPYRIGHT_END = new RegExp(String.raw`\s*(?:${ALL_RIGHTS})|` + /\s*(?:\||·|•|–|—|\s-\s|\bpowered by\b|\bwebsite\b|\bsite by\b|\bdesigned by\b|\bproudly\b|\bregistered\b|\babn\b|\bacn\b|\bcompany no\b|\bnmls\b|\blicen[cs]e\b|(?<!\b(?:Inc|Co|Ltd|Corp))\.$)/.source, 'i');
const ALL_RIGHTS_ALONE = new RegExp(String.raw`^(?:${ALL_RIGHTS})`, 'i');
// a full stop that ends a sentence, not an initial ("J. Walsh") or an abbreviation before a year
const SENTENCE_END = /(?<!\b[A-Z])\.\s+(?=[A-Z][a-z])/;
const LEGAL_SUFFIX = /^(.{2,60}?\b(?:LLC|L\.L\.C\.|Inc\.?|Ltd\.?|Limited|Pty\.? Ltd\.?|LLP|PLLC|P\.A\.|S\.C\.|Corp\.?|Co\.|GmbH))(?=$|[\s,.;|·])/;
// what follows the holder and names another party: "and its licensors", "a division of Baz Corp", "part of the X group"
const OTHER_PARTY = /\s*,?\s*(?:(?:and|&)\s+its\s+(?:licensors|affiliates|subsidiaries|partners)\b|,\s*(?:an?\s+)?(?:division|subsidiary|member|part|brand)\s+of\b).*$/i;

export function copyrightName(line: string): string {
  const m = COPYRIGHT_RE.exec(line);
  if (!m) return '';
  let name = m[1]!
    .split(COPYRIGHT_END)[0]!
    .split(SENTENCE_END)[0]!
    // "Model Remodel™ 2025", "Acme® and its licensors", "Vascular Institute (VIC)": marks, other parties and an acronym are not the name
    .replace(/\s*[™®℠]/g, '')
    .replace(OTHER_PARTY, '')
    .replace(/\s+\([\p{Lu}\d&.]{2,8}\)[.,]?\s*$/u, '');
  // "Acme 2014-2024.", "Acme, 2024": the years after the holder, however punctuated
  for (let prev = ''; prev !== name; ) {
    prev = name;
    name = name.replace(TRAILING_YEARS, '').replace(/(?<!\b(?:Inc|Co|Ltd|Corp))[.,;:–—-]+\s*$/, '').trim();
  }
  name = name.replace(/^(?:19|20)\d{2}\s*,?\s*/, '').trim();
  // "©Copyright" alone: the mark repeated, not a holder
  return name.length >= 2 && name.length <= 80 && /\p{L}/u.test(name) && !/^copyright$/i.test(name) && !ALL_RIGHTS_ALONE.test(name) ? name : '';
}

/** A copyright line that stops after its marks and years ("©Copyright" / "2009- 2012" / "Acme Ltd"): the holder is on the next line. */
const COPYRIGHT_ONLY = new RegExp(String.raw`^(?:(?:${MARK}|${YEARS}|[,.:;–—-])\s*)+$`, 'i');

/** A phrase of the page that spells the domain's name ("McGregor Electrical" on mcgregor-electrical.co.uk). */
function domainPhrase(lines: string[], pageUrl: string): string {
  const label = URL.canParse(pageUrl) ? domainLabel(new URL(pageUrl).hostname) : '';
  if (label.length < 4) return '';
  // the name as the site writes it with its domain's ending ("Camera Superstore.com has been providing ...")
  const ending = URL.canParse(pageUrl) ? new URL(pageUrl).hostname.replace(/^www\./, '').split('.').slice(1).join('.') : '';
  for (const line of lines.slice(0, 300)) {
    // "&" is spelled "and" in a domain: "H&S Solicitors" on handssolicitors.co.uk
    if (line.length > 300 || !romaniseCyrillic(line).toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]/g, '').includes(label.slice(0, 4))) continue;
    const words = line.split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      for (let n = 1; n <= 5 && i + n <= words.length; n++) {
        let p = words.slice(i, i + n).join(' ').replace(/^[^\p{L}\d]+|[^\p{L}\d.&']+$/gu, '');
        if (ending && p.toLowerCase().endsWith(`.${ending}`) && p.length > ending.length + 1) p = p.slice(0, -ending.length - 1);
        if (domainKey(p) === label) return p;
      }
    }
  }
  return '';
}

/** Alt text naming a service about logos, not a logo. */
const LOGO_SERVICE = /\blogos?\s+(?:design(?:s|ers?|ing)?|makers?|creation|printing|animation|ideas|templates?)\b/i;

export function extractContact($: cheerio.CheerioAPI, pageUrl: string, orgs: { name: string; telephone: string }[]): ContactEvidence {
  const names: NameEvidence[] = [];
  const phones: PhoneCandidate[] = [];
  const add = (value: string, source: NameEvidence['source']) => {
    const v = toPlainLine(value).slice(0, 120);
    if (v) names.push({ value: v, source });
  };
  for (const o of orgs) {
    if (o.name) add(o.name, 'jsonld');
    if (o.telephone) phones.push({ raw: o.telephone, label: '', source: 'jsonld', url: pageUrl });
  }
  const meta = (sel: string) => $(sel).first().attr('content') ?? '';
  add(meta('meta[property="og:site_name"]'), 'og:site_name');
  add(meta('meta[name="application-name"]'), 'application-name');
  add(meta('meta[property="og:title"]'), 'og:title');
  add($('title').first().text(), 'title');
  $('[itemscope][itemtype]').each((_, el) => {
    const type = $(el).attr('itemtype') ?? '';
    // only an organisation's own item names it: not a page, a product, a person, a post, a breadcrumb or a menu item
    if (/PostalAddress|WebSite|WebPage|Product|Offer|Review|Person|Breadcrumb|ListItem|ItemList|SiteNavigationElement|Article|BlogPosting|Blog\b|CreativeWork|Event|ImageObject|ImageGallery|VideoGallery|VideoObject|Question|Answer|FAQPage|Recipe|HowTo|Rating|Brand/i.test(type)) return;
    // the item's own name (not a nested item's: its logo, its address), in a meta's content or as text
    const name = $(el).find('[itemprop="name"]').filter((_, n) => $(n).parent().closest('[itemscope]').get(0) === el).first();
    if (name.length) add(name.attr('content') ?? name.text(), 'microdata');
    const tel = $(el).find('[itemprop="telephone"]').first();
    if (tel.length) phones.push({ raw: toPlainLine(tel.attr('content') ?? tel.text()), label: '', source: 'microdata', url: pageUrl });
  });
  // The logo: an image in the site header or home link, or one whose file or class says logo.
  $('img').each((i, el) => {
    const img = $(el);
    const sig = `${img.attr('src') ?? ''} ${img.attr('class') ?? ''} ${img.attr('id') ?? ''} ${img.attr('alt') ?? ''}`;
    const inBrand = img.closest('a[rel=home], a[href="/"], .site-branding, .navbar-brand, .logo, #logo, header h1, .header__heading').length > 0;
    // "Logo Design" (a design studio's service) is no logo's label
    if (LOGO_SERVICE.test(img.attr('alt') ?? '')) return;
    if (/logo/i.test(sig) || inBrand) add(img.attr('alt') ?? '', 'logo-alt');
    // the first images of a page are often the banner that carries the name
    else if (i < 3 && !img.closest('footer').length) add(img.attr('alt') ?? '', 'image-alt');
  });
  $('.navbar-brand, .site-title, .brand, .logo-text').each((_, el) => add($(el).text(), 'brand'));
  $('a[href^="tel:" i]').each((_, el) => {
    const a = $(el);
    const href = decodeURIComponent((a.attr('href') ?? '').slice(4));
    // the number the visitor sees wins over a different one in the link's target (a template's leftover, a tracking line)
    const shown = phonesInLine(toPlainLine(a.text()))[0]?.raw ?? '';
    const digits = (x: string) => x.replace(/\D/g, '').slice(-10);
    const raw = shown.replace(/\D/g, '').length >= 10 && digits(shown) !== digits(href) ? shown : href;
    const context = toPlainLine(a.parent().text()).split(toPlainLine(a.text()))[0] ?? '';
    const parents = a.parents().toArray();
    const chrome = inChrome(parents);
    const quoted = parents.some((p) => isQuoted(p.name, p.attribs ?? {}));
    phones.push({ raw, label: `${context.slice(-40)} ${a.text()}`.trim(), source: 'tel', url: pageUrl, chrome, ...(quoted ? { quoted } : {}) });
  });

  // a number linked only for messages ("Text us", WhatsApp) is not the line to call
  const linked = (sel: string, digitsOf: (href: string) => string) =>
    $(sel).toArray().map((el) => digitsOf(decodeURIComponent($(el).attr('href') ?? ''))).filter((d) => d.length >= 7);
  const messaging = linked('a[href^="sms:" i], a[href^="whatsapp:" i], a[href*="wa.me/" i], a[href*="whatsapp.com/send" i]', (h) =>
    (/wa\.me\/\+?(\d+)|phone=\+?(\d+)|^(?:sms|whatsapp):([^?&;]*)/i.exec(h)?.slice(1).find(Boolean) ?? '').replace(/\D/g, ''));
  const calling = linked('a[href^="tel:" i]', (h) => h.replace(/\D/g, ''));

  const page = pageLines($);
  const lines = page.map((l) => l.text);
  const phrase = domainPhrase(lines, pageUrl);
  if (phrase) add(phrase, 'domain-phrase');
  const seenLine = new Set<string>();
  for (const [i, { text: line, chrome, quoted }] of page.entries()) {
    if (/©|&copy;|\(c\)\s*\d|copyright/i.test(line)) {
      // a line of marks and years alone continues on the next one or two
      const rest = [i + 1, i + 2].map((k) => lines[k] ?? '').filter((l) => l.length <= 120);
      const c = copyrightName(COPYRIGHT_ONLY.test(line) ? [line, ...(COPYRIGHT_ONLY.test(rest[0] ?? '') ? rest : rest.slice(0, 1))].join(' ') : line);
      if (c) add(c, 'copyright');
    }
    const legal = LEGAL_SUFFIX.exec(line.replace(/^[^\p{L}]+/u, ''));
    if (legal && !/©|copyright/i.test(line)) add(legal[1]!, 'legal-line');
    if (seenLine.has(line)) continue;
    seenLine.add(line);
    const labelAbove = i > 0 && LABEL_LINE.test(lines[i - 1]!) ? lines[i - 1]! : '';
    for (const [j, p] of phonesInLine(line).entries()) phones.push({ raw: p.raw, label: p.label || (j === 0 ? labelAbove : ''), source: 'text', url: pageUrl, chrome, ...(quoted ? { quoted } : {}) });
  }
  // the country domain hints at the country of a postcode-first address whose town the gazetteer lacks
  const tld = URL.canParse(pageUrl) ? (new URL(pageUrl).hostname.split('.').pop() ?? '').toUpperCase() : '';
  const addresses = findAddresses(lines, new Set(page.flatMap((l, i) => (l.chrome ? [i] : []))), tld);
  // the html lang's region ("en-GB"), else the OpenGraph locale's ("en_GB"), which site builders write when the lang has none
  const lang = ($('html').attr('lang') ?? '').trim();
  const ogLocale = ($('meta[property="og:locale"]').first().attr('content') ?? '').trim().replace('_', '-');
  const locale = /^[a-z]{2}-[a-z]{2}$/i.test(lang) || !/^[a-z]{2}-[a-z]{2}$/i.test(ogLocale) ? lang : ogLocale;
  // the header or footer, or on a page that marks neither, its last lines: old footers are a plain table or section
  const marksChrome = page.some((l) => l.chrome);
  const inChromeOrTail = (l: { chrome: boolean; quoted?: boolean }, i: number) => (l.chrome || (!marksChrome && i >= page.length - FOOTER_TAIL_LINES)) && !l.quoted;
  const selfLines = [...new Set(page.filter((l, i) => inChromeOrTail(l, i) && l.text.length <= 300 && BASED_IN.test(l.text) && !WEB_CREDIT.test(l.text)).map((l) => l.text))].slice(0, 5);
  // (not the body's text: an article may name another firm's registration)
  const registeredIn = page.filter(inChromeOrTail).map((l) => registeredCountry(l.text)).find((c) => c !== undefined);
  return { names, phones, addresses, messaging, calling, locale, selfLines, currencies: structuredCurrencies($), ...(registeredIn ? { registeredIn } : {}) };
}

/** The ISO currencies a page's structured data prices in: JSON-LD and microdata offers, a shop's price meta tags. */
function structuredCurrencies($: cheerio.CheerioAPI): string[] {
  const found = new Set<string>();
  $('script[type="application/ld+json"]').each((_, el) => {
    for (const m of $(el).text().matchAll(/"priceCurrency"\s*:\s*"([A-Z]{3})"/g)) found.add(m[1]!);
  });
  $('[itemprop="priceCurrency"], meta[property="product:price:currency"], meta[property="og:price:currency"]').each((_, el) => {
    const code = ($(el).attr('content') ?? $(el).text()).trim();
    if (/^[A-Z]{3}$/.test(code)) found.add(code);
  });
  return [...found];
}

/** How many last lines of a page count as its footer where no element marks one. */
const FOOTER_TAIL_LINES = 20;
/** Where a sentence says the business is based (lib/self-described-place.ts reads the town after it). */
const BASED_IN = new RegExp(`${SELF_PLACE_CUE.source}(?=\\s)`, 'iu');
/** A footer's credit to the web designer or host, often "a studio based in …": its town is not the business's. */
const WEB_CREDIT = /\b(?:designed|developed|built|powered|hosted|created|made|maintained|managed|optimi[sz]ed)\s+(?:and\s+\w+\s+)?by\b|\bweb\s?(?:site\s+)?(?:design|development)\b|\b(?:web)?site\s+by\b|\bmarketing\s+by\b/i;
