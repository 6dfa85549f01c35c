import type { Request } from 'express';
import { canReadTarget, seesEveryTarget, viewerOf } from '@gl/service-kit';
import { accessTargetOf, canReadNoteable } from '../common/access';
import type { ListVisibility } from './noteables.store';

/** Which items of a list the caller reads: all of them (admins, Reporter and up), else each by the rule. */
export function listVisibility(req: Request, kind?: 'Snippet'): ListVisibility {
  const viewer = viewerOf(req.ctx);
  if (seesEveryTarget(viewer)) return 'all';
  // SnippetsFinder (Snippet.for_project_with_user) lists only public_to_user snippets to non-members: the
  // author of a private snippet reads it (ProjectSnippetPolicy) but no longer finds it in the list.
  if (kind === 'Snippet')
    return (doc) => canReadTarget(viewer, { ...accessTargetOf(doc), authorId: undefined });
  return (doc) => canReadNoteable(req.ctx, doc);
}
