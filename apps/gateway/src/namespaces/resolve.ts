import type { FeatureAccessLevel, NamespaceContext, Principal, Visibility } from '@gl/contracts';
import { NotFoundError, canReadNamespace } from '@gl/service-kit';
import type { NamespaceDoc, ProjectDoc } from '../identity/identity.models';
import type { IdentityStores } from '../identity/identity.stores';
import { membershipLevel, projectLevels } from '../identity/memberships';
import { featureLevels } from '../identity/project-features';
import { groupWebUrl, projectWebUrl } from '../identity/urls';

/**
 * Resolves `:id` of /groups/:id and /projects/:id the way GitLab's helpers do: digits are an id; anything
 * else is a full path (URL-decoded by the router), and for projects only a path containing a slash.
 * Invisible and unknown are the same 404, so private names do not leak.
 */
export interface ResolvedNamespace {
  context: NamespaceContext;
  group?: NamespaceDoc;
  project?: ProjectDoc;
}

/** A private group is also visible to members of anything inside it (GitLab shows its name to them). */
function hasDescendantMembership(stores: IdentityStores, userId: number, groupId: number): Promise<boolean> {
  return stores.cache.get(`descendant-member:${userId}:${groupId}`, async () => {
    const [subgroupIds, projectIds] = await Promise.all([
      stores.namespaces.descendantIdsOf(groupId),
      stores.projects.idsUnderGroup(groupId),
    ]);
    return stores.members.isMemberOfAny(userId, subgroupIds, projectIds);
  });
}

/** GitLab's `read_group` / `read_project`, the one rule every service applies (canReadNamespace). */
function canSee(visibility: Visibility, principal: Principal | null, accessLevel: number): boolean {
  return canReadNamespace({
    userId: principal?.id ?? null,
    isAdmin: principal?.isAdmin ?? false,
    accessLevel,
    namespaceVisibility: visibility,
  });
}

export async function findProject(stores: IdentityStores, idOrPath: string): Promise<ProjectDoc | null> {
  if (!/^-?\d+$/.test(idOrPath) && !idOrPath.includes('/')) return null;
  return stores.projects.findByIdOrPath(idOrPath);
}

export async function resolveGroup(
  stores: IdentityStores,
  idOrPath: string,
  principal: Principal | null,
  externalUrl: string,
): Promise<ResolvedNamespace> {
  const group = await stores.namespaces.findGroup(idOrPath);
  if (!group) throw new NotFoundError('Group');
  const level = principal
    ? await membershipLevel(stores.members, principal.id, [...group.ancestorIds, group._id])
    : 0;
  let visible = canSee(group.visibility, principal, level);
  if (!visible && principal) visible = await hasDescendantMembership(stores, principal.id, group._id);
  if (!visible) throw new NotFoundError('Group');
  return {
    group,
    context: {
      kind: 'group',
      id: group._id,
      name: group.name,
      path: group.path,
      fullPath: group.fullPath,
      fullName: group.fullName,
      visibility: group.visibility,
      webUrl: groupWebUrl(externalUrl, group),
      ancestorGroupIds: group.ancestorIds,
      accessLevel: level,
    },
  };
}

export async function projectContext(
  stores: IdentityStores,
  project: ProjectDoc,
  principal: Principal | null,
  externalUrl: string,
): Promise<NamespaceContext> {
  const levels = principal
    ? await projectLevels(stores.members, principal.id, project.ancestorGroupIds, project._id)
    : { project: 0, groups: 0 };
  const namespaceName = await stores.namespaces.cachedFullName(project.namespaceId);
  return {
    kind: 'project',
    id: project._id,
    name: project.name,
    path: project.path,
    fullPath: project.fullPath,
    fullName: namespaceName !== null ? `${namespaceName} / ${project.name}` : project.name,
    visibility: project.visibility,
    webUrl: projectWebUrl(externalUrl, project),
    ancestorGroupIds: project.ancestorGroupIds,
    accessLevel: levels.project,
    groupAccessLevel: levels.groups,
    features: signedFeatures(project),
  };
}

/** The project's feature levels that are not `enabled` (absent means enabled to every service). */
function signedFeatures(project: ProjectDoc): Record<string, FeatureAccessLevel> {
  return Object.fromEntries(
    Object.entries(featureLevels(project)).filter(([, level]) => level !== 'enabled'),
  );
}

export async function resolveProject(
  stores: IdentityStores,
  idOrPath: string,
  principal: Principal | null,
  externalUrl: string,
  options: { ignoreVisibility?: boolean } = {},
): Promise<ResolvedNamespace> {
  const project = await findProject(stores, idOrPath);
  if (!project) throw new NotFoundError('Project');
  const context = await projectContext(stores, project, principal, externalUrl);
  if (!options.ignoreVisibility && !canSee(project.visibility, principal, context.accessLevel)) {
    throw new NotFoundError('Project');
  }
  return { project, context };
}

/**
 * The resolve functions bound to the identity stores and the external URL once, where the gateway is
 * assembled, so the forwarding router resolves namespaces without holding (or naming) any store.
 */
export function createNamespaceResolver(stores: IdentityStores, externalUrl: string) {
  return {
    group: (idOrPath: string, principal: Principal | null) =>
      resolveGroup(stores, idOrPath, principal, externalUrl),
    project: (idOrPath: string, principal: Principal | null) =>
      resolveProject(stores, idOrPath, principal, externalUrl),
    /** The project by id or full path, visibility unchecked (the alert notify endpoints check a token). */
    findProject: (idOrPath: string) => findProject(stores, idOrPath),
    projectContext: (project: ProjectDoc, principal: Principal | null) =>
      projectContext(stores, project, principal, externalUrl),
  };
}
export type NamespaceResolver = ReturnType<typeof createNamespaceResolver>;
