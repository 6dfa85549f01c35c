import type { Operation, Schema } from '../openapi';
import {
  deepJson,
  HOSTILE_IDS,
  hostileQueries,
  INVALID_UTF8,
  MB,
  PROTOTYPE_KEYS,
  REGEX_BOMBS,
  shuffle,
  wrongTypes,
} from './payloads';

/**
 * One hostile request against one operation: what to change in the operation's valid request (its path
 * parameters, query, body or headers). The valid request comes from the authorization rules' builders.
 */
export type Mutation =
  | { kind: 'path'; param: string; value: string }
  | { kind: 'query'; query: string }
  | { kind: 'body-field'; field: string; value: unknown }
  | { kind: 'body-missing'; field: string }
  /** A value another record already holds (a used title, name, path, label): a uniqueness check. */
  | { kind: 'body-taken'; field: string }
  | { kind: 'body-extra'; key: string; value: unknown }
  | { kind: 'body-raw'; label: string; raw: string | Buffer; contentType: string }
  | { kind: 'header'; name: string; value: string };

export interface FuzzCase {
  op: Operation;
  mutation: Mutation;
}

export function describeMutation(m: Mutation): string {
  const short = (v: unknown): string => {
    const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
    return text.length > 40 ? `${text.slice(0, 30)}…(${text.length} chars)` : text;
  };
  switch (m.kind) {
    case 'path':
      return `{${m.param}} = ${short(m.value)}`;
    case 'query':
      return `?${short(m.query)}`;
    case 'body-field':
      return `body.${m.field} = ${short(m.value)}`;
    case 'body-missing':
      return `body without ${m.field}`;
    case 'body-taken':
      return `body.${m.field} = a value already in use`;
    case 'body-extra':
      return `body.${m.key} added (${short(m.value)})`;
    case 'body-raw':
      return `body ${m.label} (${m.contentType})`;
    case 'header':
      return `header ${m.name}: ${short(m.value)}`;
  }
}

const REGEX_PARAMS = ['name_regex_delete', 'name_regex', 'name_regex_keep'];

/** Operations whose field must be unique, and which field (run.ts finds a value already in use). */
export const TAKEN_FIELDS: Record<string, string> = {
  createGroupLabel: 'name',
  updateGroupLabel: 'new_name',
  createGroupMilestone: 'title',
  updateGroupMilestone: 'title',
  createGroupBoardList: 'label_id',
  createProject: 'path',
  createUser: 'username',
  addUserEmail: 'email',
};

function pathParams(op: Operation): string[] {
  return [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** Every hostile request the fuzzer knows for an operation, in a fixed order. */
export function allCases(op: Operation, random: () => number): FuzzCase[] {
  const out: Mutation[] = [];
  for (const param of pathParams(op))
    for (const value of HOSTILE_IDS) out.push({ kind: 'path', param, value });
  for (const query of hostileQueries(random)) out.push({ kind: 'query', query });
  for (const param of op.parameters.filter((p) => REGEX_PARAMS.includes(p.name))) {
    for (const bomb of REGEX_BOMBS) {
      out.push({ kind: 'query', query: `${param.name}=${encodeURIComponent(bomb)}` });
      out.push({ kind: 'query', query: `${param.name}=${encodeURIComponent(`${bomb}${'a'.repeat(40)}!`)}` });
    }
  }
  for (const header of [
    { name: 'PRIVATE-TOKEN', value: 'glpat-\u00e9\u00ff\u00c0' },
    { name: 'Authorization', value: 'Bearer \u00e9\u00ff' },
    { name: 'Authorization', value: 'Basic %%%\u00ff' },
    { name: 'PRIVATE-TOKEN', value: 'x'.repeat(8 * 1024) },
  ]) {
    out.push({ kind: 'header', ...header });
  }
  if (op.method !== 'GET' && op.method !== 'DELETE') out.push(...bodyMutations(op.body));
  const taken = TAKEN_FIELDS[op.operationId];
  if (taken) out.push({ kind: 'body-taken', field: taken });
  return out.map((mutation) => ({ op, mutation }));
}

function bodyMutations(schema: Schema | undefined): Mutation[] {
  const out: Mutation[] = [];
  const properties = schema?.properties ?? {};
  for (const [field, property] of Object.entries(properties)) {
    for (const value of wrongTypes(property.type)) out.push({ kind: 'body-field', field, value });
    if (property.type === 'string' || property.type === undefined) {
      out.push({ kind: 'body-field', field, value: 'x'.repeat(MB) });
      out.push({ kind: 'body-field', field, value: '\u0000'.repeat(16) });
    }
    out.push({ kind: 'body-field', field, value: JSON.parse(deepJson(500, 'object')) as unknown });
  }
  for (const field of schema?.required ?? []) out.push({ kind: 'body-missing', field });
  for (const key of PROTOTYPE_KEYS)
    out.push({ kind: 'body-extra', key, value: { polluted: true, isAdmin: true } });
  out.push({ kind: 'body-extra', key: 'zz_unknown_field', value: 'x' });
  const raw = (label: string, body: string | Buffer, contentType = 'application/json'): Mutation => ({
    kind: 'body-raw',
    label,
    raw: body,
    contentType,
  });
  out.push(
    raw('invalid JSON', '{"a":'),
    raw('invalid JSON (trailing garbage)', '{"a":1}}'),
    raw('invalid UTF-8', INVALID_UTF8),
    raw('depth-1000 arrays', deepJson(1000, 'array')),
    raw('depth-1000 objects', deepJson(1000, 'object')),
    raw('null', 'null'),
    raw('an array', '[1,2,3]'),
    raw('a string', '"text"'),
    raw('empty', ''),
    raw('1 MB of JSON string', JSON.stringify({ a: 'b'.repeat(MB) })),
    raw(
      'form with prototype keys',
      '__proto__[isAdmin]=true&constructor[prototype][x]=1&a[b][c][d]=1',
      'application/x-www-form-urlencoded',
    ),
    raw('prototype key in JSON', '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}'),
    raw('JSON as text/plain', '{"title":"x"}', 'text/plain'),
    raw('multipart without boundary', '--x\r\n', 'multipart/form-data'),
  );
  return out;
}

/**
 * The cases to run: all of them (`full`), or `size` drawn with the seed — round-robin over the kinds of
 * mutation (so a small sample still tries hostile ids, queries, headers, bodies and used values), each
 * time from an operation drawn at random.
 */
export function chooseCases(
  operations: Operation[],
  random: () => number,
  full: boolean,
  size: number,
): FuzzCase[] {
  const all = operations.flatMap((op) => allCases(op, random));
  if (full) return all;
  const byKind = new Map<Mutation['kind'], FuzzCase[]>();
  for (const fuzz of shuffle(all, random)) {
    const list = byKind.get(fuzz.mutation.kind) ?? [];
    list.push(fuzz);
    byKind.set(fuzz.mutation.kind, list);
  }
  const kinds = shuffle([...byKind.keys()], random);
  const chosen: FuzzCase[] = [];
  while (chosen.length < size && kinds.some((kind) => byKind.get(kind)!.length > 0)) {
    for (const kind of kinds) {
      const next = byKind.get(kind)!.shift();
      if (next) chosen.push(next);
      if (chosen.length >= size) break;
    }
  }
  return chosen;
}
