import { z } from 'zod';
import { activityEventEntity, type EventEnvelope } from '@gl/contracts';
import { testNamespace, useHarness } from '@gl/testing';
import {
  activityList as events,
  D,
  envelope,
  groupEvent,
  ID,
  memberEvent,
  noteCreated,
  person,
  projectEvent,
  targetEvent,
  userCreated,
} from './testing/envelopes';
import { startEventsHarness, type CallOptions } from './testing/events.harness';
import { createActivityLogStore } from './activity-log.store';
import { createAuthorRemovalJob, recordAuthorRemoval } from './author-removal.job';

type Entity = z.infer<typeof activityEventEntity>;

const destroyed = (userId: number, username: string): EventEnvelope =>
  envelope({ type: ID.userDestroyed, data: { userId, username, hardDelete: false } });

const issue = (id: number, title: string) => ({ targetId: id, targetIid: id, targetTitle: title });

/** A Developer of every project of this file. */
const FRED = person(7403, 'fred7403');

/**
 * GitLab deletes a deleted user's activity events (`events.author_id`: a loose foreign key with
 * `on_delete: async_delete`, config/gitlab_loose_foreign_keys.yml; ON DELETE CASCADE before 16.7): they leave
 * every list, while the other authors' events stay, with totals and pages as if they had never been.
 */
