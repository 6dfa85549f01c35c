import { spawnSync } from 'node:child_process';
import { Gitlab } from '@gitbeaker/rest';
import { testEnv } from '@gl/testing';

/** End-to-end suites drive the stack started by global setup, through the gateway only. */
export function gatewayUrl(): string {
  return testEnv('gatewayUrl');
}

export function rootToken(): string {
  return testEnv('rootToken');
}

export function gitlab(token = rootToken()): InstanceType<typeof Gitlab> {
  return new Gitlab({ host: gatewayUrl(), token });
}

export function stackInfo(): { serviceUrls: Record<string, string>; pids: Record<string, number> } {
  return JSON.parse(testEnv('stackInfo')) as {
    serviceUrls: Record<string, string>;
    pids: Record<string, number>;
  };
}

/** Raw HTTP against the gateway, with the root token unless told otherwise. */
export function api(path: string, init: RequestInit & { token?: string | null } = {}): Promise<Response> {
  const { token, ...rest } = init;
  const headers: Record<string, string> = { ...(rest.headers as Record<string, string>) };
  const chosen = token === undefined ? rootToken() : token;
  if (chosen) headers['PRIVATE-TOKEN'] = chosen;
  return fetch(`${gatewayUrl()}/api/v4${path}`, { ...rest, headers });
}

let counter = 0;
/** Names unique across runs sharing one database server. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

export interface ClientRun {
  status: number | null;
  /** The program's last stdout line, parsed as JSON when it is JSON (kept raw otherwise, so failures show it). */
  output: unknown;
  stderr: string;
}

/**
 * Runs a real-client program against the stack (GL_URL, GL_TOKEN = root) and returns its verdict: the
 * client scripts print one JSON line `{"ok":…,"checked":[…]}` last.
 */
export function runClient(command: string, args: string[] = []): ClientRun {
  const run = spawnSync(command, args, {
    env: { ...process.env, GL_URL: gatewayUrl(), GL_TOKEN: rootToken() },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const lastLine = run.stdout.trim().split('\n').pop() ?? '';
  let output: unknown = lastLine;
  try {
    output = JSON.parse(lastLine);
  } catch {
    // not JSON: keep the raw line
  }
  return { status: run.status, output, stderr: run.stderr.slice(-2000) };
}

export { eventually } from '@gl/testing';

/**
 * The ETag a polled read settles on: the read again with If-None-Match holding the last tag, until the
 * answer is a 304. A gateway tags a full answer from its copy of the resource versions, which may be
 * milliseconds behind a write (other suites write beside this one, too); a 304 is decided on the versions
 * the bucket holds.
 */
export async function settledTag(read: (tag?: string) => Promise<Response>): Promise<string> {
  let tag = (await read()).headers.get('etag');
  for (let attempt = 0; tag !== null && attempt < 100; attempt += 1) {
    const again = await read(tag);
    await again.arrayBuffer();
    if (again.status === 304) return tag;
    tag = again.headers.get('etag');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the read never answered its own tag with 304');
}
