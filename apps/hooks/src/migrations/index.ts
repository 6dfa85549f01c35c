import { declaredIndexesMigration, type Migration } from '@gl/service-kit';
import { deliveryOrderIndexMigration } from './delivery-order-index';

/** gl_hooks's steps, oldest first; a release that changes indexes or document shapes appends one. */
export const HOOKS_MIGRATIONS: readonly Migration[] = [
  declaredIndexesMigration(),
  // Deliveries ordered by their events' stream sequence, resends after it by id.
  deliveryOrderIndexMigration(2),
];
