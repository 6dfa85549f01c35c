import type { Connection, Model } from 'mongoose';
import { addOutboxFields, defineModel, documentSchema } from '@gl/service-kit';
import { LABEL_FIELDS, type LabelFields } from '../boards.models';

/**
 * A project's own label (ProjectLabel, app/models/project_label.rb). Ids come from the same `label`
 * counter as group labels, so an id names one label of either kind (subscriptions, lookups by id).
 */
export interface ProjectLabelDoc extends LabelFields {
  projectId: number;
  /**
   * The project's group when the project's labels were last written (null in a user namespace): the
   * labels a promotion to that group merges (Labels::PromoteService, LabelsFinder by group_id).
   */
  groupId: number | null;
  /** The project's priority of the label (LabelPriority), null when it has none. */
  priority: number | null;
}

export function createProjectLabelsModel(connection: Connection): Model<ProjectLabelDoc> {
  const schema = documentSchema<ProjectLabelDoc>({
    ...LABEL_FIELDS,
    projectId: Number,
    groupId: { type: Number, default: null },
  });
  // A title is unique within its project (Label's uniqueness validation), and the list is by title.
  schema.index({ projectId: 1, name: 1 }, { unique: true });
  // A promotion finds the same-titled labels of the group's projects.
  schema.index({ groupId: 1, name: 1 });
  addOutboxFields(schema);
  return defineModel(connection, 'ProjectLabel', schema, 'project_labels');
}
