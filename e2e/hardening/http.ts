import { gatewayUrl } from '../e2e.helpers';

/** One answer of the gateway, with the body parsed when it is JSON and the time it took. */
export interface Reply {
  status: number;
  body: unknown;
  text: string;
  ms: number;
}

export interface CallOptions {
  token?: string | null;
  /** A JSON body (objects and arrays are serialised); a string or Buffer is sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The path is below the gateway's root rather than below /api/v4 (alert notify endpoints). */
  outsideApi?: boolean;
  timeoutMs?: number;
}

/**
 * Raw HTTP against the gateway. The path is sent exactly as given (already encoded), so hostile
 * encodings reach the server untouched; undici does not normalise a request target.
 */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['PRIVATE-TOKEN'] = options.token;
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) {
      body = options.body;
    } else {
      body = JSON.stringify(options.body);
    }
    headers['Content-Type'] ??= 'application/json';
  }
  const url = `${gatewayUrl()}${options.outsideApi ? '' : '/api/v4'}${path}`;
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text so a failure shows it
  }
  return { status: response.status, body: parsed, text, ms };
}

/** A call that must succeed (fixture set-up): anything but 2xx throws with the answer. */
export async function must<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<T> {
  const reply = await call(method, path, options);
  if (reply.status < 200 || reply.status > 299) {
    throw new Error(`${method} ${path} → ${reply.status} ${reply.text.slice(0, 300)}`);
  }
  return reply.body as T;
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the input order. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** Polls `read` until `done` holds or the deadline passes; returns the last value either way. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
