import { DOMAIN_EVENT_TYPES, EVENT_TYPES, type EventEnvelope } from '@gl/contracts';
import {
  MAINTAINER,
  OWNER,
  gatewayEvent,
  groupEventFields,
  projectEventFields,
  useHarness,
} from '@gl/testing';
import { HOOKED_PARENTS_KEY } from './hooked-parents';
import { createHooksModels, type HookDoc } from './hooks.models';
import { discussionsEvent, insertHook } from './delivery/delivery.test-helpers';
import { fakeDiscussions, testIssue } from './payloads/fake-discussions.test-helpers';
import { groupNamespace, projectNamespace, startHooksHarness } from './testing/hooks.harness';

const source = fakeDiscussions();
let nextId = 970_000 + Math.floor(Math.random() * 1000) * 100;

describe('A deleted project, group or hook on the delivery side', () => {
  const h = useHarness(() => startHooksHarness({}, source));
  const models = () => h.instance.delivery.models;
  const identity = (type: string, data: Record<string, unknown>) =>
    h.instance.subscriptions![0]!.handle(gatewayEvent(type, data));
  const consume = (event: EventEnvelope) => h.instance.delivery.subscription.handle(event, undefined);

  const addHook = async (parentKind: 'project' | 'group', parentId: number, ancestorGroupIds: number[]) => {
    const hook = await insertHook(createHooksModels(h.runtime.connection), {
      _id: nextId++,
      parentKind,
      parentId,
      ancestorGroupIds,
      rootGroupId: ancestorGroupIds[0] ?? (parentKind === 'group' ? parentId : null),
      url: 'https://hooks.example.com/',
      events: { issues_events: true },
      createdAt: new Date(Date.now() - 60_000),
    });
    // As the API's creation does: the delivery consumer's copy of the hooked parents is read again.
    await h.runtime.versions.bump([HOOKED_PARENTS_KEY]);
    return hook;
  };

  const issueOpened = (projectId: number, iid: number) => {
    source.issues.set(`${projectId}:${iid}`, testIssue(projectId, iid));
    return discussionsEvent(DOMAIN_EVENT_TYPES.discussions.issueOpened, projectId, {
      targetId: projectId * 1000 + iid,
      targetIid: iid,
      targetTitle: `Issue ${iid}`,
    });
  };

  /** A project under `groups` with its copy, one hook, a queued and a delivered delivery, a sample and a lease. */
  async function project(groups: number[]): Promise<{ id: number; hook: HookDoc }> {
    const id = nextId++;
    await consume({
      ...gatewayEvent(
        EVENT_TYPES.identity.projectCreated,
        projectEventFields(id, { ancestorGroupIds: groups }),
      ),
      projectId: id,
    });
    const hook = await addHook('project', id, groups);
    await consume(issueOpened(id, 1));
    await consume(issueOpened(id, 2));
    await models().deliveries.updateOne({ hookId: hook._id }, { $set: { status: 'delivered' } });
    await models().leases.create({ _id: hook._id, owner: 'x', until: new Date() });
    return { id, hook };
  }

  const state = async (p: { id: number; hook: HookDoc }) => ({
    hook: (await createHooksModels(h.runtime.connection).hooks.countDocuments({ _id: p.hook._id })) > 0,
    deliveries: await models().deliveries.countDocuments({ hookId: p.hook._id }),
    lease: (await models().leases.countDocuments({ _id: p.hook._id })) > 0,
    copy: await models().projects.findById(p.id).lean(),
    samples: await models().samples.countDocuments({ _id: `${p.id}:issue` }),
  });

  it('When a project is deleted, then its hooks, their deliveries and lease, its copy and samples go, others stay, and redelivery or late events bring nothing back', async () => {
    const group = nextId++;
    const gone = await project([group]);
    const kept = await project([group]);
    expect(await state(gone)).toMatchObject({ hook: true, deliveries: 2, lease: true, samples: 1 });

    const destroyed = gatewayEvent(EVENT_TYPES.identity.projectDestroyed, projectEventFields(gone.id));
    await h.instance.subscriptions![0]!.handle(destroyed);
    const after = await state(gone);
    expect(after).toMatchObject({ hook: false, deliveries: 0, lease: false, samples: 0 });
    expect(after.copy).toMatchObject({ _id: gone.id, destroyed: true });
    expect(after.copy).not.toHaveProperty('fullPath');
    expect(await state(kept)).toMatchObject({ hook: true, deliveries: 2, lease: true, samples: 1 });

    // Redelivered: nothing changes.
    await h.instance.subscriptions![0]!.handle(destroyed);
    expect(await state(gone)).toEqual(after);
    // A group hook above still reaches the project's late events, which the delivery consumer takes after
    // the deletion: its copy does not come back, and its events queue nothing and keep no sample.
    const groupHook = await addHook('group', group, []);
    await consume({
      ...gatewayEvent(
        EVENT_TYPES.identity.projectUpdated,
        projectEventFields(gone.id, { ancestorGroupIds: [group] }),
      ),
      projectId: gone.id,
    });
    await consume(issueOpened(gone.id, 3));
    expect(await state(gone)).toEqual(after);
    expect(await models().deliveries.countDocuments({ hookId: groupHook._id })).toBe(0);
    // The kept project's events still reach it.
    await consume(issueOpened(kept.id, 3));
    expect(await models().deliveries.countDocuments({ hookId: groupHook._id })).toBe(1);
  });

  it('When a group is deleted, then the hooks below it go with their deliveries, and the copies and samples of its projects', async () => {
    const root = nextId++;
    const sub = nextId++;
    const below = await project([root, sub]);
    const beside = await project([root]);
    const subHook = await addHook('group', sub, [root]);
    await consume(issueOpened(below.id, 3));
    expect(await models().deliveries.countDocuments({ hookId: subHook._id })).toBe(1);

    await identity(EVENT_TYPES.identity.groupDestroyed, groupEventFields(sub, { ancestorGroupIds: [root] }));

    const after = await state(below);
    expect(after).toMatchObject({ hook: false, deliveries: 0, lease: false, samples: 0 });
    expect(after.copy).toMatchObject({ destroyed: true });
    expect(await models().deliveries.countDocuments({ hookId: subHook._id })).toBe(0);
    expect(await state(beside)).toMatchObject({ hook: true, deliveries: 2, lease: true, samples: 1 });
    expect((await state(beside)).copy).not.toHaveProperty('destroyed');
  });

  it('When a project or group hook is deleted through the API, then its queued and logged deliveries and its lease go with it, other hooks keep theirs, and a second DELETE is 404 and changes nothing', async () => {
    const group = nextId++;
    const gone = await project([group]);
    const kept = await project([group]);
    const groupHook = await addHook('group', group, []);
    await consume(issueOpened(gone.id, 3));
    expect(await models().deliveries.countDocuments({ hookId: groupHook._id })).toBe(1);
    await models().leases.create({ _id: groupHook._id, owner: 'x', until: new Date() });

    const ns = projectNamespace({ id: gone.id, ancestorGroupIds: [group] });
    const path = `/projects/${gone.id}/hooks/${gone.hook._id}`;
    expect((await h.call('DELETE', path, { ns, as: MAINTAINER })).status).toBe(204);
    const after = await state(gone);
    expect(after).toMatchObject({ hook: false, deliveries: 0, lease: false });
    // The project stays: its copy and samples are the project's, not the hook's.
    expect(after.copy).toHaveProperty('fullPath');
    expect(after.copy).not.toHaveProperty('destroyed');
    expect(after.samples).toBe(1);
    expect(await state(kept)).toMatchObject({ hook: true, deliveries: 2, lease: true });
    expect(await models().deliveries.countDocuments({ hookId: groupHook._id })).toBe(1);

    expect((await h.call('DELETE', path, { ns, as: MAINTAINER })).status).toBe(404);
    expect(await state(gone)).toEqual(after);

    const groupNs = groupNamespace({ id: group });
    const groupPath = `/groups/${group}/hooks/${groupHook._id}`;
    expect((await h.call('DELETE', groupPath, { ns: groupNs, as: OWNER })).status).toBe(204);
    expect(await models().deliveries.countDocuments({ hookId: groupHook._id })).toBe(0);
    expect(await models().leases.countDocuments({ _id: groupHook._id })).toBe(0);
    expect(await state(kept)).toMatchObject({ hook: true, deliveries: 2, lease: true });
  });
});
