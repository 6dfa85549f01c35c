import { globalNotificationSettingEntity, notificationSettingEntity } from '@gl/contracts';
import mongoose from 'mongoose';
import { testEnv } from '@gl/testing';
import { api, gitlab, unique } from './e2e.helpers';

/**
 * Notification settings through the gateway, with @gitbeaker/rest NotificationSettings and with the raw
 * requests python-gitlab sends (JSON content type on every request, a stray `id` query parameter, booleans
 * as `True`/`False`). The stack runs the ultimate tier, so `new_epic` shows on global and group settings.
 */
describe('notification settings through the gateway', () => {
  const root = gitlab();
  let user: { id: number; email: string; token: string };
  let groupId: number;
  let groupPath: string;
  let projectId: number;
  let projectPath: string;

  beforeAll(async () => {
    const username = unique('notif');
    const created = await root.Users.create({
      username,
      name: `Notif ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(created.id, 'e2e', ['api']);
    user = { id: created.id, email: `${username}@example.com`, token: token.token };
    groupPath = unique('ngrp');
    const group = await root.Groups.create(groupPath, groupPath, { visibility: 'private' });
    groupId = group.id;
    const project = await root.Projects.create({ name: 'app', namespaceId: groupId });
    projectId = project.id;
    projectPath = `${groupPath}/app`;
    await root.GroupMembers.add(groupId, 30, { userId: user.id });
  });

  /** python-gitlab: JSON content type even without a body, and `?id=` repeated in the query. */
  function python(path: string, method: 'GET' | 'PUT', query: Record<string, string> = {}) {
    const search = new URLSearchParams(query).toString();
    return api(`${path}${search ? `?${search}` : ''}`, {
      method,
      token: user.token,
      headers: { 'content-type': 'application/json' },
    });
  }

  it('When the global setting is read and edited with gitbeaker, then level, e-mail and switches follow', async () => {
    const client = gitlab(user.token);
    const shown = globalNotificationSettingEntity.parse(await client.NotificationSettings.show());
    expect(shown).toEqual({ level: 'participating', notification_email: user.email });

    const edited = globalNotificationSettingEntity.parse(
      await client.NotificationSettings.edit({ level: 'custom', newNote: true, movedProject: false }),
    );
    expect(edited.level).toBe('custom');
    expect(edited.events).toMatchObject({
      new_note: true,
      moved_project: false,
      new_issue: null,
      new_epic: null,
    });
    expect(Object.keys(edited.events ?? {})).toHaveLength(17);

    const kept = globalNotificationSettingEntity.parse(
      await client.NotificationSettings.edit({ newIssue: true }),
    );
    expect(kept.events).toMatchObject({ new_note: true, new_issue: true, moved_project: false });
  });

  it('When the notification e-mail is a confirmed secondary address, then it is accepted; a foreign one is 400', async () => {
    const secondary = `${unique('alt')}@example.com`;
    await root.UserEmails.add(secondary, { userId: user.id, skipConfirmation: true });
    const client = gitlab(user.token);
    // The service learns the new address from the identity event; allow the bus a moment.
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      const reply = await api('/notification_settings', {
        method: 'PUT',
        token: user.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ notification_email: secondary }),
      });
      status = reply.status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    expect(await client.NotificationSettings.show()).toMatchObject({ notification_email: secondary });

    const foreign = await api('/notification_settings', {
      method: 'PUT',
      token: user.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ notification_email: 'nobody@elsewhere.example' }),
    });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toEqual({
      message: { notification_email: ['must be an email you have verified'] },
    });
  });

  it('When group and project settings are edited with gitbeaker, then each keeps its own level', async () => {
    const client = gitlab(user.token);
    expect(await client.NotificationSettings.show({ groupId })).toEqual({ level: 'global' });
    expect(await client.NotificationSettings.show({ projectId: projectPath })).toEqual({ level: 'global' });

    expect(await client.NotificationSettings.edit({ groupId: groupPath, level: 'watch' })).toEqual({
      level: 'watch',
    });
    const project = notificationSettingEntity.parse(
      await client.NotificationSettings.edit({
        projectId,
        level: 'custom',
        failedPipeline: false,
        newEpic: true,
      }),
    );
    expect(project.events).toMatchObject({
      failed_pipeline: false,
      fixed_pipeline: null,
      moved_project: true,
    });
    expect(project.events).not.toHaveProperty('new_epic');
    expect(await client.NotificationSettings.show({ groupId })).toEqual({ level: 'watch' });

    const group = notificationSettingEntity.parse(
      await client.NotificationSettings.edit({ groupId, level: 'custom', newEpic: true }),
    );
    expect(group.events).toMatchObject({ new_epic: true });
  });

  it('When python-gitlab sends True/False in the query with a stray id, then the path wins and booleans parse', async () => {
    const path = `/projects/${encodeURIComponent(projectPath)}/notification_settings`;
    const put = await python(path, 'PUT', {
      id: projectPath,
      level: 'custom',
      new_note: 'True',
      success_pipeline: 'False',
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('content-type')).toBe('application/json');
    const body = notificationSettingEntity.parse(await put.json());
    expect(body.events).toMatchObject({ new_note: true, success_pipeline: false });

    const get = await python(path, 'GET', { id: String(projectId) });
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual(body);

    const global = await python('/notification_settings', 'GET', { id: String(user.id) });
    expect(global.status).toBe(200);
    expect(globalNotificationSettingEntity.parse(await global.json()).level).toBe('custom');
  });

  it('When the level is invalid, then 400 with GitLab message', async () => {
    const reply = await python(`/groups/${groupId}/notification_settings`, 'PUT', { level: 'loud' });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toEqual({ message: "'loud' is not a valid level" });
  });

  it('When the caller cannot see the group or project, then 404', async () => {
    const outsiderName = unique('out');
    const outsider = await root.Users.create({
      username: outsiderName,
      name: outsiderName,
      email: `${outsiderName}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = (await root.Users.createPersonalAccessToken(outsider.id, 'e2e', ['api'])).token;
    const group = await api(`/groups/${groupId}/notification_settings`, { token });
    expect(group.status).toBe(404);
    expect(await group.json()).toEqual({ message: '404 Group Not Found' });
    const project = await api(`/projects/${projectId}/notification_settings`, { method: 'PUT', token });
    expect(project.status).toBe(404);
    expect(await project.json()).toEqual({ message: '404 Project Not Found' });
  });

  it('When the settings are read without a token, then 401', async () => {
    expect((await api('/notification_settings', { token: null })).status).toBe(401);
  });

  it('When a group with a project is deleted, then the settings for both are removed from the service', async () => {
    const path = unique('gone');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    const project = await root.Projects.create({ name: 'doomed', namespaceId: group.id });
    await root.GroupMembers.add(group.id, 30, { userId: user.id });
    const client = gitlab(user.token);
    await client.NotificationSettings.edit({ groupId: group.id, level: 'watch' });
    await client.NotificationSettings.edit({ projectId: project.id, level: 'disabled' });

    const connection = await mongoose
      .createConnection(testEnv('stackMongoUrl'), { dbName: 'e2e_notifications' })
      .asPromise();
    try {
      const settings = connection.collection('notification_settings');
      const left = () =>
        settings.countDocuments({
          userId: user.id,
          $or: [
            { sourceType: 'group', sourceId: group.id },
            { sourceType: 'project', sourceId: project.id },
          ],
        });
      expect(await left()).toBe(2);
      await root.Groups.remove(group.id);
      for (let attempt = 0; attempt < 50 && (await left()) > 0; attempt++)
        await new Promise((r) => setTimeout(r, 100));
      expect(await left()).toBe(0);
    } finally {
      await connection.close();
    }
  });
});
