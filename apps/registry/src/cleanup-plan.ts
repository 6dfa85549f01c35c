import type { RepositoryDoc } from './models';
import type { RegistryDeps } from './registry.service';
import { selectTagsToDelete, type CleanupRules, type CleanupSelection } from './selection';
import type { TagSnapshot } from './tags.store';

export interface CleanupPlan {
  /** The repository's tags as read at `now`: what the selection saw and what a large delete checks against. */
  snapshot: TagSnapshot;
  selection: CleanupSelection;
}

/**
 * Which tags a bulk delete removes from this repository now: one snapshot of its tags and the one selection
 * rule. The worker's real run and the API's dry run both call this, so a dry run lists exactly what a run
 * started right after it deletes while the tags and the clock's side of each `older_than` boundary stay put.
 */
export async function planTagsCleanup(
  deps: Pick<RegistryDeps, 'stores'>,
  repository: Pick<RepositoryDoc, '_id' | 'tagsVersion'>,
  rules: CleanupRules,
  now: Date,
  maxPerRun: number,
): Promise<CleanupPlan> {
  const snapshot = await deps.stores.tags.snapshot(repository, now);
  const selection = selectTagsToDelete(snapshot.tags, rules, snapshot.takenAt, maxPerRun);
  return { snapshot, selection };
}
