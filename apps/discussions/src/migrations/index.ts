import { declaredIndexesMigration, type Migration } from '@gl/service-kit';
import { labelFieldsMigration } from './label-fields';
import { labelKeyWordsMigration } from './label-key-words';

/** gl_discussions's steps, oldest first; a release that changes indexes or document shapes appends one. */
export const DISCUSSIONS_MIGRATIONS: readonly Migration[] = [
  declaredIndexesMigration(),
  labelFieldsMigration(2),
  labelKeyWordsMigration(3),
];
