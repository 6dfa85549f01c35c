import type { Request, Response } from 'express';
import {
  readPageRequest,
  sendJson,
  setPaginationHeaders,
  setUncountedPaginationHeaders,
  type PageRequest,
} from '@gl/service-kit';

/**
 * A page as a reader finds it: its items and the list's total, or null when the list was not counted
 * (past GitLab's count limit), and then whether a next page exists.
 */
interface FoundPage<T> {
  items: T[];
  total: number | null;
  hasNext?: boolean;
}

/** The page a list request asks for, and its items as the reader finds them for that window. */
export async function readPage<T>(
  req: Request,
  read: (skip: number, limit: number) => Promise<FoundPage<T>>,
): Promise<{ page: PageRequest } & FoundPage<T>> {
  const page = readPageRequest(req.query);
  return { page, ...(await read(page.skip, page.perPage)) };
}

/** Sends one page of a list, its items presented, with GitLab's pagination headers (X-Total, Link, ...). */
export async function sendPage<T>(
  req: Request,
  res: Response,
  list: { page: PageRequest } & FoundPage<T>,
  present: (items: T[]) => unknown[] | Promise<unknown[]>,
): Promise<void> {
  const body = await present(list.items);
  if (list.total === null) setUncountedPaginationHeaders(req, res, list.page, list.hasNext ?? false);
  else setPaginationHeaders(req, res, list.page, list.total);
  sendJson(res, 200, body);
}

/** Kaminari.paginate_array: a page of a list computed whole. */
export function pageOf<T>(all: T[]) {
  return (skip: number, limit: number) =>
    Promise.resolve({ items: all.slice(skip, skip + limit), total: all.length });
}
