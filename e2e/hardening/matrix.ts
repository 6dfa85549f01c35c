import { makeFresh } from './fresh';
import { call, pool, type Reply } from './http';
import { fillPath, queryString, type Operation } from './openapi';
import { noteableKindOf, RULES, type CellContext, type ParamValues, type Rule, type Variant } from './rules';
import {
  CALLER_NAMES,
  expectedOutcome,
  sees,
  VISIBILITIES,
  type CallerName,
  type Gate,
  type Outcome,
  type Visibility,
} from './sight';
import type { World } from './world';

/**
 * The authorization matrix: every operation × caller × target visibility (× variant), each cell's
 * expected answer derived from the rules table, run against the stack. Reads all run before any write,
 * so no write changes what a read sees; a destructive cell gets a resource of its own.
 */
export interface Cell {
  op: Operation;
  rule: Rule;
  variant?: Variant;
  caller: CallerName;
  visibility: Visibility;
  expected: Outcome;
}

export interface Finding {
  cell: string;
  expected: string;
  actual: string;
}

/** Write cells run from the most privileged caller down, so a refused caller meets an existing member. */
const WRITE_ORDER: CallerName[] = [
  'admin',
  'owner',
  'maintainer',
  'developer',
  'reporter',
  'guest',
  'read_api',
  'outsider',
  'anonymous',
];

export function gateOf(op: Operation, rule: Rule, variant?: Variant): Gate {
  return {
    write: op.method !== 'GET',
    anonymous: rule.anonymous ?? (op.optionalToken ? 'sight' : 401),
    anonymousWrite: rule.anonymousWrite ?? 401,
    see: variant?.see ?? rule.see ?? 'anyone',
    hidden: rule.hidden ?? 404,
    need: variant?.need ?? rule.need,
    denied: variant?.denied ?? rule.denied ?? 403,
    role: variant?.role ?? rule.role,
    roleDenied: rule.roleDenied ?? 403,
  };
}

export function cellsOf(operations: Operation[]): Cell[] {
  const cells: Cell[] = [];
  for (const op of operations) {
    const rule = RULES[op.operationId];
    if (!rule || rule.special) continue;
    const visibilities: readonly Visibility[] = rule.target === 'none' ? ['public'] : VISIBILITIES;
    for (const variant of [undefined, ...(rule.variants ?? [])]) {
      const gate = gateOf(op, rule, variant);
      for (const visibility of visibilities) {
        for (const caller of CALLER_NAMES) {
          let expected = expectedOutcome(gate, caller, visibility);
          if (expected === 'allowed' && variant?.invalidOn?.includes(visibility)) expected = 400;
          cells.push({ op, rule, variant, caller, visibility, expected });
        }
      }
    }
  }
  return cells;
}

export function describeCell(cell: Cell): string {
  const where = cell.rule.target === 'none' ? '' : ` on ${cell.visibility}`;
  const variant = cell.variant ? ` [${cell.variant.name}]` : '';
  return `${cell.op.operationId} (${cell.op.method} ${cell.op.path})${variant}${where} as ${cell.caller}`;
}

export function defaultParams(path: string, c: CellContext): ParamValues {
  const r = c.r;
  const kind = noteableKindOf(path);
  const id = path.startsWith('/groups/')
    ? c.target.group.id
    : path.startsWith('/projects/')
      ? c.target.project.id
      : path.startsWith('/registry/')
        ? r.registry.repositoryId
        : c.world.bystander.id;
  return {
    id,
    user_id: c.world.people.developer.id,
    board_id: r.boardId,
    list_id: r.listId,
    label_id: r.labelId,
    milestone_id: r.milestoneId,
    issue_iid: r.issueIid,
    merge_request_iid: r.mergeRequestIid,
    snippet_id: r.snippetId,
    epic_iid: r.epic.iid,
    sha: r.sha,
    repository_id: r.registry.repositoryId,
    tag_name: r.registry.tag,
    integration_id: r.integration.id,
    alert_iid: r.alertIid,
    ...(kind
      ? {
          noteable_id: r.noteableIds[kind],
          discussion_id: r.threads[kind].discussionId,
          note_id: r.threads[kind].noteId,
        }
      : {}),
  };
}

function contextOf(world: World, cell: Cell): CellContext {
  const target = world.targets[cell.visibility];
  return { world, target, r: target.resources, caller: cell.caller, visibility: cell.visibility };
}

function matches(expected: Outcome, reply: Reply): boolean {
  if (reply.status >= 500) return false;
  if (expected === 'ok') return reply.status >= 200 && reply.status < 300;
  if (expected === 'allowed') return ![401, 403, 404].includes(reply.status);
  return reply.status === expected;
}

