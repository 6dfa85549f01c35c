import { Agent, request as httpRequest } from 'node:http';
import { gatewayUrl } from '../e2e.helpers';

export { eventually } from '../e2e.helpers';

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

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * Raw HTTP against the gateway with node:http, so the request target goes out exactly as given: fetch
 * (WHATWG URL parsing) would resolve `%2E%2E` segments and re-encode others before sending, and then a
 * test of hostile paths would test the client.
 */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.token) headers['PRIVATE-TOKEN'] = options.token;
  let body: Buffer | undefined;
  if (options.body !== undefined) {
    const raw =
      typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body);
    body = Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8');
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] = body.length;
    // Every body waits for the gateway's 100 Continue, as curl's large uploads and .NET's and PHP's
    // clients do: the matrix and the fuzzer judge that path too (it once reached services unsigned).
    headers.Expect = '100-continue';
  }
  const base = new URL(gatewayUrl());
  const started = performance.now();
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = httpRequest(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path: `${options.outsideApi ? '' : '/api/v4'}${path}`,
        headers,
        timeout: options.timeoutMs ?? 20_000,
      },
      (response) => {
        // A live stream never ends by itself: its status (and headers) are its answer here.
        if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          resolve({ status: response.statusCode ?? 0, text: '' });
          request.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () =>
      request.destroy(new Error(`no answer within ${options.timeoutMs ?? 20_000} ms`)),
    );
    request.on('error', reject);
    if (body === undefined) request.end();
    else request.on('continue', () => request.end(body));
  });
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text so a failure shows it
  }
  return { status, body: parsed, text, ms };
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
