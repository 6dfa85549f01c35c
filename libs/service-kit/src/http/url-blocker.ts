import { promises as dns } from 'node:dns';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/**
 * Why a URL is refused, one per check of GitLab's UrlBlocker (lib/gitlab/url_blocker.rb), in the order it
 * runs them; `reserved` covers the ranges GitLab lets through but that never name a public server
 * (multicast, 240.0.0.0/4, documentation and benchmarking networks…), refused here as the local network.
 */
export type UrlBlockReason =
  | 'invalid'
  | 'scheme'
  | 'credentials'
  | 'hostname'
  | 'unresolvable'
  | 'localhost'
  | 'loopback'
  | 'local_network'
  | 'link_local'
  | 'shared_address'
  | 'broadcast'
  | 'reserved';

/** lib/gitlab/url_blocker.rb's BlockedUrlError messages (AddressableUrlValidator prefixes "is blocked: "). */
export const URL_BLOCK_MESSAGES: Record<UrlBlockReason, string> = {
  invalid: 'URI is invalid',
  scheme: 'Only allowed schemes are http, https',
  credentials: 'Username and password are not allowed in the URL',
  hostname: 'Hostname or IP address invalid',
  unresolvable: 'Host cannot be resolved or invalid',
  localhost: 'Requests to localhost are not allowed',
  loopback: 'Requests to loopback addresses are not allowed',
  local_network: 'Requests to the local network are not allowed',
  link_local: 'Requests to the link local network are not allowed',
  shared_address: 'Requests to the shared address space are not allowed',
  broadcast: 'Requests to the limited broadcast address are not allowed',
  reserved: 'Requests to the local network are not allowed',
};

/** The reasons that only `allowLocal` lifts (GitLab's allow_localhost and allow_local_network). */
const LOCAL_REASONS = new Set<UrlBlockReason>([
  'localhost',
  'loopback',
  'local_network',
  'link_local',
  'shared_address',
  'broadcast',
  'reserved',
]);

export function isLocalBlockReason(reason: UrlBlockReason): boolean {
  return LOCAL_REASONS.has(reason);
}

/** `dns.promises.lookup(host, {all: true})`'s shape, injectable so tests need no resolver. */
export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

export interface UrlCheckOptions {
  /** Allow loopback, private, link-local… addresses (allow_local_requests_from_web_hooks_and_services). */
  allowLocal: boolean;
  /**
   * GitLab's `dns_rebind_protection`: a host that does not resolve is refused. Model validators run without
   * it (AddressableUrlValidator), so a hook may name a host that resolves only later; delivery runs with it.
   */
  requireResolution?: boolean;
  /** Refuse `user:password@` (error tracking's `api_url`); hooks keep them, GitLab sends them as basic auth. */
  refuseCredentials?: boolean;
  lookup?: HostLookup;
  /** A resolver that does not answer within this counts as unresolvable (default 5 s). */
  lookupTimeoutMs?: number;
}

export type UrlCheck =
  | {
      ok: true;
      url: URL;
      /**
       * The addresses checked, for a delivery to connect to (not the name again: a second lookup may answer
       * otherwise, DNS rebinding); empty when the host did not resolve and resolution was not required.
       */
      addresses: string[];
    }
  | { ok: false; reason: UrlBlockReason; message: string };

/**
 * ipaddr.js range names, by the GitLab check they fail. 127.0.0.1 and ::1 are "localhost": GitLab's
 * `validate_localhost` lists the host's own addresses (Socket.ip_address_list), which hold them, and
 * runs before `validate_loopback`.
 */
const V4_RANGES: Record<string, UrlBlockReason> = {
  unspecified: 'localhost',
  loopback: 'loopback',
  private: 'local_network',
  linkLocal: 'link_local',
  carrierGradeNat: 'shared_address',
  broadcast: 'broadcast',
  multicast: 'reserved',
  reserved: 'reserved',
  benchmarking: 'reserved',
};

/** The IPv6 side; `deprecatedSiteLocal` is Ruby's `ipv6_sitelocal?`, fec0::/10. */
const V6_RANGES: Record<string, UrlBlockReason> = {
  unspecified: 'localhost',
  loopback: 'localhost',
  uniqueLocal: 'local_network',
  deprecatedSiteLocal: 'local_network',
  linkLocal: 'link_local',
  multicast: 'reserved',
  discard: 'reserved',
  reserved: 'reserved',
  benchmarking: 'reserved',
};

