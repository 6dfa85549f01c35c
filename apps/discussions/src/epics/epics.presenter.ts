import type { EpicEntity } from '@gl/contracts';
import type { NoteableDoc } from '../noteables/noteable.model';
import { iso, isoNow, references, type NamespaceView } from '../common/presenting';

export function presentEpic(doc: NoteableDoc, ns: NamespaceView): EpicEntity {
  // Epics::UpdateDatesService: a fixed date when the epic says so; no milestones lend theirs here.
  const startDate = doc.startDateIsFixed ? (doc.startDateFixed ?? null) : null;
  const dueDate = doc.dueDateIsFixed ? (doc.dueDateFixed ?? null) : null;
  return {
    id: doc._id,
    iid: doc.iid!,
    group_id: doc.groupId!,
    title: doc.title,
    description: doc.description,
    state: doc.state === 'closed' ? 'closed' : 'opened',
    author: doc.author,
    labels: doc.labels,
    confidential: doc.confidential,
    start_date: startDate,
    start_date_is_fixed: doc.startDateIsFixed ?? false,
    start_date_fixed: doc.startDateFixed ?? null,
    due_date: dueDate,
    due_date_is_fixed: doc.dueDateIsFixed ?? false,
    due_date_fixed: doc.dueDateFixed ?? null,
    end_date: dueDate,
    created_at: isoNow(doc.createdAt),
    updated_at: isoNow(doc.updatedAt),
    closed_at: iso(doc.closedAt),
    upvotes: doc.upvotesCount ?? 0,
    downvotes: doc.downvotesCount ?? 0,
    web_url: `${ns.webUrl}/-/epics/${doc.iid}`,
    references: references('&', doc.iid!, ns.fullPath),
  };
}
