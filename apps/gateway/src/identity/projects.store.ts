import type { FilterQuery } from 'mongoose';
import type { Outbox } from '@gl/service-kit';
import type { IdentityModels, ProjectDoc } from './identity.models';
import { publishingWrites } from './store-writes';
import { finderReads } from './finder-reads';

type Visibility = ProjectDoc['visibility'];

/** Projects, in personal namespaces or groups. */
export function createProjectsStore(models: Pick<IdentityModels, 'projects' | 'cache'>, outbox: Outbox) {
  const { projects, cache } = models;
  // `insert` resolves false when the full path is held by a document written without its route
  // (fixtures, older data).
  const { insert, update, remove } = publishingWrites(projects, outbox);

  /** `:id` of /projects/:id: digits are an id, anything else a full path (any case); through the cache. */
  async function findByIdOrPath(idOrPath: string): Promise<ProjectDoc | null> {
    return cache.get(`project:${idOrPath.toLowerCase()}`, () =>
      /^-?\d+$/.test(idOrPath)
        ? projects.findById(Number(idOrPath)).lean<ProjectDoc>()
        : projects.findOne({ fullPathLower: idOrPath.toLowerCase() }).lean<ProjectDoc>(),
    );
  }

  async function countIn(namespaceId: number): Promise<number> {
    return projects.countDocuments({ namespaceId });
  }

  /** Another project of the namespace already has the name. */
  async function nameTaken(namespaceId: number, name: string, exceptId?: number): Promise<boolean> {
    return (await projects.exists({ namespaceId, name, _id: { $ne: exceptId ?? -1 } })) !== null;
  }

  /** The projects directly in a namespace (a user's personal projects). */
  async function inNamespace(namespaceId: number): Promise<ProjectDoc[]> {
    return projects.find({ namespaceId }).lean();
  }

  /** Every project inside the group or its subgroups. */
  async function underGroup(groupId: number): Promise<ProjectDoc[]> {
    return projects.find({ ancestorGroupIds: groupId }).lean();
  }

  async function countUnderGroup(groupId: number): Promise<number> {
    return projects.countDocuments({ ancestorGroupIds: groupId });
  }

  async function idsUnderGroup(groupId: number): Promise<number[]> {
    return (await projects.find({ ancestorGroupIds: groupId }).select({ _id: 1 }).lean()).map((p) => p._id);
  }

  async function hasUnderGroupIn(groupId: number, visibilities: Visibility[]): Promise<boolean> {
    return (await projects.exists({ ancestorGroupIds: groupId, visibility: { $in: visibilities } })) !== null;
  }

  /** The groups directly holding any of the projects (personal projects left out). */
  async function groupIdsOf(projectIds: number[]): Promise<number[]> {
    const rows = await projects
      .find({ _id: { $in: projectIds }, namespaceKind: 'group' })
      .select({ namespaceId: 1 })
      .lean();
    return rows.map((p) => p.namespaceId);
  }

  /** The newest projects directly in a namespace that also match `visible`. */
  async function newestIn(
    namespaceId: number,
    visible: FilterQuery<ProjectDoc>,
    limit: number,
  ): Promise<ProjectDoc[]> {
    return projects
      .find({ $and: [{ namespaceId }, visible] })
      .sort({ _id: -1 })
      .limit(limit)
      .lean();
  }

  // What projects.service.ts reads once it has built the filter and the order.
  const { page, seek } = finderReads(projects);

  async function setStarCount(id: number, starCount: number): Promise<void> {
    await projects.updateOne({ _id: id }, { $set: { starCount } });
  }

  return {
    findByIdOrPath,
    countIn,
    nameTaken,
    inNamespace,
    underGroup,
    idsUnderGroup,
    countUnderGroup,
    hasUnderGroupIn,
    groupIdsOf,
    newestIn,
    page,
    seek,
    insert,
    update,
    setStarCount,
    remove,
  };
}
export type ProjectsStore = ReturnType<typeof createProjectsStore>;
