import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { internalContext, type InternalContext } from '@gl/contracts';

/**
 * The gateway signs the request context (principal, scopes, access level on the addressed namespace);
 * services trust nothing else. Format: base64url(JSON) "." base64url(HMAC-SHA256(secret, JSON part)).
 */
export const CONTEXT_TTL_MS = 60_000;

/** The secret as a key object, made once per secret: HMAC with a string key converts it on every call. */
let cachedKey: { secret: string; key: KeyObject } | undefined;

function sign(secret: string, payload: string): string {
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: createSecretKey(Buffer.from(secret, 'utf8')) };
  return createHmac('sha256', cachedKey.key).update(payload).digest('base64url');
}

export function signContext(secret: string, context: InternalContext): string {
  const payload = Buffer.from(JSON.stringify(context)).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/**
 * The signature compared in constant time. Both sides are strings of the same byte length whenever the
 * header is well formed (an HMAC is 32 bytes, 43 characters), so they are compared as they are, without
 * hashing them first as secretsEqual must for secrets of any length; the length of a signature is no secret.
 */
function signatureMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export type VerifyResult = { ok: true; context: InternalContext } | { ok: false; reason: string };

export function verifyContext(secret: string, header: string | undefined, now = Date.now()): VerifyResult {
  if (!header) return { ok: false, reason: 'missing internal context' };
  const dot = header.indexOf('.');
  if (dot <= 0) return { ok: false, reason: 'malformed internal context' };
  const payload = header.slice(0, dot);
  if (!signatureMatches(header.slice(dot + 1), sign(secret, payload))) {
    return { ok: false, reason: 'bad internal context signature' };
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed internal context' };
  }
  const parsed = internalContext.safeParse(decoded);
  if (!parsed.success) return { ok: false, reason: 'invalid internal context' };
  if (parsed.data.exp < now) return { ok: false, reason: 'expired internal context' };
  return { ok: true, context: parsed.data };
}
