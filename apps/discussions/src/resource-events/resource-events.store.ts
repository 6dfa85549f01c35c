import type { ResourceEventKind } from '@gl/contracts';
import { findPage } from '@gl/service-kit';
import type { DiscussionsDeps } from '../discussions.models';
import type { ResourceEventDoc } from './resource-event.model';

/** The field of a noteable holding the events written with it and not yet moved to `resource_events`. */
const PENDING_FIELD = '_resourceEvents';

/** Every read and write of the `resource_events` collection, and the move of a noteable's pending events. */
export function createResourceEventsStore(deps: Pick<DiscussionsDeps, 'models'>) {
  const { resourceEvents, noteables } = deps.models;

  /**
   * The events of one write (a label change adds and removes several) in one round trip, unordered:
   * the ones a second mover stored already stay as they are, and any other failure leaves one missing.
   */
  async function insertAllOnce(events: ResourceEventDoc[]): Promise<void> {
    try {
      await resourceEvents.insertMany(events, { ordered: false });
    } catch (err) {
      const stored = await resourceEvents.countDocuments({ _id: { $in: events.map((e) => e._id) } });
      if (stored < events.length) throw err;
    }
  }

  return {
    /** One page of an issuable's events of one kind, oldest first, and their number (counted when needed). */
    async page(resourceId: number, kind: ResourceEventKind, skip: number, limit: number) {
      const { docs, total } = await findPage(
        resourceEvents,
        { resourceId, kind },
        { _id: 1 },
        { skip, perPage: limit },
      );
      return { items: docs, total };
    },

    async find(resourceId: number, kind: ResourceEventKind, id: number): Promise<ResourceEventDoc | null> {
      return resourceEvents.findOne({ resourceId, kind, _id: id }).lean<ResourceEventDoc>();
    },

    async hasAny(resourceId: number, kind: ResourceEventKind): Promise<boolean> {
      return (await resourceEvents.exists({ resourceId, kind })) !== null;
    },

    /**
     * Moves events a noteable's write carried into the collection, then takes them off the noteable. Each
     * keeps the id it was given, so a second mover (another replica, a read after a crash) inserts nothing.
     */
    async settle(noteableId: number, events: ResourceEventDoc[], raw: string[]): Promise<void> {
      if (raw.length === 0) return;
      await insertAllOnce(events);
      await noteables.updateOne({ _id: noteableId }, { $pullAll: { [PENDING_FIELD]: raw } });
    },
  };
}

export type ResourceEventsStore = ReturnType<typeof createResourceEventsStore>;
