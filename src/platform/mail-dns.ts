import dns from 'node:dns/promises';

/**
 * The one check that an email domain accepts mail (an MX record, or an A/AAAA record as RFC 5321's
 * implicit MX), used by agent registration and owner sign-in when EMAIL_CHECK_MX is on. The
 * address-syntax and disposable-domain rules are pure and live in lib/email-domain.ts.
 */

/** The DNS calls the check needs; tests pass a fake. */
export interface MailDnsResolver {
  resolveMx(domain: string): Promise<{ exchange: string; priority: number }[]>;
  resolve4(domain: string): Promise<string[]>;
  resolve6(domain: string): Promise<string[]>;
}

export const systemDnsResolver: MailDnsResolver = {
  resolveMx: (d) => dns.resolveMx(d),
  resolve4: (d) => dns.resolve4(d),
  resolve6: (d) => dns.resolve6(d),
};

const NO_SUCH_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

/**
 * 'yes' when the domain has a usable MX (a null MX "." per RFC 7505 means "no mail"), or no MX
 * but an address record; 'no' when DNS says none exist; 'unknown' when DNS itself failed
 * (timeout, SERVFAIL). Callers fail open on 'unknown' so a DNS hiccup never blocks sign-up.
 */
export async function domainAcceptsMail(domain: string, resolver: MailDnsResolver): Promise<'yes' | 'no' | 'unknown'> {
  let failed = false;
  const attempt = async <T>(fn: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await fn();
    } catch (err) {
      if (!NO_SUCH_RECORD.has(String((err as { code?: unknown }).code))) failed = true;
      return [];
    }
  };
  const mx = await attempt(() => resolver.resolveMx(domain));
  if (mx.length > 0) return mx.some((r) => r.exchange && r.exchange !== '.') ? 'yes' : 'no';
  const [a, aaaa] = await Promise.all([attempt(() => resolver.resolve4(domain)), attempt(() => resolver.resolve6(domain))]);
  if (a.length > 0 || aaaa.length > 0) return 'yes';
  return failed ? 'unknown' : 'no';
}

/** domainAcceptsMail with a deadline: a slow DNS answers 'unknown' (callers fail open) instead of holding the request. */
export function domainAcceptsMailWithin(domain: string, resolver: MailDnsResolver, ms = 3000): Promise<'yes' | 'no' | 'unknown'> {
  return Promise.race([domainAcceptsMail(domain, resolver), new Promise<'unknown'>((r) => setTimeout(() => r('unknown'), ms).unref())]);
}
