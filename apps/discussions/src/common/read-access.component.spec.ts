import type { NamespaceContext, Principal } from '@gl/contracts';
import {
  DOMAIN_EVENT_TYPES,
  commitEntity,
  discussionEntity,
  epicEntity,
  issueEntity,
  noteEntity,
  snippetEntity,
} from '@gl/contracts';
import { DEVELOPER, GUEST, OWNER, REPORTER, ROOT, STRANGER, testPrincipal, useHarness } from '@gl/testing';
import { z } from 'zod';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

/** A second Guest of every namespace: neither author nor assignee of anything below. */
const OTHER_GUEST = testPrincipal({ id: 8, username: 'guest2', name: 'Other guest' });

/**
 * Each caller as the gateway would sign them: `level` is their membership level on the namespace.
 * `author` is a Guest who wrote the thing (or, for snippets and epics, a Reporter who wrote it and lost
 * the membership since), `assignee` a Guest assigned to it.
 */
type Role = 'anonymous' | 'outsider' | 'guest' | 'reporter' | 'author' | 'assignee' | 'admin';
const CALLERS: Record<Role, { as: Principal | null; level: number }> = {
  anonymous: { as: null, level: 0 },
  outsider: { as: STRANGER, level: 0 },
  guest: { as: OTHER_GUEST, level: 10 },
  reporter: { as: REPORTER, level: 20 },
  author: { as: GUEST, level: 10 },
  assignee: { as: DEVELOPER, level: 10 },
  admin: { as: ROOT, level: 0 },
};
const ROLES = Object.keys(CALLERS) as Role[];

