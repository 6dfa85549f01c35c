import type { Request, Response } from 'express';
import { readPageRequest, sendJson, setPaginationHeaders, type PageRequest } from '@gl/service-kit';

/** The page a list request asks for, and its items as the reader finds them for that window. */
export async function readPage<T>(
  req: Request,
  read: (skip: number, limit: number) => Promise<{ items: T[]; total: number }>,
): Promise<{ page: PageRequest; items: T[]; total: number }> {
  const page = readPageRequest(req.query);
  return { page, ...(await read(page.skip, page.perPage)) };
}

/** Sends one page of a list, its items presented, with GitLab's pagination headers (X-Total, Link, ...). */
export async function sendPage<T>(
  req: Request,
  res: Response,
  list: { page: PageRequest; items: T[]; total: number },
  present: (items: T[]) => unknown[] | Promise<unknown[]>,
): Promise<void> {
  const body = await present(list.items);
  setPaginationHeaders(req, res, list.page, list.total);
  sendJson(res, 200, body);
}

/** Kaminari.paginate_array: a page of a list computed whole. */
export function pageOf<T>(all: T[]) {
  return (skip: number, limit: number) =>
    Promise.resolve({ items: all.slice(skip, skip + limit), total: all.length });
}
