import { parseQueryString } from './nested-params';

describe('nested parameters (Rack-style bracket keys)', () => {
  it('When keys are bracketed, then they become nested objects (gitbeaker diff-note positions)', () => {
    expect(parseQueryString('body=x&position[base_sha]=a&position[line_range][start][line_code]=lc')).toEqual(
      {
        body: 'x',
        position: { base_sha: 'a', line_range: { start: { line_code: 'lc' } } },
      },
    );
  });

  it('When a key ends in [], then values collect into an array', () => {
    expect(parseQueryString('labels[]=a&labels[]=b&scopes[]=api')).toEqual({
      labels: ['a', 'b'],
      scopes: ['api'],
    });
  });

  it('When a key tries to reach the prototype, then it is dropped', () => {
    const parsed = parseQueryString('__proto__[admin]=1&a[constructor][x]=1&ok=1');
    expect(parsed).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('When plain keys repeat, then the last one wins as in Rack', () => {
    expect(parseQueryString('id=1&id=2')).toEqual({ id: '2' });
  });
});
