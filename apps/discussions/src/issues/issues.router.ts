import { Router, type Request } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API, ISSUE_UPDATE_AT_LEAST_ONE_OF } from '@gl/contracts';
import {
  ModelError,
  ParamError,
  accessLevelOf,
  atLeastOneOf,
  collectParams,
  isHigherTier,
  requestOrigin,
  requireUser,
  route,
  sendJson,
} from '@gl/service-kit';
import { canSetCreatedAt, commenter, userSummaryOf } from '../common/access';
import { SERVICE_PRODUCER } from '../common/origin';
import { parseCreatedAt } from '../common/params';
import { labelsAfter } from '../noteables/label-changes';
import type { NoteablesService } from '../noteables/noteables.service';
import { createSingleIssuables } from '../noteables/single-issuables';
import { positionScopeOfNamespace } from '../lists/issuables.scope';
import { requireUpdate } from '../merge-requests/merge-request-access';
import { readableIssue } from './issue-access';
import { checkIssueEpicParams, issueEpicParam, issueProjectOf } from './issue-epic-params';

/**
 * IssuableBaseService#filter_params: `confidential` is kept only with `set_confidentiality` — anyone who
 * may create the issue when creating it, `set_issue_metadata` (Reporter and up) afterwards; else ignored.
 */
function confidentialityParam(req: Request, value: boolean | undefined, creating: boolean) {
  if (creating || accessLevelOf(req.ctx) >= ACCESS_LEVELS.reporter) return value;
  return undefined;
}

/**
 * EE `weight`: kept only on the tiers with issue weights (filter_params drops it elsewhere); Issue's
 * validation `numericality: { greater_than_or_equal_to: 0 }`.
 */
function weightParam(req: Request, weight: number | null | undefined): number | null | undefined {
  if (weight === undefined || !isHigherTier(req.ctx)) return undefined;
  if (weight !== null && weight < 0) {
    throw ModelError.fields({ weight: ['must be greater than or equal to 0'] });
  }
  return weight;
}

/** lib/api/issues.rb: opening, reading and changing one issue (lists: issue-lists.router.ts). */
export function createIssuesRouter(noteables: NoteablesService): Router {
  const router = Router();
  // Single-issuable answers: `subscribed`, reviewers, weight and epic (single-issuables.ts).
  const present = createSingleIssuables(noteables);

  route(router, DISCUSSIONS_API.createProjectIssue, async ({ req, res, params }) => {
    const user = commenter(req.ctx, 'project');
    const { epic_id, epic_iid, ...given } = params();
    checkIssueEpicParams(req);
    // The epic is resolved before the issue is stored: an unknown one leaves no issue behind.
    const epic = await issueEpicParam(noteables, req, { epic_id, epic_iid });
    const createdAt = canSetCreatedAt(req.ctx) ? parseCreatedAt(given.created_at) : null;
    const origin = requestOrigin(SERVICE_PRODUCER, req.ctx);
    const author = userSummaryOf(user);
    const doc = await noteables.createIssue(
      origin,
      req.ctx.namespace!.id,
      author,
      {
        ...given,
        // EE Issues::BaseService#filter_epic: a new issue of a confidential epic is confidential.
        confidential: epic?.confidential ? true : confidentialityParam(req, given.confidential, true),
        weight: weightParam(req, given.weight),
      },
      createdAt,
      positionScopeOfNamespace(req.ctx.namespace!),
    );
    if (epic) await noteables.setIssueEpic(origin, doc, epic, author, issueProjectOf(req));
    sendJson(res, 201, await present.issue(doc, req, { created: true, epic }));
  });

  route(router, DISCUSSIONS_API.getProjectIssue, async ({ req, res, params }) => {
    const issue = await readableIssue(noteables, req, () => params().issue_iid);
    sendJson(res, 200, await present.issue(issue, req));
  });

  route(router, DISCUSSIONS_API.updateProjectIssue, async ({ req, res, params }) => {
    const user = requireUser(req.ctx);
    const given = params();
    const missing = atLeastOneOf(...ISSUE_UPDATE_AT_LEAST_ONE_OF)(collectParams(req));
    if (missing) throw new ParamError([missing]);
    checkIssueEpicParams(req);
    const issue = await readableIssue(noteables, req, () => given.issue_iid);
    requireUpdate(req, issue, ACCESS_LEVELS.reporter);
    const {
      add_labels: add,
      remove_labels: remove,
      assignee_id: assigneeId,
      epic_id,
      epic_iid,
      ...rest
    } = given;
    const epic = await issueEpicParam(noteables, req, { epic_id, epic_iid });
    const origin = requestOrigin(SERVICE_PRODUCER, req.ctx);
    const author = userSummaryOf(user);
    const updated = await noteables.updateIssue(origin, issue, author, {
      ...rest,
      labels: labelsAfter(issue.labels, given.labels, add, remove),
      // The single-assignee form counts only without assignee_ids (IssuableBaseService#filter_assignees).
      assignee_ids:
        given.assignee_ids ?? (assigneeId === undefined ? undefined : assigneeId === 0 ? [] : [assigneeId]),
      confidential: confidentialityParam(req, given.confidential, false),
      // `discussion_locked` needs admin_issue (Reporter and up); IssuableBaseService drops it otherwise.
      discussion_locked:
        accessLevelOf(req.ctx) >= ACCESS_LEVELS.reporter ? given.discussion_locked : undefined,
      // lib/api/issues.rb: `updated_at` only with set_issue_updated_at (Owner, admins).
      updated_at: canSetCreatedAt(req.ctx) ? parseCreatedAt(given.updated_at) : null,
      weight: weightParam(req, given.weight),
    });
    if (epic !== undefined) await noteables.setIssueEpic(origin, updated, epic, author, issueProjectOf(req));
    sendJson(res, 200, await present.issue(updated, req, { epic }));
  });

  return router;
}
