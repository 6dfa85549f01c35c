import { BOARDS_ENDPOINTS } from '@gl/contracts';
import {
  createCounters,
  createRuntimeHttpApp,
  type ServiceInstance,
  type ServiceRuntime,
} from '@gl/service-kit';
import {
  createBoardDefinitions,
  createBoardDefinitionsModel,
  publishingBoards,
  publishingLabels,
  publishingProjectLabels,
} from './boards/board-definitions';
import { createBoardsModels } from './boards.models';
import { createBoardsRouter } from './boards/boards.router';
import { createBoardsService, createBoardsStores, type BoardsService } from './boards/boards.service';
import { createIterationsRouter } from './iterations/iterations.router';
import { createIterationsService } from './iterations/iterations.service';
import { createLabelsRouter } from './labels/labels.router';
import { createLabelsService } from './labels/labels.service';
import { createLabelSubscriptions } from './labels/label-subscriptions';
import { createLabelSubscriptionsRouter } from './labels/label-subscriptions.router';
import { createProjectLabelsModel } from './labels/project-labels.model';
import { createProjectLabelsRouter } from './labels/project-labels.router';
import { createProjectLabelsService } from './labels/project-labels.service';
import { createProjectLabelsStore } from './labels/project-labels.store';
import { createMilestonesRouter } from './milestones/milestones.router';
import { createMilestonesService } from './milestones/milestones.service';
import { createProjectMilestonesModel } from './milestones/project-milestones.model';
import { createProjectMilestonesRouter } from './milestones/project-milestones.router';
import { createProjectMilestonesService } from './milestones/project-milestones.service';
import { createProjectMilestonesStore } from './milestones/project-milestones.store';
import { createUsersSubscription } from './users/users.projection';

export const SERVICE_NAME = 'boards';

/**
 * Composes the boards service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database.
 */
export function createBoardsApp(runtime: ServiceRuntime): ServiceInstance & { boards: BoardsService } {
  const models = createBoardsModels(runtime.connection);
  runtime.outbox.register(models.milestones);
  const definitionsModel = createBoardDefinitionsModel(runtime.connection);
  runtime.outbox.register(definitionsModel);
  const definitions = createBoardDefinitions(
    models,
    definitionsModel,
    runtime.outbox,
    createProjectLabelsModel(runtime.connection),
  );
  const counters = createCounters(runtime.connection);
  const projectMilestonesModel = createProjectMilestonesModel(runtime.connection);
  runtime.outbox.register(projectMilestonesModel);
  const projectLabelsModel = createProjectLabelsModel(runtime.connection);
  // Labels carry their definitions (`gl.boards.label.defined`) in their own writes.
  runtime.outbox.register(models.labels);
  runtime.outbox.register(projectLabelsModel);
  const stores = createBoardsStores(models, counters, runtime.outbox, {
    projectLabels: createProjectLabelsStore(projectLabelsModel, models.labels, counters, runtime.outbox),
    projectMilestones: createProjectMilestonesStore(
      projectMilestonesModel,
      models.milestones,
      counters,
      runtime.outbox,
    ),
  });
  const boards = publishingBoards(createBoardsService(stores), definitions);
  const labels = publishingLabels(createLabelsService(stores.labels, boards), definitions);
  const milestones = createMilestonesService(stores.milestones, runtime.outbox);
  const projectMilestones = createProjectMilestonesService(
    stores.projectMilestones,
    milestones,
    runtime.outbox,
    boards,
  );
  const labelSubscriptions = createLabelSubscriptions(runtime.connection);
  const projectLabels = publishingProjectLabels(
    createProjectLabelsService(stores.projectLabels, stores.labels, labelSubscriptions, boards),
    definitions,
  );
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    apiRouters: [
      createLabelsRouter(labels, labelSubscriptions),
      createLabelSubscriptionsRouter(labels, labelSubscriptions),
      createProjectLabelsRouter(projectLabels, labelSubscriptions),
      createMilestonesRouter(milestones),
      createProjectMilestonesRouter(projectMilestones),
      createIterationsRouter(createIterationsService(stores.iterations)),
      createBoardsRouter(boards),
    ],
    serves: BOARDS_ENDPOINTS,
  });
  let stopped = false;
  let backfilling: Promise<unknown> = Promise.resolve();
  return {
    app,
    boards,
    subscriptions: [createUsersSubscription(models)],
    // Boards made before their definitions were published get theirs once, in the background.
    start: () => {
      backfilling = definitions
        .backfill(() => stopped)
        .then(
          (count) => count > 0 && runtime.logger.info({ count }, 'board definitions published'),
          (err: unknown) => runtime.logger.error({ err }, 'board definitions: backfill failed'),
        );
    },
    stop: async () => {
      stopped = true;
      await backfilling;
    },
  };
}
