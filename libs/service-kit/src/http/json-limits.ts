/**
 * GitLab's Gitlab::Middleware::JsonValidation default limits for JSON request bodies
 * (lib/gitlab/middleware/json_validation.rb, DEFAULT_LIMITS) and the user-facing message of each
 * (lib/gitlab/json/stream_validator.rb, user_facing_error_message): 400 `{"error":"<message>"}`.
 * They also keep every recursive walk over a parsed body (validation, parameter checks) shallow.
 */
export const JSON_MAX_DEPTH = 32;
export const JSON_MAX_ARRAY_SIZE = 50_000;
export const JSON_MAX_HASH_SIZE = 50_000;
export const JSON_MAX_TOTAL_ELEMENTS = 100_000;

export const JSON_LIMIT_MESSAGES = {
  depth: 'Parameters nested too deeply',
  array: 'Array parameter too large',
  hash: 'Hash parameter too large',
  elements: 'Too many total parameters',
} as const;

/**
 * How deeply brackets nest in JSON text, outside strings, stopping as soon as `limit` is passed: checked
 * before parsing, so a body of 100,000 nested arrays costs one linear scan and no recursion.
 */
export function jsonNestingExceeds(text: string, limit = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * The first limit a parsed JSON value breaks, or null. Counted as GitLab's streaming validator counts:
 * a key and its value are two elements, an array item one. Iterative, so depth never matters here.
 */
export function jsonLimitBroken(value: unknown): keyof typeof JSON_LIMIT_MESSAGES | null {
  let elements = 0;
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= JSON_MAX_DEPTH) return 'depth';
    if (Array.isArray(node)) {
      if (node.length > JSON_MAX_ARRAY_SIZE) return 'array';
      elements += node.length;
      for (const item of node) stack.push({ node: item, depth: depth + 1 });
    } else {
      const entries = Object.values(node as Record<string, unknown>);
      if (entries.length > JSON_MAX_HASH_SIZE) return 'hash';
      elements += entries.length * 2;
      for (const item of entries) stack.push({ node: item, depth: depth + 1 });
    }
    if (elements >= JSON_MAX_TOTAL_ELEMENTS) return 'elements';
  }
  return null;
}
