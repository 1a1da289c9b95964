import { countryCode, countryName } from '../../lib/countries.js';
import { domainKey, domainLabel, nameKey } from '../../lib/org-name.js';
import { selfDescribedPlace, type SelfText } from '../../lib/self-described-place.js';
import { normalizeDomain } from '../../lib/url.js';
import { PUBLISH_THRESHOLD, type FieldSource, type Identity, type Material } from './crawl.types.js';

/**
 * The last resort for a site that writes no postal address (issue 40): the town it gives as its own in its title, site
 * name, descriptions, first heading and paragraph, menu items, copyright line or a header or footer sentence saying where it is
 * based (lib/self-described-place.ts). A guess
 * from one kind of text is held for the owner (below the city's publish threshold); two independent kinds that agree
 * (the title and the meta description) publish it.
 */
const CONFIDENCE = { qualified: 0.65, cue: 0.65, plain: 0.55, agreed: 0.2, countryFromGazetteer: -0.1 } as const;
/** A country the texts alone give: written with the town or after "based in" (published), or a site name's last word (held). */
const COUNTRY_CONFIDENCE = { written: 0.6, weak: 0.45 } as const;

/** A link to a post, not a menu item: a blog's "Things to do in Austin, TX" is its subject, not the business's place. */
const POST_LINK = /\/(?:blog|news|posts?|articles?|events?|tags?|categor(?:y|ies)|author|press|stories|magazine|journal|(?:19|20)\d\d)(?:\/|$)/i;

const TITLE_SEPARATOR = /\s+[|–—:·•»-]\s+|\s*\|\s*/;

function isHome(url: string): boolean {
  try {
    return /^\/(index\.\w+)?$/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

function sameSite(url: string, domain: string): boolean {
  try {
    return normalizeDomain(url) === domain;
  } catch {
    return false;
  }
}

/**
 * The short texts a site describes itself with. The home page's title, descriptions, first heading and paragraph are
 * the business's; on another page they are the page's subject, so only what names the site is read there: its site
 * name, the title's segments from the one naming the site on (the tagline after it), its menu items and copyright line.
 */
export function selfTexts(m: Material, id: Identity): SelfText[] {
  const out: SelfText[] = [];
  const seen = new Set<string>();
  const add = (kind: SelfText['kind'], text: string | undefined, url: string) => {
    const t = (text ?? '').replace(/\s+/g, ' ').trim();
    if (!t || t.length > 400 || seen.has(`${kind}\u0000${t}`)) return;
    seen.add(`${kind}\u0000${t}`);
    out.push({ kind, text: t, url });
  };
  // the name the crawl publishes (a guess below its threshold may be any title segment)
  const name = id.name && id.name.confidence >= PUBLISH_THRESHOLD.name ? id.name : undefined;
  const names = new Set([m.org?.name, name?.value, ...m.pages.map((p) => p.og.siteName)].filter((n): n is string => !!n).map(nameKey));
  const label = domainLabel(m.domain);
  const namesSite = (seg: string) => names.has(nameKey(seg)) || (label.length >= 4 && domainKey(seg).includes(label));
  if (name) add('site-name', name.value, name.url);
  for (const p of m.pages) {
    add('site-name', p.og.siteName, p.url);
    if (isHome(p.url)) {
      add('title', p.title, p.url);
      add('title', p.og.title, p.url);
      add('description', p.metaDescription, p.url);
      add('description', p.og.description, p.url);
      add('heading', p.headings[0], p.url);
      add('paragraph', p.paragraphs[0], p.url);
    } else {
      const segs = p.title.split(TITLE_SEPARATOR);
      const from = segs.findIndex(namesSite);
      if (from >= 0) add('title', segs.slice(from).join(' | '), p.url);
    }
    for (const n of p.contact.names) if (n.source === 'copyright') add('footer', n.value, p.url);
    for (const line of p.contact.selfLines) add('footer-sentence', line, p.url);
    for (const l of p.links) if (l.text.length <= 60 && sameSite(l.url, m.domain) && !POST_LINK.test(l.url)) add('menu', l.text, p.url);
  }
  return out;
}

/** A town (and country) for a site whose addresses gave none, with its provenance; undefined when its texts give none. */
export function selfDescribedLocation(m: Material, id: Identity, knownCountry: string): {
  city: string;
  country: string;
  url: string;
  confidence: number;
  countrySource: FieldSource | undefined;
} | undefined {
  const hint = countryCode(knownCountry) ?? '';
  const place = selfDescribedPlace(selfTexts(m, id), hint);
  if (!place) return undefined;
  // the country known before keeps its own provenance; one the texts write is theirs (not the gazetteer's guess for a bare town)
  const country = knownCountry || (place.countryFrom === 'written' ? (countryName(place.country) ?? '') : '');
  const countrySource = hint || !country
    ? undefined
    : { value: country, method: 'self-described', url: place.url, confidence: place.strength === 'plain' ? COUNTRY_CONFIDENCE.weak : COUNTRY_CONFIDENCE.written };
  if (!place.city) return { city: '', country, url: place.url, confidence: 0, countrySource };
  const confidence = CONFIDENCE[place.strength] + (place.groups >= 2 ? CONFIDENCE.agreed : 0) + (place.countryFrom === 'gazetteer' ? CONFIDENCE.countryFromGazetteer : 0);
  return { city: place.city, country, url: place.url, confidence: Math.round(confidence * 100) / 100, countrySource };
}
