import { DISCUSSIONS_ENDPOINTS } from '@gl/contracts';
import {
  createCounters,
  withIdBlocks,
  ProjectionVersion,
  createProjectionRevisions,
  createRuntimeHttpApp,
  serviceVersionKey,
  type ServiceInstance,
  type ServiceRuntime,
} from '@gl/service-kit';
import { createDiscussionsModels, type DiscussionsDeps } from './discussions.models';
import { createFeatureGate } from './common/feature-gate';
import { createNoteablesStore } from './noteables/noteables.store';
import { createNoteablesService } from './noteables/noteables.service';
import { createIssuableSubscriptionsRouter } from './noteables/subscriptions.router';
import { createNotesStore } from './notes/notes.store';
import { createNotesService } from './notes/notes.service';
import { createThreadsRouter } from './notes/threads.router';
import { createNotesRouter } from './notes/notes.router';
import { createAwardEmojiStore } from './award-emoji/award-emoji.store';
import { createAwardEmojiService } from './award-emoji/award-emoji.service';
import { createAwardEmojiRouter } from './award-emoji/award-emoji.router';
import { createResourceEventsStore } from './resource-events/resource-events.store';
import { createResourceEventsService } from './resource-events/resource-events.service';
import { createResourceEventsRouter } from './resource-events/resource-events.router';
import { createIssueLinksStore } from './issue-links/issue-links.store';
import { createIssueLinksService } from './issue-links/issue-links.service';
import { createIssueLinksRouter } from './issue-links/issue-links.router';
import { createIssuableLists } from './lists/issuable-lists';
import { createIssuablesScope } from './lists/issuables.scope';
import { createScopeReads } from './lists/scope-reads';
import { createIssuesRouter } from './issues/issues.router';
import { createIssueListsRouter } from './issues/issue-lists.router';
import { createIssueRelationsRouter } from './issues/issue-relations.router';
import { createIssueReorderRouter } from './issues/issue-reorder.router';
import { createPositionsStore } from './issues/positions.store';
import { createIncidentsSubscription } from './issues/incidents.subscription';
import { createMergeRequestsRouter } from './merge-requests/merge-requests.router';
import { createMergeRequestChangesRouter } from './merge-requests/merge-request-changes.router';
import { createMergeRequestListsRouter } from './merge-requests/merge-request-lists.router';
import { createProjectSnippetsRouter } from './snippets/project-snippets.router';
import { createPersonalSnippets } from './snippets/personal-snippets';
import { createPersonalSnippetsRouter } from './snippets/personal-snippets.router';
import { createEpicsRouter } from './epics/epics.router';
import { createEpicIssuesRouter } from './epics/epic-issues.router';
import { createCommitsRouter } from './commits/commits.router';
import { boardsProjection, createBoardCopies, createBoardCopiesModel } from './columns/board-projection';
import { createBoardColumnsRouter } from './columns/board-columns.router';
import { createBoardColumnsStore } from './columns/board-columns.store';
import { createBoardColumnsService } from './columns/board-columns.service';
import { identityProjection } from './copies/identity.projection';
import { createUsersSubscription } from './copies/users.projection';
import { createMilestoneCopies, milestoneCopiesProjection } from './copies/milestone-copies';
import { createLabelCopies, labelCopiesProjection } from './copies/label-copies';
import { shareMilestoneCache } from './copies/milestone-cache';
import { createMilestoneRedatingJob } from './copies/milestone-redating.job';
import { createMilestoneTitles, createMilestonesSubscription } from './copies/milestone-titles';

export const SERVICE_NAME = 'discussions';

/**
 * Composes the discussions service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database.
 */
/** The id sequences taken a block at a time (service-kit id-blocks.ts), by the size of their blocks. */
const ID_BLOCKS = { note: 20, noteable: 20, resource_events: 20, award_emoji: 20 } as const;

