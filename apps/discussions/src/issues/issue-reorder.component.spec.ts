import { z } from 'zod';
import { issueEntity, type NamespaceContext } from '@gl/contracts';
import { GUEST, OWNER, REPORTER, STRANGER, useHarness } from '@gl/testing';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const issues = z.array(issueEntity);

describe('Issue positions and PUT /projects/:id/issues/:issue_iid/reorder', () => {
  const h = useHarness(startDiscussionsHarness);

  /** Two projects of one root group (their issues share positions) and one of another group. */
  function projects() {
    const root = groupNamespace();
    const a = projectNamespace({ ancestorGroupIds: [root.id] });
    const b = projectNamespace({ ancestorGroupIds: [root.id, root.id + 100_000] });
    const elsewhere = projectNamespace({ ancestorGroupIds: [groupNamespace().id] });
    return { a, b, elsewhere };
  }

  async function open(ns: NamespaceContext, title: string) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title } });
    expect(res.status).toBe(201);
    return issueEntity.parse(res.body);
  }

  async function reorder(ns: NamespaceContext, iid: number, json: unknown, as = OWNER) {
    return h.call('PUT', `/projects/${ns.id}/issues/${iid}/reorder`, { ns, json, as });
  }

  async function ordered(ns: NamespaceContext) {
    const res = await h.call(
      'GET',
      `/projects/${ns.id}/issues?order_by=relative_position&sort=asc&per_page=100`,
      {
        ns,
      },
    );
    return issues.parse(res.body);
  }

  it('When issues are opened, then each goes after the last of its root group, across its projects', async () => {
    const { a, b } = projects();
    const one = await open(a, 'one');
    const two = await open(b, 'two');
    const three = await open(a, 'three');
    expect(two.relative_position! - one.relative_position!).toBe(513);
    expect(three.relative_position! - two.relative_position!).toBe(513);
  });

  it('When an issue is moved between two others, even of another project of the group, then it sits between them', async () => {
    const { a, b } = projects();
    const one = await open(a, 'one');
    const two = await open(a, 'two');
    const three = await open(a, 'three');
    const other = await open(b, 'other');
    const moved = await reorder(a, three.iid, { move_after_id: one.id, move_before_id: two.id });
    expect(moved.status).toBe(200);
    const issue = issueEntity.parse(moved.body);
    expect(issue.relative_position).toBeGreaterThan(one.relative_position!);
    expect(issue.relative_position).toBeLessThan(two.relative_position!);
    expect((await ordered(a)).map((i) => i.title)).toEqual(['one', 'three', 'two']);
    // Only a neighbour given: right after it (before the next one), or right before it.
    const first = await reorder(a, two.iid, { move_before_id: one.id });
    expect(first.status).toBe(200);
    expect((await ordered(a)).map((i) => i.title)).toEqual(['two', 'one', 'three']);
    const afterOther = await reorder(a, two.iid, { move_after_id: other.id });
    expect(issueEntity.parse(afterOther.body).relative_position).toBeGreaterThan(other.relative_position!);
  });

  it('When the ids are bad, then GitLab answers: 400 none given, 422 not in the group or not positive, 404 unknown iid, 403 Guest', async () => {
    const { a, elsewhere } = projects();
    const one = await open(a, 'one');
    const two = await open(a, 'two');
    const foreign = await open(elsewhere, 'foreign');
    const none = await reorder(a, one.iid, {});
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      error: 'move_after_id, move_before_id are missing, at least one parameter must be provided',
    });
    for (const body of [
      { move_after_id: foreign.id },
      { move_after_id: 99_999_999 },
      { move_before_id: 0 },
    ]) {
      const res = await reorder(a, one.iid, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: { error: 'Unprocessable Entity' } });
    }
    const unknown = await reorder(a, 999, { move_after_id: two.id });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Issue Not Found' });
    const guest = await reorder(a, one.iid, { move_after_id: two.id }, GUEST);
    expect(guest.status).toBe(403);
    const reporter = await reorder(a, one.iid, { move_after_id: two.id }, REPORTER);
    expect(reporter.status).toBe(200);
    const stranger = await reorder(a, one.iid, { move_after_id: two.id }, STRANGER);
    expect(stranger.status).toBe(404);
  });

  it('When 150 moves land in the same gap (about 16 spreads of the window), then the board keeps a strict order without equal positions', async () => {
    const { a } = projects();
    const first = await open(a, 'first');
    const last = await open(a, 'last');
    const expected = ['first', 'last'];
    let previous = last;
    for (let n = 0; n < 150; n++) {
      const issue = await open(a, `n${n}`);
      const res = await reorder(a, issue.iid, { move_after_id: first.id, move_before_id: previous.id });
      expect(res.status).toBe(200);
      expected.splice(1, 0, `n${n}`);
      previous = issue;
    }
    const all = [
      ...(await ordered(a)),
      ...issues.parse(
        (
          await h.call(
            'GET',
            `/projects/${a.id}/issues?order_by=relative_position&sort=asc&per_page=100&page=2`,
            {
              ns: a,
            },
          )
        ).body,
      ),
    ];
    const rest = [];
    for (let page = 3; page <= 4; page++) {
      const res = await h.call(
        'GET',
        `/projects/${a.id}/issues?order_by=relative_position&sort=asc&per_page=100&page=${page}`,
        { ns: a },
      );
      rest.push(...issues.parse(res.body));
    }
    const board = [...all, ...rest];
    expect(board.map((i) => i.title)).toEqual(expected);
    expect(new Set(board.map((i) => i.relative_position)).size).toBe(board.length);
  }, 120_000);

  it('When two clients reorder the same board at once, then a total order remains with no equal positions', async () => {
    const { a, b } = projects();
    const created = [];
    for (let n = 0; n < 12; n++) created.push(await open(n % 2 ? b : a, `i${n}`));
    const moves = [];
    for (let n = 0; n < 40; n++) {
      const issue = created[n % created.length]!;
      const target = created[(n * 7 + 3) % created.length]!;
      if (target.id === issue.id) continue;
      const ns = issue.project_id === a.id ? a : b;
      moves.push(
        reorder(ns, issue.iid, n % 2 ? { move_after_id: target.id } : { move_before_id: target.id }),
      );
    }
    const answers = await Promise.all(moves);
    expect(answers.map((r) => r.status).every((s) => s === 200)).toBe(true);
    const board = [...(await ordered(a)), ...(await ordered(b))];
    const positions = board.map((i) => i.relative_position);
    expect(positions.every((p) => Number.isInteger(p))).toBe(true);
    expect(new Set(positions).size).toBe(board.length);
  });
});
