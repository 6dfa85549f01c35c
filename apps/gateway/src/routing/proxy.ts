import { Agent } from 'node:http';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Request, RequestHandler } from 'express';
import {
  createProxyMiddleware,
  debugProxyErrorsPlugin,
  proxyEventsPlugin,
  type Plugin,
} from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { INTERNAL_CONTEXT_HEADER, REQUEST_ID_HEADER } from '@gl/contracts';
import { BODY_LIMIT_EXCEEDED, JSON_CONTENT_TYPE } from '@gl/service-kit';
import { roundRobin } from './upstreams';

declare module 'express-serve-static-core' {
  interface Request {
    /** Signed internal context to attach to the forwarded request. */
    forwardContext?: string;
    /** Whether the Authorization header belongs to the service (alert tokens, registry secret). */
    forwardAuthorization?: boolean;
    /** The resource-versions tag a successful answer goes out with, instead of the service's own. */
    versionTag?: string;
  }
}

/** Client headers that must never reach a service: credentials and any forged internal context. */
const STRIPPED_HEADERS = ['private-token', 'sudo', 'job-token', 'cookie', INTERNAL_CONTEXT_HEADER];

/**
 * The headers the service receives, written on the request itself before it is proxied: http-proxy copies
 * `req.headers` into the upstream request, and its `proxyReq` hook is not a safe place for this (it is
 * skipped for `Expect: 100-continue` requests, whose headers are sent at once).
 */
export function prepareForwardedHeaders(req: Request): void {
  const headers = req.headers;
  for (const header of STRIPPED_HEADERS) delete headers[header];
  if (!req.forwardAuthorization) delete headers.authorization;
  if (req.forwardContext) headers[INTERNAL_CONTEXT_HEADER] = req.forwardContext;
  headers[REQUEST_ID_HEADER] = req.id as string;
  headers['x-forwarded-host'] = headers.host ?? '';
  headers['x-forwarded-proto'] = req.protocol;
}

/**
 * Response headers a service may send back. Node's default (16 KiB) is less than a paginated answer to a
 * request line at the 8 KiB cap: its `Link` header repeats the query string in four URLs, and the
 * response failed at this hop as a 502.
 */
export const UPSTREAM_MAX_HEADER_BYTES = 64 * 1024;

/**
 * A keep-alive agent whose requests read response headers up to UPSTREAM_MAX_HEADER_BYTES. http-proxy
 * passes no `maxHeaderSize` to `http.request`; the request's own field is read when its socket is
 * attached, which happens after `addRequest`, so setting it here applies to every proxied request.
 */
class UpstreamAgent extends Agent {
  addRequest(req: ClientRequest, options: object): void {
    (req as ClientRequest & { maxHeaderSize?: number }).maxHeaderSize = UPSTREAM_MAX_HEADER_BYTES;
    (Agent.prototype as unknown as { addRequest(r: ClientRequest, o: object): void }).addRequest.call(
      this,
      req,
      options,
    );
  }
}

/**
 * One proxy per service over a keep-alive agent (without one, measured here, the proxy's p50 rose to
 * about 2.5 s under load as every request opened a new connection). The service's replicas (one or more
 * URLs) take requests in turn, round-robin: services keep no per-client state between requests, so any
 * replica may answer any request. Bodies are streamed, never parsed. An unreachable replica is a 502 with
 * GitLab's body shape; the request is not retried on another replica, since a write may have reached the
 * first one before its connection failed.
 */
export function createServiceProxy(targets: string | readonly string[], logger: Logger): RequestHandler {
  const agent = new UpstreamAgent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 1_000 });
  const replicas = typeof targets === 'string' ? [targets] : targets;
  const nextReplica = roundRobin(replicas);
  return createProxyMiddleware<Request, ServerResponse>({
    target: replicas[0],
    ...(replicas.length > 1 ? { router: nextReplica } : {}),
    agent,
    changeOrigin: false,
    proxyTimeout: 120_000,
    // The default plugins less the logger's, which built the target's URL and a line for every response
    // for a logger that discards it (none is configured; `error` below logs failures). The error-response
    // plugin is left out by `on.error` anyway.
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin] as unknown as Plugin<Request, ServerResponse>[],
    on: {
      proxyReq(proxyReq: ClientRequest, req: Request) {
        // A chunked body that grows past the limit is refused at the edge (limitRequestBody); the part
        // already sent must not leave the service waiting for the rest.
        req.once(BODY_LIMIT_EXCEEDED, () => proxyReq.destroy());
      },
      proxyRes(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse) {
        const status = proxyRes.statusCode ?? 0;
        const { versionTag } = req as Request;
        if (versionTag && status >= 200 && status < 300) proxyRes.headers.etag = versionTag;
        // A live stream never ends by itself: when the client goes (or the gateway ends it), the service's
        // end goes too, instead of streaming into a closed response on a socket the agent cannot reuse.
        if (String(proxyRes.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          res.on('close', () => proxyRes.destroy());
        }
      },
      error(err: Error, req: IncomingMessage, res: ServerResponse | Socket, target?: unknown) {
        // Already answered (a refused body whose upload to the service was cut): nothing to tell anyone.
        if ('writableEnded' in res && res.writableEnded) return;
        logger.warn({ err: err.message, target: String(target), url: req.url }, 'upstream unavailable');
        if (!('setHeader' in res) || res.headersSent) {
          res.destroy();
          return;
        }
        const body = JSON.stringify({ message: '502 Bad Gateway' });
        res.writeHead(502, { 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      },
    },
  });
}
