"""Drives the discussions service with python-gitlab 3.12 (Debian's python3-gitlab): issue notes and
threads, the v4 `iids` filter, merge request threads with a diff note whose `position` goes out as nested
JSON, resolving a thread with a JSON body {"resolved": true}, commit threads, and Link-header pagination.

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_discussions.py <scenario>
Each scenario creates the group, project, issues and merge request it needs, under names of its own. Prints
one JSON object {"ok": true, "checked": [<scenario>]}; exits non-zero with the failed assertion otherwise.
"""
import re
import time
import warnings

import gitlab

from _runner import RootRun, run_scenarios

warnings.simplefilter("error", UserWarning)

HEX40 = re.compile(r"^[0-9a-f]{40}$")


class Run(RootRun):
    """The root client of this run and what its scenarios build on it."""

    def project(self):
        """The project app in a new private group pyd…, so its issues and merge requests start at iid 1."""
        group = self.root.groups.create(
            {"name": f"pyd{self.suffix}", "path": f"pyd{self.suffix}", "visibility": "private"}
        )
        return self.root.projects.create({"name": "app", "namespace_id": group.id})


def closed_issue(project):
    """The issue Bug, closed, so its notes include the "closed" system note."""
    issue = project.issues.create({"title": "Bug", "description": "It breaks"})
    issue.state_event = "close"
    issue.save()
    return issue


def feature_commit(project):
    """Commits a.py on main and b.py on a new branch feature; returns the feature commit."""
    project.commits.create(
        {
            "branch": "main",
            "commit_message": "Initial",
            "actions": [{"action": "create", "file_path": "a.py", "content": "a"}],
        }
    )
    feature = project.commits.create(
        {
            "branch": "feature",
            "commit_message": "Feature",
            "actions": [{"action": "create", "file_path": "b.py", "content": "b"}],
        }
    )
    assert HEX40.match(feature.id), feature.id
    return feature


def merge_request(project):
    """The merge request feature → main."""
    feature_commit(project)
    return project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Feature"})


def diff_thread(mr):
    """A thread on line 1 of b.py (position sent as nested JSON), as created, then replied to with "fixed"."""
    refs = mr.diff_refs
    position = {
        "base_sha": refs["base_sha"],
        "start_sha": refs["start_sha"],
        "head_sha": refs["head_sha"],
        "position_type": "text",
        "new_path": "b.py",
        "old_path": "b.py",
        "new_line": 1,
    }
    diff = mr.discussions.create({"body": "nit", "position": position})
    diff.notes.create({"body": "fixed"})
    return diff


def issues(run: Run) -> None:
    project = run.project()
    issue = project.issues.create({"title": "Bug", "description": "It breaks"})
    assert issue.iid == 1 and issue.state == "opened", issue
    assert project.issues.get(issue.iid).title == "Bug"
    issue.state_event = "close"
    issue.save()
    assert project.issues.get(issue.iid).state == "closed"


def issue_notes(run: Run) -> None:
    issue = closed_issue(run.project())
    note = issue.notes.create({"body": "single comment"})
    assert note.body == "single comment" and note.system is False, note
    assert issue.notes.get(note.id).body == "single comment"
    note.body = "edited comment"
    note.save()
    assert issue.notes.get(note.id).body == "edited comment"
    bodies = [n.body for n in issue.notes.list(get_all=True)]
    assert "edited comment" in bodies and "closed" in bodies, bodies


def issue_discussions(run: Run) -> None:
    issue = closed_issue(run.project())
    note = issue.notes.create({"body": "single comment"})
    thread = issue.discussions.create({"body": "Steps?"})
    assert HEX40.match(thread.id) and thread.individual_note is False, thread.id
    reply = thread.notes.create({"body": "Click"})
    assert reply.type == "DiscussionNote", reply.type
    fetched = issue.discussions.get(thread.id)
    assert [n["body"] for n in fetched.attributes["notes"]] == ["Steps?", "Click"], fetched.attributes
    edited = fetched.notes.get(reply.id)
    edited.body = "Click twice"
    edited.save()
    assert fetched.notes.get(reply.id).body == "Click twice"
    fetched.notes.delete(reply.id)  # 204
    assert len(issue.discussions.get(thread.id).attributes["notes"]) == 1
    single = [d for d in issue.discussions.list(get_all=True) if d.attributes["notes"][0]["id"] == note.id]
    assert len(single) == 1 and single[0].individual_note is True, single


