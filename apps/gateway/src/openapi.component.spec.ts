import { ENDPOINTS } from '@gl/contracts';
import { startGatewayHarness, type GatewayHarness } from './testing/gateway.harness';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; parameters: { name: string; in: string }[] }>>;
}

describe('OpenAPI document', () => {
  let gw: GatewayHarness;
  let document: OpenApiDocument;

  beforeAll(async () => {
    gw = await startGatewayHarness();
    const response = await fetch(`${gw.url}/-/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    document = (await response.json()) as OpenApiDocument;
  });
  afterAll(() => gw.close());

  it('When generated from the contracts, then every endpoint appears once with a unique operationId', () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations).toHaveLength(ENDPOINTS.length);
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.openapi).toBe('3.0.3');
  });

  it('When a path has template parameters, then each is declared as a path parameter', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const operation of Object.values(methods)) {
        const declared = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
        expect({ path, declared }).toEqual({ path, declared: names });
      }
    }
  });

  it('When a documented endpoint is called, then the gateway routes it (never the catch-all 404)', async () => {
    for (const endpoint of ENDPOINTS.filter((e) => !e.outsideApi)) {
      const path = endpoint.path.replace(/\{(\w+)\}/g, '1');
      const response = await gw.call(`/api/v4${path}`, { method: endpoint.method });
      const body = (await response.json()) as { error?: string };
      expect({
        route: `${endpoint.method} ${endpoint.path}`,
        catchAll: body.error === '404 Not Found',
      }).toEqual({
        route: `${endpoint.method} ${endpoint.path}`,
        catchAll: false,
      });
    }
  });
});
