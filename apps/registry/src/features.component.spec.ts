import { EVENT_TYPES, type FeatureAccessLevel } from '@gl/contracts';
import { projectEventFields, testPrincipal, useHarness } from '@gl/testing';
import { startRegistryHarness } from './testing/registry.harness';

const VISITOR = testPrincipal({ id: 811, username: 'visitor811' });

/** The container registry feature switch (container_registry_enabled / _access_level) as GitLab honours it. */
describe('registry: a project whose container registry is disabled or private', () => {
  const h = useHarness(startRegistryHarness);

  async function seeded(name: string) {
    const group = await h.seedGroup(`feat-${name}`, { visibility: 'public' });
    const project = await h.seedProject(`feat-${name}/app`, {
      visibility: 'public',
      ancestorGroupIds: [group.id],
    });
    const repositoryId = await h.pushTag(project.fullPath, 'latest');
    const setRegistry = (level: FeatureAccessLevel) =>
      h.identity(EVENT_TYPES.identity.projectUpdated, {
        ...projectEventFields(project.id, {
          fullPath: project.fullPath,
          visibility: 'public',
          ancestorGroupIds: [group.id],
        }),
        features: { issues: 'enabled', container_registry: level },
      });
    return { group, project, repositoryId, setRegistry };
  }

  it('When the registry is disabled, then 403 on the project list and the repository; the group list leaves it out', async () => {
    const { group, project, repositoryId, setRegistry } = await seeded('off');
    const list = `/projects/${project.id}/registry/repositories`;
    expect((await h.call('GET', list, { ns: project.ns, as: VISITOR })).status).toBe(200);
    await setRegistry('disabled');
    expect(await h.call('GET', list, { ns: project.ns, as: VISITOR })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    // Owners too: a disabled feature is disabled for everyone.
    const asOwner = { ns: project.ns, level: 50 };
    expect((await h.call('GET', `${list}/${repositoryId}/tags`, asOwner)).status).toBe(403);
    expect((await h.call('GET', `/registry/repositories/${repositoryId}`, { as: VISITOR })).status).toBe(403);
    const groupList = await h.call('GET', `/groups/${group.id}/registry/repositories`, {
      ns: group,
      as: VISITOR,
    });
    expect(groupList).toMatchObject({ status: 200, body: [] });
    // Enabled again: readable again (a redelivered older event would not undo it: projectIdentity's guard).
    await setRegistry('enabled');
    expect((await h.call('GET', list, { ns: project.ns, as: VISITOR })).status).toBe(200);
  });

  it('When the registry is private, then Reporters read it and other readers of the public project get 403', async () => {
    const { project, setRegistry } = await seeded('members');
    await setRegistry('private');
    const list = `/projects/${project.id}/registry/repositories`;
    expect((await h.call('GET', list, { ns: project.ns, as: VISITOR })).status).toBe(403);
    expect((await h.call('GET', list, { ns: project.ns, as: VISITOR, level: 10 })).status).toBe(403);
    expect((await h.call('GET', list, { ns: project.ns, as: VISITOR, level: 20 })).status).toBe(200);
  });
});
