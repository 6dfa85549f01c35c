"""Drives the administrators' user endpoints and the identity calls a new user tries first with python-gitlab
3.12 (Debian's python3-gitlab): moderation (block, ban, deactivate), profile edits, deletion, e-mails,
personal access tokens, memberships, group and project transfers and feature switches.

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_identity_admin.py <scenario>
Each scenario creates what it needs under names of its own. Prints one JSON object
{"ok": true, "checked": [<scenario>]}; exits non-zero with the failed assertion otherwise.
"""
import warnings

import gitlab
from _runner import RootRun, run_scenarios

warnings.simplefilter("error", UserWarning)


class Run(RootRun):
    """The root client of this run and what its scenarios build on it."""

    def __init__(self) -> None:
        super().__init__(per_page=2)
        self.count = 0

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.suffix}{self.count}"

    def user(self):
        """A new user and a python-gitlab client authenticated with their own api token (not yet used)."""
        username = self.name("pa")
        user = self.root.users.create(
            {"username": username, "name": "Py Admin", "email": f"{username}@example.com", "password": "long-enough-pass"}
        )
        token = user.personal_access_tokens.create({"name": "py", "scopes": ["api"]})
        return user, gitlab.Gitlab(self.url, private_token=token.token)


def expect_error(call, code: int, message=None):
    try:
        call()
    except gitlab.exceptions.GitlabError as err:
        assert err.response_code == code, (err.response_code, err.error_message)
        if message is not None:
            assert err.error_message == message, err.error_message
        return
    raise AssertionError(f"expected {code}")


def moderation(run: Run) -> None:
    user, client = run.user()
    assert user.block() is True and user.state == "blocked"
    expect_error(client.auth, 403, "403 Forbidden - Your account has been blocked.")
    assert user.block() is None  # already blocked: GitLab `break`s, the body is null
    assert user.unblock() is True
    client.auth()
    assert client.user.id == user.id
    expect_error(user.deactivate, 403)  # the token was just used: active in the past 90 days

    dormant, dormant_client = run.user()
    assert dormant.deactivate() is True and dormant.state == "deactivated"
    expect_error(dormant_client.auth, 403)
    expect_error(dormant.unblock, 403, "403 Forbidden - Deactivated users cannot be unblocked by the API")
    assert dormant.activate() is True
    assert dormant.ban() is True and dormant.state == "banned"
    expect_error(dormant.ban, 403, "You cannot ban banned users.")
    assert dormant.unban() is True
    expect_error(dormant.unban, 403, "You cannot unban active users.")
    expect_error(run.root.users.get(1, lazy=True).block, 403, "403 Forbidden - The API initiating user cannot be blocked by the API")