/** GitLab's bodies for the refusals the issue names: anonymous writes and read_api writes. */
function bodyMismatch(cell: Cell, reply: Reply): string | null {
  const body = reply.body as Record<string, unknown> | null;
  if (cell.caller === 'read_api' && cell.op.method !== 'GET' && reply.status === 403) {
    return body?.error === 'insufficient_scope'
      ? null
      : `403 without insufficient_scope: ${reply.text.slice(0, 120)}`;
  }
  if (cell.caller === 'anonymous' && cell.expected === 401 && reply.status === 401) {
    return body?.message === '401 Unauthorized' ? null : `401 body ${reply.text.slice(0, 120)}`;
  }
  return null;
}

function listFindings(cell: Cell, c: CellContext, reply: Reply): Finding[] {
  if (!cell.rule.lists || reply.status !== 200 || !Array.isArray(reply.body)) return [];
  const items = reply.body as Record<string, unknown>[];
  const findings: Finding[] = [];
  for (const check of cell.rule.lists) {
    const shown = items.some((item) => check.match(item, c));
    const should = sees(cell.caller, check.sight, cell.visibility);
    if (shown !== should) {
      findings.push({
        cell: describeCell(cell),
        expected: should ? `lists ${check.name}` : `hides ${check.name}`,
        actual: shown ? `lists ${check.name}` : `omits ${check.name}`,
      });
    }
  }
  return findings;
}

type Decoys = Map<string, Promise<ParamValues>>;

async function runCell(world: World, cell: Cell, decoys: Decoys): Promise<Finding[]> {
  const c = contextOf(world, cell);
  const { op, rule, variant } = cell;
  let fresh: ParamValues = {};
  const decoyKey = `${op.operationId}|${variant?.name ?? ''}|${cell.visibility}`;
  if (rule.fresh) {
    // Refusals share one spare resource; allowed cells get their own (they may destroy it).
    if (cell.expected === 'allowed') {
      fresh = await makeFresh(rule.fresh, c, op.path);
    } else {
      if (!decoys.has(decoyKey)) decoys.set(decoyKey, makeFresh(rule.fresh, c, op.path));
      fresh = await decoys.get(decoyKey)!;
    }
  }
  const params = { ...defaultParams(op.path, c), ...rule.params?.(c), ...variant?.params?.(c), ...fresh };
  const path = fillPath(op.path, params) + queryString(rule.query?.(c));
  const body = (variant?.body ?? rule.body)?.(c);
  const reply = await call(op.method, path, {
    token: world.tokens[cell.caller],
    body: op.method === 'GET' || op.method === 'DELETE' ? undefined : (body ?? {}),
    outsideApi: op.outsideApi,
  });
  if (rule.fresh && cell.expected !== 'allowed' && reply.status < 300) decoys.delete(decoyKey);
  const findings: Finding[] = [];
  if (!matches(cell.expected, reply)) {
    const expected =
      cell.expected === 'ok'
        ? '2xx'
        : cell.expected === 'allowed'
          ? 'not refused (not 401/403/404, no 5xx)'
          : String(cell.expected);
    findings.push({
      cell: describeCell(cell),
      expected,
      actual: `${reply.status} ${reply.text.slice(0, 160)}`,
    });
  } else {
    const mismatch = bodyMismatch(cell, reply);
    if (mismatch) findings.push({ cell: describeCell(cell), expected: 'GitLab body', actual: mismatch });
  }
  return [...findings, ...listFindings(cell, c, reply)];
}

/** Runs the cells: reads concurrently first, then writes, most privileged caller first per operation. */
export async function runCells(world: World, cells: Cell[]): Promise<Finding[]> {
  const decoys: Decoys = new Map();
  const reads = cells.filter((cell) => cell.op.method === 'GET');
  const findings = (await pool(reads, 6, (cell) => runCell(world, cell, decoys))).flat();
  const groups = new Map<string, Cell[]>();
  for (const cell of cells.filter((c) => c.op.method !== 'GET')) {
    const key = `${cell.op.operationId}|${cell.variant?.name ?? ''}|${cell.visibility}`;
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  const ordered = [...groups.values()].map((group) =>
    group.sort((a, b) => WRITE_ORDER.indexOf(a.caller) - WRITE_ORDER.indexOf(b.caller)),
  );
  const writes = await pool(ordered, 6, async (group) => {
    const out: Finding[] = [];
    for (const cell of group) out.push(...(await runCell(world, cell, decoys)));
    return out;
  });
  return [...findings, ...writes.flat()];
}
