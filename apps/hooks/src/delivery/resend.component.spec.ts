import { randomUUID } from 'node:crypto';
import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import { MAINTAINER, useHarness } from '@gl/testing';
import { fakeDiscussions, testIssue } from '../payloads/fake-discussions.test-helpers';
import { projectNamespace, startHooksHarness } from '../testing/hooks.harness';
import { iidOf, startReceiver, type Receiver, type ReceiverAnswer } from '../testing/receiver';
import type { HookDoc } from '../hooks.models';
import { NOTHING_TO_RESEND, URL_CHANGED } from './hook-log.service';
import { UNBUILT_PAYLOAD } from './delivery.store';
import { discussionsEvent } from './delivery.test-helpers';

/**
 * lib/api/hooks/resend_hook.rb with WebHooks::Events::ResendService: the resent request's code whatever it
 * is, 422 with the error when no answer came, 422 when the hook's URL changed; here also null when the copy
 * waits behind an earlier delivery's retry. A receiver on 127.0.0.1 answers as each test says.
 */
describe('Resending a logged delivery', () => {
  const source = fakeDiscussions();
  const h = useHarness(() =>
    startHooksHarness(
      {
        ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES: true,
        GITLAB_EXTERNAL_URL: 'http://gl.test',
        HOOKS_TIMEOUT_MS: 8_000,
        HOOKS_RETRY_BASE_MS: 60_000,
      },
      source,
    ),
  );
  let receiver: Receiver;
  /** What the receiver answers the delivery of each issue. */
  let answer: (iid: number) => ReceiverAnswer;
  /** Each request's issue and Idempotency-Key, in arrival order. */
  const received = () =>
    receiver.received.map((r) => ({
      iid: iidOf(r)!,
      key: r.headers['idempotency-key'] as string | undefined,
    }));

  beforeAll(async () => {
    receiver = await startReceiver();
  });

  afterAll(() => receiver.close());

  beforeEach(() => {
    receiver.reset();
    answer = () => ({ status: 200 });
    receiver.answer = (request) => answer(iidOf(request)!);
  });

  /** A project hook with one delivered issue per iid given, in order; its events URL. */
  async function hookWithDeliveries(iids: number[]) {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/hooks`, {
      ns,
      as: MAINTAINER,
      json: { url: `http://loop.example.com:${receiver.port}/receive`, issues_events: true },
    });
    expect(created.status).toBe(201);
    const hookId = (created.body as { id: number }).id;
    const subscription = h.instance.subscriptions!.find((s) => s.durable === 'hooks-delivery')!;
    for (const iid of iids) {
      source.issues.set(`${ns.id}:${iid}`, testIssue(ns.id, iid));
      await subscription.handle(
        discussionsEvent(DOMAIN_EVENT_TYPES.discussions.issueOpened, ns.id, {
          targetId: ns.id * 1000 + iid,
          targetIid: iid,
          targetTitle: `Issue ${iid}`,
        }),
      );
    }
    await h.instance.delivery.sender.runOnce();
    const logs = await h.instance.delivery.store.ofHook(hookId);
    const resend = (logId: number) =>
      h.call('POST', `/projects/${ns.id}/hooks/${hookId}/events/${logId}/resend`, { ns, as: MAINTAINER });
    return { ns, hookId, logs, resend };
  }

  it('When the receiver answers slowly, then the resend waits for it past the old 4 s cap and gives its code', async () => {
    const { logs, resend } = await hookWithDeliveries([1]);
    answer = () => ({ status: 200, delayMs: 4_500 });
    const started = Date.now();
    const resent = await resend(logs[0]!._id);
    expect(resent).toMatchObject({ status: 201, body: { response_status: 200 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(received().map((r) => r.key)).toEqual([logs[0]!.idempotencyKey, logs[0]!.idempotencyKey]);
  });

  it('When the receiver answers 500, then the resend is 201 with that code, as WebHookService#execute answers', async () => {
    const { logs, resend, hookId } = await hookWithDeliveries([1]);
    answer = () => ({ status: 500 });
    expect(await resend(logs[0]!._id)).toMatchObject({ status: 201, body: { response_status: 500 } });
    const copy = (await h.instance.delivery.store.ofHook(hookId))[1]!;
    // Ours goes on: the copy is retried like any delivery.
    expect(copy).toMatchObject({ status: 'queued', attempts: 1, last: { responseStatus: '500' } });
  });

  it('When the receiver hangs up, then the resend is 422 with the error, and the copy stays queued', async () => {
    const { logs, resend, hookId } = await hookWithDeliveries([1]);
    answer = () => 'hang-up';
    const resent = await resend(logs[0]!._id);
    expect(resent.status).toBe(422);
    expect((resent.body as { message: string }).message).toMatch(/socket hang up|ECONNRESET/);
    const copy = (await h.instance.delivery.store.ofHook(hookId))[1]!;
    expect(copy).toMatchObject({ status: 'queued', last: { responseStatus: 'internal error' } });
  });

  it('When the hook’s URL changed since, then the resend is 422 and nothing is sent', async () => {
    const { ns, hookId, logs, resend } = await hookWithDeliveries([1]);
    const moved = await h.call('PUT', `/projects/${ns.id}/hooks/${hookId}`, {
      ns,
      as: MAINTAINER,
      json: { url: `http://loop.example.com:${receiver.port}/elsewhere` },
    });
    expect(moved.status).toBe(200);
    expect(await resend(logs[0]!._id)).toMatchObject({ status: 422, body: { message: URL_CHANGED } });
    expect(received()).toHaveLength(1);
    expect(await resend(999_999_999)).toMatchObject({ status: 404 });
  });

  it('When the logged delivery was given up before its payload could be built, then the resend is 422 and nothing is sent', async () => {
    const { ns, hookId, resend } = await hookWithDeliveries([]);
    await h.instance.delivery.store.queue(
      [
        {
          hook: { _id: hookId } as HookDoc,
          eventId: randomUUID(),
          sequence: 1,
          trigger: 'issue_hooks',
          eventName: 'Issue Hook',
          payload: UNBUILT_PAYLOAD,
          givenUp: 'payload could not be built: discussions answered 500',
        },
      ],
      new Date(),
      60_000,
    );
    const [given] = await h.instance.delivery.store.ofHook(hookId);
    expect(given).toMatchObject({ status: 'failed', payload: 'null' });
    expect(await resend(given!._id)).toMatchObject({ status: 422, body: { message: NOTHING_TO_RESEND } });
    const log = await h.call('GET', `/projects/${ns.id}/hooks/${hookId}/events`, { ns, as: MAINTAINER });
    expect(log.body).toMatchObject([{ id: given!._id, request_data: null, status: 'failed' }]);
    expect(received()).toEqual([]);
  });

  it('When an earlier delivery waits for its retry, then the resend keeps the hook’s order and answers null at once', async () => {
    answer = (iid) => ({ status: iid === 2 ? 500 : 200 });
    const { hookId, logs, resend } = await hookWithDeliveries([1, 2]);
    expect(logs.map((log) => log.status)).toEqual(['delivered', 'queued']);
    const started = Date.now();
    expect(await resend(logs[0]!._id)).toMatchObject({ status: 201, body: { response_status: null } });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(received().map((r) => r.iid)).toEqual([1, 2]);
    const copy = (await h.instance.delivery.store.ofHook(hookId))[2]!;
    expect(copy).toMatchObject({ status: 'queued', attempts: 0, idempotencyKey: logs[0]!.idempotencyKey });
  });
});
