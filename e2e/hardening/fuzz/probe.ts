import { call } from '../http';
import type { Operation } from '../openapi';
import type { ParamValues } from '../rules';
import type { World } from '../world';

/**
 * The read-back of the fuzzer: the GET that shows what a write changes, read once background work has
 * settled, before and after a refused request.
 */
export interface Probe {
  path: string;
  token: string;
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

/**
 * Paths that answer about whoever asks (the current user, their e-mails, snippets, notification settings,
 * the request's own token): read as root they would show root's, which the fuzzed request never touches.
 */
function readsTheCaller(template: string): boolean {
  return (
    template === '/user' ||
    template.startsWith('/user/') ||
    template === '/snippets' ||
    template === '/notification_settings' ||
    template === '/personal_access_tokens/self'
  );
}

export function fill(template: string, values: ParamValues, raw: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name in raw ? raw[name]! : encodeURIComponent(String(values[name] ?? '')),
  );
}

/**
 * The probe for a case. The instance-wide project, group and user lists change whenever another suite
 * (or another lane of the fuzzer) creates something, so a refused create there is checked against what
 * the fuzzing owner owns, or against the one user the request would have made; what answers about the
 * caller is read with the token the request spends (the owner's when it sends a hostile one instead);
 * everything else is read as root, who sees it all.
 */
export function probeOf(
  world: World,
  template: string,
  params: ParamValues,
  username: string | null,
  callerToken: string | null,
): Probe {
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
  const token = readsTheCaller(template) ? (callerToken ?? owner ?? world.root) : world.root;
  return { path: fill(template, params) + (template.endsWith('s') ? '?per_page=100' : ''), token };
}

/**
 * The username a user create would make, from a body as sent (JSON text) or as built; null without one
 * (missing, oversize, not JSON). The body actually sent is asked first, whatever the case did to it.
 */
export function usernameOf(body: unknown): string | null {
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

/** Where two readings first differ, with a little context, so a finding says what changed. */
export function firstDifference(before: string, after: string): string {
  let i = 0;
  while (i < before.length && before[i] === after[i]) i++;
  const from = Math.max(0, i - 40);
  return `…${before.slice(from, i + 60)}… became …${after.slice(from, i + 60)}…`;
}

/** How long two equal readings must be apart to count as settled: what background work gets to show. */
const SETTLE_MS = 100;

/** The probe's answer (status and body) once two readings SETTLE_MS apart agree (ten tries at most). */
export async function stableRead(probe: Probe): Promise<string> {
  const read = async () => {
    const reply = await call('GET', probe.path, { token: probe.token });
    // The status too: a probe that starts answering 404 (deleted) or 401 (token revoked) has changed.
    return `${reply.status} ${reply.text}`;
  };
  let previous = await read();
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const current = await read();
    if (current === previous) return current;
    previous = current;
  }
  return previous;
}
