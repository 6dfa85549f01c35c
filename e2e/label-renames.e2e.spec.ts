import { api, eventually, gitlab, unique } from './e2e.helpers';

type Issue = { iid: number; labels: string[] };
type LabelEvent = { label: { id: number | null; name: string; color: string | null } };

/**
 * Labels are renamed and deleted in the boards service; issues in discussions hold label titles and follow
 * through `gl.boards.label.defined` (GitLab links labels by id, so a rename shows on every issue).
 */
describe('label renames and deletions reach issues through the bus', () => {
  const root = gitlab();

  it("When a group label and a project label are renamed and one deleted, then the project's issues follow", async () => {
    const path = unique('lren');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    const project = await root.Projects.create({ name: 'app', namespaceId: group.id });
    const team = await root.GroupLabels.create(group.id, 'team', '#0000FF');
    const bug = await root.ProjectLabels.create(project.id, 'bug', '#FF0000');
    await root.ProjectLabels.create(project.id, 'wontfix', '#000000');
    const issue = await root.Issues.create(project.id, 'Labelled', { labels: 'team,bug,wontfix' });
    const labelsOf = async () =>
      ((await (await api(`/projects/${project.id}/issues/${issue.iid}`)).json()) as Issue).labels;

    await root.GroupLabels.edit(group.id, team.id, { newName: 'squad' });
    await root.ProjectLabels.edit(project.id, bug.id, { newName: 'defect' });
    await root.ProjectLabels.remove(project.id, 'wontfix');
    expect(await eventually(labelsOf, (labels) => labels.join() === 'defect,squad')).toEqual([
      'defect',
      'squad',
    ]);
    const listed = await api(`/projects/${project.id}/issues?labels=squad`);
    expect(((await listed.json()) as Issue[]).map((i) => i.iid)).toEqual([issue.iid]);

    const events = await api(`/projects/${project.id}/issues/${issue.iid}/resource_label_events`);
    const shown = ((await events.json()) as LabelEvent[]).map((e) => e.label);
    expect(shown).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: team.id, name: 'squad', color: '#0000FF' }),
        expect.objectContaining({ id: bug.id, name: 'defect', color: '#FF0000' }),
      ]),
    );
  });
});