describe('Who reads what (one read rule for issues, snippets, epics and commits)', () => {
  const h = useHarness(startDiscussionsHarness);

  const as = (role: Role, ns: NamespaceContext) => ({ ns, ...CALLERS[role] });

  /** The roles for which `read` answers `status`. */
  async function rolesWith(
    status: number,
    read: (role: Role) => Promise<{ status: number }>,
  ): Promise<Role[]> {
    const out: Role[] = [];
    for (const role of ROLES) if ((await read(role)).status === status) out.push(role);
    return out;
  }

  describe('project snippets (ProjectSnippetPolicy, SnippetsFinder)', () => {
    async function snippetsIn(visibility: 'public' | 'internal') {
      const ns = projectNamespace({ visibility });
      const p = `/projects/${ns.id}/snippets`;
      const create = async (title: string, snippetVisibility: string, by: Principal = OWNER) =>
        snippetEntity.parse(
          (
            await h.call('POST', p, {
              ns,
              as: by,
              level: 20,
              json: { title, file_name: 's.txt', content: 'x', visibility: snippetVisibility },
            })
          ).body,
        );
      // The author wrote it as Reporter; as `author` they read it with Guest access, which GitLab also lets in.
      const secret = await create('private one', 'private', GUEST);
      const internal = await create('internal one', 'internal');
      const open = await create('public one', 'public');
      return { ns, p, secret, internal, open };
    }

    const titles = (body: unknown) =>
      z
        .array(snippetEntity)
        .parse(body)
        .map((s) => s.title);

    it('When each role lists the snippets of a public project, then private ones only for members, the author and admins', async () => {
      const { ns, p } = await snippetsIn('public');
      const seen: Record<string, string[]> = {};
      for (const role of ROLES) {
        const res = await h.call('GET', p, as(role, ns));
        seen[role] = titles(res.body);
        expect(res.headers.get('x-total')).toBe(String(seen[role].length));
      }
      const all = ['public one', 'internal one', 'private one'];
      expect(seen).toEqual({
        anonymous: ['public one'],
        outsider: ['public one', 'internal one'],
        guest: all,
        reporter: all,
        author: all,
        assignee: all,
        admin: all,
      });
    });

    it('When a private snippet is read, commented on or its threads listed, then 404 Snippet Not Found for non-members', async () => {
      const { ns, p, secret } = await snippetsIn('public');
      const one = `${p}/${secret.id}`;
      expect(await rolesWith(200, (role) => h.call('GET', one, as(role, ns)))).toEqual([
        'guest',
        'reporter',
        'author',
        'assignee',
        'admin',
      ]);
      const anonymous = await h.call('GET', one, as('anonymous', ns));
      expect(anonymous).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
      const outsider = await h.call('GET', `${one}/discussions`, as('outsider', ns));
      expect(outsider).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
      const comment = await h.call('POST', `${one}/notes`, { ...as('outsider', ns), json: { body: 'hi' } });
      expect(comment).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
    });

    it('When the author of a private snippet is no member any more, then they read it but do not find it in the list', async () => {
      const { ns, p, secret } = await snippetsIn('public');
      const former = { ns, as: GUEST, level: 0 };
      const one = await h.call('GET', `${p}/${secret.id}`, former);
      expect(snippetEntity.parse(one.body).title).toBe('private one');
      const list = await h.call('GET', p, former);
      expect(titles(list.body)).toEqual(['public one', 'internal one']);
    });

    it('When an internal snippet is read, then signed-in users read it, anonymous callers do not', async () => {
      const { ns, p, internal } = await snippetsIn('internal');
      expect(await rolesWith(200, (role) => h.call('GET', `${p}/${internal.id}`, as(role, ns)))).toEqual(
        ROLES.filter((r) => r !== 'anonymous'),
      );
    });
  });

  describe('confidential epics (EpicPolicy, EpicsFinder)', () => {
    async function epicsIn() {
      const ns = groupNamespace({ visibility: 'public' });
      const create = async (title: string, confidential: boolean) =>
        epicEntity.parse(
          (
            await h.call('POST', `/groups/${ns.id}/epics`, {
              ns,
              as: GUEST,
              level: 20,
              json: { title, confidential },
            })
          ).body,
        );
      return { ns, secret: await create('secret epic', true), open: await create('open epic', false) };
    }

    it('When each role lists, reads and comments on a confidential epic of a public group, then only Reporter and up', async () => {
      const { ns, secret } = await epicsIn();
      const listed: Record<string, string[]> = {};
      for (const role of ROLES) {
        const res = await h.call('GET', `/groups/${ns.id}/epics`, as(role, ns));
        listed[role] = z
          .array(epicEntity)
          .parse(res.body)
          .map((e) => e.title);
      }
      const readers = ['reporter', 'admin'];
      for (const role of ROLES) {
        expect([role, listed[role]]).toEqual([
          role,
          readers.includes(role) ? ['open epic', 'secret epic'] : ['open epic'],
        ]);
      }
      // GitLab has no author exception for epics: the author, now a Guest, reads it no more.
      expect(
        await rolesWith(200, (role) => h.call('GET', `/groups/${ns.id}/epics/${secret.iid}`, as(role, ns))),
      ).toEqual(readers);
      const forbidden = await h.call('GET', `/groups/${ns.id}/epics/${secret.iid}`, as('author', ns));
      expect(forbidden).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      const threads = await h.call('GET', `/groups/${ns.id}/epics/${secret.id}/discussions`, as('guest', ns));
      expect(threads).toMatchObject({ status: 404, body: { message: '404 Epic Not Found' } });
      const comment = await h.call('POST', `/groups/${ns.id}/epics/${secret.id}/notes`, {
        ...as('outsider', ns),
        json: { body: 'hi' },
      });
      expect(comment).toMatchObject({ status: 404, body: { message: '404 Epic Not Found' } });
    });
  });

  describe('confidential issues (IssuePolicy, IssuesFinder)', () => {
    async function confidentialIssue(visibility: 'public' | 'private') {
      const ns = projectNamespace({ visibility });
      const p = `/projects/${ns.id}/issues`;
      // A Guest may mark the issue they open confidential (`~persisted & can?(:create_issue)`).
      const created = await h.call('POST', p, {
        ...as('author', ns),
        json: { title: 'Vulnerability', confidential: true, assignee_ids: [DEVELOPER.id] },
      });
      const issue = issueEntity.parse(created.body);
      expect(issue.confidential).toBe(true);
      await h.call('POST', p, { ns, json: { title: 'Ordinary' } });
      return { ns, p, issue };
    }

    it('When each role lists and reads a confidential issue of a public project, then author, assignee, Reporter and up', async () => {
      const { ns, p, issue } = await confidentialIssue('public');
      const readers = ['reporter', 'author', 'assignee', 'admin'];
      for (const role of ROLES) {
        const res = await h.call('GET', p, as(role, ns));
        const titles = z
          .array(issueEntity)
          .parse(res.body)
          .map((i) => i.title);
        expect([role, titles, res.headers.get('x-total')]).toEqual(
          readers.includes(role) ? [role, ['Ordinary', 'Vulnerability'], '2'] : [role, ['Ordinary'], '1'],
        );
      }
      expect(await rolesWith(200, (role) => h.call('GET', `${p}/${issue.iid}`, as(role, ns)))).toEqual(
        readers,
      );
      // IssuesFinder leaves it out: find_by! → the same 404 as an issue that does not exist.
      const hidden = await h.call('GET', `${p}/${issue.iid}`, as('guest', ns));
      expect(hidden).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      const notes = await h.call('GET', `${p}/${issue.iid}/notes`, as('outsider', ns));
      expect(notes).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
      const comment = await h.call('POST', `${p}/${issue.iid}/discussions`, {
        ...as('guest', ns),
        json: { body: 'hi' },
      });
      expect(comment).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
      const update = await h.call('PUT', `${p}/${issue.iid}`, { ...as('guest', ns), json: { title: 'x' } });
      expect(update.status).toBe(404);
    });

    it('When a guest author updates confidential, then it is ignored; a Reporter changes it with a system note', async () => {
      const { ns, p, issue } = await confidentialIssue('private');
      const ignored = await h.call('PUT', `${p}/${issue.iid}`, {
        ...as('author', ns),
        json: { confidential: false, title: 'Renamed' },
      });
      expect(issueEntity.parse(ignored.body)).toMatchObject({ confidential: true, title: 'Renamed' });
      const changed = await h.call('PUT', `${p}/${issue.iid}`, {
        ...as('reporter', ns),
        json: { confidential: false },
      });
      expect(issueEntity.parse(changed.body).confidential).toBe(false);
      const threads = z
        .array(discussionEntity)
        .parse((await h.call('GET', `${p}/${issue.iid}/discussions`, { ns })).body);
      expect(threads.map((t) => t.notes[0]!.body)).toContain('made the issue visible to everyone');
      const guest = await h.call('GET', `${p}/${issue.iid}`, as('guest', ns));
      expect(guest.status).toBe(200);
    });

    it('When a confidential issue is opened, then issue.opened carries its audience for the activity log', async () => {
      const { ns, issue } = await confidentialIssue('public');
      const opened = (await h.pendingEvents()).find(
        (e) => e.type === DOMAIN_EVENT_TYPES.discussions.issueOpened && e.projectId === ns.id,
      );
      expect(opened?.data).toEqual({
        targetId: issue.id,
        targetIid: issue.iid,
        targetTitle: 'Vulnerability',
        audience: { confidential: true, authorId: GUEST.id, assigneeIds: [DEVELOPER.id] },
      });
    });
  });

  describe('commits (download_code / read_code)', () => {
    async function commitIn(visibility: 'private' | 'internal' | 'public') {
      const ns = projectNamespace({ visibility });
      const commit = commitEntity.parse(
        (
          await h.call('POST', `/projects/${ns.id}/repository/commits`, {
            ns,
            as: DEVELOPER,
            json: { branch: 'main', commit_message: 'Code', actions: [{ action: 'create', file_path: 'a' }] },
          })
        ).body,
      );
      return { ns, p: `/projects/${ns.id}/repository/commits`, sha: commit.id };
    }

    it('When each role reads the commits of a private project, then Reporter and up; a guest gets 403', async () => {
      const { ns, p, sha } = await commitIn('private');
      const readers = ['reporter', 'admin'];
      expect(await rolesWith(200, (role) => h.call('GET', p, as(role, ns)))).toEqual(readers);
      expect(await rolesWith(200, (role) => h.call('GET', `${p}/${sha}`, as(role, ns)))).toEqual(readers);
      const list = await h.call('GET', p, as('guest', ns));
      expect(list).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      const one = await h.call('GET', `${p}/${sha}`, as('author', ns));
      expect(one).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    });

    it('When a guest of a private project reads or comments on a commit, then 404 Commit Not Found', async () => {
      const { ns, p, sha } = await commitIn('private');
      const thread = discussionEntity.parse(
        (await h.call('POST', `${p}/${sha}/discussions`, { ns, as: REPORTER, json: { body: 'Why?' } })).body,
      );
      for (const path of [`${p}/${sha}/discussions`, `${p}/${sha}/discussions/${thread.id}`]) {
        const res = await h.call('GET', path, as('guest', ns));
        expect(res).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
      }
      const alias = await h.call('GET', `/projects/${ns.id}/commits/${sha}/discussions`, as('guest', ns));
      expect(alias).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
      const reply = await h.call('POST', `${p}/${sha}/discussions/${thread.id}/notes`, {
        ...as('guest', ns),
        json: { body: 'me too' },
      });
      expect(reply).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
      const start = await h.call('POST', `${p}/${sha}/discussions`, {
        ...as('guest', ns),
        json: { body: 'x' },
      });
      expect(start.status).toBe(404);
    });

    it('When the project is public or internal, then non-members read commits and signed-in users comment', async () => {
      const pub = await commitIn('public');
      expect((await h.call('GET', pub.p, as('anonymous', pub.ns))).status).toBe(200);
      const comment = await h.call('POST', `${pub.p}/${pub.sha}/discussions`, {
        ...as('outsider', pub.ns),
        json: { body: 'Nice' },
      });
      expect(noteEntity.parse(discussionEntity.parse(comment.body).notes[0]).body).toBe('Nice');
      const internal = await commitIn('internal');
      expect((await h.call('GET', internal.p, as('outsider', internal.ns))).status).toBe(200);
      expect((await h.call('GET', internal.p, as('anonymous', internal.ns))).status).toBe(404);
    });
  });
});
