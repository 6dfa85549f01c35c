import { Router } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API, EPIC_UPDATE_AT_LEAST_ONE_OF } from '@gl/contracts';
import {
  ForbiddenError,
  ParamError,
  atLeastOneOf,
  collectParams,
  requestOrigin,
  requireUser,
  route,
  sendJson,
} from '@gl/service-kit';
import { canReadNoteable, readableNamespace, requireRole, userSummaryOf } from '../common/access';
import { readPage, sendPage } from '../common/http';
import { SERVICE_PRODUCER } from '../common/origin';
import type { NoteableChanges } from '../noteables/noteable-writes';
import type { NoteablesService } from '../noteables/noteables.service';
import { labelsAfter } from '../noteables/label-changes';
import { listVisibility } from '../noteables/list-visibility';
import { presentEpic } from './epics.presenter';
import { epicFor, requireEpicsFeature } from './epic-access';

/** ee/lib/api/epics.rb: a group's epics, and opening, reading, changing and deleting one [higher tier]. */
export function createEpicsRouter(noteables: NoteablesService): Router {
  const router = Router();

  route(router, DISCUSSIONS_API.listGroupEpics, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'group');
    requireEpicsFeature(req);
    params();
    // EpicsFinder#with_confidentiality_access_check: confidential epics only for Reporter and up.
    const filter = { kind: 'Epic', scope: 'groupId', parentId: ns.id } as const;
    const list = await readPage(req, (skip, limit) =>
      noteables.list(filter, skip, limit, listVisibility(req)),
    );
    await sendPage(req, res, list, (items) => items.map((doc) => presentEpic(doc, ns)));
  });

  route(router, DISCUSSIONS_API.createGroupEpic, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'group');
    requireUser(req.ctx);
    requireEpicsFeature(req);
    const user = requireRole(req.ctx, ACCESS_LEVELS.reporter);
    const doc = await noteables.createEpic(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      ns.id,
      userSummaryOf(user),
      params(),
    );
    sendJson(res, 201, presentEpic(doc, ns));
  });

  route(router, DISCUSSIONS_API.getGroupEpic, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'group');
    requireEpicsFeature(req);
    const epic = await noteables.findByIid('Epic', 'groupId', ns.id, params().epic_iid);
    // GitLab's `authorize!(:read_epic, epic)` runs on a nil epic: an unknown iid is 403, not 404; so is a
    // confidential epic the caller may not read.
    if (!epic || !canReadNoteable(req.ctx, epic)) throw new ForbiddenError();
    sendJson(res, 200, presentEpic(epic, ns));
  });

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
    const epic = await epicFor(noteables, req, () => given.epic_iid, ACCESS_LEVELS.reporter);
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

  route(router, DISCUSSIONS_API.deleteGroupEpic, async ({ req, res, params }) => {
    requireUser(req.ctx);
    // authorize_can_destroy!: destroy_epic (the group's Owner, admins).
    const epic = await epicFor(noteables, req, () => params().epic_iid, ACCESS_LEVELS.owner);
    await noteables.destroyEpic(epic);
    res.status(204).end();
  });

  return router;
}
