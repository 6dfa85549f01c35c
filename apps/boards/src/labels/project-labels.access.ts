import type { InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import { ACCESS_LEVELS } from '@gl/contracts';
import {
  ForbiddenError,
  NotFoundError,
  accessLevelOf,
  groupAccessLevelOf,
  canReadNamespace,
  featureAvailable,
  requireUser,
  signedFeatureLevels,
  viewerOf,
} from '@gl/service-kit';

/** `user_project`: the project if the caller may read it, else "404 Project Not Found". */
export function readableProject(ctx: InternalContext): NamespaceContext {
  const ns = ctx.namespace;
  if (!ns || ns.kind !== 'project' || !canReadNamespace(viewerOf(ctx))) throw new NotFoundError('Project');
  return ns;
}

/**
 * `read_label` on a readable project: app/policies/project_policy.rb prevents every label ability when
 * both issues and merge requests are unavailable to the caller. A context signed without feature levels
 * counts them as enabled (this service keeps no copy of projects).
 */
export function labelsAvailable(ctx: InternalContext, ns: NamespaceContext): boolean {
  const features = signedFeatureLevels(ns);
  const level = accessLevelOf(ctx);
  return featureAvailable(features, 'issues', level) || featureAvailable(features, 'merge_requests', level);
}

/** `admin_label` on the project (Reporter and up, labels available): 401, then 404, then 403. */
export function labelAdmin(ctx: InternalContext): { user: Principal; ns: NamespaceContext } {
  const user = requireUser(ctx);
  const ns = readableProject(ctx);
  if (!labelsAvailable(ctx, ns) || accessLevelOf(ctx) < ACCESS_LEVELS.reporter) throw new ForbiddenError();
  return { user, ns };
}

/** The groups whose labels the project sees (its group and that group's ancestors). */
export function projectGroups(ns: NamespaceContext): number[] {
  return ns.ancestorGroupIds;
}

/** The project's own group (`project.group`), null in a user namespace. */
export function projectGroup(ns: NamespaceContext): { id: number; name: string } | null {
  const id = ns.ancestorGroupIds[ns.ancestorGroupIds.length - 1];
  if (id === undefined) return null;
  // name_with_namespace is "Parent / Group / Project": the group's name is the segment before the project's.
  const names = ns.fullName.split(' / ');
  return { id, name: names[names.length - 2] ?? ns.fullName };
}

/**
 * `admin_label` / `admin_milestone` on the project's group (Reporter and up there): a promotion writes a
 * group label or milestone, so a Reporter of the project alone may not (lib/api/helpers/label_helpers.rb
 * `promote_label`, lib/api/project_milestones.rb `promote`).
 */
export function requireGroupReporter(ctx: InternalContext): void {
  if (groupAccessLevelOf(ctx) < ACCESS_LEVELS.reporter) throw new ForbiddenError();
}
