import { knownUser, userSummary } from '@gl/service-kit';
import type { ActivityEventEntity, UserSummary } from '@gl/contracts';
import type { ActivityDoc, UserDoc } from './events.models';

/** The authors of a page's events, once each (their users are read from the projection). */
export function authorIdsOf(docs: ActivityDoc[]): number[] {
  return [...new Set(docs.map((doc) => doc.authorId))];
}

/** Authors of a page, from the user projection, with the name the event carried as a fallback. */
export function authorsOf(
  docs: ActivityDoc[],
  users: UserDoc[],
  externalUrl: string,
): Map<number, UserSummary> {
  const byId = new Map<number, UserSummary>();
  const summary = (id: number, username: string, name: string, state: string): UserSummary =>
    userSummary({ id, username, name, state }, externalUrl);
  for (const doc of docs) {
    if (doc.authorUsername !== null && !byId.has(doc.authorId))
      byId.set(
        doc.authorId,
        summary(doc.authorId, doc.authorUsername, doc.authorName ?? doc.authorUsername, 'active'),
      );
  }
  // The projection's copy: its address gives the avatar, a deleted author shows as the Ghost User.
  for (const user of users) byId.set(user._id, userSummary(knownUser(user), externalUrl));
  return byId;
}

/**
 * GitLab's Entities::Event: `author` only when the author is known, `note` on comments, `push_data`
 * on pushes; `author_username` always (`event.author&.username`: null for an unknown author). `title`
 * and `data` are the events table's legacy columns, which GitLab's API (and doc/api/events.md's
 * examples) still show and which are null for every event GitLab writes today.
 */
export function presentActivity(doc: ActivityDoc, authors: Map<number, UserSummary>): ActivityEventEntity {
  const author = authors.get(doc.authorId);
  const entity: ActivityEventEntity = {
    id: doc._id,
    title: null,
    project_id: doc.projectId,
    action_name: doc.actionName,
    target_id: doc.targetId,
    target_iid: doc.targetIid,
    target_type: doc.targetType,
    author_id: doc.authorId,
    data: null,
    target_title: doc.targetTitle,
    created_at: doc.createdAt.toISOString(),
  } as ActivityEventEntity;
  if (doc.note && author) {
    entity.note = {
      id: doc.note.id,
      type: doc.note.type,
      body: doc.note.body,
      attachment: null,
      author,
      created_at: doc.note.createdAt,
      system: doc.note.system,
      noteable_id: doc.note.noteableId,
      noteable_type: doc.note.noteableType,
      noteable_iid: doc.note.noteableIid,
      commit_id: doc.note.commitId,
    };
  }
  if (author) entity.author = author;
  entity.imported = false;
  entity.imported_from = 'none';
  if (doc.pushData) {
    entity.push_data = {
      commit_count: doc.pushData.commitCount,
      action: doc.pushData.action,
      ref_type: doc.pushData.refType,
      commit_from: doc.pushData.commitFrom,
      commit_to: doc.pushData.commitTo,
      ref: doc.pushData.ref,
      commit_title: doc.pushData.commitTitle,
      ref_count: null,
    };
  }
  entity.author_username = author?.username ?? null;
  return entity;
}
