import type { UserSummary } from '@gl/contracts';
import type { EventOrigin } from '@gl/service-kit';
import type { DiscussionsDeps } from '../discussions.models';
import type { NoteableDoc, NoteableKind } from './noteable.model';
import type { ListVisibility, NoteableListFilter, NoteablesStore } from './noteables.store';
import { createNoteableWrites } from './noteable-writes';
import { createIssuableExtras } from './issuable-extras';
import { createIssuableSubscriptions } from './issuable-subscriptions';
import type { NotesService } from '../notes/notes.service';
import type { NotesStore } from '../notes/notes.store';
import { createCommitsService } from '../commits/commits.service';
import { createIssuesService } from '../issues/issues.service';
import { createIssueRelations } from '../issues/issue-relations';
import { createIssuePositions } from '../issues/issue-positions';
import type { PositionsStore } from '../issues/positions.store';
import { createIncidentsService } from '../issues/incidents.service';
import { createMergeRequestsService } from '../merge-requests/merge-requests.service';
import { createReviewerFilter } from '../merge-requests/reviewers';
import { createMergeRequestChanges } from '../merge-requests/merge-request-changes';
import { createSnippetsService } from '../snippets/snippets.service';
import { createEpicsService } from '../epics/epics.service';
import { createIssuablesScope } from '../lists/issuables.scope';
import type { MilestoneCopies } from '../copies/milestone-copies';
import type { ResourceEventsService } from '../resource-events/resource-events.service';

export type { ListVisibility } from './noteables.store';
/** The document every noteable route answers about, as the stores return it. */
export type { NoteableDoc } from './noteable.model';

/** What the noteable services are built from, each store built once (app.ts). */
export interface NoteablesServiceDeps extends DiscussionsDeps {
  store: NoteablesStore;
  notesStore: NotesStore;
  notes: NotesService;
  positions: PositionsStore;
  milestoneCopies: MilestoneCopies;
  resourceEvents: ResourceEventsService;
}

/**
 * Issues, merge requests, snippets, epics and commits as the routers and subscriptions use them: each
 * kind's service (its folder) over the writes they share, with the reads every kind has.
 */
export function createNoteablesService(deps: NoteablesServiceDeps) {
  const { store, notes, milestoneCopies } = deps;
  const writes = createNoteableWrites({
    counters: deps.counters,
    store,
    notes,
    milestoneCopies,
    resourceEvents: deps.resourceEvents,
  });
  const commits = createCommitsService(deps);
  const positions = createIssuePositions(deps.positions);
  const issues = createIssuesService({ writes, positions });
  const { positionScopeOf } = createIssuablesScope(deps.models);

  /** A new issue's place at the end of its project's scope, for writers without a project route. */
  async function placeAtEnd(projectId: number, issueId: number) {
    const positionScope = await positionScopeOf(projectId);
    if (positionScope === null) return null;
    return { positionScope, relativePosition: await positions.claimAtEnd(positionScope, issueId) };
  }

  /** A page of noteables, newest first, of those the caller may read. */
  async function list(
    filter: NoteableListFilter,
    skip: number,
    limit: number,
    visible: ListVisibility = 'all',
  ): Promise<{ items: NoteableDoc[]; total: number }> {
    return store.page(filter, skip, limit, visible);
  }

  return {
    ...createIssuableExtras({ notes: deps.notesStore, noteables: store }),
    subscriptions: createIssuableSubscriptions(deps.models),
    list,
    findIssueById: (id: number) => store.findById(id),
    /**
     * Milestones::DestroyService: an issue or merge request leaves its deleted milestone as
     * Issues::UpdateService takes a milestone off (its system note and resource milestone event).
     */
    leaveMilestone: (origin: EventOrigin, doc: NoteableDoc, actor: UserSummary) =>
      writes.update(origin, doc, actor, { milestoneId: null }, undefined, null),
    findByIid: (kind: NoteableKind, scope: 'projectId' | 'groupId', parentId: number, iid: number) =>
      store.findByIid(kind, scope, parentId, iid),
    ...issues,
    ...createIssueRelations(deps),
    ...createIncidentsService(
      { counters: deps.counters, store },
      { insert: writes.insert, updateIssue: issues.updateIssue, placeAtEnd },
    ),
    ...createMergeRequestsService({ writes, store, commits }),
    reviewerIds: createReviewerFilter(deps.models),
    ...createSnippetsService({ models: deps.models, writes, store }),
    ...createEpicsService({ ...deps, writes }),
    ...commits,
    ...createMergeRequestChanges(commits),
  };
}

export type NoteablesService = ReturnType<typeof createNoteablesService>;
