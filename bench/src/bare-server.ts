import { fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { readPageRequest, sendJson, setPaginationHeaders } from '@gl/service-kit';

/** Flag that makes the bench binary act as the bare server (target a) instead of the bench. */
export const BARE_SERVER_FLAG = '--bare-server';

/** A small list shaped like GitLab's group boards answer. */
const BOARDS = [1, 2].map((id) => ({
  id,
  name: id === 1 ? 'Development' : 'Release',
  hide_backlog_list: false,
  hide_closed_list: false,
  group: { id: 1, name: 'bench-group', web_url: 'http://localhost/groups/bench-group' },
  milestone: null,
  assignee: null,
  labels: [],
  weight: null,
  lists: [],
}));

/**
 * Target (a): plain Express 5 with no middleware, answering the same path with the same kind of body and
 * GitLab's pagination headers. Runs in its own process so it does not share an event loop with the load
 * generator; reports its port over IPC and exits when the parent goes away.
 */
export function runBareServer(): void {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/api/v4/groups/:id/boards', (req, res) => {
    const page = readPageRequest(req.query);
    setPaginationHeaders(req, res, page, BOARDS.length);
    sendJson(res, 200, BOARDS.slice(page.skip, page.skip + page.perPage));
  });
  const server = app.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
  const close = (): void => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on('SIGTERM', close);
  process.on('disconnect', close);
}

export interface BareServer {
  url: string;
  child: ChildProcess;
}

/** Forks this same script in bare-server mode and waits (bounded) for its port. */
export function startBareServer(script: string): Promise<BareServer> {
  const child = fork(script, [BARE_SERVER_FLAG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('bare Express server did not report its port within 10 s'));
    }, 10_000);
    child.once('message', (msg: { port?: number }) => {
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${msg.port}`, child });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bare Express server exited with code ${String(code)} during start`));
    });
  });
}
