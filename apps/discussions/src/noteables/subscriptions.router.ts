import { Router, type Request, type Response } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import { ForbiddenError, NotFoundError, accessLevelOf, requireUser, route, sendJson } from '@gl/service-kit';
import { canReadNoteable } from '../common/access';
import { readableIssue } from '../issues/issue-access';
import { findMergeRequest } from '../merge-requests/merge-request-access';
import type { NoteableDoc, NoteablesService } from './noteables.service';
import { createSingleIssuables } from './single-issuables';

/** `subscribable_id` is a String param: what is not an iid finds nothing (find_by! → 404). */
function subscribableIid(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new NotFoundError();
  return Number(raw);
}

/** lib/api/subscriptions.rb on issues and merge requests: 201 with the entity when it changes, else 304. */
export function createIssuableSubscriptionsRouter(noteables: NoteablesService): Router {
  const router = Router();
  const single = createSingleIssuables(noteables);

  /**
   * find_merge_request_with_access(id, :update_merge_request): unknown → 404; then who may not update it
   * (author, assignee, Developer and up) → 403.
   */
  async function mergeRequestToUpdate(req: Request, iid: () => number): Promise<NoteableDoc> {
    const mr = await findMergeRequest(noteables, req, iid);
    if (!mr) throw new NotFoundError();
    const user = requireUser(req.ctx);
    const own = mr.author.id === user.id || mr.assigneeIds.includes(user.id);
    const readable = canReadNoteable(req.ctx, mr);
    if (!readable || (!own && accessLevelOf(req.ctx) < ACCESS_LEVELS.developer)) throw new ForbiddenError();
    return mr;
  }

  async function toggle(
    req: Request,
    res: Response,
    find: () => Promise<NoteableDoc>,
    want: boolean,
    present: (doc: NoteableDoc, req: Request) => Promise<object>,
  ) {
    // `before { authenticate! }`: anonymous callers are refused before anything is looked up.
    const user = requireUser(req.ctx);
    const doc = await find();
    if ((await single.subscribed(doc, req)) === want) {
      // not_modified!: an empty 304.
      res.status(304).end();
      return;
    }
    await noteables.subscriptions.set(doc._id, user.id, want);
    sendJson(res, 201, await present(doc, req));
  }

  /** find_project_issue: an issue the caller cannot read is not found. */
  const issueOf = (req: Request, iid: () => string) => () =>
    readableIssue(noteables, req, () => subscribableIid(iid()));
  const mergeRequestOf = (req: Request, iid: () => string) => () =>
    mergeRequestToUpdate(req, () => subscribableIid(iid()));

  route(router, DISCUSSIONS_API.subscribeProjectIssue, async ({ req, res, params }) => {
    await toggle(
      req,
      res,
      issueOf(req, () => params().issue_iid),
      true,
      single.issue,
    );
  });
  route(router, DISCUSSIONS_API.unsubscribeProjectIssue, async ({ req, res, params }) => {
    await toggle(
      req,
      res,
      issueOf(req, () => params().issue_iid),
      false,
      single.issue,
    );
  });
  route(router, DISCUSSIONS_API.subscribeProjectMergeRequest, async ({ req, res, params }) => {
    await toggle(
      req,
      res,
      mergeRequestOf(req, () => params().merge_request_iid),
      true,
      single.mergeRequest,
    );
  });
  route(router, DISCUSSIONS_API.unsubscribeProjectMergeRequest, async ({ req, res, params }) => {
    await toggle(
      req,
      res,
      mergeRequestOf(req, () => params().merge_request_iid),
      false,
      single.mergeRequest,
    );
  });

  return router;
}
