import { createHash } from 'node:crypto';
import type { InfraHandle } from '@gl/infra';
import { STACK_SERVICES, STACK_WORKERS, type RunningStack } from '@gl/launcher';
import { eventually } from './e2e.helpers';
import { startOwnStack } from './own-stack';

/**
 * Two replicas of every service and of the registry worker on a stack of their own (own infrastructure:
 * its bus consumers must not share messages with the suite's stack), under a bounded concurrent load
 * through the gateway: writes are neither lost nor doubled, whichever replica took them. Bounded: about
 * 500 requests from 8 clients, waits capped at 60 s.
 */
const ROOT_TOKEN = 'glpat-replicas-root-token-000000000';
const CLIENTS = 8;
const ISSUES = 200;
const ALERTS = 50;
const LISTS = 6;
const MOVES = 48;
const REGISTRY_SECRET = 'replicas-registry-notification-secret';
const TAGS_PER_REPOSITORY = 300;
const KEEP = 10;

/** Runs the tasks with `CLIENTS` of them in flight at a time, as that many clients would. */
async function concurrently<T>(count: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const client = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return results;
}

/** How many API requests (routes under /api/v4 or the alert notify path) a process has answered. */
async function apiRequestsServed(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('http_request_duration_seconds_count{')) continue;
    if (!/route="(\/api\/v4|\/:|[^"]*notify)/.test(line)) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Tags the registry worker reports as deleted by bulk deletes (`registry_cleanup_tags_total`). */
