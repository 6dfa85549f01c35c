import type { Logger } from 'pino';
import { requestOrigin, runPeriodically, todayUtc } from '@gl/service-kit';
import { OWNER } from './access';
import { PRODUCER, type IdentityDeps } from './identity.deps';
import { actorOf } from './identity.events';
import type { MemberDoc } from './identity.models';
import { removeExpiredMember } from './member-writes';

/**
 * GitLab's RemoveExpiredMembersWorker: memberships whose `expires_at` has come are destroyed (until then
 * every reader already treats them as non-members from that day on: `hasExpired`), each publishing
 * `gl.identity.member.expired` with a new identity revision, so the member's authorizations are
 * recomputed (revisions.ts) and the events service records a project's `expired` event
 * (EventCreateService#expired_leave_project). Like the worker, it passes `skip_subresources` (only the
 * expired membership goes) and keeps a group's last owner (Members::DestroyService).
 *
 * Every gateway replica runs it. Each removal is a conditional delete through the outbox (members.store.ts
 * `removeExpired`) whose event id is fixed per membership, so two replicas racing for one membership
 * remove it once and publish one event, and a removal cut short by a crash is either undone or completed
 * by the outbox relay: the event is never lost and never doubled.
 */
export interface ExpiredMembersSweep {
  /** Removes every membership expired on `today` (UTC date, default now); resolves with how many went. */
  runOnce(today?: string): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/** GitLab runs the worker daily; hourly removes a membership within the hour after its day begins (UTC). */
export const DEFAULT_EXPIRED_MEMBERS_SWEEP_MS = 3_600_000;
const BATCH_SIZE = 100;

export function createExpiredMembersSweep(
  deps: IdentityDeps,
  logger: Logger,
  options: { intervalMs: number; batchSize?: number },
): ExpiredMembersSweep {
  const { stores } = deps;
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const origin = requestOrigin(PRODUCER, null);
  let stopTimers: (() => void) | null = null;
  let running: Promise<unknown> | null = null;

  /** A group keeps an owner: an expired Owner stays while no other unexpired Owner holds the group. */
  async function isLastGroupOwner(member: MemberDoc, today: string): Promise<boolean> {
    if (member.sourceType !== 'group' || member.accessLevel < OWNER) return false;
    const group = await stores.namespaces.findById(member.sourceId);
    if (!group) return false;
    const owners = await stores.members.atLevelInGroups([...group.ancestorIds, group._id], OWNER);
    return !owners.some((o) => o.userId !== member.userId && (o.expiresAt === null || o.expiresAt > today));
  }

  /** One batch; the ids it did not remove are added to `kept` so the next batch reads past them. */
  async function removeBatch(batch: MemberDoc[], today: string, kept: number[]): Promise<number> {
    const users = new Map((await stores.users.byIds(batch.map((m) => m.userId))).map((u) => [u._id, u]));
    let removed = 0;
    for (const member of batch) {
      try {
        // The member is the author of GitLab's `expired` event (expired_leave_project(project, member.user)).
        const gone =
          !(await isLastGroupOwner(member, today)) &&
          (await removeExpiredMember(deps, member, origin, actorOf(users.get(member.userId) ?? null)));
        if (gone) removed++;
        else kept.push(member._id);
      } catch (err) {
        // As the worker does: log this membership and go on with the others.
        logger.error({ err, memberId: member._id }, 'expired member could not be removed');
        kept.push(member._id);
      }
    }
    return removed;
  }

  const sweep: ExpiredMembersSweep = {
    async runOnce(today = todayUtc()) {
      const kept: number[] = [];
      let removed = 0;
      for (;;) {
        const batch = await stores.members.expiredBatch(today, kept, batchSize);
        removed += await removeBatch(batch, today, kept);
        if (batch.length < batchSize) break;
      }
      if (removed > 0) logger.info({ removed, kept: kept.length, today }, 'expired members removed');
      return removed;
    },
    start() {
      const tick = (): void => {
        // A run still going (a large backlog) is not joined by a second one.
        if (running) return;
        running = sweep
          .runOnce()
          .catch((err: unknown) => logger.error({ err }, 'expired members sweep failed'))
          .finally(() => {
            running = null;
          });
      };
      // Not at once at start (FIRST_RUN_DELAY_MS): an expiry is due by the day, not by the second.
      stopTimers = runPeriodically(tick, options.intervalMs);
    },
    async stop() {
      stopTimers?.();
      stopTimers = null;
      await running;
    },
  };
  return sweep;
}
