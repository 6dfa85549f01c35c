import { backfillMissing, declaredIndexesMigration, type Migration } from '@gl/service-kit';

/**
 * Names the parent of every board made before project boards existed (all of them group boards):
 * `parentKind: 'group'` and `parentId` its `groupId`, after creating the index the lists by parent use (the
 * boards without a parent are then found through its prefix). A board already named is never read again,
 * so a step killed half-way resumes.
 */
export function boardParentsMigration(version: number): Migration {
  return {
    version,
    name: 'boards: parentKind and parentId on group boards, and their index',
    async up(connection, logger) {
      await declaredIndexesMigration(version).up(connection, logger);
      const named = await backfillMissing(
        connection.collection('boards'),
        'parentKind',
        { groupId: 1 },
        (doc) => ({ parentKind: 'group', parentId: doc.groupId as number }),
      );
      logger.info({ named }, 'boards: parents named');
    },
  };
}
