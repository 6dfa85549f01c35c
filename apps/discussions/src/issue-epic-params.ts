import type { Request } from 'express';
import { NotFoundError, ParamError, collectParams, isHigherTier, mutuallyExclusive } from '@gl/service-kit';
import type { NoteableDoc } from './discussions.models';
import { canReadNoteable } from './discussions.access';
import { issueEpicFor } from './issuable-subscriptions.router';
import type { NoteablesService } from './noteables.service';

/** The epic parameters of POST and PUT /projects/:id/issues (EE optional_issue_params_ee). */
export interface IssueEpicParams {
  epic_id?: number;
  epic_iid?: number | null;
}

/** ee/lib/ee/api/helpers/issues_helpers.rb: `mutually_exclusive :epic_id, :epic_iid`, checked before anything is looked up. */
export function checkIssueEpicParams(req: Request): void {
  const broken = mutuallyExclusive('epic_id', 'epic_iid')(collectParams(req));
  if (broken) throw new ParamError([broken]);
}

/**
 * The epic an issue create or update asks for: undefined when neither parameter is given, null to have
 * none. `epic_iid` is EE::API::Helpers::CommonHelpers#convert_parameters_from_legacy_format: the epic of
 * that iid in the project's own group (EpicsFinder, so only where epics exist and the caller reads it),
 * else "404 Epic Not Found" — 0 included, it never means "none". `epic_id` follows Issues::BaseService
 * (issueEpicFor). Resolved before anything is written, so a refused epic leaves nothing behind.
 */
export async function issueEpicParam(
  noteables: NoteablesService,
  req: Request,
  given: IssueEpicParams,
): Promise<NoteableDoc | null | undefined> {
  if (given.epic_iid === undefined || given.epic_iid === null) {
    return issueEpicFor(noteables, req, given.epic_id);
  }
  const groupId = req.ctx.namespace!.ancestorGroupIds.at(-1);
  const epic =
    groupId !== undefined && isHigherTier(req.ctx)
      ? await noteables.findByIid('Epic', 'groupId', groupId, given.epic_iid)
      : null;
  if (!epic || !canReadNoteable(req.ctx, epic)) throw new NotFoundError('Epic');
  return epic;
}

/** The issue's project as the epic system notes name it (issue-epics.ts). */
export function issueProjectOf(req: Request) {
  const ns = req.ctx.namespace!;
  return { path: ns.path, fullPath: ns.fullPath, ancestorGroupIds: ns.ancestorGroupIds };
}
