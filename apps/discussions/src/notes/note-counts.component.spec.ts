import { issueEntity, noteEntity } from '@gl/contracts';
import { z } from 'zod';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { GUEST, REPORTER, useHarness } from '@gl/testing';
import { noteableCountsMigration } from '../migrations/noteable-counts';

const issues = z.array(issueEntity);

/**
 * user_notes_count as kept on each noteable (note-counts.ts): comments counted when written and removed,
 * internal ones only for who reads them, system notes never; a count that went wrong (a crash between a
 * note and its count) is set right by the next read of the noteable's notes, and the migration sets the
 * counts of noteables written before they were kept.
 */
describe('Comment counts kept on the noteable', () => {
  const h = useHarness(startDiscussionsHarness);
  const ns = projectNamespace({ visibility: 'public' });

  async function newIssue(): Promise<{ id: number; iid: number }> {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Counted' } });
    expect(res.status).toBe(201);
    return issueEntity.parse(res.body);
  }

  async function comment(iid: number, json: Record<string, unknown>): Promise<number> {
    const res = await h.call('POST', `/projects/${ns.id}/issues/${iid}/notes`, { ns, as: REPORTER, json });
    expect(res.status).toBe(201);
    return noteEntity.parse(res.body).id;
  }

  async function listedCount(id: number, as: typeof GUEST): Promise<number | undefined> {
    const res = await h.call('GET', `/projects/${ns.id}/issues?per_page=100`, { ns, as });
    return issues.parse(res.body).find((i) => i.id === id)?.user_notes_count;
  }

  it('When comments are written and deleted, then lists count them, internal ones for Reporters only', async () => {
    const issue = await newIssue();
    await comment(issue.iid, { body: 'one' });
    const second = await comment(issue.iid, { body: 'two' });
    await comment(issue.iid, { body: 'internal', internal: true });
    expect(await listedCount(issue.id, GUEST)).toBe(2);
    expect(await listedCount(issue.id, REPORTER)).toBe(3);

    const removed = await h.call('DELETE', `/projects/${ns.id}/issues/${issue.iid}/notes/${second}`, {
      ns,
      as: REPORTER,
    });
    expect(removed.status).toBe(204);
    const again = await h.call('DELETE', `/projects/${ns.id}/issues/${issue.iid}/notes/${second}`, {
      ns,
      as: REPORTER,
    });
    expect(again.status).toBe(404);
    expect(await listedCount(issue.id, GUEST)).toBe(1);
    expect(await listedCount(issue.id, REPORTER)).toBe(2);
  });

  it('When a kept count is wrong, then reading the issue sets it right for the lists', async () => {
    const issue = await newIssue();
    await comment(issue.iid, { body: 'one' });
    const noteables = h.runtime.connection.collection<{ _id: number }>('noteables');
    await noteables.updateOne({ _id: issue.id }, { $set: { userNotesCount: 7, internalNotesCount: 2 } });
    expect(await listedCount(issue.id, REPORTER)).toBe(9);

    // A caller who is not the author reads the notes for `subscribed`; that read repairs the counts.
    const one = await h.call('GET', `/projects/${ns.id}/issues/${issue.iid}`, { ns, as: GUEST });
    expect(issueEntity.parse(one.body).user_notes_count).toBe(1);
    for (let i = 0; i < 50 && (await listedCount(issue.id, REPORTER)) !== 1; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await listedCount(issue.id, REPORTER)).toBe(1);
  });

  it('When noteables were written before the counts were kept, then the migration sets them', async () => {
    const issue = await newIssue();
    await comment(issue.iid, { body: 'one' });
    await comment(issue.iid, { body: 'internal', internal: true });
    const noteables = h.runtime.connection.collection<{ _id: number }>('noteables');
    await noteables.updateOne({ _id: issue.id }, { $unset: { userNotesCount: '', internalNotesCount: '' } });
    expect(await listedCount(issue.id, REPORTER)).toBe(0);

    await noteableCountsMigration(10).up(h.runtime.connection, h.runtime.logger);
    expect(await listedCount(issue.id, GUEST)).toBe(1);
    expect(await listedCount(issue.id, REPORTER)).toBe(2);
  });
});
