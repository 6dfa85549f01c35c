import { tagsCleanupRequestedData } from '@gl/contracts';
import { CLEANUP_RATE_LIMITED } from './registry.router';
import { startRegistryHarness, type SeededProject } from './testing/registry.harness';
import { DEVELOPER, MAINTAINER, useHarness } from '@gl/testing';

describe('DELETE /projects/:id/registry/repositories/:repository_id/tags (bulk)', () => {
  const h = useHarness(startRegistryHarness);
  let p: SeededProject;
  beforeAll(async () => {
    p = await h.seedProject('bulk-group/bulk-project');
  });

  async function freshRepository(name: string): Promise<string> {
    const id = await h.pushTag(`${p.fullPath}/${name}`, 'v1');
    return `/projects/${p.id}/registry/repositories/${id}/tags`;
  }

  async function jobsFor(path: string) {
    const repositoryId = Number(path.split('/')[5]);
    return (await h.pendingJobs())
      .filter((e) => e.type === 'cmd.registry.tags.cleanup' && e.data.repositoryId === repositoryId)
      .map((e) => tagsCleanupRequestedData.parse(e.data));
  }

  it('When neither name_regex nor name_regex_delete is given, then GitLab’s 400', async () => {
    const path = await freshRepository('none');
    expect((await h.call('DELETE', path, { ns: p.ns, as: MAINTAINER })).body).toEqual({
      error: 'name_regex, name_regex_delete are missing, at least one parameter must be provided',
    });
    expect(await jobsFor(path)).toEqual([]);
  });

  it.each(['name_regex_delete', 'name_regex', 'name_regex_keep'])(
    'When %s is not valid RE2, then 400 "<param> is an invalid regexp: <reason>"',
    async (param) => {
      const path = await freshRepository(`bad-${param}`);
      const query = new URLSearchParams({ name_regex_delete: '.*', [param]: '*v10.' });
      expect(
        (await h.call('DELETE', `${path}?${query.toString()}`, { ns: p.ns, as: MAINTAINER })).body,
      ).toEqual({
        error: `${param} is an invalid regexp: no argument for repetition operator: *`,
      });
    },
  );

  it('When lookarounds are used, then they are invalid as in RE2', async () => {
    const path = await freshRepository('look');
    const reply = await h.call('DELETE', path, {
      ns: p.ns,
      as: MAINTAINER,
      json: { name_regex_delete: 'a(?=b)' },
    });
    expect(reply.body).toEqual({
      error: 'name_regex_delete is an invalid regexp: invalid perl operator: (?=',
    });
  });

  it('When keep_n is not an integer, then 400 keep_n is invalid', async () => {
    const path = await freshRepository('keepn');
    const reply = await h.call('DELETE', path, {
      ns: p.ns,
      as: MAINTAINER,
      form: { name_regex_delete: '.*', keep_n: 'three' },
    });
    expect(reply.body).toEqual({ error: 'keep_n is invalid' });
  });

  // lib/api/project_container_repositories.rb declares keep_n an Integer and older_than a String and checks
  // nothing more, so these are GitLab's 202; what its cleanup makes of them is selection.spec.ts's.
  it.each([
    ['odd-age', { older_than: 'bogus' }, { olderThan: 'bogus' }],
    ['odd-minus', { older_than: '-1d' }, { olderThan: '-1d' }],
    ['odd-keep', { keep_n: '-1' }, { keepN: -1 }],
    ['odd-empty', { name_regex_delete: '' }, { nameRegexDelete: '' }],
  ])('When %s: %p is given, then 202 as GitLab and the job carries it', async (name, given, carried) => {
    const path = await freshRepository(name);
    const form = { name_regex_delete: '.*', ...given };
    const reply = await h.call('DELETE', path, { ns: p.ns, as: MAINTAINER, form });
    expect(reply).toMatchObject({ status: 202, body: 202 });
    expect(await jobsFor(path)).toEqual([expect.objectContaining(carried)]);
  });

  it('When a developer asks, then 403', async () => {
    const path = await freshRepository('dev');
    expect(
      (await h.call('DELETE', path, { ns: p.ns, as: DEVELOPER, form: { name_regex_delete: '.*' } })).body,
    ).toEqual({ message: '403 Forbidden' });
  });

  it('When the repository is unknown, then 404', async () => {
    const reply = await h.call(
      'DELETE',
      `/projects/${p.id}/registry/repositories/424242/tags?name_regex=.*`,
      {
        ns: p.ns,
        as: MAINTAINER,
      },
    );
    expect(reply.body).toEqual({ message: '404 Not found' });
  });

  it('When parameters come as form data, then 202 and the job carries them', async () => {
    const path = await freshRepository('form');
    const reply = await h.call('DELETE', path, {
      ns: p.ns,
      as: MAINTAINER,
      form: { name_regex_delete: 'v.*', name_regex_keep: 'v1', keep_n: '3', older_than: '1month' },
    });
    expect(reply).toMatchObject({ status: 202, body: 202 });
    expect(await jobsFor(path)).toEqual([
      expect.objectContaining({ nameRegexDelete: 'v.*', nameRegexKeep: 'v1', keepN: 3, olderThan: '1month' }),
    ]);
  });

  it('When parameters come as JSON, then 202 and the deprecated name_regex is used', async () => {
    const path = await freshRepository('json');
    const reply = await h.call('DELETE', path, {
      ns: p.ns,
      as: MAINTAINER,
      json: { name_regex: '.*', keep_n: 1 },
    });
    expect(reply.status).toBe(202);
    expect(await jobsFor(path)).toEqual([
      {
        repositoryId: expect.any(Number) as number,
        nameRegexDelete: '.*',
        nameRegexKeep: null,
        keepN: 1,
        olderThan: null,
      },
    ]);
  });

  it('When parameters come in the query and both regexes are given, then name_regex_delete wins', async () => {
    const path = await freshRepository('query');
    const reply = await h.call('DELETE', `${path}?name_regex_delete=dev-.*&name_regex=x&older_than=garbage`, {
      ns: p.ns,
      as: MAINTAINER,
    });
    expect(reply.status).toBe(202);
    expect(await jobsFor(path)).toEqual([
      expect.objectContaining({ nameRegexDelete: 'dev-.*', olderThan: 'garbage' }),
    ]);
  });

  it('When asked twice within the hour, then the second call is GitLab’s 400 and no second job', async () => {
    const path = await freshRepository('twice');
    expect(
      (await h.call('DELETE', `${path}?name_regex_delete=.*`, { ns: p.ns, as: MAINTAINER })).status,
    ).toBe(202);
    expect(
      (await h.call('DELETE', `${path}?name_regex_delete=.*`, { ns: p.ns, as: MAINTAINER })).body,
    ).toEqual({
      message: CLEANUP_RATE_LIMITED,
    });
    expect(await jobsFor(path)).toHaveLength(1);
  });

  it('When the hour has passed, then a new bulk delete is accepted', async () => {
    const path = await freshRepository('hour');
    expect(
      (await h.call('DELETE', `${path}?name_regex_delete=.*`, { ns: p.ns, as: MAINTAINER })).status,
    ).toBe(202);
    const repositoryId = Number(path.split('/')[5]);
    await h.models.repositories.updateOne(
      { _id: repositoryId },
      { $set: { cleanupLeaseUntil: new Date(Date.now() - 1000) } },
    );
    expect(
      (await h.call('DELETE', `${path}?name_regex_delete=.*`, { ns: p.ns, as: MAINTAINER })).status,
    ).toBe(202);
    expect(await jobsFor(path)).toHaveLength(2);
  });

  it('When the repository belongs to another project, then 404', async () => {
    const path = await freshRepository('foreign');
    const other = await h.seedProject('bulk-group/other');
    const foreign = path.replace(`/projects/${p.id}/`, `/projects/${other.id}/`);
    expect(
      (await h.call('DELETE', `${foreign}?name_regex=.*`, { ns: other.ns, as: MAINTAINER })).status,
    ).toBe(404);
  });
});
