import { gatewayUrl } from '../e2e.helpers';

/** One operation of the gateway's OpenAPI document (GET /-/openapi.json, generated from the contracts). */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path template below /api/v4 (or below the root when `outsideApi`), e.g. `/groups/{id}/boards`. */
  path: string;
  outsideApi: boolean;
  operationId: string;
  tags: string[];
  /** The contract lets callers without a token in (`security` lists an empty requirement). */
  optionalToken: boolean;
  parameters: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: Schema }[];
  body?: Schema;
}

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
}

interface Document {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        tags?: string[];
        security?: Record<string, unknown>[];
        parameters?: Operation['parameters'];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
}

export async function loadOperations(): Promise<Operation[]> {
  const response = await fetch(`${gatewayUrl()}/-/openapi.json`);
  if (response.status !== 200) throw new Error(`/-/openapi.json → ${response.status}`);
  const doc = (await response.json()) as Document;
  const operations: Operation[] = [];
  for (const [fullPath, methods] of Object.entries(doc.paths)) {
    const outsideApi = !fullPath.startsWith('/api/v4/');
    const path = outsideApi ? fullPath : fullPath.slice('/api/v4'.length);
    for (const [method, op] of Object.entries(methods)) {
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        outsideApi,
        operationId: op.operationId,
        tags: op.tags ?? [],
        optionalToken: (op.security ?? []).some((requirement) => Object.keys(requirement).length === 0),
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** The path template with each `{name}` replaced by its encoded value; a missing value throws. */
export function fillPath(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(String(value));
  });
}

export function queryString(query: Record<string, string> | undefined): string {
  if (!query || Object.keys(query).length === 0) return '';
  return `?${new URLSearchParams(query).toString()}`;
}
