import { declaredIndexesMigration, type Migration } from '@gl/service-kit';
import { labelFieldsMigration } from './label-fields';
import { labelKeyWordsMigration } from './label-key-words';
import { assigneeKeyWordsMigration } from './assignee-key-words';
import { listIndexKeysMigration } from './list-index-keys';
import { milestoneDueMigration } from './milestone-due';
import { noteableWordsMigration } from './noteable-words';
import { issueRootScopesMigration } from './issue-root-scopes';
import { upvoteCountsMigration } from './upvote-counts';
import { noteableCountsMigration } from './noteable-counts';
import { epicHintsMigration } from './epic-hints';
import { noteKeysetIndexesMigration } from './note-keyset-indexes';

/** gl_discussions's steps, oldest first; a release that changes indexes or document shapes appends one. */
export const DISCUSSIONS_MIGRATIONS: readonly Migration[] = [
  declaredIndexesMigration(),
  labelFieldsMigration(2),
  labelKeyWordsMigration(3),
  listIndexKeysMigration(4),
  assigneeKeyWordsMigration(5),
  milestoneDueMigration(6),
  noteableWordsMigration(7),
  issueRootScopesMigration(8),
  upvoteCountsMigration(9),
  noteableCountsMigration(10),
  epicHintsMigration(11),
  noteKeysetIndexesMigration(12),
];
