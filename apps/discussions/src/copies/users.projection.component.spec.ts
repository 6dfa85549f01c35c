import { z } from 'zod';
import { DURABLES, EVENT_TYPES } from '@gl/contracts';
import { GHOST_USER, gravatarUrl } from '@gl/service-kit';
import { DEVELOPER, MAINTAINER, OWNER, gatewayEvent, useHarness, userEventFields } from '@gl/testing';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const IDENTITY = EVENT_TYPES.identity;
const summary = z.object({ id: z.number(), username: z.string(), avatar_url: z.string().nullable() });
const issue = z.object({ iid: z.number(), author: summary });
const note = z.object({ id: z.number(), body: z.string(), author: summary });

describe('discussions: the users copy and deleted users', () => {
  const h = useHarness(startDiscussionsHarness);
  const users = () => h.instance.subscriptions!.find((s) => s.durable === DURABLES.discussionsUsers)!;
  const ns = projectNamespace({ visibility: 'public' });
  const base = `/projects/${ns.id}/issues`;

  async function openIssue(as: typeof DEVELOPER, title: string) {
    const res = await h.call('POST', base, { ns, as, json: { title } });
    expect(res.status).toBe(201);
    return issue.parse(res.body).iid;
  }
  async function comment(as: typeof DEVELOPER, iid: number, body: string) {
    const res = await h.call('POST', `${base}/${iid}/notes`, { ns, as, json: { body } });
    expect(res.status).toBe(201);
  }
  const readIssue = (iid: number) => h.call('GET', `${base}/${iid}`, { ns, as: OWNER });
  const notesOf = async (iid: number) =>
    z.array(note).parse((await h.call('GET', `${base}/${iid}/notes`, { ns, as: OWNER })).body);
  const destroyed = (user: typeof DEVELOPER, hardDelete: boolean) =>
    gatewayEvent(IDENTITY.userDestroyed, { userId: user.id, username: user.username, hardDelete });

  it("When a participant is known from the users copy, then their avatar_url is the gateway's Gravatar URL", async () => {
    await users().handle(
      gatewayEvent(IDENTITY.userCreated, userEventFields({ id: 8101, username: 'mentioned' })),
    );
    const iid = await openIssue(OWNER, 'Mentions');
    await comment(OWNER, iid, 'cc @mentioned');
    const res = await h.call('GET', `${base}/${iid}/participants`, { ns, as: OWNER });
    expect(z.array(summary).parse(res.body)).toContainEqual(
      expect.objectContaining({ id: 8101, avatar_url: gravatarUrl('mentioned@x.test') }),
    );
  });

  it('When a user is deleted, then their issues and notes pass to the Ghost User; redelivery changes nothing', async () => {
    await users().handle(gatewayEvent(IDENTITY.userCreated, userEventFields({ id: DEVELOPER.id })));
    const own = await openIssue(DEVELOPER, 'By the developer');
    await comment(DEVELOPER, own, 'my note');
    const other = await openIssue(OWNER, 'By the owner');
    await comment(DEVELOPER, other, 'a reply');

    const event = destroyed(DEVELOPER, false);
    await users().handle(event);
    await users().handle(event);

    const ghost = { id: GHOST_USER.id, username: 'ghost', avatar_url: gravatarUrl('ghost@example.com') };
    expect(issue.parse((await readIssue(own)).body).author).toMatchObject(ghost);
    expect((await notesOf(own)).find((n) => n.body === 'my note')!.author).toMatchObject(ghost);
    expect((await notesOf(other)).find((n) => n.body === 'a reply')!.author).toMatchObject(ghost);
    expect(issue.parse((await readIssue(other)).body).author.id).toBe(OWNER.id);
    // author_id lists find them under the Ghost User.
    const byGhost = await h.call('GET', `${base}?author_id=${GHOST_USER.id}`, { ns, as: OWNER });
    expect(
      z
        .array(issue)
        .parse(byGhost.body)
        .map((i) => i.iid),
    ).toContain(own);
  });

  it('When a user is deleted with hard_delete, then their issues and notes are removed, others stay', async () => {
    const own = await openIssue(MAINTAINER, 'By the maintainer');
    const other = await openIssue(OWNER, 'Kept');
    await comment(MAINTAINER, other, 'to remove');
    await comment(OWNER, other, 'to keep');

    await users().handle(destroyed(MAINTAINER, true));
    await users().handle(destroyed(MAINTAINER, true));

    expect((await readIssue(own)).status).toBe(404);
    expect((await notesOf(other)).map((n) => n.body)).toEqual(['to keep']);
  });
});
