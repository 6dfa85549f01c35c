import { z } from 'zod';
import type { EndpointContract } from '@gl/contracts';

type JsonSchema = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request: {"error":"x is missing"} for parameters, {"message":...} otherwise',
  401: 'Unauthorized: {"message":"401 Unauthorized"}',
  403: 'Forbidden: {"message":"403 Forbidden"} or insufficient_scope',
  404: 'Not found, or not visible to the caller: {"message":"404 <Resource> Not Found"}',
  409: 'Conflict',
  413: 'Request entity too large',
};

function toSchema(schema: z.ZodType): JsonSchema {
  // Parameters are documented as they arrive (strings that parse to booleans and integers are fine too).
  const json = z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
    target: 'openapi-3.0',
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

const PAGINATION_HEADERS = Object.fromEntries(
  ['X-Page', 'X-Per-Page', 'X-Next-Page', 'X-Prev-Page', 'X-Total', 'X-Total-Pages', 'Link'].map((h) => [
    h,
    { schema: { type: 'string' } },
  ]),
);

/** Builds an OpenAPI 3.0 document from the endpoint contracts (zod is the single source of truth). */
export function buildOpenApiDocument(
  endpoints: EndpointContract[],
  info: { title: string; version: string },
): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const fullPath = endpoint.outsideApi ? endpoint.path : `/api/v4${endpoint.path}`;
    const pathParams = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const shape = (endpoint.params?.shape ?? {}) as Record<string, z.ZodType>;
    const parameters: unknown[] = pathParams.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: shape[name] ? toSchema(shape[name]) : { type: 'string' },
    }));
    const rest = Object.entries(shape).filter(([name]) => !pathParams.includes(name));
    const inBody = ['POST', 'PUT', 'PATCH'].includes(endpoint.method);
    let requestBody: unknown;
    if (rest.length > 0 && inBody) {
      const body = toSchema(z.object(Object.fromEntries(rest)));
      requestBody = {
        required: false,
        content: {
          'application/json': { schema: body },
          'application/x-www-form-urlencoded': { schema: body },
        },
      };
    } else {
      for (const [name, schema] of rest) {
        parameters.push({
          name,
          in: 'query',
          required: !schema.safeParse(undefined).success,
          schema: toSchema(schema),
        });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const response of [...(endpoint.otherResponses ?? []), endpoint.response]) {
      const contentType = response.contentType ?? 'application/json';
      responses[response.status] = {
        description: response.description,
        ...(response === endpoint.response && endpoint.response.paginated
          ? { headers: PAGINATION_HEADERS }
          : {}),
        ...(response.schema ? { content: { [contentType]: { schema: toSchema(response.schema) } } } : {}),
      };
    }
    for (const status of endpoint.errors ?? [])
      responses[status] = { description: STATUS_TEXT[status] ?? String(status) };
    paths[fullPath] ??= {};
    paths[fullPath][endpoint.method.toLowerCase()] = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      tags: endpoint.tags,
      ...(endpoint.deprecated ? { deprecated: true } : {}),
      ...(endpoint.higherTier ? { 'x-gitlab-tier': 'premium' } : {}),
      security:
        endpoint.auth === 'token'
          ? [{ privateToken: [] }, { bearer: [] }]
          : endpoint.auth === 'optional-token'
            ? [{}, { privateToken: [] }, { bearer: [] }]
            : [{ bearer: [] }],
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: '3.0.3',
    info,
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths,
  };
}
