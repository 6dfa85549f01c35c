import { upstreamUrls, roundRobin } from './upstreams';

describe('upstream URLs of a service', () => {
  it('When one URL is given, then it is the only replica (as before replicas)', () => {
    expect(upstreamUrls.parse('http://127.0.0.1:3001')).toEqual(['http://127.0.0.1:3001']);
  });

  it('When several URLs are given with commas, then each is a replica, trimmed and without a trailing slash', () => {
    expect(upstreamUrls.parse(' http://127.0.0.1:3001/ ,http://127.0.0.1:3002')).toEqual([
      'http://127.0.0.1:3001',
      'http://127.0.0.1:3002',
    ]);
  });

  it.each([
    ['an empty value', ''],
    ['an empty entry', 'http://127.0.0.1:3001,,http://127.0.0.1:3002'],
    ['a trailing comma', 'http://127.0.0.1:3001,'],
    ['something that is not a URL', 'http://127.0.0.1:3001,localhost'],
    ['the same URL twice', 'http://127.0.0.1:3001,http://127.0.0.1:3001/'],
  ])('When the setting holds %s, then it is refused', (_what, value) => {
    expect(upstreamUrls.safeParse(value).success).toBe(false);
  });
});

describe('round-robin', () => {
  it('When called repeatedly, then it cycles through the items in order', () => {
    const next = roundRobin(['a', 'b', 'c']);
    expect(Array.from({ length: 7 }, next)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
  });

  it('When there is one item, then it is always that one', () => {
    const next = roundRobin(['only']);
    expect([next(), next()]).toEqual(['only', 'only']);
  });

  it('When there is nothing to choose from, then it refuses at once', () => {
    expect(() => roundRobin([])).toThrow('at least one');
  });
});
