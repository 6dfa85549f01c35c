import { rootToken, unique } from '../e2e.helpers';
import { must, pool } from './http';
import { createResources, type Resources } from './resources';
import { CALLER_NAMES, VISIBILITIES, type CallerName, type Visibility } from './sight';

/**
 * The people and places the authorization matrix runs against: one user per caller, and per visibility a
 * group of that visibility where the role-named callers are members, holding a project of the same
 * visibility with one of every resource an endpoint needs (resources.ts). Everything is made through the
 * API, as root or as the Owner, so the events the owner's actions raise are the owner's.
 */
export interface Person {
  id: number;
  username: string;
  token: string;
}

export interface Target {
  visibility: Visibility;
  group: { id: number; fullPath: string };
  project: { id: number; pathWithNamespace: string; path: string };
  resources: Resources;
}

export interface World {
  /** The token each caller sends (none for the anonymous caller). */
  tokens: Record<CallerName, string | null>;
  people: Record<Exclude<CallerName, 'anonymous' | 'read_api'>, Person>;
  /** A user no caller is, for member adds and user-scoped admin endpoints. */
  bystander: Person;
  targets: Record<Visibility, Target>;
  root: string;
}

const MEMBER_LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;

export async function createUser(prefix: string, options: { admin?: boolean } = {}): Promise<Person> {
  const root = rootToken();
  const username = unique(prefix);
  const user = await must<{ id: number }>('POST', '/users', {
    token: root,
    body: {
      username,
      name: `Matrix ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
      skip_confirmation: true,
      ...(options.admin ? { admin: true } : {}),
    },
  });
  const token = await must<{ token: string }>('POST', `/users/${user.id}/personal_access_tokens`, {
    token: root,
    body: { name: 'matrix', scopes: ['api'] },
  });
  return { id: user.id, username, token: token.token };
}

export async function createGroup(
  visibility: Visibility,
  parentId?: number,
): Promise<{ id: number; fullPath: string }> {
  const path = unique(`authz-${visibility.slice(0, 3)}-`);
  const group = await must<{ id: number; full_path: string }>('POST', '/groups', {
    token: rootToken(),
    body: { name: path, path, visibility, ...(parentId ? { parent_id: parentId } : {}) },
  });
  return { id: group.id, fullPath: group.full_path };
}

export async function createProject(
  groupId: number,
  visibility: Visibility,
  token = rootToken(),
): Promise<{ id: number; pathWithNamespace: string; path: string }> {
  const path = unique(`proj-${visibility.slice(0, 3)}-`);
  const project = await must<{ id: number; path_with_namespace: string; path: string }>('POST', '/projects', {
    token,
    body: { name: path, path, namespace_id: groupId, visibility },
  });
  return { id: project.id, pathWithNamespace: project.path_with_namespace, path: project.path };
}

async function createTarget(
  visibility: Visibility,
  people: World['people'],
  bystander: Person,
): Promise<Target> {
  const root = rootToken();
  const group = await createGroup(visibility);
  for (const [role, level] of Object.entries(MEMBER_LEVELS)) {
    const person = people[role as keyof typeof MEMBER_LEVELS];
    await must('POST', `/groups/${group.id}/members`, {
      token: root,
      body: { user_id: person.id, access_level: level },
    });
  }
  const project = await createProject(group.id, visibility, people.owner.token);
  const resources = await createResources({ visibility, group, project, owner: people.owner, bystander });
  return { visibility, group, project, resources };
}

/** The world; the fuzzer needs one visibility only (the targets of the others are then missing). */
export async function createWorld(visibilities: readonly Visibility[] = VISIBILITIES): Promise<World> {
  const names = CALLER_NAMES.filter(
    (c): c is Exclude<CallerName, 'anonymous' | 'read_api'> => c !== 'anonymous' && c !== 'read_api',
  );
  const made = await pool(names, 4, (name) =>
    createUser(`mx${name.slice(0, 3)}`, { admin: name === 'admin' }),
  );
  const people = Object.fromEntries(names.map((name, i) => [name, made[i]!])) as World['people'];
  const bystander = await createUser('mxby');
  const readApi = await must<{ token: string }>('POST', `/users/${people.owner.id}/personal_access_tokens`, {
    token: rootToken(),
    body: { name: 'matrix read_api', scopes: ['read_api'] },
  });
  const targets = {} as Record<Visibility, Target>;
  // One visibility at a time: the machine is small and the stack's consumers settle in between.
  for (const visibility of visibilities)
    targets[visibility] = await createTarget(visibility, people, bystander);
  const tokens = {
    anonymous: null,
    read_api: readApi.token,
    ...Object.fromEntries(names.map((name) => [name, people[name].token])),
  } as Record<CallerName, string | null>;
  return { tokens, people, bystander, targets, root: rootToken() };
}
