import { reportingMigration, type Migration } from '@gl/service-kit';
import { compiledDiscussionsModels } from './compiled-models';

const BATCH = 500;

/**
 * `mayHaveEpic` on the issues linked to an epic before the hint was kept (epics/epic-issues.ts): without
 * it their answers would no longer look for their epic. Idempotent.
 */
export function epicHintsMigration(version: number): Migration {
  return reportingMigration(
    version,
    'noteables: mayHaveEpic on the issues linked to an epic',
    'noteables: mayHaveEpic set',
    async (connection) => {
      const { noteables } = compiledDiscussionsModels(connection, 'noteables');
      const links = connection.collection<{ issueId: number }>('epic_issues');
      let hinted = 0;
      let batch: number[] = [];
      const flush = async () => {
        if (batch.length > 0)
          await noteables.updateMany({ _id: { $in: batch } }, { $set: { mayHaveEpic: true } });
        hinted += batch.length;
        batch = [];
      };
      for await (const link of links.find({}, { projection: { issueId: 1 } })) {
        batch.push(link.issueId);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      return { hinted };
    },
  );
}
