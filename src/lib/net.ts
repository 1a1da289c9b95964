import ipaddr from 'ipaddr.js';

/** Whether an address (IPv4, IPv6 or IPv4-mapped IPv6) is on the loopback range. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  try {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    return parsed.range() === 'loopback';
  } catch {
    return false;
  }
}
