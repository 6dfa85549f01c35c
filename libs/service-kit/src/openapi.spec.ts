import { z } from 'zod';
import type { EndpointContract } from '@gl/contracts';
import { buildOpenApiDocument } from './openapi';

interface Operation {
  parameters: { name: string; in: string }[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
}

const endpoint = (overrides: Partial<EndpointContract>): EndpointContract =>
  ({
    method: 'GET',
    path: '/things',
    operationId: 'listThings',
    summary: 'Things',
    tags: ['things'],
    auth: 'optional-token',
    response: { status: 200, description: 'Things', schema: z.array(z.object({ id: z.number() })) },
    errors: [404],
    ...overrides,
  }) as EndpointContract;

function operationOf(contract: EndpointContract): Operation {
  const doc = buildOpenApiDocument([contract], { title: 't', version: '4' }) as {
    paths: Record<string, Record<string, Operation>>;
  };
  return Object.values(doc.paths)[0]![contract.method.toLowerCase()]!;
}

describe('OpenAPI document: conditional GETs', () => {
  it('When a GET answers JSON, then it takes If-None-Match, its answer has an ETag and 304 is documented', () => {
    const op = operationOf(endpoint({ response: { ...endpoint({}).response, paginated: true } }));
    expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'If-None-Match', in: 'header' }));
    expect(Object.keys(op.responses['200']!.headers!)).toEqual(
      expect.arrayContaining(['ETag', 'X-Total', 'Link']),
    );
    expect(Object.keys(op.responses['304']!.headers!)).toEqual(['ETag']);
    expect(op.responses['304']!.content).toBeUndefined();
  });

  it('When the operation is a write, a stream or plain text, then nothing conditional is documented', () => {
    const write = operationOf(
      endpoint({
        method: 'POST',
        operationId: 'createThing',
        response: { status: 201, description: 'Thing' },
      }),
    );
    const stream = operationOf(
      endpoint({ response: { status: 200, description: 'Stream', contentType: 'text/event-stream' } }),
    );
    const text = operationOf(
      endpoint({ response: { status: 200, description: 'Raw', contentType: 'text/plain' } }),
    );
    for (const op of [write, stream, text]) {
      expect(op.parameters.map((p) => p.name)).not.toContain('If-None-Match');
      expect(op.responses['304']).toBeUndefined();
      expect(Object.values(op.responses).some((r) => r.headers && 'ETag' in r.headers)).toBe(false);
    }
  });
});
