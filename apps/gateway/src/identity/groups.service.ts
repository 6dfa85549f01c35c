import type { FilterQuery } from 'mongoose';
import type { CreateGroupBody, ListGroupsQuery, Principal, UpdateGroupBody } from '@gl/contracts';
import { TEXT_LIMITS, lengthErrors } from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  ModelError,
  pushEvents,
  withEvents,
  type EventOrigin,
  type PageRequest,
  findPage,
} from '@gl/service-kit';
import { resolveGroup } from '../namespaces/resolve';
import { CREATE_SUBGROUP_LEVEL, OWNER, moreVisible, requireLevel, visibilitiesAbove } from './access';
import { destroyGroupTree } from './cascade';
import { actorOfPrincipal } from './http';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, groupEvent, projectEvent } from './identity.events';
import type { NamespaceDoc, ProjectDoc } from './identity.models';
import { insertMember } from './member-store';
import { nextRevision, visibilityRevised } from './revisions';
import { authorizedGroupsFilter, membershipsOf, visibleProjectsFilter } from './memberships';
import {
  ValidationErrors,
  claimRoute,
  insertWithRoute,
  joinPath,
  nameErrors,
  namespacePathErrors,
  releaseRoute,
  routeTaken,
  rubyInspect,
} from './paths';
import { searchPattern } from './queries';

type Visibility = NamespaceDoc['visibility'];
const GROUP_PROJECTS_LIMIT = 100;

/** POST /groups renders model errors inside a string: `Failed to save group {:path=>["..."]}`. */
function failedToSave(fields: Record<string, string[]>): HttpError {
  return new HttpError(400, { message: `Failed to save group ${rubyInspect(fields)}` });
}

function parentVisibilityError(visibility: Visibility, parent: NamespaceDoc): string {
  return `${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`;
}

