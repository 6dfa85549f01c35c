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
}


if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
