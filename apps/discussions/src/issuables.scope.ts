import { ACCESS_LEVELS, type InternalContext, type NamespaceContext } from '@gl/contracts';
import { accessLevelOf, todayUtc, type FeatureLevels } from '@gl/service-kit';
import type { DiscussionsModels, ProjectRefDoc } from './discussions.models';
import type { FinderLookups, FinderViewer, ReadableProject } from './issuables.finder';

/** Admins read every project (`read_all_resources`); the level the finder gives them. */
const ADMIN_LEVEL = 60;

/**
 * A project of the access copy as lists read it: the copy also keeps the project's feature levels
 * (libs/service-kit accessCopyHandlers; null or absent: every feature enabled).
 */
type ProjectCopy = ProjectRefDoc & { features?: FeatureLevels };

/** A project a list may show items of: what the finder needs, and where its items' URLs point. */
export interface ScopeProject extends ReadableProject {
  fullPath: string;
}

/**
 * The positioning scope of a project's issues (Issue.relative_positioning_query_base: the projects of the
 * root group, so a group board orders issues of all its projects against each other).
 */
export function positionScopeOfNamespace(ns: Pick<NamespaceContext, 'id' | 'ancestorGroupIds'>): string {
  const root = ns.ancestorGroupIds[0];
  return root === undefined ? `p${ns.id}` : `g${root}`;
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
  models: Pick<DiscussionsModels, 'projects' | 'groups' | 'members' | 'milestones' | 'users'>,
) {
  /** The caller's level on each project: its own membership or one of its ancestor groups', unexpired. */
  async function levels(viewer: FinderViewer, projects: ProjectRefDoc[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (viewer.userId === null) return out;
    const today = todayUtc();
    const memberships = await models.members.find({ userId: viewer.userId }).lean();
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
  function readable(projects: ProjectCopy[], levelOf: Map<number, number>, viewer: FinderViewer) {
    return projects.flatMap((p): ScopeProject[] => {
      const level = viewer.isAdmin ? ADMIN_LEVEL : (levelOf.get(p._id) ?? 0);
      if (!readsProject(p, level, viewer)) return [];
      return [{ id: p._id, level, visibility: p.visibility, fullPath: p.fullPath, features: p.features }];
    });
  }

  /** The one project of a project route, as the gateway resolved it (its signed level). */
  function ofProject(ctx: InternalContext, ns: NamespaceContext): ScopeProject[] {
    return [{ id: ns.id, level: accessLevelOf(ctx), visibility: ns.visibility, fullPath: ns.fullPath }];
  }

  /**
   * The readable projects of the group and all its subgroups (`include_subgroups: true`). The caller's
   * level on the group itself comes signed with the request; deeper memberships from the projection.
   */
  async function ofGroup(ctx: InternalContext, group: NamespaceContext): Promise<ScopeProject[]> {
    const viewer = viewerOfContext(ctx);
    const root = group.ancestorGroupIds[0] ?? group.id;
    const tree = await models.projects
      .find({ rootGroupId: root, destroyed: { $ne: true } })
      .lean<ProjectCopy[]>();
    const inGroup = tree.filter((p) => p.ancestorGroupIds.includes(group.id));
    const levelOf = await levels(viewer, inGroup);
    for (const p of inGroup) levelOf.set(p._id, Math.max(levelOf.get(p._id) ?? 0, group.accessLevel));
    return readable(inGroup, levelOf, viewer);
  }

  /**
   * Every project the caller reads (IssuableFinder without a project or group): public ones, internal
   * ones when signed in, and those of their memberships; admins every project.
   */
  async function ofInstance(ctx: InternalContext): Promise<ScopeProject[]> {
    const viewer = viewerOfContext(ctx);
    if (viewer.isAdmin) {
      const all = await models.projects.find({ destroyed: false }).lean<ProjectCopy[]>();
      return readable(all, new Map(), viewer);
    }
    const open = viewer.userId === null ? ['public'] : ['public', 'internal'];
    const found = new Map<number, ProjectCopy>();
    for (const p of await models.projects.find({ visibility: { $in: open } }).lean<ProjectCopy[]>()) {
      found.set(p._id, p);
    }
    if (viewer.userId !== null) {
      const memberships = await models.members.find({ userId: viewer.userId }).lean();
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
    return readable(projects, await levels(viewer, projects), viewer);
  }

  /**
   * What the query's names stand for: milestone ids by title (GitLab matches the title across the
   * milestones the projects see: every group milestone copy here), user ids by username.
   */
  async function lookups(names: { milestoneTitles: string[]; usernames: string[] }): Promise<FinderLookups> {
    const [milestones, users] = await Promise.all([
      names.milestoneTitles.length
        ? models.milestones.find({ title: { $in: names.milestoneTitles } }).lean()
        : [],
      names.usernames.length ? models.users.find({ username: { $in: names.usernames } }).lean() : [],
    ]);
    const milestoneIds = new Map<string, number[]>();
    for (const m of milestones) milestoneIds.set(m.title, [...(milestoneIds.get(m.title) ?? []), m._id]);
    return { milestoneIds, userIds: new Map(users.map((u) => [u.username, u._id])) };
  }

  /** Where an issue of this project compares positions: its root group, or the project itself. */
  async function positionScopeOf(projectId: number): Promise<string | null> {
    const project = await models.projects.findById(projectId).lean<ProjectRefDoc>();
    if (!project || project.destroyed) return null;
    return project.rootGroupId === null ? `p${projectId}` : `g${project.rootGroupId}`;
  }

  return { ofProject, ofGroup, ofInstance, lookups, positionScopeOf };
}

export type IssuablesScope = ReturnType<typeof createIssuablesScope>;
