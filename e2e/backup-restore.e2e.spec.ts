import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startInfra, type InfraHandle } from '@gl/infra';
import { startStack, type RunningStack } from '@gl/launcher';
import { GHOST_USER, connectMongo } from '@gl/service-kit';
import { eventually } from './e2e.helpers';
import { startOwnStack } from './own-stack';

/**
 * Backup and restore of the local default on a stack of its own: fill it through the API, back it up while
 * writes go on (issues, notes, deletions), wipe the infrastructure, restore, start the current code on it.
 * Every resource, note, alert, tag and activity event is back; the copy is one moment (every activity
 * event's target is there, or the target's deletion is in the copy too); new ids follow the old ones;
 * the consumers resume where they stood (no activity event doubled or lost). Then a database in an older
 * shape (no migrations recorded, no route claims) is migrated at start and served. Bounded: about 400
 * requests, waits capped at 60 s.
 */
const ROOT_TOKEN = 'glpat-backup-root-token-00000000000';
const REGISTRY_SECRET = 'backup-registry-notification-secret';
const PREFIX = 'backup_';
const rootDir = resolve(__dirname, '..');
const ISSUES = 40;
const LABELS = 5;
const MILESTONES = 3;
const ALERTS = 10;
const TAGS = 20;

interface Figures {
  backupMs: number;
  backupBytes: number;
  restoreMs: number;
  documents: number;
  messages: number;
  writesDuringBackup: number;
  deletionsDuringBackup: number;
  restoredOfThose: number;
  eventsWithoutTheirIssueOrNote: number;
  /** How long the gateway held writes, and how many waited (manifest `cut`). */
  fenceHeldMs: number;
  fenceHeldRequests: number;
}

/** Runs the built CLI against this suite's servers; resolves with its output, rejects on a non-zero exit. */
function runTool(args: string[], infra: InfraHandle, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    // BACKUP_TOOL runs another build of the tool against this stack (an older one, to compare).
    const tool = process.env.BACKUP_TOOL ?? join(rootDir, 'dist', 'tools', 'backup.js');
    const child = spawn(process.execPath, [tool, ...args], {
      env: { ...process.env, MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolvePromise(output) : reject(new Error(`backup ${args[0]} exited ${code}:\n${output}`)),
    );
  });
}

