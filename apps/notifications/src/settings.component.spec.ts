import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_LEVELS,
  globalNotificationSettingEntity,
  notificationSettingEntity,
  type NamespaceContext,
} from '@gl/contracts';
import { group, project, startNotificationsHarness, userEvent } from './testing/notifications.harness';
import { useHarness } from '@gl/testing';

const FREE_EVENTS = NOTIFICATION_EVENTS.filter((e) => e !== 'new_epic');
/** What a custom setting shows before any switch is set: null, except moved_project (column default true). */
const unsetEvents = (events: readonly string[]): Record<string, boolean | null> =>
  Object.fromEntries(events.map((e) => [e, e === 'moved_project' ? true : null]));

describe('notification settings', () => {
  const h = useHarness(startNotificationsHarness);
  let nextUser = 100;
  /** Each test gets its own user, so settings never leak between tests. */
  const newUser = () => nextUser++;

  describe('global', () => {
    it('When never set, then the level is participating and the e-mail is the primary one', async () => {
      const as = newUser();
      const reply = await h.call('GET', '/notification_settings', { as });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json');
      expect(globalNotificationSettingEntity.strict().parse(reply.body)).toEqual({
        level: 'participating',
        notification_email: `user${as}@example.com`,
      });
    });

    it.each(NOTIFICATION_LEVELS.filter((l) => l !== 'custom'))(
      'When the level is set to %s, then it is shown and kept, without events',
      async (level) => {
        const as = newUser();
        const put = await h.call('PUT', '/notification_settings', { as, body: { level } });
        expect(put.status).toBe(200);
        expect(put.body).toEqual({ level, notification_email: `user${as}@example.com` });
        expect((await h.call('GET', '/notification_settings', { as })).body).toEqual(put.body);
      },
    );

    it('When the level is custom, then all seventeen switches appear, unset ones as GitLab shows them', async () => {
      const as = newUser();
      const reply = await h.call('PUT', '/notification_settings', { as, body: { level: 'custom' } });
      expect(reply.status).toBe(200);
      expect(globalNotificationSettingEntity.parse(reply.body)).toEqual({
        level: 'custom',
        events: unsetEvents(NOTIFICATION_EVENTS),
        notification_email: `user${as}@example.com`,
      });
      expect(Object.keys((reply.body as { events: object }).events)).toEqual([...NOTIFICATION_EVENTS]);
    });

    it('When the level is invalid, then 400 with the enum message and nothing changes', async () => {
      const as = newUser();
      const reply = await h.call('PUT', '/notification_settings', {
        as,
        body: { level: 'loud', new_note: true },
      });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: "'loud' is not a valid level" });
      await h.call('PUT', '/notification_settings', { as, body: { level: 'custom' } });
      const after = await h.call('GET', '/notification_settings', { as });
      expect((after.body as { events: Record<string, unknown> }).events.new_note).toBeNull();
    });

    it('When the level is a number, then it is a string to Grape and an invalid level', async () => {
      const reply = await h.call('PUT', '/notification_settings', { as: newUser(), body: { level: 2 } });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: "'2' is not a valid level" });
    });

    it("When the level is blank, then 400 level can't be blank", async () => {
      const reply = await h.call('PUT', '/notification_settings', { as: newUser(), body: { level: '' } });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: { level: ["can't be blank"] } });
    });

    it('When a switch is not a boolean, then 400 as Grape', async () => {
      const reply = await h.call('PUT', '/notification_settings', {
        as: newUser(),
        body: { new_note: 'maybe' },
      });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: 'new_note is invalid' });
    });

    it('When python-style True/False form fields and a stray id arrive, then they are understood', async () => {
      const as = newUser();
      const reply = await h.call('PUT', `/notification_settings?id=${as}`, {
        as,
        body: 'level=custom&new_note=True&new_issue=False&moved_project=False',
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        level: 'custom',
        events: { new_note: true, new_issue: false, moved_project: false, close_issue: null },
      });
    });

    it('When the notification e-mail is a secondary address of the user, then it is used', async () => {
      const as = newUser();
      await h.deliver(
        userEvent('gl.identity.user.updated', as, `user${as}@example.com`, [`alt${as}@example.com`]),
      );
      const reply = await h.call('PUT', '/notification_settings', {
        as,
        body: { notification_email: `alt${as}@example.com` },
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ level: 'participating', notification_email: `alt${as}@example.com` });
      expect((await h.call('GET', '/notification_settings', { as })).body).toEqual(reply.body);
    });

    it('When the notification e-mail is the primary address, then it is accepted', async () => {
      const as = newUser();
      const reply = await h.call('PUT', '/notification_settings', {
        as,
        body: { notification_email: `user${as}@example.com` },
      });
      expect(reply.status).toBe(200);
    });

    it('When the notification e-mail is empty, then it falls back to the primary address', async () => {
      const as = newUser();
      await h.deliver(
        userEvent('gl.identity.user.created', as, `user${as}@example.com`, [`alt${as}@example.com`]),
      );
      await h.call('PUT', '/notification_settings', {
        as,
        body: { notification_email: `alt${as}@example.com` },
      });
      const reply = await h.call('PUT', '/notification_settings', { as, body: { notification_email: '' } });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ notification_email: `user${as}@example.com` });
    });

    it("When the notification e-mail is not one of the user's, then 400 and the level still applies as in GitLab", async () => {
      const as = newUser();
      const reply = await h.call('PUT', '/notification_settings', {
        as,
        body: { notification_email: 'someone@else.example', level: 'watch' },
      });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: { notification_email: ['must be an email you have verified'] } });
      expect((await h.call('GET', '/notification_settings', { as })).body).toEqual({
        level: 'watch',
        notification_email: `user${as}@example.com`,
      });
    });

    it('When the notification e-mail is not an address at all, then 400 names both problems', async () => {
      const reply = await h.call('PUT', '/notification_settings', {
        as: newUser(),
        body: { notification_email: 'not-an-email' },
      });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        message: { notification_email: ['is invalid', 'must be an email you have verified'] },
      });
    });

    it('When the chosen e-mail is later removed from the user, then the primary is shown', async () => {
      const as = newUser();
      await h.deliver(
        userEvent('gl.identity.user.updated', as, `user${as}@example.com`, [`alt${as}@example.com`]),
      );
      await h.call('PUT', '/notification_settings', {
        as,
        body: { notification_email: `alt${as}@example.com` },
      });
      await h.deliver(userEvent('gl.identity.user.updated', as, `user${as}@example.com`, []));
      expect((await h.call('GET', '/notification_settings', { as })).body).toMatchObject({
        notification_email: `user${as}@example.com`,
      });
      // As in GitLab the choice is unset, so adding the address again does not bring it back.
      await h.deliver(
        userEvent('gl.identity.user.updated', as, `user${as}@example.com`, [`alt${as}@example.com`]),
      );
      expect((await h.call('GET', '/notification_settings', { as })).body).toMatchObject({
        notification_email: `user${as}@example.com`,
      });
    });

    it('When the tier is free, then new_epic is absent and ignored', async () => {
      const as = newUser();
      const reply = await h.call('PUT', '/notification_settings', {
        as,
        tier: 'free',
        body: { level: 'custom', new_epic: true },
      });
      expect(reply.status).toBe(200);
      expect((reply.body as { events: object }).events).toEqual(unsetEvents(FREE_EVENTS));
      const ultimate = await h.call('GET', '/notification_settings', { as });
      expect((ultimate.body as { events: Record<string, unknown> }).events.new_epic).toBeNull();
    });

    it('When there is no signed-in user, then 401', async () => {
      const reply = await h.call('GET', '/notification_settings', { as: null });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ message: '401 Unauthorized' });
      expect(
        (await h.call('PUT', '/notification_settings', { as: null, body: { level: 'watch' } })).status,
      ).toBe(401);
    });
  });

  describe.each([
    ['group', group(500), 'Group', NOTIFICATION_EVENTS],
    ['project', project(600, [500]), 'Project', FREE_EVENTS],
  ] as const)('%s', (kind, ns: NamespaceContext, name, ultimateEvents) => {
    const path = `/${kind}s/${ns.id}/notification_settings`;

    it('When never set, then the level is global', async () => {
      const reply = await h.call('GET', path, { as: newUser(), ns });
      expect(reply.status).toBe(200);
      expect(notificationSettingEntity.strict().parse(reply.body)).toEqual({ level: 'global' });
    });

    it.each(NOTIFICATION_LEVELS.filter((l) => l !== 'custom'))(
      'When the level is set to %s, then only the level is shown',
      async (level) => {
        const as = newUser();
        const put = await h.call('PUT', path, { as, ns, body: { level } });
        expect(put.status).toBe(200);
        expect(put.body).toEqual({ level });
        expect((await h.call('GET', path, { as, ns })).body).toEqual({ level });
      },
    );

    it('When the level is custom, then the events object lists the switches of the source', async () => {
      const reply = await h.call('PUT', path, { as: newUser(), ns, body: { level: 'custom' } });
      expect(reply.status).toBe(200);
      expect(notificationSettingEntity.parse(reply.body)).toEqual({
        level: 'custom',
        events: unsetEvents(ultimateEvents),
      });
    });

    it('When every switch is set one at a time, then each keeps the others', async () => {
      const as = newUser();
      await h.call('PUT', path, { as, ns, body: { level: 'custom' } });
      const expected: Record<string, boolean | null> = unsetEvents(ultimateEvents);
      for (const [index, event] of ultimateEvents.entries()) {
        const value = index % 2 === 0;
        expected[event] = value;
        const reply = await h.call('PUT', path, { as, ns, body: { [event]: value } });
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({ level: 'custom', events: expected });
      }
      expect((await h.call('GET', path, { as, ns })).body).toEqual({ level: 'custom', events: expected });
    });

    it('When switches are set on a non-custom level, then they are kept but hidden until custom', async () => {
      const as = newUser();
      const put = await h.call('PUT', path, { as, ns, body: { level: 'watch', new_note: true } });
      expect(put.body).toEqual({ level: 'watch' });
      const custom = await h.call('PUT', path, { as, ns, body: { level: 'custom' } });
      expect(custom.body).toMatchObject({ events: { new_note: true } });
    });

    it('When the tier is free, then new_epic is absent and ignored', async () => {
      const as = newUser();
      const reply = await h.call('PUT', path, {
        as,
        ns,
        tier: 'free',
        body: { level: 'custom', new_epic: 'true' },
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ level: 'custom', events: unsetEvents(FREE_EVENTS) });
    });

    it('When the level is invalid, then 400 with the enum message', async () => {
      const reply = await h.call('PUT', path, { as: newUser(), ns, body: { level: 'Watch' } });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: "'Watch' is not a valid level" });
    });

    it("When the level is blank, then 400 level can't be blank", async () => {
      const reply = await h.call('PUT', path, { as: newUser(), ns, body: { level: ' ' } });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: { level: ["can't be blank"] } });
    });

    it('When a switch is not a boolean, then 400 as Grape', async () => {
      const reply = await h.call('PUT', path, { as: newUser(), ns, body: { success_pipeline: 'sure' } });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: 'success_pipeline is invalid' });
    });

    it('When python-style True/False and a stray id query arrive, then the path id wins', async () => {
      const as = newUser();
      const reply = await h.call('PUT', `${path}?id=999999`, {
        as,
        ns,
        body: 'level=custom&failed_pipeline=False&fixed_pipeline=True',
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ events: { failed_pipeline: false, fixed_pipeline: true } });
      expect((await h.call('GET', `${path}?id=999999`, { as, ns })).body).toEqual(reply.body);
    });

    it('When the gateway sent no matching namespace, then 404 as GitLab', async () => {
      const wrongKind = kind === 'group' ? project(600) : group(500);
      for (const context of [null, wrongKind]) {
        const reply = await h.call('GET', path, { as: newUser(), ns: context });
        expect(reply.status).toBe(404);
        expect(reply.body).toEqual({ message: `404 ${name} Not Found` });
        expect((await h.call('PUT', path, { ns: context, body: { level: 'watch' } })).status).toBe(404);
      }
    });

    it('When there is no signed-in user, then 401', async () => {
      expect((await h.call('GET', path, { as: null, ns })).status).toBe(401);
    });

    it("When one user sets a level, then another user's setting is untouched", async () => {
      const first = newUser();
      await h.call('PUT', path, { as: first, ns, body: { level: 'disabled' } });
      expect((await h.call('GET', path, { as: newUser(), ns })).body).toEqual({ level: 'global' });
      expect((await h.call('GET', path, { as: first, ns })).body).toEqual({ level: 'disabled' });
    });
  });

  describe('effective level', () => {
    it('When project and group say global, then the global setting applies; a group level overrides it', async () => {
      const as = newUser();
      const ns = project(700, [701, 702]);
      await h.call('PUT', '/notification_settings', { as, body: { level: 'mention' } });
      await h.call('PUT', '/projects/700/notification_settings', { as, ns, body: { level: 'global' } });
      expect(await h.settings.effectiveLevel(as, 700, [701, 702])).toEqual({
        level: 'mention',
        source: { kind: 'global' },
      });
      await h.call('PUT', '/groups/701/notification_settings', {
        as,
        ns: group(701),
        body: { level: 'watch' },
      });
      expect((await h.settings.effectiveLevel(as, 700, [701, 702])).source).toEqual({
        kind: 'group',
        id: 701,
      });
      await h.call('PUT', '/groups/702/notification_settings', {
        as,
        ns: group(702, [701]),
        body: { level: 'disabled' },
      });
      expect((await h.settings.effectiveLevel(as, 700, [701, 702])).level).toBe('disabled');
      await h.call('PUT', '/projects/700/notification_settings', {
        as,
        ns,
        body: { level: 'participating' },
      });
      expect(await h.settings.effectiveLevel(as, 700, [701, 702])).toEqual({
        level: 'participating',
        source: { kind: 'project', id: 700 },
      });
    });
  });
});
