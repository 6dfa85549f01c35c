import { ACCESS_LEVELS, type InternalContext, type NamespaceContext } from '@gl/contracts';
import { ProjectionVersion, accessLevelOf, todayUtc, type FeatureLevels } from '@gl/service-kit';
import type { MembershipDoc } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { MilestoneDoc, ProjectRefDoc } from '../copies/copies.models';
import type { FinderLookups, FinderViewer, ReadableProject } from './issuables.finder';
import { ANY_REACTION } from './finder-filters';
import { positionScopeOfProject } from './root-scope';
import { createIssuableKeysetStore } from './issuable-keyset.store';
import { createScopeReads, type ScopeReads } from './scope-reads';

/** Admins read every project (`read_all_resources`); the level the finder gives them. */
const ADMIN_LEVEL = 60;

/**
 * A project of the access copy as lists read it: the copy also keeps the project's feature levels
 * (libs/service-kit accessCopyHandlers; null or absent: every feature enabled).
 */
export type ProjectCopy = ProjectRefDoc & { features?: FeatureLevels };

/** A project a list may show items of: what the finder needs, and where its items' URLs point. */
export interface ScopeProject extends ReadableProject {
  fullPath: string;
  /** The groups above the project, root first: where its items' milestones come from. */
  ancestorGroupIds?: number[];
  /**
   * The groups whose milestones `Upcoming` looks at in this list (IssuableFinder::Params#related_groups),
   * the same on every project of one list: a project's group and its ancestors, a group alone, or for
   * the instance the hierarchies of the caller's groups.
   */
  relatedGroupIds?: number[];
  /** How many projects the root group of a group list holds (root-scope.ts decides the read from it). */
  rootProjectCount?: number;
}

/** Lookups' keys for the milestone wildcards (issuables.finder.ts): ids of the milestones each selects. */
export const MILESTONE_WILDCARD_KEYS = {
  upcoming: '#upcoming',
  started: '#started',
  notUpcoming: '#not_upcoming',
  notStarted: '#not_started',
} as const;
export type MilestoneWildcardKey = (typeof MILESTONE_WILDCARD_KEYS)[keyof typeof MILESTONE_WILDCARD_KEYS];

/**
 * The milestone ids each wildcard stands for, from the copies of the groups' milestones (today in UTC,
 * as the database's CURRENT_DATE): Milestone.upcoming_ids — per related group the active milestone due
 * soonest after today (ties: the lowest id); Milestone.started — active ones whose start date has come;
 * not_upcoming — active ones due today or before; not_started — active ones starting after today.
 */
export function milestoneWildcardIds(
  copies: Pick<MilestoneDoc, '_id' | 'groupId' | 'state' | 'startDate' | 'dueDate'>[],
  relatedGroupIds: number[],
  today: string,
): Map<MilestoneWildcardKey, number[]> {
  const active = copies.filter((m) => m.state === 'active');
  const related = new Set(relatedGroupIds);
  const next = new Map<number, { id: number; due: string }>();
  for (const m of active) {
    if (!m.dueDate || m.dueDate <= today || m.groupId === undefined || !related.has(m.groupId)) continue;
    const best = next.get(m.groupId);
    if (!best || m.dueDate < best.due || (m.dueDate === best.due && m._id < best.id)) {
      next.set(m.groupId, { id: m._id, due: m.dueDate });
    }
  }
  const K = MILESTONE_WILDCARD_KEYS;
  return new Map<MilestoneWildcardKey, number[]>([
    [K.upcoming, [...next.values()].map((m) => m.id)],
    [K.started, active.filter((m) => !!m.startDate && m.startDate <= today).map((m) => m._id)],
    [K.notUpcoming, active.filter((m) => !!m.dueDate && m.dueDate <= today).map((m) => m._id)],
    [K.notStarted, active.filter((m) => !!m.startDate && m.startDate > today).map((m) => m._id)],
  ]);
}

const union = (lists: (number[] | undefined)[]): number[] => [...new Set(lists.flatMap((l) => l ?? []))];

