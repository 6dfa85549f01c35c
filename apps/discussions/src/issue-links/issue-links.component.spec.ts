import { z } from 'zod';
import {
  EVENT_TYPES,
  issueEntity,
  issueLinkEntity,
  noteEntity,
  relatedIssueEntity,
  type NamespaceContext,
  type Principal,
} from '@gl/contracts';
import {
  DEVELOPER,
  GUEST,
  OWNER,
  REPORTER,
  ROOT,
  STRANGER,
  groupEventFields,
  projectEventFields,
  useHarness,
} from '@gl/testing';
import { projectNamespace, groupNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { memberEventFields } from '../testing/memberships';
import { NO_LINK_PERMISSION } from './issue-links.service';

const ID = EVENT_TYPES.identity;
const relatedIssues = z.array(relatedIssueEntity);
const notesOf = z.array(noteEntity);

/**
 * Issue links (lib/api/issue_links.rb, IssueLinks::CreateService and DestroyService, app/models/issue_link.rb,
 * lib/api/entities/related_issue.rb): every route needs a signed-in caller who reads the issue; linking needs
 * admin_issue_link on the target (a member, Guest and up); `blocks` and `is_blocked_by` are higher-tier.
 */
describe('Issue links', () => {
  const h = useHarness(startDiscussionsHarness);

  async function issueIn(ns: NamespaceContext, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Bug', ...json } });
    expect(res.status).toBe(201);
    return issueEntity.parse(res.body);
  }

  const links = (ns: NamespaceContext, iid: number) => `/projects/${ns.id}/issues/${iid}/links`;

  const link = (
    ns: NamespaceContext,
    iid: number,
    json: Record<string, unknown>,
    as: Principal | null = DEVELOPER,
    tier?: 'free' | 'premium',
  ) => h.call('POST', links(ns, iid), { ns, as, json, ...(tier ? { tier } : {}) });

  async function systemNotes(ns: NamespaceContext, iid: number) {
    const res = await h.call('GET', `/projects/${ns.id}/issues/${iid}/notes?sort=asc`, { ns, as: OWNER });
    return notesOf
      .parse(res.body)
      .filter((n) => n.system)
      .map((n) => n.body);
  }

  /** A project of another group, known to discussions' copy, with REPORTER a member at `level` if given. */
  async function otherProject(visibility: 'private' | 'public', level?: number) {
    const group = groupNamespace({ visibility });
    await h.deliver(ID.groupCreated, groupEventFields(group.id, { visibility, ancestorGroupIds: [] }));
    const ns = projectNamespace({ visibility, ancestorGroupIds: [group.id], fullPath: `o${group.id}/far` });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(ns.id, { visibility, ancestorGroupIds: [group.id], fullPath: ns.fullPath }),
    );
    if (level !== undefined) {
      await h.deliver(ID.memberAdded, memberEventFields('project', ns.id, REPORTER.id, level));
    }
    return ns;
  }

  it('When two issues are related, then 201 with the link, both sides list it, one link reads, notes on both', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const a = await issueIn(ns);
    const b = await issueIn(ns);

    const created = await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: b.iid });
    expect(created.status).toBe(201);
    const entity = issueLinkEntity.parse(created.body);
    expect([entity.source_issue.id, entity.target_issue.id, entity.link_type]).toEqual([
      a.id,
      b.id,
      'relates_to',
    ]);

    const fromA = relatedIssues.parse((await h.call('GET', links(ns, a.iid), { ns, as: STRANGER })).body);
    expect(fromA.map((i) => [i.id, i.link_type])).toEqual([[b.id, 'relates_to']]);
    const fromB = relatedIssues.parse((await h.call('GET', links(ns, b.iid), { ns, as: GUEST })).body);
    expect(fromB.map((i) => [i.id, i.link_type, i.issue_link_id])).toEqual([
      [a.id, 'relates_to', fromA[0]!.issue_link_id],
    ]);
    expect(fromB[0]!.link_created_at).toBe(fromA[0]!.link_created_at);

    const one = await h.call('GET', `${links(ns, b.iid)}/${fromA[0]!.issue_link_id}`, { ns, as: STRANGER });
    expect(one.status).toBe(200);
    expect(issueLinkEntity.parse(one.body)).toMatchObject({ link_type: 'relates_to' });
    expect(issueLinkEntity.parse(one.body).source_issue.id).toBe(a.id);

    expect(await systemNotes(ns, a.iid)).toEqual([`marked this issue as related to #${b.iid}`]);
    expect(await systemNotes(ns, b.iid)).toEqual([`marked this issue as related to #${a.iid}`]);
    // Issues are linked in id order of their links, oldest first.
    const c = await issueIn(ns);
    expect((await link(ns, c.iid, { target_project_id: ns.fullPath, target_issue_iid: a.iid })).status).toBe(
      201,
    );
    const again = relatedIssues.parse((await h.call('GET', links(ns, a.iid), { ns })).body);
    expect(again.map((i) => i.iid)).toEqual([b.iid, c.iid]);
  });

  it('When a pair is linked again either way, then 409; itself 422; bad parameters Grape’s 400', async () => {
    const ns = projectNamespace({ visibility: 'private' });
    const a = await issueIn(ns);
    const b = await issueIn(ns);
    expect((await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: b.iid })).status).toBe(201);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const dup = await link(ns, from.iid, {
        target_project_id: String(ns.id),
        target_issue_iid: String(to.iid),
      });
      expect([dup.status, dup.body]).toEqual([409, { message: 'Issue(s) already assigned' }]);
    }
    const self = await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: a.iid });
    expect([self.status, self.body]).toEqual([
      422,
      { message: `#${a.iid} cannot be added: cannot be related to itself` },
    ]);

    const none = await link(ns, a.iid, {});
    expect([none.status, none.body]).toEqual([
      400,
      { error: 'target_project_id is missing, target_issue_iid is missing' },
    ]);
    const badType = await link(ns, a.iid, {
      target_project_id: ns.id,
      target_issue_iid: b.iid,
      link_type: 'x',
    });
    expect([badType.status, badType.body]).toEqual([400, { error: 'link_type does not have a valid value' }]);
    const noIssue = await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: 999 });
    expect([noIssue.status, noIssue.body]).toEqual([404, { message: '404 Not found' }]);
    const noProject = await link(ns, a.iid, { target_project_id: 'no/such', target_issue_iid: b.iid });
    expect([noProject.status, noProject.body]).toEqual([404, { message: '404 Project Not Found' }]);
    const noSource = await link(ns, 999, { target_project_id: ns.id, target_issue_iid: b.iid });
    expect([noSource.status, noSource.body]).toEqual([404, { message: '404 Not found' }]);
  });

  it('When an issue blocks or is blocked by another, then each side sees its direction; free tier 403', async () => {
    const ns = projectNamespace({ visibility: 'private' });
    const a = await issueIn(ns);
    const b = await issueIn(ns);
    const c = await issueIn(ns);

    const free = await link(
      ns,
      a.iid,
      { target_project_id: ns.id, target_issue_iid: b.iid, link_type: 'blocks' },
      DEVELOPER,
      'free',
    );
    expect([free.status, free.body]).toEqual([
      403,
      { message: 'Blocked issues not available for current license' },
    ]);
    const relates = await link(
      ns,
      a.iid,
      { target_project_id: ns.id, target_issue_iid: c.iid },
      DEVELOPER,
      'free',
    );
    expect(relates.status).toBe(201);

    // `is_blocked_by` is stored as the other issue blocking this one.
    const blocked = await link(ns, a.iid, {
      target_project_id: ns.id,
      target_issue_iid: b.iid,
      link_type: 'is_blocked_by',
    });
    expect(blocked.status).toBe(201);
    const stored = issueLinkEntity.parse(blocked.body);
    expect([stored.source_issue.id, stored.target_issue.id, stored.link_type]).toEqual([
      b.id,
      a.id,
      'blocks',
    ]);
    const fromA = relatedIssues.parse((await h.call('GET', links(ns, a.iid), { ns })).body);
    expect(fromA.map((i) => [i.iid, i.link_type])).toEqual([
      [c.iid, 'relates_to'],
      [b.iid, 'is_blocked_by'],
    ]);
    const fromB = relatedIssues.parse((await h.call('GET', links(ns, b.iid), { ns })).body);
    expect(fromB.map((i) => [i.iid, i.link_type])).toEqual([[a.iid, 'blocks']]);
    expect(await systemNotes(ns, b.iid)).toEqual([`marked this issue as blocking #${a.iid}`]);
    expect((await systemNotes(ns, a.iid)).at(-1)).toBe(`marked this issue as blocked by #${b.iid}`);

    const blocks = await link(ns, c.iid, {
      target_project_id: ns.id,
      target_issue_iid: b.iid,
      link_type: 'blocks',
    });
    expect(issueLinkEntity.parse(blocks.body)).toMatchObject({ link_type: 'blocks' });
    const fromC = relatedIssues.parse((await h.call('GET', links(ns, c.iid), { ns })).body);
    expect(fromC.map((i) => [i.iid, i.link_type])).toEqual([
      [a.iid, 'relates_to'],
      [b.iid, 'blocks'],
    ]);
  });

  it('When a non-member links, a guest reads a confidential target or a stranger a private project, then 403 and 404', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const a = await issueIn(ns);
    const b = await issueIn(ns);
    const denied = await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: b.iid }, STRANGER);
    expect([denied.status, denied.body]).toEqual([403, { message: NO_LINK_PERMISSION }]);
    expect((await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: b.iid }, GUEST)).status).toBe(
      201,
    );

    const secret = await issueIn(ns, { confidential: true });
    const hidden = await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: secret.iid }, GUEST);
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Not found' }]);
    expect(
      (await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: secret.iid }, REPORTER)).status,
    ).toBe(201);
    // The guest does not see the confidential issue among the links; the reporter does.
    const forGuest = relatedIssues.parse((await h.call('GET', links(ns, a.iid), { ns, as: GUEST })).body);
    expect(forGuest.map((i) => i.iid)).toEqual([b.iid]);
    const forReporter = relatedIssues.parse(
      (await h.call('GET', links(ns, a.iid), { ns, as: REPORTER })).body,
    );
    expect(forReporter.map((i) => i.iid)).toEqual([b.iid, secret.iid]);
    const secretLink = forReporter[1]!.issue_link_id;
    const unseen = await h.call('GET', `${links(ns, a.iid)}/${secretLink}`, { ns, as: GUEST });
    expect([unseen.status, unseen.body]).toEqual([404, { message: '404 Not found' }]);

    // Seen from its target, a link whose source the caller may not read is not shown either.
    const fromSecret = await link(
      ns,
      secret.iid,
      { target_project_id: ns.id, target_issue_iid: b.iid },
      REPORTER,
    );
    const [, secretSide] = relatedIssues.parse(
      (await h.call('GET', links(ns, b.iid), { ns, as: REPORTER })).body,
    );
    expect(secretSide!.id).toBe(issueLinkEntity.parse(fromSecret.body).source_issue.id);
    const fromB = await h.call('GET', `${links(ns, b.iid)}/${secretSide!.issue_link_id}`, { ns, as: GUEST });
    expect([fromB.status, fromB.body]).toEqual([404, { message: '404 Not found' }]);

    const closed = projectNamespace({ visibility: 'private' });
    const p = await issueIn(closed);
    const stranger = await h.call('GET', links(closed, p.iid), { ns: closed, as: STRANGER });
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('When links are deleted, then 200 with the link and notes on both; non-members and other issues 404', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const a = await issueIn(ns);
    const b = await issueIn(ns);
    const other = await issueIn(ns);
    await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: b.iid, link_type: 'blocks' });
    const [listed] = relatedIssues.parse((await h.call('GET', links(ns, a.iid), { ns })).body);
    const one = `${links(ns, b.iid)}/${listed!.issue_link_id}`;

    const stranger = await h.call('DELETE', one, { ns, as: STRANGER });
    expect([stranger.status, stranger.body]).toEqual([404, { message: 'No Issue Link found' }]);
    const elsewhere = await h.call('DELETE', `${links(ns, other.iid)}/${listed!.issue_link_id}`, {
      ns,
      as: GUEST,
    });
    expect([elsewhere.status, elsewhere.body]).toEqual([404, { message: '404 Not found' }]);
    const junk = await h.call('GET', `${links(ns, b.iid)}/abc`, { ns, as: GUEST });
    expect([junk.status, junk.body]).toEqual([404, { message: '404 Not found' }]);

    const removed = await h.call('DELETE', one, { ns, as: GUEST });
    expect(removed.status).toBe(200);
    const entity = issueLinkEntity.parse(removed.body);
    expect([entity.source_issue.id, entity.target_issue.id, entity.link_type]).toEqual([
      a.id,
      b.id,
      'blocks',
    ]);
    expect((await h.call('GET', links(ns, a.iid), { ns })).body).toEqual([]);
    expect((await systemNotes(ns, a.iid)).at(-1)).toBe(`removed the relation with #${b.iid}`);
    expect((await systemNotes(ns, b.iid)).at(-1)).toBe(`removed the relation with #${a.iid}`);
    expect((await h.call('DELETE', one, { ns, as: ROOT })).status).toBe(404);
  });

  it('When the target is in another project, then it is named by path, listed only to its readers, referenced in full', async () => {
    const ns = projectNamespace({ visibility: 'public', fullPath: 'home/near' });
    const a = await issueIn(ns);
    const far = await otherProject('private', 10);
    const x = await issueIn(far);

    const stranger = await link(
      ns,
      a.iid,
      { target_project_id: far.fullPath, target_issue_iid: x.iid },
      STRANGER,
    );
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }]);
    const made = await link(
      ns,
      a.iid,
      { target_project_id: far.fullPath, target_issue_iid: x.iid },
      REPORTER,
    );
    expect(made.status).toBe(201);
    expect(issueLinkEntity.parse(made.body).target_issue.web_url).toContain(
      `/${far.fullPath}/-/issues/${x.iid}`,
    );

    expect((await systemNotes(ns, a.iid)).at(-1)).toBe(
      `marked this issue as related to ${far.fullPath}#${x.iid}`,
    );
    expect((await systemNotes(far, x.iid)).at(-1)).toBe(`marked this issue as related to home/near#${a.iid}`);
    const forReporter = relatedIssues.parse(
      (await h.call('GET', links(ns, a.iid), { ns, as: REPORTER })).body,
    );
    expect(forReporter.map((i) => i.id)).toEqual([x.id]);
    // A link to an issue of a project the caller cannot read is left out.
    expect((await h.call('GET', links(ns, a.iid), { ns, as: GUEST })).body).toEqual([]);
    const [listed] = forReporter;
    const hidden = await h.call('GET', `${links(ns, a.iid)}/${listed!.issue_link_id}`, { ns, as: GUEST });
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('When a linked issue is deleted, then its links are no longer listed or found', async () => {
    const ns = projectNamespace({ visibility: 'private' });
    const a = await issueIn(ns);
    const b = await issueIn(ns);
    await link(ns, a.iid, { target_project_id: ns.id, target_issue_iid: b.iid });
    const [listed] = relatedIssues.parse((await h.call('GET', links(ns, a.iid), { ns })).body);
    expect((await h.call('DELETE', `/projects/${ns.id}/issues/${b.iid}`, { ns, as: OWNER })).status).toBe(
      204,
    );
    expect((await h.call('GET', links(ns, a.iid), { ns })).body).toEqual([]);
    const gone = await h.call('GET', `${links(ns, a.iid)}/${listed!.issue_link_id}`, { ns });
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }]);
  });
});
