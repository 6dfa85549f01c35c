import type { Model } from 'mongoose';

/**
 * Documents by id whatever their group or project (the labels and milestones boards show); ids come from
 * one counter per kind, so a group's and a project's never collide. No ids, no read.
 */
export async function findByIds<T>(model: Model<T>, ids: number[]): Promise<T[]> {
  return ids.length ? model.find({ _id: { $in: ids } }).lean<T[]>() : [];
}
