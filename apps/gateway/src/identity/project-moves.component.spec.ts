import { EVENT_TYPES, projectEventData, publicGroupDetailsEntity } from '@gl/contracts';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord } from '../testing/identity.api';

describe('identity: project features, GET /projects/:id/groups, PUT /projects/:id/transfer', () => {
  const { api, published, make } = useGatewayHarness({ name: 'gateway-identity-project-moves' });

  describe('feature switches', () => {
    it('When a Maintainer turns features off and sets access levels, then they are stored, shown and published', async () => {
      const owner = await make.user();
      const project = await make.project(owner.token, { path: 'feat' });
      const res = await api('PUT', `/projects/${project.id}`, {
        token: owner.token,
        body: {
          issues_enabled: false,
          snippets_enabled: false,
          merge_requests_access_level: 'private',
          wiki_access_level: 'disabled',
        },
      });
      expect(res.status).toBe(200);
      expect(asRecord(res.body)).toMatchObject({
        issues_enabled: false,
        issues_access_level: 'disabled',
        snippets_enabled: false,
        snippets_access_level: 'disabled',
        merge_requests_enabled: true,
        merge_requests_access_level: 'private',
        wiki_enabled: false,
        jobs_enabled: true,
        builds_access_level: 'enabled',
      });
      const shown = asRecord((await api('GET', `/projects/${project.id}`, { token: owner.token })).body);
      expect(shown).toMatchObject({ issues_enabled: false, merge_requests_access_level: 'private' });
      // Entities::Project leaves out what belongs to a disabled feature.
      expect(shown).not.toHaveProperty('open_issues_count');
      expect(shown._links).not.toHaveProperty('issues');
      expect(shown._links).toHaveProperty('merge_requests');
      const events = (await published(EVENT_TYPES.identity.projectUpdated)).filter(
        (e) => e.data.projectId === project.id,
      );
      expect(projectEventData.parse(events.at(-1)!.data).features).toMatchObject({
        issues: 'disabled',
        snippets: 'disabled',
        merge_requests: 'private',
        repository: 'enabled',
      });
      const again = await api('PUT', `/projects/${project.id}`, {
        token: owner.token,
        body: { issues_access_level: 'enabled' },
      });
      expect(asRecord(again.body)).toMatchObject({ issues_enabled: true, snippets_enabled: false });
    });

    it('When a level is not one of GitLab values, then 400; a Developer gets 403', async () => {
      const owner = await make.user();
      const developer = await make.user();
      const project = await make.project(owner.token, { path: 'feat2' });
      await make.member('projects', project.id, developer.id, 30, owner.token);
      const invalid = await api('PUT', `/projects/${project.id}`, {
        token: owner.token,
        body: { issues_access_level: 'public' },
      });
      expect(invalid).toMatchObject({
        status: 400,
        body: { error: 'issues_access_level does not have a valid value' },
      });
      expect(
        (
          await api('PUT', `/projects/${project.id}`, {
            token: developer.token,
            body: { issues_enabled: false },
          })
        ).status,
      ).toBe(403);
    });

    it('When a project is created with features off, then they start off', async () => {
      const owner = await make.user();
      const res = await api('POST', '/projects', {
        token: owner.token,
        body: { path: 'born-off', issues_enabled: false, wiki_access_level: 'private' },
      });
      expect(asRecord(res.body)).toMatchObject({ issues_enabled: false, wiki_access_level: 'private' });
    });
  });

  describe('GET /projects/:id/groups', () => {
    it('When listing, then the visible ancestor groups newest first, with search and skip_groups; a personal project has none', async () => {
      const owner = await make.user();
      const outsider = await make.user();
      const top = await make.group(owner.token, { visibility: 'public' });
      const mid = await make.group(owner.token, { parent_id: top.id, visibility: 'private' });
      const project = await make.project(owner.token, {
        namespace_id: mid.id,
        path: 'deep',
        visibility: 'private',
      });

      const res = await api('GET', `/projects/${project.id}/groups`, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe('2');
      const rows = asList(res.body).map((g) => publicGroupDetailsEntity.parse(g));
      expect(rows.map((g) => g.id)).toEqual([mid.id, top.id]);
      expect(rows[0]).toMatchObject({ full_path: mid.full_path, avatar_url: null });
      const skipped = await api('GET', `/projects/${project.id}/groups?skip_groups[]=${mid.id}`, {
        token: owner.token,
      });
      expect(asList(skipped.body).map((g) => g.id)).toEqual([top.id]);
      const searched = await api('GET', `/projects/${project.id}/groups?search=${mid.path}`, {
        token: owner.token,
      });
      expect(asList(searched.body).map((g) => g.id)).toEqual([mid.id]);
      expect((await api('GET', `/projects/${project.id}/groups`, { token: outsider.token })).status).toBe(
        404,
      );
      const personal = await make.project(owner.token, { path: 'solo' });
      expect(
        asList((await api('GET', `/projects/${personal.id}/groups`, { token: owner.token })).body),
      ).toEqual([]);
    });
  });

  describe('PUT /projects/:id/transfer', () => {
    it('When the Owner moves a project into a group they maintain, then 200, its path and ancestry follow and visibility is capped', async () => {
      const owner = await make.user();
      const project = await make.project(owner.token, { path: 'mover', visibility: 'public' });
      const group = await make.group(owner.token, { visibility: 'private' });

      const res = await api('PUT', `/projects/${project.id}/transfer`, {
        token: owner.token,
        body: { namespace: group.full_path },
      });
      expect(res.status).toBe(200);
      expect(asRecord(res.body)).toMatchObject({
        id: project.id,
        path_with_namespace: `${group.full_path}/mover`,
        visibility: 'private',
        namespace: expect.objectContaining({ id: group.id, kind: 'group' }) as unknown,
      });
      const event = (await published(EVENT_TYPES.identity.projectUpdated))
        .filter((e) => e.data.projectId === project.id)
        .at(-1)!;
      expect(projectEventData.parse(event.data)).toMatchObject({
        namespaceId: group.id,
        ancestorGroupIds: [group.id],
      });
      expect(typeof event.data.revision).toBe('number');
      expect(
        (
          await api('GET', `/projects/${encodeURIComponent(`${group.full_path}/mover`)}`, {
            token: owner.token,
          })
        ).status,
      ).toBe(200);

      const back = await api('PUT', `/projects/${project.id}/transfer`, {
        token: owner.token,
        body: { namespace: owner.username },
      });
      expect(asRecord(back.body).path_with_namespace).toBe(`${owner.username}/mover`);
    });

    it("When the move is refused, then GitLab's answers: 400 messages, 403 for non-owners, 404 for unseen namespaces", async () => {
      const owner = await make.user();
      const maintainer = await make.user();
      const project = await make.project(owner.token, { path: 'stay' });
      await make.member('projects', project.id, maintainer.id, 40, owner.token);
      const failed = (message: string) => ({
        status: 400,
        body: { message: `Failed to transfer project {:new_namespace=>["${message}"]}` },
      });
      expect(
        await api('PUT', `/projects/${project.id}/transfer`, {
          token: owner.token,
          body: { namespace: owner.username },
        }),
      ).toMatchObject(failed('Project is already in this namespace.'));
      const other = await make.user();
      const theirs = await make.group(other.token, { visibility: 'public' });
      await make.member('groups', theirs.id, owner.id, 30, other.token);
      expect(
        await api('PUT', `/projects/${project.id}/transfer`, {
          token: owner.token,
          body: { namespace: theirs.id },
        }),
      ).toMatchObject(failed("You don't have permission to transfer projects into that namespace."));
      const mine = await make.group(owner.token);
      await make.project(owner.token, { namespace_id: mine.id, path: 'stay' });
      expect(
        await api('PUT', `/projects/${project.id}/transfer`, {
          token: owner.token,
          body: { namespace: mine.id },
        }),
      ).toMatchObject(failed('Project with same name or path in target namespace already exists'));
      expect(
        (
          await api('PUT', `/projects/${project.id}/transfer`, {
            token: maintainer.token,
            body: { namespace: mine.id },
          })
        ).status,
      ).toBe(403);
      const hidden = await make.group(other.token, { visibility: 'private' });
      expect(
        await api('PUT', `/projects/${project.id}/transfer`, {
          token: owner.token,
          body: { namespace: hidden.id },
        }),
      ).toMatchObject({
        status: 404,
        body: { message: '404 Namespace Not Found' },
      });
      expect(
        await api('PUT', `/projects/${project.id}/transfer`, { token: owner.token, body: {} }),
      ).toMatchObject({
        status: 400,
        body: { error: 'namespace is missing' },
      });
    });
  });
});
