import { findPage, type Counters, type PageRequest } from '@gl/service-kit';
import type { HookDoc, HookParent, HooksModels } from './hooks.models';

export type NewHook = Omit<HookDoc, '_id' | 'parentKind' | 'parentId' | 'createdAt' | 'updatedAt'>;
export type HookChanges = Partial<Omit<HookDoc, '_id' | 'parentKind' | 'parentId' | 'createdAt'>>;

/** Group ids above a parent and where they were learnt, as a hook stores them. */
export interface Ancestry {
  ancestorGroupIds: number[];
  rootGroupId: number | null;
  ancestryAt: string;
}

/**
 * The `web_hooks` collection: every query goes along `{parentKind, parentId, _id}` or `{rootGroupId, _id}`.
 * `added` is told after each hook is stored (hooked-parents.ts: the delivery consumers' copies).
 */
export function createHooksStore(
  models: HooksModels,
  counters: Counters,
  added: () => Promise<void> = () => Promise.resolve(),
) {
  const { hooks } = models;
  const ofParent = (parent: HookParent) => ({ parentKind: parent.kind, parentId: parent.id });

  /** One page of a parent's hooks, oldest first (GitLab's `paginate(hooks)`: id order), and their count. */
  function page(parent: HookParent, request: Pick<PageRequest, 'skip' | 'perPage'>) {
    return findPage(hooks, ofParent(parent), { parentKind: 1, parentId: 1, _id: 1 }, request);
  }

  function find(parent: HookParent, id: number): Promise<HookDoc | null> {
    return hooks
      .findOne({ ...ofParent(parent), _id: id })
      .lean<HookDoc>()
      .exec();
  }

  async function insert(parent: HookParent, fields: NewHook): Promise<HookDoc> {
    const now = new Date();
    const doc: HookDoc = {
      _id: await counters.next('hooks'),
      parentKind: parent.kind,
      parentId: parent.id,
      ...fields,
      createdAt: now,
      updatedAt: now,
    };
    await hooks.create(doc);
    await added();
    return doc;
  }

  /** Writes the changes; null when the hook went meanwhile. */
  function update(parent: HookParent, id: number, changes: HookChanges): Promise<HookDoc | null> {
    return hooks
      .findOneAndUpdate(
        { ...ofParent(parent), _id: id },
        { $set: { ...changes, updatedAt: new Date() } },
        { new: true },
      )
      .lean<HookDoc>()
      .exec();
  }

  /** True when this call removed it. */
  async function remove(parent: HookParent, id: number): Promise<boolean> {
    const result = await hooks.deleteOne({ ...ofParent(parent), _id: id });
    return result.deletedCount > 0;
  }

  async function removeParent(parent: HookParent): Promise<number> {
    const result = await hooks.deleteMany(ofParent(parent));
    return result.deletedCount;
  }

  /** The ids of a parent's hooks, along `{parentKind, parentId, _id}`. */
  async function idsOf(parent: HookParent): Promise<number[]> {
    const docs = await hooks
      .find(ofParent(parent), { _id: 1 })
      .sort({ parentKind: 1, parentId: 1, _id: 1 })
      .lean<Pick<HookDoc, '_id'>[]>();
    return docs.map((doc) => doc._id);
  }

  /** Hooks of the subgroups and projects below a group, found through their root group. */
  async function idsBelow(groupId: number, rootGroupId: number): Promise<number[]> {
    const docs = await hooks
      .find({ rootGroupId }, { _id: 1, ancestorGroupIds: 1 })
      .sort({ rootGroupId: 1, _id: 1 })
      .lean<Pick<HookDoc, '_id' | 'ancestorGroupIds'>[]>();
    return docs.filter((doc) => doc.ancestorGroupIds.includes(groupId)).map((doc) => doc._id);
  }

  async function removeIds(ids: number[]): Promise<void> {
    if (ids.length > 0) await hooks.deleteMany({ _id: { $in: ids } });
  }

  /** Moves a parent's hooks to its new place, unless what they hold was learnt later. */
  async function moveParent(parent: HookParent, ancestry: Ancestry): Promise<void> {
    await hooks.updateMany(
      { ...ofParent(parent), ancestryAt: { $lt: ancestry.ancestryAt } },
      { $set: ancestry },
    );
  }

  return { page, find, insert, update, remove, removeParent, idsOf, idsBelow, removeIds, moveParent };
}

export type HooksStore = ReturnType<typeof createHooksStore>;