async function tagsDeletedByWorker(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('registry_cleanup_tags_total{') && line.includes('outcome="deleted"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** A Docker distribution registry's push notification for one tag. */
function pushEvent(repository: string, tag: string): Record<string, unknown> {
  return {
    id: `${repository}:${tag}`,
    timestamp: new Date().toISOString(),
    action: 'push',
    target: {
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      size: 528,
      length: 528,
      digest: `sha256:${createHash('sha256').update(`${repository}:${tag}`).digest('hex')}`,
      repository,
      url: `http://registry.example.com:5000/v2/${repository}/manifests/${tag}`,
      tag,
    },
    request: {
      id: `${repository}:${tag}`,
      addr: '127.0.0.1',
      host: 'registry.example.com:5000',
      method: 'PUT',
    },
    actor: {},
    source: { addr: 'registry:5000', instanceID: 'replicas' },
  };
}

async function eventsConsumed(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('domain_events_consumed_total'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

interface Activity {
  id: number;
  action_name: string;
  target_type: string | null;
  target_id: number | null;
  target_iid: number | null;
}

describe('replicas: two of every service under concurrent load', () => {
  let infra: InfraHandle;
  let stack: RunningStack;

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

  beforeAll(async () => {
    const kinds = [...STACK_SERVICES, ...Object.keys(STACK_WORKERS)] as (keyof RunningStack['replicaUrls'])[];
    ({ infra, stack } = await startOwnStack('replicas', ROOT_TOKEN, {
      replicas: Object.fromEntries(kinds.map((kind) => [kind, 2])),
      extraEnv: { REGISTRY_NOTIFICATION_SECRET: REGISTRY_SECRET },
    }));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await infra?.stop();
  });

  it('When the stack starts with two of each, then every service and worker runs twice and the gateway is ready', async () => {
    for (const urls of Object.values(stack.replicaUrls)) expect(urls).toHaveLength(2);
    const readiness = (await (await fetch(`${stack.gatewayUrl}/-/readiness`)).json()) as {
      checks: Record<string, boolean>;
    };
    for (const service of STACK_SERVICES) {
      expect(readiness.checks).toMatchObject({ [`${service}#1`]: true, [`${service}#2`]: true });
    }
  });

  it('When a member is removed, then no replica serves their group issue list from what it kept before', async () => {
    const user = await json<{ id: number }>('/users', {
      method: 'POST',
      body: { username: 'kept', name: 'Kept', email: 'kept@example.com', password: 'correct-horse-battery' },
    });
    const { token } = await json<{ token: string }>(`/users/${user.id}/personal_access_tokens`, {
      method: 'POST',
      body: { name: 'e2e', scopes: ['api'] },
    });
    const group = await json<{ id: number }>('/groups', {
      method: 'POST',
      body: { name: 'kept-group', path: 'kept-group', visibility: 'public' },
    });
    const project = await json<{ id: number }>('/projects', {
      method: 'POST',
      body: { path: 'kept-project', namespace_id: group.id, visibility: 'private' },
    });
    await json(`/projects/${project.id}/members`, {
      method: 'POST',
      body: { user_id: user.id, access_level: 30 },
    });
    const issue = await json<{ id: number }>(`/projects/${project.id}/issues`, {
      method: 'POST',
      body: { title: 'Members only' },
    });
    // Four reads: the gateway takes turns, so each discussions replica answers (and keeps) two.
    const listedFourTimes = async (): Promise<boolean[]> => {
      const seen: boolean[] = [];
      for (let i = 0; i < 4; i += 1) {
        const response = await fetch(`${stack.gatewayUrl}/api/v4/groups/${group.id}/issues`, {
          headers: { 'PRIVATE-TOKEN': token },
        });
        expect(response.status).toBe(200);
        seen.push(((await response.json()) as { id: number }[]).some((i) => i.id === issue.id));
      }
      return seen;
    };
    expect(await listedFourTimes()).toEqual([true, true, true, true]);
    expect((await api(`/projects/${project.id}/members/${user.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await listedFourTimes()).toEqual([false, false, false, false]);
  });

  describe('under load', () => {
    let projectId: number;
    let projectPath: string;
    const issueIids: number[] = [];
    const noteIds: number[] = [];

    beforeAll(async () => {
      const project = await json<{ id: number; path_with_namespace: string }>('/projects', {
        method: 'POST',
        body: { name: 'replicas', path: 'replicas', visibility: 'private' },
      });
      projectId = project.id;
      projectPath = project.path_with_namespace;
    });

    it('When 8 clients open 200 issues and comment on each, then every one lands once with its own iid', async () => {
      const results = await concurrently(ISSUES, async (i) => {
        const issue = await json<{ iid: number }>(`/projects/${projectId}/issues`, {
          method: 'POST',
          body: { title: `Load issue ${i}` },
        });
        const note = await json<{ id: number }>(`/projects/${projectId}/issues/${issue.iid}/notes`, {
          method: 'POST',
          body: { body: `Note on ${i}` },
        });
        return { iid: issue.iid, noteId: note.id };
      });
      issueIids.push(...results.map((r) => r.iid));
      noteIds.push(...results.map((r) => r.noteId));
      expect(new Set(issueIids).size).toBe(ISSUES);
      expect([...issueIids].sort((a, b) => a - b)).toEqual(Array.from({ length: ISSUES }, (_, i) => i + 1));
    }, 120_000);

    it('When the activity settles, then each issue is opened once and each note commented once: none lost, none doubled', async () => {
      const readAll = async (): Promise<Activity[]> => {
        const all: Activity[] = [];
        for (let page = 1; ; page++) {
          const batch = await json<Activity[]>(`/projects/${projectId}/events?per_page=100&page=${page}`);
          all.push(...batch);
          if (batch.length < 100) return all;
        }
      };
      // Settled: every expected event is in, or the count has not moved for 10 s (lost, not late).
      const expected = 2 * ISSUES;
      const counted = (list: Activity[]): number =>
        list.filter((e) => e.target_type === 'Issue' || e.target_type === 'Note').length;
      let last = -1;
      let stableSince = Date.now();
      await eventually(
        readAll,
        (list) => {
          const n = counted(list);
          if (n !== last) [last, stableSince] = [n, Date.now()];
          return n >= expected || Date.now() - stableSince > 10_000;
        },
        60_000,
        500,
      );
      // A doubled event could still arrive: give stragglers a moment before the final count.
      await new Promise((r) => setTimeout(r, 2_000));
      const activity = await readAll();

      const opened = activity.filter((e) => e.action_name === 'opened' && e.target_type === 'Issue');
      const commented = activity.filter((e) => e.target_type === 'Note');
      const repeated = (values: (number | null)[]): (number | null)[] =>
        values.filter((v, i) => values.indexOf(v) !== i);
      const openedIids = new Set(opened.map((e) => e.target_iid));
      const noteTargets = new Set(commented.map((e) => e.target_id));
      expect({
        missingOpened: issueIids.filter((iid) => !openedIids.has(iid)).length,
        missingNotes: noteIds.filter((id) => !noteTargets.has(id)).length,
        openedTwice: repeated(opened.map((e) => e.target_iid)),
        commentedTwice: repeated(commented.map((e) => e.target_id)),
        sameEventIdTwice: repeated(activity.map((e) => e.id)),
      }).toEqual({
        missingOpened: 0,
        missingNotes: 0,
        openedTwice: [],
        commentedTwice: [],
        sameEventIdTwice: [],
      });
    }, 90_000);

    it('When 50 alerts with one fingerprint arrive from 8 clients at once, then one alert counts 50', async () => {
      const integration = await json<{ url: string; token: string }>(
        `/projects/${projectId}/alert_management/http_integrations`,
        { method: 'POST', body: { name: 'Load', active: true } },
      );
      expect(integration.url).toContain(`/${projectPath}/alerts/notify/`);
      const statuses = await concurrently(ALERTS, async (i) => {
        const response = await fetch(integration.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', Authorization: `Bearer ${integration.token}` },
          body: JSON.stringify({ title: 'Disk full', fingerprint: 'disk-full', description: `sample ${i}` }),
        });
        await response.text();
        return response.status;
      });
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      const alerts = await json<{ iid: number; event_count: number; title: string }[]>(
        `/projects/${projectId}/alert_management/alerts?per_page=100`,
      );
      expect(alerts.map((a) => ({ title: a.title, event_count: a.event_count }))).toEqual([
        { title: 'Disk full', event_count: ALERTS },
      ]);
    }, 60_000);

    it('When 8 clients move the lists of one board at once, then positions stay a permutation', async () => {
      const group = await json<{ id: number }>('/groups', {
        method: 'POST',
        body: { name: 'replicas-board', path: 'replicas-board', visibility: 'private' },
      });
      const board = await json<{ id: number }>(`/groups/${group.id}/boards`, {
        method: 'POST',
        body: { name: 'Load' },
      });
      const lists: { id: number }[] = [];
      for (let i = 0; i < LISTS; i++) {
        const label = await json<{ id: number }>(`/groups/${group.id}/labels`, {
          method: 'POST',
          body: { name: `stage-${i}`, color: '#0033CC' },
        });
        lists.push(
          await json<{ id: number }>(`/groups/${group.id}/boards/${board.id}/lists`, {
            method: 'POST',
            body: { label_id: label.id },
          }),
        );
      }
      // Moving a list to where it already is answers 400 "List could not be moved!" (GitLab's
      // Boards::Lists::MoveService); under concurrent moves some targets are already taken that way.
      const answers = await concurrently(MOVES, async (i) => {
        const response = await api(`/groups/${group.id}/boards/${board.id}/lists/${lists[i % LISTS]!.id}`, {
          method: 'PUT',
          // Each round of six moves shifts every list by a different distance.
          body: { position: ((i % LISTS) + 1 + Math.floor(i / LISTS)) % LISTS },
        });
        return `${response.status} ${response.status === 200 ? '' : await response.text()}`.trim();
      });
      const unexpected = answers.filter(
        (a) => a !== '200' && a !== '400 {"message":{"error":"List could not be moved!"}}',
      );
      expect(unexpected).toEqual([]);
      expect(answers.filter((a) => a === '200').length).toBeGreaterThan(MOVES / 4);
      const after = await json<{ id: number; position: number }[]>(
        `/groups/${group.id}/boards/${board.id}/lists`,
      );
      expect(after.map((l) => l.id).sort()).toEqual(lists.map((l) => l.id).sort());
      expect(after.map((l) => l.position).sort((a, b) => a - b)).toEqual(
        Array.from({ length: LISTS }, (_, i) => i),
      );
    }, 60_000);

    it('When two bulk tag deletes run on two workers, then every tag beyond keep_n goes exactly once', async () => {
      const repositories = ['images-a', 'images-b'].map((name) => `${projectPath}/${name}`);
      for (const repository of repositories) {
        for (let start = 0; start < TAGS_PER_REPOSITORY; start += 100) {
          const events = Array.from({ length: 100 }, (_, i) => pushEvent(repository, `v${start + i}`));
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
      }
      const listed = await json<{ id: number; path: string }[]>(
        `/projects/${projectId}/registry/repositories`,
      );
      const ids = repositories.map((path) => listed.find((r) => r.path === path)?.id);
      const deletedBefore = (
        await Promise.all(stack.replicaUrls['registry-worker'].map(tagsDeletedByWorker))
      ).reduce((a, b) => a + b, 0);

      const accepted = await Promise.all(
        ids.map((id) =>
          api(`/projects/${projectId}/registry/repositories/${id}/tags`, {
            method: 'DELETE',
            body: { name_regex_delete: '.*', keep_n: KEEP },
          }).then((r) => r.status),
        ),
      );
      expect(accepted).toEqual([202, 202]);
      const left = await eventually(
        () =>
          Promise.all(
            ids.map(
              async (id) =>
                (
                  await json<unknown[]>(
                    `/projects/${projectId}/registry/repositories/${id}/tags?per_page=100`,
                  )
                ).length,
            ),
          ),
        (counts) => counts.every((n) => n === KEEP),
        60_000,
        500,
      );
      expect(left).toEqual([KEEP, KEEP]);
      // A job run twice would count its tags twice: the workers together report each deletion once.
      const deletedAfter = (
        await Promise.all(stack.replicaUrls['registry-worker'].map(tagsDeletedByWorker))
      ).reduce((a, b) => a + b, 0);
      expect(deletedAfter - deletedBefore).toBe(2 * (TAGS_PER_REPOSITORY - KEEP));
    }, 120_000);

    it('When the load is over, then both replicas of every service answered requests and both events replicas consumed', async () => {
      // Reads that reach the three services the load above did not write to.
      const reads = [
        '/notification_settings',
        `/projects/${projectId}/registry/repositories`,
        `/projects/${projectId}/hooks`,
      ];
      await concurrently(12, (i) => json(reads[i % reads.length]!));
      const served: Record<string, number[]> = {};
      for (const service of STACK_SERVICES) {
        served[service] = await Promise.all(stack.replicaUrls[service].map(apiRequestsServed));
      }
      const consumed = await Promise.all(stack.replicaUrls.events.map(eventsConsumed));
      for (const service of STACK_SERVICES) {
        expect({ service, idle: served[service]!.filter((n) => n === 0).length }).toEqual({
          service,
          idle: 0,
        });
      }
      expect(consumed.every((n) => n > 0)).toBe(true);
    }, 30_000);
  });
});
