import type { EventActor, Principal } from '@gl/contracts';
import { HttpError, type EventOrigin } from '@gl/service-kit';
import { CREATE_SUBGROUP_LEVEL, hasLevel, moreVisible, OWNER, requireLevel } from './access';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, groupEvent, projectEvent } from './identity.events';
import type { NamespaceDoc } from './identity.models';
import { membershipLevel } from './memberships';
import { nextRevision } from './revisions';
import type { RouteSource } from './routes.store';

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

/** Where the moved group was and is, and the visibility its descendants may keep at most. */
interface Move {
  before: NamespaceDoc;
  after: NamespaceDoc;
  cap: Visibility | null;
}

/**
 * Moves one subgroup or project along with the group: its full path is rebased and its visibility capped
 * (`rebased` adds its own rebased ancestry), its new route is taken over, the changes written by `write`
 * with the updated document, and its old route let go.
 */
async function moveDescendant<T extends { _id: number; fullPath: string; visibility: Visibility }>(
  stores: IdentityDeps['stores'],
  doc: T,
  source: RouteSource,
  move: Move,
  rebased: Partial<T>,
  write: (changes: Partial<T>, next: T) => Promise<void>,
): Promise<void> {
  const fullPath = rebaseText(doc.fullPath, move.before.fullPath, move.after.fullPath);
  const changes = {
    fullPath,
    fullPathLower: fullPath.toLowerCase(),
    ...rebased,
    visibility: capped(doc.visibility, move.cap),
    updatedAt: new Date(),
  } as Partial<T>;
  await stores.routes.takeOver(fullPath, source);
  await write(changes, { ...doc, ...changes });
  await stores.routes.release(doc.fullPath, source);
}

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
  const move: Move = { before, after, cap };
  for (const subgroup of await stores.namespaces.descendantsOf(before._id)) {
    const source = { sourceType: 'namespace', sourceId: subgroup._id } as const;
    const rebased = {
      fullName: rebaseText(subgroup.fullName, before.fullName, after.fullName),
      ancestorIds: rebaseIds(subgroup.ancestorIds, before.ancestorIds, after.ancestorIds),
    };
    await moveDescendant(stores, subgroup, source, move, rebased, (changes, next) =>
      stores.namespaces.update(subgroup._id, changes, [
        groupEvent(origin, EVENT_TYPES.identity.groupUpdated, actor, next, revision),
      ]),
    );
  }
  for (const project of await stores.projects.underGroup(before._id)) {
    const source = { sourceType: 'project', sourceId: project._id } as const;
    const rebased = {
      ancestorGroupIds: rebaseIds(project.ancestorGroupIds, before.ancestorIds, after.ancestorIds),
    };
    await moveDescendant(stores, project, source, move, rebased, (changes, next) =>
      stores.projects.update(project._id, changes, [
        projectEvent(origin, EVENT_TYPES.identity.projectUpdated, actor, next, revision),
      ]),
    );
  }
}
