import { issueEntity, noteEntity, snippetEntity, type NamespaceContext } from '@gl/contracts';
import { DEVELOPER, OWNER, useHarness } from '@gl/testing';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

/**
 * What goes with a deleted issue, snippet or note (GitLab's `dependent: :destroy` and foreign keys): award
 * emoji on it and on its notes, an issue's links from either side and its resource events.
 */
describe('Dependents of a deleted noteable', () => {
  const h = useHarness(startDiscussionsHarness);
  const count = (collection: string, filter: Record<string, unknown>) =>
    h.runtime.connection.collection(collection).countDocuments(filter);

  async function awarded(ns: NamespaceContext, path: string) {
    const note = noteEntity.parse((await h.call('POST', `${path}/notes`, { ns, json: { body: 'hi' } })).body);
    for (const target of [path, `${path}/notes/${note.id}`]) {
      const res = await h.call('POST', `${target}/award_emoji`, {
        ns,
        as: DEVELOPER,
        json: { name: 'tada' },
      });
      expect(res.status).toBe(201);
    }
    return note;
  }

  it('When an issue is deleted, then its awards, its notes’ awards, its links and its resource events go', async () => {
    const ns = projectNamespace();
    const open = async (title: string) =>
      issueEntity.parse(
        (await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title, labels: 'bug' } })).body,
      );
    const [doomed, other] = [await open('doomed'), await open('other')];
    const path = `/projects/${ns.id}/issues/${doomed.iid}`;
    const note = await awarded(ns, path);
    const linked = await h.call('POST', `${path}/links`, {
      ns,
      as: OWNER,
      json: { target_project_id: ns.id, target_issue_iid: other.iid },
    });
    expect(linked.status).toBe(201);
    expect(await count('resource_events', { resourceId: doomed.id })).toBeGreaterThan(0);

    expect((await h.call('DELETE', path, { ns, as: OWNER })).status).toBe(204);
    expect(await count('award_emoji', { awardableType: 'Issue', awardableId: doomed.id })).toBe(0);
    expect(await count('award_emoji', { awardableType: 'Note', awardableId: note.id })).toBe(0);
    expect(await count('issue_links', { $or: [{ sourceId: doomed.id }, { targetId: doomed.id }] })).toBe(0);
    expect(await count('resource_events', { resourceId: doomed.id })).toBe(0);
    expect(await count('resource_events', { resourceId: other.id })).toBeGreaterThan(0);
  });

  it('When a note or a snippet is deleted, then its awards go with it', async () => {
    const ns = projectNamespace();
    const issue = issueEntity.parse(
      (await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'kept' } })).body,
    );
    const issuePath = `/projects/${ns.id}/issues/${issue.iid}`;
    const note = await awarded(ns, issuePath);
    expect((await h.call('DELETE', `${issuePath}/notes/${note.id}`, { ns, as: OWNER })).status).toBe(204);
    expect(await count('award_emoji', { awardableType: 'Note', awardableId: note.id })).toBe(0);
    expect(await count('award_emoji', { awardableType: 'Issue', awardableId: issue.id })).toBe(1);

    const created = await h.call('POST', `/projects/${ns.id}/snippets`, {
      ns,
      json: { title: 's', file_name: 'a.txt', content: 'x', visibility: 'private' },
    });
    const snippet = snippetEntity.parse(created.body);
    const snippetPath = `/projects/${ns.id}/snippets/${snippet.id}`;
    const snippetNote = await awarded(ns, snippetPath);
    expect((await h.call('DELETE', snippetPath, { ns, as: OWNER })).status).toBe(204);
    expect(await count('award_emoji', { awardableType: 'Snippet', awardableId: snippet.id })).toBe(0);
    expect(await count('award_emoji', { awardableType: 'Note', awardableId: snippetNote.id })).toBe(0);
  });
});
