import { EVENT_STREAM } from '@gl/contracts';
import type { InfraHandle } from '@gl/infra';
import type { RunningStack } from '@gl/launcher';
import { RESOURCE_VERSIONS_BUCKET, connectBus, createLogger, type Bus } from '@gl/service-kit';
import { startOwnStack } from './own-stack';

/**
 * The `ha` profile's bus, run here: a three-node JetStream cluster of the nats-server we build, the event
 * stream kept on all three (NATS_STREAM_REPLICAS=3), on a stack of its own. Writes go through the gateway
 * at a steady pace while the node leading the stream is killed with -9, then the events service (the
 * activity log's consumer) and the discussions service (the writes' publisher). Every issue and note must
 * reach the activity log exactly once, the stream and its consumers must lead from the survivors, and no
 * outbox or consumer may be left behind. Bounded: about 20 s of writes from a few clients, waits capped.
 */
const ROOT_TOKEN = 'glpat-cluster-root-token-0000000000';
const CLIENTS = 3;
const WRITE_MS = 20_000;
/** Every fourth issue gets a note: notes are published by the same outbox, as another event type. */
const NOTE_EVERY = 4;

interface Activity {
  action_name: string;
  target_iid: number | null;
  target_id: number | null;
}

describe('nats cluster: the bus survives the loss of a node', () => {
  let infra: InfraHandle;
  let stack: RunningStack;
  let bus: Bus;

  beforeAll(async () => {
    ({ infra, stack } = await startOwnStack(
      'cluster',
      ROOT_TOKEN,
      {
        natsNodes: 3,
        // A small stream: each node reserves its max_bytes on the one disk the three share here.
        extraEnv: { NATS_STREAM_REPLICAS: '3', NATS_STREAM_MAX_BYTES: '256MiB' },
      },
      (started) => {
        if (started.faults?.natsNodes !== 3)
          throw new Error(
            'the cluster test needs the local infrastructure (not MONGO_URL/NATS_URL or Docker)',
          );
      },
    ));
    bus = await connectBus(infra.natsUrl, 'cluster-observer', createLogger('cluster-observer', 'silent'));
  }, 90_000);

  afterAll(async () => {
    await bus?.close();
    await stack?.stop();
    await infra?.stop();
  });

  async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
    const response = await fetch(`${stack.gatewayUrl}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
  }

  /** Every page of a list (offset pagination, 100 a page). */
  async function all<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const { status, json } = await api<T[]>('GET', `${path}&per_page=100&page=${page}`);
      if (status !== 200) throw new Error(`GET ${path}: ${status}`);
      items.push(...json);
      if (json.length < 100) return items;
    }
  }

  /** The node (0-based) whose server the stream's Raft group follows now. */
  async function streamLeader(): Promise<number> {
    const info = await bus.jsm.streams.info(EVENT_STREAM);
    const leader = info.cluster?.leader ?? '';
    const node = Number(/^nats-(\d+)$/.exec(leader)?.[1]) - 1;
    if (!(node >= 0)) throw new Error(`no stream leader (${JSON.stringify(info.cluster)})`);
    return node;
  }

  /** Durable consumers with events not yet acknowledged, and where each one's leader is. */
  async function consumersBehind(): Promise<{ name: string; pending: number; leader?: string }[]> {
    const behind: { name: string; pending: number; leader?: string }[] = [];
    for await (const c of bus.jsm.consumers.list(EVENT_STREAM)) {
      if (c.name === undefined || !c.config.durable_name) continue;
      const pending = c.num_pending + c.num_ack_pending;
      if (pending > 0) behind.push({ name: c.name, pending, leader: c.cluster?.leader });
    }
    return behind;
  }

  it('When a node, then the consumer and the publisher are killed under writes, then every event is recorded once', async () => {
    const info = await bus.jsm.streams.info(EVENT_STREAM);
    expect(info.config.num_replicas).toBe(3);
    expect(info.cluster?.replicas).toHaveLength(2);
    // The resource versions live beside the events: a bucket on one node stopped every start without it.
    const versions = await bus.jsm.streams.info(`KV_${RESOURCE_VERSIONS_BUCKET}`);
    expect(versions.config.num_replicas).toBe(3);

    const group = await api<{ id: number }>('POST', '/groups', { name: 'ha', path: 'ha' });
    const project = await api<{ id: number }>('POST', '/projects', {
      name: 'bus',
      namespace_id: group.json.id,
    });
    expect(project.status).toBe(201);
    const projectId = project.json.id;

    // Writers: a steady stream of issues (and notes), each client one request at a time. A request that
    // fails while a process is down is just counted: what the check trusts is what the API lists afterwards.
    const started = Date.now();
    const failures: string[] = [];
    let created = 0;
    const writer = async (): Promise<void> => {
      while (Date.now() - started < WRITE_MS) {
        try {
          const issue = await api<{ iid: number }>('POST', `/projects/${projectId}/issues`, {
            title: `issue ${created}`,
          });
          if (issue.status !== 201) failures.push(`issue ${issue.status}`);
          else if (++created > 0 && issue.json.iid % NOTE_EVERY === 0) {
            const note = await api('POST', `/projects/${projectId}/issues/${issue.json.iid}/notes`, {
              body: `note on ${issue.json.iid}`,
            });
            if (note.status !== 201) failures.push(`note ${note.status}`);
          }
        } catch (err) {
          failures.push(String(err));
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const writing = Promise.all(Array.from({ length: CLIENTS }, writer));
    const at = (ms: number): Promise<void> =>
      new Promise((r) => setTimeout(r, Math.max(0, started + ms - Date.now())));

    // The node leading the stream goes first: publishes need a new leader elected among the survivors.
    await at(4_000);
    const killed = await streamLeader();
    await infra.faults!.killNats(killed);
    // The consumer, while events are in flight to it: those come back after its ack wait.
    await at(7_000);
    await stack.kill('events', 'SIGKILL');
    await stack.restart('events');
    // The publisher: what it wrote and had not yet published waits in its outbox for its successor.
    await at(11_000);
    await stack.kill('discussions', 'SIGKILL');
    await stack.restart('discussions');
    await writing;
    const writeSeconds = (Date.now() - started) / 1000;

    // The survivors lead the stream now; the killed node comes back and catches up.
    const leaderAfter = await streamLeader();
    expect(leaderAfter).not.toBe(killed);
    await infra.faults!.restartNats(killed);

    const issues = await all<{ iid: number }>(`/projects/${projectId}/issues?state=all`);
    const notes = (
      await Promise.all(
        issues
          .filter((i) => i.iid % NOTE_EVERY === 0)
          .map((i) =>
            all<{ id: number; system: boolean }>(`/projects/${projectId}/issues/${i.iid}/notes?sort=asc`),
          ),
      )
    )
      .flat()
      .filter((n) => !n.system);
    expect(issues.length).toBeGreaterThan(50);

    // Wait for the activity log to hold every event (in flight at the kill: back after the 30 s ack wait),
    // then read it whole once.
    const deadline = Date.now() + 60_000;
    // Counted by kind: the project's own events (its creation) must not make up for a missing issue event.
    const total = async (filter: string): Promise<number> => {
      const response = await fetch(
        `${stack.gatewayUrl}/api/v4/projects/${projectId}/events?per_page=1&${filter}`,
        { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } },
      );
      await response.arrayBuffer();
      return Number(response.headers.get('x-total') ?? -1);
    };
    const recorded = async (): Promise<boolean> =>
      (await total('target_type=issue&action=created')) >= issues.length &&
      (await total('target_type=note')) >= notes.length;
    while (!(await recorded()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    const opened = await all<Activity>(`/projects/${projectId}/events?target_type=issue&action=created`);
    const commented = await all<Activity>(`/projects/${projectId}/events?target_type=note`);

    const count = (values: (number | null)[]): Map<number | null, number> =>
      values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<number | null, number>());
    const openedPerIid = count(opened.map((e) => e.target_iid));
    const notedPerId = count(commented.map((e) => e.target_id));
    expect(issues.filter((i) => openedPerIid.get(i.iid) !== 1).map((i) => i.iid)).toEqual([]);
    expect(opened).toHaveLength(issues.length);
    expect(notes.filter((n) => notedPerId.get(n.id) !== 1).map((n) => n.id)).toEqual([]);
    expect(commented).toHaveLength(notes.length);

    // Nothing stalls: every consumer has caught up, on whichever node leads it now.
    let behind = await consumersBehind();
    while (behind.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      behind = await consumersBehind();
    }
    expect(behind).toEqual([]);
    process.stdout.write(
      `nats cluster: ${issues.length} issues and ${notes.length} notes in ${writeSeconds.toFixed(1)} s ` +
        `(${failures.length} writes refused while a process was down), node ${killed + 1} killed, ` +
        `stream leader now node ${leaderAfter + 1}\n`,
    );
  }, 150_000);
});
