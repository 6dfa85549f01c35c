import { declaredIndexesMigration, type Migration } from '@gl/service-kit';
import { boardParentsMigration } from './board-parents';
import { milestoneDefinitionsMigration } from './milestone-definitions';
import { labelDefinitionsMigration } from './label-definitions';

/** gl_boards's steps, oldest first; a release that changes indexes or document shapes appends one. */
export const BOARDS_MIGRATIONS: readonly Migration[] = [
  declaredIndexesMigration(),
  // Iterations and their cadences (GET/POST /groups/:id/iterations, iteration lists).
  declaredIndexesMigration(2),
  // Every milestone published as gl.boards.milestone.defined, for the copies of its state and dates.
  milestoneDefinitionsMigration(3),
  // Project labels (/projects/:id/labels): the project_labels collection and its indexes.
  declaredIndexesMigration(4),
  // Project boards (/projects/:id/boards): every board names its parent, indexed by it.
  boardParentsMigration(5),
  // Every label published as gl.boards.label.defined, for discussions' label copies.
  labelDefinitionsMigration(6),
];