export function createDiscussionsApp(runtime: ServiceRuntime): ServiceInstance {
  const models = createDiscussionsModels(runtime.connection, runtime.outbox);
  const deps: DiscussionsDeps = {
    models,
    // Ids (never iids) a block at a time: a comment or an issue no longer pays a round trip per id.
    counters: withIdBlocks(createCounters(runtime.connection), ID_BLOCKS),
    outbox: runtime.outbox,
  };
  const store = createNoteablesStore(deps);
  const notesStore = createNotesStore(deps);
  const awardsStore = createAwardEmojiStore(deps);
  const labelCopies = createLabelCopies(models, store);
  const resourceEvents = createResourceEventsService({
    counters: deps.counters,
    store: createResourceEventsStore(deps),
    milestones: store,
    labels: labelCopies,
  });
  const positions = createPositionsStore(models);
  // Every replica's milestone cache forgets a copy once any replica has written it.
  const milestoneFlushes = shareMilestoneCache(store.milestoneCache, runtime.bus, runtime.logger);
  const milestoneCopies = createMilestoneCopies(models, milestoneFlushes.changed);
  const notes = createNotesService({ counters: deps.counters, store: notesStore });
  const noteables = createNoteablesService({
    ...deps,
    store,
    notesStore,
    notes,
    positions,
    milestoneCopies,
    resourceEvents,
  });
  const awards = createAwardEmojiService({
    counters: deps.counters,
    store: awardsStore,
    voteCounts: store,
  });
  const revisions = createProjectionRevisions(runtime.connection);
  // Group lists keep the projection's reads while this process's consumer changes nothing (scope-reads.ts).
  const projectionChanges = new ProjectionVersion();
  const scope = createIssuablesScope(models, createScopeReads(models, projectionChanges, revisions));
  const lists = createIssuableLists(store, scope);
  const pages = { noteables, lists, scope, revisions, labels: labelCopies };
  const boards = createBoardCopies(createBoardCopiesModel(runtime.connection));
  const redating = createMilestoneRedatingJob(
    milestoneCopies,
    models,
    runtime.logger,
    undefined,
    undefined,
    () => runtime.versions.bump([serviceVersionKey(SERVICE_NAME)]),
  );
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    serves: DISCUSSIONS_ENDPOINTS,
    apiRouters: [
      // First: a project's disabled issues, merge requests or snippets answer before any handler.
      createFeatureGate(models),
      createThreadsRouter(noteables, notes),
      createNotesRouter(noteables, notes),
      createAwardEmojiRouter(noteables, notes, awards),
      createResourceEventsRouter(noteables, resourceEvents),
      createIssueListsRouter(pages),
      createMergeRequestListsRouter(pages),
      createEpicIssuesRouter(pages),
      createIssueReorderRouter(noteables, scope),
      createBoardColumnsRouter({
        boards,
        noteables,
        columns: createBoardColumnsService({ columns: createBoardColumnsStore(models), noteables: store }),
        scope,
        revisions,
        withLease: (key, work) => positions.withLease(key, work),
      }),
      createIssuesRouter(noteables),
      createIssueRelationsRouter(noteables),
      createIssueLinksRouter({
        ...pages,
        issueLinks: createIssueLinksService({
          counters: deps.counters,
          store: createIssueLinksStore(models),
          notes,
        }),
      }),
      createMergeRequestsRouter(noteables),
      createMergeRequestChangesRouter(noteables),
      createProjectSnippetsRouter(noteables),
      createEpicsRouter(noteables),
      createIssuableSubscriptionsRouter(noteables),
      createCommitsRouter(noteables),
      createPersonalSnippetsRouter({ noteables, snippets: createPersonalSnippets(models, scope) }),
    ],
  });
  return {
    app,
    subscriptions: [
      createIncidentsSubscription(noteables),
      createMilestonesSubscription(createMilestoneTitles(models, milestoneFlushes.changed)),
      createUsersSubscription(models),
      identityProjection(models, revisions, projectionChanges),
      boardsProjection(boards),
      milestoneCopiesProjection(milestoneCopies, redating, noteables),
      labelCopiesProjection(labelCopies),
    ],
    start: () => redating.start(),
    stop: () => {
      milestoneFlushes.close();
      return redating.stop();
    },
  };
}