describe("a deleted user's activity events", () => {
  // The harness's orders go at the end of their run; the grace a deployment keeps is checked on its own below.
  const h = useHarness(startEventsHarness);

  /** Every event of a list, page by page, and the X-Total of its first page. */
  async function readAll(
    path: string,
    options: CallOptions = {},
  ): Promise<{ items: Entity[]; total: string | null }> {
    const items: Entity[] = [];
    let total: string | null = null;
    const sep = path.includes('?') ? '&' : '?';
    for (let page = 1; ; page++) {
      const res = await h.call(`${path}${sep}per_page=100&page=${page}`, options);
      expect(res.status).toBe(200);
      if (page === 1) total = res.headers.get('x-total');
      const found = events.parse(res.body);
      items.push(...found);
      if (!res.headers.get('x-next-page')) return { items, total };
    }
  }

  const ids = (items: Entity[]) => items.map((e) => e.id);

  describe('in project, group and personal lists', () => {
    const DORA = person(7401, 'dora7401');
    const ERIN = person(7402, 'erin7402');
    const [P1, P2, GROUP] = [7410, 7411, 7420];
    const ns = (id: number) => ({
      ns: testNamespace({ kind: 'project', id, visibility: 'public', accessLevel: 0 }),
      as: null,
    });
    const LISTS: [string, CallOptions][] = [
      [`/projects/${P1}/events`, ns(P1)],
      [`/projects/${P1}/events?target_type=issue`, ns(P1)],
      [`/projects/${P1}/events?sort=asc`, ns(P1)],
      [`/projects/${P2}/events`, ns(P2)],
      [`/users/${ERIN.actor.id}/events`, {}],
      ['/events?scope=all', { as: FRED.principal }],
      ['/events', { as: ERIN.principal }],
    ];
    const before = new Map<string, Entity[]>();

    beforeAll(async () => {
      const r = h.instance.recorder;
      for (const p of [DORA, ERIN, FRED]) await r.apply(userCreated(p.actor.id, p.actor.username));
      await r.apply(projectEvent(ID.projectCreated, P1, { visibility: 'public', actor: ERIN.actor }));
      await r.apply(projectEvent(ID.projectCreated, P2, { visibility: 'public', actor: ERIN.actor }));
      await r.apply(groupEvent(ID.groupCreated, GROUP, 'public'));
      for (const p of [P1, P2]) await r.apply(memberEvent(ID.memberAdded, 'project', p, FRED.actor.id));
      const dora = { actor: DORA.actor };
      const erin = { actor: ERIN.actor };
      await r.apply(targetEvent(D.issueOpened, P1, issue(1, 'd1'), dora));
      await r.apply(targetEvent(D.issueOpened, P1, issue(2, 'e1'), erin));
      await r.apply(targetEvent(D.issueOpened, P2, issue(3, 'd2'), dora));
      await r.apply(targetEvent(D.epicOpened, null, issue(4, 'd-epic'), { ...dora, groupId: GROUP }));
      const snippet = {
        ...issue(5, 'd-snippet'),
        audience: { visibility: 'public' as const, authorId: DORA.actor.id },
      };
      await r.apply(targetEvent(D.snippetCreated, null, snippet, dora));
      await r.apply(targetEvent(D.issueOpened, P2, issue(6, 'e2'), erin));
      await r.apply(targetEvent(D.epicOpened, null, issue(7, 'e-epic'), { ...erin, groupId: GROUP }));
      await r.apply(targetEvent(D.mergeRequestOpened, P1, issue(8, 'd3'), dora));
      // Erin's note on Dora's issue stays: it is Erin's event.
      await r.apply({
        ...noteCreated(P1, { noteId: 9, noteableIid: 1, targetTitle: 'd1' }),
        actor: ERIN.actor,
      });
      for (const [path, options] of LISTS) before.set(path, (await readAll(path, options)).items);
      const doras = (path: string) => before.get(path)!.filter((e) => e.author_id === DORA.actor.id).length;
      expect(LISTS.map(([path]) => doras(path))).toEqual([2, 1, 2, 1, 0, 3, 0]);
      const dorasOwn = await readAll(`/users/${DORA.actor.id}/events`);
      expect(dorasOwn.items.map((e) => e.target_title)).toEqual(['d3', 'd-snippet', 'd-epic', 'd2', 'd1']);
    });

    it('When Dora is deleted, then her events leave every list, the others stay, and X-Total counts what is left', async () => {
      await h.instance.recorder.apply(destroyed(DORA.actor.id, DORA.actor.username));
      expect(await h.instance.authorRemoval.runOnce()).toBe(0); // the wake-up's run already removed them
      for (const [path, options] of LISTS) {
        const expected = before.get(path)!.filter((e) => e.author_id !== DORA.actor.id);
        const after = await readAll(path, options);
        expect({ path, ids: ids(after.items) }).toEqual({ path, ids: ids(expected) });
        expect({ path, total: after.total }).toEqual({ path, total: String(expected.length) });
      }
      expect((await h.call(`/users/${DORA.actor.id}/events`)).status).toBe(404);
      const own = await h.call('/events', { as: DORA.principal });
      expect(events.parse(own.body)).toEqual([]);
      expect(own.headers.get('x-total')).toBe('0');
      expect(await h.instance.models.activities.countDocuments({ authorId: DORA.actor.id })).toBe(0);
      expect(await h.instance.models.authorRemovals.countDocuments({})).toBe(0);
    });

    it('When user.destroyed is delivered again, or a late event of hers comes, then nothing changes', async () => {
      const lists = await Promise.all(LISTS.map(([path, options]) => readAll(path, options)));
      await h.instance.recorder.apply(destroyed(DORA.actor.id, DORA.actor.username));
      await h.instance.recorder.applyBatch([
        targetEvent(D.issueOpened, P1, issue(10, 'd-late'), { actor: DORA.actor }),
        destroyed(DORA.actor.id, DORA.actor.username),
      ]);
      await h.instance.authorRemoval.runOnce();
      const again = await Promise.all(LISTS.map(([path, options]) => readAll(path, options)));
      expect(again).toEqual(lists);
      expect(await h.instance.models.activities.countDocuments({ authorId: DORA.actor.id })).toBe(0);
    });
  });

  describe('many events, and a removal cut short', () => {
    const DORA = person(7501, 'dora7501');
    const ERIN = person(7502, 'erin7502');
    const [P1, P2, GROUP] = [7510, 7511, 7520];
    const MANY = 5_000;
    const ns = (id: number) => ({
      ns: testNamespace({ kind: 'project', id, visibility: 'public', accessLevel: 0 }),
      as: null,
    });

    /** Dora's 5,000 events (issues in two projects, epics, personal snippets) with Erin's between them. */
    function seedEvents(): EventEnvelope[] {
      const list: EventEnvelope[] = [];
      let doras = 0;
      for (let i = 0; doras < MANY; i++) {
        if (i % 6 === 5) {
          list.push(targetEvent(D.issueOpened, P1, issue(100_000 + i, `e-${i}`), { actor: ERIN.actor }));
          continue;
        }
        doras += 1;
        const dora = { actor: DORA.actor };
        if (i % 50 === 0)
          list.push(targetEvent(D.epicOpened, null, issue(i, `d-${i}`), { ...dora, groupId: GROUP }));
        else if (i % 37 === 0) {
          const audience = { visibility: 'public' as const, authorId: DORA.actor.id };
          list.push(targetEvent(D.snippetCreated, null, { ...issue(i, `d-${i}`), audience }, dora));
        } else list.push(targetEvent(D.issueOpened, i % 2 ? P1 : P2, issue(i, `d-${i}`), dora));
      }
      return list;
    }

    // 5,000 events written and removed through the database: seconds alone, far longer on a busy machine.
    it('When a user with 5,000 events is deleted, then they are all removed, in bounded steps, and pages stay right', async () => {
      const r = h.instance.recorder;
      for (const p of [DORA, ERIN, FRED]) await r.apply(userCreated(p.actor.id, p.actor.username));
      await r.apply(projectEvent(ID.projectCreated, P1, { visibility: 'public', actor: ERIN.actor }));
      await r.apply(projectEvent(ID.projectCreated, P2, { visibility: 'public', actor: ERIN.actor }));
      await r.apply(groupEvent(ID.groupCreated, GROUP, 'public'));
      for (const p of [P1, P2]) await r.apply(memberEvent(ID.memberAdded, 'project', p, FRED.actor.id));
      const seed = seedEvents();
      for (let i = 0; i < seed.length; i += 500) await r.applyBatch(seed.slice(i, i + 500));
      expect(await h.instance.models.activities.countDocuments({ authorId: DORA.actor.id })).toBe(MANY);
      const erins = (await readAll(`/users/${ERIN.actor.id}/events`)).items;
      const othersIn = async (id: number) =>
        (await readAll(`/projects/${id}/events`, ns(id))).items.filter((e) => e.author_id !== DORA.actor.id);
      const [othersInP1, othersInP2] = [await othersIn(P1), await othersIn(P2)];

      // A removal cut short: 300 of her events in P1 already gone.
      const doraInP1 = await h.instance.models.activities
        .find({ authorId: DORA.actor.id, projectId: P1 })
        .sort({ _id: 1 })
        .limit(300)
        .lean();
      await createActivityLogStore(h.instance.models.activities).removeIds(doraInP1.map((a) => a._id));

      const began = Date.now();
      await r.apply(destroyed(DORA.actor.id, DORA.actor.username));
      await h.instance.authorRemoval.runOnce();
      const ms = Date.now() - began;
      console.info(`removed ${MANY} events of a deleted author in ${ms} ms`);

      expect(await h.instance.models.activities.countDocuments({ authorId: DORA.actor.id })).toBe(0);
      const p1 = await readAll(`/projects/${P1}/events`, ns(P1));
      expect(ids(p1.items)).toEqual(ids(othersInP1));
      expect(p1.total).toBe(String(othersInP1.length));
      // A page in the middle, both orders, where her events were.
      const page = await h.call(`/projects/${P1}/events?per_page=20&page=17`, ns(P1));
      expect(ids(events.parse(page.body))).toEqual(ids(othersInP1.slice(320, 340)));
      expect(page.headers.get('x-total-pages')).toBe(String(Math.ceil(othersInP1.length / 20)));
      const asc = await h.call(`/projects/${P1}/events?sort=asc&per_page=20&page=9`, ns(P1));
      expect(ids(events.parse(asc.body))).toEqual(ids([...othersInP1].reverse().slice(160, 180)));
      const p2 = await readAll(`/projects/${P2}/events`, ns(P2));
      expect(ids(p2.items)).toEqual(ids(othersInP2));
      expect(p2.total).toBe(String(othersInP2.length));
      const all = await h.call('/events?scope=all&per_page=100&page=3', { as: FRED.principal });
      expect(events.parse(all.body).every((e) => e.author_id !== DORA.actor.id)).toBe(true);
      expect(all.headers.get('x-total')).toBe(
        String(await h.instance.models.activities.countDocuments({ projectId: { $ne: null } })),
      );
      expect((await readAll(`/users/${ERIN.actor.id}/events`)).items).toEqual(erins);

      // Erin's next events still come first.
      await r.apply(targetEvent(D.issueOpened, P1, issue(999_999, 'e-after'), { actor: ERIN.actor }));
      const first = await h.call(`/projects/${P1}/events?per_page=2`, ns(P1));
      expect(events.parse(first.body).map((e) => e.target_title)).toEqual([
        'e-after',
        othersInP1[0]!.target_title,
      ]);
      expect(first.headers.get('x-total')).toBe(String(othersInP1.length + 1));
    }, 120_000);
  });

  it("When another replica records one of the author's events while the removal runs, then the order's second run removes it", async () => {
    const [GONE, PROJECT] = [7601, 7610];
    const job = createAuthorRemovalJob(h.instance.models, h.runtime.logger, 3_600_000, 60_000);
    await recordAuthorRemoval(h.instance.models.authorRemovals, GONE);
    await job.runOnce();
    // Checked before the deletion was applied, written after the first run read the log.
    const straggler = {
      _id: 7_600_001,
      sourceEventId: 'straggler',
      projectId: PROJECT,
      groupId: null,
      authorId: GONE,
      authorUsername: 'gone7601',
      authorName: 'Gone',
      action: 'created' as const,
      actionName: 'opened',
      targetId: 1,
      targetIid: 1,
      targetType: 'Issue',
      targetTitle: 'late',
      note: null,
      pushData: null,
      createdAt: new Date(),
    };
    await createActivityLogStore(h.instance.models.activities).record([straggler]);
    expect(await h.instance.models.authorRemovals.countDocuments({ _id: GONE })).toBe(1);
    expect(await job.runOnce()).toBe(1);
    const project = await h.call(`/projects/${PROJECT}/events`, {
      ns: testNamespace({ kind: 'project', id: PROJECT, visibility: 'public', accessLevel: 0 }),
      as: null,
    });
    expect(events.parse(project.body)).toEqual([]);
    expect(project.headers.get('x-total')).toBe('0');
    expect(await h.instance.models.activities.countDocuments({ authorId: GONE })).toBe(0);
    await job.stop();
  });
});
