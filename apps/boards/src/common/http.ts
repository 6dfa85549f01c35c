import type { Request, Response } from 'express';
import {
  ParamError,
  atLeastOneOf,
  collectParams,
  readPageRequest,
  sendJson,
  setPaginationHeaders,
  type PageRequest,
} from '@gl/service-kit';

/**
 * Grape's `at_least_one_of` on an update: a 400 naming the parameters, in the order given, when the
 * request carries none of them.
 */
export function requireAnyOf(req: Request, ...names: string[]): void {
  const broken = atLeastOneOf(...names)(collectParams(req));
  if (broken) throw new ParamError([broken]);
}

/**
 * One page of a list: the page the request asks for (a 400 for a bad `page` or `per_page`, before the
 * read), its items read and presented, with GitLab's pagination headers.
 */
export async function sendPage<T>(
  req: Request,
  res: Response,
  read: (page: PageRequest) => Promise<{ total: number; docs: T[] }>,
  present: (items: T[]) => unknown[] | Promise<unknown[]>,
): Promise<void> {
  const page = readPageRequest(req.query);
  const { total, docs } = await read(page);
  setPaginationHeaders(req, res, page, total);
  sendJson(res, 200, await present(docs));
}
