import type { CreateGroupBody, Principal, UpdateGroupBody } from '@gl/contracts';
import { ForbiddenError, ModelError, eventActor, type EventOrigin } from '@gl/service-kit';
import { resolveGroup } from '../namespaces/resolve';
import { CREATE_SUBGROUP_LEVEL, OWNER, requireLevel } from './access';
import { destroyGroupTree } from './cascade';
import { createErrors, failedToSave, pathTakenError, updateErrors } from './group-rules';
import { rewriteSubtree } from './group-subtree';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, groupEvent } from './identity.events';
import type { NamespaceDoc } from './identity.models';

export type { NamespaceDoc };
import { insertCreatorMember } from './member-writes';
import { insertWithRoute, joinPath } from './paths';
import { saveRoutableEdit } from './routable-edit';

/**
 * Writing groups and subgroups: creation, edits (a rename or move carries the subtree along,
 * group-subtree.ts) and removal. Validation is group-rules.ts; reads are groups.finder.ts.
 */
export function createGroupsService(deps: IdentityDeps) {
  const { stores, counters, externalUrl } = deps;

  /** The parent a new group goes under (its creation level needed), or null for a top-level group. */
  async function parentFor(input: CreateGroupBody, principal: Principal): Promise<NamespaceDoc | null> {
    if (input.parent_id !== undefined) {
      const resolved = await resolveGroup(stores, String(input.parent_id), principal, externalUrl);
      requireLevel(principal, resolved.context.accessLevel, CREATE_SUBGROUP_LEVEL);
      return resolved.group!;
    }
    if (!principal.isAdmin) {
      if (!(await stores.users.canCreateGroup(principal.id))) throw new ForbiddenError();
    }
    return null;
  }

  async function create(
    input: CreateGroupBody,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<NamespaceDoc> {
    const parent = await parentFor(input, principal);
    const fullPath = joinPath(parent?.fullPath ?? null, input.path);
    const errors = await createErrors(stores, input, parent, fullPath);
    if (errors.has()) throw failedToSave(errors.fields);

    const id = await counters.next('namespaces');
    const now = new Date();
    const group: NamespaceDoc = {
      _id: id,
      kind: 'group',
      name: input.name,
      path: input.path,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      fullName: parent ? `${parent.fullName} / ${input.name}` : input.name,
      parentId: parent?._id ?? null,
      ancestorIds: parent ? [...parent.ancestorIds, parent._id] : [],
      visibility: input.visibility ?? 'private',
      description: input.description ?? '',
      ownerId: null,
      createdAt: now,
      updatedAt: now,
    };
    const actor = eventActor(principal);
    await insertWithRoute(
      stores.routes,
      fullPath,
      { sourceType: 'namespace', sourceId: id },
      () =>
        stores.namespaces.insert(group, [
          groupEvent(origin, EVENT_TYPES.identity.groupCreated, actor, group),
        ]),
      () => failedToSave({ path: ['has already been taken'] }),
    );
    // The creator owns the new group (Groups::CreateService adds them as Owner).
    const owner = { userId: principal.id, accessLevel: OWNER, createdBy: principal.id };
    await insertCreatorMember(deps, { sourceType: 'group', sourceId: id, ...owner }, origin, actor);
    deps.outbox.kick();
    return group;
  }

  /**
   * PUT /groups/:id (Owner). A new path or name rewrites the full paths and full names of the whole
   * subtree; the new route is claimed first so a taken path fails before anything changes.
   */
  async function update(
    group: NamespaceDoc,
    accessLevel: number,
    input: UpdateGroupBody,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<NamespaceDoc> {
    requireLevel(principal, accessLevel, OWNER);
    const errors = await updateErrors(stores, group, input);
    const parentPath = group.parentId === null ? null : group.fullPath.slice(0, -(group.path.length + 1));
    const parentName = group.parentId === null ? null : group.fullName.slice(0, -(group.name.length + 3));
    const path = input.path ?? group.path;
    const name = input.name ?? group.name;
    const fullPath = joinPath(parentPath, path);
    const fullName = parentName === null ? name : `${parentName} / ${name}`;
    const moved = fullPath.toLowerCase() !== group.fullPathLower;
    if (moved) await pathTakenError(stores, errors, fullPath);
    if (errors.has()) throw ModelError.fields(errors.fields);

    const actor = eventActor(principal);
    // Only the edited fields: a lean document may still carry its unpublished `_outbox`.
    const changes = {
      name,
      path,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      fullName,
      description: input.description ?? group.description,
      visibility: input.visibility ?? group.visibility,
      updatedAt: new Date(),
    };
    const updated: NamespaceDoc = { ...group, ...changes };
    await saveRoutableEdit(deps, {
      route: { sourceType: 'namespace', sourceId: group._id },
      oldPath: group.fullPath,
      newPath: fullPath,
      visibilityChanged: updated.visibility !== group.visibility,
      write: async (revision) => {
        const event = groupEvent(origin, EVENT_TYPES.identity.groupUpdated, actor, updated, revision);
        await stores.namespaces.update(group._id, changes, [event]);
      },
      afterWrite: async () => {
        if (fullPath !== group.fullPath || fullName !== group.fullName) {
          await rewriteSubtree(stores, group, updated, origin, actor);
        }
      },
    });
    return updated;
  }

  /** DELETE /groups/:id (Owner): the whole subtree goes, each removal published. */
  async function remove(
    group: NamespaceDoc,
    accessLevel: number,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<void> {
    requireLevel(principal, accessLevel, OWNER);
    await destroyGroupTree(deps, group, origin, eventActor(principal));
  }

  return { create, update, remove };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
