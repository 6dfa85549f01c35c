import { Router, type Request } from 'express';
import {
  AWARD_OPERATIONS,
  DISCUSSIONS_API,
  NOTE_AWARD_OPERATIONS,
  type AwardOperationIds,
} from '@gl/contracts';
import {
  NotFoundError,
  UnauthorizedError,
  isHigherTier,
  requireUser,
  route,
  sendJson,
  sendNoContent,
} from '@gl/service-kit';
import { canReadNote, canReadNoteable, readableNamespace, userSummaryOf } from '../common/access';
import { targetOfNoteable, type NoteTarget } from '../notes/note-target';
import { readPage, sendPage } from '../common/http';
import type { NoteablesService } from '../noteables/noteables.service';
import type { NotesService } from '../notes/notes.service';
import { createNoteRequests } from '../notes/note-requests';
import type { AwardEmojiService, AwardableRef } from './award-emoji.service';
import { presentAward } from './award-emoji.presenter';

type AwardableKind = keyof typeof AWARD_OPERATIONS;
const AWARDABLE_KINDS = Object.keys(AWARD_OPERATIONS) as AwardableKind[];

/** The path of an award route: the awardable (an epic by iid), maybe one of its notes, maybe one award. */
interface AwardPath {
  noteable_id?: number;
  epic_iid?: number;
  note_id?: number;
}

/**
 * lib/api/award_emoji.rb: the award emoji of a project's issues, merge requests and snippets, of a group's
 * epics (a higher tier), and of their notes. Reading needs `read_<awardable>` (else 404 "Award Emoji"), awarding a signed-in user who can read
 * it (`award_emoji`), deleting the award's own user or an admin (else `unauthorized!`, 401).
 */
export function createAwardEmojiRouter(
  noteables: NoteablesService,
  notes: NotesService,
  awards: AwardEmojiService,
): Router {
  const router = Router();
  const { targetOf } = createNoteRequests(noteables, notes);

  /**
   * The awardable of a request: the issue, merge request or snippet (404 "<Type> Not Found" when missing or
   * unreadable, as the notes' find_noteable), or its note `:note_id` (a note the caller cannot read: 404
   * "Award Emoji", GitLab's `can_read_awardable?`).
   */
  async function awardableOf(req: Request, kind: AwardableKind, path: AwardPath) {
    const target =
      kind === 'Epic'
        ? await epicOf(req, path.epic_iid!)
        : await targetOf(req, kind, () => path.noteable_id!);
    const projectId = target.projectId;
    if (path.note_id === undefined) {
      return { projectId, ref: { type: kind, id: target.noteableId! } satisfies AwardableRef };
    }
    const note = await notes.findNote(target, path.note_id);
    if (!canReadNote(req.ctx, target.access, note)) throw new NotFoundError('Award Emoji');
    return { projectId, ref: { type: 'Note', id: note._id } satisfies AwardableRef };
  }

  /**
   * ee/lib/ee/api/helpers/award_emoji.rb: the group's epic by iid on a higher tier, readable (`read_epic`),
   * else 404 "Epic Not Found" as the notes' find_noteable answers.
   */
  async function epicOf(req: Request, iid: number): Promise<NoteTarget> {
    const ns = readableNamespace(req.ctx, 'group');
    const doc = isHigherTier(req.ctx) ? await noteables.findByIid('Epic', 'groupId', ns.id, iid) : null;
    if (!doc || !canReadNoteable(req.ctx, doc)) throw new NotFoundError('Epic');
    return targetOfNoteable(doc);
  }

  function routes(kind: AwardableKind, ids: AwardOperationIds) {
    route(
      router,
      DISCUSSIONS_API[ids.list as typeof AWARD_OPERATIONS.Issue.list],
      async ({ req, res, params }) => {
        const path = params() as AwardPath;
        const list = await readPage(req, async (skip, limit) => {
          const { ref } = await awardableOf(req, kind, path);
          return awards.page(ref, skip, limit);
        });
        await sendPage(req, res, list, (items) => items.map(presentAward));
      },
    );

    route(
      router,
      DISCUSSIONS_API[ids.get as typeof AWARD_OPERATIONS.Issue.get],
      async ({ req, res, params }) => {
        const path = params() as AwardPath & { award_id: number };
        const { ref } = await awardableOf(req, kind, path);
        sendJson(res, 200, presentAward(await awards.find(ref, path.award_id)));
      },
    );

    route(
      router,
      DISCUSSIONS_API[ids.create as typeof AWARD_OPERATIONS.Issue.create],
      async ({ req, res, ctx, params }) => {
        const user = requireUser(ctx);
        readableNamespace(ctx, kind === 'Epic' ? 'group' : 'project');
        const path = params() as AwardPath & { name: string };
        const { ref, projectId } = await awardableOf(req, kind, path);
        const award = await awards.add(ref, projectId, userSummaryOf(user), path.name);
        sendJson(res, 201, presentAward(award));
      },
    );

    route(
      router,
      DISCUSSIONS_API[ids.remove as typeof AWARD_OPERATIONS.Issue.remove],
      async ({ req, res, ctx, params }) => {
        const path = params() as AwardPath & { award_id: number };
        const { ref } = await awardableOf(req, kind, path);
        const award = await awards.find(ref, path.award_id);
        // `unauthorized! unless award.user == current_user || current_user&.can_admin_all_resources?`
        if (award.user.id !== ctx.principal?.id && !ctx.principal?.isAdmin) throw new UnauthorizedError();
        await awards.remove(award);
        sendNoContent(res);
      },
    );
  }

  for (const kind of AWARDABLE_KINDS) {
    routes(kind, AWARD_OPERATIONS[kind]);
    routes(kind, NOTE_AWARD_OPERATIONS[kind]);
  }
  return router;
}
