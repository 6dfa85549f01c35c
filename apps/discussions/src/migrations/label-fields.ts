import type { AnyBulkWriteOperation, Document } from 'mongodb';
import type { Migration } from '@gl/service-kit';
import { labelFields } from '../noteable-documents';

const BATCH = 500;

/**
 * Fills `labelSet` and `labelCount` (what the list filters read) on noteables written before they
 * existed. Idempotent: it only touches documents without `labelCount`, found by its index.
 */
export function labelFieldsMigration(version: number): Migration {
  return {
    version,
    name: 'noteables: labelSet and labelCount beside labels',
    async up(connection) {
      const noteables = connection.collection('noteables');
      for (;;) {
        const batch = await noteables
          .find({ labelCount: null }, { projection: { labels: 1 } })
          .limit(BATCH)
          .toArray();
        if (batch.length === 0) return;
        const updates: AnyBulkWriteOperation<Document>[] = batch.map((doc) => ({
          updateOne: {
            filter: { _id: doc._id },
            update: { $set: labelFields(Array.isArray(doc.labels) ? (doc.labels as string[]) : []) },
          },
        }));
        await noteables.bulkWrite(updates, { ordered: false });
      }
    },
  };
}
