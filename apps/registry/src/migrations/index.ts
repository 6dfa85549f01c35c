import { declaredIndexesMigration, type Migration } from '@gl/service-kit';

/**
 * gl_registry's steps, oldest first; a release that changes indexes or document shapes appends one. The
 * service and its worker share the database and both apply them (the lock lets one of them do it).
 */
export const REGISTRY_MIGRATIONS: readonly Migration[] = [declaredIndexesMigration()];
