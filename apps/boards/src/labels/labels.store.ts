import type { FilterQuery, Model } from 'mongoose';
import { findPage, type Counters, type Outbox, type PageRequest } from '@gl/service-kit';
import type { LabelDoc } from '../boards.models';
import { findByIds } from '../common/by-ids';
import { containsText } from '../common/text-search';
import { labelWrites } from './label-definitions';

export type LabelInput = Omit<LabelDoc, '_id' | 'createdAt'>;
export type LabelChanges = Partial<Pick<LabelDoc, 'name' | 'color' | 'description' | 'priority'>>;

/** Group labels: the queries and writes the labels API and the boards make. */
export function createLabelsStore(labels: Model<LabelDoc>, counters: Counters, outbox: Outbox) {
  const writes = labelWrites(labels, outbox, (label) => ({ groupId: label.groupId }));

  async function findById(groupId: number, id: number): Promise<LabelDoc | null> {
    return labels.findOne({ _id: id, groupId }).lean<LabelDoc>();
  }

  async function findByName(groupId: number, name: string): Promise<LabelDoc | null> {
    return labels.findOne({ groupId, name }).lean<LabelDoc>();
  }

  /** Labels of the given groups, by name; `search` matches part of the name, any case. */
  async function page(
    groupIds: number[],
    search: string | undefined,
    page: PageRequest,
  ): Promise<{ total: number; docs: LabelDoc[] }> {
    const filter: FilterQuery<LabelDoc> = { groupId: { $in: groupIds } };
    if (search) filter.name = containsText(search);
    return findPage(labels, filter, { name: 1 }, page);
  }

  async function nameTaken(groupId: number, name: string): Promise<boolean> {
    return (await labels.exists({ groupId, name })) !== null;
  }

  /** The new label, or 'taken' when the group already has one of that name. */
  async function create(input: LabelInput): Promise<LabelDoc | 'taken'> {
    return writes.insert({ _id: await counters.next('label'), ...input, createdAt: new Date() });
  }

  /** The label after the change, null when it is gone, 'taken' when the new name is another label's. */
  async function update(id: number, changes: LabelChanges): Promise<LabelDoc | null | 'taken'> {
    return writes.revise(id, changes);
  }

  async function remove(id: number): Promise<void> {
    await writes.remove(id);
  }

  async function existsIn(id: number, groupIds: number[]): Promise<boolean> {
    return (await labels.exists({ _id: id, groupId: { $in: groupIds } })) !== null;
  }

  async function idsByNames(groupIds: number[], names: string[]): Promise<number[]> {
    const found = await labels
      .find({ groupId: { $in: groupIds }, name: { $in: names } })
      .select({ _id: 1 })
      .lean<{ _id: number }[]>();
    return found.map((l) => l._id);
  }

  /**
   * Labels::AvailableLabelsService#find_or_create_by_titles: each name found among the groups' labels (the
   * group's own first), else created in the group with `color`; ids in the order given, once each.
   */
  async function findOrCreateByNames(
    groupId: number,
    groupIds: number[],
    names: string[],
    color: string,
  ): Promise<number[]> {
    const found = await labels
      .find({ groupId: { $in: groupIds }, name: { $in: names } })
      .select({ _id: 1, groupId: 1, name: 1 })
      .lean<Pick<LabelDoc, '_id' | 'groupId' | 'name'>[]>();
    const byName = new Map<string, number>();
    for (const label of found) {
      if (!byName.has(label.name) || label.groupId === groupId) byName.set(label.name, label._id);
    }
    const ids: number[] = [];
    for (const name of names) {
      let id = byName.get(name);
      if (id === undefined) {
        const created = await create({ groupId, name, color, description: null, priority: null });
        // Someone else created it meanwhile: theirs is the one.
        id = created === 'taken' ? (await findByName(groupId, name))?._id : created._id;
        if (id === undefined) continue;
        byName.set(name, id);
      }
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  const byIds = (ids: number[]) => findByIds(labels, ids);

  return {
    findById,
    findByName,
    page,
    nameTaken,
    create,
    update,
    remove,
    existsIn,
    idsByNames,
    findOrCreateByNames,
    byIds,
  };
}

export type LabelsStore = ReturnType<typeof createLabelsStore>;
