import type { InternalContext } from '@gl/contracts';
import { signContext, verifyContext } from './internal-context';

const SECRET = 'a'.repeat(40);
const context: InternalContext = {
  v: 1,
  requestId: 'r1',
  exp: Date.now() + 60_000,
  tier: 'free',
  externalUrl: 'http://gitlab.example',
  principal: null,
  namespace: null,
};

describe('internal context signature', () => {
  it('When signed with the shared secret, then it verifies and round-trips', () => {
    const result = verifyContext(SECRET, signContext(SECRET, context));
    expect(result).toEqual({ ok: true, context });
  });

  it('When signed with another secret, then it is refused', () => {
    expect(verifyContext(SECRET, signContext('b'.repeat(40), context))).toMatchObject({ ok: false });
  });

  it('When the payload is altered after signing, then it is refused', () => {
    const [, signature] = signContext(SECRET, context).split('.');
    const forged = Buffer.from(JSON.stringify({ ...context, tier: 'ultimate' })).toString('base64url');
    expect(verifyContext(SECRET, `${forged}.${signature}`)).toMatchObject({
      ok: false,
      reason: 'bad internal context signature',
    });
  });

  it('When the signature is non-ASCII with the expected length, then it is refused, not thrown', () => {
    const [payload, signature] = signContext(SECRET, context).split('.');
    const forged = `${payload}.${'é'.repeat(signature!.length)}`;
    expect(() => verifyContext(SECRET, forged)).not.toThrow();
    expect(verifyContext(SECRET, forged)).toMatchObject({
      ok: false,
      reason: 'bad internal context signature',
    });
  });

  it('When expired, missing or malformed, then it is refused', () => {
    expect(verifyContext(SECRET, signContext(SECRET, { ...context, exp: Date.now() - 1 }))).toMatchObject({
      ok: false,
      reason: 'expired internal context',
    });
    expect(verifyContext(SECRET, undefined)).toMatchObject({ ok: false });
    expect(verifyContext(SECRET, 'garbage')).toMatchObject({ ok: false });
  });
});
