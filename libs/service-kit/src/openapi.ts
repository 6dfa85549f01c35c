import { z } from 'zod';
import { pathParamNames, type EndpointContract } from '@gl/contracts';

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

/**
 * Conditional GETs (http/conditional.ts): a 2xx JSON answer to GET carries an ETag, and the same GET with
 * If-None-Match holding it is a 304 with no body (RFC 9110 §13.1.2, §15.4.5). Inlined, not `$ref`s, so
 * that every reader of `parameters` sees a name and a location.
 */
const ETAG_HEADER = {
  ETag: { description: 'Weak entity tag of this answer (body and page headers)', schema: { type: 'string' } },
};
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'Entity tags from earlier answers, or `*`: when one matches the current answer, 304',
  schema: { type: 'string' },
};
const NOT_MODIFIED = {
  description: 'Not modified: If-None-Match holds the current ETag; no body',
  headers: ETAG_HEADER,
};

/** Whether the endpoint's answer is tagged: GET, answered 2xx with JSON (sendJson). */
function conditional(endpoint: EndpointContract): boolean {
  const { status, contentType } = endpoint.response;
  return (
    endpoint.method === 'GET' &&
    status >= 200 &&
    status < 300 &&
    (contentType ?? 'application/json') === 'application/json'
  );
}

/** Builds an OpenAPI 3.0 document from the endpoint contracts (zod is the single source of truth). */
export function buildOpenApiDocument(
  endpoints: EndpointContract[],
  info: { title: string; version: string },
): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const fullPath = endpoint.outsideApi ? endpoint.path : `/api/v4${endpoint.path}`;
    const pathParams = pathParamNames(endpoint.path);
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
    const tagged = conditional(endpoint);
    if (tagged) parameters.push(IF_NONE_MATCH);
    const responses: Record<string, unknown> = {};
    for (const response of [...(endpoint.otherResponses ?? []), endpoint.response]) {
      const contentType = response.contentType ?? 'application/json';
      const main = response === endpoint.response;
      const headers = {
        ...(main && endpoint.response.paginated ? PAGINATION_HEADERS : {}),
        ...(main && tagged ? ETAG_HEADER : {}),
      };
      responses[response.status] = {
        description: response.description,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        ...(response.schema ? { content: { [contentType]: { schema: toSchema(response.schema) } } } : {}),
      };
    }
    if (tagged) responses[304] ??= NOT_MODIFIED;
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
