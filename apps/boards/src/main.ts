import { runService } from '@gl/service-kit';
import { createBoardsApp, SERVICE_NAME } from './app';

void runService({
  name: SERVICE_NAME,
  database: 'gl_boards',
  createApp: (runtime) => createBoardsApp(runtime),
});
