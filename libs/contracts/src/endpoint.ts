import type { z } from 'zod';

/**
 * One HTTP endpoint as the OpenAPI document and the routers see it. Parameters follow GitLab: they may
 * come by path, query or body, so `params` describes them all; the document lists path parameters from
 * the path template, and the rest as query (GET/DELETE) or request body (POST/PUT/PATCH).
 */
export interface EndpointContract {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path template below /api/v4 (or absolute when `outsideApi`), e.g. `/groups/{id}/boards`. */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  /** Who authenticates: a personal access token (required or optional), or the service itself. */
  auth: 'token' | 'optional-token' | 'integration-token' | 'registry-secret';
  params?: z.ZodObject;
  response: { status: number; description: string; schema?: z.ZodType; paginated?: boolean };
  errors?: number[];
  deprecated?: boolean;
  /** Higher-tier feature (GitLab Premium/Ultimate). */
  higherTier?: boolean;
  /** Served outside /api/v4 (alert notify endpoints). */
  outsideApi?: boolean;
}

export function defineEndpoints(endpoints: EndpointContract[]): EndpointContract[] {
  return endpoints;
}
