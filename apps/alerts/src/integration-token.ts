import { createHash, randomBytes } from 'node:crypto';
import { secretsEqual } from '@gl/service-kit';
import type { Integration } from './integrations.store';

/** An integration keeps the SHA-256 of its token only; the token itself is shown once. */
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A fresh token and the hash to store for it. */
export function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(16).toString('hex');
  return { token, tokenHash: hashToken(token) };
}

export function tokenMatches(token: string | null, integration: Integration): boolean {
  return token !== null && token !== '' && secretsEqual(hashToken(token), integration.tokenHash);
}
