import { createHash } from 'node:crypto';
import type { IdentityRevision, NamespaceContext, Principal, Tier } from '@gl/contracts';
import { ifNoneMatchMatches, readKeys, type ResourceVersions } from '@gl/service-kit';

/**
 * Conditional GETs answered here, without forwarding (RFC 9110 §13.1.2): a polled read's entity tag names
 * the versions of what its answer depends on (libs/service-kit/src/bus/resource-versions.ts) and whatever
 * else makes answers differ: the URL, the caller and their identity revisions, the tier, the signed
 * namespace (its path, visibility and features) and the day (milestones turn `expired` at midnight). A
 * request whose If-None-Match holds the tag of the versions the bucket holds now gets 304; the services'
 * own tags (a hash of the body, conditional.ts) stay on every other answer.
 *
 * Without If-None-Match the tag comes from this process's copy of the versions, which may be behind the
 * bucket: a tag older than the answer it labels only costs the client one more full answer later, never
 * a wrong 304, because a 304 is decided on the bucket's versions read at that moment.
 */
export interface VersionedRead {
  service: string;
  namespace: NamespaceContext;
  /** The forwarded URL (numeric namespace id, no credentials). */
  url: string;
  principal: Principal | null;
  tier: Tier;
  revision: IdentityRevision;
  ifNoneMatch: string | string[] | undefined;
}

export interface VersionedReads {
  /** `notModified` with the tag to send with the 304, or the tag the full answer goes out with. */
  decide(read: VersionedRead): Promise<{ notModified: boolean; tag: string } | null>;
}

/** How long a 304 may wait for the bucket before the request is forwarded instead. */
const BUCKET_WAIT_MS = 500;

function entityTag(read: VersionedRead, versions: number[]): string {
  const hash = createHash('sha1');
  const caller = read.principal
    ? `${read.principal.id}${read.principal.isAdmin ? ':admin' : ''}`
    : 'anonymous';
  hash.update(
    [
      read.url,
      caller,
      read.tier,
      JSON.stringify(read.namespace),
      `${read.revision.user}/${read.revision.visibility}`,
      new Date().toISOString().slice(0, 10),
      versions.join(','),
    ].join('\n'),
  );
  return `W/"v1-${hash.digest('base64url')}"`;
}

function withinWait<T>(work: Promise<T>): Promise<T | null> {
  return Promise.race([
    work.catch(() => null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), BUCKET_WAIT_MS).unref()),
  ]);
}

export function createVersionedReads(
  versions: Pick<ResourceVersions, 'current'>,
  known: (key: string) => number,
): VersionedReads {
  return {
    async decide(read) {
      const keys = readKeys(read.service, read.namespace);
      // `*` asks whether the resource exists at all: only the service knows (conditional.ts).
      if (read.ifNoneMatch === undefined || String(read.ifNoneMatch).trim() === '*') {
        return { notModified: false, tag: entityTag(read, keys.map(known)) };
      }
      const now = await withinWait(versions.current(keys));
      // The bucket out of reach: the service answers in full, with its own tag.
      if (now === null) return null;
      const tag = entityTag(read, now);
      return { notModified: ifNoneMatchMatches(read.ifNoneMatch, tag), tag };
    },
  };
}
