import type { DeliveryModels, HookLeaseDoc } from './delivery.models';
import { duplicatesOnly } from '@gl/service-kit';

/**
 * The per-hook leases: which sender holds a hook's queue (sender.ts). A lease lapses by itself, so a sender
 * that died holds nothing for long.
 */
export function createLeaseStore(models: Pick<DeliveryModels, 'leases'>) {
  const { leases } = models;

  /** One upsert per hook, matching only a lapsed lease or the owner's own. */
  function upsertLeases(hookIds: number[], owner: string, now: Date, until: Date) {
    return leases.bulkWrite(
      hookIds.map((_id) => ({
        updateOne: {
          filter: { _id, $or: [{ until: { $lte: now } }, { owner }] },
          update: { $set: { owner, until } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  /**
   * Takes (or renews) the hooks' leases for `ms`, in one round trip when none is held by another owner:
   * each an atomic upsert matching only a lapsed lease or the owner's own, so that a live lease of another
   * owner makes its upsert collide on `_id`. After a collision the leases are read back: FerretDB stops an
   * unordered bulk update at its first failure, so the writes after it are sent again. Resolves, per hook,
   * whether it is this owner's now.
   */
  async function takeLeases(hookIds: number[], owner: string, ms: number): Promise<boolean[]> {
    const taken = new Map<number, boolean>();
    let pending = [...new Set(hookIds)];
    // Each round settles at least the write that collided, unless its lease lapsed or went meanwhile.
    for (let round = 0; pending.length > 0 && round <= hookIds.length; round += 1) {
      const now = new Date();
      const until = new Date(now.getTime() + ms);
      try {
        await upsertLeases(pending, owner, now, until);
        for (const id of pending) taken.set(id, true);
        return hookIds.map((id) => taken.get(id)!);
      } catch (err) {
        if (duplicatesOnly(err) === null) throw err;
      }
      const found = await leases
        .find({ _id: { $in: pending } })
        .lean<HookLeaseDoc[]>()
        .exec();
      const byId = new Map(found.map((lease) => [lease._id, lease]));
      const again: number[] = [];
      for (const id of pending) {
        const lease = byId.get(id);
        const live = lease !== undefined && new Date(lease.until).getTime() > now.getTime();
        // Written by this round: this owner's, until this round's end.
        if (lease?.owner === owner && new Date(lease.until).getTime() === until.getTime())
          taken.set(id, true);
        else if (live && lease.owner !== owner) taken.set(id, false);
        // Skipped after the collision, or lapsed (or gone) since: sent again.
        else again.push(id);
      }
      pending = again;
    }
    return hookIds.map((id) => taken.get(id) ?? false);
  }

  async function releaseLeases(hookIds: number[], owner: string): Promise<void> {
    if (hookIds.length === 0) return;
    await leases.deleteMany({ _id: { $in: hookIds }, owner });
  }

  return { takeLeases, releaseLeases };
}
