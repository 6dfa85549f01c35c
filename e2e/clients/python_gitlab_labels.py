"""Drives project labels with python-gitlab 3.12 (Debian's python3-gitlab): project.labels.list/create/get,
label.save() (the deprecated PUT /projects/:id/labels), label.subscribe()/unsubscribe(), label.promote() and
label.delete().

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_labels.py <scenario>
Prints one JSON object {"ok": true, "checked": [<scenario>]}; exits non-zero with the failed assertion otherwise.
"""
import warnings

import gitlab
from _runner import RootRun, run_scenarios

warnings.simplefilter("error", UserWarning)


class Run(RootRun):
    """The root client of this run, a group and a project in it."""

    def project(self):
        group = self.root.groups.create(
            {"name": f"pyl{self.suffix}", "path": f"pyl{self.suffix}", "visibility": "private"}
        )
        return group, self.root.projects.create({"name": "app", "namespace_id": group.id})


def crud(run: Run) -> None:
    group, project = run.project()
    group.labels.create({"name": "team", "color": "#0000FF"})
    created = project.labels.create({"name": "needs: review", "color": "#FF0000", "priority": 2})
    assert created.is_project_label is True and created.priority == 2, created.attributes
    fetched = project.labels.get("needs: review")
    assert fetched.id == created.id, fetched.attributes
    fetched.new_name = "needs: triage"
    fetched.description = "Look at it"
    fetched.save()
    assert fetched.name == "needs: triage" and fetched.description == "Look at it", fetched.attributes
    names = sorted((label.name, label.is_project_label) for label in project.labels.list(all=True))
    assert names == [("needs: triage", True), ("team", False)], names
    own = [label.name for label in project.labels.list(all=True, include_ancestor_groups=False)]
    assert own == ["needs: triage"], own
    project.labels.get(created.id).delete()
    try:
        project.labels.get(created.id)
    except gitlab.exceptions.GitlabGetError as err:
        assert err.response_code == 404, err.response_code
    else:
        raise AssertionError("expected 404 after delete")


def subscribe_promote(run: Run) -> None:
    group, project = run.project()
    label = project.labels.create({"name": "infra ops", "color": "#AA0000"})
    label.subscribe()
    assert label.subscribed is True, label.attributes
    try:
        label.subscribe()
    except gitlab.exceptions.GitlabSubscribeError as err:
        assert err.response_code == 304, err.response_code
    else:
        raise AssertionError("expected 304 Not Modified")
    label.unsubscribe()
    assert label.subscribed is False, label.attributes
    label.promote()
    promoted = group.labels.get("infra ops")
    assert promoted.name == "infra ops" and promoted.is_project_label is False, promoted.attributes
    listed = [(l.name, l.is_project_label) for l in project.labels.list(all=True)]
    assert listed == [("infra ops", False)], listed


SCENARIOS = {"crud": crud, "subscribe+promote": subscribe_promote}

if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
