import type { Principal } from '@gl/contracts';
import type { IdentityModels, NamespaceDoc, ProjectDoc, UserDoc } from './identity.models';
import { levelIn, membershipsOf, type Memberships } from './memberships';
import { basicProjectEntity, projectEntity, type ProjectView } from './projects.entities';

/**
 * Renders projects with what their entities embed (namespace, personal owner, the caller's access),
 * loading each kind of related document once per response rather than once per project.
 */
export interface PresentOptions {
  /** `simple=true` and anonymous lists use BasicProjectDetails. */
  basic?: boolean;
  memberships?: Memberships | null;
}

async function loadViews(models: IdentityModels, projects: ProjectDoc[]): Promise<ProjectView[]> {
  const namespaceIds = [...new Set(projects.map((p) => p.namespaceId))];
  const namespaces = new Map<number, NamespaceDoc>(
    (await models.namespaces.find({ _id: { $in: namespaceIds } }).lean()).map((n) => [n._id, n]),
  );
  const ownerIds = [...namespaces.values()]
    .filter((n) => n.kind === 'user' && n.ownerId !== null)
    .map((n) => n.ownerId!);
  const owners = new Map<number, UserDoc>(
    ownerIds.length === 0
      ? []
      : (await models.users.find({ _id: { $in: ownerIds } }).lean()).map((u) => [u._id, u]),
  );
  return projects.flatMap((project) => {
    const namespace = namespaces.get(project.namespaceId);
    if (!namespace) return [];
    const owner =
      namespace.kind === 'user' && namespace.ownerId !== null
        ? (owners.get(namespace.ownerId) ?? null)
        : null;
    return [{ project, namespace, owner }];
  });
}

export async function presentProjects(
  models: IdentityModels,
  externalUrl: string,
  projects: ProjectDoc[],
  principal: Principal | null,
  options: PresentOptions = {},
): Promise<Record<string, unknown>[]> {
  const views = await loadViews(models, projects);
  if (options.basic || !principal) {
    return views.map((view) =>
      options.basic ? basicProjectEntity(externalUrl, view) : projectEntity(externalUrl, view),
    );
  }
  const memberships = options.memberships ?? (await membershipsOf(models, principal.id));
  return views.map((view) =>
    projectEntity(externalUrl, view, {
      projectAccess: memberships.projects.get(view.project._id) ?? 0,
      groupAccess: levelIn(memberships, view.project.ancestorGroupIds),
    }),
  );
}

export async function presentProject(
  models: IdentityModels,
  externalUrl: string,
  project: ProjectDoc,
  principal: Principal | null,
): Promise<Record<string, unknown>> {
  const [entity] = await presentProjects(models, externalUrl, [project], principal);
  return entity!;
}
