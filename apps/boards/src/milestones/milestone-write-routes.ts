import type { Router } from 'express';
import type { z } from 'zod';
import {
  BOARDS_API,
  type InternalContext,
  type createMilestoneBody,
  type updateMilestoneBody,
} from '@gl/contracts';
import { route, sendJson } from '@gl/service-kit';
import { requireAnyOf } from '../common/http';

/** What differs between writing group milestones (lib/api/group_milestones.rb) and project milestones. */
interface MilestoneWriteRules<Writer, Doc> {
  /** Who may write (404, 403 before anything else), as the events they write name them. */
  writerOf: (ctx: InternalContext) => Writer;
  service: {
    create: (writer: Writer, params: z.infer<typeof createMilestoneBody>) => Promise<Doc>;
    update: (writer: Writer, params: z.infer<typeof updateMilestoneBody>) => Promise<Doc>;
  };
  present: (doc: Doc, writer: Writer) => unknown;
  /** The PUT's `at_least_one_of`, in the order its API names them (the 400's message lists them so). */
  updatable: string[];
}

/** POST and PUT of a group's or a project's milestone: the writer first, then the body, then the write. */
export function routeMilestoneWrites<Writer, Doc>(
  router: Router,
  parent: 'Group' | 'Project',
  rules: MilestoneWriteRules<Writer, Doc>,
): void {
  route(router, BOARDS_API[`create${parent}Milestone`], async ({ res, ctx, params }) => {
    const writer = rules.writerOf(ctx);
    const created = await rules.service.create(writer, params());
    sendJson(res, 201, rules.present(created, writer));
  });

  route(router, BOARDS_API[`update${parent}Milestone`], async ({ req, res, ctx, params }) => {
    const writer = rules.writerOf(ctx);
    const changes = params();
    requireAnyOf(req, ...rules.updatable);
    const updated = await rules.service.update(writer, changes);
    sendJson(res, 200, rules.present(updated, writer));
  });
}
