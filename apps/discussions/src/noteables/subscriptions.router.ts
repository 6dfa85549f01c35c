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

  /**
   * The route of …/subscribe (`want` true) or …/unsubscribe (false) on the issuable `find` gives: 201 with
   * `present`'s entity when its subscription changes, else 304.
   */
  function toggle<P>(
    find: (req: Request, params: () => P) => Promise<NoteableDoc>,
    present: (doc: NoteableDoc, req: Request) => Promise<object>,
    want: boolean,
  ) {
    return async ({ req, res, params }: { req: Request; res: Response; params: () => P }) => {
      // `before { authenticate! }`: anonymous callers are refused before anything is looked up.
      const user = requireUser(req.ctx);
      const doc = await find(req, params);
      if ((await single.subscribed(doc, req)) === want) {
        // not_modified!: an empty 304.
        res.status(304).end();
        return;
      }
      sendJson(res, 201, await present(await noteables.subscriptions.set(doc, user.id, want), req));
    };
  }

  /** find_project_issue: an issue the caller cannot read is not found. */
  const issueOf = (req: Request, params: () => { issue_iid: string }) =>
    readableIssue(noteables, req, () => subscribableIid(params().issue_iid));
  const mergeRequestOf = (req: Request, params: () => { merge_request_iid: string }) =>
    mergeRequestToUpdate(req, () => subscribableIid(params().merge_request_iid));

  route(router, DISCUSSIONS_API.subscribeProjectIssue, toggle(issueOf, single.issue, true));
  route(router, DISCUSSIONS_API.unsubscribeProjectIssue, toggle(issueOf, single.issue, false));
  route(
    router,
    DISCUSSIONS_API.subscribeProjectMergeRequest,
    toggle(mergeRequestOf, single.mergeRequest, true),
  );
  route(
    router,
    DISCUSSIONS_API.unsubscribeProjectMergeRequest,
    toggle(mergeRequestOf, single.mergeRequest, false),
  );

  return router;
}
