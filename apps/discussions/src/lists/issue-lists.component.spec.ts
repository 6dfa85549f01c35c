import { z } from 'zod';
import { issueEntity, paramError } from '@gl/contracts';
import { DEVELOPER, GUEST, OWNER, REPORTER, useHarness } from '@gl/testing';
import { labelFieldsMigration } from '../migrations/label-fields';
import { labelKeyWordsMigration } from '../migrations/label-key-words';
import { labelKey } from '../noteables/word-filters';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const issues = z.array(issueEntity);

describe('Project issue lists: filters and order (IssuesFinder)', () => {
  const h = useHarness(startDiscussionsHarness);

  async function open(ns: ReturnType<typeof projectNamespace>, json: Record<string, unknown>, as = OWNER) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json, as });
    expect(res.status).toBe(201);
    return issueEntity.parse(res.body);
  }

  async function list(ns: ReturnType<typeof projectNamespace>, query: string, as = OWNER) {
    const res = await h.call('GET', `/projects/${ns.id}/issues?${query}`, { ns, as });
    expect(res.status).toBe(200);
    return issues.parse(res.body);
  }

  const titles = (items: { title: string }[]) => items.map((i) => i.title);

  it('When ordered by created_at asc, then oldest first; desc (the default) newest first; ties by id', async () => {
    const ns = projectNamespace();
    const at = '2026-01-01T00:00:00Z';
    // The owner may set created_at: three issues created at the same instant, one later.
    await open(ns, { title: 'a', created_at: at });
    await open(ns, { title: 'b', created_at: at });
    await open(ns, { title: 'c', created_at: '2026-02-01T00:00:00Z' });
    await open(ns, { title: 'd', created_at: at });
    expect(titles(await list(ns, 'order_by=created_at&sort=asc'))).toEqual(['a', 'b', 'd', 'c']);
    expect(titles(await list(ns, ''))).toEqual(['c', 'd', 'b', 'a']);
    expect(titles(await list(ns, 'sort=desc&order_by=created_at'))).toEqual(['c', 'd', 'b', 'a']);
  });

  it('When ordered by title, then by title both ways, equal titles newest id first', async () => {
    const ns = projectNamespace();
    for (const title of ['beta', 'alpha', 'gamma', 'alpha']) await open(ns, { title });
    const asc = await list(ns, 'order_by=title&sort=asc');
    expect(titles(asc)).toEqual(['alpha', 'alpha', 'beta', 'gamma']);
    expect(asc[0]!.iid).toBe(4);
    expect(titles(await list(ns, 'order_by=title&sort=desc'))).toEqual(['gamma', 'beta', 'alpha', 'alpha']);
  });

  it('When ordered by due_date, then issues without one come last both ways', async () => {
    const ns = projectNamespace();
    await open(ns, { title: 'none' });
    await open(ns, { title: 'late', due_date: '2026-12-01' });
    await open(ns, { title: 'early', due_date: '2026-03-01' });
    expect(titles(await list(ns, 'order_by=due_date&sort=asc'))).toEqual(['early', 'late', 'none']);
    expect(titles(await list(ns, 'order_by=due_date&sort=desc'))).toEqual(['late', 'early', 'none']);
    const page2 = await list(ns, 'order_by=due_date&sort=asc&per_page=2&page=2');
    expect(titles(page2)).toEqual(['none']);
  });

  it('When pages are walked oldest or first position first while issues are added, then none repeats or is skipped', async () => {
    const ns = projectNamespace({ ancestorGroupIds: [] });
    const at = '2026-03-01T00:00:00Z';
    for (let n = 0; n < 25; n++) await open(ns, { title: `i${n}`, created_at: n % 3 ? at : undefined });
    for (const order of ['order_by=relative_position&sort=asc', 'order_by=created_at&sort=asc']) {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        seen.push(...titles(await list(ns, `${order}&per_page=10&page=${page}`)));
        await open(ns, { title: `new ${order} ${page}` });
      }
      const old = seen.filter((t) => !t.startsWith('new'));
      expect(new Set(seen).size).toBe(seen.length);
      expect(old).toHaveLength(25);
    }
  });

  it('When order_by or sort is unknown, then 400 "<name> does not have a valid value"', async () => {
    const ns = projectNamespace();
    for (const [query, name] of [
      ['order_by=weightless', 'order_by'],
      ['sort=up', 'sort'],
      ['state=locked', 'state'],
    ] as const) {
      const res = await h.call('GET', `/projects/${ns.id}/issues?${query}`, { ns });
      expect(res.status).toBe(400);
      expect(paramError.parse(res.body)).toEqual({ error: `${name} does not have a valid value` });
    }
  });

  it('When ordered by weight, then only on the tiers that have weights (no issue weighs: by id)', async () => {
    const ns = projectNamespace();
    await open(ns, { title: 'a' });
    await open(ns, { title: 'b' });
    const paid = await h.call('GET', `/projects/${ns.id}/issues?order_by=weight&sort=asc`, { ns });
    expect(titles(issues.parse(paid.body))).toEqual(['b', 'a']);
    const free = await h.call('GET', `/projects/${ns.id}/issues?order_by=weight`, { ns, tier: 'free' });
    expect(free.status).toBe(400);
    expect(free.body).toEqual({ error: 'order_by does not have a valid value' });
    expect(titles(await list(ns, 'weight=None&sort=asc'))).toEqual(['a', 'b']);
    expect(titles(await list(ns, 'weight=3'))).toEqual([]);
  });

  it('When issues were stored before labelKeys existed, then the migration step makes label filters find them', async () => {
    const ns = projectNamespace();
    const issue = await open(ns, { title: 'old', labels: 'Legacy' });
    const noteables = h.runtime.connection.collection('noteables');
    await noteables.updateOne(
      { _id: issue.id as never },
      { $unset: { labelSet: '', labelCount: '', labelKeys: '' } },
    );
    expect(titles(await list(ns, 'labels=Legacy'))).toEqual([]);
    await labelFieldsMigration(2).up(h.runtime.connection, h.runtime.logger);
    await labelFieldsMigration(2).up(h.runtime.connection, h.runtime.logger);
    await labelKeyWordsMigration(3).up(h.runtime.connection, h.runtime.logger);
    expect(titles(await list(ns, 'labels=Legacy'))).toEqual(['old']);
    expect(titles(await list(ns, 'labels=None'))).toEqual([]);
    expect(titles(await list(ns, 'labels=Any'))).toEqual(['old']);
  });

  it('When label titles hold regex metacharacters, then each filter matches that title literally and whole', async () => {
    const ns = projectNamespace();
    const cases: [string, string][] = [
      ['dot', 'a.b'],
      ['x', 'axb'],
      ['cpp', 'c++'],
      ['c', 'c'],
      ['star', '.*'],
      ['group', '(x)|y'],
      ['spaced', 'needs review'],
    ];
    for (const [title, label] of cases) await open(ns, { title, labels: label });
    const only = async (label: string) =>
      titles(await list(ns, `labels=${encodeURIComponent(label)}&sort=asc`));
    expect(await only('a.b')).toEqual(['dot']);
    expect(await only('c++')).toEqual(['cpp']);
    // `c` is a prefix of `c++`'s key: the words' spaces keep it whole.
    expect(await only('c')).toEqual(['c']);
    expect(await only('.*')).toEqual(['star']);
    expect(await only('(x)|y')).toEqual(['group']);
    expect(await only('needs review')).toEqual(['spaced']);
    expect(await only('a')).toEqual([]);
    const notDot = await list(ns, `not[labels]=${encodeURIComponent('a.b')}&sort=asc`);
    expect(titles(notDot)).toEqual(['x', 'cpp', 'c', 'star', 'group', 'spaced']);
    const notTwo = await list(ns, `not[labels]=${encodeURIComponent('c++,.*')}&sort=asc`);
    expect(titles(notTwo)).toEqual(['dot', 'x', 'c', 'group', 'spaced']);
  });

  it('When two labels, None or Any meet state and not[labels], then all conditions hold and X-Total counts them', async () => {
    const ns = projectNamespace();
    const closed = [];
    await open(ns, { title: 'both', labels: 'Doing,bug' });
    closed.push(await open(ns, { title: 'both closed', labels: 'bug,Doing' }));
    await open(ns, { title: 'both extra', labels: 'Doing,bug,p1' });
    await open(ns, { title: 'bug', labels: 'bug' });
    await open(ns, { title: 'bare' });
    closed.push(await open(ns, { title: 'bare closed' }));
    for (const issue of closed) {
      const res = await h.call('PUT', `/projects/${ns.id}/issues/${issue.iid}`, {
        ns,
        json: { state_event: 'close' },
        as: OWNER,
      });
      expect(res.status).toBe(200);
    }
    const page = async (query: string) => {
      const res = await h.call('GET', `/projects/${ns.id}/issues?${query}&sort=asc`, { ns, as: OWNER });
      expect(res.status).toBe(200);
      return { titles: titles(issues.parse(res.body)), total: res.headers.get('x-total') };
    };
    expect(await page('labels=bug,Doing')).toEqual({
      titles: ['both', 'both closed', 'both extra'],
      total: '3',
    });
    expect(await page('labels=bug,Doing&state=opened&per_page=1&page=2')).toEqual({
      titles: ['both extra'],
      total: '2',
    });
    expect(await page('labels=bug,Doing&not[labels]=p1')).toEqual({
      titles: ['both', 'both closed'],
      total: '2',
    });
    expect(await page('labels=bug&not[labels]=Doing,p1')).toEqual({ titles: ['bug'], total: '1' });
    expect(await page('labels=Doing,nothing')).toEqual({ titles: [], total: '0' });
    expect(await page('labels=None&state=closed')).toEqual({ titles: ['bare closed'], total: '1' });
    expect(await page('labels=None&state=opened')).toEqual({ titles: ['bare'], total: '1' });
    // None and Any win over the names beside them, as in IssuableFinder#by_label.
    expect(await page('labels=bug,None')).toEqual({ titles: ['bare', 'bare closed'], total: '2' });
    expect(await page('labels=Any&state=opened&not[labels]=Doing')).toEqual({
      titles: ['bug'],
      total: '1',
    });
    expect(await page('labels=any&order_by=relative_position')).toEqual({
      titles: ['both', 'both closed', 'both extra', 'bug'],
      total: '4',
    });
  });

  it('When a label or assignee has few issues, then its list is read among them, entries that outlived it (a removed label, a deleted issue) ignored', async () => {
    const ns = projectNamespace();
    const label = `Rare${Date.now().toString(36)}`;
    const kept = await open(ns, { title: 'kept', labels: label, assignee_ids: [OWNER.id] });
    const removed = await open(ns, {
      title: 'removed',
      labels: `${label},other`,
      assignee_ids: [OWNER.id],
    });
    const deleted = await open(ns, { title: 'deleted', labels: label });
    await open(ns, { title: 'plain' });
    const put = await h.call('PUT', `/projects/${ns.id}/issues/${removed.iid}`, {
      ns,
      json: { remove_labels: label, assignee_ids: [] },
      as: OWNER,
    });
    expect(put.status).toBe(200);
    const gone = await h.call('DELETE', `/projects/${ns.id}/issues/${deleted.iid}`, { ns, as: OWNER });
    expect(gone.status).toBe(204);
    // Within a minute of the change the removed label's and assignee's entries are still there.
    const entries = h.runtime.connection.collection('noteable_words');
    expect(await entries.countDocuments({ noteableId: removed.id })).toBe(3);
    await entries.insertOne({
      _id: `${labelKey(label)}:${deleted.id}` as never,
      word: labelKey(label),
      family: 'label',
      noteableId: deleted.id,
      touchedAt: new Date(),
    });
    const page = async (query: string) => {
      const res = await h.call('GET', `/projects/${ns.id}/issues?${query}`, { ns, as: OWNER });
      expect(res.status).toBe(200);
      return { titles: titles(issues.parse(res.body)), total: res.headers.get('x-total') };
    };
    expect(await page(`labels=${label}`)).toEqual({ titles: ['kept'], total: '1' });
    expect(await page(`assignee_id=${OWNER.id}`)).toEqual({ titles: ['kept'], total: '1' });
    expect(await page(`labels=${label}&order_by=title&sort=asc&per_page=1&page=2`)).toEqual({
      titles: [],
      total: '1',
    });
    const stats = await h.call('GET', `/projects/${ns.id}/issues_statistics?labels=${label}`, {
      ns,
      as: OWNER,
    });
    expect(stats.body).toEqual({ statistics: { counts: { all: 1, closed: 0, opened: 1 } } });
    expect(kept.title).toBe('kept');
  });

  it('When labels are given, then issues having all of them; None and Any; not[labels] excludes', async () => {
    const ns = projectNamespace();
    await open(ns, { title: 'both', labels: 'Doing,bug' });
    await open(ns, { title: 'doing', labels: 'Doing' });
    await open(ns, { title: 'bare' });
    expect(titles(await list(ns, 'labels=Doing,bug'))).toEqual(['both']);
    expect(titles(await list(ns, 'labels=Doing&order_by=created_at&sort=asc'))).toEqual(['both', 'doing']);
    expect(titles(await list(ns, 'labels=None'))).toEqual(['bare']);
    expect(titles(await list(ns, 'labels=Any&sort=asc'))).toEqual(['both', 'doing']);
    expect(titles(await list(ns, 'not[labels]=bug&sort=asc'))).toEqual(['doing', 'bare']);
    expect(titles(await list(ns, 'labels[]=Doing&labels[]=bug'))).toEqual(['both']);
  });

  it('When filtered by author, assignee, state, search, iids and dates, then only the matches', async () => {
    const ns = projectNamespace();
    await open(ns, { title: 'Crash on start', description: 'boom', assignee_ids: [DEVELOPER.id] });
    await open(ns, { title: 'Slow page', description: 'the crash log' }, DEVELOPER);
    const closed = await open(ns, { title: 'Old bug', created_at: '2020-01-01T00:00:00Z' });
    await h.call('PUT', `/projects/${ns.id}/issues/${closed.iid}`, { ns, json: { state_event: 'close' } });
    expect(titles(await list(ns, `author_id=${DEVELOPER.id}`))).toEqual(['Slow page']);
    expect(titles(await list(ns, `author_username=${DEVELOPER.username}`))).toEqual(['Slow page']);
    expect(titles(await list(ns, `not[author_id]=${DEVELOPER.id}&sort=asc`))).toEqual([
      'Old bug',
      'Crash on start',
    ]);
    expect(titles(await list(ns, `assignee_id=${DEVELOPER.id}`))).toEqual(['Crash on start']);
    expect(titles(await list(ns, 'assignee_id=None&sort=asc'))).toEqual(['Old bug', 'Slow page']);
    expect(titles(await list(ns, 'assignee_id=any'))).toEqual(['Crash on start']);
    expect(titles(await list(ns, 'state=closed'))).toEqual(['Old bug']);
    expect(titles(await list(ns, 'state=opened&sort=asc'))).toEqual(['Crash on start', 'Slow page']);
    expect(titles(await list(ns, 'search=crash&sort=asc'))).toEqual(['Crash on start', 'Slow page']);
    expect(titles(await list(ns, 'search=crash&in=title'))).toEqual(['Crash on start']);
    expect(titles(await list(ns, 'iids=1,3&sort=asc'))).toEqual(['Old bug', 'Crash on start']);
    expect(titles(await list(ns, 'created_before=2021-01-01'))).toEqual(['Old bug']);
    expect(titles(await list(ns, 'created_after=2021-01-01T00:00:00Z&sort=asc'))).toEqual([
      'Crash on start',
      'Slow page',
    ]);
    expect(titles(await list(ns, 'my_reaction_emoji=thumbsup'))).toEqual([]);
    expect(await list(ns, 'my_reaction_emoji=None')).toHaveLength(3);
    // IssuableFinder#by_my_reaction_emoji: the caller's own awards (thumbsup on issue 3, the old bug).
    const award = await h.call('POST', `/projects/${ns.id}/issues/3/award_emoji`, {
      ns,
      json: { name: 'thumbsup' },
      as: OWNER,
    });
    expect(award.status).toBe(201);
    expect(titles(await list(ns, 'my_reaction_emoji=thumbsup'))).toEqual(['Old bug']);
    expect(titles(await list(ns, 'my_reaction_emoji=Any'))).toEqual(['Old bug']);
    expect(titles(await list(ns, 'my_reaction_emoji=tada'))).toEqual([]);
    expect(titles(await list(ns, 'my_reaction_emoji=None&sort=asc'))).toEqual([
      'Crash on start',
      'Slow page',
    ]);
    expect(titles(await list(ns, 'not[my_reaction_emoji]=thumbsup&sort=asc'))).toEqual([
      'Crash on start',
      'Slow page',
    ]);
    expect(titles(await list(ns, 'my_reaction_emoji=thumbsup', DEVELOPER))).toEqual([]);
    const bad = await h.call('GET', `/projects/${ns.id}/issues?created_after=yesterday-ish`, { ns });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'created_after is invalid' });
  });

  it('When filtered by milestone title, None or Any, then issues of that milestone, none, or any', async () => {
    const ns = projectNamespace();
    // Milestone titles come from the boards service's events (discussions' copy).
    const milestones = h.runtime.connection.collection('milestones');
    await milestones.insertOne({ _id: 7001 as never, iid: 1, title: 'v1.0' });
    await open(ns, { title: 'in v1', milestone_id: 7001 });
    await open(ns, { title: 'loose' });
    expect(titles(await list(ns, 'milestone=v1.0'))).toEqual(['in v1']);
    expect(titles(await list(ns, 'milestone=None'))).toEqual(['loose']);
    expect(titles(await list(ns, 'milestone=Any'))).toEqual(['in v1']);
    expect(titles(await list(ns, 'milestone_id=None'))).toEqual(['loose']);
    expect(titles(await list(ns, 'not[milestone]=v1.0'))).toEqual(['loose']);
    expect(titles(await list(ns, 'milestone=nope'))).toEqual([]);
    const both = await h.call('GET', `/projects/${ns.id}/issues?milestone=v1.0&milestone_id=Any`, { ns });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'milestone_id, milestone are mutually exclusive' });
  });

  it('When a confidential issue is listed, then only Reporters, its author and assignees see it', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    await open(ns, { title: 'secret', confidential: true, assignee_ids: [DEVELOPER.id] }, GUEST);
    await open(ns, { title: 'open' });
    const seen = async (as: typeof OWNER | null) =>
      titles(issues.parse((await h.call('GET', `/projects/${ns.id}/issues`, { ns, as })).body));
    expect(await seen(REPORTER)).toEqual(['open', 'secret']);
    expect(await seen(GUEST)).toEqual(['open', 'secret']);
    expect(await seen(null)).toEqual(['open']);
    const statistics = await h.call('GET', `/projects/${ns.id}/issues_statistics`, { ns, as: null });
    expect(statistics.body).toEqual({ statistics: { counts: { all: 1, closed: 0, opened: 1 } } });
    const confidentialOnly = await h.call('GET', `/projects/${ns.id}/issues?confidential=true`, {
      ns,
      as: REPORTER,
    });
    expect(titles(issues.parse(confidentialOnly.body))).toEqual(['secret']);
  });

  it('When page is 0 or negative, then the first page; per_page=0 is 400', async () => {
    const ns = projectNamespace();
    await open(ns, { title: 'one' });
    await open(ns, { title: 'two' });
    const zero = await h.call('GET', `/projects/${ns.id}/issues?page=0&per_page=1`, { ns });
    expect(zero.status).toBe(200);
    expect(titles(issues.parse(zero.body))).toEqual(['two']);
    expect(zero.headers.get('x-page')).toBe('1');
    expect(zero.headers.get('x-next-page')).toBe('2');
    const negative = await h.call('GET', `/projects/${ns.id}/issues?page=-3`, { ns });
    expect(negative.status).toBe(200);
    const perPage = await h.call('GET', `/projects/${ns.id}/issues?per_page=0`, { ns });
    expect(perPage.status).toBe(400);
  });

  it('When a new issue is listed, then it has a relative_position and due_date fields', async () => {
    const ns = projectNamespace();
    const issue = await open(ns, { title: 'x', due_date: '2026-05-01' });
    expect(issue.due_date).toBe('2026-05-01');
    expect('relative_position' in issue).toBe(true);
    const bad = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'y', due_date: '2026-02-30' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'due_date is invalid' });
  });

  it('When list parameters are odd, then 200 or a 400 naming them, never a 5xx', async () => {
    const ns = projectNamespace();
    await open(ns, { title: 'one' });
    const odd = [
      'page=99999999999999999999',
      'search=(((%5B*',
      'search=ab',
      'labels[x]=y',
      'not=abc',
      'order_by[]=title',
      'assignee_id=abc',
      'in=zzz&search=one',
      'iids[]=abc',
      'milestone_id=foo',
      'my_reaction_emoji=Any',
      'due_date=overdue',
      'issue_type=incident',
      'scope=reviews_for_me',
      'not[iids]=1,x',
      'created_before=2026-13-45',
    ];
    for (const query of odd) {
      const res = await h.call('GET', `/projects/${ns.id}/issues?${query}`, { ns });
      expect([query, res.status < 500]).toEqual([query, true]);
    }
    for (const path of ['merge_requests', 'issues_statistics']) {
      for (const query of odd) {
        const res = await h.call('GET', `/projects/${ns.id}/${path}?${query}`, { ns });
        expect([path, query, res.status < 500]).toEqual([path, query, true]);
      }
    }
  });
});
