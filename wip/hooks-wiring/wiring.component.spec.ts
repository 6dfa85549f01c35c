import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import { MAINTAINER, eventually, useHarness } from '@gl/testing';
import { fakeDiscussions, testIssue } from '../payloads/fake-discussions.test-helpers';
import { projectNamespace, startHooksHarness } from '../testing/hooks.harness';

describe('Hook delivery in the hooks service', () => {
  const source = fakeDiscussions();
  const h = useHarness(() =>
    startHooksHarness(
      {
        ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES: true,
        HOOKS_SENDER_POLL_MS: 50,
        GITLAB_EXTERNAL_URL: 'http://gl.test',
      },
      source,
    ),
  );
  const received: { host: string | undefined; headers: IncomingHttpHeaders; body: unknown }[] = [];
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          host: req.headers.host,
          headers: req.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
        });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('When a hook added through the API names a host, then the started sender posts the issue to the address it checked', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/hooks`, {
      ns,
      as: MAINTAINER,
      json: { url: `http://loop.example.com:${port}/receive`, token: 'tok', issues_events: true },
    });
    expect(created.status).toBe(201);
    source.issues.set(`${ns.id}:1`, testIssue(ns.id, 1));
    const subscription = h.instance.subscriptions!.find((s) => s.durable === 'hooks-delivery')!;
    h.instance.start!();
    try {
      await subscription.handle({
        id: randomUUID(),
        type: DOMAIN_EVENT_TYPES.discussions.issueOpened,
        version: 1,
        occurredAt: new Date().toISOString(),
        producer: 'discussions',
        correlationId: null,
        actor: { id: 2, username: 'user2', name: 'User 2' },
        projectId: ns.id,
        groupId: null,
        data: { targetId: ns.id * 1000 + 1, targetIid: 1, targetTitle: 'Issue 1' },
      });
      const got = await eventually(
        async () => received,
        (list) => list.length > 0,
      );
      expect(got).toHaveLength(1);
      expect(got[0]!.host).toBe(`loop.example.com:${port}`);
      expect(got[0]!.headers).toMatchObject({ 'x-gitlab-event': 'Issue Hook', 'x-gitlab-token': 'tok' });
      expect(got[0]!.body).toMatchObject({ object_kind: 'issue', object_attributes: { iid: 1, action: 'open' } });
    } finally {
      await h.instance.stop!();
    }
  });
});
