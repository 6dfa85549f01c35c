import { DOMAIN_EVENT_TYPES, carriedAuthorAvatar, noteCreatedData } from './domain.events';
import type { EventEnvelope } from './envelope';
import { rootEvent } from './root-event';

/**
 * A root comment on an issue as GitLab's API answers its creation (`POST …/issues/:iid/discussions`: the
 * thread, its first note) and the issue it is on.
 */
export interface IssueCommentRef {
  projectId: number;
  issue: { id: number; iid: number; title: string };
  thread: {
    id: string;
    notes: { id: number; body: string; created_at: string; author: { avatar_url: string | null } }[];
  };
}

/**
 * `gl.discussions.note.created` as discussions publishes it for that comment by root (its note-events.ts),
 * for what publishes it again itself: the hooks bench and the hooks fault test. Here rather than in the
 * test kit because the bench, a tool, may not import @gl/testing (eslint.config.mjs DEP_CONSTRAINTS); the
 * data is checked against the contract, so both send what a consumer accepts. `id` is the event's own
 * (a UUID: contracts import nothing but zod, so the caller makes it).
 */
export function issueCommentCreated(ref: IssueCommentRef, id: string): EventEnvelope {
  const note = ref.thread.notes[0]!;
  const data = noteCreatedData.parse({
    noteId: note.id,
    noteType: 'DiscussionNote',
    discussionId: ref.thread.id,
    body: note.body,
    system: false,
    createdAt: new Date(note.created_at).toISOString(),
    noteableType: 'Issue',
    noteableId: ref.issue.id,
    noteableIid: ref.issue.iid,
    commitId: null,
    targetTitle: ref.issue.title,
    audience: { authorId: 1, confidential: false, assigneeIds: [], internal: false },
    ...carriedAuthorAvatar(note.author.avatar_url),
  });
  return rootEvent({
    id,
    type: DOMAIN_EVENT_TYPES.discussions.noteCreated,
    producer: 'discussions',
    projectId: ref.projectId,
    data,
  });
}
