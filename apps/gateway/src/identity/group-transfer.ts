import type { EventActor, Principal } from '@gl/contracts';
import { HttpError, type EventOrigin } from '@gl/service-kit';
import { CREATE_SUBGROUP_LEVEL, hasLevel, moreVisible, OWNER, requireLevel } from './access';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, groupEvent, projectEvent } from './identity.events';
import type { NamespaceDoc, ProjectDoc } from './identity.models';
import { membershipLevel } from './memberships';
import { nextRevision } from './revisions';

/** Groups::TransferService::ERROR_MESSAGES, each answered as 400 "Transfer failed: …". */
const TRANSFER_ERRORS = {
  alreadyRoot: 'Group is already a root group.',
  sameParent: 'Group is already associated to the parent group.',
  invalidPolicies: "You don't have enough permissions.",
  samePath: 'The parent group already has a subgroup or a project with the same path.',
  toSubgroup: 'Cannot transfer group to one of its subgroup.',
} as const;

function transferFailed(reason: keyof typeof TRANSFER_ERRORS): HttpError {
  return new HttpError(400, { message: `Transfer failed: ${TRANSFER_ERRORS[reason]}` });
}

type Visibility = NamespaceDoc['visibility'];
const capped = (visibility: Visibility, cap: Visibility | null): Visibility =>
  cap !== null && moreVisible(visibility, cap) ? cap : visibility;

/**
 * POST /groups/:id/transfer (Groups::TransferService): the group, with its subgroups and projects, moves
 * under `parent` or becomes a root group. Paths, full names and ancestry are rebased; anything more
 * visible than the new parent is lowered to it. Inherited access changes with the ancestry, so every
 * event carries one identity revision (revisions.ts), recorded once all are written.
 */
export async function transferGroup(
  deps: IdentityDeps,
  group: NamespaceDoc,
  accessLevel: number,
  parent: NamespaceDoc | null,
  principal: Principal,
  origin: EventOrigin,
  actor: EventActor,
): Promise<NamespaceDoc> {
  const { stores } = deps;
  requireLevel(principal, accessLevel, OWNER);
  if (!parent && group.parentId === null) throw transferFailed('alreadyRoot');
  if (parent && parent._id === group.parentId) throw transferFailed('sameParent');
  const allowed = parent
    ? hasLevel(
        principal,
        await membershipLevel(stores.members, principal.id, [...parent.ancestorIds, parent._id]),
        CREATE_SUBGROUP_LEVEL,
      )
    : principal.isAdmin || (await stores.users.canCreateGroup(principal.id));
  if (!allowed) throw transferFailed('invalidPolicies');
  const fullPath = parent ? `${parent.fullPath}/${group.path}` : group.path;
  if (await stores.routes.taken(fullPath)) throw transferFailed('samePath');
  if (parent && (parent._id === group._id || parent.ancestorIds.includes(group._id))) {
    throw transferFailed('toSubgroup');
  }

  const route = { sourceType: 'namespace', sourceId: group._id } as const;
  if (!(await stores.routes.claim(fullPath, route))) throw transferFailed('samePath');
  const revision = await nextRevision(deps);
  const cap = parent?.visibility ?? null;
  const ancestors = parent ? [...parent.ancestorIds, parent._id] : [];
  const moved: NamespaceDoc = {
    ...group,
    parentId: parent?._id ?? null,
    ancestorIds: ancestors,
    fullPath,
    fullPathLower: fullPath.toLowerCase(),
    fullName: parent ? `${parent.fullName} / ${group.name}` : group.name,
    visibility: capped(group.visibility, cap),
    updatedAt: new Date(),
  };
  const { parentId, ancestorIds, fullPathLower, fullName, visibility, updatedAt } = moved;
  await stores.namespaces.update(
    group._id,
    { parentId, ancestorIds, fullPath, fullPathLower, fullName, visibility, updatedAt },
    [groupEvent(origin, EVENT_TYPES.identity.groupUpdated, actor, moved, revision)],
  );
  await moveSubtree(deps, group, moved, cap, revision, origin, actor);
  await stores.routes.release(group.fullPath, route);
  await stores.revisions.raiseVisibility(revision);
  deps.outbox.kick();
  return moved;
}

/** A path or name under the group's old place, rebased onto its new one. */
const rebaseText = (value: string, before: string, after: string): string =>
  after + value.slice(before.length);

/** An ancestry under the group's old ancestors, rebased onto its new ones. */
const rebaseIds = (ids: number[], before: number[], after: number[]): number[] => [
  ...after,
  ...ids.slice(before.length),
];

async function moveSubtree(
  deps: IdentityDeps,
  before: NamespaceDoc,
  after: NamespaceDoc,
  cap: Visibility | null,
  revision: number,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  const { stores } = deps;
  for (const subgroup of await stores.namespaces.descendantsOf(before._id)) {
    const fullPath = rebaseText(subgroup.fullPath, before.fullPath, after.fullPath);
    const next: NamespaceDoc = {
      ...subgroup,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      fullName: rebaseText(subgroup.fullName, before.fullName, after.fullName),
      ancestorIds: rebaseIds(subgroup.ancestorIds, before.ancestorIds, after.ancestorIds),
      visibility: capped(subgroup.visibility, cap),
      updatedAt: new Date(),
    };
    const source = { sourceType: 'namespace', sourceId: subgroup._id } as const;
    await stores.routes.takeOver(fullPath, source);
    const { fullPathLower, fullName, ancestorIds, visibility, updatedAt } = next;
    await stores.namespaces.update(
      subgroup._id,
      { fullPath, fullPathLower, fullName, ancestorIds, visibility, updatedAt },
      [groupEvent(origin, EVENT_TYPES.identity.groupUpdated, actor, next, revision)],
    );
    await stores.routes.release(subgroup.fullPath, source);
  }
  for (const project of await stores.projects.underGroup(before._id)) {
    const fullPath = rebaseText(project.fullPath, before.fullPath, after.fullPath);
    const next: ProjectDoc = {
      ...project,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      ancestorGroupIds: rebaseIds(project.ancestorGroupIds, before.ancestorIds, after.ancestorIds),
      visibility: capped(project.visibility, cap),
      updatedAt: new Date(),
    };
    const source = { sourceType: 'project', sourceId: project._id } as const;
    await stores.routes.takeOver(fullPath, source);
    const { fullPathLower, ancestorGroupIds, visibility, updatedAt } = next;
    await stores.projects.update(
      project._id,
      { fullPath, fullPathLower, ancestorGroupIds, visibility, updatedAt },
      [projectEvent(origin, EVENT_TYPES.identity.projectUpdated, actor, next, revision)],
    );
    await stores.routes.release(project.fullPath, source);
  }
}
