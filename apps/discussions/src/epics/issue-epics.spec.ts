import type { NoteableDoc } from '../noteables/noteable.model';
import { epicLinkNotes, issueReferenceIn } from './issue-epics';

// top (1) > sub (2) > proj: a project of the subgroup, epics of either group.
const project = { path: 'proj', fullPath: 'top/sub/proj', ancestorGroupIds: [1, 2] };
const doc = (fields: Partial<NoteableDoc>) => fields as NoteableDoc;
const issue = doc({ _id: 50, kind: 'Issue', iid: 5, projectId: 9, groupId: null });
const topEpic = doc({ _id: 60, kind: 'Epic', iid: 1, groupId: 1 });
const subEpic = doc({ _id: 61, kind: 'Epic', iid: 2, groupId: 2 });
const otherSubEpic = doc({ _id: 62, kind: 'Epic', iid: 3, groupId: 2 });
const bodies = (notes: ReturnType<typeof epicLinkNotes>) => notes.map((n) => [n.on._id, n.body]);

describe('The system notes of an issue joining, changing and leaving an epic', () => {
  it('When the issue is referenced from a group, then its own group gets the project path, any other the full path', () => {
    expect(issueReferenceIn(5, project, 2)).toBe('proj#5');
    expect(issueReferenceIn(5, project, 1)).toBe('top/sub/proj#5');
  });

  it("When the issue joins an epic, then the epic says 'added issue' and the issue 'added to epic', each reference from its side", () => {
    expect(bodies(epicLinkNotes(issue, project, { from: null, to: subEpic }))).toEqual([
      [61, 'added issue proj#5'],
      [50, 'added to epic &2'],
    ]);
    expect(bodies(epicLinkNotes(issue, project, { from: null, to: topEpic }))).toEqual([
      [60, 'added issue top/sub/proj#5'],
      [50, 'added to epic top&1'],
    ]);
  });

  it('When the issue moves between epics of different groups, then epic_issue_moved names each from the other side, and the issue says changed epic', () => {
    expect(bodies(epicLinkNotes(issue, project, { from: topEpic, to: subEpic }))).toEqual([
      [61, 'added issue top/sub/proj#5 from epic top&1'],
      [60, 'moved issue proj#5 to epic top/sub&2'],
      [50, 'changed epic to &2'],
    ]);
    expect(bodies(epicLinkNotes(issue, project, { from: subEpic, to: otherSubEpic }))).toEqual([
      [62, 'added issue proj#5 from epic &2'],
      [61, 'moved issue proj#5 to epic &3'],
      [50, 'changed epic to &3'],
    ]);
  });

  it('When the issue leaves its epic, then both say removed; nothing to nothing writes no note', () => {
    expect(bodies(epicLinkNotes(issue, project, { from: topEpic, to: null }))).toEqual([
      [60, 'removed issue top/sub/proj#5'],
      [50, 'removed from epic top&1'],
    ]);
    expect(epicLinkNotes(issue, project, { from: null, to: null })).toEqual([]);
  });
});
