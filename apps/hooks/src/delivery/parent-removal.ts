import type { DeliveryModels, HookProjectDoc } from './delivery.models';
import { SAMPLE_KINDS } from './samples.store';

/**
 * What a deleted project or group takes with it on the delivery side (identity.projection.ts calls it),
 * and a hook deleted through the API (hooks.service.ts, `hooksGone` alone).
 * GitLab deletes a project's hooks with the project (`has_many :hooks, dependent: :delete_all`,
 * app/models/project.rb) and a hook's logs with the hook (WebHooks::DestroyService schedules
 * WebHooks::LogDestroyWorker, app/services/web_hooks/destroy_service.rb): here the deliveries of its hooks,
 * queued or logged, their leases, and the project's copy and samples. Every write is a delete or the same
 * overwrite, so a redelivered event changes nothing.
 */
export function createParentRemoval(
  models: Pick<DeliveryModels, 'deliveries' | 'leases' | 'projects' | 'samples'>,
) {
  /** The hooks' deliveries (queued and logged) and their leases. */
  async function hooksGone(hookIds: number[]): Promise<void> {
    if (hookIds.length === 0) return;
    await models.deliveries.deleteMany({ hookId: { $in: hookIds } });
    await models.leases.deleteMany({ _id: { $in: hookIds } });
  }

  /**
   * The projects' copies and samples. A copy becomes a mark with no data, `destroyed`, rather than going:
   * the delivery consumer writes copies from project events it may take after this (its own durable, maybe
   * behind, or a redelivery), and the mark makes those writes collide instead of bringing the copy back.
   * Events of a marked project queue nothing (consumer.ts), so no sample comes back either.
   */
  async function projectsGone(projectIds: number[], occurredAt: string): Promise<void> {
    if (projectIds.length === 0) return;
    await models.projects.bulkWrite(
      projectIds.map((id) => ({
        replaceOne: {
          filter: { _id: id },
          replacement: { _id: id, destroyed: true, occurredAt } as unknown as HookProjectDoc,
          upsert: true,
        },
      })),
      { ordered: false },
    );
    await models.samples.deleteMany({
      _id: { $in: projectIds.flatMap((id) => SAMPLE_KINDS.map((kind) => `${id}:${kind}`)) },
    });
  }

  /** The projects below a group, as their copies place them (along `{ancestorGroupIds, _id}`). */
  async function projectsBelow(groupId: number): Promise<number[]> {
    const docs = await models.projects
      .find({ ancestorGroupIds: groupId }, { _id: 1 })
      .sort({ ancestorGroupIds: 1, _id: 1 })
      .lean<Pick<HookProjectDoc, '_id'>[]>()
      .exec();
    return docs.map((doc) => doc._id);
  }

  return { hooksGone, projectsGone, projectsBelow };
}

export type ParentRemoval = ReturnType<typeof createParentRemoval>;
