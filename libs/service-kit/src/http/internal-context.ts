import { createHmac } from 'node:crypto';
import { internalContext, type InternalContext } from '@gl/contracts';
import { secretsEqual } from './safe-compare';

/**
 * The gateway signs the request context (principal, scopes, access level on the addressed namespace);
 * services trust nothing else. Format: base64url(JSON) "." base64url(HMAC-SHA256(secret, JSON part)).
 */
export const CONTEXT_TTL_MS = 60_000;

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

export function signContext(secret: string, context: InternalContext): string {
  const payload = Buffer.from(JSON.stringify(context)).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

export type VerifyResult = { ok: true; context: InternalContext } | { ok: false; reason: string };

export function verifyContext(secret: string, header: string | undefined, now = Date.now()): VerifyResult {
  if (!header) return { ok: false, reason: 'missing internal context' };
  const dot = header.indexOf('.');
  if (dot <= 0) return { ok: false, reason: 'malformed internal context' };
  const payload = header.slice(0, dot);
  if (!secretsEqual(header.slice(dot + 1), sign(secret, payload))) {
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
