import { randomUUID } from 'node:crypto';
import { DOMAIN_EVENT_TYPES, EVENT_TYPES, rootEvent, type EventEnvelope } from '@gl/contracts';
import { connectBus, createLogger, startConsumer, type Bus, type RunningConsumer } from '@gl/service-kit';
import type { InfraHandle } from '@gl/infra';
import type { RunningStack } from '@gl/launcher';
import { startOwnStack } from './own-stack';

/**
 * Fault tests on a stack of their own (own infrastructure, so crashing the broker disturbs no other
 * suite): an acknowledged write and its domain events survive the broker being down and the writing
 * process being killed before it could publish. Bounded: a handful of requests, waits capped at 30 s.
 */
const ROOT_TOKEN = 'glpat-faults-root-token-0000000000';

describe('faults: nothing acknowledged is lost', () => {
  let infra: InfraHandle;
  let stack: RunningStack;
  let bus: Bus;
  let observer: RunningConsumer;
  const seen = new Map<string, EventEnvelope>();
  /** Event ids delivered per username: a redelivery repeats an id, a duplicate write would add one. */
  const idsByUser = new Map<string, Set<string>>();

  beforeAll(async () => {
    ({ infra, stack } = await startOwnStack('faults', ROOT_TOKEN, {}, (started) => {
      if (!started.faults)
        throw new Error('fault tests need the local infrastructure (not MONGO_URL/NATS_URL or Docker)');
    }));
    const logger = createLogger('faults-observer', 'silent');
    bus = await connectBus(infra.natsUrl, 'faults-observer', logger);
    observer = await startConsumer(
      bus,
      {
        durable: 'faults-observer',
        filterSubjects: [EVENT_TYPES.identity.userCreated],
        handle: async (event) => {
          const username = String(event.data.username);
          seen.set(username, event);
          idsByUser.set(username, (idsByUser.get(username) ?? new Set()).add(event.id));
        },
      },
      logger,
    );
  }, 120_000);

  afterAll(async () => {
    await observer?.stop();
    await bus?.close();
    await stack?.stop();
    await infra?.stop();
  });

  async function createUser(username: string): Promise<Response> {
    return fetch(`${stack.gatewayUrl}/api/v4/users`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({
        username,
        name: username,
        email: `${username}@example.com`,
        password: 'long-enough-password',
      }),
    });
  }

  async function waitForEvents(usernames: string[]): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!usernames.every((u) => seen.has(u))) {
      if (Date.now() > deadline)
        throw new Error(`missing events for ${usernames.filter((u) => !seen.has(u)).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('When the broker is down during writes, then the writes succeed and their events arrive once it is back', async () => {
    await infra.faults!.killNats();
    const usernames = ['down1', 'down2', 'down3'];
    for (const username of usernames) expect((await createUser(username)).status).toBe(201);
    await infra.faults!.restartNats();
    await waitForEvents(usernames);
  }, 60_000);

  it('When the gateway is killed after acknowledging a write it could not publish, then its successor publishes it', async () => {
    await infra.faults!.killNats();
    expect((await createUser('orphan1')).status).toBe(201);
    await stack.kill('gateway', 'SIGKILL');
    await infra.faults!.restartNats();
    await stack.restart('gateway');
    await waitForEvents(['orphan1']);
  }, 90_000);

  async function api(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const response = await fetch(`${stack.gatewayUrl}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
  }

  /** Every issue iid in the project's activity, as often as it appears (a duplicate shows twice). */
  async function issueIids(projectId: number): Promise<number[]> {
    const iids: number[] = [];
    for (let page = 1; ; page++) {
      const { json } = await api(
        'GET',
        `/projects/${projectId}/events?target_type=issue&per_page=100&page=${page}`,
      );
      const events = json as { target_iid: number }[];
      iids.push(...events.map((e) => e.target_iid));
      if (events.length < 100) return iids.sort((a, b) => a - b);
    }
  }

  /** How many issue events the project's activity lists now (its X-Total), or -1 while it cannot answer. */
  async function issueEventCount(projectId: number): Promise<number> {
    const response = await fetch(
      `${stack.gatewayUrl}/api/v4/projects/${projectId}/events?target_type=issue&per_page=1`,
      { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } },
    );
    await response.arrayBuffer();
    return response.ok ? Number(response.headers.get('x-total')) : -1;
  }

  it('When the events service is killed while it records a burst, then after restart each event is listed exactly once', async () => {
    const group = await api('POST', '/groups', { name: 'crash', path: 'crash' });
    const project = await api('POST', '/projects', {
      name: 'timeline',
      namespace_id: (group.json as { id: number }).id,
    });
    const projectId = (project.json as { id: number }).id;
    // The activity consumer records hundreds of events per batch: the burst is large, and the service is
    // killed while the burst is still being published, so the kill lands mid-burst.
    const BURST = 5000;
    const publishing = Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        bus.publish(
          rootEvent({
            id: randomUUID(),
            type: DOMAIN_EVENT_TYPES.discussions.issueOpened,
            producer: 'faults',
            projectId,
            data: { targetId: 10_000 + i, targetIid: i + 1, targetTitle: `burst ${i + 1}` },
          }),
        ),
      ),
    );
    // Kill it mid-burst: some events recorded, some in flight, the rest not yet delivered.
    const deadline = Date.now() + 30_000;
    let atKill = 0;
    while (atKill < 10 && Date.now() < deadline) {
      atKill = await issueEventCount(projectId);
      await new Promise((r) => setTimeout(r, 20));
    }
    await stack.kill('events', 'SIGKILL');
    await publishing;
    await stack.restart('events');
    const expected = Array.from({ length: BURST }, (_, i) => i + 1);
    // Wait until every event is recorded, then read once more: while redelivered events are still
    // being appended, offset pages shift under the reader and one event can show on two pages.
    // Messages in flight at the kill come back after the consumer's ack wait (30 s).
    while (Date.now() < deadline + 60_000) {
      if ((await issueEventCount(projectId)) >= BURST) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const iids = await issueIids(projectId);
    expect(atKill).toBeLessThan(BURST);
    expect(iids).toEqual(expected);
  }, 150_000);

  it('When the broker crashed and events were replayed, then each write still has exactly one event id', () => {
    // Delivery is at-least-once: a broker killed with -9 forgets acks newer than its last sync and redelivers
    // those messages. They carry the same event id, which is what idempotent consumers de-duplicate on.
    for (const [username, ids] of idsByUser)
      expect({ username, ids: ids.size }).toEqual({ username, ids: 1 });
    expect([...idsByUser.keys()]).toEqual(expect.arrayContaining(['down1', 'down2', 'down3', 'orphan1']));
  });
});
