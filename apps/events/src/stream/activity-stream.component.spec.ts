import { activityEventEntity, type ActivityEventEntity, type Principal } from '@gl/contracts';
import { ROOT, testNamespace, testPrincipal, useHarness } from '@gl/testing';
import {
  activityList as list,
  D,
  ID,
  memberEvent,
  projectEvent,
  targetEvent,
  userCreated,
} from '../testing/envelopes';
import { startEventsHarness, type CallOptions } from '../testing/events.harness';
import { openSse, type SseClient } from '../testing/sse-client';

const ALICE = testPrincipal({ id: 901, username: 'alice9', name: 'Alice' });
const BOB = testPrincipal({ id: 902, username: 'bob9', name: 'Bob' });
const GUEST = testPrincipal({ id: 903, username: 'guest9', name: 'Guest' });
const SLOW = testPrincipal({ id: 904, username: 'slow9', name: 'Slow' });
/** Private 91 (Alice a member, Guest a guest), public 92, private 93 (nobody). */
const [PRIVATE, OPEN, HIDDEN] = [91, 92, 93];
const actorOf = (p: Principal) => ({ id: p.id, username: p.username, name: p.name });

let iid = 0;
const issue = (projectId: number, title: string, author = BOB, confidential = false) =>
  targetEvent(
    D.issueOpened,
    projectId,
    {
      targetId: projectId * 1000 + ++iid,
      targetIid: iid,
      targetTitle: title,
      audience: { confidential, authorId: author.id, assigneeIds: [] },
    },
    { actor: actorOf(author) },
  );
const closed = (projectId: number, title: string) =>
  targetEvent(
    D.issueClosed,
    projectId,
    { targetId: projectId * 1000 + ++iid, targetIid: iid, targetTitle: title },
    { actor: actorOf(BOB) },
  );

const parsed = (client: SseClient): ActivityEventEntity[] =>
  client.events.map((e) => activityEventEntity.parse(JSON.parse(e.data)));
const titles = (client: SseClient) => parsed(client).map((e) => e.target_title);

