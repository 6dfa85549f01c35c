import { makeFresh } from '../fresh';
import { unique } from '../../e2e.helpers';
import { call, must, type Reply } from '../http';
import { defaultParams } from '../matrix';
import type { Operation } from '../openapi';
import { RULES, type CellContext, type ParamValues } from '../rules';
import type { Visibility } from '../sight';
import type { World } from '../world';
import { describeMutation, type FuzzCase } from './cases';

/**
 * Sends one hostile request and judges the answer: never a 5xx, never slower than the issue's 5 s bound,
 * and a refusal (4xx) leaves the addressed resource as it was. The resource is read back through the API
 * as root — its item, or the list a create adds to — before and after, once background work has settled:
 * the stack's databases are shared with the suites running beside this one, so a whole-database
 * fingerprint would see their writes.
 */
export interface FuzzFinding {
  request: string;
  problem: string;
}

const SLOW_MS = 5_000;

function contextOf(world: World, visibility: Visibility): CellContext {
  const target = world.targets[visibility];
  return { world, target, r: target.resources, caller: 'owner', visibility };
}

/** The GET whose answer shows what a write changes: the same path, or the nearest parent with a GET. */
export function probeTemplate(op: Operation, getPaths: Set<string>): string | null {
  if (op.method === 'GET') return null;
  if (op.operationId === 'receiveRegistryEvents') return '/projects/{id}/registry/repositories';
  if (op.outsideApi) return '/projects/{id}/alert_management/alerts';
  let path = op.path;
  while (path.includes('/')) {
    if (getPaths.has(path)) return path;
    path = path.slice(0, path.lastIndexOf('/'));
  }
  return '/projects/{id}';
}

/** The GET that shows what a case's write changed, and who reads it. */
interface Probe {
  path: string;
  token: string;
}

/**
 * The probe for a case. The instance-wide project, group and user lists change whenever another suite
 * running beside the fuzzer creates something, so a refused create there is checked against what the
 * fuzzing owner owns, or against the one user the request would have made; everything else is read as
 * root, who sees it all.
 */
function probeOf(world: World, template: string, params: ParamValues, username: string | null): Probe {
  const owner = world.tokens.owner;
  if ((template === '/projects' || template === '/groups') && owner !== null) {
    return { path: `${template}?owned=true&per_page=100`, token: owner };
  }
  if (template === '/users' && username !== null) {
    // A lone surrogate cannot be put in a URL; it is what a server that accepted it would have stored
    // instead (U+FFFD) that must not exist afterwards.
    const stored = username.replace(/\p{Surrogate}/gu, '\ufffd');
    return { path: `/users?username=${encodeURIComponent(stored)}`, token: world.root };
  }
  return {
    path: fill(template, params) + (template.endsWith('s') ? '?per_page=100' : ''),
    token: world.root,
  };
}

function fill(template: string, values: ParamValues, raw: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name in raw ? raw[name]! : encodeURIComponent(String(values[name] ?? '')),
  );
}

/** Path parameters of the alert notify endpoints, read from the integration's own URL. */
function notifyParams(c: CellContext): ParamValues {
  const [namespace, project, , , name, file] = new URL(c.r.integration.url).pathname.slice(1).split('/');
  return {
    namespace: namespace!,
    project: project!,
    name: name!,
    endpoint_identifier: file!.replace(/\.json$/, ''),
  };
}

/** A value of `field` some other record already holds, for the uniqueness cases. */
async function takenValue(operationId: string, c: CellContext): Promise<unknown> {
  const g = `/groups/${c.target.group.id}`;
  const owner = c.world.tokens.owner;
  switch (operationId) {
    case 'createGroupLabel':
      return (await must<{ name: string }>('GET', `${g}/labels/${c.r.labelId}`, { token: owner })).name;
    case 'updateGroupLabel':
    case 'createGroupBoardList': {
      const list = await must<{ label: { id: number; name: string } }>(
        'GET',
        `${g}/boards/${c.r.boardId}/lists/${c.r.listId}`,
        { token: owner },
      );
      return operationId === 'updateGroupLabel' ? list.label.name : list.label.id;
    }
    case 'createGroupMilestone':
      return (await must<{ title: string }>('GET', `${g}/milestones/${c.r.milestoneId}`, { token: owner }))
        .title;
    case 'updateGroupMilestone': {
      const title = unique('taken-');
      await must('POST', `${g}/milestones`, { token: owner, body: { title } });
      return title;
    }
    case 'createProject':
      return c.target.project.path;
    case 'createUser':
      return c.world.bystander.username;
    case 'addUserEmail':
      return `${c.world.people.owner.username}@example.com`;
    default:
      throw new Error(`no value in use known for ${operationId}`);
  }
}

/** Where two readings first differ, with a little context, so a finding says what changed. */
function firstDifference(before: string, after: string): string {
  let i = 0;
  while (i < before.length && before[i] === after[i]) i++;
  const from = Math.max(0, i - 40);
  return `…${before.slice(from, i + 60)}… became …${after.slice(from, i + 60)}…`;
}

async function stableRead(path: string, token: string): Promise<string> {
  let previous = (await call('GET', path, { token })).text;
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const current = (await call('GET', path, { token })).text;
    if (current === previous) return current;
    previous = current;
  }
  return previous;
}

/**
 * Operations that revoke the very token they are sent with (GitLab ignores unknown query parameters, so a
 * hostile query still revokes it): each case spends a token of the owner's own, made for it, so the
 * cases after it keep the world's token.
 */
const SPENDS_ITS_TOKEN = new Set(['revokeCurrentPersonalAccessToken']);

