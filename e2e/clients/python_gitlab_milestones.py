"""Drives project milestones with python-gitlab 3.12 (Debian's python3-gitlab): project.milestones.list/create/
get, milestone.save() (state_event too), milestone.promote() and milestone.delete().

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_milestones.py <scenario>
Prints one JSON object {"ok": true, "checked": [<scenario>]}; exits non-zero with the failed assertion otherwise.
"""
import time
import warnings

import gitlab
from _runner import RootRun, run_scenarios

warnings.simplefilter("error", UserWarning)


class Run(RootRun):
    """The root client of this run, a group and a project in it."""

    def project(self):
        group = self.root.groups.create(
            {"name": f"pym{self.suffix}", "path": f"pym{self.suffix}", "visibility": "private"}
        )
        return group, self.root.projects.create({"name": "app", "namespace_id": group.id})


def crud(run: Run) -> None:
    _group, project = run.project()
    first = project.milestones.create({"title": "1.0", "due_date": "2027-01-31", "start_date": "2027-01-01"})
    assert first.iid == 1 and first.project_id == project.id and first.state == "active", first.attributes
    second = project.milestones.create({"title": "2.0", "description": "Later"})
    assert second.iid == 2, second.attributes
    fetched = project.milestones.get(first.id)
    assert fetched.title == "1.0" and fetched.due_date == "2027-01-31", fetched.attributes
    fetched.description = "First release"
    fetched.state_event = "close"
    fetched.save()
    assert fetched.state == "closed" and fetched.description == "First release", fetched.attributes
    closed = [m.title for m in project.milestones.list(state="closed")]
    assert closed == ["1.0"], closed
    found = [m.title for m in project.milestones.list(search="later")]
    assert found == ["2.0"], found
    by_iid = [m.title for m in project.milestones.list(iids=[second.iid])]
    assert by_iid == ["2.0"], by_iid
    try:
        project.milestones.create({"title": "2.0"})
    except gitlab.exceptions.GitlabCreateError as err:
        assert err.response_code == 400 and "already being used" in str(err.error_message), err.error_message
    else:
        raise AssertionError("expected 400 for a taken title")
    second.delete()
    try:
        project.milestones.get(second.id)
    except gitlab.exceptions.GitlabGetError as err:
        assert err.response_code == 404, err.response_code
    else:
        raise AssertionError("expected 404 after delete")


def promote(run: Run) -> None:
    group, project = run.project()
    milestone = project.milestones.create({"title": "Q3", "description": "Quarter"})
    milestone.promote()
    promoted = [(m.title, m.description) for m in group.milestones.list(all=True)]
    assert promoted == [("Q3", "Quarter")], promoted
    own = [m.title for m in project.milestones.list(all=True)]
    assert own == [], own
    parents = [m.title for m in project.milestones.list(all=True, include_parent_milestones=True)]
    assert parents == ["Q3"], parents


def issues(run: Run) -> None:
    """An issue opened on a project milestone: milestone.issues() lists it (the copy reaches discussions)."""
    _group, project = run.project()
    milestone = project.milestones.create({"title": "Sprint"})
    issue = project.issues.create({"title": "Planned", "milestone_id": milestone.id})
    assert issue.milestone["id"] == milestone.id, issue.attributes
    listed = []
    for _ in range(50):
        listed = [i.iid for i in milestone.issues()]
        if listed:
            break
        time.sleep(0.1)
    assert listed == [issue.iid], listed
    assert list(milestone.merge_requests()) == []


SCENARIOS = {"crud": crud, "promote": promote, "issues": issues}

if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
