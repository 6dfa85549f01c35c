import { DOMAIN_EVENT_TYPES, type UserSummary } from '@gl/contracts';
import type { EventOrigin } from '@gl/service-kit';
import type { DiscussionsDeps } from '../discussions.models';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesStore } from '../noteables/noteables.store';
import type { NoteableChanges, NoteableWrites } from '../noteables/noteable-writes';
import type { NotesService } from '../notes/notes.service';
import { createEpicIssues } from './epic-issues';
import { createIssueEpicSetter, createIssueEpics } from './issue-epics';
import { removeDependents } from '../noteables/noteable-dependents';

export interface EpicsServiceDeps extends Pick<DiscussionsDeps, 'models' | 'counters'> {
  writes: NoteableWrites;
  store: Pick<NoteablesStore, 'findById' | 'findInParent'>;
  notes: Pick<NotesService, 'createSystemNote'>;
}

/** Epics and the issues in them [higher tier]. */
export function createEpicsService(deps: EpicsServiceDeps) {
  const { writes, store, models } = deps;
  const epicIssues = createEpicIssues(deps);

  async function createEpic(
    origin: EventOrigin,
    groupId: number,
    author: UserSummary,
    input: { title: string; description?: string; labels?: string[]; confidential?: boolean },
  ): Promise<NoteableDoc> {
    const doc = await writes.draft('Epic', `epics:${groupId}`, author, input.title, {
      groupId,
      description: input.description ?? null,
      labels: input.labels ?? [],
      confidential: input.confidential ?? false,
    });
    return writes.insert(origin, doc, DOMAIN_EVENT_TYPES.discussions.epicOpened);
  }

  /** Epics::UpdateService: fields, fixed dates, close and reopen (no domain event names epic state). */
  function updateEpic(
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: UserSummary,
    changes: NoteableChanges,
    stateEvent: 'close' | 'reopen' | undefined,
  ) {
    return writes.update(origin, doc, actor, changes, stateEvent, null);
  }

  /** Epics::DestroyService: the epic, its award emoji, its notes and theirs go. */
  async function destroyEpic(doc: NoteableDoc): Promise<void> {
    await removeDependents(models.noteables, models.notes, 'Epic', doc._id);
    await models.notes.deleteMany({ noteableType: 'Epic', noteableId: doc._id });
    await models.noteables.db.collection('epic_issues').deleteMany({ epicId: doc._id });
    await models.noteables.deleteOne({ _id: doc._id, kind: 'Epic' });
  }

  return {
    createEpic,
    updateEpic,
    destroyEpic,
    epicIssues,
    setIssueEpic: createIssueEpicSetter({
      epicIssues,
      notes: deps.notes,
      findById: (id) => store.findById(id),
    }),
    issueEpics: createIssueEpics(models),
    findEpicById: (groupId: number, id: number) => store.findInParent('Epic', 'groupId', groupId, id),
  };
}
