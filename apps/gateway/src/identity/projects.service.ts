import type { FilterQuery } from 'mongoose';
import type {
  CreateProjectBody,
  ListProjectsQuery,
  Principal,
  ProjectListParams,
  ProjectFeatureParams,
  UpdateProjectBody,
} from '@gl/contracts';
import { TEXT_LIMITS, lengthErrors } from '@gl/contracts';
import { HttpError, ModelError, eventActor, type EventOrigin, type PageRequest } from '@gl/service-kit';
import { CREATE_PROJECT_LEVEL, MAINTAINER, OWNER, moreVisible, requireLevel } from './access';
import { destroyProject } from './cascade';
import type { IdentityDeps } from './identity.deps';
import { requestedFeatures } from './project-features';
import { EVENT_TYPES, projectEvent } from './identity.events';
import type { NamespaceDoc, ProjectDoc } from './identity.models';
import { insertCreatorMember } from './member-writes';
import { saveRoutableEdit } from './routable-edit';
import {
  authorizedProjectsFilter,
  membershipLevel,
  membershipsOf,
  visibleProjectsFilter,
  type Memberships,
} from './memberships';
import {
  ValidationErrors,
  insertWithRoute,
  joinPath,
  nameErrors,
  parameterize,
  projectPathErrors,
} from './paths';
import { searchPattern } from './queries';

type Visibility = ProjectDoc['visibility'];
/** One group's projects, with its subgroups' or not, or one namespace's (a user's personal projects). */
type ProjectScope = { id: number; includeSubgroups: boolean } | { namespaceId: number };
const DEFAULT_BRANCH = 'main';

const SORT_FIELDS: Record<NonNullable<ListProjectsQuery['order_by']>, string> = {
  id: '_id',
  name: 'name',
  path: 'path',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
  last_activity_at: 'lastActivityAt',
  star_count: 'starCount',
};

function notAllowedInGroup(visibility: Visibility, group: NamespaceDoc): string {
  return `${visibility} is not allowed in a ${group.visibility} group.`;
}

/** Projects::CreateService#check_personal_projects_limit messages. */
function limitReachedMessage(limit: number): string {
  return limit === 0
    ? 'Personal project creation is not allowed. Please contact your administrator with questions'
    : `Your project limit is ${limit} projects! Please contact your administrator to increase it`;
}

/** Projects: creation in a personal or group namespace, listing with GitLab's filters, updates, removal. */
/** The project's stored feature levels with the request's applied (ProjectFeature is saved with it). */
function featureChanges(
  project: Pick<ProjectDoc, 'features'>,
  input: ProjectFeatureParams,
): { features?: ProjectDoc['features'] } {
  const requested = requestedFeatures(input);
  return requested ? { features: { ...project.features, ...requested } } : {};
}

