import { Router } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import {
  HttpError,
  NotFoundError,
  accessLevelOf,
  requestOrigin,
  requireUser,
  route,
  sendJson,
} from '@gl/service-kit';
import {
  accessTargetOf,
  canReadNote,
  canReadNoteable,
  readableNamespace,
  requireRole,
  userSummaryOf,
} from '../common/access';
import { pageOf, readPage, sendPage } from '../common/http';
import { SERVICE_PRODUCER } from '../common/origin';
import type { NoteablesService } from '../noteables/noteables.service';
import { createSingleIssuables } from '../noteables/single-issuables';
import { findMergeRequest, mergeRequestOr404, requireUpdate } from './merge-request-access';

/** lib/api/merge_requests.rb: opening, reading, merging and changing one merge request; its participants. */
export function createMergeRequestsRouter(noteables: NoteablesService): Router {
  const router = Router();
  // Single-issuable answers: `subscribed` and reviewers as users (single-issuables.ts).
  const present = createSingleIssuables(noteables);

  route(router, DISCUSSIONS_API.createProjectMergeRequest, async ({ req, res, params }) => {
    readableNamespace(req.ctx, 'project');
    const user = requireRole(req.ctx, ACCESS_LEVELS.developer);
    const given = params();
    const doc = await noteables.createMergeRequest(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      req.ctx.namespace!.id,
      userSummaryOf(user),
      { ...given, reviewer_ids: await noteables.reviewerIds(req, given.reviewer_ids) },
    );
    sendJson(res, 201, await present.mergeRequest(doc, req));
  });

  route(router, DISCUSSIONS_API.getProjectMergeRequest, async ({ req, res, params }) => {
    const mr = await mergeRequestOr404(noteables, req, () => params().merge_request_iid);
    sendJson(res, 200, await present.mergeRequest(mr, req));
  });

  /**
   * lib/api/merge_requests.rb `merge`: find_project_merge_request (MergeRequestsFinder: an unreadable merge
   * request is not found, 404), then `unauthorized! unless merge_request.can_be_merged_by?(current_user)`
   * (401). Branches are not protected here, so whoever may push (Developer and up) may merge.
   */
  route(router, DISCUSSIONS_API.mergeProjectMergeRequest, async ({ req, res, params }) => {
    const user = requireUser(req.ctx);
    const mr = await findMergeRequest(noteables, req, () => params().merge_request_iid);
    if (!mr || !canReadNoteable(req.ctx, mr)) throw new NotFoundError();
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.developer) {
      throw new HttpError(401, { message: '401 Unauthorized' });
    }
    if (mr.state !== 'opened') throw new HttpError(405, { message: '405 Method Not Allowed' });
    const merged = await noteables.mergeMergeRequest(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      mr,
      userSummaryOf(user),
      user.email,
      req.ctx.namespace!.fullPath,
    );
    sendJson(res, 200, await present.mergeRequest(merged, req));
  });

  route(router, DISCUSSIONS_API.updateProjectMergeRequest, async ({ req, res, params, pathParams }) => {
    const user = requireUser(req.ctx);
    // The merge request is found (404) and its update allowed (403) before the body is read: its path id
    // alone first, by the contract's path schema.
    const iid = () => pathParams().merge_request_iid;
    const mr = await mergeRequestOr404(noteables, req, iid);
    requireUpdate(req, mr, ACCESS_LEVELS.developer);
    const given = params();
    const updated = await noteables.updateMergeRequest(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      mr,
      userSummaryOf(user),
      { ...given, reviewer_ids: await noteables.reviewerIds(req, given.reviewer_ids) },
    );
    sendJson(res, 200, await present.mergeRequest(updated, req));
  });

  /**
   * lib/api/merge_requests.rb `participants`: find_merge_request_with_access (MergeRequestsFinder → 404,
   * then `authorize! :read_merge_request` → 403).
   */
  route(router, DISCUSSIONS_API.listProjectMergeRequestParticipants, async ({ req, res, params }) => {
    const { merge_request_iid } = params();
    const mr = await mergeRequestOr404(noteables, req, () => merge_request_iid);
    const base = req.ctx.externalUrl.replace(/\/+$/, '');
    const users = await noteables.participants(
      mr,
      (note) => canReadNote(req.ctx, accessTargetOf(mr), note),
      (name) => `${base}/${name}`,
    );
    await sendPage(req, res, await readPage(req, pageOf(users)), (items) => items);
  });

  return router;
}
