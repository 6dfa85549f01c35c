import { declaredIndexesMigration, type Migration } from '@gl/service-kit';

/** gl_alerts's steps, oldest first; a release that changes indexes or document shapes appends one. */
export const ALERTS_MIGRATIONS: readonly Migration[] = [declaredIndexesMigration()];
