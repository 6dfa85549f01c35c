import type { HostLookup } from '@gl/service-kit';
import { hookErrors, interpolatedUrl, type HookFields } from './hook-validation';

const lookup: HostLookup = async (host) => {
  if (host === 'hooks.example.com') return [{ address: '93.184.215.14', family: 4 }];
  throw new Error(`getaddrinfo ENOTFOUND ${host}`);
};

const hook = (fields: Partial<HookFields> = {}): HookFields => ({
  url: 'https://hooks.example.com/',
  token: null,
  name: null,
  description: null,
  pushEventsBranchFilter: null,
  branchFilterStrategy: 'wildcard',
  customWebhookTemplate: null,
  urlVariables: [],
  customHeaders: [],
  ...fields,
});

const errorsOf = (fields: Partial<HookFields>, allowLocal = false) =>
  hookErrors(hook(fields), { allowLocal, lookup });

describe('interpolatedUrl', () => {
  it('When every {name} has a variable, then each is replaced; a missing one gives null', () => {
    const vars = [
      { key: 'host', value: 'hooks.example.com' },
      { key: 'a_b', value: 'x' },
    ];
    expect(interpolatedUrl('https://{host}/p/{a_b}?q={host}', vars)).toBe(
      'https://hooks.example.com/p/x?q=hooks.example.com',
    );
    expect(interpolatedUrl('https://{host}/{other}', vars)).toBeNull();
    expect(interpolatedUrl('https://hooks.example.com/{}', vars)).toBe('https://hooks.example.com/{}');
  });
});

describe('hookErrors', () => {
  it('When the hook is valid, then there is no error', async () => {
    expect(await errorsOf({})).toEqual({});
  });

  it('When the URL is blocked, then the url error carries the blocker’s reason', async () => {
    expect(await errorsOf({ url: 'http://127.0.0.1/' })).toEqual({
      url: ['is blocked: Requests to localhost are not allowed'],
    });
    expect(await errorsOf({ url: 'http://10.1.1.1/' })).toEqual({
      url: ['is blocked: Requests to the local network are not allowed'],
    });
    expect(await errorsOf({ url: 'http://10.1.1.1/' }, true)).toEqual({});
    expect(await errorsOf({ url: ' ' })).toEqual({ url: ["can't be blank"] });
  });

  it('When the URL uses a variable nobody defines, then GitLab’s template message', async () => {
    expect(
      await errorsOf({ url: 'https://hooks.example.com/{a}/{b}', urlVariables: [{ key: 'a', value: '1' }] }),
    ).toEqual({
      url: ['Invalid URL template. Missing keys: ["b"]'],
    });
  });

  it('When there are more than 20 variables or headers, then the schema refuses them', async () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
    expect(await errorsOf({ urlVariables: many })).toEqual({
      url_variables: ['must be a valid json schema'],
    });
    expect(await errorsOf({ customHeaders: many })).toEqual({
      custom_headers: ['must be a valid json schema'],
    });
  });

  it('When branch filters are given, then regexes must compile with RE2 and wildcards be ref-like', async () => {
    expect(
      await errorsOf({ branchFilterStrategy: 'regex', pushEventsBranchFilter: '^(main|release/.*)$' }),
    ).toEqual({});
    expect(
      await errorsOf({ branchFilterStrategy: 'regex', pushEventsBranchFilter: '(?<=x)y' }),
    ).toHaveProperty('push_events_branch_filter');
    expect(await errorsOf({ pushEventsBranchFilter: 'main,release/*' })).toEqual({});
    expect(await errorsOf({ pushEventsBranchFilter: 'a..b' })).toHaveProperty('push_events_branch_filter');
    expect(await errorsOf({ branchFilterStrategy: 'all_branches', pushEventsBranchFilter: 'a b' })).toEqual(
      {},
    );
  });
});
