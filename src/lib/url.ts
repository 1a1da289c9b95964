/**
 * Website identity: a URL or bare domain reduced to its host in lower case, without scheme,
 * "www.", port, path, query or trailing dot. "HTTPS://www.Acme.com/about/" → "acme.com".
 * Returns undefined when the input has no plausible host.
 */
export function normalizeDomain(input: string): string | undefined {
  let s = input.trim();
  if (!s) return undefined;
  try {
    s = decodeURIComponent(s);
  } catch {
    // keep as is: a stray % is not worth refusing a lookup for
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = `http://${s.replace(/^\/+/, '')}`;
  let host: string;
  try {
    host = new URL(s).hostname;
  } catch {
    return undefined;
  }
  host = host.toLowerCase().replace(/\.+$/, '').replace(/^www\d?\./, '');
  if (!host || host.length > 253) return undefined;
  if (!/^[a-z0-9.-]+$/.test(host) && !/^\[[0-9a-f:.]+\]$/.test(host)) return undefined;
  if (!host.includes('.') && host !== 'localhost') return undefined;
  return host;
}

/** A canonical https URL for a website given as URL or bare domain (keeps an explicit http scheme and port). */
export function canonicalWebsiteUrl(input: string): string | undefined {
  const s = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`;
  try {
    const u = new URL(withScheme);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    if (!normalizeDomain(u.href)) return undefined;
    return `${u.protocol}//${u.host.toLowerCase()}`;
  } catch {
    return undefined;
  }
}

/** Whether `url` is on `domain` or a subdomain of it, or `domain` on a subdomain of `url`'s (shop.acme.com and acme.com). */
export function onSameSite(url: string, domain: string): boolean {
  const host = normalizeDomain(url);
  if (!host || !domain) return false;
  return host === domain || host.endsWith(`.${domain}`) || domain.endsWith(`.${host}`);
}
