"""Drives the noteables of the discussions service with python-gitlab 3.12 (Debian's python3-gitlab): an
issue's participants, closed_by and related_merge_requests, its edit with discussion_locked, labels and
updated_at, and its deletion; a project snippet edited, read raw and deleted; an epic's dates; a group milestone's issues and merge requests; a merge request's entity and participants.

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_noteables.py <scenario>
Prints one JSON object {"ok": true, "checked": [<scenario>]}; exits non-zero with the failed assertion otherwise.
"""
import time
import warnings

import gitlab
from _runner import RootRun, run_scenarios

warnings.simplefilter("error", UserWarning)


class Run(RootRun):
    """The root client of this run and what its scenarios build on it."""

    def project(self):
        group = self.root.groups.create(
            {"name": f"pyn{self.suffix}", "path": f"pyn{self.suffix}", "visibility": "private"}
        )
        return self.root.projects.create({"name": "app", "namespace_id": group.id})


def issue_relations(run: Run) -> None:
    project = run.project()
    issue = project.issues.create({"title": "Bug"})
    closing = project.mergerequests.create(
        {"source_branch": "fix", "target_branch": "main", "title": "Fix", "description": f"Closes #{issue.iid}"}
    )
    mentioning = project.mergerequests.create(
        {"source_branch": "other", "target_branch": "main", "title": "Other", "description": f"See #{issue.iid}"}
    )
    issue.notes.create({"body": "me too"})
    participants = issue.participants()
    assert [p["username"] for p in participants] == [run.root.user.username], participants
    assert [mr["iid"] for mr in issue.closed_by()] == [closing.iid], issue.closed_by()
    related = issue.related_merge_requests()
    assert [mr["iid"] for mr in related] == [closing.iid, mentioning.iid], related


def issue_edit(run: Run) -> None:
    project = run.project()
    issue = project.issues.create({"title": "Bug", "labels": ["bug", "ui"]})
    issue.discussion_locked = True
    issue.labels = ["bug", "backend"]
    issue.updated_at = "2021-02-03T04:05:06Z"
    issue.save()
    again = project.issues.get(issue.iid)
    assert again.discussion_locked is True, again.discussion_locked
    assert again.labels == ["backend", "bug"], again.labels  # sorted, as IssueBasic shows them
    assert again.updated_at == "2021-02-03T04:05:06.000Z", again.updated_at


def issue_delete(run: Run) -> None:
    project = run.project()
    issue = project.issues.create({"title": "Gone"})
    issue.delete()
    try:
        project.issues.get(issue.iid)
    except gitlab.exceptions.GitlabGetError as err:
        assert err.response_code == 404, err.response_code
    else:
        raise AssertionError("the deleted issue is still there")


def snippet(run: Run) -> None:
    project = run.project()
    created = project.snippets.create(
        {"title": "Notes", "file_name": "a.txt", "content": "one", "visibility": "private"}
    )
    created.title = "Renamed"
    created.content = "two"
    created.save()
    again = project.snippets.get(created.id)
    assert again.title == "Renamed", again.title
    assert again.content() == b"two", again.content()
    again.delete()
    try:
        project.snippets.get(created.id)
    except gitlab.exceptions.GitlabGetError as err:
        assert err.response_code == 404, err.response_code
    else:
        raise AssertionError("the deleted snippet is still there")


def epic(run: Run) -> None:
    group = run.root.groups.create(
        {"name": f"pye{run.suffix}", "path": f"pye{run.suffix}", "visibility": "private"}
    )
    created = group.epics.create({"title": "Epic"})
    created.title = "Renamed"
    created.start_date = "2024-01-02"
    created.end_date = "2024-02-03"
    created.save()
    again = group.epics.get(created.iid)
    assert again.title == "Renamed", again.title
    assert (again.start_date, again.end_date) == ("2024-01-02", "2024-02-03"), again.attributes
    project = run.root.projects.create({"name": "app", "namespace_id": group.id})
    issue = project.issues.create({"title": "In the epic"})
    again.issues.create({"issue_id": issue.id})
    linked = again.issues.list()
    assert [i.id for i in linked] == [issue.id], [i.attributes for i in linked]
    linked[0].delete()
    assert again.issues.list() == [], again.issues.list()
    again.delete()


def milestone(run: Run) -> None:
    project = run.project()
    group = run.root.groups.get(project.namespace["id"])
    created = group.milestones.create({"title": "v1", "due_date": "2026-07-31T12:00:00Z"})
    assert created.due_date == "2026-07-31", created.due_date
    deadline = time.time() + 20
    while True:  # discussions learns of the milestone from boards' event
        issue = project.issues.create({"title": "In v1", "milestone_id": created.id})
        if issue.milestone and issue.milestone.get("title") == "v1":
            break
        assert time.time() < deadline, issue.milestone
        time.sleep(0.2)
    project.mergerequests.create(
        {"source_branch": "f", "target_branch": "main", "title": "MR v1", "milestone_id": created.id}
    )
    assert issue.iid in [i.iid for i in created.issues()], created.issues()
    assert [m.title for m in created.merge_requests()] == ["MR v1"], created.merge_requests()


def merge_request(run: Run) -> None:
    project = run.project()
    mr = project.mergerequests.create({"source_branch": "f", "target_branch": "main", "title": "Feature"})
    again = project.mergerequests.get(mr.iid)
    assert again.detailed_merge_status == "mergeable", again.detailed_merge_status
    assert again.blocking_discussions_resolved is True and again.has_conflicts is False, again.attributes
    mr.notes.create({"body": "LGTM"})
    assert [p["username"] for p in again.participants()] == [run.root.user.username], again.participants()


SCENARIOS = {
    "issue relations": issue_relations,
    "issue edit": issue_edit,
    "issue delete": issue_delete,
    "snippet": snippet,
    "epic": epic,
    "milestone": milestone,
    "merge request": merge_request,
}


if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
