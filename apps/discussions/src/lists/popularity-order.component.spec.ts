import { z } from 'zod';
import { issueEntity, mergeRequestEntity, type NamespaceContext, type Principal } from '@gl/contracts';
import { DEVELOPER, GUEST, OWNER, REPORTER, useHarness } from '@gl/testing';
import { upvoteCountsMigration } from '../migrations/upvote-counts';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const issues = z.array(issueEntity);

/**
 * `order_by=popularity` (Issuable.sort_by_attribute: order_upvotes_desc / _asc on `upvotes_count`, then
 * with_order_id_desc): the thumbsup awards, counted again on every vote (AwardEmoji
 * #update_awardable_upvotes_count); items without votes last when descending, first when ascending.
 */
describe('Issue and merge request lists by popularity', () => {
  const h = useHarness(startDiscussionsHarness);

  async function votedIssues(ns: NamespaceContext) {
    const open = async (title: string) =>
      issueEntity.parse((await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title } })).body);
    const [none, one, two, alsoNone] = [
      await open('none'),
      await open('one'),
      await open('two'),
      await open('none 2'),
    ];
    const vote = async (iid: number, as: Principal, name = 'thumbsup') =>
      expect(
        (await h.call('POST', `/projects/${ns.id}/issues/${iid}/award_emoji`, { ns, as, json: { name } }))
          .status,
      ).toBe(201);
    await vote(one.iid, DEVELOPER);
    await vote(two.iid, DEVELOPER);
    await vote(two.iid, GUEST);
    await vote(none.iid, REPORTER, 'thumbsdown');
    return { none, one, two, alsoNone };
  }

  const titles = async (ns: NamespaceContext, query: string) => {
    const res = await h.call('GET', `/projects/${ns.id}/issues?${query}`, { ns, as: OWNER });
    expect(res.status).toBe(200);
    return issues.parse(res.body).map((i) => i.title);
  };

  it('When issues are listed by popularity, then most thumbsup first and the unvoted by id descending', async () => {
    const ns = projectNamespace();
    await votedIssues(ns);
    expect(await titles(ns, 'order_by=popularity')).toEqual(['two', 'one', 'none 2', 'none']);
    expect(await titles(ns, 'order_by=popularity&sort=asc')).toEqual(['none 2', 'none', 'one', 'two']);
    expect(await titles(ns, 'order_by=popularity&per_page=2&page=2')).toEqual(['none 2', 'none']);
    expect(await titles(ns, 'order_by=popularity&sort=asc&per_page=3&page=1')).toEqual([
      'none 2',
      'none',
      'one',
    ]);
  });

  it('When a thumbsup is taken back, then the issue moves back among the unvoted', async () => {
    const ns = projectNamespace();
    const { two } = await votedIssues(ns);
    const path = `/projects/${ns.id}/issues/${two.iid}/award_emoji`;
    const awards = z.array(z.object({ id: z.number(), user: z.object({ id: z.number() }) }));
    const listed = awards.parse((await h.call('GET', path, { ns, as: OWNER })).body);
    for (const award of listed) {
      const as = award.user.id === DEVELOPER.id ? DEVELOPER : GUEST;
      expect((await h.call('DELETE', `${path}/${award.id}`, { ns, as })).status).toBe(204);
    }
    expect(await titles(ns, 'order_by=popularity')).toEqual(['one', 'none 2', 'two', 'none']);
  });

  it('When merge requests are listed by popularity, then their thumbsup order them too', async () => {
    const ns = projectNamespace();
    const open = async (source: string) =>
      mergeRequestEntity.parse(
        (
          await h.call('POST', `/projects/${ns.id}/merge_requests`, {
            ns,
            as: DEVELOPER,
            json: { source_branch: source, target_branch: 'main', title: source },
          })
        ).body,
      );
    await open('a');
    const b = await open('b');
    await h.call('POST', `/projects/${ns.id}/merge_requests/${b.iid}/award_emoji`, {
      ns,
      as: DEVELOPER,
      json: { name: 'thumbsup' },
    });
    const res = await h.call('GET', `/projects/${ns.id}/merge_requests?order_by=popularity&sort=asc`, { ns });
    expect(
      z
        .array(mergeRequestEntity)
        .parse(res.body)
        .map((mr) => mr.title),
    ).toEqual(['a', 'b']);
  });

  it('When votes were given before counts were kept, then migration 9 counts them', async () => {
    const ns = projectNamespace();
    const { two } = await votedIssues(ns);
    await h.runtime.connection.collection('noteables').updateMany({}, { $unset: { upvotesCount: '' } });
    expect((await titles(ns, 'order_by=popularity'))[0]).toBe('none 2');
    await upvoteCountsMigration(9).up(h.runtime.connection, h.runtime.logger);
    expect((await titles(ns, 'order_by=popularity'))[0]).toBe(two.title);
  });
});
