import { DISCUSSIONS_ENDPOINTS } from '@gl/contracts';
import {
  createCounters,
  createProjectionRevisions,
  createRuntimeHttpApp,
  type ServiceInstance,
  type ServiceRuntime,
} from '@gl/service-kit';
import { createFeatureGate } from './discussions.access';
import { createDiscussionsModels } from './discussions.models';
import { createDiscussionsRouter } from './discussions.router';
import { createCommitsRouter } from './commits.router';
import { createNoteablesRouter } from './noteables.router';
import { createNoteablesService } from './noteables.service';
import { createNoteablesStore } from './noteables.store';
import { createIssuableLists } from './issuable-lists';
import { createIssuablesRouter } from './issuables.router';
import { createIssuablesScope } from './issuables.scope';
import { createIssueReorderRouter } from './issue-reorder.router';
import { identityProjection } from './identity.projection';
import { boardsProjection, createBoardCopies, createBoardCopiesModel } from './board-projection';
import { createBoardColumnsRouter } from './board-columns.router';
import { createBoardColumnsStore } from './board-columns.store';
import { createPositionsStore } from './positions.store';
import { createNotesService } from './notes.service';
import { createPersonalSnippets } from './personal-snippets';
import { createPersonalSnippetsRouter } from './personal-snippets.router';
import { createIncidentsSubscription, createMilestonesSubscription } from './subscriptions';
import { createUsersSubscription } from './users.projection';
import { createMilestoneCopies, milestoneCopiesProjection } from './milestone-copies';
import { createMilestoneRedatingJob } from './milestone-redating.job';

export const SERVICE_NAME = 'discussions';

/**
 * Composes the discussions service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database.
 */
export function createDiscussionsApp(runtime: ServiceRuntime): ServiceInstance {
  const models = createDiscussionsModels(runtime.connection, runtime.outbox);
  const deps = { models, counters: createCounters(runtime.connection), outbox: runtime.outbox };
  const notes = createNotesService(deps);
  const noteables = createNoteablesService(deps, notes);
  const scope = createIssuablesScope(models);
  const store = createNoteablesStore(deps);
  const lists = createIssuableLists(store, scope);
  const revisions = createProjectionRevisions(runtime.connection);
  const boards = createBoardCopies(createBoardCopiesModel(runtime.connection));
  const positions = createPositionsStore(models);
  const milestoneCopies = createMilestoneCopies(models);
  const redating = createMilestoneRedatingJob(milestoneCopies, models, runtime.logger);
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    serves: DISCUSSIONS_ENDPOINTS,
    apiRouters: [
      // First: a project's disabled issues, merge requests or snippets answer before any handler.
      createFeatureGate(models),
      createDiscussionsRouter(noteables, notes),
      createIssuablesRouter({ noteables, lists, scope, revisions }),
      createIssueReorderRouter(noteables, scope),
      createBoardColumnsRouter({
        boards,
        noteables,
        store,
        columns: createBoardColumnsStore(models),
        scope,
        revisions,
        withLease: (key, work) => positions.withLease(key, work),
      }),
      createNoteablesRouter(noteables),
      createCommitsRouter(noteables),
      createPersonalSnippetsRouter({ noteables, snippets: createPersonalSnippets(models, scope) }),
    ],
  });
  return {
    app,
    subscriptions: [
      createIncidentsSubscription(noteables),
      createMilestonesSubscription(noteables),
      createUsersSubscription(models),
      identityProjection(models, revisions),
      boardsProjection(boards),
      milestoneCopiesProjection(milestoneCopies, redating),
    ],
    start: () => redating.start(),
    stop: () => redating.stop(),
  };
}