describe('live activity streams (…/events/stream)', () => {
  const h = useHarness(() =>
    startEventsHarness({
      stream: { maxPerUser: 2, maxAnonymousPerAddress: 2, heartbeatMs: 300, bufferLimit: 64 * 1024 },
    }),
  );
  const open: SseClient[] = [];
  let revision = 0;
  /** The revision of Alice's membership (the one the gateway would sign for her). */
  let aliceRevision = 0;

  async function stream(path: string, options: CallOptions = {}, headers: Record<string, string> = {}) {
    const client = await openSse(`${h.url}/api/v4${path}`, { ...h.contextHeaders(options), ...headers });
    open.push(client);
    return client;
  }
  const privateNs = (level: number) =>
    testNamespace({ kind: 'project', id: PRIVATE, visibility: 'private', accessLevel: level });
  const openNs = () => testNamespace({ kind: 'project', id: OPEN, visibility: 'public', accessLevel: 0 });
  const record = (...events: ReturnType<typeof issue>[]) =>
    events.reduce((p, e) => p.then(() => h.instance.recorder.apply(e)), Promise.resolve());

  beforeAll(async () => {
    const r = h.instance.recorder;
    for (const user of [ALICE, BOB, GUEST, SLOW])
      await r.apply(userCreated(user.id, user.username, user.name));
    await r.apply(projectEvent(ID.projectCreated, PRIVATE));
    await r.apply(projectEvent(ID.projectCreated, HIDDEN));
    await r.apply(projectEvent(ID.projectCreated, OPEN, { visibility: 'public' }));
    await r.apply(
      memberEvent(ID.memberAdded, 'project', PRIVATE, ALICE.id, {
        accessLevel: 30,
        revision: (aliceRevision = ++revision),
      }),
    );
    await r.apply(
      memberEvent(ID.memberAdded, 'project', PRIVATE, GUEST.id, { accessLevel: 10, revision: ++revision }),
    );
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });

  it('When an event is recorded, then an open stream gets it: id, action name, and the list’s own JSON', async () => {
    const client = await stream(`/projects/${PRIVATE}/events/stream`, { as: ALICE, ns: privateNs(30) });
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-cache, no-transform');
    expect(client.headers['x-accel-buffering']).toBe('no');
    await record(issue(PRIVATE, 'live-1'));
    const [message] = await client.waitFor(1);
    const listed = list.parse(
      (await h.call(`/projects/${PRIVATE}/events`, { as: ALICE, ns: privateNs(30) })).body,
    )[0]!;
    expect(message).toEqual({ id: String(listed.id), event: 'opened', data: JSON.stringify(listed) });
  });

  it('When the stream is idle, then a comment line keeps it open', async () => {
    const client = await stream(`/projects/${OPEN}/events/stream`, { as: null, ns: openNs() });
    await h.eventually(
      async () => client.comments.length,
      (n) => n >= 1,
      3_000,
    );
    expect(client.comments[0]).toBe('keep-alive');
  });

  it('When action or target_type is given, then only matching events are sent', async () => {
    const client = await stream(`/projects/${OPEN}/events/stream?action=closed&target_type=issue`, {
      as: null,
      ns: openNs(),
    });
    await record(
      issue(OPEN, 'opened-skip'),
      closed(OPEN, 'closed-keep'),
      issue(OPEN, 'opened-skip-2'),
      closed(OPEN, 'closed-keep-2'),
    );
    await client.waitFor(2);
    expect(titles(client)).toEqual(['closed-keep', 'closed-keep-2']);
    expect(client.events.map((e) => e.event)).toEqual(['closed', 'closed']);
  });

  it('When Last-Event-ID is sent, then what was missed is replayed, then live events follow, none twice', async () => {
    await record(issue(OPEN, 'r-1'), issue(OPEN, 'r-2'), issue(OPEN, 'r-3'));
    const all = list.parse(
      (await h.call(`/projects/${OPEN}/events?per_page=3`, { as: null, ns: openNs() })).body,
    );
    const r1 = all.find((e) => e.target_title === 'r-1')!;
    const client = await stream(
      `/projects/${OPEN}/events/stream`,
      { as: null, ns: openNs() },
      { 'Last-Event-ID': String(r1.id) },
    );
    await client.waitFor(2);
    await record(issue(OPEN, 'r-4'));
    await client.waitFor(3);
    expect(titles(client)).toEqual(['r-2', 'r-3', 'r-4']);
  });

  it('When last_event_id comes in the query, then it resumes the same way; a bad one is a 400', async () => {
    await record(issue(OPEN, 'q-1'), issue(OPEN, 'q-2'));
    const [q2, q1] = list.parse(
      (await h.call(`/projects/${OPEN}/events?per_page=2`, { as: null, ns: openNs() })).body,
    );
    const client = await stream(`/projects/${OPEN}/events/stream?last_event_id=${q1!.id}`, {
      as: null,
      ns: openNs(),
    });
    await client.waitFor(1);
    expect(parsed(client).map((e) => e.id)).toEqual([q2!.id]);
    const bad = await stream(`/projects/${OPEN}/events/stream?last_event_id=abc`, { as: null, ns: openNs() });
    expect(bad.status).toBe(400);
    expect(JSON.parse(await bad.body())).toEqual({ error: 'last_event_id is invalid' });
    const badHeader = await stream(
      `/projects/${OPEN}/events/stream`,
      { as: null, ns: openNs() },
      { 'Last-Event-ID': 'x1' },
    );
    expect(badHeader.status).toBe(400);
  });

  it.each(['99999999999999999999', '9'.repeat(5000), '1e3', '0x10', '-1'])(
    'When Last-Event-ID is %s (the parameter refuses it too), then 400 "last_event_id is invalid"',
    async (value) => {
      for (const [path, headers] of [
        [`/projects/${OPEN}/events/stream`, { 'Last-Event-ID': value }],
        [`/projects/${OPEN}/events/stream?last_event_id=${value}`, {}],
      ] as const) {
        const answer = await stream(path, { as: null, ns: openNs() }, headers);
        expect({
          path: path.slice(0, 80),
          status: answer.status,
          body: JSON.parse(await answer.body()) as unknown,
        }).toEqual({
          path: path.slice(0, 80),
          status: 400,
          body: { error: 'last_event_id is invalid' },
        });
      }
    },
  );

  it('When events are recorded while a replay runs, then the client gets every one exactly once, in order', async () => {
    const first = issue(OPEN, 'seam-0');
    await record(first);
    const [seam0] = list.parse(
      (await h.call(`/projects/${OPEN}/events?per_page=1`, { as: null, ns: openNs() })).body,
    );
    const before = Array.from({ length: 60 }, (_, i) => issue(OPEN, `seam-a${i}`));
    await record(...before);
    const during = Array.from({ length: 60 }, (_, i) => issue(OPEN, `seam-b${i}`));
    const [client] = await Promise.all([
      stream(
        `/projects/${OPEN}/events/stream`,
        { as: null, ns: openNs() },
        { 'Last-Event-ID': String(seam0!.id) },
      ),
      record(...during),
    ]);
    await client.waitFor(120, 15_000);
    expect(titles(client)).toEqual(
      [...before, ...during].map((e) => (e.data as { targetTitle: string }).targetTitle),
    );
    const ids = parsed(client).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 30_000);

  it('When a guest follows a private project, then what /events hides from a guest is never sent', async () => {
    const client = await stream(`/projects/${PRIVATE}/events/stream`, { as: GUEST, ns: privateNs(10) });
    await record(issue(PRIVATE, 'secret', BOB, true), issue(PRIVATE, 'plain'));
    await client.waitFor(1);
    await record(issue(PRIVATE, 'plain-2'));
    await client.waitFor(2);
    expect(titles(client)).toEqual(['plain', 'plain-2']);
  });

  it('When a member is removed from a project, then their stream stops receiving its events at once', async () => {
    const client = await stream(`/users/${BOB.id}/events/stream`, {
      as: ALICE,
      revision: { user: aliceRevision, visibility: 0 },
    });
    expect(client.status).toBe(200);
    await record(issue(PRIVATE, 'before-removal'));
    await client.waitFor(1);
    await h.instance.recorder.apply(
      memberEvent(ID.memberRemoved, 'project', PRIVATE, ALICE.id, { revision: ++revision }),
    );
    await record(issue(PRIVATE, 'after-removal'), issue(OPEN, 'public-marker'));
    await client.waitFor(2);
    expect(titles(client)).toEqual(['before-removal', 'public-marker']);
  });

  it('When the project or user is not visible, or nobody is signed in for /events/stream, then the lists’ answers', async () => {
    const hidden = await stream(`/projects/${HIDDEN}/events/stream`, {
      as: ALICE,
      ns: testNamespace({ kind: 'project', id: HIDDEN, visibility: 'private', accessLevel: 0 }),
    });
    expect(hidden.status).toBe(404);
    expect(JSON.parse(await hidden.body())).toEqual({ message: '404 Project Not Found' });
    const unknown = await stream(`/users/424242/events/stream`, { as: ALICE });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(await unknown.body())).toEqual({ message: '404 User Not Found' });
    const anonymous = await stream(`/events/stream`, { as: null });
    expect(anonymous.status).toBe(401);
  });

  it('When /events/stream is opened, then the caller’s own events arrive', async () => {
    const client = await stream(`/events/stream`, { as: BOB });
    await record(issue(OPEN, 'mine'));
    await client.waitFor(1);
    expect(titles(client)).toEqual(['mine']);
  });

  it('When /events/stream?scope=all is opened, then the events of the caller’s projects they may read', async () => {
    const client = await stream(`/events/stream?scope=all`, { as: GUEST });
    await record(
      issue(OPEN, 'not-a-member'),
      issue(HIDDEN, 'hidden'),
      issue(PRIVATE, 'member-plain'),
      issue(PRIVATE, 'member-secret', BOB, true),
      issue(PRIVATE, 'member-2'),
    );
    await client.waitFor(2);
    expect(titles(client)).toEqual(['member-plain', 'member-2']);
  });

  it('When a user opens more streams than allowed, then 429, and a closed stream frees its place', async () => {
    const a = await stream(`/events/stream`, { as: SLOW });
    const b = await stream(`/events/stream`, { as: SLOW });
    expect([a.status, b.status]).toEqual([200, 200]);
    const c = await stream(`/events/stream`, { as: SLOW });
    expect(c.status).toBe(429);
    expect(c.headers['retry-after']).toBe('1');
    expect(JSON.parse(await c.body())).toEqual({ message: '429 Too Many Requests' });
    a.close();
    const d = await h.eventually(
      async () => {
        const next = await stream(`/events/stream`, { as: SLOW });
        if (next.status !== 200) next.close();
        return next;
      },
      (next) => next.status === 200,
      5_000,
    );
    expect(d.status).toBe(200);
  });

  it('When one address opens more anonymous streams than allowed, then 429 with Retry-After; another address is served', async () => {
    const anonymous = (clientAddress: string) =>
      stream(`/projects/${OPEN}/events/stream`, { as: null, ns: openNs(), clientAddress });
    const first = await anonymous('198.51.100.7');
    const second = await anonymous('198.51.100.7');
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await anonymous('198.51.100.7');
    expect({ status: third.status, retryAfter: third.headers['retry-after'] }).toEqual({
      status: 429,
      retryAfter: '1',
    });
    expect((await anonymous('198.51.100.8')).status).toBe(200);
  });

  it('When the service stops, then its streams end (clients resume elsewhere)', async () => {
    const client = await stream(`/events/stream`, { as: ROOT });
    expect(h.instance.live.streams.count()).toBeGreaterThan(0);
    h.instance.live.streams.closeStreams(true);
    await client.ended;
  });
});