def iids_filter(run: Run) -> None:
    project = run.project()
    issue = project.issues.create({"title": "Bug"})
    mr = merge_request(project)
    others = [project.issues.create({"title": f"Other {i}"}) for i in range(2)]
    by_iids = project.issues.list(iids=[issue.iid, others[1].iid], get_all=True)  # v4's iids[] filter
    assert sorted(i.iid for i in by_iids) == [issue.iid, others[1].iid], [i.iid for i in by_iids]
    assert [m.iid for m in project.mergerequests.list(iids=[mr.iid], get_all=True)] == [mr.iid]
    assert project.mergerequests.list(iids=[mr.iid + 1], get_all=True) == []


def merge_request_diff_note(run: Run) -> None:
    mr = merge_request(run.project())
    diff = diff_thread(mr)
    first = diff.attributes["notes"][0]
    assert first["type"] == "DiffNote" and first["resolvable"] is True, first
    assert first["position"]["new_line"] == 1 and first["position"]["head_sha"] == mr.diff_refs["head_sha"], first
    mr.notes.create({"body": "LGTM"})


def resolve(run: Run) -> None:
    mr = merge_request(run.project())
    diff = diff_thread(mr)
    to_resolve = mr.discussions.get(diff.id)
    to_resolve.resolved = True
    to_resolve.save()  # PUT JSON {"resolved": true}
    resolved = mr.discussions.get(diff.id)
    assert all(n["resolved"] for n in resolved.attributes["notes"]), resolved.attributes
    assert resolved.attributes["notes"][0]["resolved_by"]["id"] == run.root.user.id
    to_resolve.resolved = False
    to_resolve.save()
    assert not any(n["resolved"] for n in mr.discussions.get(diff.id).attributes["notes"])


def commit_discussions(run: Run) -> None:
    project = run.project()
    commit = project.commits.get(feature_commit(project).id)
    commit_thread = commit.discussions.create({"body": "Why?"})
    assert HEX40.match(commit_thread.id), commit_thread.id
    commit_thread.notes.create({"body": "Because"})
    listed = commit.discussions.list(get_all=True)
    assert [[n["body"] for n in d.attributes["notes"]] for d in listed] == [["Why?", "Because"]], listed


def pagination(run: Run) -> None:
    paged = run.project().issues.create({"title": "Paged"})
    for i in range(5):
        paged.discussions.create({"body": f"thread {i}"})
    pages = paged.discussions.list(per_page=2, iterator=True)  # follows Link rel="next"
    all_threads = [d.attributes["notes"][0]["body"] for d in pages]
    assert all_threads == [f"thread {i}" for i in range(5)], all_threads
    assert pages.total == 5 and pages.total_pages == 3, (pages.total, pages.total_pages)


def events(run: Run) -> None:
    """The project's activity (written by the events service from the bus, so polled for): python-gitlab's
    ProjectEvent objects carry Entities::Event's legacy title and data as None, and author_username."""
    project = run.project()
    issue = project.issues.create({"title": "Eventful"})
    issue.notes.create({"body": "noted"})
    deadline = time.time() + 20
    listed = []
    while time.time() < deadline:
        listed = project.events.list(get_all=True)
        if {e.action_name for e in listed} >= {"opened", "commented on"}:
            break
        time.sleep(0.25)
    assert {e.action_name for e in listed} >= {"opened", "commented on"}, [e.attributes for e in listed]
    for event in listed:
        assert event.title is None and event.data is None, event.attributes
        assert event.author_username == run.root.user.username, event.attributes