/** The positioning scope (root-scope.ts) of a project route's issues. */
export function positionScopeOfNamespace(ns: Pick<NamespaceContext, 'id' | 'ancestorGroupIds'>): string {
  return positionScopeOfProject(ns.id, ns.ancestorGroupIds[0] ?? null);
}

export function viewerOfContext(ctx: InternalContext): FinderViewer {
  return { userId: ctx.principal?.id ?? null, isAdmin: ctx.principal?.isAdmin ?? false };
}

/** read_project: public to all, internal to signed-in users, private to members; admins all. */
function readsProject(project: Pick<ProjectRefDoc, 'visibility'>, level: number, viewer: FinderViewer) {
  if (viewer.isAdmin || level >= ACCESS_LEVELS.guest) return true;
  if (project.visibility === 'public') return true;
  return project.visibility === 'internal' && viewer.userId !== null;
}

/**
 * The projects a list may draw from, at each scope, from discussions' copy of projects and memberships
 * (identity.projection.ts): ProjectsFinder's visibility rule (`public_or_visible_to_user`) over the group's
 * subtree or the whole instance. Private projects the caller is no member of are never among them.
 */
export function createIssuablesScope(
  models: Pick<
    DiscussionsModels,
    'projects' | 'groups' | 'members' | 'milestones' | 'users' | 'awardEmoji' | 'noteables' | 'noteableWords'
  >,
  /** The projection reads group lists repeat (scope-reads.ts); by default read every time. */
  reads: ScopeReads = createScopeReads(models, new ProjectionVersion(), null, 0),
) {
  /** The caller's level on each project: its own membership or one of its ancestor groups', unexpired. */
  async function levels(
    viewer: FinderViewer,
    ctx: InternalContext,
    projects: ProjectRefDoc[],
  ): Promise<Map<number, number>> {
    return levelsFrom(await membershipsOf(viewer, ctx), projects);
  }

  /**
   * The memberships `levels` needs: none for anonymous callers, nor for admins, whose level on every
   * project is ADMIN_LEVEL whatever their memberships (`readable`), so no read is spent on them.
   */
  async function membershipsOf(viewer: FinderViewer, ctx: InternalContext): Promise<MembershipDoc[]> {
    if (viewer.userId === null || viewer.isAdmin) return [];
    return reads.memberships(viewer.userId, ctx);
  }

  function levelsFrom(memberships: MembershipDoc[], projects: ProjectRefDoc[]): Map<number, number> {
    const out = new Map<number, number>();
    if (memberships.length === 0) return out;
    const today = todayUtc();
    const project = new Map<number, number>();
    const group = new Map<number, number>();
    for (const m of memberships) {
      if (m.expiresAt !== null && m.expiresAt <= today) continue;
      const into = m.sourceType === 'project' ? project : group;
      into.set(m.sourceId, Math.max(into.get(m.sourceId) ?? 0, m.accessLevel));
    }
    for (const p of projects) {
      const inherited = p.ancestorGroupIds.map((g) => group.get(g) ?? 0);
      out.set(p._id, Math.max(project.get(p._id) ?? 0, ...inherited));
    }
    return out;
  }

  /**
   * The projects the caller reads, each with its feature levels: the finder leaves out those whose issues
   * or merge requests the caller may not use (issuables.finder.ts withFeature), for the list's kind.
   */
  function readable(
    projects: ProjectCopy[],
    levelOf: Map<number, number>,
    viewer: FinderViewer,
    relatedGroupIds: number[],
  ) {
    return projects.flatMap((p): ScopeProject[] => {
      const level = viewer.isAdmin ? ADMIN_LEVEL : (levelOf.get(p._id) ?? 0);
      if (!readsProject(p, level, viewer)) return [];
      const { visibility, fullPath, features, ancestorGroupIds } = p;
      return [{ id: p._id, level, visibility, fullPath, features, ancestorGroupIds, relatedGroupIds }];
    });
  }

  /**
   * Gitlab::ObjectHierarchy.new(current_user.authorized_groups).all_objects, as far as the projects show
   * it: the groups of the caller's group memberships and of the projects they are members of, with their
   * ancestors and the descendants that hold projects.
   */
  function hierarchyOf(memberships: MembershipDoc[], projects: ProjectCopy[]): number[] {
    const today = todayUtc();
    const current = memberships.filter((m) => m.expiresAt === null || m.expiresAt > today);
    const groups = new Set(current.filter((m) => m.sourceType === 'group').map((m) => m.sourceId));
    const direct = new Set(current.filter((m) => m.sourceType === 'project').map((m) => m.sourceId));
    const chains = projects.filter((p) => direct.has(p._id) || p.ancestorGroupIds.some((g) => groups.has(g)));
    return union([[...groups], ...chains.map((p) => p.ancestorGroupIds)]);
  }

  /** The one project of a project route, as the gateway resolved it (its signed level). */
  function ofProject(ctx: InternalContext, ns: NamespaceContext): ScopeProject[] {
    const { id, visibility, fullPath, ancestorGroupIds } = ns;
    // related_groups: project.group.self_and_ancestors.
    const relatedGroupIds = ancestorGroupIds;
    return [{ id, level: accessLevelOf(ctx), visibility, fullPath, ancestorGroupIds, relatedGroupIds }];
  }

  /**
   * The readable projects of the group and all its subgroups (`include_subgroups: true`). The caller's
   * level on the group itself comes signed with the request; deeper memberships from the projection.
   */
  async function ofGroup(ctx: InternalContext, group: NamespaceContext): Promise<ScopeProject[]> {
    const viewer = viewerOfContext(ctx);
    const root = group.ancestorGroupIds[0] ?? group.id;
    // The caller's memberships are read beside the tree, not after it: neither read needs the other.
    const [tree, memberships] = await Promise.all([reads.tree(root, ctx), membershipsOf(viewer, ctx)]);
    const inGroup = tree.filter((p) => p.ancestorGroupIds.includes(group.id));
    const levelOf = levelsFrom(memberships, inGroup);
    for (const p of inGroup) levelOf.set(p._id, Math.max(levelOf.get(p._id) ?? 0, group.accessLevel));
    // related_groups of a group list: the group alone.
    const projects = readable(inGroup, levelOf, viewer, [group.id]);
    // Set on the fresh views rather than spread into copies: a spread copy costs a hidden class per field.
    for (const p of projects) p.rootProjectCount = tree.length;
    return projects;
  }

  /**
   * These projects, wherever they are, as the caller reads them (levels from the projection alone): an epic
   * may hold issues of projects outside its group, which the gateway signed no context for. Unreadable,
   * unknown and destroyed projects are left out.
   */
  async function ofProjectIds(ctx: InternalContext, ids: number[]): Promise<ScopeProject[]> {
    if (ids.length === 0) return [];
    const viewer = viewerOfContext(ctx);
    const found = await models.projects
      .find({ _id: { $in: [...new Set(ids)] }, destroyed: { $ne: true } })
      .lean<ProjectCopy[]>();
    const levelOf = await levels(viewer, ctx, found);
    // related_groups of a project: its group and that group's ancestors.
    return found.flatMap((p) => readable([p], levelOf, viewer, p.ancestorGroupIds));
  }

  /**
   * Every project the caller reads (IssuableFinder without a project or group): public ones, internal
   * ones when signed in, and those of their memberships; admins every project.
   */
  async function ofInstance(ctx: InternalContext): Promise<ScopeProject[]> {
    const viewer = viewerOfContext(ctx);
    const memberships =
      viewer.userId === null ? [] : await models.members.find({ userId: viewer.userId }).lean();
    if (viewer.isAdmin) {
      const all = await models.projects.find({ destroyed: false }).lean<ProjectCopy[]>();
      return readable(all, new Map(), viewer, hierarchyOf(memberships, all));
    }
    const open = viewer.userId === null ? ['public'] : ['public', 'internal'];
    const found = new Map<number, ProjectCopy>();
    for (const p of await models.projects.find({ visibility: { $in: open } }).lean<ProjectCopy[]>()) {
      found.set(p._id, p);
    }
    if (viewer.userId !== null) {
      const projectIds = memberships.filter((m) => m.sourceType === 'project').map((m) => m.sourceId);
      const groupIds = memberships.filter((m) => m.sourceType === 'group').map((m) => m.sourceId);
      const groups = groupIds.length ? await models.groups.find({ _id: { $in: groupIds } }).lean() : [];
      const roots = [...new Set(groups.map((g) => g.rootGroupId))];
      const [direct, trees] = await Promise.all([
        projectIds.length ? models.projects.find({ _id: { $in: projectIds } }).lean<ProjectCopy[]>() : [],
        roots.length ? models.projects.find({ rootGroupId: { $in: roots } }).lean<ProjectCopy[]>() : [],
      ]);
      for (const p of direct) found.set(p._id, p);
      for (const p of trees) {
        if (p.ancestorGroupIds.some((g) => groupIds.includes(g))) found.set(p._id, p);
      }
    }
    const projects = [...found.values()].filter((p) => !p.destroyed);
    // The memberships read above give the levels too (one read of them, not two).
    return readable(projects, levelsFrom(memberships, projects), viewer, hierarchyOf(memberships, projects));
  }

  /**
   * What the query's names stand for: milestone ids by title (GitLab matches the title across the
   * milestones the projects see: every group milestone copy here), user ids by username; and, when the
   * query uses a milestone wildcard, the ids of the milestones it selects (milestoneWildcardIds) among
   * those of the groups above the list's projects, where the items' milestones come from.
   */
  /** The caller's awards on issues and merge requests, by name and under ANY_REACTION. */
  async function reactedIds(userId: number): Promise<Map<string, number[]>> {
    const awards = await models.awardEmoji
      .find({ 'user.id': userId, awardableType: { $in: ['Issue', 'MergeRequest'] } })
      .select({ awardableId: 1, name: 1 })
      .lean();
    const byName = new Map<string, number[]>([[ANY_REACTION, []]]);
    for (const award of awards) {
      byName.get(ANY_REACTION)!.push(award.awardableId);
      if (!byName.has(award.name)) byName.set(award.name, []);
      byName.get(award.name)!.push(award.awardableId);
    }
    return byName;
  }

  async function lookups(
    names: {
      milestoneTitles: string[];
      usernames: string[];
      milestoneWildcards?: boolean;
      reactions?: boolean;
    },
    projects: ScopeProject[] = [],
    viewerId: number | null = null,
  ): Promise<FinderLookups> {
    const groupIds = names.milestoneWildcards ? union(projects.map((p) => p.ancestorGroupIds)) : [];
    const [milestones, users, copies, reacted] = await Promise.all([
      names.milestoneTitles.length
        ? models.milestones.find({ title: { $in: names.milestoneTitles } }).lean()
        : [],
      names.usernames.length ? models.users.find({ username: { $in: names.usernames } }).lean() : [],
      groupIds.length
        ? models.milestones
            .find({ groupId: { $in: groupIds }, state: 'active' })
            .select({ groupId: 1, state: 1, startDate: 1, dueDate: 1 })
            .lean<MilestoneDoc[]>()
        : [],
      names.reactions && viewerId !== null ? reactedIds(viewerId) : undefined,
    ]);
    const milestoneIds = new Map<string, number[]>();
    for (const m of milestones) milestoneIds.set(m.title, [...(milestoneIds.get(m.title) ?? []), m._id]);
    if (names.milestoneWildcards) {
      const related = union(projects.map((p) => p.relatedGroupIds));
      for (const [key, ids] of milestoneWildcardIds(copies, related, todayUtc())) milestoneIds.set(key, ids);
    }
    return {
      milestoneIds,
      userIds: new Map(users.map((u) => [u.username, u._id])),
      ...(reacted && { reactedIds: reacted }),
    };
  }

  /** Where an issue of this project compares positions: its root group, or the project itself. */
  async function positionScopeOf(projectId: number): Promise<string | null> {
    const project = await models.projects.findById(projectId).lean<ProjectRefDoc>();
    if (!project || project.destroyed) return null;
    return positionScopeOfProject(projectId, project.rootGroupId);
  }

  // The lists' keyset reads (issuable-keyset.store.ts), built where the lists are given the models.
  const keyset = createIssuableKeysetStore(models);

  return { ofProject, ofGroup, ofProjectIds, ofInstance, lookups, positionScopeOf, keyset };
}

export type IssuablesScope = ReturnType<typeof createIssuablesScope>;
