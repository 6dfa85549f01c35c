import type { Model } from 'mongoose';
import type { ProjectDoc } from './events.models';

/** The activity log's own fields on the project projection (the identity projection writes the rest). */
export function createProjectsStore(projects: Model<ProjectDoc>) {
  return {
    /** Remembers the request that created the project (its creator's owner membership is not `joined`). */
    async recordCreatingRequest(projectId: number, correlationId: string | null): Promise<void> {
      await projects.updateOne({ _id: projectId }, { $set: { createdCorrelationId: correlationId } });
    },

    async creatingRequest(projectId: number): Promise<string | null | undefined> {
      const found = await projects
        .findOne({ _id: projectId })
        .select({ createdCorrelationId: 1 })
        .lean<Pick<ProjectDoc, 'createdCorrelationId'>>();
      return found?.createdCorrelationId;
    },
  };
}

export type ProjectsStore = ReturnType<typeof createProjectsStore>;
