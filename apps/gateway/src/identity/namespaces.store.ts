import type { Outbox } from '@gl/service-kit';
import type { IdentityModels, NamespaceDoc } from './identity.models';
import { publishingWrites } from './store-writes';
import { finderReads } from './finder-reads';

type Visibility = NamespaceDoc['visibility'];

/** Namespaces: groups and the users' personal namespaces, which share one id sequence and path space. */
export function createNamespacesStore(models: Pick<IdentityModels, 'namespaces' | 'cache'>, outbox: Outbox) {
  const { namespaces, cache } = models;

  /** `:id` of /groups/:id: digits are an id, anything else a full path (any case); through the cache. */
  async function findGroup(idOrPath: string): Promise<NamespaceDoc | null> {
    const query = /^-?\d+$/.test(idOrPath)
      ? { _id: Number(idOrPath) }
      : { fullPathLower: idOrPath.toLowerCase() };
    return cache.get(`group:${idOrPath.toLowerCase()}`, () =>
      namespaces.findOne({ ...query, kind: 'group' }).lean<NamespaceDoc>(),
    );
  }

  /** GET /namespaces/:id: a group or a personal namespace, by id or full path (any case). */
  async function findByIdOrPath(idOrPath: string): Promise<NamespaceDoc | null> {
    return /^-?\d+$/.test(idOrPath)
      ? namespaces.findById(Number(idOrPath)).lean()
      : namespaces.findOne({ fullPathLower: idOrPath.toLowerCase() }).lean();
  }

  async function findById(id: number): Promise<NamespaceDoc | null> {
    return namespaces.findById(id).lean();
  }

  /** A project's namespace full name, which its own full name extends; through the cache. */
  async function cachedFullName(id: number): Promise<string | null> {
    const namespace = await cache.get(`namespace-name:${id}`, () =>
      namespaces.findById(id).select({ fullName: 1 }).lean(),
    );
    return namespace?.fullName ?? null;
  }

  /** The user owning a personal namespace; null for groups. */
  async function ownerIdOf(id: number): Promise<number | null> {
    return (await namespaces.findById(id).select({ ownerId: 1 }).lean())?.ownerId ?? null;
  }

  async function nameOf(id: number): Promise<string | null> {
    return (await namespaces.findById(id).select({ name: 1 }).lean())?.name ?? null;
  }

  async function byIds(ids: number[]): Promise<NamespaceDoc[]> {
    return namespaces.find({ _id: { $in: ids } }).lean();
  }

  /** Every namespace below the group (any depth). */
  async function descendantsOf(groupId: number): Promise<NamespaceDoc[]> {
    return namespaces.find({ ancestorIds: groupId }).lean();
  }

  /** The subgroups below the group (any depth). */
  async function subgroupsOf(groupId: number): Promise<NamespaceDoc[]> {
    return namespaces.find({ kind: 'group', ancestorIds: groupId }).lean();
  }

  async function descendantIdsOf(groupId: number): Promise<number[]> {
    return (await namespaces.find({ ancestorIds: groupId }).select({ _id: 1 }).lean()).map((g) => g._id);
  }

  async function hasDescendantIn(groupId: number, visibilities: Visibility[]): Promise<boolean> {
    return (await namespaces.exists({ ancestorIds: groupId, visibility: { $in: visibilities } })) !== null;
  }

  // What groups.finder.ts reads once it has built the filter and the order.
  const { page, seek } = finderReads(namespaces);

  /** Undoes an insert whose companion writes failed. */
  async function deleteById(id: number): Promise<void> {
    await namespaces.deleteOne({ _id: id });
  }

  // `insert` resolves false when the full path is held by a document written without its route
  // (fixtures, older data); timestamps the schema fills in may be left out.
  const { insert, update, remove } = publishingWrites(namespaces, outbox);

  return {
    findGroup,
    findByIdOrPath,
    findById,
    cachedFullName,
    ownerIdOf,
    nameOf,
    byIds,
    descendantsOf,
    subgroupsOf,
    descendantIdsOf,
    hasDescendantIn,
    page,
    seek,
    insert,
    deleteById,
    update,
    remove,
  };
}
