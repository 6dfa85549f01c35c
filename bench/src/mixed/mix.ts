import type { MixedFixture } from './fixture';

/**
 * The request mix, after the shape of GitLab's own traffic that the GitLab Performance Tool models: 88 %
 * reads, 12 % writes, every request with the token of a random member of the private group. Weights are
 * per cent of requests; each kind builds its request from the fixture and a random source.
 */
export interface PlannedRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Path and query under the gateway's origin. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The status a correct answer has. */
  expect: number;
}

export interface RequestKind {
  name: string;
  weight: number;
  write: boolean;
  plan: (pick: Picker) => PlannedRequest;
}

/** Random choices over the fixture: a project, one of its issues, a user's token. */
export interface Picker {
  int: (n: number) => number;
  project: () => MixedFixture['projects'][number];
  /** A random project and one of the issues the fixture gave it. */
  issue: () => { projectId: number; iid: number };
  token: () => string;
  fixture: MixedFixture;
  /** A number unique to this request (titles, fingerprints). */
  serial: number;
}

/** mulberry32: a small seeded generator, so two runs send the same sequence of requests. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function picker(fixture: MixedFixture, random: () => number): (serial: number) => Picker {
  const int = (n: number): number => Math.floor(random() * n);
  const project = () => fixture.projects[int(fixture.projects.length)]!;
  const issue = () => {
    const { id } = project();
    const range = fixture.iids.get(id)!;
    return { projectId: id, iid: range.first + int(range.count) };
  };
  const token = () => fixture.users.tokens[int(fixture.users.tokens.length)]!;
  return (serial) => ({ int, project, issue, token, fixture, serial });
}

const get = (p: Picker, path: string): PlannedRequest => ({
  method: 'GET',
  path: `/api/v4${path}`,
  headers: { 'PRIVATE-TOKEN': p.token() },
  expect: 200,
});

const send = (
  p: Picker,
  method: 'POST' | 'PUT',
  path: string,
  body: object,
  expect: number,
): PlannedRequest => ({
  method,
  path: `/api/v4${path}`,
  headers: { 'PRIVATE-TOKEN': p.token(), 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
  expect,
});

const issuePath = (p: Picker): string => {
  const { projectId, iid } = p.issue();
  return `/projects/${projectId}/issues/${iid}`;
};

export const MIX: RequestKind[] = [
  { name: 'GET one issue', weight: 12, write: false, plan: (p) => get(p, issuePath(p)) },
  {
    name: 'GET issue list',
    weight: 10,
    write: false,
    plan: (p) => get(p, `/projects/${p.project().id}/issues`),
  },
  { name: 'GET issue notes', weight: 10, write: false, plan: (p) => get(p, `${issuePath(p)}/notes`) },
  {
    name: 'GET issue discussions',
    weight: 8,
    write: false,
    plan: (p) => get(p, `${issuePath(p)}/discussions`),
  },
  {
    name: 'GET board',
    weight: 6,
    write: false,
    plan: (p) => get(p, `/groups/${p.fixture.groupId}/boards/${p.fixture.boardId}`),
  },
  {
    name: 'GET board column (group issues by label)',
    weight: 8,
    write: false,
    plan: (p) =>
      get(p, `/groups/${p.fixture.groupId}/issues?labels=${p.fixture.labels[p.int(2)]!}&state=opened`),
  },
  {
    name: 'GET group labels',
    weight: 6,
    write: false,
    plan: (p) => get(p, `/groups/${p.fixture.groupId}/labels`),
  },
  {
    name: 'GET project events',
    weight: 8,
    write: false,
    plan: (p) => get(p, `/projects/${p.project().id}/events`),
  },
  {
    name: 'GET user events',
    weight: 6,
    write: false,
    plan: (p) => get(p, `/users/${p.fixture.eventAuthors[p.int(p.fixture.eventAuthors.length)]!}/events`),
  },
  {
    name: 'GET registry tags',
    weight: 5,
    write: false,
    plan: (p) => {
      const { id } = p.project();
      return get(p, `/projects/${id}/registry/repositories/${p.fixture.repositories.get(id)!}/tags`);
    },
  },
  {
    name: 'GET alerts',
    weight: 4,
    write: false,
    plan: (p) => get(p, `/projects/${p.project().id}/alert_management/alerts`),
  },
  {
    name: 'GET notification settings',
    weight: 2,
    write: false,
    plan: (p) => get(p, '/notification_settings'),
  },
  { name: 'GET /user', weight: 3, write: false, plan: (p) => get(p, '/user') },
  {
    name: 'POST comment',
    weight: 5,
    write: true,
    plan: (p) => send(p, 'POST', `${issuePath(p)}/notes`, { body: `Mixed comment ${p.serial}` }, 201),
  },
  {
    name: 'POST issue',
    weight: 3,
    write: true,
    plan: (p) =>
      send(p, 'POST', `/projects/${p.project().id}/issues`, { title: `Mixed new issue ${p.serial}` }, 201),
  },
  {
    name: 'PUT issue labels',
    weight: 2,
    write: true,
    plan: (p) => {
      const label = p.fixture.labels[2]!;
      const change = p.int(2) === 0 ? { add_labels: label } : { remove_labels: label };
      return send(p, 'PUT', issuePath(p), change, 200);
    },
  },
  {
    name: 'POST alert (integration)',
    weight: 2,
    write: true,
    plan: (p) => {
      const project = p.project();
      return {
        method: 'POST',
        path: new URL(project.notifyUrl).pathname,
        headers: { Authorization: `Bearer ${project.notifyToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: `Mixed alert ${p.serial}`,
          fingerprint: `mixed-${p.serial}`,
          severity: 'low',
        }),
        expect: 200,
      };
    },
  },
];

/** Chooses kinds by weight: the index of the kind a uniform draw in [0, 1) falls on. */
export function kindChooser(kinds: RequestKind[]): (draw: number) => number {
  const total = kinds.reduce((sum, k) => sum + k.weight, 0);
  const bounds: number[] = [];
  let acc = 0;
  for (const kind of kinds) bounds.push((acc += kind.weight / total));
  return (draw) => {
    const i = bounds.findIndex((b) => draw < b);
    return i === -1 ? kinds.length - 1 : i;
  };
}
