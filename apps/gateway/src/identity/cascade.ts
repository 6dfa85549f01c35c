import type { EventActor } from '@gl/contracts';
import type { EventOrigin } from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, groupEvent, projectEvent } from './identity.events';
import type { MemberDoc, NamespaceDoc, ProjectDoc } from './identity.models';
import { removeMember } from './member-store';
import { releaseRoute } from './paths';
import { nextRevision, visibilityRevised } from './revisions';

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
  const members = await deps.models.members.find({ sourceType, sourceId }).lean();
  for (const member of members) await removeMember(deps, member, origin, actor);
}

export async function destroyProject(
  deps: IdentityDeps,
  project: ProjectDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  await removeMembersOf(deps, 'project', project._id, origin, actor);
  await deps.models.stars.deleteMany({ projectId: project._id });
  const revision = await nextRevision(deps);
  const removed = await deps.outbox.deleteWithEvents(deps.models.projects, project._id, [
    projectEvent(origin, EVENT_TYPES.identity.projectDestroyed, actor, project, revision),
  ]);
  if (removed) await visibilityRevised(deps.models, revision);
  await releaseRoute(deps.models, project.fullPath, { sourceType: 'project', sourceId: project._id });
}

async function destroyOneGroup(
  deps: IdentityDeps,
  group: NamespaceDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  await removeMembersOf(deps, 'group', group._id, origin, actor);
  const revision = await nextRevision(deps);
  const removed = await deps.outbox.deleteWithEvents(deps.models.namespaces, group._id, [
    groupEvent(origin, EVENT_TYPES.identity.groupDestroyed, actor, group, revision),
  ]);
  if (removed) await visibilityRevised(deps.models, revision);
  await releaseRoute(deps.models, group.fullPath, { sourceType: 'namespace', sourceId: group._id });
}

/** The group, its subgroups (deepest first) and every project inside any of them. */
export async function destroyGroupTree(
  deps: IdentityDeps,
  group: NamespaceDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  const { models } = deps;
  const projects = await models.projects.find({ ancestorGroupIds: group._id }).lean();
  for (const project of projects) await destroyProject(deps, project, origin, actor);
  const subgroups = await models.namespaces.find({ kind: 'group', ancestorIds: group._id }).lean();
  subgroups.sort((a, b) => b.ancestorIds.length - a.ancestorIds.length);
  for (const subgroup of subgroups) await destroyOneGroup(deps, subgroup, origin, actor);
  await destroyOneGroup(deps, group, origin, actor);
  deps.outbox.kick();
}
