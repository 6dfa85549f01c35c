import { Router } from 'express';
import type { ProjectFeature } from '@gl/contracts';
import {
  ForbiddenError,
  NotFoundError,
  accessLevelOf,
  canReadNamespace,
  featureAvailable,
  readPageRequest,
  setPaginationHeaders,
  signedFeatureLevels,
  viewerOf,
  type FeatureLevels,
} from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';

/** Project paths of the features discussions serves: `/projects/:id/<feature>[/:iid[/…]]`. */
const FEATURE_PATH = /^\/projects\/[^/]+\/(issues|merge_requests|snippets)(\/[^/]+)?(\/.*)?$/;
const FEATURE_OF: Record<string, ProjectFeature> = {
  issues: 'issues',
  merge_requests: 'merge_requests',
  snippets: 'snippets',
};

/**
 * A project's disabled (or, for non-members, `private`) issues, merge requests or snippets, answered as
 * GitLab does before any handler runs (ProjectFeature#feature_available?, from the identity projection's
 * feature levels): merge requests `authorize! :read_merge_request` (lib/api/merge_requests.rb) and snippets
 * `check_snippets_enabled` (lib/api/project_snippets.rb) are 403; issues go through IssuesFinder, which
 * finds none — an empty list, 404 for one issue and what hangs off it — while creating, updating or
 * deleting one is `authorize!`'s 403. Projects the caller cannot read are left to the handlers' 404.
 */
export function createFeatureGate(models: Pick<DiscussionsModels, 'projects'>): Router {
  const router = Router();
  router.use(async (req, res, next) => {
    const match = FEATURE_PATH.exec(req.path);
    const ns = req.ctx?.namespace;
    if (!match || !ns || ns.kind !== 'project' || !canReadNamespace(viewerOf(req.ctx))) return next();
    // Grape's authenticate_non_get! comes first: an anonymous write is the handlers' 401.
    if (req.method !== 'GET' && !req.ctx.principal) return next();
    const feature = FEATURE_OF[match[1]!]!;
    const features =
      signedFeatureLevels(ns) ??
      (await models.projects.findById(ns.id, { features: 1 }).lean<{ features?: FeatureLevels }>())?.features;
    if (featureAvailable(features, feature, accessLevelOf(req.ctx))) return next();
    if (feature !== 'issues') throw new ForbiddenError();
    const [, , one, below] = match;
    if (one === undefined && req.method === 'GET') {
      setPaginationHeaders(req, res, readPageRequest(req.query), 0);
      res.status(200).json([]);
      return;
    }
    if (below === undefined && req.method !== 'GET') throw new ForbiddenError();
    throw new NotFoundError();
  });
  return router;
}