export function createProjectsService(deps: IdentityDeps) {
  const { stores, counters } = deps;

  async function uniquenessErrors(
    errors: ValidationErrors,
    namespace: NamespaceDoc,
    name: string,
    fullPath: string,
    self?: ProjectDoc,
  ): Promise<void> {
    if (!errors.has('name') && (self === undefined || self.name !== name)) {
      if (await stores.projects.nameTaken(namespace._id, name, self?._id)) {
        errors.add('name', 'has already been taken');
      }
    }
    const moved = self === undefined || self.fullPathLower !== fullPath.toLowerCase();
    if (!errors.has('path') && moved && (await stores.routes.taken(fullPath)))
      errors.add('path', 'has already been taken');
  }

  /**
   * Projects::CreateService: the namespace defaults to the caller's own; creating in a group needs the
   * group's project creation level (Developer by default); a project can never be more visible than its
   * group. On create GitLab caps it silently (`@project.visibility_level = @project.group.visibility_level
   * unless @project.visibility_level_allowed_by_group?` in app/services/projects/create_service.rb, before
   * the model's `visibility_level_allowed_by_group` validation runs), so the answer is 201 with the group's
   * visibility; only an update answers 400 "public is not allowed in a private group.".
   */
  async function create(
    input: CreateProjectBody,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<ProjectDoc> {
    const creator = await stores.users.findById(principal.id);
    const namespaceId = input.namespace_id ?? creator?.namespaceId;
    const namespace = namespaceId === undefined ? null : await stores.namespaces.findById(namespaceId);

    if (namespace?.kind === 'user' && creator) {
      const personal = await stores.projects.countIn(creator.namespaceId);
      if (personal >= creator.projectsLimit) {
        throw new HttpError(403, { error: [limitReachedMessage(creator.projectsLimit)] });
      }
    }
    let creatorLevel = 0;
    if (namespace?.kind === 'group') {
      creatorLevel = await membershipLevel(stores.members, principal.id, [
        ...namespace.ancestorIds,
        namespace._id,
      ]);
    }
    const allowed =
      namespace !== null &&
      (principal.isAdmin ||
        (namespace.kind === 'user'
          ? namespace.ownerId === principal.id
          : creatorLevel >= CREATE_PROJECT_LEVEL));
    if (!allowed) throw ModelError.fields({ namespace: ['is not valid'] });

    // set_project_name_from_path: either one fills in the other; a name that is no valid path is parameterized.
    const name = input.name ?? input.path!;
    let path = input.path ?? input.name!;
    if (input.path === undefined && projectPathErrors(path).length > 0) path = parameterize(name);
    const requested: Visibility = input.visibility ?? 'private';
    const visibility: Visibility =
      namespace.kind === 'group' && moreVisible(requested, namespace.visibility)
        ? namespace.visibility
        : requested;
    const fullPath = joinPath(namespace.fullPath, path);

    const errors = new ValidationErrors();
    errors.add('description', lengthErrors(input.description, TEXT_LIMITS.projectDescription));
    errors.add('name', nameErrors(name));
    errors.add('path', projectPathErrors(path));
    await uniquenessErrors(errors, namespace, name, fullPath);
    if (errors.has()) throw ModelError.fields(errors.fields);

    const id = await counters.next('projects');
    const now = new Date();
    const project: ProjectDoc = {
      _id: id,
      name,
      path,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      namespaceId: namespace._id,
      namespaceKind: namespace.kind,
      ancestorGroupIds: namespace.kind === 'group' ? [...namespace.ancestorIds, namespace._id] : [],
      visibility,
      description: input.description ?? '',
      defaultBranch: input.default_branch || DEFAULT_BRANCH,
      ...featureChanges({}, input),
      creatorId: principal.id,
      starCount: 0,
      createdAt: now,
      updatedAt: now,
      lastActivityAt: now,
    };
    const actor = eventActor(principal);
    await insertWithRoute(
      stores.routes,
      fullPath,
      { sourceType: 'project', sourceId: id },
      () =>
        stores.projects.insert(project, [
          projectEvent(origin, EVENT_TYPES.identity.projectCreated, actor, project),
        ]),
      () => ModelError.fields({ path: ['has already been taken'] }),
    );

    const member = (userId: number, accessLevel: number) =>
      insertCreatorMember(
        deps,
        { sourceType: 'project', sourceId: id, userId, accessLevel, createdBy: principal.id },
        origin,
        actor,
      );
    if (namespace.kind === 'user' && namespace.ownerId !== null) {
      // A personal project belongs to the namespace's user, even when an admin creates it for them.
      await member(namespace.ownerId, OWNER);
    } else if (creatorLevel > 0 && creatorLevel < MAINTAINER) {
      // A developer who may create projects in the group becomes Maintainer of what they create.
      await member(principal.id, MAINTAINER);
    }
    deps.outbox.kick();
    return project;
  }

  async function ownedFilter(
    principal: Principal,
    memberships: Memberships,
  ): Promise<FilterQuery<ProjectDoc>> {
    const namespaceId = await stores.users.namespaceIdOf(principal.id);
    const owned = (levels: Map<number, number>) =>
      [...levels].filter(([, l]) => l >= OWNER).map(([id]) => id);
    return {
      $or: [
        { namespaceId: namespaceId ?? -1 },
        { _id: { $in: owned(memberships.projects) } },
        { ancestorGroupIds: { $in: owned(memberships.groups) } },
      ],
    };
  }

  /** What GET /projects lists: everything visible to the caller, narrowed by GitLab's ProjectsFinder filters. */
  async function listFilter(
    query: ProjectListParams,
    principal: Principal | null,
    group?: ProjectScope,
  ): Promise<{ filter: FilterQuery<ProjectDoc>; memberships: Memberships | null }> {
    const memberships = principal ? await membershipsOf(stores.members, principal.id) : null;
    const scope: FilterQuery<ProjectDoc> = !group
      ? {}
      : 'namespaceId' in group
        ? { namespaceId: group.namespaceId }
        : group.includeSubgroups
          ? { ancestorGroupIds: group.id }
          : { namespaceId: group.id };
    const and: FilterQuery<ProjectDoc>[] = [visibleProjectsFilter(principal, memberships), scope];
    if (principal && memberships) {
      if (query.membership) and.push(authorizedProjectsFilter(memberships));
      if (query.owned) and.push(await ownedFilter(principal, memberships));
      if (query.starred) and.push({ _id: { $in: await stores.stars.projectIdsOf(principal.id) } });
      if (query.min_access_level !== undefined) {
        const min = query.min_access_level;
        const atLeast = (levels: Map<number, number>) =>
          [...levels].filter(([, l]) => l >= min).map(([id]) => id);
        and.push({
          $or: [
            { _id: { $in: atLeast(memberships.projects) } },
            { ancestorGroupIds: { $in: atLeast(memberships.groups) } },
          ],
        });
      }
    }
    if (query.visibility) and.push({ visibility: query.visibility });
    if (query.search) {
      const pattern = searchPattern(query.search);
      and.push({ $or: [{ name: pattern }, { path: pattern }, { fullPath: pattern }] });
    }
    // ProjectsFinder#by_ids: `projects.id > ?` and `projects.id < ?`.
    if (query.id_after !== undefined) and.push({ _id: { $gt: query.id_after } });
    if (query.id_before !== undefined) and.push({ _id: { $lt: query.id_before } });
    return { filter: { $and: and }, memberships };
  }

  /** GET /projects, one offset page. */
  async function list(
    query: ProjectListParams,
    principal: Principal | null,
    page: PageRequest,
    /**
     * Narrows the list to one group's projects, with those of its subgroups or not, or to one namespace's
     * (a user's personal projects).
     */
    group?: ProjectScope,
  ): Promise<{ total: number; projects: ProjectDoc[]; memberships: Memberships | null }> {
    const { filter, memberships } = await listFilter(query, principal, group);
    const direction = query.sort === 'asc' ? 1 : -1;
    const field = SORT_FIELDS[query.order_by ?? 'created_at'];
    const sort: Record<string, 1 | -1> =
      field === '_id' ? { _id: direction } : { [field]: direction, _id: direction };
    const { total, docs } = await stores.projects.page(filter, sort, page);
    return { total, projects: docs, memberships };
  }

  /**
   * GET /projects?pagination=keyset&order_by=id, one page by id (Gitlab::Pagination::Keyset::Pager): the
   * first `perPage` projects in id order (descending unless sort=asc) past the request's `id_after` or
   * `id_before`, read along the id index from there, whatever page it is.
   */
  async function listById(
    query: ProjectListParams,
    principal: Principal | null,
    perPage: number,
    group?: ProjectScope,
  ): Promise<{ projects: ProjectDoc[]; memberships: Memberships | null }> {
    const { filter, memberships } = await listFilter(query, principal, group);
    const projects = await stores.projects.seek(filter, { _id: query.sort === 'asc' ? 1 : -1 }, perPage);
    return { projects, memberships };
  }

  /**
   * PUT /projects/:id: Maintainer for most attributes, Owner to change visibility (ProjectPolicy
   * `change_visibility_level`); a group project cannot become more visible than its group.
   */
  async function update(
    project: ProjectDoc,
    accessLevel: number,
    input: UpdateProjectBody,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<ProjectDoc> {
    requireLevel(principal, accessLevel, MAINTAINER);
    if (input.visibility !== undefined) requireLevel(principal, accessLevel, OWNER);
    const namespace = await stores.namespaces.findById(project.namespaceId);
    if (!namespace) throw new Error(`project ${project._id} has no namespace ${project.namespaceId}`);

    const name = input.name ?? project.name;
    const path = input.path ?? project.path;
    const visibility = input.visibility ?? project.visibility;
    const fullPath = joinPath(namespace.fullPath, path);
    const errors = new ValidationErrors();
    errors.add('description', lengthErrors(input.description, TEXT_LIMITS.projectDescription));
    if (input.name !== undefined) errors.add('name', nameErrors(name));
    if (input.path !== undefined) errors.add('path', projectPathErrors(path));
    if (namespace.kind === 'group' && moreVisible(visibility, namespace.visibility)) {
      errors.add('visibility_level', notAllowedInGroup(visibility, namespace));
    }
    await uniquenessErrors(errors, namespace, name, fullPath, project);
    if (errors.has()) throw ModelError.fields(errors.fields);

    const changes = {
      name,
      path,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      visibility,
      description: input.description ?? project.description,
      defaultBranch: input.default_branch || project.defaultBranch,
      ...featureChanges(project, input),
      updatedAt: new Date(),
    };
    const updated: ProjectDoc = { ...project, ...changes };
    await saveRoutableEdit(deps, {
      route: { sourceType: 'project', sourceId: project._id },
      oldPath: project.fullPath,
      newPath: fullPath,
      visibilityChanged: visibility !== project.visibility,
      write: async (revision) => {
        const actor = eventActor(principal);
        const event = projectEvent(origin, EVENT_TYPES.identity.projectUpdated, actor, updated, revision);
        await stores.projects.update(project._id, changes, [event]);
      },
    });
    return updated;
  }

  /** DELETE /projects/:id (Owner or admin). */
  async function remove(
    project: ProjectDoc,
    accessLevel: number,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<void> {
    requireLevel(principal, accessLevel, OWNER);
    await destroyProject(deps, project, origin, eventActor(principal));
    deps.outbox.kick();
  }

  return { create, list, listById, update, remove };
}
export type ProjectsService = ReturnType<typeof createProjectsService>;
