import { declaredIndexesMigration, type Migration } from '@gl/service-kit';

/** gl_hooks's steps, oldest first; a release that changes indexes or document shapes appends one. */
export const HOOKS_MIGRATIONS: readonly Migration[] = [declaredIndexesMigration()];
