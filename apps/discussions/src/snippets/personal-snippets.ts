import type { InternalContext } from '@gl/contracts';
import { ACCESS_LEVELS } from '@gl/contracts';
import type { FilterQuery } from 'mongoose';
import { canReadTarget, featureAvailable, todayUtc, type FeatureLevels } from '@gl/service-kit';
import { accessTargetOf } from '../common/access';
import type { DiscussionsModels } from '../discussions.models';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { ProjectRefDoc } from '../copies/copies.models';
import { viewerOfContext, type IssuablesScope, type ScopeProject } from '../lists/issuables.scope';

/** Admins read every project (`read_all_resources`): the level issuables.scope.ts gives them. */
const ADMIN_LEVEL = 60;

/** A project of the access copy with its feature levels (`features`; absent: every feature enabled). */
type WithFeatures = ProjectRefDoc & { features?: FeatureLevels };

/** The creation window of a snippet list (lib/api/snippets.rb `created_after` / `created_before`). */
export interface SnippetWindow {
  created_after?: Date;
  created_before?: Date;
}

/** A page of snippets, and where each one's project is (for its URLs). */
export interface SnippetPage {
  items: NoteableDoc[];
  total: number;
  projects: Map<number, ScopeProject>;
}

/** Gitlab::VisibilityLevel.levels_for_user: public for everyone, internal too once signed in. */
function levelsFor(userId: number | null): NoteableDoc['visibility'][] {
  return userId === null ? ['public'] : ['public', 'internal'];
}

/** `visible_to_or_authored_by(user)` (or `public_to_user` for anonymous callers). */
function visibleOrAuthored(userId: number | null): FilterQuery<NoteableDoc> {
  const visible = { visibility: { $in: levelsFor(userId) } };
  return userId === null ? visible : { $or: [visible, { 'author.id': userId }] };
}

/**
 * SnippetsFinder without a project (app/finders/snippets_finder.rb), over discussions' copy of projects and
 * memberships (issuables.scope.ts):
 * - personal snippets: public to all, internal to signed-in users, private to their author;
 * - project snippets of projects the caller reads: every one to members (Guest and up), else as personal
 *   ones (`snippets_of_visible_projects`);
 * - admins (`read_all_resources`) every snippet.
 */
