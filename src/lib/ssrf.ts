import dns from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Address classification for outgoing requests to URLs the public gives us. Only global
 * unicast addresses are allowed: loopback, private, link-local (cloud metadata), CGNAT,
 * unspecified, multicast, broadcast, ULA, reserved, documentation, NAT64/6to4/Teredo and
 * IPv4-mapped forms of any of these are refused. `allowPrivate` (tests, local development)
 * admits everything except the unspecified and multicast/broadcast ranges, which are never a
 * real web server.
 */
export type AddressVerdict = { ok: true } | { ok: false; reason: string };

const range = (a: ipaddr.IPv4 | ipaddr.IPv6) => a.range();

export function classifyAddress(address: string, allowPrivate = false): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return { ok: false, reason: `not an IP address: ${address}` };
  }
  // ::ffff:127.0.0.1 must be judged as 127.0.0.1.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  // IPv4-compatible addresses (::a.b.c.d, deprecated by RFC 4291) reach the embedded IPv4 address
  // on some stacks; ipaddr.js calls them unicast. Never a real web server: refused.
  if (parsed.kind() === 'ipv6') {
    const parts = (parsed as ipaddr.IPv6).parts;
    if (parts.slice(0, 6).every((p) => p === 0) && range(parsed) !== 'loopback' && range(parsed) !== 'unspecified') {
      return { ok: false, reason: `address ${parsed.toString()} is an IPv4-compatible IPv6 address` };
    }
  }
  const kind = range(parsed);
  if (kind === 'unicast') return { ok: true };
  if (allowPrivate && !['unspecified', 'multicast', 'broadcast'].includes(kind)) return { ok: true };
  return { ok: false, reason: `address ${parsed.toString()} is in a non-public range (${kind})` };
}

/** True when the host is an IP literal (WHATWG URL already turned 0x7f.1 or 2130706433 into dotted form). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[|\]$/g, ''));
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS resolution, injectable so tests can make any name resolve anywhere. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const rows = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return rows.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
};

export class UnsafeAddressError extends Error {
  readonly code = 'EUNSAFEADDRESS';
}

/**
 * Resolves a host name once and checks every address it resolves to; refuses the name when any
 * of them is not public (a name pointing both ways is an attack, not a misconfiguration).
 * Names under localhost are refused before any lookup.
 */
export async function resolveSafe(hostname: string, resolver: Resolver, allowPrivate: boolean): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
  if (!host) throw new UnsafeAddressError('empty host name');
  if (isIpLiteral(host)) {
    const verdict = classifyAddress(host, allowPrivate);
    if (!verdict.ok) throw new UnsafeAddressError(verdict.reason);
    const p = ipaddr.parse(host);
    return [{ address: p.toString(), family: p.kind() === 'ipv6' ? 6 : 4 }];
  }
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw new UnsafeAddressError(`host ${host} is local`);
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(host);
  } catch (err) {
    throw new Error(`DNS lookup of ${host} failed: ${(err as Error).message}`, { cause: err });
  }
  if (addresses.length === 0) throw new Error(`DNS lookup of ${host} returned no address`);
  for (const a of addresses) {
    const verdict = classifyAddress(a.address, allowPrivate);
    if (!verdict.ok) throw new UnsafeAddressError(`${host} resolves to a refused address: ${verdict.reason}`);
  }
  return addresses;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect: the socket connects to exactly the address that was checked
 * here, so a second DNS answer (rebinding) can never be used.
 */
export function safeLookup(resolver: Resolver, allowPrivate: boolean, remap?: (a: ResolvedAddress) => ResolvedAddress) {
  return (hostname: string, options: { all?: boolean; family?: number } | number, callback: LookupCallback): void => {
    const opts = typeof options === 'object' && options !== null ? options : {};
    resolveSafe(hostname, resolver, allowPrivate).then(
      (addresses) => {
        const wanted = opts.family === 4 || opts.family === 6 ? addresses.filter((a) => a.family === opts.family) : addresses;
        const list = (wanted.length ? wanted : addresses).map((a) => (remap ? remap(a) : a));
        if (opts.all) callback(null, list.map((a) => ({ address: a.address, family: a.family })));
        else callback(null, list[0]!.address, list[0]!.family);
      },
      (err: Error) => callback(Object.assign(err, { code: (err as { code?: string }).code ?? 'ENOTFOUND' }) as NodeJS.ErrnoException, ''),
    );
  };
}
