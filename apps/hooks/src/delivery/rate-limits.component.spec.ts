import { MAINTAINER, OWNER, useHarness } from '@gl/testing';
import { fakeDiscussions } from '../payloads/fake-discussions.test-helpers';
import { projectNamespace, startHooksHarness } from '../testing/hooks.harness';

/**
 * Gitlab::ApplicationRateLimiter's `web_hook_test` and `web_hook_event_resend` (5 a minute for one hook
 * parent and user), checked by lib/api/hooks/trigger_test.rb and resend_hook.rb once the hook is found.
 */
describe('Hook test and resend rate limits', () => {
  const h = useHarness(() => startHooksHarness({ GITLAB_EXTERNAL_URL: 'http://gl.test' }, fakeDiscussions()));
  const TOO_MANY = {
    message: { error: 'This endpoint has been requested too many times. Try again later.' },
  };

  async function hookOf(ns: ReturnType<typeof projectNamespace>): Promise<number> {
    const created = await h.call('POST', `/projects/${ns.id}/hooks`, {
      ns,
      as: MAINTAINER,
      json: { url: 'http://hooks.example.com/limited', push_events: false },
    });
    expect(created.status).toBe(201);
    return (created.body as { id: number }).id;
  }

  it('When a user tests hooks of one project a sixth time in a minute, then 429 with Retry-After; other users and projects go on', async () => {
    const ns = projectNamespace();
    const hookId = await hookOf(ns);
    const test = (as = MAINTAINER, project = ns, id = hookId) =>
      h.call('POST', `/projects/${project.id}/hooks/${id}/test/issues_events`, { ns: project, as });
    for (let i = 0; i < 5; i++) expect((await test()).status).toBe(422); // no issue yet, but counted
    // Not counted: a missing hook answers 404 before the limit is checked.
    expect((await test(MAINTAINER, ns, 999_999_999)).status).toBe(404);
    const limited = await test();
    expect(limited).toMatchObject({ status: 429, body: TOO_MANY });
    expect(limited.headers.get('retry-after')).toBe('60');

    expect((await test(OWNER)).status).toBe(422);
    const other = projectNamespace();
    expect((await test(MAINTAINER, other, await hookOf(other))).status).toBe(422);
  });

  it('When a user resends deliveries of one project a sixth time in a minute, then 429 before the log entry is looked up', async () => {
    const ns = projectNamespace();
    const hookId = await hookOf(ns);
    const resend = () =>
      h.call('POST', `/projects/${ns.id}/hooks/${hookId}/events/999999999/resend`, { ns, as: MAINTAINER });
    for (let i = 0; i < 5; i++) expect((await resend()).status).toBe(404);
    expect(await resend()).toMatchObject({ status: 429, body: TOO_MANY });
    // The test route counts apart.
    const tested = await h.call('POST', `/projects/${ns.id}/hooks/${hookId}/test/issues_events`, {
      ns,
      as: MAINTAINER,
    });
    expect(tested.status).toBe(422);
  });
});