def issue_links(run):
    """Links A to B and, as blocked, to C (C by path); lists both sides; a repeat is 409; link.delete() unlinks."""
    project = run.project()
    a, b, c = (project.issues.create({"title": title}) for title in ("A", "B", "C"))
    source, target = a.links.create({"target_project_id": project.id, "target_issue_iid": b.iid})
    assert (source.iid, target.iid) == (a.iid, b.iid), (source.attributes, target.attributes)
    source, target = a.links.create(
        {"target_project_id": project.path_with_namespace, "target_issue_iid": c.iid, "link_type": "is_blocked_by"}
    )
    assert (source.iid, target.iid) == (c.iid, a.iid), (source.attributes, target.attributes)
    listed = a.links.list()
    assert [(i.iid, i.link_type) for i in listed] == [(b.iid, "relates_to"), (c.iid, "is_blocked_by")], [
        i.attributes for i in listed
    ]
    assert [(i.iid, i.link_type) for i in c.links.list()] == [(a.iid, "blocks")]
    try:
        b.links.create({"target_project_id": project.id, "target_issue_iid": a.iid})
        raise AssertionError("a second link of the same pair was accepted")
    except gitlab.GitlabCreateError as err:
        assert err.response_code == 409, err
    listed[0].delete()
    assert [i.iid for i in a.links.list()] == [c.iid]
    assert b.links.list() == []
    notes = [n.body for n in b.notes.list(get_all=True, sort="asc") if n.system]
    assert notes == [f"marked this issue as related to #{a.iid}", f"removed the relation with #{a.iid}"], notes


def merge_request_changes(run):
    """mr.commits() lists the feature commit; mr.changes() shows b.py as a new file with git's hunk."""
    project = run.project()
    mr = merge_request(project)
    commits = list(mr.commits())
    assert [c.title for c in commits] == ["Feature"], [c.attributes for c in commits]
    assert HEX40.match(commits[0].id), commits[0].attributes
    changes = mr.changes()
    assert changes["iid"] == mr.iid and changes["overflow"] is False, changes
    files = [(c["new_path"], c["new_file"], c["diff"]) for c in changes["changes"]]
    assert files == [("b.py", True, "@@ -0,0 +1 @@\n+b\n\\ No newline at end of file\n")], files


def resource_events(run):
    """Label, milestone, weight and state changes as issue.resource*events and mr.resourcelabelevents list them."""
    project = run.project()
    group = run.root.groups.get(project.namespace["id"])
    milestone = group.milestones.create({"title": f"m{run.suffix}"})
    issue = project.issues.create({"title": "Events", "labels": ["bug"]})
    issue.labels = ["ui"]
    issue.milestone_id = milestone.id
    issue.weight = 2
    issue.save()
    issue.state_event = "close"
    issue.save()
    labels = issue.resourcelabelevents.list()
    assert [(e.action, e.label["name"], e.resource_type, e.resource_id) for e in labels] == [
        ("add", "bug", "Issue", issue.id),
        ("add", "ui", "Issue", issue.id),
        ("remove", "bug", "Issue", issue.id),
    ], [e.attributes for e in labels]
    one = issue.resourcelabelevents.get(labels[1].id)
    assert (one.id, one.label["name"], one.user["id"]) == (labels[1].id, "ui", run.root.user.id), one.attributes
    milestones = issue.resourcemilestoneevents.list()
    assert [(e.action, e.milestone["id"], e.state) for e in milestones] == [("add", milestone.id, "opened")], [
        e.attributes for e in milestones
    ]
    assert [e.state for e in issue.resourcestateevents.list()] == ["closed"]
    # python-gitlab 3.12 has no manager for weight events (ee/lib/api/resource_weight_events.rb).
    weights = run.root.http_get(f"/projects/{project.id}/issues/{issue.iid}/resource_weight_events")
    assert [(e["issue_id"], e["weight"]) for e in weights] == [(issue.id, 2)], weights
    mr = merge_request(project)
    mr.labels = ["review"]
    mr.save()
    mr_labels = mr.resourcelabelevents.list()
    assert [(e.action, e.label["name"], e.resource_type, e.resource_id) for e in mr_labels] == [
        ("add", "review", "MergeRequest", mr.id)
    ], [e.attributes for e in mr_labels]


SCENARIOS = {
    "issues": issues,
    "issue notes": issue_notes,
    "issue discussions": issue_discussions,
    "iids filter": iids_filter,
    "merge request diff note": merge_request_diff_note,
    "resolve": resolve,
    "commit discussions": commit_discussions,
    "pagination": pagination,
    "events": events,
    "issue links": issue_links,
    "merge request changes": merge_request_changes,
    "resource events": resource_events,
}


if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
