import { createHash, randomBytes } from 'node:crypto';

/** GitLab personal access tokens: `glpat-` and 20 URL-safe characters. Only the SHA-256 is stored. */
export function generateToken(): string {
  return `glpat-${randomBytes(15).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
