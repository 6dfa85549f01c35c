import type { Connection, Model } from 'mongoose';
import { addOutboxFields, defineModel, documentSchema } from '@gl/service-kit';
import { MILESTONE_FIELDS, type MilestoneFields } from '../boards.models';

/**
 * A project's milestone (app/models/milestone.rb with a project_id). Ids come from the same `milestone`
 * counter as group milestones, so an id names one milestone of either kind (an issue's `milestone_id`,
 * discussions' copies keyed by id); iids are per project.
 */
export interface ProjectMilestoneDoc extends MilestoneFields {
  projectId: number;
  /**
   * The project's group when the milestone was last written (null in a user namespace): the milestones a
   * promotion to that group merges (Milestones::PromoteService, `group.projects`).
   */
  groupId: number | null;
  /** `dueDate`, or a day after every date when there is none: GitLab's order, due date ascending nulls last. */
  dueOrder: string;
  /** How many times it was published as `gl.boards.milestone.defined` (its copies keep the highest). */
  revision: number;
}

/** Sorts after every real `YYYY-MM-DD`. */
export const NO_DUE_DATE = '9999-99-99';

export function createProjectMilestonesModel(connection: Connection): Model<ProjectMilestoneDoc> {
  const schema = documentSchema<ProjectMilestoneDoc>({
    ...MILESTONE_FIELDS,
    projectId: Number,
    groupId: { type: Number, default: null },
    dueOrder: String,
  });
  schema.index({ projectId: 1, iid: 1 }, { unique: true });
  // Titles are unique within a project (Milestone#uniqueness_of_title; the group's are checked by reads).
  schema.index({ projectId: 1, title: 1 }, { unique: true });
  // The list's order (MilestonesFinder: due date ascending, nulls last, then title).
  schema.index({ projectId: 1, dueOrder: 1, title: 1, _id: 1 });
  // A promotion finds the same-titled milestones of the group's projects.
  schema.index({ groupId: 1, title: 1 });
  addOutboxFields(schema);
  return defineModel(connection, 'ProjectMilestone', schema, 'project_milestones');
}
