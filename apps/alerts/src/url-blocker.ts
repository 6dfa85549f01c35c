import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/**
 * ipaddr.js range names GitLab's UrlBlocker (lib/gitlab/url_blocker.rb) refuses while local requests are not
 * allowed: loopback, localhost (0.0.0.0/8, ::), link-local, private network and shared address space, the
 * limited broadcast address. Multicast and reserved ranges never name a public API either, so they go too.
 */
const BLOCKED_V4 = new Set<string>([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'carrierGradeNat',
  'private',
  'reserved',
  'benchmarking',
]);

/** The IPv6 side of the same rules; `deprecatedSiteLocal` is Ruby's `ipv6_sitelocal?`, fec0::/10. */
const BLOCKED_V6 = new Set<string>([
  'unspecified',
  'linkLocal',
  'multicast',
  'loopback',
  'uniqueLocal',
  'deprecatedSiteLocal',
  'discard',
  'reserved',
  'benchmarking',
]);

function v4(high: number, low: number): IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * IPv4 addresses an IPv6 address carries and that a host or a translator on the way may reach instead, so
 * `[::ffff:7f00:1]`, `[::7f00:1]`, `[64:ff9b::7f00:1]` or `[2002:7f00:1::]` are judged as 127.0.0.1.
 * `null` when the address is not one of those forms.
 */
function embeddedV4(ip: IPv6): IPv4[] | null {
  const p = ip.parts as [number, number, number, number, number, number, number, number];
  switch (ip.range()) {
    case 'ipv4Mapped': // ::ffff:0:0/96
    case 'rfc6145': // ::ffff:0:0:0/96, IPv4-translated
      return [v4(p[6], p[7])];
    case 'rfc6052':
      // 64:ff9b::/96 carries the address in its last 32 bits; 64:ff9b:1::/48 is local-use (RFC 8215), where
      // the position depends on the local prefix length, and it only ever reaches the operator's own network.
      return p[2] === 0 ? [v4(p[6], p[7])] : [v4(0, 0)];
    case '6to4': // 2002:AABB:CCDD::/48
      return [v4(p[1], p[2])];
    case 'teredo': // 2001:0:SERVER:flags:port:~CLIENT: packets end up at the client, obfuscated by inversion
      return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291), which :: and ::1 belong to as 0.0.0.0 and 0.0.0.1.
      return p.slice(0, 6).every((part) => part === 0) ? [v4(p[6], p[7])] : null;
  }
}

function v6Blocked(ip: IPv6): boolean {
  const embedded = embeddedV4(ip);
  if (embedded) return embedded.some((address) => BLOCKED_V4.has(address.range()));
  return BLOCKED_V6.has(ip.range());
}

/**
 * `host` is a WHATWG `URL.hostname`: the URL parser has already turned decimal, octal and hex IPv4 forms
 * (`2130706433`, `0x7f.1`, `017700000001`) into a dotted quad and IPv6 into its compressed form in brackets.
 * ipaddr.js parses the same legacy forms, so a host that reached here some other way is read the same way.
 */
function hostBlocked(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (ipaddr.IPv6.isValid(bare)) return v6Blocked(ipaddr.IPv6.parse(bare));
  if (ipaddr.IPv4.isValid(bare)) return BLOCKED_V4.has(ipaddr.IPv4.parse(bare).range());
  // Names are not resolved here; these are the ones every resolver answers with loopback. A trailing dot
  // only marks the name as fully qualified (`localhost.`).
  const name = bare.replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * `api_url` as GitLab's UrlBlocker sees it: http(s) only, no credentials, and no loopback, link-local or
 * private address unless the instance allows local requests.
 */
export function apiUrlProblem(value: string, allowLocal: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is blocked: URI is invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'is blocked: Only allowed schemes are http, https';
  if (url.username || url.password) return 'is blocked: Username and password are not allowed in the URL';
  if (!allowLocal && hostBlocked(url.hostname))
    return 'is blocked: Requests to the local network are not allowed';
  return null;
}
