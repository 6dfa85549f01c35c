import { Schema } from 'mongoose';
import type { NoteableTypeName, PositionParam, UserSummary } from '@gl/contracts';
import { addOutboxFields, documentSchema } from '@gl/service-kit';

export interface NoteDoc {
  _id: number;
  projectId: number | null;
  groupId: number | null;
  noteableType: NoteableTypeName;
  /** Database id of the noteable; null for commits. */
  noteableId: number | null;
  noteableIid: number | null;
  /** The commit SHA for commit notes. */
  commitSha: string | null;
  discussionId: string;
  type: 'DiscussionNote' | 'DiffNote' | null;
  body: string;
  system: boolean;
  author: UserSummary;
  createdAt: Date;
  updatedAt: Date;
  resolvable: boolean;
  resolvedBy: UserSummary | null;
  resolvedAt: Date | null;
  position: PositionParam | null;
  /** Diff notes on merge requests: the commit the thread starts on. */
  commitId: string | null;
  /** Internal note (formerly `confidential`): Reporter and up only. Absent on notes written before it existed. */
  internal?: boolean;
}

const mixed = Schema.Types.Mixed;

/** The keys each keyset order of notes reads before the id: created_at, updated_at, none (the id). */
const NOTE_KEYSET_ORDER_KEYS = [{ createdAt: 1 }, { updatedAt: 1 }, {}] as const;

export function noteSchema(): Schema<NoteDoc> {
  const schema = documentSchema<NoteDoc>({
    _id: Number,
    projectId: Number,
    groupId: Number,
    noteableType: String,
    noteableId: Number,
    noteableIid: Number,
    commitSha: String,
    discussionId: String,
    type: String,
    body: String,
    system: Boolean,
    author: mixed,
    createdAt: Date,
    updatedAt: Date,
    resolvable: Boolean,
    resolvedBy: mixed,
    resolvedAt: Date,
    position: mixed,
    commitId: String,
    internal: Boolean,
  });
  // A noteable's notes in each order of its keyset pages (notes.service.ts noteKeysetPage), the id breaking
  // ties: a page is one range from its cursor, with the activity filter and internal notes checked on the
  // entries. The first also serves every read of a noteable's notes; migrations/note-keyset-indexes.ts
  // drops the index it replaces ({noteableType, noteableId, createdAt}).
  for (const order of NOTE_KEYSET_ORDER_KEYS) {
    schema.index({ noteableType: 1, noteableId: 1, ...order, _id: 1, system: 1, internal: 1 });
  }
  schema.index({ projectId: 1, commitSha: 1 });
  addOutboxFields(schema);
  return schema;
}