/**
 * Names that answer with a local address whatever the resolver says: `localhost` (RFC 6761) and the cloud
 * metadata service's names, which resolve to 169.254.169.254 inside the cloud and nowhere else.
 */
const LOCAL_NAMES: Record<string, string> = {
  localhost: '127.0.0.1',
  'metadata.google.internal': '169.254.169.254',
  'metadata.goog': '169.254.169.254',
  metadata: '169.254.169.254',
};

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
      // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291); :: and ::1 keep their own IPv6 meaning.
      if (p.slice(0, 6).every((part) => part === 0) && (p[6] !== 0 || p[7] > 1)) return [v4(p[6], p[7])];
      return null;
  }
}

function v4Reason(ip: IPv4): UrlBlockReason | null {
  if (ip.toString() === '127.0.0.1') return 'localhost';
  return V4_RANGES[ip.range()] ?? null;
}

/** Why one address is refused while local requests are not allowed, or null for a public address. */
export function addressBlockReason(address: string): UrlBlockReason | null {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (ipaddr.IPv6.isValid(bare)) {
    const ip = ipaddr.IPv6.parse(bare);
    const embedded = embeddedV4(ip);
    if (embedded) return embedded.map(v4Reason).find((reason) => reason !== null) ?? null;
    return V6_RANGES[ip.range()] ?? null;
  }
  if (ipaddr.IPv4.isValid(bare)) return v4Reason(ipaddr.IPv4.parse(bare));
  return null;
}

/** GitLab's checks run one after the other over every address: the first failing check names the reason. */
const CHECK_ORDER: UrlBlockReason[] = [
  'localhost',
  'loopback',
  'local_network',
  'link_local',
  'shared_address',
  'broadcast',
  'reserved',
];

function firstReason(addresses: string[]): UrlBlockReason | null {
  const reasons = new Set(addresses.map(addressBlockReason));
  return CHECK_ORDER.find((reason) => reasons.has(reason)) ?? null;
}

const defaultLookup: HostLookup = (host) => dns.lookup(host, { all: true, verbatim: true });

async function resolve(host: string, options: UrlCheckOptions): Promise<string[] | null> {
  const lookup = options.lookup ?? defaultLookup;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((done) => {
    timer = setTimeout(() => done(null), options.lookupTimeoutMs ?? 5_000);
  });
  try {
    const answers = await Promise.race([lookup(host), timeout]);
    if (!answers || answers.length === 0) return null;
    // Ruby's Addrinfo#ipv6_to_ipv4: a mapped answer is judged as the IPv4 address it carries.
    return answers.map(({ address }) => address);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

const refuse = (reason: UrlBlockReason): UrlCheck => ({
  ok: false,
  reason,
  message: URL_BLOCK_MESSAGES[reason],
});

/**
 * GitLab's UrlBlocker.validate! for http(s) URLs: parse, scheme, host name, then every address the host
 * resolves to (an IP literal is its own). A host is refused when ANY of its addresses is local, so a name
 * cannot hide a private address behind a public one.
 */
export async function checkUrl(value: string, options: UrlCheckOptions): Promise<UrlCheck> {
  // Addressable refuses line breaks (multiline_blocked?); the WHATWG parser would silently drop them.
  if (/[\r\n]/.test(value)) return refuse('invalid');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse('invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse('scheme');
  if (options.refuseCredentials && (url.username || url.password)) return refuse('credentials');
  // The WHATWG parser has turned decimal, octal and hex IPv4 forms (`2130706433`, `0x7f.1`) into a dotted
  // quad and IPv6 into its compressed form in brackets, so a literal is recognised whatever its spelling.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = ipaddr.isValid(host);
  if (!literal && !/^[\p{L}\p{N}]/u.test(host)) return refuse('hostname');
  const name = host.toLowerCase().replace(/\.$/, '');
  const fixed = LOCAL_NAMES[name] ?? (name.endsWith('.localhost') ? '127.0.0.1' : undefined);
  let addresses: string[] | null;
  if (literal) addresses = [host];
  else if (fixed) addresses = [fixed];
  else addresses = await resolve(host, options);
  if (!addresses) {
    return options.requireResolution === false ? { ok: true, url, addresses: [] } : refuse('unresolvable');
  }
  if (!options.allowLocal) {
    const reason = firstReason(addresses);
    if (reason) return refuse(reason);
  }
  return { ok: true, url, addresses };
}