export function createPersonalSnippets(
  models: Pick<DiscussionsModels, 'noteables' | 'projects' | 'members'>,
  scope: IssuablesScope,
) {
  /**
   * These projects as the caller reads them (read_project: public, internal when signed in, else a member;
   * admins all), with the caller's level from the membership projection (the project's own or one of its
   * groups', unexpired); the ones the caller does not read are left out. Two reads, where the instance's
   * readable projects (scope.ofInstance) would be every public project.
   */
  async function projectsFor(ctx: InternalContext, ids: number[]): Promise<Map<number, ScopeProject>> {
    const out = new Map<number, ScopeProject>();
    if (ids.length === 0) return out;
    const viewer = viewerOfContext(ctx);
    const [projects, memberships] = await Promise.all([
      models.projects.find({ _id: { $in: ids }, destroyed: { $ne: true } }).lean<WithFeatures[]>(),
      viewer.userId === null || viewer.isAdmin ? [] : models.members.find({ userId: viewer.userId }).lean(),
    ]);
    const today = todayUtc();
    const levels = new Map<string, number>();
    for (const m of memberships) {
      if (m.expiresAt !== null && m.expiresAt <= today) continue;
      const key = `${m.sourceType}:${m.sourceId}`;
      levels.set(key, Math.max(levels.get(key) ?? 0, m.accessLevel));
    }
    for (const project of projects) {
      const level = viewer.isAdmin
        ? ADMIN_LEVEL
        : Math.max(
            levels.get(`project:${project._id}`) ?? 0,
            ...project.ancestorGroupIds.map((g) => levels.get(`group:${g}`) ?? 0),
          );
      const reads =
        viewer.isAdmin ||
        level >= ACCESS_LEVELS.guest ||
        project.visibility === 'public' ||
        (project.visibility === 'internal' && viewer.userId !== null);
      if (reads && featureAvailable(project.features, 'snippets', level)) {
        out.set(project._id, {
          id: project._id,
          level,
          visibility: project.visibility,
          fullPath: project.fullPath,
        });
      }
    }
    return out;
  }

  async function page(
    filter: FilterQuery<NoteableDoc>,
    window: SnippetWindow,
    skip: number,
    limit: number,
  ): Promise<{ items: NoteableDoc[]; total: number }> {
    const created: Record<string, Date> = {};
    if (window.created_after) created.$gte = window.created_after;
    if (window.created_before) created.$lte = window.created_before;
    const query: FilterQuery<NoteableDoc> = {
      kind: 'Snippet',
      ...filter,
      ...(Object.keys(created).length ? { createdAt: created } : {}),
    };
    // SnippetsFinder#sort_param: id_desc.
    const [items, total] = await Promise.all([
      models.noteables.find(query).sort({ _id: -1 }).skip(skip).limit(limit).lean<NoteableDoc[]>(),
      models.noteables.countDocuments(query),
    ]);
    return { items, total };
  }

  /**
   * `only_include_projects_with_snippets_enabled`: the projects whose snippets feature the caller may use
   * (ProjectFeature; `disabled` for no one, `private` for members). Only the few projects with the feature
   * restricted are read again.
   */
  async function withSnippets(projects: ScopeProject[]): Promise<ScopeProject[]> {
    if (projects.length === 0) return projects;
    const restricted = await models.projects
      .find(
        { _id: { $in: projects.map((p) => p.id) }, 'features.snippets': { $in: ['disabled', 'private'] } },
        { features: 1 },
      )
      .lean<WithFeatures[]>();
    const features = new Map(restricted.map((p) => [p._id, p.features]));
    return projects.filter((p) => featureAvailable(features.get(p.id), 'snippets', p.level));
  }

  /** Which project snippets the caller reads: all of member projects, the visible ones of the others. */
  function ofProjects(projects: ScopeProject[], userId: number | null): FilterQuery<NoteableDoc>[] {
    const member = projects.filter((p) => p.level >= ACCESS_LEVELS.guest).map((p) => p.id);
    const other = projects.filter((p) => p.level < ACCESS_LEVELS.guest).map((p) => p.id);
    const out: FilterQuery<NoteableDoc>[] = [];
    if (member.length) out.push({ projectId: { $in: member } });
    if (other.length) out.push({ projectId: { $in: other }, ...visibleOrAuthored(userId) });
    return out;
  }

  return {
    /** GET /snippets: the caller's own snippets, personal and in projects they read (`author: current_user`). */
    async mine(
      ctx: InternalContext,
      window: SnippetWindow,
      skip: number,
      limit: number,
    ): Promise<SnippetPage> {
      const author = ctx.principal!.id;
      // The projects the caller wrote snippets in (few), each checked, rather than every readable project.
      // (A find along the author index: FerretDB's `distinct` reads every document of the collection.)
      const written = await models.noteables
        .find({ kind: 'Snippet', 'author.id': author, projectId: { $ne: null } }, { projectId: 1 })
        .lean<Pick<NoteableDoc, 'projectId'>[]>();
      const ids = [...new Set(written.map((d) => d.projectId!))];
      const projects = await projectsFor(ctx, ids);
      const filter = {
        'author.id': author,
        $or: [{ projectId: null }, { projectId: { $in: [...projects.keys()] } }],
      };
      return { ...(await page(filter, window, skip, limit)), projects };
    },

    /** GET /snippets/public: public personal snippets (`only_personal`, no user). */
    async public(window: SnippetWindow, skip: number, limit: number): Promise<SnippetPage> {
      const filter = { projectId: null, visibility: 'public' };
      return { ...(await page(filter, window, skip, limit)), projects: new Map() };
    },

    /** GET /snippets/all (`all_available`): every snippet the caller reads. */
    async all(
      ctx: InternalContext,
      window: SnippetWindow,
      skip: number,
      limit: number,
    ): Promise<SnippetPage> {
      const viewer = viewerOfContext(ctx);
      const readable = await scope.ofInstance(ctx);
      const projects = viewer.isAdmin ? readable : await withSnippets(readable);
      const filter: FilterQuery<NoteableDoc> = viewer.isAdmin
        ? {}
        : {
            $or: [
              { projectId: null, ...visibleOrAuthored(viewer.userId) },
              ...ofProjects(projects, viewer.userId),
            ],
          };
      return { ...(await page(filter, window, skip, limit)), projects: byId(projects) };
    },

    /**
     * One snippet the caller reads (`find_snippet`: the finder with `ids`), with its project when it has
     * one; null when there is none or the caller may not read it.
     */
    async find(
      ctx: InternalContext,
      id: number,
    ): Promise<{ snippet: NoteableDoc; project: ScopeProject | null } | null> {
      const snippet = await models.noteables.findOne({ _id: id, kind: 'Snippet' }).lean<NoteableDoc>();
      if (!snippet) return null;
      const viewer = viewerOfContext(ctx);
      // The one read rule (target-access.ts): a personal snippet is read as in a public namespace, so that
      // only its own visibility and author count (PersonalSnippetPolicy); a project snippet needs its project.
      const project =
        snippet.projectId === null
          ? null
          : (await projectsFor(ctx, [snippet.projectId])).get(snippet.projectId);
      if (project === undefined) return null;
      const readable = canReadTarget(
        {
          ...viewer,
          accessLevel: project?.level ?? ACCESS_LEVELS.none,
          namespaceVisibility: project?.visibility ?? 'public',
        },
        accessTargetOf(snippet),
      );
      return readable ? { snippet, project } : null;
    },
  };
}

function byId(projects: ScopeProject[]): Map<number, ScopeProject> {
  return new Map(projects.map((p) => [p.id, p]));
}

export type PersonalSnippets = ReturnType<typeof createPersonalSnippets>;
