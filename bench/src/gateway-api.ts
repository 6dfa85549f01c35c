/** One API call through the gateway, as a client makes it; the body is JSON, the answer parsed. */
export interface GatewayReply {
  status: number;
  json: unknown;
  /** X-Total, 0 when absent. */
  total: number;
  /** X-Next-Cursor (keyset pagination), null when absent. */
  nextCursor: string | null;
}

export async function callGateway(
  gatewayUrl: string,
  token: string,
  method: string,
  path: string,
  body?: Record<string, unknown>,
): Promise<GatewayReply> {
  const response = await fetch(`${gatewayUrl}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: text ? (JSON.parse(text) as unknown) : null,
    total: Number(response.headers.get('x-total') ?? '0'),
    nextCursor: response.headers.get('x-next-cursor'),
  };
}

/** The reply when it has the expected status; otherwise an error naming the call and the start of the answer. */
export async function expectReply(
  reply: Promise<GatewayReply>,
  status: number,
  what: string,
): Promise<GatewayReply> {
  const r = await reply;
  if (r.status !== status)
    throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
  return r;
}

/**
 * One call as root that must succeed (any 2xx): the answer parsed, else an error naming the call. For
 * scenarios that set their stack up through the API (hooks, stream).
 */
export async function rootCall<T>(
  options: { gatewayUrl: string; rootToken: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${options.gatewayUrl}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': options.rootToken, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}
