import type { Request, Response } from 'express';
import { Schema, type Connection, type Model } from 'mongoose';
import {
  groupEventData,
  memberEventData,
  projectEventData,
  type EventEnvelope,
  type IdentityRevision,
  type InternalContext,
} from '@gl/contracts';
import { UnavailableError } from '../errors';
import { isDuplicateKeyError } from './connection';

/**
 * How far a service's identity projection (memberships, visibility) has caught up with the gateway.
 * The gateway stamps membership events and project/group visibility changes and removals with an identity
 * revision and signs, in each request's context, the newest one of the caller's memberships and the newest
 * visibility one (`identityRevision`). A service that authorizes from its projection records the revisions
 * it applied and, before such a decision, waits until it has applied the context's: a removal counts on
 * the very next request, as it does for the services that use the signed access level.
 *
 * Recorded per user and for visibility, never as one global number: a user whose memberships did not
 * change never waits for other users' changes, even while the consumer is behind.
 *
 * Records live in the database (`$max`, by `_id`) so replicas and restarts see what another process
 * applied; this process's own records are also kept in memory and wake waiting requests at once.
 */
/**
 * Counts changes to the identity projections made by this process's consumer (events' access cache, discussions' group lists), so the read side reloads
 * them right after a change instead of on every request.
 */
export class ProjectionVersion {
  value = 0;
  bump(): void {
    this.value += 1;
  }
}

export interface ProjectionRevisions {
  /** After the projection applied `event`: records the revision it carries (nothing without one). */
  applied(event: EventEnvelope): Promise<void>;
  /** Revisions known here to be applied, for tagging cached projection reads. */
  known(userId: number | null): IdentityRevision;
  /**
   * Resolves once the projection has applied the context's revisions, waiting at most `maxWaitMs`;
   * then UnavailableError (503): an answer from an older projection could show what was just revoked.
   */
  caughtUp(ctx: InternalContext): Promise<void>;
}

export interface ProjectionRevisionsOptions {
  /** Longest wait for the consumer (default 2 s): the usual lag is milliseconds. */
  maxWaitMs?: number;
  /** How often a waiting request reads what other processes recorded (default 50 ms). */
  pollMs?: number;
}

interface RevisionDoc {
  _id: string;
  value: number;
}

const VISIBILITY = 'visibility';
const userKey = (userId: number): string => `user:${userId}`;
/**
 * Users whose revisions a process keeps in memory: every user it served, at 10,000 users and more (a
 * number each), so that a user's request costs no `projection_revisions` read after their first.
 */
const MAX_REMEMBERED = 100_000;

/** Which record an identity event advances, and to what; null for events without a revision. */
export function revisionOf(event: EventEnvelope): { key: string; revision: number } | null {
  const [, , entity] = event.type.split('.');
  if (entity === 'member') {
    const data = memberEventData.safeParse(event.data);
    return data.success && data.data.revision !== undefined
      ? { key: userKey(data.data.userId), revision: data.data.revision }
      : null;
  }
  if (entity === 'project' || entity === 'group') {
    const data = (entity === 'project' ? projectEventData : groupEventData).safeParse(event.data);
    return data.success && data.data.revision !== undefined
      ? { key: VISIBILITY, revision: data.data.revision }
      : null;
  }
  return null;
}

export function createProjectionRevisions(
  connection: Connection,
  options: ProjectionRevisionsOptions = {},
): ProjectionRevisions {
  const maxWaitMs = options.maxWaitMs ?? 2_000;
  const pollMs = options.pollMs ?? 50;
  const model: Model<RevisionDoc> =
    (connection.models.ProjectionRevision as Model<RevisionDoc> | undefined) ??
    connection.model<RevisionDoc>(
      'ProjectionRevision',
      new Schema<RevisionDoc>({ _id: String, value: Number }, { versionKey: false }),
      'projection_revisions',
    );
  const local = new Map<string, number>();
  const waiters = new Set<() => void>();

  const remember = (key: string, value: number): void => {
    if ((local.get(key) ?? 0) >= value) return;
    // Re-inserted, so the Map's first key is the least recently advanced one.
    local.delete(key);
    local.set(key, value);
    if (local.size > MAX_REMEMBERED) local.delete(local.keys().next().value!);
  };

  async function record(key: string, revision: number): Promise<void> {
    try {
      await model.updateOne({ _id: key }, { $max: { value: revision } }, { upsert: true });
    } catch (err) {
      // Two processes inserting the same record at once: the other insert won, the `$max` still applies.
      if (!isDuplicateKeyError(err)) throw err;
      await model.updateOne({ _id: key }, { $max: { value: revision } });
    }
  }

  /** Reads what any process recorded for these keys. */
  async function refresh(keys: string[]): Promise<void> {
    const docs = await model
      .find({ _id: { $in: keys } })
      .lean<RevisionDoc[]>()
      .exec();
    for (const doc of docs) remember(doc._id, doc.value);
  }

  /** Resolves on this process's next record, or after `ms`. */
  function nextRecord(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiters.add(done);
    });
  }

  return {
    async applied(event) {
      const found = revisionOf(event);
      if (!found) return;
      await record(found.key, found.revision);
      remember(found.key, found.revision);
      for (const wake of [...waiters]) wake();
    },

    known(userId) {
      return {
        user: userId === null ? 0 : (local.get(userKey(userId)) ?? 0),
        visibility: local.get(VISIBILITY) ?? 0,
      };
    },

    async caughtUp(ctx) {
      const needed = ctx.identityRevision;
      if (!needed) return;
      const wanted: [string, number][] = [[VISIBILITY, needed.visibility]];
      if (ctx.principal) wanted.push([userKey(ctx.principal.id), needed.user]);
      const behind = (): string[] =>
        wanted.filter(([key, value]) => (local.get(key) ?? 0) < value).map(([key]) => key);
      if (behind().length === 0) return;
      const deadline = Date.now() + maxWaitMs;
      for (;;) {
        await refresh(behind());
        if (behind().length === 0) return;
        const left = deadline - Date.now();
        if (left <= 0) throw new UnavailableError('identity projection behind the request');
        await nextRecord(Math.min(pollMs, left));
      }
    },
  };
}

/**
 * `caughtUp` for a route handler: on timeout the 503 also says when to try again (`Retry-After: 1`); a
 * 503 is what GitLab clients that retry transient errors retry.
 */
export async function projectionCaughtUp(
  revisions: Pick<ProjectionRevisions, 'caughtUp'>,
  req: Request,
  res: Response,
): Promise<void> {
  try {
    await revisions.caughtUp(req.ctx);
  } catch (err) {
    if (err instanceof UnavailableError) res.setHeader('Retry-After', '1');
    throw err;
  }
}