def profile_and_delete(run: Run) -> None:
    user, client = run.user()
    user.bio = "Writes python"
    user.location = "Porto"
    user.save()  # PUT /users/:id with the changed attributes
    fresh = run.root.users.get(user.id)
    assert (fresh.bio, fresh.location) == ("Writes python", "Porto"), (fresh.bio, fresh.location)

    project = client.projects.create({"name": run.name("pyproj")})
    listed = run.root.users.get(user.id, lazy=True).projects.list(get_all=True)
    assert [p.id for p in listed] == [project.id], listed
    group = run.root.groups.create({"name": run.name("pyg"), "path": run.name("pyg")})
    group.members.create({"user_id": user.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
    memberships = user.memberships.list(get_all=True)
    rows = [(m.source_id, m.source_type, m.access_level) for m in memberships]
    assert rows == [(project.id, "Project", 50), (group.id, "Namespace", 30)], rows

    run.root.users.delete(user.id)  # 204
    expect_error(lambda: run.root.users.get(user.id), 404, "404 User Not Found")
    expect_error(lambda: run.root.projects.get(project.id), 404)

    owner, owner_client = run.user()
    owned = owner_client.groups.create({"name": run.name("solo"), "path": run.name("solo")})
    expect_error(lambda: run.root.users.delete(owner.id), 409, "User cannot be removed while is the sole-owner of a group")
    run.root.users.delete(owner.id, hard_delete=True)
    expect_error(lambda: run.root.groups.get(owned.id), 404)


def emails_and_tokens(run: Run) -> None:
    user, client = run.user()
    client.auth()
    address = f"{run.name('second')}@example.com"
    email = client.user.emails.create({"email": address})  # POST /user/emails
    assert email.email == address and email.confirmed_at is None, email
    assert client.user.emails.get(email.id).email == address
    assert address in [e.email for e in client.user.emails.list(get_all=True)]
    email.delete()  # DELETE /user/emails/:id
    expect_error(lambda: client.user.emails.get(email.id), 404, "404 Email Not Found")

    admin_added = user.emails.create({"email": f"{run.name('adm')}@example.com"})  # POST /users/:id/emails
    user.emails.delete(admin_added.id)  # DELETE /users/:id/emails/:email_id

    second = user.personal_access_tokens.create({"name": "second", "scopes": ["read_api"]})
    mine = client.personal_access_tokens.list(get_all=True)
    assert sorted(t.name for t in mine) == ["py", "second"], [t.name for t in mine]
    assert all(t.user_id == user.id for t in mine)
    listed = run.root.personal_access_tokens.list(user_id=user.id, get_all=True)
    assert len(listed) == 2, listed
    client.personal_access_tokens.delete(second.id)  # DELETE /personal_access_tokens/:id
    expect_error(lambda: gitlab.Gitlab(run.url, private_token=second.token).auth(), 401)


def groups(run: Run) -> None:
    user, client = run.user()
    top = client.groups.create({"name": run.name("pytop"), "path": run.name("pytop"), "visibility": "public"})
    child = client.groups.create({"name": "child", "path": "child", "parent_id": top.id})
    grandchild = client.groups.create({"name": "grand", "path": "grand", "parent_id": child.id})
    below = top.descendant_groups.list(get_all=True)  # GET /groups/:id/descendant_groups, 2 per page
    assert sorted(g.id for g in below) == sorted([child.id, grandchild.id]), below
    skipped = client.groups.list(skip_groups=[top.id, child.id], owned=True, get_all=True)
    assert [g.id for g in skipped] == [grandchild.id], [g.id for g in skipped]

    target = client.groups.create({"name": run.name("pydest"), "path": run.name("pydest"), "visibility": "private"})
    child.transfer(target.id)  # POST /groups/:id/transfer
    moved = client.groups.get(grandchild.id)
    assert moved.full_path == f"{target.path}/child/grand", moved.full_path
    assert moved.visibility == "private", moved.visibility
    child.transfer()  # to the top level
    assert client.groups.get(child.id).full_path == "child" or client.groups.get(child.id).parent_id is None
    try:
        top.transfer()
        raise AssertionError("expected 400 for a root group")
    except gitlab.exceptions.GitlabGroupTransferError as err:
        assert err.response_code == 400 and err.error_message == "Transfer failed: Group is already a root group.", err

    namespaces = client.namespaces.list(get_all=True)
    assert namespaces[0].kind == "user" and namespaces[0].path == user.username, namespaces[0]
    assert {top.id, target.id} <= {n.id for n in namespaces}, namespaces
    assert client.namespaces.get(target.id).members_count_with_descendants == 1


def projects(run: Run) -> None:
    user, client = run.user()
    project = client.projects.create({"name": run.name("pyfeat")})
    project.issues_enabled = False
    project.snippets_enabled = False
    project.merge_requests_access_level = "private"
    project.save()  # PUT /projects/:id with the switches
    fresh = client.projects.get(project.id)
    assert (fresh.issues_enabled, fresh.issues_access_level) == (False, "disabled"), fresh.issues_access_level
    assert fresh.snippets_enabled is False and fresh.merge_requests_access_level == "private"

    top = client.groups.create({"name": run.name("pypg"), "path": run.name("pypg"), "visibility": "private"})
    sub = client.groups.create({"name": "sub", "path": "sub", "parent_id": top.id})
    project.transfer(sub.full_path)  # PUT /projects/:id/transfer
    moved = client.projects.get(project.id)
    assert moved.path_with_namespace == f"{sub.full_path}/{project.path}", moved.path_with_namespace
    assert moved.visibility == "private"
    groups = [g.id for g in moved.groups.list(get_all=True)]  # GET /projects/:id/groups
    assert groups == [sub.id, top.id], groups
    try:
        project.transfer(sub.id)
        raise AssertionError("expected 400 for the same namespace")
    except gitlab.exceptions.GitlabTransferProjectError as err:
        assert err.response_code == 400, err.response_code
        assert err.error_message == 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}', err.error_message


def group_label_save(run: Run) -> None:
    group = run.root.groups.create({"name": run.name("pylab"), "path": run.name("pylab")})
    label = group.labels.create({"name": "triage", "color": "#112233"})
    label.color = "#445566"
    label.description = "Needs a look"
    label.save()  # PUT /groups/:id/labels with the label's name in the body
    again = [item for item in group.labels.list(get_all=True) if item.name == "triage"][0]
    assert (again.color, again.description) == ("#445566", "Needs a look"), (again.color, again.description)
    label.new_name = "triaged"
    label.save()
    assert [item.name for item in group.labels.list(get_all=True)] == ["triaged"]


SCENARIOS = {
    "moderation": moderation,
    "profile+delete": profile_and_delete,
    "emails+tokens": emails_and_tokens,
    "groups": groups,
    "projects": projects,
    "group label save": group_label_save,
}


if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
