import type { Request } from 'express';
import { z } from 'zod';
import { positiveIdParam } from '@gl/contracts';
import { parseParams } from '@gl/service-kit';

/** A positive integer path parameter (`:snippet_id`, `:issue_iid`…), 400 "<name> is invalid" otherwise. */
export function pathIdOf(req: Request, name: string): number {
  return parseParams(z.object({ [name]: positiveIdParam }), { [name]: req.params[name] })[name] as number;
}
