import type { mongo } from 'mongoose';
import type { Migration } from '@gl/service-kit';
import { drainBatches, pushEvents } from '@gl/service-kit';
import type { LabelDoc } from '../boards.models';
import type { ProjectLabelDoc } from '../labels/project-labels.model';
import { labelDefinedEvent, type LabelParent } from '../labels/label-definitions';

/** Labels read, and published, per batch. */
const BATCH = 500;

/** Each collection of labels with where its labels live. */
const COLLECTIONS: { name: string; parentOf: (doc: mongo.Document) => LabelParent }[] = [
  { name: 'labels', parentOf: (doc) => ({ groupId: (doc as LabelDoc).groupId }) },
  { name: 'project_labels', parentOf: (doc) => ({ projectId: (doc as ProjectLabelDoc).projectId }) },
];

/**
 * Publishes `gl.boards.label.defined` (revision 1) for every group and project label written before the
 * event existed, so discussions' copies learn them (renames reaching issues, labels shown in full). Each
 * event rides on its label's own write (the outbox relays it once the service runs); a label already at
 * a revision is never read again, so a step killed half-way resumes.
 */
export function labelDefinitionsMigration(version: number): Migration {
  return {
    version,
    name: 'labels: publish each one as gl.boards.label.defined (revision 1)',
    async up(connection, logger) {
      const started = Date.now();
      let published = 0;
      for (const { name, parentOf } of COLLECTIONS) {
        const labels = connection.collection(name);
        published += await drainBatches(labels, { revision: null }, { batchSize: BATCH }, async (batch) => {
          await labels.bulkWrite(
            batch.map((doc): mongo.AnyBulkWriteOperation<mongo.Document> => {
              const label = { ...(doc as unknown as LabelDoc), revision: 1 };
              return {
                updateOne: {
                  filter: { _id: doc._id, revision: null },
                  update: pushEvents({ $set: { revision: 1 } }, [
                    labelDefinedEvent(label, parentOf(doc)),
                  ]) as mongo.Document,
                },
              };
            }),
            { ordered: false },
          );
        });
      }
      logger.info({ ms: Date.now() - started, published }, 'labels: definitions published');
    },
  };
}
