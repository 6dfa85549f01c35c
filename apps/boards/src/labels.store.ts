import type { FilterQuery, Model } from 'mongoose';
import { findPage, isDuplicateKeyError, type Counters, type PageRequest } from '@gl/service-kit';
import type { LabelDoc } from './boards.models';
import { containsText } from './text-search';

export type LabelInput = Omit<LabelDoc, '_id' | 'createdAt'>;
export type LabelChanges = Partial<Pick<LabelDoc, 'name' | 'color' | 'description' | 'priority'>>;

/** Group labels: the queries and writes the labels API and the boards make. */
export class LabelsStore {
  constructor(
    private readonly labels: Model<LabelDoc>,
    private readonly counters: Counters,
  ) {}

  async findById(groupId: number, id: number): Promise<LabelDoc | null> {
    return this.labels.findOne({ _id: id, groupId }).lean<LabelDoc>();
  }

  async findByName(groupId: number, name: string): Promise<LabelDoc | null> {
    return this.labels.findOne({ groupId, name }).lean<LabelDoc>();
  }

  /** Labels of the given groups, by name; `search` matches part of the name, any case. */
  async page(
    groupIds: number[],
    search: string | undefined,
    page: PageRequest,
  ): Promise<{ total: number; docs: LabelDoc[] }> {
    const filter: FilterQuery<LabelDoc> = { groupId: { $in: groupIds } };
    if (search) filter.name = containsText(search);
    return findPage(this.labels, filter, { name: 1 }, page);
  }

  async nameTaken(groupId: number, name: string): Promise<boolean> {
    return (await this.labels.exists({ groupId, name })) !== null;
  }

  /** The new label, or 'taken' when the group already has one of that name. */
  async create(input: LabelInput): Promise<LabelDoc | 'taken'> {
    const doc: LabelDoc = { _id: await this.counters.next('label'), ...input, createdAt: new Date() };
    try {
      await this.labels.create(doc);
    } catch (err) {
      if (isDuplicateKeyError(err)) return 'taken';
      throw err;
    }
    return doc;
  }

  /** The label after the change, null when it is gone, 'taken' when the new name is another label's. */
  async update(id: number, changes: LabelChanges): Promise<LabelDoc | null | 'taken'> {
    try {
      return await this.labels
        .findOneAndUpdate({ _id: id }, { $set: changes }, { new: true })
        .lean<LabelDoc>();
    } catch (err) {
      if (isDuplicateKeyError(err)) return 'taken';
      throw err;
    }
  }

  async remove(id: number): Promise<void> {
    await this.labels.deleteOne({ _id: id });
  }

  async existsIn(id: number, groupIds: number[]): Promise<boolean> {
    return (await this.labels.exists({ _id: id, groupId: { $in: groupIds } })) !== null;
  }

  async idsByNames(groupIds: number[], names: string[]): Promise<number[]> {
    const labels = await this.labels
      .find({ groupId: { $in: groupIds }, name: { $in: names } })
      .select({ _id: 1 })
      .lean<{ _id: number }[]>();
    return labels.map((l) => l._id);
  }

  async byIds(ids: number[]): Promise<LabelDoc[]> {
    return ids.length ? this.labels.find({ _id: { $in: ids } }).lean<LabelDoc[]>() : [];
  }
}
