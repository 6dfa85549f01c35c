import type { Request, Response, Router } from 'express';
import {
  pathParamsSchema,
  pathsOf,
  type EndpointContract,
  type EndpointParams,
  type EndpointPathParams,
  type InternalContext,
} from '@gl/contracts';
import { collectParams } from './body';
import { parseParams } from './validate';

/** Where a routed request keeps its endpoint's operation id (`res.locals`), for the rules that depend on it. */
export const OPERATION_LOCAL = 'operationId';

/** What a handler gets for one request to its endpoint. */
export interface RouteCall<E extends EndpointContract> {
  req: Request;
  res: Response;
  /** The gateway's signed context: caller, namespace, tier. */
  ctx: InternalContext;
  /**
   * The request's parameters (path, query and body, as Grape merges them) parsed by the endpoint's
   * contract; a broken one is GitLab's 400. A function, not a value, so each handler keeps GitLab's order
   * of checks: where GitLab authorizes before it validates, the handler authorizes before it calls this.
   */
  params: () => EndpointParams<E>;
  /**
   * The path parameters alone (those the contract declares), parsed by their contract schemas: for a
   * handler that looks a record up (its 404) before it reads the body, as GitLab's `find_*!` runs first.
   */
  pathParams: () => EndpointPathParams<E>;
}

export type RouteHandler<E extends EndpointContract> = (call: RouteCall<E>) => Promise<void>;

/** `/groups/{id}/boards/{board_id}` (OpenAPI) as Express writes it: `/groups/:id/boards/:board_id`. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

const ROUTED = Symbol('routed operations');
type RoutedRouter = Router & { [ROUTED]?: Set<string> };

/**
 * Registers the handler of one endpoint at the contract's method and path (and its `alsoAt` path), so a
 * route is declared once, in the contract.
 */
export function route<E extends EndpointContract>(
  router: Router,
  contract: E,
  handler: RouteHandler<E>,
): void {
  const method = contract.method.toLowerCase() as Lowercase<EndpointContract['method']>;
  const paths = pathsOf(contract).map(expressPath);
  const pathSchema = pathParamsSchema(contract);
  for (const path of paths) {
    router[method](path, async (req: Request, res: Response) => {
      res.locals[OPERATION_LOCAL] = contract.operationId;
      let parsed: EndpointParams<E> | undefined;
      const params = (): EndpointParams<E> =>
        (parsed ??= (
          contract.params ? parseParams(contract.params, collectParams(req)) : {}
        ) as EndpointParams<E>);
      let parsedPath: EndpointPathParams<E> | undefined;
      const pathParams = (): EndpointPathParams<E> =>
        (parsedPath ??= parseParams(pathSchema, req.params) as EndpointPathParams<E>);
      await handler({ req, res, ctx: req.ctx, params, pathParams });
    });
  }
  ((router as RoutedRouter)[ROUTED] ??= new Set()).add(contract.operationId);
}

/** The operation ids registered on these routers with `route`. */
export function routedOperations(routers: Router[]): Set<string> {
  return new Set(routers.flatMap((router) => [...((router as RoutedRouter)[ROUTED] ?? [])]));
}
