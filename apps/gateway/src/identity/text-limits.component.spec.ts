import { useGatewayHarness, ROOT_TOKEN } from '../testing/gateway.harness';
import { asRecord, unique } from '../testing/identity.api';

const tooLong = (max: number): string => `is too long (maximum is ${max} characters)`;

/** GitLab's model limits on the identity catalogue's text fields (libs/contracts limits.ts). */
describe('identity text limits', () => {
  const { api, make } = useGatewayHarness({ name: 'identity-text-limits' });

  it('When a group name or description is over 255 characters, then 400 naming both and no group', async () => {
    const path = unique('lim');
    const res = await api('POST', '/groups', {
      body: { name: 'n'.repeat(256), path, description: 'd'.repeat(256) },
    });
    expect(res.status).toBe(400);
    // GitLab's groups API: render_api_error!("Failed to save group #{group.errors.messages}", 400).
    expect(res.body).toEqual({
      message: `Failed to save group {:name=>["${tooLong(255)}"], :description=>["${tooLong(255)}"]}`,
    });
    expect((await api('GET', `/groups/${path}`)).status).toBe(404);
  });

  it('When a group is updated with a description over 255 characters, then 400 and it keeps its description', async () => {
    const group = await make.group(ROOT_TOKEN);
    const res = await api('PUT', `/groups/${group.id}`, { body: { description: 'd'.repeat(256) } });
    expect(res).toMatchObject({ status: 400, body: { message: { description: [tooLong(255)] } } });
    const ok = await api('PUT', `/groups/${group.id}`, { body: { description: '😁'.repeat(255) } });
    expect(ok.status).toBe(200);
    expect(asRecord((await api('GET', `/groups/${group.id}`)).body).description).toBe('😁'.repeat(255));
  });

  it('When a project description is over 2000 characters, then 400 on create and update, nothing stored', async () => {
    const path = unique('proj');
    const created = await api('POST', '/projects', { body: { path, description: 'd'.repeat(2001) } });
    expect(created).toMatchObject({ status: 400, body: { message: { description: [tooLong(2000)] } } });
    const project = await make.project(ROOT_TOKEN);
    const updated = await api('PUT', `/projects/${project.id}`, {
      body: { description: 'd'.repeat(2001) },
    });
    expect(updated).toMatchObject({ status: 400, body: { message: { description: [tooLong(2000)] } } });
    expect(asRecord((await api('GET', `/projects/${project.id}`)).body).description).toBe('');
  });

  it('When a user bio or password is over its limit, then 400 with the model messages and no user', async () => {
    const username = unique('limuser');
    const res = await api('POST', '/users', {
      body: {
        username,
        name: 'Limits',
        email: `${username}@example.com`,
        password: 'p'.repeat(129),
        bio: 'b'.repeat(256),
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { password: [tooLong(128)], bio: [tooLong(255)] } });
    const users = await api('GET', `/users?username=${username}`);
    expect(users.body).toEqual([]);
  });
});
