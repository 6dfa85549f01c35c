"""Drives the discussions service with python-gitlab 3.12 (Debian's python3-gitlab): issue notes and
threads, the v4 `iids` filter, merge request threads with a diff note whose `position` goes out as nested
JSON, resolving a thread with a JSON body {"resolved": true}, commit threads, and Link-header pagination.

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_discussions.py
Prints one JSON object with what it checked; exits non-zero on the first failure.
"""
import json
import os
import re
import sys
import time
import warnings

import gitlab

warnings.simplefilter("error", UserWarning)

HEX40 = re.compile(r"^[0-9a-f]{40}$")


def main() -> None:
    url, token = os.environ["GL_URL"], os.environ["GL_TOKEN"]
    suffix = format(int(time.time() * 1000), "x")
    checked = []
    root = gitlab.Gitlab(url, private_token=token)
    root.auth()

    group = root.groups.create({"name": f"pyd{suffix}", "path": f"pyd{suffix}", "visibility": "private"})
    project = root.projects.create({"name": "app", "namespace_id": group.id})

    issue = project.issues.create({"title": "Bug", "description": "It breaks"})
    assert issue.iid == 1 and issue.state == "opened", issue
    assert project.issues.get(issue.iid).title == "Bug"
    issue.state_event = "close"
    issue.save()
    assert project.issues.get(issue.iid).state == "closed"
    checked.append("issues")

    note = issue.notes.create({"body": "single comment"})
    assert note.body == "single comment" and note.system is False, note
    assert issue.notes.get(note.id).body == "single comment"
    note.body = "edited comment"
    note.save()
    assert issue.notes.get(note.id).body == "edited comment"
    bodies = [n.body for n in issue.notes.list(get_all=True)]
    assert "edited comment" in bodies and "closed" in bodies, bodies
    checked.append("issue notes")

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
    checked.append("issue discussions")

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
    mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Feature"})
    others = [project.issues.create({"title": f"Other {i}"}) for i in range(2)]
    by_iids = project.issues.list(iids=[issue.iid, others[1].iid], get_all=True)  # v4's iids[] filter
    assert sorted(i.iid for i in by_iids) == [issue.iid, others[1].iid], [i.iid for i in by_iids]
    assert [m.iid for m in project.mergerequests.list(iids=[mr.iid], get_all=True)] == [mr.iid]
    assert project.mergerequests.list(iids=[mr.iid + 1], get_all=True) == []
    checked.append("iids filter")

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
    diff = mr.discussions.create({"body": "nit", "position": position})  # nested JSON
    first = diff.attributes["notes"][0]
    assert first["type"] == "DiffNote" and first["resolvable"] is True, first
    assert first["position"]["new_line"] == 1 and first["position"]["head_sha"] == refs["head_sha"], first
    diff.notes.create({"body": "fixed"})
    mr.notes.create({"body": "LGTM"})
    checked.append("merge request diff note")

    to_resolve = mr.discussions.get(diff.id)
    to_resolve.resolved = True
    to_resolve.save()  # PUT JSON {"resolved": true}
    resolved = mr.discussions.get(diff.id)
    assert all(n["resolved"] for n in resolved.attributes["notes"]), resolved.attributes
    assert resolved.attributes["notes"][0]["resolved_by"]["id"] == root.user.id
    to_resolve.resolved = False
    to_resolve.save()
    assert not any(n["resolved"] for n in mr.discussions.get(diff.id).attributes["notes"])
    checked.append("resolve")

    commit = project.commits.get(feature.id)
    commit_thread = commit.discussions.create({"body": "Why?"})
    assert HEX40.match(commit_thread.id), commit_thread.id
    commit_thread.notes.create({"body": "Because"})
    listed = commit.discussions.list(get_all=True)
    assert [[n["body"] for n in d.attributes["notes"]] for d in listed] == [["Why?", "Because"]], listed
    checked.append("commit discussions")

    paged = project.issues.create({"title": "Paged"})
    for i in range(5):
        paged.discussions.create({"body": f"thread {i}"})
    pages = paged.discussions.list(per_page=2, iterator=True)  # follows Link rel="next"
    all_threads = [d.attributes["notes"][0]["body"] for d in pages]
    assert all_threads == [f"thread {i}" for i in range(5)], all_threads
    assert pages.total == 5 and pages.total_pages == 3, (pages.total, pages.total_pages)
    checked.append("pagination")

    print(json.dumps({"ok": True, "checked": checked}))


if __name__ == "__main__":
    try:
        main()
    except Exception as exc:  # report what failed, in one line, for the jest assertion message
        print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"}))
        sys.exit(1)
