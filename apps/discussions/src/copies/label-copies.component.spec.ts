import { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  EVENT_TYPES,
  issueEntity,
  type LabelDefinedData,
  type NamespaceContext,
} from '@gl/contracts';
import { groupEventFields, projectEventFields, useHarness } from '@gl/testing';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const BOARDS = DOMAIN_EVENT_TYPES.boards;
const ID = EVENT_TYPES.identity;
const issues = z.array(issueEntity);
let next = 970_000;

/** A label as boards defines it (gl.boards.label.defined): a project label at revision 1 unless `fields` say so. */
function labelDefinition(fields: Partial<LabelDefinedData>): LabelDefinedData {
  return {
    labelId: next++,
    groupId: null,
    projectId: null,
    revision: 1,
    deleted: false,
    mergedInto: null,
    title: 'bug',
    previousTitle: null,
    color: '#FF0000',
    textColor: '#FFFFFF',
    description: null,
    ...fields,
  };
}

/**
 * Labels reach issues from the boards service (`gl.boards.label.defined`): issues hold titles, so a
 * renamed label is renamed on the items of its scope and a deleted one taken off them, as GitLab's
 * label links follow the label; resource label events show the label in full (LabelBasic).
 */
describe('Label copies', () => {
  const h = useHarness(startDiscussionsHarness);
  const define = (data: LabelDefinedData) => h.deliver(BOARDS.labelDefined, data, DURABLES.discussionsLabels);

  async function issueWith(ns: NamespaceContext, labels: string[]) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'labelled', labels: labels.join(',') },
    });
    expect(res.status).toBe(201);
    return issueEntity.parse(res.body);
  }

  async function labelsOf(ns: NamespaceContext, iid: number) {
    const res = await h.call('GET', `/projects/${ns.id}/issues/${iid}`, { ns });
    return issueEntity.parse(res.body).labels;
  }

  async function listed(ns: NamespaceContext, label: string) {
    const res = await h.call('GET', `/projects/${ns.id}/issues?labels=${encodeURIComponent(label)}`, { ns });
    return issues.parse(res.body).map((i) => i.iid);
  }

  /** A group with a subgroup, a project in the subgroup and one outside the group, all in the identity copy. */
  async function tree() {
    const group = groupNamespace();
    const sub = groupNamespace({ ancestorGroupIds: [group.id] });
    const outside = groupNamespace();
    await h.deliver(ID.groupCreated, groupEventFields(group.id));
    await h.deliver(ID.groupCreated, groupEventFields(sub.id, { ancestorGroupIds: [group.id] }));
    await h.deliver(ID.groupCreated, groupEventFields(outside.id));
    const inside = projectNamespace({ ancestorGroupIds: [group.id, sub.id] });
    const other = projectNamespace({ ancestorGroupIds: [outside.id] });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(inside.id, { ancestorGroupIds: [group.id, sub.id] }),
    );
    await h.deliver(ID.projectCreated, projectEventFields(other.id, { ancestorGroupIds: [outside.id] }));
    return { group, inside, other };
  }

  it('When a project label is renamed, then its issues show the new title and lists find them by it', async () => {
    const ns = projectNamespace();
    const label = labelDefinition({ projectId: ns.id, title: 'bug' });
    await define(label);
    const issue = await issueWith(ns, ['bug', 'ui']);
    const elsewhere = projectNamespace();
    const untouched = await issueWith(elsewhere, ['bug']);

    await define({ ...label, revision: 2, title: 'defect', previousTitle: 'bug' });
    expect(await labelsOf(ns, issue.iid)).toEqual(['defect', 'ui']);
    expect(await listed(ns, 'defect')).toEqual([issue.iid]);
    expect(await listed(ns, 'bug')).toEqual([]);
    // Another project's label of the same title is another label.
    expect(await labelsOf(elsewhere, untouched.iid)).toEqual(['bug']);

    // A redelivery and a late older definition change nothing.
    await define({ ...label, revision: 2, title: 'defect', previousTitle: 'bug' });
    await define(label);
    expect(await labelsOf(ns, issue.iid)).toEqual(['defect', 'ui']);
  });

  it("When a group label is renamed or deleted, then the issues of the group's projects follow and others keep theirs", async () => {
    const { group, inside, other } = await tree();
    const label = labelDefinition({ groupId: group.id, title: 'team' });
    await define(label);
    const issue = await issueWith(inside, ['team']);
    const outsider = await issueWith(other, ['team']);

    await define({ ...label, revision: 2, title: 'squad', previousTitle: 'team' });
    expect(await labelsOf(inside, issue.iid)).toEqual(['squad']);
    expect(await labelsOf(other, outsider.iid)).toEqual(['team']);

    await define({ ...label, revision: 3, title: 'squad', deleted: true });
    expect(await labelsOf(inside, issue.iid)).toEqual([]);
    expect(await listed(inside, 'squad')).toEqual([]);
    expect(await labelsOf(other, outsider.iid)).toEqual(['team']);
  });

  it('When a project label is merged into a group label by a promotion, then its issues keep the title', async () => {
    const { group, inside } = await tree();
    const label = labelDefinition({ projectId: inside.id, title: 'infra' });
    await define(label);
    const issue = await issueWith(inside, ['infra']);
    const promoted = labelDefinition({ groupId: group.id, title: 'infra' });
    await define(promoted);
    await define({ ...label, revision: 2, deleted: true, mergedInto: promoted.labelId });
    expect(await labelsOf(inside, issue.iid)).toEqual(['infra']);
  });

  it('When the copy has not seen a label before its rename, then the title before the write is renamed', async () => {
    const ns = projectNamespace();
    const issue = await issueWith(ns, ['old']);
    await define(labelDefinition({ projectId: ns.id, revision: 4, title: 'new', previousTitle: 'old' }));
    expect(await labelsOf(ns, issue.iid)).toEqual(['new']);
  });

  it("When an issue's label events are listed, then each label is shown in full: the project's own before its group's", async () => {
    const { group, inside } = await tree();
    const own = labelDefinition({
      projectId: inside.id,
      title: 'doing',
      color: '#00FF00',
      textColor: '#333333',
    });
    await define(own);
    await define(labelDefinition({ groupId: group.id, title: 'doing', color: '#0000FF' }));
    const shared = labelDefinition({ groupId: group.id, title: 'review', description: 'Needs eyes' });
    await define(shared);
    const issue = await issueWith(inside, ['doing', 'review', 'unknown']);

    const res = await h.call('GET', `/projects/${inside.id}/issues/${issue.iid}/resource_label_events`, {
      ns: inside,
    });
    expect(res.status).toBe(200);
    const labels = (res.body as { label: Record<string, unknown> }[]).map((e) => e.label);
    expect(labels).toEqual([
      {
        id: own.labelId,
        name: 'doing',
        color: '#00FF00',
        description: null,
        description_html: '',
        text_color: '#333333',
      },
      {
        id: shared.labelId,
        name: 'review',
        color: '#FF0000',
        description: 'Needs eyes',
        description_html: 'Needs eyes',
        text_color: '#FFFFFF',
      },
      { id: null, name: 'unknown', color: null, description: null, description_html: null, text_color: null },
    ]);
  });

  it('When a list is asked with_labels_details, then each issue shows its labels in full, sorted by title', async () => {
    const { group, inside } = await tree();
    const own = labelDefinition({
      projectId: inside.id,
      title: 'zeta',
      color: '#00FF00',
      textColor: '#333333',
    });
    await define(own);
    const shared = labelDefinition({ groupId: group.id, title: 'alpha', description: 'First' });
    await define(shared);
    const issue = await issueWith(inside, ['zeta', 'alpha', 'gone']);

    const plain = await h.call('GET', `/projects/${inside.id}/issues`, { ns: inside });
    expect(issues.parse(plain.body).find((i) => i.iid === issue.iid)?.labels).toEqual([
      'alpha',
      'gone',
      'zeta',
    ]);
    const detailed = await h.call('GET', `/projects/${inside.id}/issues?with_labels_details=true`, {
      ns: inside,
    });
    expect(detailed.status).toBe(200);
    expect(issues.parse(detailed.body).find((i) => i.iid === issue.iid)?.labels).toEqual([
      {
        id: shared.labelId,
        name: 'alpha',
        color: '#FF0000',
        description: 'First',
        description_html: 'First',
        text_color: '#FFFFFF',
      },
      { id: null, name: 'gone', color: null, description: null, description_html: null, text_color: null },
      {
        id: own.labelId,
        name: 'zeta',
        color: '#00FF00',
        description: null,
        description_html: '',
        text_color: '#333333',
      },
    ]);
  });
});
