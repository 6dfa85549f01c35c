import { z } from 'zod';
import { DOMAIN_EVENT_TYPES, EVENT_TYPES, activityEventEntity } from '@gl/contracts';
import { testNamespace, testPrincipal, useHarness } from '@gl/testing';
import { memberEvent, projectEvent, targetEvent, userCreated } from './testing/envelopes';
import { startEventsHarness } from './testing/events.harness';
import { withReach } from './activity-log.store';

const ID = EVENT_TYPES.identity;
const D = DOMAIN_EVENT_TYPES.discussions;
const events = z.array(activityEventEntity);

const BOB = testPrincipal({ id: 302, username: 'bob', name: 'Bob' });
const bob = { id: BOB.id, username: 'bob', name: 'Bob' };

/** Project 12 is public. */
const PUBLIC = 12;

const titles = (body: unknown): (string | null)[] => events.parse(body).map((e) => e.target_title);

describe('activity events API: many projects, long lists and retention', () => {
  const h = useHarness(startEventsHarness);

  beforeAll(async () => {
    const r = h.instance.recorder;
    await r.apply(userCreated(BOB.id, 'bob', 'Bob'));
    await r.apply(projectEvent(ID.projectCreated, PUBLIC, { visibility: 'public', actor: bob }));
  });

  describe('many projects and long lists', () => {
    const ERIN = testPrincipal({ id: 305, username: 'erin', name: 'Erin' });
    const erin = { id: ERIN.id, username: 'erin', name: 'Erin' };
    const FIRST = 2000;
    const MANY = 55; // more than scope=all merges one by one

    it('When the caller is a member of many projects, then scope=all still shows only their events', async () => {
      const r = h.instance.recorder;
      await r.apply(userCreated(ERIN.id, 'erin', 'Erin'));
      for (let id = FIRST; id < FIRST + MANY; id++) {
        await r.apply(projectEvent(ID.projectCreated, id, { actor: bob }));
        await r.apply(memberEvent(ID.memberAdded, 'project', id, ERIN.id, { accessLevel: 30 }));
      }
      const issue = (title: string, iid: number) => ({
        targetId: 5000 + iid,
        targetIid: iid,
        targetTitle: title,
      });
      await r.apply(targetEvent(D.issueOpened, FIRST, issue('e-first', 1), { actor: bob }));
      await r.apply(targetEvent(D.issueOpened, PUBLIC, issue('e-public', 2), { actor: erin }));
      await r.apply(targetEvent(D.issueOpened, FIRST + MANY - 1, issue('e-last', 3), { actor: erin }));
      const res = await h.call('/events?scope=all&target_type=issue', { as: ERIN });
      expect(titles(res.body)).toEqual(['e-last', 'e-first']);
      expect(res.headers.get('x-total')).toBe('2');
    });

    it('When more than 10,000 events match, then GitLab leaves out X-Total, X-Total-Pages and the last link', async () => {
      const PROJECT = 2100;
      const seeded = Array.from({ length: 10_001 }, (_, i) => ({
        _id: 9_000_000 + i,
        sourceEventId: `long-${i}`,
        projectId: PROJECT,
        groupId: null,
        authorId: BOB.id,
        authorUsername: null,
        authorName: null,
        action: 'created' as const,
        actionName: 'opened',
        targetId: i,
        targetIid: i,
        targetType: 'Issue',
        targetTitle: `long ${i}`,
        note: null,
        pushData: null,
        createdAt: new Date(Date.UTC(2026, 1, 1) + i * 1_000),
      }));
      await h.instance.models.activities.insertMany(seeded.map(withReach), { lean: true });
      const ns = testNamespace({ kind: 'project', id: PROJECT, visibility: 'public', accessLevel: 0 });
      const res = await h.call(`/projects/${PROJECT}/events?per_page=2&page=3`, { as: null, ns });
      expect(titles(res.body)).toEqual(['long 9996', 'long 9995']);
      expect(res.headers.get('x-total')).toBeNull();
      expect(res.headers.get('x-total-pages')).toBeNull();
      expect(res.headers.get('x-next-page')).toBe('4');
      expect(res.headers.get('x-prev-page')).toBe('2');
      expect(res.headers.get('link')).not.toContain('rel="last"');
      const exact = await h.call(`/projects/${PROJECT}/events?per_page=2&action=created&before=2026-02-01`, {
        as: null,
        ns,
      });
      expect(exact.body).toEqual([]);
      expect(exact.headers.get('x-total')).toBe('0');
    });
  });

  describe('retention', () => {
    it('When events are older than two years, then the retention job removes them and keeps the rest', async () => {
      const r = h.instance.recorder;
      const issueOpenedAt = (targetId: number, targetTitle: string, occurredAt: string) =>
        targetEvent(
          D.issueOpened,
          PUBLIC,
          { targetId, targetIid: targetId - 810, targetTitle },
          { actor: bob, occurredAt },
        );
      const old = issueOpenedAt(900, 'ancient', '2024-01-06T11:59:00.000Z');
      const young = issueOpenedAt(901, 'recent', '2024-01-06T12:01:00.000Z');
      await r.apply(old);
      await r.apply(young);
      expect(await h.instance.retention.runOnce(new Date('2026-01-06T12:00:00.000Z'))).toBe(1);
      const left = await h.instance.models.activities
        .find({ sourceEventId: { $in: [old.id, young.id] } })
        .lean();
      expect(left.map((a) => a.targetTitle)).toEqual(['recent']);
      await h.instance.models.activities.deleteMany({ sourceEventId: young.id });
    });

    it('When ingestion records are older than the event stream keeps events, then the retention job removes them and keeps the rest', async () => {
      const now = new Date();
      const ingested = h.instance.models.ingested;
      await ingested.insertMany([
        { _id: 'retention-old', activityId: 1, done: true, at: new Date(now.getTime() - 365 * 86_400_000) },
        { _id: 'retention-young', activityId: 2, done: true, at: now },
      ]);
      await h.instance.retention.runOnce(now);
      const left = await ingested.find({ _id: { $in: ['retention-old', 'retention-young'] } }).lean();
      expect(left.map((record) => record._id)).toEqual(['retention-young']);
    });
  });
});
