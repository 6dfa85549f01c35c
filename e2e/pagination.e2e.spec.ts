import { isDeepStrictEqual } from 'node:util';
import { MAX_PAGE } from '@gl/contracts';
import { api, rootToken } from './e2e.helpers';
import { must } from './hardening/http';
import { fillPath, loadOperations, type Operation } from './hardening/openapi';
import { createResources, type Resources } from './hardening/resources';
import { noteableKindOf } from './hardening/rules';
import { createGroup, createProject, createUser } from './hardening/world';

/**
 * Every list operation of the OpenAPI document that declares `page` and `per_page`, in every service and
 * the gateway, answers the same for the same pagination input: GitLab's rule (lib/api/pagination_params.rb,
 * Grape's Integer coercion and Kaminari's page/per; see libs/contracts/src/pagination.ts).
 */
interface Expected {
  status: number;
  body?: unknown;
  /** Pagination headers a 200 carries. */
  headers?: Record<string, string>;
  /** The page past the end is empty. */
  empty?: true;
}

const TWENTY_DIGITS = '99999999999999999999';

const CASES: [query: string, expected: Expected][] = [
  ['page=0', { status: 200, headers: { 'x-page': '1', 'x-per-page': '20' } }],
  ['page=-1', { status: 200, headers: { 'x-page': '1', 'x-per-page': '20' } }],
  ['page=', { status: 200, headers: { 'x-page': '1', 'x-per-page': '20' } }],
  ['page=abc', { status: 400, body: { error: 'page is invalid' } }],
  [`page=${TWENTY_DIGITS}`, { status: 200, headers: { 'x-page': String(MAX_PAGE) }, empty: true }],
  ['per_page=0', { status: 400, body: { error: 'per_page has a value not allowed' } }],
  ['per_page=abc', { status: 400, body: { error: 'per_page is invalid' } }],
  ['per_page=-1', { status: 200, headers: { 'x-page': '1', 'x-per-page': '20' } }],
];

const declares = (op: Operation, name: string): boolean =>
  op.parameters.some((p) => p.in === 'query' && p.name === name);

describe('pagination parameters on every list', () => {
  let lists: Operation[];
  let values: Record<string, string | number>;
  let resources: Resources;

  beforeAll(async () => {
    lists = (await loadOperations()).filter(
      (op) => op.method === 'GET' && declares(op, 'page') && declares(op, 'per_page'),
    );
    const owner = await createUser('pgown');
    const bystander = await createUser('pgby');
    const group = await createGroup('private');
    await must('POST', `/groups/${group.id}/members`, {
      token: rootToken(),
      body: { user_id: owner.id, access_level: 50 },
    });
    const project = await createProject(group.id, 'private', owner.token);
    resources = await createResources({ visibility: 'private', group, project, owner, bystander });
    const r = resources;
    values = {
      groupId: group.id,
      projectId: project.id,
      userId: owner.id,
      board_id: r.boardId,
      list_id: r.listId,
      milestone_id: r.milestoneId,
      issue_iid: r.issueIid,
      merge_request_iid: r.mergeRequestIid,
      epic_iid: r.epic.iid,
      repository_id: r.registry.repositoryId,
    };
    // A project milestone reaches the issue lists through the bus (its copy in discussions): wait for it.
    const listed = `/projects/${project.id}/milestones/${r.projectMilestoneId}/issues`;
    for (let tries = 0; tries < 100 && (await api(listed)).status !== 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);

  function pathOf(op: Operation): string {
    const kind = noteableKindOf(op.path);
    const id = op.path.startsWith('/groups/')
      ? values.groupId!
      : op.path.startsWith('/projects/')
        ? values.projectId!
        : values.userId!;
    // Resource events name their issue or merge request `eventable_id` (`eventable_iid`), as GitLab does.
    const eventable = op.path.includes('/merge_requests/') ? values.merge_request_iid! : values.issue_iid!;
    return fillPath(op.path, {
      ...values,
      id,
      user_id: values.userId!,
      eventable_id: eventable,
      eventable_iid: eventable,
      hook_id: op.path.startsWith('/groups/') ? resources.groupHookId : resources.projectHookId,
      // A project route's milestone, board and board list are the project's own.
      ...(op.path.startsWith('/projects/') && {
        milestone_id: resources.projectMilestoneId,
        board_id: resources.projectBoardId,
        list_id: resources.projectListId,
      }),
      ...(kind
        ? {
            noteable_id: resources.noteableIds[kind],
            discussion_id: resources.threads[kind].discussionId,
            note_id: resources.threads[kind].noteId,
          }
        : {}),
    });
  }

  it('When the document is read, then the lists of every service and the gateway declare page and per_page', () => {
    // 50 lists of the six services and 15 of the gateway's identity catalogue when this test was written.
    expect(lists.length).toBeGreaterThanOrEqual(65);
    const ids = lists.map((op) => op.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(['listProjects', 'listGroupBoards', 'listAlerts', 'listCurrentUserEvents']),
    );
  });

  it('When page or per_page is 0, negative, empty, not a number or 20 digits, then every list answers alike', async () => {
    const found: string[] = [];
    for (const op of lists) {
      const path = pathOf(op);
      const plain = await api(path);
      if (plain.status !== 200) {
        found.push(`${op.operationId} GET ${path} → ${plain.status} without pagination parameters`);
        continue;
      }
      for (const [query, expected] of CASES) {
        const reply = await api(`${path}${path.includes('?') ? '&' : '?'}${query}`);
        // Parsed here rather than by fetch, so the objects are of this test's realm for the comparison.
        const body: unknown = JSON.parse((await reply.text()) || 'null');
        const actual = {
          status: reply.status,
          ...(expected.body ? { body } : {}),
          ...(expected.headers
            ? {
                headers: Object.fromEntries(
                  Object.keys(expected.headers).map((h) => [h, reply.headers.get(h)]),
                ),
              }
            : {}),
          ...(expected.empty ? { empty: Array.isArray(body) && body.length === 0 ? true : body } : {}),
        };
        if (!isDeepStrictEqual(actual, expected)) {
          found.push(`${op.operationId} GET ${path}?${query} → ${JSON.stringify(actual)}`);
        }
      }
    }
    expect(found).toEqual([]);
  }, 300_000);
});
