import type { EventActor, Principal } from '@gl/contracts';
import { HttpError, type EventOrigin } from '@gl/service-kit';
import { MAINTAINER, hasLevel, moreVisible, OWNER, requireLevel } from './access';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, projectEvent } from './identity.events';
import type { NamespaceDoc, ProjectDoc } from './identity.models';
import { membershipLevel } from './memberships';
import { joinPath } from './paths';
import { nextRevision } from './revisions';

/**
 * Projects::TransferService's refusals, which lib/api/projects.rb answers with
 * `render_api_error!("Failed to transfer project #{user_project.errors.messages}", 400)`: the Ruby
 * inspection of the model errors, `{:new_namespace=>["…"]}`.
 */
function transferFailed(message: string): HttpError {
  return new HttpError(400, {
    message: `Failed to transfer project {:new_namespace=>[${JSON.stringify(message)}]}`,
  });
}

/**
 * PUT /projects/:id/transfer: the caller must own the project (checked before the namespace is looked
 * up) and be at least a Maintainer of the target group, or own the target personal namespace. The
 * project takes the namespace's path and ancestry and is lowered to a less visible group's visibility;
 * its event carries a revision, since inherited access changes with the ancestry.
 */
export async function transferProject(
  deps: IdentityDeps,
  project: ProjectDoc,
  namespace: NamespaceDoc,
  principal: Principal,
  origin: EventOrigin,
  actor: EventActor,
): Promise<ProjectDoc> {
  const { stores } = deps;
  if (namespace._id === project.namespaceId) throw transferFailed('Project is already in this namespace.');
  const allowed =
    namespace.kind === 'group'
      ? hasLevel(
          principal,
          await membershipLevel(stores.members, principal.id, [...namespace.ancestorIds, namespace._id]),
          MAINTAINER,
        )
      : principal.isAdmin || namespace.ownerId === principal.id;
  if (!allowed) throw transferFailed("You don't have permission to transfer projects into that namespace.");
  const fullPath = joinPath(namespace.fullPath, project.path);
  const clash =
    (await stores.projects.nameTaken(namespace._id, project.name)) || (await stores.routes.taken(fullPath));
  if (clash) throw transferFailed('Project with same name or path in target namespace already exists');

  const route = { sourceType: 'project', sourceId: project._id } as const;
  if (!(await stores.routes.claim(fullPath, route))) {
    throw transferFailed('Project with same name or path in target namespace already exists');
  }
  const revision = await nextRevision(deps);
  const group = namespace.kind === 'group';
  const changes = {
    namespaceId: namespace._id,
    namespaceKind: namespace.kind,
    ancestorGroupIds: group ? [...namespace.ancestorIds, namespace._id] : [],
    fullPath,
    fullPathLower: fullPath.toLowerCase(),
    // Project#visibility_level_allowed_by_group?: never more visible than its new group.
    visibility:
      group && moreVisible(project.visibility, namespace.visibility)
        ? namespace.visibility
        : project.visibility,
    updatedAt: new Date(),
  };
  const moved: ProjectDoc = { ...project, ...changes };
  await stores.projects.update(project._id, changes, [
    projectEvent(origin, EVENT_TYPES.identity.projectUpdated, actor, moved, revision),
  ]);
  await stores.routes.release(project.fullPath, route);
  await stores.revisions.raiseVisibility(revision);
  deps.outbox.kick();
  return moved;
}

/** authorize! :change_namespace (ProjectPolicy: owners and admins). */
export function requireChangeNamespace(principal: Principal, accessLevel: number): void {
  requireLevel(principal, accessLevel, OWNER);
}
