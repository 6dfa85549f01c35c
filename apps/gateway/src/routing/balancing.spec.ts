import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@gl/service-kit';
import { listen, type TestServer } from '@gl/testing';
import { createServiceProxy } from './proxy';
import { servicesReady } from './readiness';

/** A replica that counts what it received and answers with its own name. */
interface Replica {
  name: string;
  url: string;
  received: string[];
  server: Server;
}

async function startReplica(name: string): Promise<Replica> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ replica: name }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { name, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A port nothing listens on: a replica that is down. */
const DOWN = 'http://127.0.0.1:1';

function gatewayOver(targets: string[]): Promise<TestServer> {
  const app = express();
  app.use((req, _res, next) => {
    req.id = 'balancing-test';
    next();
  });
  app.use(createServiceProxy(targets, createLogger('balancing-test', 'silent')));
  return listen(app);
}

describe('gateway proxy to a service with several replicas', () => {
  let a: Replica;
  let b: Replica;
  const gateways: TestServer[] = [];

  beforeAll(async () => {
    a = await startReplica('a');
    b = await startReplica('b');
  });
  beforeEach(() => {
    a.received.length = 0;
    b.received.length = 0;
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await closeServer(a.server);
    await closeServer(b.server);
  });

  it('When requests come in, then both replicas receive them in turn', async () => {
    const gateway = await gatewayOver([a.url, b.url]);
    gateways.push(gateway);
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${gateway.url}/items/${i}`, {
        method: i % 2 ? 'POST' : 'GET',
        body: i % 2 ? '{}' : undefined,
      });
      answers.push(((await response.json()) as { replica: string }).replica);
    }
    expect(answers).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    expect(a.received).toEqual(['GET /items/0', 'GET /items/2', 'GET /items/4']);
    expect(b.received).toEqual(['POST /items/1', 'POST /items/3', 'POST /items/5']);
  });

  it('When concurrent requests come in, then they are spread evenly', async () => {
    const gateway = await gatewayOver([a.url, b.url]);
    gateways.push(gateway);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => fetch(`${gateway.url}/c/${i}`).then((r) => r.text())),
    );
    expect(a.received).toHaveLength(20);
    expect(b.received).toHaveLength(20);
  });

  it('When one replica is down, then its share answers 502 and is not retried on the other', async () => {
    const gateway = await gatewayOver([a.url, DOWN]);
    gateways.push(gateway);
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${gateway.url}/w/${i}`, { method: 'POST', body: '{}' });
      statuses.push(response.status);
      if (response.status === 502) expect(await response.json()).toEqual({ message: '502 Bad Gateway' });
      else await response.text();
    }
    expect(statuses).toEqual([200, 502, 200, 502]);
    expect(a.received).toEqual(['POST /w/0', 'POST /w/2']);
  });

  it('When readiness is checked, then every replica is asked and a down one is named', async () => {
    expect(await servicesReady({ boards: [a.url], events: [a.url, b.url] })).toEqual({
      boards: true,
      'events#1': true,
      'events#2': true,
    });
    expect(await servicesReady({ events: [a.url, DOWN] })).toEqual({
      'events#1': true,
      'events#2': false,
    });
    expect(a.received.filter((line) => line === 'GET /-/readiness')).toHaveLength(3);
  });
});
