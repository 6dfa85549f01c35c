import { Router, type Request } from 'express';
import {
  DISCUSSIONS_API,
  RESOURCE_EVENT_OPERATIONS,
  type ResourceEventKind,
  type ResourceEventOperationIds,
} from '@gl/contracts';
import { NotFoundError, requireUser, route, sendJson } from '@gl/service-kit';
import { canReadNoteable, readableNamespace } from '../common/access';
import { readPage, sendPage } from '../common/http';
import type { NoteablesService } from '../noteables/noteables.service';
import type { ResourceEventsService } from './resource-events.service';
import { presentResourceEvent } from './resource-events.presenter';

type EventableType = 'Issue' | 'MergeRequest';

/** The path of a resource event route, as each API class names its parameters. */
interface EventPath {
  eventable_id?: string;
  eventable_iid?: number;
  event_id?: string | number;
}

/**
 * What an id given as text names: ActiveRecord casts it to an integer as Ruby's `to_i` does when it starts
 * with a digit (`"12abc"` is 12), and to nothing otherwise.
 */
function idOf(raw: string | number | undefined): number | null {
  if (typeof raw === 'number') return raw;
  const id = Number.parseInt(raw ?? '', 10);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * lib/api/resource_label_events.rb, resource_milestone_events.rb, resource_state_events.rb and
 * ee/lib/api/resource_weight_events.rb. `authenticate!` first (the contracts' `token`), then the issuable as
 * NotesHelpers#find_noteable finds it: unknown or unreadable (`read_issue`, `read_merge_request`, so
 * confidential issues too) is 404 "<Type> Not Found". Every event of a readable issuable is shown: GitLab
 * hides label events whose label, and milestone events whose milestone, the caller may not read, and here
 * labels and milestones are those of the issuable's own group hierarchy, which every reader of it reads.
 */
export function createResourceEventsRouter(
  noteables: NoteablesService,
  events: ResourceEventsService,
): Router {
  const router = Router();

  async function issuableOf(req: Request, type: EventableType, path: EventPath) {
    // The gateway already refuses anonymous callers (`auth: 'token'`); this holds behind any other caller.
    requireUser(req.ctx);
    const ns = readableNamespace(req.ctx, 'project');
    const iid = idOf(path.eventable_iid ?? path.eventable_id);
    const doc = iid === null ? null : await noteables.findByIid(type, 'projectId', ns.id, iid);
    if (!doc || !canReadNoteable(req.ctx, doc)) throw new NotFoundError(type);
    return doc;
  }

  function routes(kind: ResourceEventKind, type: EventableType, ids: ResourceEventOperationIds) {
    route(
      router,
      DISCUSSIONS_API[ids.list as typeof RESOURCE_EVENT_OPERATIONS.label.Issue.list],
      async ({ req, res, params }) => {
        const path = params() as EventPath;
        // The page parameters are checked before the issuable is looked for, as GitLab's params block is.
        let doc: Awaited<ReturnType<typeof issuableOf>> | undefined;
        const list = await readPage(req, async (skip, limit) => {
          doc = await issuableOf(req, type, path);
          return events.page(doc, kind, skip, limit);
        });
        const related = await events.relatedOf(doc!, list.items);
        await sendPage(req, res, list, (items) => items.map((e) => presentResourceEvent(e, related)));
      },
    );

    route(
      router,
      DISCUSSIONS_API[ids.get as typeof RESOURCE_EVENT_OPERATIONS.label.Issue.get],
      async ({ req, res, params }) => {
        const path = params() as EventPath;
        const doc = await issuableOf(req, type, path);
        const id = idOf(path.event_id);
        if (id === null) throw new NotFoundError();
        const event = await events.find(doc, kind, id);
        sendJson(res, 200, presentResourceEvent(event, await events.relatedOf(doc, [event])));
      },
    );
  }

  for (const [kind, byType] of Object.entries(RESOURCE_EVENT_OPERATIONS) as [
    ResourceEventKind,
    Partial<Record<EventableType, ResourceEventOperationIds>>,
  ][]) {
    for (const [type, ids] of Object.entries(byType) as [EventableType, ResourceEventOperationIds][]) {
      routes(kind, type, ids);
    }
  }
  return router;
}
