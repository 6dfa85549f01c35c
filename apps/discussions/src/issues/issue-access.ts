import type { Request } from 'express';
import { NotFoundError } from '@gl/service-kit';
import { canReadNoteable, readableNamespace } from '../common/access';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesService } from '../noteables/noteables.service';

/**
 * find_project_issue (IssuesFinder): a confidential issue the caller cannot read is left out, so it is
 * "404 Not found" as an unknown iid is. The iid is read once the project is known to be readable.
 */
export async function readableIssue(
  noteables: Pick<NoteablesService, 'findByIid'>,
  req: Request,
  issueIid: () => number,
): Promise<NoteableDoc> {
  const ns = readableNamespace(req.ctx, 'project');
  const issue = await noteables.findByIid('Issue', 'projectId', ns.id, issueIid());
  if (!issue || !canReadNoteable(req.ctx, issue)) throw new NotFoundError();
  return issue;
}
