import type { Request, Router } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API, EPIC_UPDATE_AT_LEAST_ONE_OF } from '@gl/contracts';
import {
  ForbiddenError,
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
import { canReadNoteable, readableNamespace, userSummaryOf } from './discussions.access';
import type { NoteableDoc } from './discussions.models';
import { SERVICE_PRODUCER } from './discussions.origin';
import { presentEpic } from './discussions.presenters';
import type { NoteableChanges, NoteablesService } from './noteables.service';
import { labelsAfter } from './label-changes';
import { pathIdOf } from './path-ids';

/** ee/lib/api/epics.rb: PUT and DELETE of one epic [higher tier]. */
export function routeGroupEpics(router: Router, noteables: NoteablesService): void {
  /**
   * `authorize!(ability, epic)` on `user_group.epics.find_by(iid:)`: a missing epic is nil, and an ability
   * on nil is refused, so an unknown iid is 403 as an epic the caller may not read is.
   */
  async function epicFor(req: Request, minimum: number): Promise<NoteableDoc> {
    const ns = readableNamespace(req.ctx, 'group');
    if (!isHigherTier(req.ctx)) throw new ForbiddenError();
    const epic = await noteables.findByIid('Epic', 'groupId', ns.id, pathIdOf(req, 'epic_iid'));
    if (!epic || !canReadNoteable(req.ctx, epic) || accessLevelOf(req.ctx) < minimum) {
      throw new ForbiddenError();
    }
    return epic;
  }

  route(router, DISCUSSIONS_API.updateGroupEpic, async ({ req, res, params }) => {
    const user = requireUser(req.ctx);
    const given = params();
    const raw = collectParams(req);
    // start_date and end_date are the deprecated names of the fixed dates.
    const named = { ...raw, start_date_fixed: raw.start_date_fixed ?? raw.start_date };
    const missing = atLeastOneOf(...EPIC_UPDATE_AT_LEAST_ONE_OF)({
      ...named,
      due_date_fixed: raw.due_date_fixed ?? raw.end_date,
    });
    if (missing) throw new ParamError([missing]);
    // authorize_can_admin_epic!: admin_epic (Reporter and up).
    const epic = await epicFor(req, ACCESS_LEVELS.reporter);
    const startFixed = given.start_date_fixed !== undefined ? given.start_date_fixed : given.start_date;
    const dueFixed = given.due_date_fixed !== undefined ? given.due_date_fixed : given.end_date;
    const changes: NoteableChanges = {
      title: given.title,
      description: given.description,
      labels: labelsAfter(epic.labels, given.labels, given.add_labels, given.remove_labels),
      confidential: given.confidential,
      startDateFixed: startFixed,
      dueDateFixed: dueFixed,
      // A fixed date given without saying whether it counts counts (the deprecated start_date/end_date did).
      startDateIsFixed: given.start_date_is_fixed ?? (startFixed !== undefined ? true : undefined),
      dueDateIsFixed: given.due_date_is_fixed ?? (dueFixed !== undefined ? true : undefined),
    };
    const updated = await noteables.updateEpic(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      epic,
      userSummaryOf(user),
      changes,
      given.state_event,
    );
    sendJson(res, 200, presentEpic(updated, req.ctx.namespace!));
  });

  route(router, DISCUSSIONS_API.deleteGroupEpic, async ({ req, res }) => {
    requireUser(req.ctx);
    // authorize_can_destroy!: destroy_epic (the group's Owner, admins).
    const epic = await epicFor(req, ACCESS_LEVELS.owner);
    await noteables.destroyEpic(epic);
    res.status(204).end();
  });
}
