"""Drives the identity catalogue with python-gitlab 3.12 (Debian's python3-gitlab), the strictest of the
clients: it compares Content-Type literally, sends booleans as True/False, adds stray `id` params, and
warns when a pagination Link points at another host (turned into an error here).

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_identity.py <scenario>
Each scenario creates the users, groups and projects it needs, under names of its own. Prints one JSON
object {"ok": true, "checked": [<scenario>]}; exits non-zero with the failed assertion otherwise.
"""
import warnings

import gitlab
from _runner import RootRun, run_scenarios

warnings.simplefilter("error", UserWarning)


class Run(RootRun):
    """The root client of this run and what its scenarios build on it."""

    def __init__(self) -> None:
        super().__init__(per_page=2)

    def user(self):
        """A new user and a python-gitlab client authenticated with their own api token."""
        user = self.root.users.create(
            {
                "username": f"py{self.suffix}",
                "name": "Py Dev",
                "email": f"py{self.suffix}@example.com",
                "password": "long-enough-pass",
            }
        )
        token = user.personal_access_tokens.create({"name": "py", "scopes": ["api"]})
        dev = gitlab.Gitlab(self.url, private_token=token.token)
        dev.auth()
        return user, dev

    def tree(self):
        """A private group pyg…, its subgroup sub and the project sub/proj."""
        group = self.root.groups.create(
            {"name": f"pyg{self.suffix}", "path": f"pyg{self.suffix}", "visibility": "private"}
        )
        sub = self.root.groups.create({"name": "sub", "path": "sub", "parent_id": group.id})
        project = self.root.projects.create({"name": "proj", "namespace_id": sub.id})
        return group, sub, project


def auth(run: Run) -> None:
    assert run.root.user.username == "root" and run.root.user.id == 1, run.root.user


def user_and_token(run: Run) -> None:
    user, dev = run.user()
    assert dev.user.id == user.id


def groups_and_projects_by_path(run: Run) -> None:
    _, sub, project = run.tree()
    assert sub.full_path == f"pyg{run.suffix}/sub", sub.full_path
    assert run.root.projects.get(f"pyg{run.suffix}/sub/proj").id == project.id


def members(run: Run) -> None:
    user, dev = run.user()
    group, _, project = run.tree()
    member = group.members.create({"user_id": user.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
    assert member.access_level == 30
    member.access_level = gitlab.const.MAINTAINER_ACCESS
    member.save()
    assert group.members.get(user.id).access_level == 40
    assert dev.projects.get(project.id).id == project.id  # inherited through the parent group
    try:
        group.members.create({"user_id": user.id, "access_level": 30})
        raise AssertionError("expected 409 for an existing member")
    except gitlab.exceptions.GitlabCreateError as err:
        assert err.response_code == 409, err.response_code


def pagination(run: Run) -> None:
    group, _, _ = run.tree()
    owned = run.root.groups.list(owned=True, get_all=True)  # sends owned=True
    assert any(g.id == group.id for g in owned)
    for i in range(5):
        run.root.projects.create({"name": f"pylist{run.suffix}-{i}"})
    listed = run.root.projects.list(search=f"pylist{run.suffix}", get_all=True)  # follows Link rel="next", 2 per page
    assert len(listed) == 5, len(listed)


def star_and_delete(run: Run) -> None:
    user, _ = run.user()
    group, _, project = run.tree()
    group.members.create({"user_id": user.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
    project.star()
    assert run.root.projects.get(project.id).star_count == 1
    project.unstar()
    run.root.projects.delete(project.id)  # 202 with a JSON body
    group.members.delete(user.id)  # 204


SCENARIOS = {
    "auth": auth,
    "user+token": user_and_token,
    "groups+projects by path": groups_and_projects_by_path,
    "members": members,
    "pagination": pagination,
    "star+delete": star_and_delete,
}


if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
