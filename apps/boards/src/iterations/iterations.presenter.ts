import { ITERATION_STATES } from '@gl/contracts';
import type { IterationEntity, NamespaceContext } from '@gl/contracts';
import type { PresentContext } from '../boards/boards.presenter';
import { iterationState, today, type SequencedIteration } from './iterations.service';

/**
 * The web address of the iteration's group: the reader's group (or a project's group) or one of its
 * ancestors is named by the request's context (its current path); a descendant by the path it had when
 * the iteration was made.
 */
function iterationGroupPath(iteration: SequencedIteration, parent: NamespaceContext): string {
  const segments = parent.fullPath.split('/');
  if (parent.kind === 'project') segments.pop();
  const chain = parent.kind === 'project' ? parent.ancestorGroupIds : [...parent.ancestorGroupIds, parent.id];
  const index = chain.indexOf(iteration.groupId);
  if (index >= 0 && segments.length === chain.length) return segments.slice(0, index + 1).join('/');
  return iteration.groupFullPath;
}

/** API::Entities::Iteration (ee/lib/api/entities/iteration.rb); `state` is the stored enum's number. */
export function presentIteration(
  iteration: SequencedIteration,
  pc: PresentContext,
  day = today(),
): IterationEntity {
  return {
    id: iteration._id,
    iid: iteration.iid,
    sequence: iteration.sequence,
    group_id: iteration.groupId,
    title: iteration.title,
    description: iteration.description,
    state: ITERATION_STATES[iterationState(iteration, day)],
    created_at: iteration.createdAt.toISOString(),
    updated_at: iteration.updatedAt.toISOString(),
    start_date: iteration.startDate,
    due_date: iteration.dueDate,
    web_url: `${pc.externalUrl}/groups/${iterationGroupPath(iteration, pc.parent)}/-/iterations/${iteration._id}`,
  };
}
