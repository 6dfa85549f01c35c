import type { Request } from 'express';
import { NotFoundError, ParamError, collectParams, isHigherTier, mutuallyExclusive } from '@gl/service-kit';
import { canReadNoteable } from '../common/access';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesService } from '../noteables/noteables.service';

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
 * EE Issues::BaseService `epic_id`: the epic of the project's group or an ancestor (EpicsFinder with
 * include_ancestor_groups) the caller reads, on the tiers with epics; 0 (or null) takes the issue out of
 * its epic (returned as null). An epic not found that way is ActiveRecord's "404 Not found".
 */
export async function issueEpicFor(
  noteables: Pick<NoteablesService, 'findIssueById'>,
  req: Request,
  epicId: number | undefined,
): Promise<NoteableDoc | null | undefined> {
  if (epicId === undefined) return undefined;
  if (epicId === 0) return null;
  const groups = req.ctx.namespace!.ancestorGroupIds;
  const epic = isHigherTier(req.ctx) ? await noteables.findIssueById(epicId) : null;
  if (
    !epic ||
    epic.kind !== 'Epic' ||
    !groups.includes(epic.groupId ?? -1) ||
    !canReadNoteable(req.ctx, epic)
  ) {
    throw new NotFoundError();
  }
  return epic;
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
