import { dropIndexesIfPresent, type Migration } from '@gl/service-kit';

const REPLACED = 'projectId_1_targetType_1_action_1__id_-1';

/**
 * A project's `target_type` list reads `activities` along `{projectId, targetType, _id}`; the index it had,
 * `{projectId, targetType, action, _id}`, made the database read and sort every matching event to find a
 * page. Builds the new index, then drops the old one (idempotent: both steps check first).
 */
export function activityTargetIndexMigration(version: number): Migration {
  return {
    version,
    name: 'activities: {projectId, targetType, _id} replaces {projectId, targetType, action, _id}',
    async up(connection, logger) {
      const activities = connection.collection('activities');
      const started = Date.now();
      await activities.createIndex({ projectId: 1, targetType: 1, _id: -1 });
      await dropIndexesIfPresent(activities, [REPLACED]);
      logger.info({ ms: Date.now() - started }, 'activities: target_type index replaced');
    },
  };
}
