/**
 * Turns flat form/query keys into nested objects the way Rack does: `position[base_sha]=x` →
 * `{ position: { base_sha: 'x' } }`, `labels[]=a&labels[]=b` → `{ labels: ['a', 'b'] }`.
 * gitbeaker sends diff-note positions as multipart with bracketed keys; python-gitlab sends nested JSON.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 8;

export type ParamValue = string | ParamValue[] | { [key: string]: ParamValue };
export type ParamObject = { [key: string]: ParamValue };

function splitKey(key: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return [key];
  const parts = [match[1]!];
  const brackets = match[2]!.match(/\[([^[\]]*)\]/g) ?? [];
  for (const b of brackets) parts.push(b.slice(1, -1));
  return parts.length > MAX_DEPTH ? null : parts;
}

export function assignNested(target: ParamObject, key: string, value: string): void {
  const parts = splitKey(key);
  if (!parts || parts.some((p) => FORBIDDEN_KEYS.has(p))) return;
  let node: ParamObject | ParamValue[] = target;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    const nextIsArray = !last && parts[i + 1] === '';
    if (Array.isArray(node)) {
      // `a[]` appends; `a[][b]` is not something our clients send, so keep it simple and append scalars only.
      if (last) node.push(value);
      return;
    }
    if (last) {
      if (part === '') return;
      node[part] = value;
      return;
    }
    const existing: ParamValue | undefined = node[part];
    if (nextIsArray) {
      if (!Array.isArray(existing)) node[part] = [];
      node = node[part] as ParamValue[];
      i++; // consume the '' segment
      if (i === parts.length - 1) node.push(value);
      return;
    }
    if (typeof existing !== 'object' || existing === null || Array.isArray(existing)) node[part] = {};
    node = node[part] as ParamObject;
  }
}

export function parseNestedParams(entries: Iterable<[string, string]>): ParamObject {
  const out: ParamObject = {};
  for (const [key, value] of entries) assignNested(out, key, value);
  return out;
}

export function parseQueryString(query: string): ParamObject {
  return parseNestedParams(new URLSearchParams(query));
}
