import { declaredIndexesMigration, type Migration } from '@gl/service-kit';

/** gl_notifications's steps, oldest first; a release that changes indexes or document shapes appends one. */
export const NOTIFICATIONS_MIGRATIONS: readonly Migration[] = [declaredIndexesMigration()];
