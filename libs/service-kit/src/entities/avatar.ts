import { createHash } from 'node:crypto';

/**
 * The avatar of a user without an uploaded one, as GitLab renders it with Gravatar enabled (the default):
 * app/services/gravatar_service.rb hashes the trimmed, lower-cased address with MD5 into
 * `gravatar.plain_url` / `ssl_url`, `https://www.gravatar.com/avatar/%{hash}?s=%{size}&d=identicon`,
 * at the API's size, 80 (40 at scale 2). Null without an address, where GitLab has none to show either.
 */
export function gravatarUrl(email: string | null | undefined): string | null {
  const address = email?.trim().toLowerCase();
  if (!address) return null;
  const hash = createHash('md5').update(address).digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}
