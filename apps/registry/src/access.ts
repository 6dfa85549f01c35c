import { ACCESS_LEVELS, type InternalContext, type NamespaceContext, type Visibility } from '@gl/contracts';
import { Router } from 'express';
import {
  signedFeatureLevels,
  ForbiddenError,
  NotFoundError,
  accessLevelOf,
  featureAvailable,
  requireNamespace,
  todayUtc,
  type FeatureLevels,
} from '@gl/service-kit';
import type { ProjectRefDoc } from './models';
import type { ProjectsStore } from './projects.store';

/** A user's effective level on a project from the projected memberships (project and ancestor groups). */
export async function projectAccessLevel(
  projects: ProjectsStore,
  project: Pick<ProjectRefDoc, '_id' | 'ancestorGroupIds'>,
  ctx: InternalContext,
): Promise<number> {
  const principal = ctx.principal;
  if (!principal) return 0;
  if (principal.isAdmin) return 60;
  const members = await projects.memberships(project._id, project.ancestorGroupIds, principal.id);
  const now = todayUtc();
  return members
    .filter((m) => m.expiresAt === null || m.expiresAt > now)
    .reduce((max, m) => Math.max(max, m.accessLevel), 0);
}

/** GitLab's read_project: public to all, internal to users, private to members. */
export function canSee(visibility: Visibility, level: number, ctx: InternalContext): boolean {
  if (level >= ACCESS_LEVELS.guest) return true;
  if (visibility === 'public') return true;
  return visibility === 'internal' && ctx.principal !== null;
}

/**
 * GitLab's read_container_image: anyone who sees a public/internal project; Reporter+ on private ones; no
 * one where the project's container registry is disabled, members with Reporter+ where it is `private`
 * (ProjectPolicy's container_registry feature rules; `features` from the identity projection).
 */
export function canReadImages(
  visibility: Visibility,
  level: number,
  ctx: InternalContext,
  features?: FeatureLevels,
): boolean {
  if (!featureAvailable(features, 'container_registry', level)) return false;
  if (level >= ACCESS_LEVELS.reporter) return true;
  return visibility !== 'private' && canSee(visibility, level, ctx);
}

/** Project routes: the gateway resolved the project; reading needs read_container_image (else 403). */
export function projectRead(ctx: InternalContext): { projectId: number; fullPath: string; level: number } {
  const ns = requireNamespace(ctx, 'project');
  const level = accessLevelOf(ctx);
  if (!canReadImages(ns.visibility, level, ctx)) throw new ForbiddenError();
  return { projectId: ns.id, fullPath: ns.fullPath, level };
}

/**
 * The group registry list (no `authenticate!` in lib/api/group_container_repositories.rb): anyone who may
 * read the group's images; an anonymous caller reads a public group's (whose projects are then filtered
 * to the public ones). Signed-in callers who may not read them: 403.
 */
export function groupRead(ctx: InternalContext): { ns: NamespaceContext; level: number } {
  const ns = requireNamespace(ctx, 'group');
  const level = accessLevelOf(ctx);
  if (!canReadImages(ns.visibility, level, ctx)) {
    // Only a public group is visible to anonymous callers, and its images are readable: find_group!'s 404.
    if (ctx.principal === null) throw new NotFoundError('Group');
    throw new ForbiddenError();
  }
  return { ns, level };
}

/** Project registry paths: `/projects/:id/registry/…`. */
const PROJECT_REGISTRY_PATH = /^\/projects\/[^/]+\/registry(\/|$)/;

/**
 * A project whose container registry is unavailable to the caller (disabled, or `private` below Reporter):
 * `authorize_read_container_images!` (lib/api/project_container_repositories.rb) answers 403 before any
 * handler. The project's feature levels come from the identity projection; projects the caller cannot
 * see are left to the handlers' 404.
 */
export function createRegistryFeatureGate(projects: ProjectsStore): Router {
  const router = Router();
  router.use(async (req, _res, next) => {
    const ns = req.ctx?.namespace;
    if (!PROJECT_REGISTRY_PATH.test(req.path) || !ns || ns.kind !== 'project') return next();
    const level = accessLevelOf(req.ctx);
    if (!canSee(ns.visibility, level, req.ctx)) return next();
    const features = signedFeatureLevels(ns) ?? (await projects.find(ns.id))?.features;
    if (!featureAvailable(features, 'container_registry', level)) throw new ForbiddenError();
    next();
  });
  return router;
}