describe('backup and restore of the local default', () => {
  let infra: InfraHandle;
  let stack: RunningStack;
  const dataDir = join(rootDir, '.data', `backup-${process.pid}`);
  const backupDir = join(mkdtempSync(join(tmpdir(), 'gl-backup-')), 'backup');
  const figures: Partial<Figures> = {};

  const api = async (path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> =>
    fetch(`${stack.gatewayUrl}/api/v4${path}`, {
      method: init.method ?? 'GET',
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const json = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const response = await api(path, init);
    if (!response.ok)
      throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  /** Every page of a list, in the API's order. */
  const all = async <T>(path: string): Promise<T[]> => {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const batch = await json<T[]>(`${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
      items.push(...batch);
      if (batch.length < 100) return items;
    }
  };

  const startServices = async (): Promise<void> => {
    stack = await startStack({
      rootDir,
      dataDir,
      mongoUrl: infra.mongoUrl,
      natsUrl: infra.natsUrl,
      gatewayPort: 0,
      rootToken: ROOT_TOKEN,
      databasePrefix: PREFIX,
      extraEnv: { LOG_LEVEL: 'warn', REGISTRY_NOTIFICATION_SECRET: REGISTRY_SECRET },
    });
  };

  beforeAll(async () => {
    ({ infra, stack } = await startOwnStack(
      'backup',
      ROOT_TOKEN,
      { extraEnv: { REGISTRY_NOTIFICATION_SECRET: REGISTRY_SECRET } },
      (started) => {
        if (started.source !== 'local')
          throw new Error(
            'the backup test wipes its infrastructure: it needs the local one (no MONGO_URL, no Docker)',
          );
      },
    ));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await infra?.stop();
    rmSync(resolve(backupDir, '..'), { recursive: true, force: true });
    // The closing note of the operations issue asks for these.
    process.stdout.write(`backup-restore figures: ${JSON.stringify(figures)}\n`);
  });

  interface Snapshot {
    users: { id: number; username: string }[];
    issues: { id: number; iid: number; title: string; labels: string[] }[];
    notes: { id: number; body: string }[];
    labels: { id: number; name: string }[];
    milestones: { id: number; iid: number; title: string }[];
    alerts: { id: number; iid: number; title: string; event_count: number }[];
    tags: { name: string; digest?: string }[];
    events: { id: number; action_name: string; target_type: string | null; target_id: number | null }[];
  }
  let groupId: number;
  let projectId: number;
  let projectPath: string;
  let repositoryId: number;

  async function snapshot(): Promise<Snapshot> {
    const issues = await all<Snapshot['issues'][number]>(`/projects/${projectId}/issues?sort=asc`);
    const notes: Snapshot['notes'] = [];
    for (const issue of issues) {
      notes.push(
        ...(await all<Snapshot['notes'][number]>(`/projects/${projectId}/issues/${issue.iid}/notes`)),
      );
    }
    const pick = <T, K extends keyof T>(list: T[], keys: K[]): Pick<T, K>[] =>
      list.map((item) => Object.fromEntries(keys.map((k) => [k, item[k]])) as Pick<T, K>);
    return {
      users: pick(await all<Snapshot['users'][number]>('/users'), ['id', 'username']),
      issues: pick(issues, ['id', 'iid', 'title', 'labels']),
      notes: pick(notes, ['id', 'body']).sort((a, b) => a.id - b.id),
      labels: pick(await all<Snapshot['labels'][number]>(`/groups/${groupId}/labels`), ['id', 'name']),
      milestones: pick(await all<Snapshot['milestones'][number]>(`/groups/${groupId}/milestones`), [
        'id',
        'iid',
        'title',
      ]),
      alerts: pick(await all<Snapshot['alerts'][number]>(`/projects/${projectId}/alert_management/alerts`), [
        'id',
        'iid',
        'title',
        'event_count',
      ]),
      tags: pick(
        await all<Snapshot['tags'][number]>(
          `/projects/${projectId}/registry/repositories/${repositoryId}/tags`,
        ),
        ['name'],
      ),
      events: pick(await all<Snapshot['events'][number]>(`/projects/${projectId}/events`), [
        'id',
        'action_name',
        'target_type',
        'target_id',
      ]),
    };
  }

  /** Waits until the project's activity lists `expected` events, or its count has stood still for 10 s. */
  async function settledEvents(expected: number): Promise<Snapshot['events']> {
    let last = -1;
    let stableSince = Date.now();
    return eventually(
      () => all<Snapshot['events'][number]>(`/projects/${projectId}/events`),
      (list) => {
        if (list.length !== last) [last, stableSince] = [list.length, Date.now()];
        // Pages are read by offset, newest first: an event recorded between two page reads shifts the
        // later page, which then repeats an event of the earlier one. Such a read is taken again.
        const straddled = new Set(list.map((e) => e.id)).size !== list.length;
        return (list.length >= expected && !straddled) || Date.now() - stableSince > 10_000;
      },
      60_000,
      300,
    );
  }

  /** Waits until the activity log lists each issue's opening and its note's comment. */
  async function activityOf(issues: { id: number; noteId: number }[]): Promise<void> {
    const result = await eventually(
      () => all<Snapshot['events'][number]>(`/projects/${projectId}/events`),
      (list) => {
        const seen = new Set(list.map((e) => `${e.target_type} ${e.target_id}`));
        return issues.every((i) => seen.has(`Issue ${i.id}`) && seen.has(`Note ${i.noteId}`));
      },
      60_000,
      300,
    );
    expect(result.length).toBeGreaterThanOrEqual(2 * issues.length);
  }

  async function openIssue(title: string): Promise<{ id: number; iid: number; noteId: number }> {
    const issue = await json<{ id: number; iid: number }>(`/projects/${projectId}/issues`, {
      method: 'POST',
      body: { title, labels: 'label-1' },
    });
    const note = await json<{ id: number }>(`/projects/${projectId}/issues/${issue.iid}/notes`, {
      method: 'POST',
      body: { body: `Note on ${title}` },
    });
    return { ...issue, noteId: note.id };
  }

  async function pushTags(names: string[]): Promise<void> {
    const events = names.map((tag) => ({
      id: randomUUID(),
      timestamp: new Date().toISOString(),
      action: 'push',
      target: {
        mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
        size: 528,
        length: 528,
        digest: `sha256:${Buffer.from(tag).toString('hex').padEnd(64, '0').slice(0, 64)}`,
        repository: projectPath,
        url: `http://registry.example.com:5000/v2/${projectPath}/manifests/${tag}`,
        tag,
      },
      request: { id: randomUUID(), addr: '127.0.0.1', host: 'registry.example.com:5000', method: 'PUT' },
      actor: {},
      source: { addr: 'registry:5000', instanceID: randomUUID() },
    }));
    const response = await fetch(`${stack.gatewayUrl}/api/v4/container_registry_event/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/vnd.docker.distribution.events.v1+json',
        authorization: REGISTRY_SECRET,
      },
      body: JSON.stringify({ events }),
    });
    expect(response.status).toBe(200);
  }

  let before: Snapshot;
  let restored: Snapshot;

  it('When a filled stack is backed up while it takes writes, wiped and restored, then every resource, note, alert, tag and activity event is back', async () => {
    // Fill.
    for (let i = 1; i <= 3; i++) {
      await json('/users', {
        method: 'POST',
        body: {
          username: `keeper${i}`,
          name: `Keeper ${i}`,
          email: `keeper${i}@example.com`,
          password: 'long-enough-password',
        },
      });
    }
    groupId = (
      await json<{ id: number }>('/groups', { method: 'POST', body: { name: 'Keep', path: 'keep' } })
    ).id;
    const project = await json<{ id: number; path_with_namespace: string }>('/projects', {
      method: 'POST',
      body: { name: 'App', path: 'app', namespace_id: groupId },
    });
    projectId = project.id;
    projectPath = project.path_with_namespace;
    for (let i = 1; i <= LABELS; i++) {
      await json(`/groups/${groupId}/labels`, {
        method: 'POST',
        body: { name: `label-${i}`, color: '#428bca' },
      });
    }
    for (let i = 1; i <= MILESTONES; i++) {
      await json(`/groups/${groupId}/milestones`, { method: 'POST', body: { title: `Milestone ${i}` } });
    }
    const filled: { id: number; noteId: number }[] = [];
    for (let i = 0; i < ISSUES; i += 4) {
      filled.push(...(await Promise.all([0, 1, 2, 3].map((k) => openIssue(`Issue ${i + k + 1}`)))));
    }
    const integration = await json<{ url: string; token: string }>(
      `/projects/${projectId}/alert_management/http_integrations`,
      { method: 'POST', body: { name: 'Keep', active: true } },
    );
    for (let i = 1; i <= ALERTS; i++) {
      const response = await fetch(integration.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', Authorization: `Bearer ${integration.token}` },
        body: JSON.stringify({ title: `Alert ${i}`, fingerprint: `fp-${i}` }),
      });
      expect(response.status).toBe(200);
    }
    await pushTags(Array.from({ length: TAGS }, (_, i) => `v${i + 1}`));
    const repositories = await eventually(
      () => json<{ id: number }[]>(`/projects/${projectId}/registry/repositories`),
      (list) => list.length === 1,
    );
    repositoryId = repositories[0]!.id;
    await activityOf(filled);

    // Back up while clients keep writing: what the dump holds must restore as one moment. Two writers
    // open issues with a note each; every third round one deletes an issue opened during the backup.
    let writing = true;
    const during: { id: number; iid: number; noteId: number }[] = [];
    const deleted: { id: number; iid: number; noteId: number }[] = [];
    const writer = async (name: string): Promise<void> => {
      for (let i = 1; writing; i++) {
        during.push(await openIssue(`During ${name}${i}`));
        const victim = i % 3 === 0 ? during.find((d) => !deleted.includes(d)) : undefined;
        if (!victim) continue;
        deleted.push(victim); // before the request: a deletion the copy may hold as soon as it is sent
        const response = await api(`/projects/${projectId}/issues/${victim.iid}`, { method: 'DELETE' });
        expect(response.status).toBe(204);
      }
    };
    const writers = Promise.all([writer('a'), writer('b')]);
    const backupStarted = Date.now();
    const backupOutput = await runTool(['backup', backupDir, '--prefix', PREFIX], infra, {
      GATEWAY_URL: stack.gatewayUrl,
      GL_ADMIN_TOKEN: ROOT_TOKEN,
    });
    figures.backupMs = Date.now() - backupStarted;
    writing = false;
    await writers;
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8')) as {
      bytes: number;
      databases: { collections: { name: string; documents: number }[] }[];
      stream: { messages: number; consumers: { durable: string }[] };
      cut?: { moment: boolean; heldMs: number; heldRequests: number };
    };
    figures.fenceHeldMs = manifest.cut?.heldMs;
    figures.fenceHeldRequests = manifest.cut?.heldRequests;
    figures.backupBytes = manifest.bytes;
    figures.documents = manifest.databases.flatMap((d) => d.collections).reduce((n, c) => n + c.documents, 0);
    figures.messages = manifest.stream.messages;
    expect(backupOutput).toContain('backup done');
    expect(manifest.stream.consumers.map((c) => c.durable)).toContain('events-activity-log');
    expect(during.length).toBeGreaterThan(0);
    expect(deleted.length).toBeGreaterThan(0);
    const deletedIds = new Set(deleted.map((d) => d.id));
    const deletedTargets = new Set(deleted.flatMap((d) => [`Issue ${d.id}`, `Note ${d.noteId}`]));

    // Let the writes made during the backup settle, then remember everything the backup must hold.
    await activityOf([...filled, ...during]);
    before = await snapshot();
    expect(before.issues).toHaveLength(ISSUES + during.length - deleted.length);
    expect(before.alerts).toHaveLength(ALERTS);
    expect(before.tags).toHaveLength(TAGS);

    // Wipe: services stopped, infrastructure started again on an empty data directory.
    await stack.stop();
    await infra.stop();
    infra = await startInfra({ rootDir, dataDir, fresh: true });

    const restoreStarted = Date.now();
    const restoreOutput = await runTool(['restore', backupDir], infra);
    figures.restoreMs = Date.now() - restoreStarted;
    expect(restoreOutput).toContain('restore done');
    await expect(runTool(['restore', backupDir], infra)).rejects.toThrow(/--replace/);

    await startServices();
    // Everything written before the backup began is back with its activity; of what was written while it
    // ran, what came before the cut is, each restored item with its activity, none twice; an issue deleted
    // after the cut is back whole.
    const after = await snapshot();
    const issueIds = new Set(after.issues.map((issue) => issue.id));
    const noteIds = new Set(after.notes.map((note) => note.id));
    const restoredTarget = (e: Snapshot['events'][number]): boolean =>
      e.target_type === 'Issue'
        ? issueIds.has(e.target_id ?? -1)
        : e.target_type === 'Note'
          ? noteIds.has(e.target_id ?? -1)
          : true;
    const what = (e: Snapshot['events'][number]): string =>
      `${e.action_name} ${e.target_type} ${e.target_id}`;
    const required = before.events.filter(restoredTarget).map(what).sort();
    await eventually(
      () => all<Snapshot['events'][number]>(`/projects/${projectId}/events`),
      (list) => list.filter(restoredTarget).length >= required.length,
      60_000,
      300,
    );
    // A doubled event could still arrive: give stragglers a moment before the final count.
    await new Promise((r) => setTimeout(r, 2_000));
    after.events = await all<Snapshot['events'][number]>(`/projects/${projectId}/events`);
    restored = after;

    expect(after.issues.filter((issue) => issue.title.startsWith('Issue '))).toHaveLength(ISSUES);
    const deletedNoteIds = new Set(deleted.map((d) => d.noteId));
    expect(after.issues.filter((issue) => !deletedIds.has(issue.id))).toEqual(
      before.issues.filter((issue) => issueIds.has(issue.id)),
    );
    expect(after.notes.filter((note) => !deletedNoteIds.has(note.id))).toEqual(
      before.notes.filter((note) => noteIds.has(note.id)),
    );
    const { users, labels, milestones, alerts, tags } = after;
    expect({ users, labels, milestones, alerts, tags }).toEqual({
      users: before.users,
      labels: before.labels,
      milestones: before.milestones,
      alerts: before.alerts,
      tags: before.tags,
    });
    expect(after.events.filter(restoredTarget).map(what).sort()).toEqual(required);
    // One moment: an activity event whose issue or note is missing is one whose deletion the copy holds.
    const unexplained = after.events
      .filter((e) => !restoredTarget(e))
      .filter((e) => !deletedTargets.has(`${e.target_type} ${e.target_id}`));
    Object.assign(figures, {
      writesDuringBackup: during.length,
      deletionsDuringBackup: deleted.length,
      restoredOfThose: during.filter((d) => issueIds.has(d.id)).length,
      eventsWithoutTheirIssueOrNote: unexplained.length,
    });
    expect(unexplained.map(what)).toEqual([]);
    expect(manifest.cut).toMatchObject({ moment: true });
    expect(new Set(after.events.map((e) => e.id)).size).toBe(after.events.length);
  }, 300_000);

  it('When the restored stack takes new writes, then no id is handed out twice and each new event is recorded once', async () => {
    const newIssue = await openIssue('After restore');
    // Past every id the restored databases and activity log know, those left behind by the backup included.
    const known = (type: string, ids: number[]): number =>
      Math.max(...ids, ...restored.events.filter((e) => e.target_type === type).map((e) => e.target_id ?? 0));
    const iids = restored.events
      .filter((e) => e.target_type === 'Issue')
      .map((e) => (e as { target_iid?: number }).target_iid ?? 0);
    expect(newIssue.iid).toBeGreaterThan(Math.max(...restored.issues.map((i) => i.iid), ...iids));
    expect(newIssue.id).toBeGreaterThan(
      known(
        'Issue',
        restored.issues.map((i) => i.id),
      ),
    );
    expect(newIssue.noteId).toBeGreaterThan(
      known(
        'Note',
        restored.notes.map((n) => n.id),
      ),
    );
    const label = await json<{ id: number }>(`/groups/${groupId}/labels`, {
      method: 'POST',
      body: { name: 'after-restore', color: '#428bca' },
    });
    expect(before.labels.map((l) => l.id)).not.toContain(label.id);
    const milestone = await json<{ id: number; iid: number }>(`/groups/${groupId}/milestones`, {
      method: 'POST',
      body: { title: 'After restore' },
    });
    expect(milestone.iid).toBe(MILESTONES + 1);
    const user = await json<{ id: number }>('/users', {
      method: 'POST',
      body: {
        username: 'newcomer',
        name: 'Newcomer',
        email: 'newcomer@example.com',
        password: 'long-enough-password',
      },
    });
    // The Ghost User sits at an id reserved above the counter's range; every other user was counted out.
    const counted = before.users.filter((u) => u.id !== GHOST_USER.id).map((u) => u.id);
    expect(user.id).toBeGreaterThan(Math.max(...counted));
    expect(user.id).not.toBe(GHOST_USER.id);

    // The new issue and its note, each recorded once, under activity ids after every restored one.
    const events = await settledEvents(restored.events.length + 2);
    expect(events).toHaveLength(restored.events.length + 2);
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const fresh = events.filter((e) => !restored.events.some((r) => r.id === e.id));
    expect(fresh.map((e) => `${e.target_type} ${e.target_id}`).sort()).toEqual([
      `Issue ${newIssue.id}`,
      `Note ${newIssue.noteId}`,
    ]);
    expect(Math.min(...fresh.map((e) => e.id))).toBeGreaterThan(
      Math.max(...restored.events.map((e) => e.id)),
    );
  }, 90_000);

  it('When the current code starts on a database in an older shape (no migrations recorded, no route claims), then it migrates it and serves', async () => {
    await stack.stop();
    const gateway = await connectMongo(infra.mongoUrl, `${PREFIX}gateway`);
    try {
      for (const service of [
        'gateway',
        'boards',
        'discussions',
        'alerts',
        'notifications',
        'events',
        'registry',
      ]) {
        await gateway
          .getClient()
          .db(`${PREFIX}${service}`)
          .collection('migrations')
          .drop()
          .catch(() => false);
      }
      await gateway.collection('routes').deleteMany({});

      await startServices();
      const steps = await gateway
        .collection<{ _id: string; version: number }>('migrations')
        .find({ _id: { $in: ['v1', 'v2'] } })
        .toArray();
      expect(steps.map((s) => s.version).sort()).toEqual([1, 2]);
      expect(
        await gateway
          .collection<{ _id: string }>('routes')
          .countDocuments({ _id: { $in: ['keep', 'keep/app'] } }),
      ).toBe(2);
    } finally {
      await gateway.close();
    }
    // Served, and the claims hold: a subgroup cannot take the project's path.
    expect((await json<{ id: number }>(`/projects/${projectId}`)).id).toBe(projectId);
    const clash = await api('/groups', {
      method: 'POST',
      body: { name: 'app', path: 'app', parent_id: groupId },
    });
    expect(clash.status).toBe(400);
    expect(await all(`/projects/${projectId}/issues`)).toHaveLength(restored.issues.length + 1);
  }, 120_000);
});
