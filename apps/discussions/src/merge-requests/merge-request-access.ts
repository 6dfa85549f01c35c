import type { Request } from 'express';
import { ForbiddenError, NotFoundError, accessLevelOf, requireUser } from '@gl/service-kit';
import { canReadNoteable, readableNamespace } from '../common/access';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesService } from '../noteables/noteables.service';

type Finder = Pick<NoteablesService, 'findByIid'>;

/** The merge request of the path, whether the caller reads it or not; its iid read once the project is. */
export async function findMergeRequest(
  noteables: Finder,
  req: Request,
  mergeRequestIid: () => number,
): Promise<NoteableDoc | null> {
  const ns = readableNamespace(req.ctx, 'project');
  return noteables.findByIid('MergeRequest', 'projectId', ns.id, mergeRequestIid());
}

/** find_merge_request_with_access: unknown → 404, then `authorize! :read_merge_request` → 403. */
export async function mergeRequestOr404(
  noteables: Finder,
  req: Request,
  mergeRequestIid: () => number,
): Promise<NoteableDoc> {
  const mr = await findMergeRequest(noteables, req, mergeRequestIid);
  if (!mr) throw new NotFoundError();
  if (!canReadNoteable(req.ctx, mr)) throw new ForbiddenError();
  return mr;
}

/** `update_issue` / `update_merge_request`: author or assignee, or the role that administers them. */
export function requireUpdate(req: Request, doc: NoteableDoc, minimum: number): void {
  const user = requireUser(req.ctx);
  const own = doc.author.id === user.id || doc.assigneeIds.includes(user.id);
  if (!own && accessLevelOf(req.ctx) < minimum) throw new ForbiddenError();
}
