import { declaredIndexesMigration, type Migration } from '@gl/service-kit';
import { activityTargetIndexMigration } from './activity-target-index';
import { ingestedTimestampsMigration } from './ingested-timestamps';
import { oneActivityLogMigration } from './one-activity-log';

/** gl_events's steps, oldest first; a release that changes indexes or document shapes appends one. */
export const EVENTS_MIGRATIONS: readonly Migration[] = [
  declaredIndexesMigration(),
  activityTargetIndexMigration(2),
  ingestedTimestampsMigration(3),
  oneActivityLogMigration(4),
];
