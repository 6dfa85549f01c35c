import { Router } from 'express';
import { z } from 'zod';
import { defineEndpoints, byOperationId } from '@gl/contracts';
import { listen, signedContextHeader, type TestServer } from '@gl/testing';
import { createLogger, createMetrics } from '../index';
import { ForbiddenError, NotFoundError } from '../errors';
import { sendJson } from './json';
import { expressPath, route, routedOperations } from './route';
import { createServiceHttpApp } from './service-app';

const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

const API = byOperationId(
  defineEndpoints('boards', [
    {
      method: 'PUT',
      path: '/groups/{id}/things/{thing_id}',
      alsoAt: '/groups/{id}/stuff/{thing_id}',
      operationId: 'updateThing',
      summary: 'Update a thing',
      tags: ['things'],
      auth: 'token',
      params: z.object({ thing_id: z.coerce.number().int(), name: z.string().max(3) }),
      response: { status: 200, description: 'Thing' },
    },
    {
      method: 'POST',
      path: '/groups/{id}/things/{thing_id}/rename',
      operationId: 'renameThing',
      summary: 'Found before its body is read',
      tags: ['things'],
      auth: 'token',
      params: z
        .object({ thing_id: z.coerce.number().int(), name: z.string() })
        .refine((p) => p.name.length <= 3, { message: 'name is too long', path: ['name'] }),
      response: { status: 200, description: 'Thing' },
    },
    {
      method: 'GET',
      path: '/secret',
      operationId: 'getSecret',
      summary: 'Refused before its params are read',
      tags: ['things'],
      auth: 'token',
      params: z.object({ name: z.string() }),
      response: { status: 200, description: 'Secret' },
    },
  ]),
);

describe('route(router, contract, handler)', () => {
  let server: TestServer;
  const router = Router();

  beforeAll(async () => {
    route(router, API.updateThing, async ({ res, params }) => {
      const { thing_id, name } = params();
      sendJson(res, 200, { thing_id, name });
    });
    route(router, API.renameThing, async ({ res, params, pathParams }) => {
      const { thing_id } = pathParams();
      if (thing_id !== 7) throw new NotFoundError('Thing');
      sendJson(res, 200, { path: pathParams(), params: params() });
    });
    route(router, API.getSecret, async () => {
      throw new ForbiddenError();
    });
    const app = createServiceHttpApp({
      name: 'route-test',
      logger: createLogger('route-test', 'silent'),
      metrics: createMetrics('route-test'),
      contextSecret: SECRET,
      readiness: async () => ({}),
      apiRouters: [router],
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { ...signedContextHeader(), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('When a contract path has template parameters, then Express gets them as :params', () => {
    expect(expressPath('/groups/{id}/boards/{board_id}/lists')).toBe('/groups/:id/boards/:board_id/lists');
  });

  it('When called at the contract path, then the handler gets the params parsed from path and body', async () => {
    const response = await call('PUT', '/groups/1/things/7', { name: 'abc' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ thing_id: 7, name: 'abc' });
  });

  it('When called at the alsoAt path, then the same handler answers', async () => {
    const response = await call('PUT', '/groups/1/stuff/8', { name: 'x' });
    expect(await response.json()).toEqual({ thing_id: 8, name: 'x' });
  });

  it('When a parameter breaks the contract, then 400 and the handler sends nothing else', async () => {
    const response = await call('PUT', '/groups/1/things/7', { name: 'too long' });
    expect(response.status).toBe(400);
  });

  it('When a handler reads the path alone, then it gets the declared path params, parsed', async () => {
    const response = await call('POST', '/groups/1/things/7/rename', { name: 'abc' });
    expect(await response.json()).toEqual({ path: { thing_id: 7 }, params: { thing_id: 7, name: 'abc' } });
  });

  it('When the path names no record, then its 404 comes before the broken body', async () => {
    const response = await call('POST', '/groups/1/things/8/rename', { name: 'too long' });
    expect(response.status).toBe(404);
    expect((await call('POST', '/groups/1/things/7/rename', { name: 'too long' })).status).toBe(400);
  });

  it('When a path parameter breaks its contract schema, then 400 names it', async () => {
    const response = await call('POST', '/groups/1/things/x/rename', { name: 'too long' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'thing_id is invalid' });
  });

  it('When the handler refuses before reading params, then its refusal wins over invalid params', async () => {
    const response = await call('GET', '/secret');
    expect(response.status).toBe(403);
  });

  it('When another method reaches a contract path, then it is not routed', async () => {
    expect((await call('DELETE', '/groups/1/things/7')).status).toBe(404);
  });

  it('When asked what is routed, then it names the registered operation ids', () => {
    expect([...routedOperations([router])].sort()).toEqual(['getSecret', 'renameThing', 'updateThing']);
  });

  it('When a service declares endpoints it has no handler for, then it refuses to start and names them', () => {
    const build = (routers: Router[]) => () =>
      createServiceHttpApp({
        name: 'half-done',
        logger: createLogger('half-done', 'silent'),
        metrics: createMetrics('half-done'),
        contextSecret: SECRET,
        readiness: async () => ({}),
        apiRouters: routers,
        serves: [API.updateThing, API.renameThing, API.getSecret],
      });
    const partial = Router();
    route(partial, API.updateThing, async () => undefined);
    route(partial, API.renameThing, async () => undefined);
    expect(build([partial])).toThrow('half-done: no handler registered for GET /secret (getSecret)');
    expect(build([router])).not.toThrow();
  });
});
