import { z } from 'zod';
import { DOMAIN_EVENT_TYPES, EVENT_TYPES, activityEventEntity } from '@gl/contracts';
import { gravatarUrl } from '@gl/service-kit';
import { testNamespace, useHarness } from '@gl/testing';
import { envelope, projectEvent, targetEvent, userCreated } from './testing/envelopes';
import { startEventsHarness } from './testing/events.harness';

const events = z.array(activityEventEntity);
const PROJECT = 7301;
const carol = { id: 7302, username: 'carol7302', name: 'Carol' };

describe('events: authors from the users copy', () => {
  const h = useHarness(startEventsHarness);

  beforeAll(async () => {
    const r = h.instance.recorder;
    await r.apply(userCreated(carol.id, carol.username, carol.name));
    await r.apply(projectEvent(EVENT_TYPES.identity.projectCreated, PROJECT, { visibility: 'public' }));
    await r.apply(
      targetEvent(
        DOMAIN_EVENT_TYPES.discussions.issueOpened,
        PROJECT,
        { targetId: 9001, targetIid: 1, targetTitle: 'by carol' },
        { actor: carol },
      ),
    );
  });

  const authorOfLatest = async () => {
    const ns = testNamespace({ kind: 'project', id: PROJECT, visibility: 'public', accessLevel: 0 });
    const res = await h.call(`/projects/${PROJECT}/events`, { as: null, ns });
    expect(res.status).toBe(200);
    const found = events.parse(res.body).find((e) => e.target_title === 'by carol');
    return found ? { author: found.author, author_username: found.author_username } : null;
  };

  it("When the author's copy has the address, then author.avatar_url is the gateway's Gravatar URL", async () => {
    // userEventFields gives `<username>@x.test`.
    expect((await authorOfLatest())?.author).toMatchObject({
      id: carol.id,
      avatar_url: gravatarUrl(`${carol.username}@x.test`),
    });
  });

  it('When the author is destroyed, then their events are removed (GitLab deletes them) and /users/:id/events is 404', async () => {
    const destroyed = envelope({
      type: EVENT_TYPES.identity.userDestroyed,
      data: { userId: carol.id, username: carol.username, hardDelete: false },
    });
    await h.instance.recorder.apply(destroyed);
    await h.instance.recorder.apply(destroyed);
    await h.instance.authorRemoval.runOnce();
    expect(await authorOfLatest()).toBeNull();
    expect((await h.call(`/users/${carol.id}/events`)).status).toBe(404);
    expect((await h.call(`/users/${carol.username}/events`)).status).toBe(404);
  });
});
