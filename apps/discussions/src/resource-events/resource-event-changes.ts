import type { UserSummary } from '@gl/contracts';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { ResourceEventDoc, ResourceType } from './resource-event.model';

/** An event before it has its id. */
export type ResourceEventDraft = Omit<ResourceEventDoc, '_id'>;

/** What a noteable looks like to the recorder: before or after a write. */
type Snapshot = Pick<NoteableDoc, 'kind' | 'labels' | 'milestoneId' | 'state' | 'weight'>;

function resourceTypeOf(kind: NoteableDoc['kind']): ResourceType | null {
  return kind === 'Issue' || kind === 'MergeRequest' ? kind : null;
}

/**
 * The events one write of an issue or merge request records, as Issuable::CommonSystemNotesService calls
 * the ResourceEvents services after the save: label events (ChangeLabelsService: one per label added, then
 * one per label removed), a milestone event (ChangeMilestoneService: `add` with the new milestone, `remove`
 * with the old one, `state` the issuable's state after the write), a weight event for issues (EE's
 * ChangeWeightService), and the state event of a close, reopen or merge (ChangeStateService). A new issuable
 * is a change from nothing (`is_update: false` still records labels, milestone and weight). Epics and
 * snippets record none here.
 */
export function eventsOfChange(
  before: Snapshot | null,
  after: Snapshot & { _id: number },
  user: UserSummary,
  at: Date,
  stateChange: 'closed' | 'reopened' | 'merged' | null,
  /** Whether the issue already has weight events (EE's `first_weight_event?`). */
  hasWeightEvents: boolean,
  /** When the issue was last changed before this write (the first weight event's time). */
  previousUpdate: Date | null,
): ResourceEventDraft[] {
  const resourceType = resourceTypeOf(after.kind);
  if (!resourceType) return [];
  const base = { resourceType, resourceId: after._id, user, createdAt: at };
  const drafts: ResourceEventDraft[] = [];

  const old = before?.labels ?? [];
  for (const name of after.labels.filter((l) => !old.includes(l))) {
    drafts.push({ ...base, kind: 'label', action: 'add', labelName: name });
  }
  for (const name of old.filter((l) => !after.labels.includes(l))) {
    drafts.push({ ...base, kind: 'label', action: 'remove', labelName: name });
  }

  const oldMilestone = before?.milestoneId ?? null;
  if ((after.milestoneId ?? null) !== oldMilestone) {
    const added = after.milestoneId ?? null;
    drafts.push({
      ...base,
      kind: 'milestone',
      action: added ? 'add' : 'remove',
      milestoneId: (added ?? oldMilestone)!,
      state: after.state,
    });
  }

  const oldWeight = before?.weight ?? null;
  if (resourceType === 'Issue' && (after.weight ?? null) !== oldWeight) {
    // The weight from before events were recorded, dated at its last change (first_weight_event?).
    if (before && oldWeight !== null && !hasWeightEvents) {
      drafts.push({ ...base, kind: 'weight', weight: oldWeight, createdAt: previousUpdate ?? at });
    }
    drafts.push({ ...base, kind: 'weight', weight: after.weight ?? null });
  }

  if (stateChange) drafts.push({ ...base, kind: 'state', state: stateChange });
  return drafts;
}

/**
 * Events ride in the noteable's own write as JSON strings (`_resourceEvents`), so a change is never stored
 * without them; strings because FerretDB v1 pulls exact strings, not sub-documents (outbox-documents.ts).
 */
export function encodeResourceEvent(event: ResourceEventDoc): string {
  return JSON.stringify(event);
}

export function decodeResourceEvent(raw: string): ResourceEventDoc {
  const parsed = JSON.parse(raw) as ResourceEventDoc & { createdAt: string };
  return { ...parsed, createdAt: new Date(parsed.createdAt) };
}
