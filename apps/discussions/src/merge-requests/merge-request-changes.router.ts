import { Router, type Request } from 'express';
import { DISCUSSIONS_API } from '@gl/contracts';
import { route, sendJson } from '@gl/service-kit';
import { pageOf, readPage, sendPage } from '../common/http';
import { presentCommitBasic } from '../commits/commits.presenter';
import type { NoteablesService } from '../noteables/noteables.service';
import { createSingleIssuables } from '../noteables/single-issuables';
import { mergeRequestOr404 } from './merge-request-access';
import type { FileDiff } from './merge-request-diffs';

/** `unidiff=true` (lib/api/entities/diff.rb `enable_unidiff`): the diff with git's file header lines. */
function withUnidiff(diff: FileDiff, unidiff: boolean | undefined): FileDiff {
  if (!unidiff) return diff;
  const from = diff.new_file ? '/dev/null' : `a/${diff.old_path}`;
  const to = diff.deleted_file ? '/dev/null' : `b/${diff.new_path}`;
  return { ...diff, diff: `--- ${from}\n+++ ${to}\n${diff.diff}` };
}

/**
 * lib/api/merge_requests.rb `commits`, `changes` and `diffs`: find_merge_request_with_access (an
 * unreadable merge request is not found, 404), then the merge request's diff as the commits API left it
 * (merge-request-changes.ts).
 */
export function createMergeRequestChangesRouter(noteables: NoteablesService): Router {
  const router = Router();
  const present = createSingleIssuables(noteables);
  const mergeRequest = (req: Request, iid: () => number) => mergeRequestOr404(noteables, req, iid);

  route(router, DISCUSSIONS_API.listProjectMergeRequestCommits, async ({ req, res, params }) => {
    const mr = await mergeRequest(req, () => params().merge_request_iid);
    const commits = await noteables.mergeRequestCommits(mr);
    await sendPage(req, res, await readPage(req, pageOf(commits)), (items) =>
      items.map((commit) => presentCommitBasic(commit, req.ctx.namespace!)),
    );
  });

  route(router, DISCUSSIONS_API.getProjectMergeRequestChanges, async ({ req, res, params }) => {
    const { merge_request_iid, unidiff } = params();
    const mr = await mergeRequest(req, () => merge_request_iid);
    const { diffs, overflow } = await noteables.mergeRequestDiffs(mr);
    const entity = await present.mergeRequest(mr, req);
    sendJson(res, 200, { ...entity, changes: diffs.map((d) => withUnidiff(d, unidiff)), overflow });
  });

  route(router, DISCUSSIONS_API.listProjectMergeRequestDiffs, async ({ req, res, params }) => {
    const { merge_request_iid, unidiff } = params();
    const mr = await mergeRequest(req, () => merge_request_iid);
    const { diffs } = await noteables.mergeRequestDiffs(mr);
    await sendPage(req, res, await readPage(req, pageOf(diffs)), (items) =>
      items.map((d) => withUnidiff(d, unidiff)),
    );
  });

  return router;
}
