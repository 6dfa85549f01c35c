import type { Request } from 'express';
import { ForbiddenError, accessLevelOf, isHigherTier } from '@gl/service-kit';
import { canReadNoteable, readableNamespace } from '../common/access';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesService } from '../noteables/noteables.service';

/** Epics are a higher-tier feature: without it GitLab's `authorize_epics_feature!` answers 403. */
export function requireEpicsFeature(req: Request): void {
  if (!isHigherTier(req.ctx)) throw new ForbiddenError();
}

/**
 * `authorize!(ability, epic)` on `user_group.epics.find_by(iid:)`: a missing epic is nil, and an ability
 * on nil is refused, so an unknown iid is 403 as an epic the caller may not read is; so is a free tier.
 * The iid is read after the tier is checked.
 */
export async function epicFor(
  noteables: Pick<NoteablesService, 'findByIid'>,
  req: Request,
  epicIid: () => number,
  minimum: number,
): Promise<NoteableDoc> {
  const ns = readableNamespace(req.ctx, 'group');
  requireEpicsFeature(req);
  const epic = await noteables.findByIid('Epic', 'groupId', ns.id, epicIid());
  if (!epic || !canReadNoteable(req.ctx, epic) || accessLevelOf(req.ctx) < minimum) {
    throw new ForbiddenError();
  }
  return epic;
}
