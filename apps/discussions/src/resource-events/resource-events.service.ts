import type { ResourceEventKind, UserSummary } from '@gl/contracts';
import { NotFoundError, type Counters } from '@gl/service-kit';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesStore } from '../noteables/noteables.store';
import type { LabelCopies, LabelDetails } from '../copies/label-copies';
import type { EventRelations } from './resource-events.presenter';
import type { ResourceEventDoc } from './resource-event.model';
import type { ResourceEventsStore } from './resource-events.store';
import { decodeResourceEvent, encodeResourceEvent, eventsOfChange } from './resource-event-changes';

/** The state change a write makes, as ResourceStateEvent records it. */
export type StateChange = 'closed' | 'reopened' | 'merged' | null;

/**
 * Resource events (app/services/resource_events): built for a write of an issue or merge request, carried
 * by that write, moved to their collection after it, and read per issuable and kind.
 */
export function createResourceEventsService(deps: {
  counters: Counters;
  store: ResourceEventsStore;
  /** The milestone copies milestone events show (through the noteables' milestone cache). */
  milestones: Pick<NoteablesStore, 'milestones'>;
  /** The label copies label events show. */
  labels: Pick<LabelCopies, 'detailsOf'>;
}) {
  const { counters, store, milestones, labels } = deps;

  /** Whether the issue already has weight events, stored or still carried by the document. */
  async function hasWeightEvents(doc: NoteableDoc): Promise<boolean> {
    const pending = (doc._resourceEvents ?? []).map(decodeResourceEvent);
    return pending.some((e) => e.kind === 'weight') || (await store.hasAny(doc._id, 'weight'));
  }

  /**
   * The events of a write (`before` null for a new issuable), with their ids, encoded for the write to
   * carry (resource-event-changes.ts). Ids are taken in the order GitLab inserts the rows.
   */
  async function eventsOf(
    before: NoteableDoc | null,
    after: NoteableDoc,
    user: UserSummary,
    at: Date,
    stateChange: StateChange,
  ): Promise<string[]> {
    // EE's first_weight_event? looks for earlier weight events only when a weight is replaced.
    const replacesWeight =
      after.kind === 'Issue' &&
      (before?.weight ?? null) !== null &&
      (after.weight ?? null) !== (before?.weight ?? null);
    const history = replacesWeight ? await hasWeightEvents(before!) : true;
    const drafts = eventsOfChange(before, after, user, at, stateChange, history, before?.updatedAt ?? null);
    if (drafts.length === 0) return [];
    const first = await counters.nextMany('resource_events', drafts.length);
    return drafts.map((draft, i) => encodeResourceEvent({ _id: first + i, ...draft }));
  }

  /** Moves the events a noteable's write carried into `resource_events` (idempotent). */
  async function settle(noteableId: number, raw: string[] | undefined): Promise<void> {
    if (!raw || raw.length === 0) return;
    await store.settle(noteableId, raw.map(decodeResourceEvent), raw);
  }

  return {
    eventsOf,
    settle,

    /** The copies of the milestones and labels some events of an issuable name. */
    async relatedOf(doc: NoteableDoc, events: ResourceEventDoc[]): Promise<EventRelations> {
      const ids = [...new Set(events.flatMap((e) => (e.milestoneId ? [e.milestoneId] : [])))];
      const titles = [...new Set(events.flatMap((e) => (e.labelName ? [e.labelName] : [])))];
      const [found, details] = await Promise.all([
        milestones.milestones(ids),
        doc.projectId === null ? new Map<string, LabelDetails>() : labels.detailsOf(doc.projectId, titles),
      ]);
      return { milestones: new Map(found.map((m) => [m._id, m])), labels: details };
    },

    /**
     * A page of the issuable's events of one kind. Events its last write still carries (a crash between
     * the write and the move) are moved first, so an answered change always shows its events.
     */
    async page(doc: NoteableDoc, kind: ResourceEventKind, skip: number, limit: number) {
      await settle(doc._id, doc._resourceEvents);
      return store.page(doc._id, kind, skip, limit);
    },

    /** One event of the issuable: `find(params[:event_id])`, RecordNotFound → "404 Not found". */
    async find(doc: NoteableDoc, kind: ResourceEventKind, id: number): Promise<ResourceEventDoc> {
      await settle(doc._id, doc._resourceEvents);
      const event = Number.isSafeInteger(id) ? await store.find(doc._id, kind, id) : null;
      if (!event) throw new NotFoundError();
      return event;
    },
  };
}

export type ResourceEventsService = ReturnType<typeof createResourceEventsService>;
