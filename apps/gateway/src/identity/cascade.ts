import type { EventActor } from '@gl/contracts';
import type { EventOrigin } from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, groupEvent, projectEvent } from './identity.events';
import type { MemberDoc, NamespaceDoc, ProjectDoc } from './identity.models';
import { removeMember } from './member-writes';
import { nextRevision } from './revisions';
import type { RouteSource } from './routes.store';

/**
 * Removal of projects and groups with everything hanging off them. Each document goes with its own
 * event through the outbox (there are no transactions), children before parents, so a crash half-way
 * leaves the parent in place and repeating the request finishes the job.
 */
async function removeMembersOf(
  deps: IdentityDeps,
  sourceType: MemberDoc['sourceType'],
  sourceId: number,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  const members = await deps.stores.members.ofSource(sourceType, sourceId);
  for (const member of members) await removeMember(deps, member, origin, actor);
}

/**
 * The removal of a project or group with its event, which carries a visibility revision (recorded once
 * the document is gone), then its route given back.
 */
async function removeRoutable(
  deps: IdentityDeps,
  fullPath: string,
  route: RouteSource,
  remove: (revision: number) => Promise<boolean>,
): Promise<void> {
  const revision = await nextRevision(deps);
  if (await remove(revision)) await deps.stores.revisions.raiseVisibility(revision);
  await deps.stores.routes.release(fullPath, route);
}

export async function destroyProject(
  deps: IdentityDeps,
  project: ProjectDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  await removeMembersOf(deps, 'project', project._id, origin, actor);
  await deps.stores.stars.removeAllOf(project._id);
  const route = { sourceType: 'project', sourceId: project._id } as const;
  await removeRoutable(deps, project.fullPath, route, (revision) =>
    deps.stores.projects.remove(project._id, [
      projectEvent(origin, EVENT_TYPES.identity.projectDestroyed, actor, project, revision),
    ]),
  );
}

async function destroyOneGroup(
  deps: IdentityDeps,
  group: NamespaceDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  await removeMembersOf(deps, 'group', group._id, origin, actor);
  const route = { sourceType: 'namespace', sourceId: group._id } as const;
  await removeRoutable(deps, group.fullPath, route, (revision) =>
    deps.stores.namespaces.remove(group._id, [
      groupEvent(origin, EVENT_TYPES.identity.groupDestroyed, actor, group, revision),
    ]),
  );
}

/** The group, its subgroups (deepest first) and every project inside any of them. */
export async function destroyGroupTree(
  deps: IdentityDeps,
  group: NamespaceDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  const projects = await deps.stores.projects.underGroup(group._id);
  for (const project of projects) await destroyProject(deps, project, origin, actor);
  const subgroups = await deps.stores.namespaces.subgroupsOf(group._id);
  subgroups.sort((a, b) => b.ancestorIds.length - a.ancestorIds.length);
  for (const subgroup of subgroups) await destroyOneGroup(deps, subgroup, origin, actor);
  await destroyOneGroup(deps, group, origin, actor);
  deps.outbox.kick();
}
