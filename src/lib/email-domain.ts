import { createRequire } from 'node:module';
import { isIpLiteral } from './ssrf.js';

/**
 * Rules for "the email domain must match the website domain" (spec section 5).
 *
 * - The email's domain must equal the website's domain or be a parent of it:
 *   jane@acme.com may claim acme.com, www.acme.com and shop.acme.com.
 * - The reverse is refused: jane@mail.acme.com may NOT claim acme.com. A sub-domain is often
 *   run by someone other than the parent (hosted mail, departments, customer sub-domains), so
 *   it proves control of itself only.
 * - Addresses at free-mail and disposable providers never prove ownership of a website
 *   (otherwise any gmail.com user could claim gmail.com).
 */
const FREE_MAIL = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.com', 'ymail.com', 'hotmail.com', 'outlook.com', 'live.com', 'msn.com',
  'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'pm.me', 'gmx.com', 'gmx.de', 'gmx.net',
  'web.de', 'yandex.com', 'yandex.ru', 'mail.ru', 'zoho.com', 'qq.com', '163.com', '126.com', 'tutanota.com', 'tuta.io',
  'fastmail.com', 'hey.com', 'mail.com', 'inbox.com', 't-online.de', 'orange.fr', 'free.fr', 'libero.it', 'naver.com',
]);
// The maintained list (plain JSON, no type declarations) and its wildcard list: a wildcard entry
// covers every sub-domain, and a listed domain's sub-domains are disposable too.
const require = createRequire(import.meta.url);
const DISPOSABLE = new Set<string>((require('disposable-email-domains') as string[]).map((d) => d.toLowerCase()));
const DISPOSABLE_WILDCARD = new Set<string>((require('disposable-email-domains/wildcard.json') as string[]).map((d) => d.toLowerCase()));

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase().replace(/\.+$/, '');
}

/** True for a listed domain, and for any sub-domain of a listed or wildcard-listed one. */
export function isDisposableDomain(domain: string): boolean {
  const d = domain.toLowerCase();
  if (DISPOSABLE.has(d)) return true;
  const parts = d.split('.');
  for (let i = 0; i < parts.length - 1; i++) {
    const suffix = parts.slice(i).join('.');
    if (DISPOSABLE_WILDCARD.has(suffix) || (i > 0 && DISPOSABLE.has(suffix))) return true;
  }
  return false;
}

export function isFreeMailDomain(domain: string): boolean {
  return FREE_MAIL.has(domain) || /^(yahoo|hotmail|outlook|live)\.[a-z.]+$/.test(domain);
}

/**
 * A host name a company can own: at least two labels and a top-level label that starts with a
 * letter (so no IP literal, no numeric host such as 0.0.1, no single label such as localhost).
 */
export function isRegistrableHost(host: string): boolean {
  if (isIpLiteral(host)) return false;
  const labels = host.split('.');
  return labels.length >= 2 && labels.every((l) => /^[a-z0-9-]{1,63}$/.test(l)) && /^(?:[a-z][a-z0-9-]*|xn--[a-z0-9-]+)$/.test(labels[labels.length - 1]!);
}

/** Whether an address at emailDomain may claim the website at websiteDomain (both lower case, no www.). */
export function emailMayClaimWebsite(email: string, websiteDomain: string): boolean {
  const d = emailDomain(email).replace(/^www\./, '');
  if (!d || isFreeMailDomain(d) || isDisposableDomain(d)) return false;
  if (!isRegistrableHost(d) || !isRegistrableHost(websiteDomain)) return false;
  return websiteDomain === d || websiteDomain.endsWith(`.${d}`);
}

/** A readable company name from a domain: "acme-tools.co.uk" → "Acme Tools", "shop.acme.com" → "Shop Acme". */
export function nameFromDomain(domain: string): string {
  const labels = domain.split('.');
  labels.pop();
  // second-level registries such as co.uk, com.au
  if (labels.length > 1 && /^(co|com|org|net|ac|gov|edu)$/.test(labels[labels.length - 1]!)) labels.pop();
  const words = labels.join(' ').split(/[-_\s]+/).filter(Boolean);
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
  return name || domain;
}
