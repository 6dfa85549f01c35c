import { runService } from '@gl/service-kit';
import { createBoardsApp, SERVICE_NAME } from './app';
import { BOARDS_MIGRATIONS } from './migrations';

void runService({
  name: SERVICE_NAME,
  database: 'gl_boards',
  migrations: BOARDS_MIGRATIONS,
  createApp: (runtime) => createBoardsApp(runtime),
});
