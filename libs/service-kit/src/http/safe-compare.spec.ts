import { secretsEqual } from './safe-compare';

describe('constant-time secret comparison', () => {
  const secret = 'registry-secret-0123456789';

  it('When the given value is the secret, then it matches', () => {
    expect(secretsEqual(secret, secret)).toBe(true);
    expect(secretsEqual(Buffer.from(secret), secret)).toBe(true);
  });

  it('When the given value differs, is shorter, longer or empty, then it does not match', () => {
    for (const given of ['registry-secret-0123456788', 'registry', `${secret}x`, '']) {
      expect({ given, equal: secretsEqual(given, secret) }).toEqual({ given, equal: false });
    }
  });

  it("When the given value is non-ASCII with the secret's character count, then it is a plain mismatch, not a throw", () => {
    const sameLength = 'é'.repeat(secret.length);
    expect(() => secretsEqual(sameLength, secret)).not.toThrow();
    expect(secretsEqual(sameLength, secret)).toBe(false);
  });

  it('When nothing is given or nothing is expected, then it never matches', () => {
    expect(secretsEqual(undefined, secret)).toBe(false);
    expect(secretsEqual(null, secret)).toBe(false);
    expect(secretsEqual('', '')).toBe(false);
  });
});