/** Groups and subgroups: creation, renames and moves of the subtree's paths, visibility rules, removal. */
export function createGroupsService(deps: IdentityDeps) {
  const { models, counters, externalUrl } = deps;

  async function create(
    input: CreateGroupBody,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<NamespaceDoc> {
    let parent: NamespaceDoc | null = null;
    if (input.parent_id !== undefined) {
      const resolved = await resolveGroup(models, String(input.parent_id), principal, externalUrl);
      requireLevel(principal, resolved.context.accessLevel, CREATE_SUBGROUP_LEVEL);
      parent = resolved.group!;
    } else if (!principal.isAdmin) {
      const user = await models.users.findById(principal.id).select({ canCreateGroup: 1 }).lean();
      if (!user?.canCreateGroup) throw new ForbiddenError();
    }

    const visibility = input.visibility ?? 'private';
    const fullPath = joinPath(parent?.fullPath ?? null, input.path);
    const errors = new ValidationErrors();
    errors.add('name', nameErrors(input.name));
    errors.add('description', lengthErrors(input.description, TEXT_LIMITS.namespaceDescription));
    errors.add('path', namespacePathErrors(input.path));
    if (parent && moreVisible(visibility, parent.visibility)) {
      errors.add('visibility_level', parentVisibilityError(visibility, parent));
    }
    if (!errors.has('path') && (await routeTaken(models, fullPath)))
      errors.add('path', 'has already been taken');
    if (errors.has()) throw failedToSave(errors.fields);

    const id = await counters.next('namespaces');
    const now = new Date();
    const group: NamespaceDoc = {
      _id: id,
      kind: 'group',
      name: input.name,
      path: input.path,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      fullName: parent ? `${parent.fullName} / ${input.name}` : input.name,
      parentId: parent?._id ?? null,
      ancestorIds: parent ? [...parent.ancestorIds, parent._id] : [],
      visibility,
      description: input.description ?? '',
      ownerId: null,
      createdAt: now,
      updatedAt: now,
    };
    const actor = actorOfPrincipal(principal);
    await insertWithRoute(
      models,
      fullPath,
      { sourceType: 'namespace', sourceId: id },
      () =>
        models.namespaces.create(
          withEvents(group, [groupEvent(origin, EVENT_TYPES.identity.groupCreated, actor, group)]),
        ),
      () => failedToSave({ path: ['has already been taken'] }),
    );
    // The creator owns the new group (Groups::CreateService adds them as Owner).
    await insertMember(
      deps,
      {
        sourceType: 'group',
        sourceId: id,
        userId: principal.id,
        accessLevel: OWNER,
        expiresAt: null,
        createdBy: principal.id,
      },
      origin,
      actor,
    );
    deps.outbox.kick();
    return group;
  }

  /** GitLab's GroupsFinder: public for anonymous callers; for users their groups, plus all visible with all_available. */
  async function list(
    query: ListGroupsQuery,
    principal: Principal | null,
    page: PageRequest,
    /** Narrows the list, e.g. to one group's subgroups. */
    scope: FilterQuery<NamespaceDoc> = {},
  ): Promise<{ total: number; groups: NamespaceDoc[] }> {
    const and: FilterQuery<NamespaceDoc>[] = [{ kind: 'group' }, scope];
    if (!principal) {
      and.push({ visibility: 'public' });
    } else {
      const memberships = await membershipsOf(models, principal.id);
      if (query.owned || query.min_access_level !== undefined) {
        const min = query.owned ? OWNER : query.min_access_level!;
        const ids = [...memberships.groups].filter(([, level]) => level >= min).map(([id]) => id);
        // `owned` means direct Owner membership; a minimum level also reaches the subgroups it is inherited by.
        and.push(
          query.owned
            ? { _id: { $in: ids } }
            : { $or: [{ _id: { $in: ids } }, { ancestorIds: { $in: ids } }] },
        );
      } else {
        const allAvailable = query.all_available ?? principal.isAdmin;
        if (!(principal.isAdmin && allAvailable)) {
          const authorized = await authorizedGroupsFilter(models, memberships);
          and.push(
            allAvailable
              ? { $or: [{ visibility: { $in: ['public', 'internal'] } }, ...authorized.$or!] }
              : authorized,
          );
        }
      }
    }
    if (query.top_level_only) and.push({ parentId: null });
    if (query.visibility) and.push({ visibility: query.visibility });
    if (query.search) {
      const pattern = searchPattern(query.search);
      and.push({ $or: [{ name: pattern }, { path: pattern }] });
    }
    const filter: FilterQuery<NamespaceDoc> = { $and: and };
    const direction = query.sort === 'desc' ? -1 : 1;
    const orderBy = query.order_by ?? 'name';
    const sort: Record<string, 1 | -1> =
      orderBy === 'id' ? { _id: direction } : { [orderBy]: direction, _id: 1 };
    const { total, docs } = await findPage(models.namespaces, filter, sort, page);
    return { total, groups: docs };
  }

  /** GroupDetail#projects: the group's own projects the caller can see. */
  async function directProjects(group: NamespaceDoc, principal: Principal | null): Promise<ProjectDoc[]> {
    const memberships = principal && !principal.isAdmin ? await membershipsOf(models, principal.id) : null;
    return models.projects
      .find({ $and: [{ namespaceId: group._id }, visibleProjectsFilter(principal, memberships)] })
      .sort({ _id: -1 })
      .limit(GROUP_PROJECTS_LIMIT)
      .lean();
  }

  async function validateUpdate(group: NamespaceDoc, input: UpdateGroupBody): Promise<ValidationErrors> {
    const errors = new ValidationErrors();
    if (input.name !== undefined) errors.add('name', nameErrors(input.name));
    errors.add('description', lengthErrors(input.description, TEXT_LIMITS.namespaceDescription));
    if (input.path !== undefined) errors.add('path', namespacePathErrors(input.path));
    const visibility = input.visibility;
    if (visibility !== undefined && visibility !== group.visibility) {
      const parent = group.parentId === null ? null : await models.namespaces.findById(group.parentId).lean();
      if (parent && moreVisible(visibility, parent.visibility)) {
        errors.add('visibility_level', parentVisibilityError(visibility, parent));
      }
      const above = visibilitiesAbove(visibility);
      if (await models.projects.exists({ ancestorGroupIds: group._id, visibility: { $in: above } })) {
        errors.add(
          'visibility_level',
          `${visibility} is not allowed since this group contains projects with higher visibility.`,
        );
      }
      if (await models.namespaces.exists({ ancestorIds: group._id, visibility: { $in: above } })) {
        errors.add(
          'visibility_level',
          `${visibility} is not allowed since there are sub-groups with higher visibility.`,
        );
      }
    }
    return errors;
  }

  /**
   * PUT /groups/:id (Owner). A new path or name rewrites the full paths and full names of the whole
   * subtree; the new route is claimed first so a taken path fails before anything changes.
   */
  async function update(
    group: NamespaceDoc,
    accessLevel: number,
    input: UpdateGroupBody,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<NamespaceDoc> {
    requireLevel(principal, accessLevel, OWNER);
    const errors = await validateUpdate(group, input);
    const parentPath = group.parentId === null ? null : group.fullPath.slice(0, -(group.path.length + 1));
    const parentName = group.parentId === null ? null : group.fullName.slice(0, -(group.name.length + 3));
    const path = input.path ?? group.path;
    const name = input.name ?? group.name;
    const fullPath = joinPath(parentPath, path);
    const fullName = parentName === null ? name : `${parentName} / ${name}`;
    const moved = fullPath.toLowerCase() !== group.fullPathLower;
    if (!errors.has('path') && moved && (await routeTaken(models, fullPath)))
      errors.add('path', 'has already been taken');
    if (errors.has()) throw ModelError.fields(errors.fields);

    const route = { sourceType: 'namespace' as const, sourceId: group._id };
    if (moved && !(await claimRoute(models, fullPath, route)))
      throw ModelError.fields({ path: ['has already been taken'] });

    const actor = actorOfPrincipal(principal);
    const updated: NamespaceDoc = {
      ...group,
      name,
      path,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      fullName,
      description: input.description ?? group.description,
      visibility: input.visibility ?? group.visibility,
      updatedAt: new Date(),
    };
    // Only the edited fields: a lean document may still carry its unpublished `_outbox`.
    const changes = {
      name,
      path,
      fullPath,
      fullPathLower: updated.fullPathLower,
      fullName,
      description: updated.description,
      visibility: updated.visibility,
      updatedAt: updated.updatedAt,
    };
    const revision = updated.visibility === group.visibility ? undefined : await nextRevision(deps);
    await models.namespaces.updateOne(
      { _id: group._id },
      pushEvents({ $set: changes }, [
        groupEvent(origin, EVENT_TYPES.identity.groupUpdated, actor, updated, revision),
      ]),
    );
    if (revision !== undefined) await visibilityRevised(models, revision);
    if (fullPath !== group.fullPath || fullName !== group.fullName) {
      await rewriteSubtree(group, updated, origin, actor);
    }
    if (moved) await releaseRoute(models, group.fullPath, route);
    deps.outbox.kick();
    return updated;
  }

  async function moveRoute(
    oldPath: string,
    newPath: string,
    source: { sourceType: 'namespace' | 'project'; sourceId: number },
  ) {
    if (oldPath.toLowerCase() === newPath.toLowerCase()) return;
    // The new prefix was free, so anything under it can only be a leftover: take it over.
    await models.routes.updateOne({ _id: newPath.toLowerCase() }, { $set: source }, { upsert: true });
    await releaseRoute(models, oldPath, source);
  }

  async function rewriteSubtree(
    before: NamespaceDoc,
    after: NamespaceDoc,
    origin: EventOrigin,
    actor: ReturnType<typeof actorOfPrincipal>,
  ): Promise<void> {
    const rebase = (value: string, oldPrefix: string, newPrefix: string): string =>
      newPrefix + value.slice(oldPrefix.length);
    const subgroups = await models.namespaces.find({ ancestorIds: before._id }).lean();
    for (const subgroup of subgroups) {
      const next: NamespaceDoc = {
        ...subgroup,
        fullPath: rebase(subgroup.fullPath, before.fullPath, after.fullPath),
        fullName: rebase(subgroup.fullName, before.fullName, after.fullName),
        updatedAt: new Date(),
      };
      next.fullPathLower = next.fullPath.toLowerCase();
      await moveRoute(subgroup.fullPath, next.fullPath, { sourceType: 'namespace', sourceId: subgroup._id });
      await models.namespaces.updateOne(
        { _id: subgroup._id },
        pushEvents(
          {
            $set: {
              fullPath: next.fullPath,
              fullPathLower: next.fullPathLower,
              fullName: next.fullName,
              updatedAt: next.updatedAt,
            },
          },
          [groupEvent(origin, EVENT_TYPES.identity.groupUpdated, actor, next)],
        ),
      );
    }
    if (before.fullPath === after.fullPath) return;
    const projects = await models.projects.find({ ancestorGroupIds: before._id }).lean();
    for (const project of projects) {
      const fullPath = rebase(project.fullPath, before.fullPath, after.fullPath);
      const next: ProjectDoc = {
        ...project,
        fullPath,
        fullPathLower: fullPath.toLowerCase(),
        updatedAt: new Date(),
      };
      await moveRoute(project.fullPath, fullPath, { sourceType: 'project', sourceId: project._id });
      await models.projects.updateOne(
        { _id: project._id },
        pushEvents({ $set: { fullPath, fullPathLower: next.fullPathLower, updatedAt: next.updatedAt } }, [
          projectEvent(origin, EVENT_TYPES.identity.projectUpdated, actor, next),
        ]),
      );
    }
  }

  /** DELETE /groups/:id (Owner): the whole subtree goes, each removal published. */
  async function remove(
    group: NamespaceDoc,
    accessLevel: number,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<void> {
    requireLevel(principal, accessLevel, OWNER);
    await destroyGroupTree(deps, group, origin, actorOfPrincipal(principal));
  }

  return { create, list, directProjects, update, remove };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
