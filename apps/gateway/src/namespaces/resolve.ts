import type { NamespaceContext, Principal, Visibility } from '@gl/contracts';
import { NotFoundError, canReadNamespace } from '@gl/service-kit';
import type { IdentityModels, NamespaceDoc, ProjectDoc } from '../identity/identity.models';
import { membershipLevel } from '../identity/memberships';
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
function hasDescendantMembership(models: IdentityModels, userId: number, groupId: number): Promise<boolean> {
  return models.cache.get(`descendant-member:${userId}:${groupId}`, async () => {
    const [subgroups, projects] = await Promise.all([
      models.namespaces.find({ ancestorIds: groupId }).select({ _id: 1 }).lean(),
      models.projects.find({ ancestorGroupIds: groupId }).select({ _id: 1 }).lean(),
    ]);
    const or: Record<string, unknown>[] = [];
    if (subgroups.length) or.push({ sourceType: 'group', sourceId: { $in: subgroups.map((g) => g._id) } });
    if (projects.length) or.push({ sourceType: 'project', sourceId: { $in: projects.map((p) => p._id) } });
    if (or.length === 0) return false;
    return (await models.members.exists({ userId, $or: or })) !== null;
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

export async function findGroup(models: IdentityModels, idOrPath: string): Promise<NamespaceDoc | null> {
  const query = /^-?\d+$/.test(idOrPath)
    ? { _id: Number(idOrPath) }
    : { fullPathLower: idOrPath.toLowerCase() };
  return models.cache.get(`group:${idOrPath.toLowerCase()}`, () =>
    models.namespaces.findOne({ ...query, kind: 'group' }).lean<NamespaceDoc>(),
  );
}

export async function findProject(models: IdentityModels, idOrPath: string): Promise<ProjectDoc | null> {
  const numeric = /^-?\d+$/.test(idOrPath);
  if (!numeric && !idOrPath.includes('/')) return null;
  return models.cache.get(`project:${idOrPath.toLowerCase()}`, () =>
    numeric
      ? models.projects.findById(Number(idOrPath)).lean<ProjectDoc>()
      : models.projects.findOne({ fullPathLower: idOrPath.toLowerCase() }).lean<ProjectDoc>(),
  );
}

export async function resolveGroup(
  models: IdentityModels,
  idOrPath: string,
  principal: Principal | null,
  externalUrl: string,
): Promise<ResolvedNamespace> {
  const group = await findGroup(models, idOrPath);
  if (!group) throw new NotFoundError('Group');
  const level = principal
    ? await membershipLevel(models, principal.id, [...group.ancestorIds, group._id])
    : 0;
  let visible = canSee(group.visibility, principal, level);
  if (!visible && principal) visible = await hasDescendantMembership(models, principal.id, group._id);
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
  models: IdentityModels,
  project: ProjectDoc,
  principal: Principal | null,
  externalUrl: string,
): Promise<NamespaceContext> {
  const level = principal
    ? await membershipLevel(models, principal.id, project.ancestorGroupIds, project._id)
    : 0;
  const namespace = await models.cache.get(`namespace-name:${project.namespaceId}`, () =>
    models.namespaces.findById(project.namespaceId).select({ fullName: 1 }).lean(),
  );
  return {
    kind: 'project',
    id: project._id,
    name: project.name,
    path: project.path,
    fullPath: project.fullPath,
    fullName: namespace ? `${namespace.fullName} / ${project.name}` : project.name,
    visibility: project.visibility,
    webUrl: projectWebUrl(externalUrl, project),
    ancestorGroupIds: project.ancestorGroupIds,
    accessLevel: level,
  };
}

export async function resolveProject(
  models: IdentityModels,
  idOrPath: string,
  principal: Principal | null,
  externalUrl: string,
  options: { ignoreVisibility?: boolean } = {},
): Promise<ResolvedNamespace> {
  const project = await findProject(models, idOrPath);
  if (!project) throw new NotFoundError('Project');
  const context = await projectContext(models, project, principal, externalUrl);
  if (!options.ignoreVisibility && !canSee(project.visibility, principal, context.accessLevel)) {
    throw new NotFoundError('Project');
  }
  return { project, context };
}
