import type { mongo } from 'mongoose';
import { reportingMigration, type Migration } from '@gl/service-kit';
import type { LabelDoc } from '../boards.models';
import type { ProjectLabelDoc } from '../labels/project-labels.model';
import { labelDefinedEvent, type LabelParent } from '../labels/label-definitions';
import { publishFirstRevisions } from './first-revisions';

/** Each collection of labels with where its labels live. */
const COLLECTIONS: { name: string; parentOf: (doc: mongo.Document) => LabelParent }[] = [
  { name: 'labels', parentOf: (doc) => ({ groupId: (doc as LabelDoc).groupId }) },
  { name: 'project_labels', parentOf: (doc) => ({ projectId: (doc as ProjectLabelDoc).projectId }) },
];

/**
 * Publishes `gl.boards.label.defined` (revision 1) for every group and project label written before the
 * event existed, so discussions' copies learn them (renames reaching issues, labels shown in full);
 * first-revisions.ts: resumable, each event on its label's write.
 */
export function labelDefinitionsMigration(version: number): Migration {
  return reportingMigration(
    version,
    'labels: publish each one as gl.boards.label.defined (revision 1)',
    'labels: definitions published',
    async (connection) => {
      let published = 0;
      for (const { name, parentOf } of COLLECTIONS) {
        published += await publishFirstRevisions(connection.collection(name), (doc) =>
          labelDefinedEvent(doc as unknown as LabelDoc, parentOf(doc)),
        );
      }
      return { published };
    },
  );
}
