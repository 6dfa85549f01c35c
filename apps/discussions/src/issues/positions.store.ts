import { randomUUID } from 'node:crypto';
import { UnavailableError, bulkUpdate, isDuplicateKeyError } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { NoteableDoc } from '../noteables/noteable.model';
import { inTurn } from './in-turn';

/** How long a lease holds without being released (a crashed holder's lease is taken over after it). */
const LEASE_MS = 30_000;
/** How long a caller waits for a busy scope before giving up (503, UnavailableError). */
const LEASE_WAIT_MS = 10_000;
/** A claim older than this whose owner does not hold its position was left by a failed write. */
const STALE_CLAIM_MS = 60_000;

const claimId = (scope: string, position: number): string => `${scope}:${position}`;

export interface PositionMove {
  id: number;
  from: number | null;
  to: number;
}

/** The positioned issues of a scope, as the reorder reads them. */
export type PositionedIssue = Pick<NoteableDoc, '_id' | 'relativePosition'>;

/**
 * Every read and write of issue positions: claims (one document per taken position, so no two issues
 * share one), the lease that lets one writer at a time move the issues of a scope, and the reads of
 * neighbours and windows along the (positionScope, relativePosition) index.
 */
export function createPositionsStore(
  models: Pick<DiscussionsModels, 'noteables' | 'positionClaims' | 'positionLeases'>,
) {
  const { noteables, positionClaims: claims, positionLeases: leases } = models;

  /** Takes a position for an issue; false when another issue holds it. */
  async function claim(scope: string, position: number, issueId: number): Promise<boolean> {
    try {
      await claims.create({ _id: claimId(scope, position), scope, position, issueId, at: new Date() });
      return true;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      return releaseIfStale(scope, position);
    }
  }

  /** The lease in the database that one writer across all replicas holds (see withLease). */
  async function withDatabaseLease<T>(scope: string, work: () => Promise<T>): Promise<T> {
    const holder = randomUUID();
    const deadline = Date.now() + LEASE_WAIT_MS;
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      const until = new Date(Date.now() + LEASE_MS);
      try {
        await leases.create({ _id: scope, holder, until });
        break;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      const expired = await leases.updateOne(
        { _id: scope, until: { $lt: new Date() } },
        { $set: { holder, until } },
      );
      if (expired.modifiedCount === 1) break;
      if (Date.now() > deadline) throw new UnavailableError(`positions of ${scope} are busy`);
      await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * wait));
    }
    try {
      return await work();
    } finally {
      await leases.deleteOne({ _id: scope, holder });
    }
  }

  /** Frees a claim whose owner never took the position (a write that failed after claiming). */
  async function releaseIfStale(scope: string, position: number): Promise<false> {
    const held = await claims.findById(claimId(scope, position)).lean();
    if (!held || held.at.getTime() > Date.now() - STALE_CLAIM_MS) return false;
    const owner = await noteables
      .findById(held.issueId)
      .select({ relativePosition: 1, positionScope: 1 })
      .lean();
    if (owner?.positionScope === scope && owner.relativePosition === position) return false;
    await claims.deleteOne({ _id: held._id, issueId: held.issueId, at: held.at });
    return false;
  }

  async function release(scope: string, positions: number[]): Promise<void> {
    if (positions.length === 0) return;
    await claims.deleteMany({ _id: { $in: positions.map((p) => claimId(scope, p)) } });
  }

  return {
    claim,
    release,

    async positionOf(id: number): Promise<number | null> {
      const doc = await noteables.findById(id).select({ relativePosition: 1 }).lean<PositionedIssue>();
      return doc?.relativePosition ?? null;
    },

    /** The highest position claimed in the scope (claims include positions being taken right now). */
    async highestClaim(scope: string): Promise<number | null> {
      const top = await claims.findOne({ scope }).sort({ position: -1 }).lean();
      return top?.position ?? null;
    },

    /** Sets an issue's position if it still has `from` (compare-and-set); false if it moved meanwhile. */
    async setPosition(id: number, scope: string, from: number | null, to: number): Promise<boolean> {
      const result = await noteables.updateOne(
        { _id: id, relativePosition: from },
        { $set: { relativePosition: to, positionScope: scope } },
      );
      return result.modifiedCount === 1;
    },

    /** The nearest positioned issue after (or before) a position, leaving one issue out. */
    async neighbour(scope: string, position: number, direction: 1 | -1, except: number) {
      const range = direction === 1 ? { $gt: position } : { $lt: position };
      return noteables
        .findOne({ positionScope: scope, relativePosition: range, _id: { $ne: except } })
        .sort({ relativePosition: direction })
        .select({ relativePosition: 1 })
        .lean<PositionedIssue>();
    },

    /** How many issues of the scope hold a position in [low, high]. */
    async countIn(scope: string, low: number, high: number): Promise<number> {
      return noteables.countDocuments({ positionScope: scope, relativePosition: { $gte: low, $lte: high } });
    },

    /** The issues of the scope holding a position in [low, high], in position order. */
    async issuesIn(scope: string, low: number, high: number): Promise<PositionedIssue[]> {
      return noteables
        .find({ positionScope: scope, relativePosition: { $gte: low, $lte: high } })
        .sort({ relativePosition: 1 })
        .select({ relativePosition: 1 })
        .lean<PositionedIssue[]>();
    },

    /**
     * Moves many issues of a scope at once, each from its position to a new one, keeping every position
     * owned by one issue throughout: claim the new positions (a target still held by another issue of the
     * move is taken in a later round, once that issue has left it), compare-and-set each issue, release
     * the positions left. False when a target is held by an issue outside the move.
     */
    async moveMany(scope: string, moves: PositionMove[]): Promise<boolean> {
      let pending = moves.filter((m) => m.from !== m.to);
      while (pending.length > 0) {
        const now = new Date();
        await claims
          .insertMany(
            pending.map((m) => ({
              _id: claimId(scope, m.to),
              scope,
              position: m.to,
              issueId: m.id,
              at: now,
            })),
            { ordered: false },
          )
          .catch((err: unknown) => {
            if (!isDuplicateKeyError(err)) throw err;
          });
        const held = await claims.find({ _id: { $in: pending.map((m) => claimId(scope, m.to)) } }).lean();
        const owner = new Map(held.map((c) => [c.position, c.issueId]));
        const claimed = pending.filter((m) => owner.get(m.to) === m.id);
        if (claimed.length === 0) return false;
        await bulkUpdate(
          noteables,
          claimed.map((m) => ({
            updateOne: {
              filter: { _id: m.id, relativePosition: m.from },
              update: { $set: { relativePosition: m.to, positionScope: scope } },
            },
          })),
        );
        const now2 = await noteables
          .find({ _id: { $in: claimed.map((m) => m.id) } })
          .select({ relativePosition: 1 })
          .lean<PositionedIssue[]>();
        const at = new Map(now2.map((d) => [d._id, d.relativePosition]));
        const moved = claimed.filter((m) => at.get(m.id) === m.to);
        // An issue that moved meanwhile keeps its position: give back the claim taken for it.
        await release(
          scope,
          claimed.filter((m) => !moved.includes(m)).map((m) => m.to),
        );
        await release(
          scope,
          moved.flatMap((m) => (m.from === null ? [] : [m.from])),
        );
        pending = pending.filter((m) => !claimed.includes(m));
      }
      return true;
    },

    /**
     * Puts a project's issues in its current scope (root-scope.ts) after a transfer, or when they had
     * none (older issues, and incidents before they were placed): lists of their new root find them. Their
     * places meant nothing among the new scope's issues and are not claimed there, so they are dropped:
     * they sort last by position until moved (ensurePosition). Resolves how many changed; idempotent.
     */
    async rescopeProject(projectId: number, scope: string): Promise<number> {
      const result = await noteables.updateMany(
        { kind: 'Issue', projectId, positionScope: { $ne: scope } },
        { $set: { positionScope: scope, relativePosition: null } },
      );
      return result.modifiedCount;
    },

    /**
     * Runs `work` while holding the scope's lease: one writer moves a scope's issues at a time, so a
     * move reads neighbours that stay where they are. A lease left by a crashed holder expires.
     */
    withLease<T>(scope: string, work: () => Promise<T>): Promise<T> {
      // This process's movers of a scope wait their turn here, in arrival order, and only the one at the
      // head competes for the database lease: N concurrent moves on one replica cost N leases instead of
      // N pollers backing off against each other (and the last of them passing LEASE_WAIT_MS).
      return inTurn(scope, () => withDatabaseLease(scope, work));
    },
  };
}

export type PositionsStore = ReturnType<typeof createPositionsStore>;
