import type {
  ResourceLabelEventEntity,
  ResourceMilestoneEventEntity,
  ResourceStateEventEntity,
  ResourceWeightEventEntity,
} from '@gl/contracts';
import type { MilestoneDoc } from '../copies/copies.models';
import type { LabelDetails } from '../copies/label-copies';
import { isoNow } from '../common/presenting';
import type { ResourceEventDoc } from './resource-event.model';

type Presented =
  | ResourceLabelEventEntity
  | ResourceMilestoneEventEntity
  | ResourceStateEventEntity
  | ResourceWeightEventEntity;

/** Milestone#expired?: a due date before today. */
function expired(dueDate: string | null | undefined): boolean {
  return Boolean(dueDate && dueDate < new Date().toISOString().slice(0, 10));
}

/**
 * lib/api/entities/milestone.rb from discussions' copy of the milestone, read when the event is shown as
 * GitLab reads `event.milestone`; what the copy does not hold is null.
 */
function presentMilestone(
  id: number,
  copy: MilestoneDoc | undefined,
): ResourceMilestoneEventEntity['milestone'] {
  return {
    id,
    iid: copy?.iid ?? null,
    group_id: copy?.groupId ?? null,
    title: copy?.title ?? null,
    description: null,
    state: copy?.state ?? null,
    created_at: null,
    updated_at: null,
    due_date: copy?.dueDate ?? null,
    start_date: copy?.startDate ?? null,
    expired: expired(copy?.dueDate),
    web_url: null,
  };
}

/**
 * lib/api/entities/resource_{label,milestone,state}_event.rb and ee/lib/api/entities/resource_weight_event.rb.
 * `milestones`: the copies of the milestones the events name, by id.
 */
/** What the events of a page name, from discussions' copies: milestones by id, labels by title. */
export interface EventRelations {
  milestones: Map<number, MilestoneDoc>;
  labels: Map<string, LabelDetails>;
}

export function presentResourceEvent(event: ResourceEventDoc, related: EventRelations): Presented {
  // Extended, not spread (a leading spread costs a hidden class per added field, per event of a page).
  const heading = { id: event._id, user: event.user, created_at: isoNow(event.createdAt) };
  const resource = { resource_type: event.resourceType, resource_id: event.resourceId };
  switch (event.kind) {
    case 'label':
      return Object.assign(heading, resource, {
        // LabelBasic from the label copy; a title no copy knows (a label deleted or renamed since, or one
        // from before label copies) is shown by its title alone.
        label: related.labels.get(event.labelName!) ?? {
          id: null,
          name: event.labelName!,
          color: null,
          description: null,
          description_html: null,
          text_color: null,
        },
        action: event.action!,
      });
    case 'milestone':
      return Object.assign(heading, resource, {
        milestone: presentMilestone(event.milestoneId!, related.milestones.get(event.milestoneId!)),
        action: event.action!,
        state: event.state as ResourceMilestoneEventEntity['state'],
      });
    case 'state':
      return Object.assign(heading, resource, {
        // Closing by a commit or merge request reference is not done here, so no event has a source.
        source_commit: null,
        source_merge_request_id: null,
        state: event.state as ResourceStateEventEntity['state'],
      });
    case 'weight':
      return Object.assign(heading, { issue_id: event.resourceId, weight: event.weight ?? null });
  }
}
