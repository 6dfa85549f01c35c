import { isIP } from 'node:net';

/** Addresses GitLab's UrlBlocker (lib/gitlab/url_blocker.rb) refuses while local requests are not allowed. */
function ipv4Blocked(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number) as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

function ipBlocked(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const version = isIP(bare);
  if (version === 4) return ipv4Blocked(bare);
  if (version === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
    if (mapped) return ipv4Blocked(mapped[1]!);
    return (
      bare === '::' ||
      bare === '::1' ||
      /^fe[89ab]/.test(bare) ||
      /^f[cd]/.test(bare) ||
      bare.startsWith('::ffff:')
    );
  }
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '0';
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
  if (!allowLocal && ipBlocked(url.hostname))
    return 'is blocked: Requests to the local network are not allowed';
  return null;
}
