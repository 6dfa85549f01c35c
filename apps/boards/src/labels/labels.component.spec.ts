import { labelEntity } from '@gl/contracts';
import { z } from 'zod';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';
import { DEVELOPER, GUEST, REPORTER, STRANGER, useHarness } from '@gl/testing';

const labels = z.array(labelEntity);

describe('Group labels API', () => {
  const h = useHarness(startBoardsHarness);

  it('When a reporter creates a label, then it answers 201 with the GitLab label shape', async () => {
    const ns = groupNamespace();
    const res = await h.call('POST', `/groups/${ns.id}/labels`, {
      ns,
      as: REPORTER,
      json: { name: 'bug', color: '#FF0000', description: 'Broken' },
    });
    expect(res.status).toBe(201);
    const label = labelEntity.parse(res.body);
    expect(label).toMatchObject({
      name: 'bug',
      color: '#FF0000',
      description: 'Broken',
      text_color: '#FFFFFF',
    });
  });

  it('When labels are listed, then they come sorted by name with pagination headers', async () => {
    const ns = groupNamespace();
    for (const name of ['c', 'a', 'b']) {
      await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name, color: '#eeeeee' } });
    }
    const res = await h.call('GET', `/groups/${ns.id}/labels`, { ns, as: GUEST, query: { per_page: '2' } });
    expect(res.status).toBe(200);
    expect(labels.parse(res.body).map((l) => l.name)).toEqual(['a', 'b']);
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-next-page')).toBe('2');
  });

  it('When a label name is taken, then creation answers 409 "Label already exists"', async () => {
    const ns = groupNamespace();
    await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'x', color: '#000000' } });
    const res = await h.call('POST', `/groups/${ns.id}/labels`, {
      ns,
      json: { name: 'x', color: '#000000' },
    });
    expect(res).toMatchObject({ status: 409, body: { message: 'Label already exists' } });
  });

  it('When the name or colour is missing or the colour invalid, then it answers 400', async () => {
    const ns = groupNamespace();
    const missing = await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: {} });
    expect(missing).toMatchObject({ status: 400, body: { error: 'name is missing, color is missing' } });
    const bad = await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'y', color: 'nope' } });
    expect(bad).toMatchObject({ status: 400, body: { message: { color: ['must be a valid color code'] } } });
  });

  it('When a guest writes or a stranger reads a private group, then it answers 403 and 404', async () => {
    const ns = groupNamespace();
    const write = await h.call('POST', `/groups/${ns.id}/labels`, {
      ns,
      as: GUEST,
      json: { name: 'g', color: '#000' },
    });
    expect(write).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const read = await h.call('GET', `/groups/${ns.id}/labels`, { ns, as: STRANGER });
    expect(read).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    const anonymous = await h.call('POST', `/groups/${ns.id}/labels`, {
      ns,
      as: null,
      json: { name: 'g', color: '#000' },
    });
    expect(anonymous.status).toBe(401);
  });

  it('When a public group is read anonymously, then its labels are listed', async () => {
    const ns = groupNamespace({ visibility: 'public' });
    await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'pub', color: '#000' } });
    const res = await h.call('GET', `/groups/${ns.id}/labels`, { ns, as: null });
    expect(res.status).toBe(200);
    expect(labels.parse(res.body)).toHaveLength(1);
  });

  it('When a label is updated by id or name, then the new values are returned', async () => {
    const ns = groupNamespace();
    const created = labelEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'old', color: '#000' } })).body,
    );
    const byId = await h.call('PUT', `/groups/${ns.id}/labels/${created.id}`, {
      ns,
      as: DEVELOPER,
      json: { new_name: 'new', color: '#FFFFFF' },
    });
    expect(byId.status).toBe(200);
    expect(labelEntity.parse(byId.body)).toMatchObject({
      id: created.id,
      name: 'new',
      text_color: '#1F1E24',
    });
    const byName = await h.call('PUT', `/groups/${ns.id}/labels/new`, { ns, json: { description: 'd' } });
    expect(labelEntity.parse(byName.body).description).toBe('d');
  });

  it('When a label is renamed to a name already in use, then 400 and it keeps its name (it was a 500)', async () => {
    const ns = groupNamespace();
    await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'taken', color: '#000000' } });
    await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'free', color: '#000000' } });
    const renamed = await h.call('PUT', `/groups/${ns.id}/labels/free`, { ns, json: { new_name: 'taken' } });
    expect(renamed).toMatchObject({ status: 400, body: { message: { title: ['has already been taken'] } } });
    const reread = await h.call('GET', `/groups/${ns.id}/labels/free`, { ns });
    expect(reread.status).toBe(200);
  });

  it("When a label title or description is over GitLab's limits, then 400 with the model's messages and nothing is stored", async () => {
    const ns = groupNamespace();
    const longTitle = await h.call('POST', `/groups/${ns.id}/labels`, {
      ns,
      json: { name: 'x'.repeat(256), color: 'red', description: 'd'.repeat(512 * 1024 + 1) },
    });
    expect(longTitle).toMatchObject({
      status: 400,
      body: {
        message: {
          color: ['must be a valid color code'],
          title: ['is too long (maximum is 255 characters)'],
          description: ['is too long (512 KiB). The maximum size is 512 KiB.'],
        },
      },
    });
    const atLimit = await h.call('POST', `/groups/${ns.id}/labels`, {
      ns,
      json: { name: 'y'.repeat(255), color: '#123456', description: 'd'.repeat(512 * 1024) },
    });
    expect(atLimit.status).toBe(201);
    const renamed = await h.call('PUT', `/groups/${ns.id}/labels/${labelEntity.parse(atLimit.body).id}`, {
      ns,
      json: { new_name: 'z'.repeat(256) },
    });
    expect(renamed).toMatchObject({
      status: 400,
      body: { message: { title: ['is too long (maximum is 255 characters)'] } },
    });
    const list = z.array(labelEntity).parse((await h.call('GET', `/groups/${ns.id}/labels`, { ns })).body);
    expect(list.map((l) => l.name)).toEqual(['y'.repeat(255)]);
  });

  it('When an update has no attribute or the label is unknown, then it answers 400 and 404', async () => {
    const ns = groupNamespace();
    await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'l', color: '#000' } });
    const none = await h.call('PUT', `/groups/${ns.id}/labels/l`, { ns, json: {} });
    expect(none).toMatchObject({
      status: 400,
      body: {
        error: 'new_name, color, description, priority are missing, at least one parameter must be provided',
      },
    });
    const unknown = await h.call('PUT', `/groups/${ns.id}/labels/999999`, { ns, json: { color: '#111' } });
    expect(unknown).toMatchObject({ status: 404, body: { message: '404 Label Not Found' } });
  });

  it('When a label is fetched by id or name, then it is returned; unknown → 404 "Label Not Found"', async () => {
    const ns = groupNamespace();
    const created = labelEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'one', color: '#000' } })).body,
    );
    const byId = await h.call('GET', `/groups/${ns.id}/labels/${created.id}`, { ns, as: GUEST });
    expect(labelEntity.parse(byId.body)).toEqual(created);
    const byName = await h.call('GET', `/groups/${ns.id}/labels/one`, { ns });
    expect(labelEntity.parse(byName.body).id).toBe(created.id);
    const unknown = await h.call('GET', `/groups/${ns.id}/labels/none`, { ns });
    expect(unknown).toMatchObject({ status: 404, body: { message: '404 Label Not Found' } });
  });

  it("When a subgroup lists labels, then its ancestors' labels are included unless told otherwise", async () => {
    const parent = groupNamespace();
    await h.call('POST', `/groups/${parent.id}/labels`, {
      ns: parent,
      json: { name: 'inherited', color: '#000' },
    });
    const ns = groupNamespace({ ancestorGroupIds: [parent.id] });
    await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'own', color: '#000' } });
    const all = await h.call('GET', `/groups/${ns.id}/labels`, { ns });
    expect(labels.parse(all.body).map((l) => l.name)).toEqual(['inherited', 'own']);
    const own = await h.call('GET', `/groups/${ns.id}/labels`, {
      ns,
      query: { include_ancestor_groups: 'false' },
    });
    expect(labels.parse(own.body).map((l) => l.name)).toEqual(['own']);
  });

  it('When a label is deleted, then it answers 204 and is gone', async () => {
    const ns = groupNamespace();
    const created = labelEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'gone', color: '#000' } })).body,
    );
    const res = await h.call('DELETE', `/groups/${ns.id}/labels/${created.id}`, { ns, as: REPORTER });
    expect(res.status).toBe(204);
    expect(labels.parse((await h.call('GET', `/groups/${ns.id}/labels`, { ns })).body)).toEqual([]);
    const again = await h.call('DELETE', `/groups/${ns.id}/labels/${created.id}`, { ns });
    expect(again.status).toBe(404);
  });

  describe('PUT /groups/:id/labels (deprecated form, python-gitlab GroupLabel#save)', () => {
    it('When the label is named in the body, then it is updated like PUT .../labels/:label_id', async () => {
      const ns = groupNamespace();
      const created = labelEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'old', color: '#000000' } }))
          .body,
      );
      const byName = await h.call('PUT', `/groups/${ns.id}/labels`, {
        ns,
        as: REPORTER,
        json: { name: 'old', new_name: 'renamed', color: '#00ff00' },
      });
      expect(byName.status).toBe(200);
      expect(labelEntity.parse(byName.body)).toMatchObject({
        id: created.id,
        name: 'renamed',
        color: '#00ff00',
      });
      const byId = await h.call('PUT', `/groups/${ns.id}/labels`, {
        ns,
        json: { label_id: created.id, description: 'by id' },
      });
      expect(labelEntity.parse(byId.body)).toMatchObject({ name: 'renamed', description: 'by id' });
    });

    it("When neither or both of label_id and name are given, then Grape's exactly_one_of 400; unknown 404; guest 403", async () => {
      const ns = groupNamespace();
      await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'l', color: '#000000' } });
      expect(
        await h.call('PUT', `/groups/${ns.id}/labels`, { ns, json: { color: '#111111' } }),
      ).toMatchObject({
        status: 400,
        body: { error: 'label_id, name are missing, exactly one parameter must be provided' },
      });
      expect(
        await h.call('PUT', `/groups/${ns.id}/labels`, {
          ns,
          json: { name: 'l', label_id: 1, color: '#111111' },
        }),
      ).toMatchObject({ status: 400, body: { error: 'label_id, name are mutually exclusive' } });
      expect(await h.call('PUT', `/groups/${ns.id}/labels`, { ns, json: { name: 'l' } })).toMatchObject({
        status: 400,
        body: {
          error:
            'new_name, color, description, priority are missing, at least one parameter must be provided',
        },
      });
      expect(
        await h.call('PUT', `/groups/${ns.id}/labels`, { ns, json: { name: 'nope', color: '#111111' } }),
      ).toMatchObject({ status: 404, body: { message: '404 Label Not Found' } });
      expect(
        (
          await h.call('PUT', `/groups/${ns.id}/labels`, {
            ns,
            as: GUEST,
            json: { name: 'l', color: '#111111' },
          })
        ).status,
      ).toBe(403);
    });
  });
});
