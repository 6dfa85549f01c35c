import { makeFresh } from '../fresh';
import { unique } from '../../e2e.helpers';
import { call, must, type Reply } from '../http';
import { defaultParams } from '../matrix';
import { RULES, type CellContext, type ParamValues } from '../rules';
import type { Visibility } from '../sight';
import type { World } from '../world';
import { describeMutation, type FuzzCase } from './cases';
import { ownedParams } from './owned';
import { fill, firstDifference, probeOf, probeTemplate, stableRead, usernameOf, type Probe } from './probe';

/**
 * Sends one hostile request and judges the answer: never a 5xx, never slower than the issue's 5 s bound,
 * and a refusal (4xx) leaves the addressed resource as it was. The resource is read back through the API
 * (probe.ts) — its item, or the list a create adds to — before and after, once background work has
 * settled: the stack's databases are shared with the suites and the other lanes running beside this one,
 * so a whole-database fingerprint would see their writes.
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

interface Built {
  path: string;
  init: Parameters<typeof call>[2];
  probe: Probe | null;
  /** Preparing the case wrote something (a fresh resource, a spare token, a value to collide with). */
  wrote: boolean;
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
  let wrote = false;
  // A destructive operation gets a resource of its own unless the case replaces its id anyway.
  if (rule?.fresh && m.kind !== 'path') {
    params = { ...params, ...(await makeFresh(rule.fresh, c, op.path)) };
    wrote = true;
  }
  const owned = await ownedParams(op.operationId, c, m.kind === 'path');
  if (owned) {
    params = { ...params, ...owned.params };
    wrote ||= owned.wrote;
  }
  const raw = m.kind === 'path' ? { [m.param]: m.value } : {};
  const base = new URLSearchParams(rule?.query?.(c) ?? {}).toString();
  const query = [base, m.kind === 'query' ? m.query : ''].filter(Boolean).join('&');
  const path = `${fill(op.path, params, raw)}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = {};
  let token: string | null = world.tokens.owner;
  if (SPENDS_ITS_TOKEN.has(op.operationId)) {
    token = await spareToken(world);
    wrote = true;
  }
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
    else if (m.kind === 'body-taken') {
      body = { ...valid, [m.field]: await takenValue(op.operationId, c) };
      wrote = true;
    } else if (m.kind === 'body-missing')
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
  const username = usernameOf(body) ?? usernameOf(validBody);
  return {
    path,
    init: { token, headers, body, outsideApi: op.outsideApi, timeoutMs: 30_000 },
    probe: template ? probeOf(world, template, params, username, token) : null,
    wrote,
  };
}

/**
 * One lane of the fuzzer: a world of its own, so its writes show in no other lane's read-backs, and the
 * reading its last refused request left. That reading is the next case's "before" when nothing has been
 * sent since that could write (the next case made nothing and reads the same probe): reading again would
 * wait for the same settled state, and a change landing in between is still seen by the after-read.
 */
export interface Lane {
  world: World;
  getPaths: Set<string>;
  visibility: Visibility;
  settled: { key: string; reading: string } | null;
}

export interface CaseResult {
  /** The case, as findings name it. */
  request: string;
  findings: FuzzFinding[];
  /** How long the fuzzed request took (null without an answer). */
  ms: number | null;
}

export async function runFuzzCase(lane: Lane, fuzz: FuzzCase): Promise<CaseResult> {
  const request = `${fuzz.op.operationId} ${fuzz.op.method} ${fuzz.op.path}: ${describeMutation(fuzz.mutation)}`;
  const settled = lane.settled;
  lane.settled = null;
  let built: Built;
  try {
    built = await build(lane.world, fuzz, lane.getPaths, lane.visibility);
  } catch (err) {
    // The world no longer holds what the case needs: an earlier request destroyed it.
    const problem = `could not prepare: ${err instanceof Error ? err.message : String(err)}`;
    return { request, findings: [{ request, problem }], ms: null };
  }
  const key = built.probe ? `${built.probe.token} ${built.probe.path}` : null;
  let before: string | null = null;
  if (built.probe) {
    before = !built.wrote && settled?.key === key ? settled.reading : await stableRead(built.probe);
  }
  let reply: Reply;
  try {
    reply = await call(fuzz.op.method, built.path, built.init);
  } catch (err) {
    const problem = `no answer: ${err instanceof Error ? err.message : String(err)}`;
    return { request, findings: [{ request, problem }], ms: null };
  }
  const findings: FuzzFinding[] = [];
  if (reply.status >= 500) findings.push({ request, problem: `${reply.status} ${reply.text.slice(0, 200)}` });
  if (reply.ms > SLOW_MS) findings.push({ request, problem: `answered after ${Math.round(reply.ms)} ms` });
  if (built.probe && before !== null && reply.status >= 400 && reply.status < 500) {
    const after = await stableRead(built.probe);
    lane.settled = { key: key!, reading: after };
    if (after !== before) {
      findings.push({
        request,
        problem: `${reply.status} ${reply.text.slice(0, 120)} yet GET ${built.probe.path.split('?')[0]} changed: ${firstDifference(before, after)}`,
      });
    }
  }
  return { request, findings, ms: reply.ms };
}
