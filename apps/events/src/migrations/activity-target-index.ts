import { replacedIndexesMigration, type Migration } from '@gl/service-kit';

/**
 * A project's `target_type` list reads `activities` along `{projectId, targetType, _id}`; the index it had,
 * `{projectId, targetType, action, _id}`, made the database read and sort every matching event to find a
 * page. Builds the new index, then drops the old one.
 */
export function activityTargetIndexMigration(version: number): Migration {
  return replacedIndexesMigration(version, {
    name: 'activities: {projectId, targetType, _id} replaces {projectId, targetType, action, _id}',
    done: 'activities: target_type index replaced',
    collection: 'activities',
    index: { projectId: 1, targetType: 1, _id: -1 },
    replaced: ['projectId_1_targetType_1_action_1__id_-1'],
  });
}
