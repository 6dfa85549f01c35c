import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JetStreamManager } from '@nats-io/jetstream';

/**
 * The backup's side of the gateways' write fence (apps/gateway/src/write-fence/): every gateway process
 * holds the writes that come after the fence while the databases clients write are read, so the copy
 * is one moment (README "Backup and restore").
 */
export interface FenceTarget {
  /** Every gateway process: each has its own fence. */
  urls: string[];
  token: string;
  /** A gateway found only through the local state files may be stopped: then nothing writes. */
  optional: boolean;
}

export interface RaisedFence {
  /** Lifts every gateway's fence; false for one that had already lifted itself (its time-to-live ran out). */
  release(): Promise<{ heldMs: number; heldRequests: number; intact: boolean }>;
}

/**
 * Where the gateways are: GATEWAY_URL (comma-separated for replicas) with an administrator's token in
 * GL_ADMIN_TOKEN (else GITLAB_ROOT_TOKEN); for the running local default, the URL `npm start` recorded
 * in DATA_DIR/gateway.url and the root token it keeps beside it. Null: no gateway known.
 */
export function locateFence(env: NodeJS.ProcessEnv, localDataDir: string | null): FenceTarget | null {
  const token = env.GL_ADMIN_TOKEN ?? env.GITLAB_ROOT_TOKEN;
  if (env.GATEWAY_URL) {
    if (!token) throw new Error('GATEWAY_URL is set: give an administrator token in GL_ADMIN_TOKEN');
    const urls = env.GATEWAY_URL.split(',').map((u) => u.trim().replace(/\/+$/, ''));
    return { urls: urls.filter(Boolean), token, optional: false };
  }
  if (!localDataDir) return null;
  const urlFile = join(localDataDir, 'gateway.url');
  const tokenFile = join(localDataDir, 'root-token');
  if (!existsSync(urlFile)) return null;
  const localToken = token ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '');
  if (!localToken) throw new Error(`no root token in ${tokenFile}: give one in GL_ADMIN_TOKEN`);
  return { urls: [readFileSync(urlFile, 'utf8').trim()], token: localToken, optional: true };
}

async function call(url: string, method: string, token: string): Promise<Response> {
  return fetch(url, { method, headers: { 'PRIVATE-TOKEN': token }, signal: AbortSignal.timeout(60_000) });
}

/**
 * Raises the fence on every gateway, one after the other (each waits for its writes in flight). A
 * gateway that refuses lifts the ones already raised and fails the backup, as does an unreachable one
 * named in GATEWAY_URL; a stopped local gateway means no writes come in, and null says so.
 */
export async function raiseFence(
  target: FenceTarget,
  ttlMs: number,
  log: (line: string) => void,
): Promise<RaisedFence | null> {
  const raised: { url: string; id: string }[] = [];
  const lift = async (): Promise<{ heldRequests: number; intact: boolean }> => {
    let heldRequests = 0;
    let intact = true;
    for (const { url, id } of raised) {
      const response = await call(`${url}/-/write-fence/${id}`, 'DELETE', target.token);
      if (response.ok) heldRequests += ((await response.json()) as { held_requests: number }).held_requests;
      else intact = false;
    }
    return { heldRequests, intact };
  };
  const started = Date.now();
  for (const url of target.urls) {
    let response: Response;
    try {
      response = await call(`${url}/-/write-fence?ttl_ms=${ttlMs}`, 'POST', target.token);
    } catch (err) {
      if (target.optional && raised.length === 0) {
        log(`no gateway answers at ${url}: nothing writes, no write fence needed`);
        return null;
      }
      await lift();
      throw new Error(`write fence at ${url}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!response.ok) {
      await lift();
      throw new Error(`write fence at ${url}: ${response.status} ${await response.text()}`);
    }
    raised.push({ url, id: ((await response.json()) as { id: string }).id });
  }
  log(`write fence raised on ${raised.length} gateway(s) in ${Date.now() - started} ms: writes wait`);
  return {
    async release() {
      const { heldRequests, intact } = await lift();
      return { heldMs: Date.now() - started, heldRequests, intact };
    },
  };
}

/**
 * With the edge held, waits (at most `maxMs`) until nothing moves behind it: every durable consumer has
 * acknowledged the whole stream, or neither the stream nor any consumer moved for a second (a stopped
 * consumer writes nothing). Writes that consumers make from earlier events (an incident issue from an
 * alert, identity copies) and events still in outboxes then land before the databases are read.
 */
export async function waitForQuiet(jsm: JetStreamManager, stream: string, maxMs: number): Promise<boolean> {
  const until = Date.now() + maxMs;
  let last = '';
  let stillSince = Date.now();
  for (;;) {
    const info = await jsm.streams.info(stream);
    const consumers: string[] = [];
    let pending = 0;
    for await (const c of jsm.consumers.list(stream)) {
      if (!c.config.durable_name) continue;
      pending += c.num_pending + c.num_ack_pending;
      consumers.push(`${c.config.durable_name}:${c.ack_floor.stream_seq}`);
    }
    const state = `${info.state.last_seq}|${consumers.sort().join(',')}`;
    if (state !== last) [last, stillSince] = [state, Date.now()];
    // Twice the same caught-up state: the relays had time to publish what the last writes left.
    if (pending === 0 && Date.now() - stillSince >= 200) return true;
    if (Date.now() - stillSince >= 1_000) return pending === 0;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}
