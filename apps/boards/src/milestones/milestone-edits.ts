import type { z } from 'zod';
import { DOMAIN_EVENT_TYPES, type updateMilestoneBody } from '@gl/contracts';

const { milestoneClosed, milestoneReopened } = DOMAIN_EVENT_TYPES.boards;

type MilestoneState = 'active' | 'closed';

/** What a PUT changes on a milestone of either kind, and the state event it publishes. */
export interface MilestoneEdit {
  fields: {
    title?: string;
    description?: string;
    dueDate?: string | null;
    startDate?: string | null;
    state?: MilestoneState;
  };
  /** milestone.closed or milestone.reopened when `state_event` changed the state, else null. */
  stateEvent: typeof milestoneClosed | typeof milestoneReopened | null;
}

/**
 * Milestones::UpdateService's fields for a group or a project milestone: the given ones, and the state
 * `state_event` asks for (close / activate) when it differs from the current one.
 */
export function milestoneEdit(
  current: { state: MilestoneState },
  params: z.infer<typeof updateMilestoneBody>,
): MilestoneEdit {
  const fields: MilestoneEdit['fields'] = {};
  if (params.title !== undefined) fields.title = params.title;
  if (params.description !== undefined) fields.description = params.description;
  if (params.due_date !== undefined) fields.dueDate = params.due_date;
  if (params.start_date !== undefined) fields.startDate = params.start_date;
  const next =
    params.state_event === 'close' ? 'closed' : params.state_event === 'activate' ? 'active' : current.state;
  if (next === current.state) return { fields, stateEvent: null };
  return {
    fields: { ...fields, state: next },
    stateEvent: next === 'closed' ? milestoneClosed : milestoneReopened,
  };
}
