import type { AnyBulkWriteOperation, Document } from 'mongodb';
import type { Migration } from '@gl/service-kit';
import { labelKeyWords } from '../noteable-documents';

const BATCH = 500;

/**
 * Fills `labelKeys` (the board columns' label words) on noteables written before it existed. Idempotent:
 * it only touches documents without `labelKeys`, found by its index.
 */
export function labelKeyWordsMigration(version: number): Migration {
  return {
    version,
    name: 'noteables: labelKeys (label keys as words) beside labels',
    async up(connection) {
      const noteables = connection.collection('noteables');
      for (;;) {
        const batch = await noteables
          .find({ labelKeys: null }, { projection: { labels: 1 } })
          .limit(BATCH)
          .toArray();
        if (batch.length === 0) return;
        const updates: AnyBulkWriteOperation<Document>[] = batch.map((doc) => ({
          updateOne: {
            filter: { _id: doc._id },
            update: {
              $set: { labelKeys: labelKeyWords(Array.isArray(doc.labels) ? (doc.labels as string[]) : []) },
            },
          },
        }));
        await noteables.bulkWrite(updates, { ordered: false });
      }
    },
  };
}
