import { apiUrlProblem } from './url-blocker';

const LOCAL = 'is blocked: Requests to the local network are not allowed';

describe('apiUrlProblem', () => {
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
    // names every resolver answers with loopback
    'localhost',
    'LOCALHOST',
    'localhost.',
    'sentry.localhost',
    'sentry.localhost.',
  ])('When local requests are not allowed and the host is %s, then it is blocked', (host) => {
    expect(apiUrlProblem(`http://${host}:9000/api/0/`, false)).toBe(LOCAL);
    expect(apiUrlProblem(`https://${host}/`, true)).toBeNull();
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
  ])('When local requests are not allowed and the host is public %s, then it is allowed', (host) => {
    expect(apiUrlProblem(`https://${host}/api/0/projects/o/p/`, false)).toBeNull();
  });

  it.each([
    ['not a url', 'is blocked: URI is invalid'],
    ['http://1.1.1.1.1/', 'is blocked: URI is invalid'],
    ['http://[fe80::1%25eth0]/', 'is blocked: URI is invalid'],
    ['ftp://sentry.example.com/', 'is blocked: Only allowed schemes are http, https'],
    ['https://user:pass@sentry.example.com/', 'is blocked: Username and password are not allowed in the URL'],
    ['https://user@127.0.0.1/', 'is blocked: Username and password are not allowed in the URL'],
  ])(
    'When the URL is %s, then the problem is reported whether or not local requests are allowed',
    (url, reason) => {
      expect(apiUrlProblem(url, false)).toBe(reason);
      expect(apiUrlProblem(url, true)).toBe(reason);
    },
  );
});
