import {
  createCounters,
  createRuntimeHttpApp,
  type ServiceInstance,
  type ServiceRuntime,
} from '@gl/service-kit';
import { createBoardsModels } from './boards.models';
import { createBoardsRouter } from './boards.router';
import { BoardsService } from './boards.service';
import { createLabelsRouter } from './labels.router';
import { createMilestonesRouter } from './milestones.router';
import { createUsersSubscription } from './users.projection';

export const SERVICE_NAME = 'boards';

/**
 * Composes the boards service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database.
 */
export function createBoardsApp(runtime: ServiceRuntime): ServiceInstance & { boards: BoardsService } {
  const models = createBoardsModels(runtime.connection);
  runtime.outbox.register(models.milestones);
  const counters = createCounters(runtime.connection);
  const boards = new BoardsService(models, counters);
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    apiRouters: [
      createLabelsRouter(models, counters, boards),
      createMilestonesRouter(models, counters, runtime.outbox),
      createBoardsRouter(boards),
    ],
  });
  return { app, boards, subscriptions: [createUsersSubscription(models)] };
}