async function spareToken(world: World): Promise<string> {
  const made = await must<{ token: string }>(
    'POST',
    `/users/${world.people.owner.id}/personal_access_tokens`,
    {
      token: world.root,
      body: { name: unique('fuzz-spare'), scopes: ['api'] },
    },
  );
  return made.token;
}

/**
 * The username a user create would make, from a body as sent (JSON text) or as built; null without one
 * (missing, oversize, not JSON). The body actually sent is asked first, whatever the case did to it.
 */
function usernameOf(body: unknown): string | null {
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return null;
    }
  }
  const username = (parsed as { username?: unknown } | null)?.username;
  // A hostile 1 MB name cannot go in a query string; no user can hold it anyway (255 characters at most).
  return typeof username === 'string' && username.length <= 1_000 ? username : null;
}

interface Built {
  path: string;
  init: Parameters<typeof call>[2];
  probe: Probe | null;
}

async function build(
  world: World,
  fuzz: FuzzCase,
  getPaths: Set<string>,
  visibility: Visibility,
): Promise<Built> {
  const { op, mutation: m } = fuzz;
  const rule = RULES[op.operationId];
  const c = contextOf(world, visibility);
  let params: ParamValues = { ...defaultParams(op.path, c), ...notifyParams(c), ...rule?.params?.(c) };
  // A destructive operation gets a resource of its own unless the case replaces its id anyway.
  if (rule?.fresh && m.kind !== 'path') params = { ...params, ...(await makeFresh(rule.fresh, c, op.path)) };
  const raw = m.kind === 'path' ? { [m.param]: m.value } : {};
  const base = new URLSearchParams(rule?.query?.(c) ?? {}).toString();
  const query = [base, m.kind === 'query' ? m.query : ''].filter(Boolean).join('&');
  const path = `${fill(op.path, params, raw)}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = {};
  let token: string | null = world.tokens.owner;
  if (SPENDS_ITS_TOKEN.has(op.operationId)) token = await spareToken(world);
  if (op.operationId === 'receiveRegistryEvents') {
    token = null;
    headers.Authorization = process.env.GL_TEST_REGISTRY_SECRET ?? '';
    headers['Content-Type'] = 'application/vnd.docker.distribution.events.v1+json';
  } else if (op.outsideApi) {
    token = null;
    headers.Authorization = `Bearer ${c.r.integration.token}`;
  }
  if (m.kind === 'header') {
    token = null;
    headers[m.name] = m.value;
  }
  let body: unknown;
  let validBody: unknown = null;
  if (op.method !== 'GET' && op.method !== 'DELETE') {
    const valid = (rule?.body?.(c) ??
      (op.operationId === 'receiveRegistryEvents' ? { events: [] } : {})) as Record<string, unknown>;
    validBody = valid;
    if (m.kind === 'body-field') body = { ...valid, [m.field]: m.value };
    else if (m.kind === 'body-taken') body = { ...valid, [m.field]: await takenValue(op.operationId, c) };
    else if (m.kind === 'body-missing')
      body = Object.fromEntries(Object.entries(valid).filter(([k]) => k !== m.field));
    else if (m.kind === 'body-extra')
      body = `${JSON.stringify(valid).slice(0, -1)}${Object.keys(valid).length ? ',' : ''}${JSON.stringify(m.key)}:${JSON.stringify(m.value)}}`;
    else if (m.kind === 'body-raw') {
      body = m.raw;
      headers['Content-Type'] = m.contentType;
    } else body = valid;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) body = JSON.stringify(body);
    headers['Content-Type'] ??= 'application/json';
  }
  const template = probeTemplate(op, getPaths);
  return {
    path,
    init: { token, headers, body, outsideApi: op.outsideApi, timeoutMs: 30_000 },
    probe: template ? probeOf(world, template, params, usernameOf(body) ?? usernameOf(validBody)) : null,
  };
}

export async function runFuzzCase(
  world: World,
  fuzz: FuzzCase,
  getPaths: Set<string>,
  visibility: Visibility = 'private',
): Promise<FuzzFinding[]> {
  const request = `${fuzz.op.operationId} ${fuzz.op.method} ${fuzz.op.path}: ${describeMutation(fuzz.mutation)}`;
  let built: Built;
  try {
    built = await build(world, fuzz, getPaths, visibility);
  } catch (err) {
    // The world no longer holds what the case needs: an earlier request destroyed it.
    return [{ request, problem: `could not prepare: ${err instanceof Error ? err.message : String(err)}` }];
  }
  const before = built.probe ? await stableRead(built.probe.path, built.probe.token) : null;
  let reply: Reply;
  try {
    reply = await call(fuzz.op.method, built.path, built.init);
  } catch (err) {
    return [{ request, problem: `no answer: ${err instanceof Error ? err.message : String(err)}` }];
  }
  const findings: FuzzFinding[] = [];
  if (reply.status >= 500) findings.push({ request, problem: `${reply.status} ${reply.text.slice(0, 200)}` });
  if (reply.ms > SLOW_MS) findings.push({ request, problem: `answered after ${Math.round(reply.ms)} ms` });
  if (built.probe && before !== null && reply.status >= 400 && reply.status < 500) {
    const after = await stableRead(built.probe.path, built.probe.token);
    if (after !== before) {
      findings.push({
        request,
        problem: `${reply.status} ${reply.text.slice(0, 120)} yet GET ${built.probe.path.split('?')[0]} changed: ${firstDifference(before, after)}`,
      });
    }
  }
  return findings;
}
