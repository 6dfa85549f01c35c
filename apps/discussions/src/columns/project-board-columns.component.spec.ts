import { z } from 'zod';
import { DOMAIN_EVENT_TYPES, DURABLES, EVENT_TYPES, issueEntity, type BoardDefinedData } from '@gl/contracts';
import { GUEST, OWNER, REPORTER, groupEventFields, projectEventFields, useHarness } from '@gl/testing';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const ID = EVENT_TYPES.identity;
const issues = z.array(issueEntity);
let counter = 0;
const unique = (): string => `${Date.now().toString(36)}${counter++}`;

/**
 * A project's board lists (the calls beyond GitLab's REST API that group boards have, on a project board):
 * the board comes from its definition published with the project's id, its issues are the project's.
 */
describe('Project board lists: GET /projects/:id/boards/:board_id/lists/:list_id/issues and PUT .../move', () => {
  const h = useHarness(startDiscussionsHarness);
  let boardIds = 80_000;

  async function world() {
    const g = groupNamespace({ visibility: 'private' });
    await h.deliver(
      ID.groupCreated,
      groupEventFields(g.id, { visibility: 'private', ancestorGroupIds: [] }),
      DURABLES.discussionsIdentity,
    );
    const p = projectNamespace({
      visibility: 'private',
      ancestorGroupIds: [g.id],
      fullPath: `g/${unique()}`,
    });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(p.id, { visibility: 'private', ancestorGroupIds: [g.id], fullPath: p.fullPath }),
      DURABLES.discussionsIdentity,
    );
    const doing = `Doing${unique()}`;
    const board: BoardDefinedData = {
      boardId: boardIds++,
      groupId: null,
      projectId: p.id,
      revision: 1,
      deleted: false,
      milestoneId: null,
      assigneeId: null,
      labels: [],
      weight: null,
      lists: [{ id: 1, kind: 'label', targetId: 11, labelTitle: doing }],
      hideBacklogList: false,
      hideClosedList: false,
    };
    await h.deliver(DOMAIN_EVENT_TYPES.boards.boardDefined, board, DURABLES.discussionsBoards);
    const open = async (title: string, labels?: string) => {
      const res = await h.call('POST', `/projects/${p.id}/issues`, {
        ns: p,
        level: 50,
        json: { title, ...(labels && { labels }) },
      });
      expect(res.status).toBe(201);
      return issueEntity.parse(res.body);
    };
    return { g, p, board, doing, open };
  }

  it('When a project board is read by list, then each list holds its issues; a card moves between lists', async () => {
    const { p, board, doing, open } = await world();
    const started = await open('Started', doing);
    const waiting = await open('Waiting');
    const base = `/projects/${p.id}/boards/${board.boardId}`;
    const titles = async (list: string | number, as = GUEST, level = 10) => {
      const res = await h.call('GET', `${base}/lists/${list}/issues`, { ns: p, as, level });
      expect(res.status).toBe(200);
      return issues.parse(res.body).map((i) => i.title);
    };
    expect(await titles(1)).toEqual([started.title]);
    expect(await titles('backlog')).toEqual([waiting.title]);

    const guestMove = await h.call('PUT', `${base}/issues/${waiting.id}/move`, {
      ns: p,
      as: GUEST,
      level: 10,
      json: { from_list_id: 'backlog', to_list_id: 1 },
    });
    expect(guestMove.status).toBe(403);
    const moved = await h.call('PUT', `${base}/issues/${waiting.id}/move`, {
      ns: p,
      as: REPORTER,
      level: 20,
      json: { from_list_id: 'backlog', to_list_id: 1 },
    });
    expect(moved.status).toBe(200);
    expect(issueEntity.parse(moved.body).labels).toEqual([doing]);
    expect((await titles(1, OWNER, 50)).sort()).toEqual([started.title, waiting.title].sort());
    expect(await titles('backlog')).toEqual([]);
  });

  it('When the board is another project’s or a group’s, or the list unknown, then 404', async () => {
    const first = await world();
    const second = await world();
    const read = (projectId: number, ns: typeof first.p, boardId: number, list: string | number) =>
      h.call('GET', `/projects/${projectId}/boards/${boardId}/lists/${list}/issues`, { ns, level: 50 });
    const other = await read(second.p.id, second.p, first.board.boardId, 'backlog');
    expect([other.status, other.body]).toEqual([404, { message: '404 Board Not Found' }]);
    const list = await read(first.p.id, first.p, first.board.boardId, 99);
    expect([list.status, list.body]).toEqual([404, { message: '404 List Not Found' }]);
    // A project board is not a board of the project's group.
    const asGroup = await h.call(
      'GET',
      `/groups/${first.g.id}/boards/${first.board.boardId}/lists/backlog/issues`,
      {
        ns: first.g,
        level: 50,
      },
    );
    expect(asGroup.status).toBe(404);
  });
});
