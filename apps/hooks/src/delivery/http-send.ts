import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export interface SendRequest {
  url: URL;
  /** The address the URL blocker checked: the request goes there, never to a second lookup's answer. */
  address: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Response bodies are kept up to this many bytes. */
  maxResponseBytes: number;
  verifyTls: boolean;
}

export interface SendResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  durationMs: number;
}

/** A request that got no HTTP answer: refused, reset, timed out. */
export class SendError extends Error {
  constructor(
    message: string,
    readonly durationMs: number,
  ) {
    super(message);
  }
}

function pinnedLookup(address: string): LookupFunction {
  const family = address.includes(':') ? 6 : 4;
  return ((_host: string, options: { all?: boolean }, done: (...args: unknown[]) => void) => {
    if (options?.all) done(null, [{ address, family }]);
    else done(null, address, family);
  }) as unknown as LookupFunction;
}

/**
 * One POST as Gitlab::HTTP sends a hook (WebHookService#make_request): no redirects followed (a 3xx is the
 * answer), a timeout on the whole exchange, the answer's body cut at `maxResponseBytes`.
 */
export function sendRequest(request: SendRequest): Promise<SendResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  const client = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(request.url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
      lookup: pinnedLookup(request.address),
      rejectUnauthorized: request.verifyTls,
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`execution expired (${request.timeoutMs} ms)`));
    }, request.timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(new SendError(err.message, elapsed()));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < request.maxResponseBytes) chunks.push(chunk.subarray(0, request.maxResponseBytes - size));
        size += chunk.length;
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(new SendError(err.message, elapsed()));
      });
      res.on('end', () => {
        clearTimeout(timer);
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({
          status: res.statusCode ?? 0,
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
          durationMs: elapsed(),
        });
      });
    });
    req.end(request.body);
  });
}
