import { checkUrl, type HostLookup, type UrlCheckOptions } from './url-blocker';

/** A resolver answering from a table, so no test depends on the machine's DNS. */
function stubLookup(table: Record<string, string[]>): HostLookup {
  return async (host) => {
    const addresses = table[host.toLowerCase()];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const lookup = stubLookup({
  'sentry.example.com': ['93.184.215.14'],
  'localhost.example.com': ['93.184.215.14'],
  mylocalhost: ['93.184.215.14'],
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.215.14', '192.168.1.10'],
  'loop.example.com': ['127.0.0.1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'six.example.com': ['::1'],
});

const options = (allowLocal: boolean, more: Partial<UrlCheckOptions> = {}): UrlCheckOptions => ({
  allowLocal,
  lookup,
  ...more,
});

async function problem(url: string, allowLocal: boolean, more: Partial<UrlCheckOptions> = {}) {
  const result = await checkUrl(url, options(allowLocal, more));
  return result.ok ? null : result.message;
}

describe('checkUrl', () => {
  it.each([
    // loopback, 0.0.0.0/8, private, shared address space, link-local, multicast, reserved, broadcast
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.0.1',
    '198.18.0.1',
    // decimal, hex, octal and short IPv4 forms
    '2130706433',
    '0x7f.1',
    '017700000001',
    '0x7f000001',
    '127.1',
    '0177.0.0.1',
    '0x7f.0x0.0x0.0x1',
    '%31%32%37.0.0.1',
    '127.0.0.1.',
    '0',
    '167772161',
    '3232235777',
    '0xa9.0xfe.0xa9.0xfe',
    '4294967295',
    // IPv6 ranges
    '[::]',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[fe80::1]',
    '[febf::1]',
    '[fc00::1]',
    '[fd12:3456::1]',
    '[fec0::1]',
    '[ff02::1]',
    '[2001:db8::1]',
    '[100::1]',
    // IPv6 forms carrying a blocked IPv4 address
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::FFFF:7F00:1]',
    '[0:0:0:0:0:ffff:10.0.0.1]',
    '[::ffff:a9fe:a9fe]',
    '[::ffff:0:7f00:1]',
    '[::7f00:1]',
    '[::127.0.0.1]',
    '[::c0a8:1]',
    '[64:ff9b::7f00:1]',
    '[64:ff9b::127.0.0.1]',
    '[64:ff9b::a9fe:a9fe]',
    '[64:ff9b:1::808:808]',
    '[2002:7f00:1::]',
    '[2002:a9fe:a9fe::1]',
    '[2002:c0a8:101::]',
    '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
    '[2001:0:a00:1:8000:63bf:f7f7:f7f7]',
    // names every resolver answers with loopback, and the cloud metadata service's names
    'localhost',
    'LOCALHOST',
    'localhost.',
    'sentry.localhost',
    'sentry.localhost.',
    'metadata.google.internal',
    'metadata.goog',
    // names resolving to local addresses, or to a public and a local one
    'internal.example.com',
    'mixed.example.com',
    'loop.example.com',
    'mapped.example.com',
    'six.example.com',
  ])('When local requests are not allowed and the host is %s, then it is blocked', async (host) => {
    expect(await problem(`http://${host}:9000/api/0/`, false)).toMatch(/^Requests to /);
    expect(await problem(`https://${host}/`, true)).toBeNull();
  });

  it.each([
    ['127.0.0.1', 'Requests to localhost are not allowed'],
    ['0.0.0.0', 'Requests to localhost are not allowed'],
    ['[::1]', 'Requests to localhost are not allowed'],
    ['[::]', 'Requests to localhost are not allowed'],
    ['localhost', 'Requests to localhost are not allowed'],
    ['loop.example.com', 'Requests to localhost are not allowed'],
    ['mapped.example.com', 'Requests to localhost are not allowed'],
    ['127.0.0.2', 'Requests to loopback addresses are not allowed'],
    ['10.0.0.1', 'Requests to the local network are not allowed'],
    ['192.168.1.1', 'Requests to the local network are not allowed'],
    ['[fd00::1]', 'Requests to the local network are not allowed'],
    ['[fec0::1]', 'Requests to the local network are not allowed'],
    ['internal.example.com', 'Requests to the local network are not allowed'],
    ['mixed.example.com', 'Requests to the local network are not allowed'],
    ['169.254.169.254', 'Requests to the link local network are not allowed'],
    ['[fe80::1]', 'Requests to the link local network are not allowed'],
    ['metadata.google.internal', 'Requests to the link local network are not allowed'],
    ['100.64.0.1', 'Requests to the shared address space are not allowed'],
    ['255.255.255.255', 'Requests to the limited broadcast address are not allowed'],
    ['224.0.0.1', 'Requests to the local network are not allowed'],
  ])('When the host is %s, then GitLab’s message for it is given', async (host, message) => {
    expect(await problem(`http://${host}/hook`, false)).toBe(message);
  });

  it.each([
    'sentry.example.com',
    'localhost.example.com',
    'mylocalhost',
    '8.8.8.8',
    '1.1.1.1',
    '11.0.0.1',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '223.255.255.254',
    '134744072',
    '[2606:4700:4700::1111]',
    '[2001:4860:4860::8888]',
    '[::ffff:8.8.8.8]',
    '[64:ff9b::808:808]',
    '[2002:808:808::]',
    '[2001:0:4136:e378:8000:63bf:f7f7:f7f7]',
  ])('When local requests are not allowed and the host is public %s, then it is allowed', async (host) => {
    expect(await problem(`https://${host}/api/0/projects/o/p/`, false)).toBeNull();
  });

  it.each([
    ['not a url', 'URI is invalid'],
    ['http://1.1.1.1.1/', 'URI is invalid'],
    ['http://[fe80::1%25eth0]/', 'URI is invalid'],
    ['http://hooks.example.com/a\nb', 'URI is invalid'],
    ['ftp://sentry.example.com/', 'Only allowed schemes are http, https'],
    ['javascript:alert(1)', 'Only allowed schemes are http, https'],
    ['http://_hooks.example.com/', 'Hostname or IP address invalid'],
  ])(
    'When the URL is %s, then it is refused whether or not local requests are allowed',
    async (url, message) => {
      expect(await problem(url, false)).toBe(message);
      expect(await problem(url, true)).toBe(message);
    },
  );

  it('When credentials are refused, then a URL carrying them is blocked; otherwise they pass', async () => {
    const refused = { refuseCredentials: true };
    expect(await problem('https://user:pass@sentry.example.com/', false, refused)).toBe(
      'Username and password are not allowed in the URL',
    );
    expect(await problem('https://user@127.0.0.1/', true, refused)).toBe(
      'Username and password are not allowed in the URL',
    );
    expect(await problem('https://user:pass@sentry.example.com/', false)).toBeNull();
  });

  it('When the host resolves, then every address is returned for the delivery to connect to', async () => {
    const result = await checkUrl('https://hooks.example.com/x', options(false));
    expect(result).toMatchObject({
      ok: true,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
    expect(await checkUrl('http://10.0.0.1/', options(true))).toMatchObject({
      ok: true,
      addresses: ['10.0.0.1'],
    });
  });

  it('When the host does not resolve, then it is refused only where resolution is required', async () => {
    expect(await problem('https://nowhere.invalid/', false)).toBe('Host cannot be resolved or invalid');
    expect(await problem('https://nowhere.invalid/', true)).toBe('Host cannot be resolved or invalid');
    expect(
      await checkUrl('https://nowhere.invalid/', options(false, { requireResolution: false })),
    ).toMatchObject({
      ok: true,
      addresses: [],
    });
  });

  it('When the resolver does not answer in time, then the host counts as unresolvable', async () => {
    const hanging: HostLookup = () => new Promise(() => undefined);
    const result = await checkUrl('https://slow.example.com/', {
      allowLocal: false,
      lookup: hanging,
      lookupTimeoutMs: 20,
    });
    expect(result).toEqual({
      ok: false,
      reason: 'unresolvable',
      message: 'Host cannot be resolved or invalid',
    });
  });

  it('When no resolver is given, then the system one is asked: localhost never reaches it', async () => {
    expect(await checkUrl('http://localhost:3000/', { allowLocal: false })).toMatchObject({
      ok: false,
      reason: 'localhost',
    });
  });
});
