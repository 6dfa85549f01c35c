import type { Request, Response } from 'express';
import { wantsKeyset, type Principal, type ProjectListParams } from '@gl/contracts';
import { keysetUnavailable, sendJson, setNextPageLink, setPaginationHeaders } from '@gl/service-kit';
import { pageOf } from './http';
import type { IdentityStores } from './identity.stores';
import type { NamespaceDoc, ProjectDoc, UserDoc } from './identity.models';
import { levelIn, membershipsOf, type Memberships } from './memberships';
import { basicProjectEntity, projectEntity, type ProjectView } from './projects.entities';
import type { ProjectsService } from './projects.service';

type ProjectPageDeps = { stores: IdentityStores; externalUrl: string; projects: ProjectsService };

/**
 * Renders projects with what their entities embed (namespace, personal owner, the caller's access),
 * loading each kind of related document once per response rather than once per project.
 */
export interface PresentOptions {
  /** `simple=true` and anonymous lists use BasicProjectDetails. */
  basic?: boolean;
  memberships?: Memberships | null;
}

async function loadViews(stores: IdentityStores, projects: ProjectDoc[]): Promise<ProjectView[]> {
  const namespaceIds = [...new Set(projects.map((p) => p.namespaceId))];
  const namespaces = new Map<number, NamespaceDoc>(
    (await stores.namespaces.byIds(namespaceIds)).map((n) => [n._id, n]),
  );
  const ownerIds = [...namespaces.values()]
    .filter((n) => n.kind === 'user' && n.ownerId !== null)
    .map((n) => n.ownerId!);
  const owners = new Map<number, UserDoc>(
    ownerIds.length === 0 ? [] : (await stores.users.byIds(ownerIds)).map((u) => [u._id, u]),
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
  stores: IdentityStores,
  externalUrl: string,
  projects: ProjectDoc[],
  principal: Principal | null,
  options: PresentOptions = {},
): Promise<Record<string, unknown>[]> {
  const views = await loadViews(stores, projects);
  if (options.basic || !principal) {
    return views.map((view) =>
      options.basic ? basicProjectEntity(externalUrl, view) : projectEntity(externalUrl, view),
    );
  }
  const memberships = options.memberships ?? (await membershipsOf(stores.members, principal.id));
  return views.map((view) =>
    projectEntity(externalUrl, view, {
      projectAccess: memberships.projects.get(view.project._id) ?? 0,
      groupAccess: levelIn(memberships, view.project.ancestorGroupIds),
    }),
  );
}

export async function presentProject(
  stores: IdentityStores,
  externalUrl: string,
  project: ProjectDoc,
  principal: Principal | null,
): Promise<Record<string, unknown>> {
  const [entity] = await presentProjects(stores, externalUrl, [project], principal);
  return entity!;
}

/**
 * Answers GET /projects, or GET /users/:user_id/projects with the user's namespace as `scope`: a page of
 * what the caller may see, ProjectWithAccess for signed-in callers, BasicProjectDetails for anonymous
 * callers and `simple=true`. With `pagination=keyset`, a page by id (projectsById).
 */
export async function sendProjectPage(
  deps: ProjectPageDeps,
  req: Request,
  res: Response,
  query: ProjectListParams,
  scope?: { namespaceId: number },
): Promise<void> {
  let found: { projects: ProjectDoc[]; memberships: Memberships | null };
  if (wantsKeyset(query)) {
    const byId = await projectsById(deps.projects, req, query, scope);
    if (byId.next) setNextPageLink(req, res, byId.next);
    found = byId;
  } else {
    const page = pageOf(req);
    const { total, ...listed } = await deps.projects.list(query, req.principal, page, scope);
    setPaginationHeaders(req, res, page, total);
    found = listed;
  }
  const basic = query.simple === true || !req.principal;
  const { projects, memberships } = found;
  sendJson(
    res,
    200,
    await presentProjects(deps.stores, deps.externalUrl, projects, req.principal, { basic, memberships }),
  );
}

/**
 * Keyset pagination of projects as GitLab pages them (Gitlab::Pagination::Keyset and its Pager,
 * RequestContext and HeaderBuilder): only by id (`order_by=id`; any other order, including the default
 * created_at, is 405 "Keyset pagination is not yet available for this type of request"), descending unless
 * sort=asc. A page that has projects links to the `next` with `id_after=<last id>` (asc) or
 * `id_before=<last id>` (desc) merged into the request's parameters; the Pager reads no row beyond the
 * page, so the end of the list is the empty page, which has no Link. No X-Page, X-Total or other headers.
 */
async function projectsById(
  projects: ProjectsService,
  req: Request,
  query: ProjectListParams,
  scope: { namespaceId: number } | undefined,
) {
  if ((query.order_by ?? 'created_at') !== 'id') throw keysetUnavailable();
  const { perPage } = pageOf(req);
  const found = await projects.listById(query, req.principal, perPage, scope);
  const last = found.projects.at(-1);
  const next = last ? { [query.sort === 'asc' ? 'id_after' : 'id_before']: String(last._id) } : null;
  return Object.assign(found, { next });
}
