import { inTurn } from './in-turn';
import type { PositionMove, PositionedIssue } from './positions.store';
import {
  START_POSITION,
  after,
  before,
  between,
  roomyEnough,
  spread,
  windowsAround,
} from './relative-position';

/** What the positioning rules need of the store (positions.store.ts; an in-memory one in unit tests). */
export interface PositionsPort {
  claim(scope: string, position: number, issueId: number): Promise<boolean>;
  release(scope: string, positions: number[]): Promise<void>;
  highestClaim(scope: string): Promise<number | null>;
  setPosition(id: number, scope: string, from: number | null, to: number): Promise<boolean>;
  neighbour(
    scope: string,
    position: number,
    direction: 1 | -1,
    except: number,
  ): Promise<PositionedIssue | null>;
  countIn(scope: string, low: number, high: number): Promise<number>;
  issuesIn(scope: string, low: number, high: number): Promise<PositionedIssue[]>;
  moveMany(scope: string, moves: PositionMove[]): Promise<boolean>;
  withLease<T>(scope: string, work: () => Promise<T>): Promise<T>;
  positionOf(id: number): Promise<number | null>;
}

/** Tries before giving up on a write that keeps losing races (each retry reads the scope again). */
const ATTEMPTS = 20;

/**
 * Issue positions on boards (RelativePositioning, Issues::ReorderService): a new issue goes after the
 * last one of its scope; a reorder puts an issue between two others, spreading a window of issues out
 * when their gap is used up. Every position is claimed before it is taken, so no two issues ever share
 * one; moves within a scope hold its lease, so the neighbours a move reads stay where they are.
 */
export function createIssuePositions(store: PositionsPort) {
  /**
   * The position after the last claimed one of the scope, claimed for the issue (null: no room left).
   * The issues created at once in this process take their turn here: they all want the same next position,
   * and racing for it in the database made each loser read the scope and try again, more often the slower
   * the database answered (issue creations timed out at 10 s under the mixed bench's load). Other replicas
   * can still win a claim; the loop reads the scope again then.
   */
  function claimAtEnd(scope: string, issueId: number): Promise<number | null> {
    return inTurn(`end:${scope}`, async () => {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const top = await store.highestClaim(scope);
        const position = top === null ? START_POSITION : after(top);
        // Issue#move_to_end rescues NoSpaceLeft: the issue then has no position (it sorts last).
        if (position === null) return null;
        if (await store.claim(scope, position, issueId)) return position;
      }
      return null;
    });
  }

  /** Gives a positionless issue (one older than positions, or of another scope) the place at the end. */
  async function ensurePosition(scope: string, id: number): Promise<number | null> {
    const current = await store.positionOf(id);
    if (current !== null) return current;
    const position = await claimAtEnd(scope, id);
    if (position === null) return null;
    if (await store.setPosition(id, scope, null, position)) return position;
    await store.release(scope, [position]);
    return store.positionOf(id);
  }

  /**
   * Spreads the smallest roomy window around `anchor` and puts the issue in the free place kept between
   * its neighbours: `gapAfter` is the position the issue must follow (null: it goes before `anchor`).
   */
  async function spreadAround(scope: string, id: number, anchor: number, gapAfter: number | null) {
    for (const window of windowsAround(anchor)) {
      const count = await store.countIn(scope, window.low, window.high);
      if (!roomyEnough(window, count + 1)) continue;
      const items = (await store.issuesIn(scope, window.low, window.high)).filter((i) => i._id !== id);
      const gapAt =
        gapAfter === null
          ? items.filter((i) => i.relativePosition! < anchor).length
          : items.filter((i) => i.relativePosition! <= gapAfter).length;
      const laid = spread(window, items.length, gapAt);
      const moves: PositionMove[] = items.map((item, i) => ({
        id: item._id,
        from: item.relativePosition!,
        to: laid.positions[i]!,
      }));
      moves.push({ id, from: await store.positionOf(id), to: laid.free });
      return store.moveMany(scope, moves);
    }
    return false;
  }

  /** Takes a free position for the issue and leaves its old one. */
  async function moveTo(scope: string, id: number, position: number): Promise<boolean> {
    const from = await store.positionOf(id);
    // Already there (placed between the neighbours it has): nothing to move.
    if (from === position) return true;
    if (!(await store.claim(scope, position, id))) return false;
    if (!(await store.setPosition(id, scope, from, position))) {
      await store.release(scope, [position]);
      return false;
    }
    if (from !== null) await store.release(scope, [from]);
    return true;
  }

  return {
    claimAtEnd,

    /**
     * Issue#move_between: `afterId` (move_after_id) is the issue it follows, `beforeId` (move_before_id)
     * the one it precedes, either may be absent; two given are taken in position order, as GitLab does.
     * Resolves false when the issue could not be placed (no room, or ever-changing neighbours).
     */
    async moveBetween(scope: string, id: number, afterId: number | null, beforeId: number | null) {
      return store.withLease(scope, async () => {
        let low = afterId === null ? null : await ensurePosition(scope, afterId);
        let high = beforeId === null ? null : await ensurePosition(scope, beforeId);
        if ((afterId !== null && low === null) || (beforeId !== null && high === null)) return false;
        if (low !== null && high !== null && low > high) {
          [low, high] = [high, low];
          [afterId, beforeId] = [beforeId, afterId];
        }
        for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
          if (afterId !== null) low = await store.positionOf(afterId);
          if (beforeId !== null) high = await store.positionOf(beforeId);
          // One neighbour given: the other is the issue next to it (Mover#move with first or last nil).
          if (beforeId === null && low !== null) {
            high = (await store.neighbour(scope, low, 1, id))?.relativePosition ?? null;
          }
          if (afterId === null && high !== null) {
            low = (await store.neighbour(scope, high, -1, id))?.relativePosition ?? null;
          }
          const target =
            low === null && high === null
              ? START_POSITION
              : low === null
                ? before(high!)
                : high === null
                  ? after(low)
                  : between(low, high);
          if (target !== null) {
            if (await moveTo(scope, id, target)) return true;
            continue;
          }
          const anchor = low ?? high!;
          if (await spreadAround(scope, id, anchor, low === null ? null : low)) return true;
        }
        return false;
      });
    },
  };
}

export type IssuePositions = ReturnType<typeof createIssuePositions>;
