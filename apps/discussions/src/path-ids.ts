import type { Request } from 'express';
import { z } from 'zod';
import { recordIdParam } from '@gl/contracts';
import { parseParams } from '@gl/service-kit';

/** An id or iid path parameter (`:snippet_id`, `:issue_iid`…) as GitLab reads it (`recordIdParam`). */
export function pathIdOf(req: Request, name: string): number {
  return parseParams(z.object({ [name]: recordIdParam }), { [name]: req.params[name] })[name] as number;
}
