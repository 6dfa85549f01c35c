import type { Model } from 'mongoose';
import { membershipId } from '@gl/service-kit';
import type { MemberRefDoc, ProjectRefDoc } from './models';

/** Reads of the registry's copy of projects and memberships (identity.projection.ts writes them). */
export function createProjectsStore(projects: Model<ProjectRefDoc>, members: Model<MemberRefDoc>) {
  /** A project that still exists. */
  async function find(id: number): Promise<ProjectRefDoc | null> {
    return projects.findOne({ _id: id, destroyed: { $ne: true } }).lean<ProjectRefDoc>();
  }

  /** Existing projects anywhere under the group. */
  async function inGroup(groupId: number): Promise<ProjectRefDoc[]> {
    return projects.find({ ancestorGroupIds: groupId, destroyed: { $ne: true } }).lean<ProjectRefDoc[]>();
  }

  /** Existing projects whose full path, in lower case, is one of `paths`. */
  async function withPaths(paths: string[]): Promise<ProjectRefDoc[]> {
    return projects.find({ fullPathLower: { $in: paths }, destroyed: { $ne: true } }).lean<ProjectRefDoc[]>();
  }

  /** The user's memberships of the project and of these groups (expired ones included). */
  async function memberships(projectId: number, groupIds: number[], userId: number): Promise<MemberRefDoc[]> {
    const ids = [
      membershipId({ sourceType: 'project', sourceId: projectId, userId }),
      ...groupIds.map((g) => membershipId({ sourceType: 'group', sourceId: g, userId })),
    ];
    return members.find({ _id: { $in: ids } }).lean<MemberRefDoc[]>();
  }

  return { find, inGroup, withPaths, memberships };
}
export type ProjectsStore = ReturnType<typeof createProjectsStore>;
