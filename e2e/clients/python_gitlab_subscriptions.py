"""Drives subscriptions, reviewers, weights and epic_id with python-gitlab 3.12 (Debian's python3-gitlab):
issue.subscribe()/unsubscribe(), mr.subscribe(), group label.subscribe(), mr reviewer_ids, issue weight and
epic_id through save().

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_subscriptions.py <scenario>
Prints one JSON object {"ok": true, "checked": [<scenario>]}; exits non-zero with the failed assertion otherwise.
"""
import time
import warnings

import gitlab
from _runner import RootRun, run_scenarios

warnings.simplefilter("error", UserWarning)


class Run(RootRun):
    """The root client of this run and what its scenarios build on it."""

    def group(self):
        return self.root.groups.create(
            {"name": f"pys{self.suffix}", "path": f"pys{self.suffix}", "visibility": "public"}
        )

    def project(self, group=None):
        group = group or self.group()
        return self.root.projects.create({"name": "app", "namespace_id": group.id, "visibility": "public"})


def expect_not_modified(call, error) -> None:
    """GitLab answers an unchanged subscription 304, which python-gitlab raises as its subscribe error."""
    try:
        call()
    except error as err:
        assert err.response_code == 304, err.response_code
    else:
        raise AssertionError("expected 304 Not Modified")


def issue(run: Run) -> None:
    project = run.project()
    created = project.issues.create({"title": "Bug"})
    # The author takes part, so is subscribed already.
    assert project.issues.get(created.iid).subscribed is True
    expect_not_modified(created.subscribe, gitlab.exceptions.GitlabSubscribeError)
    created.unsubscribe()
    assert created.subscribed is False, created.subscribed
    assert project.issues.get(created.iid).subscribed is False
    expect_not_modified(created.unsubscribe, gitlab.exceptions.GitlabUnsubscribeError)
    created.subscribe()
    assert created.subscribed is True, created.subscribed
    assert created.title == "Bug", created.title


def merge_request(run: Run) -> None:
    project = run.project()
    mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Feature"})
    mr.unsubscribe()
    assert mr.subscribed is False, mr.subscribed
    mr.subscribe()
    assert project.mergerequests.get(mr.iid).subscribed is True
    expect_not_modified(mr.subscribe, gitlab.exceptions.GitlabSubscribeError)


def reviewers(run: Run) -> None:
    project = run.project()
    username = f"rev{run.suffix}"
    user = run.root.users.create(
        {"username": username, "name": "Reviewer", "email": f"{username}@example.com", "password": "long-enough-pass"}
    )
    project.members.create({"user_id": user.id, "access_level": 30})
    mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Feature"})
    # The user reaches discussions through the identity events (eventually): ask again until they count.
    deadline = time.time() + 15
    while True:
        mr.reviewer_ids = [user.id]
        mr.save()
        shown = project.mergerequests.get(mr.iid)
        if shown.reviewers or time.time() > deadline:
            break
        time.sleep(0.5)
    assert [r["username"] for r in shown.reviewers] == [username], shown.reviewers
    listed = project.mergerequests.list(iids=[mr.iid])
    assert [r["id"] for r in listed[0].reviewers] == [user.id], listed[0].reviewers
    shown.reviewer_ids = []
    shown.save()
    assert project.mergerequests.get(mr.iid).reviewers == []


def group_label(run: Run) -> None:
    group = run.group()
    label = group.labels.create({"name": "needs review", "color": "#FF0000"})
    assert label.subscribed is False, label.subscribed
    label.subscribe()
    assert label.subscribed is True, label.subscribed
    assert group.labels.get("needs review").subscribed is True
    expect_not_modified(label.subscribe, gitlab.exceptions.GitlabSubscribeError)
    label.unsubscribe()
    assert label.subscribed is False, label.subscribed


def weight_and_epic(run: Run) -> None:
    group = run.group()
    project = run.project(group)
    epic = group.epics.create({"title": "Roadmap"})
    created = project.issues.create({"title": "Bug", "weight": 2})
    assert created.weight == 2, created.weight
    created.weight = 5
    created.epic_id = epic.id
    created.save()
    again = project.issues.get(created.iid)
    assert again.weight == 5, again.weight
    assert again.epic_iid == epic.iid, again.epic_iid
    assert again.epic["id"] == epic.id, again.epic
    assert [i.iid for i in epic.issues.list()] == [created.iid]
    again.epic_id = 0
    again.save()
    assert project.issues.get(created.iid).epic_iid is None
    again.epic_id = 999999
    try:
        again.save()
    except gitlab.exceptions.GitlabUpdateError as err:
        assert err.response_code == 404, err.response_code
    else:
        raise AssertionError("an unknown epic was accepted")


SCENARIOS = {
    "issue": issue,
    "merge request": merge_request,
    "reviewers": reviewers,
    "group label": group_label,
    "weight and epic": weight_and_epic,
}

if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
