"""Drives personal snippets with python-gitlab 3.12 (Debian's python3-gitlab): gl.snippets.create, list,
public, get, content(), save and delete, with a second user to show visibility; /snippets/all through the
manager's list(path=...) (3.12 has no list_all).

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_snippets.py <scenario>
Prints one JSON object {"ok": true, "checked": [<scenario>]}; exits non-zero with the failed assertion otherwise.
"""
import warnings

import gitlab
from _runner import RootRun, run_scenarios

warnings.simplefilter("error", UserWarning)


class Run(RootRun):
    """The root client of this run and what its scenarios build on it."""

    def user(self) -> gitlab.Gitlab:
        name = f"pysnip{self.suffix}"
        user = self.root.users.create(
            {"username": name, "name": name, "email": f"{name}@example.com", "password": "Correct-horse-9"}
        )
        token = user.personal_access_tokens.create({"name": "e2e", "scopes": ["api"]})
        client = gitlab.Gitlab(self.url, private_token=token.token)
        client.auth()
        return client


def personal(run: Run) -> None:
    other = run.user()
    title = f"py {run.suffix}"
    secret = run.root.snippets.create(
        {"title": f"{title} secret", "file_name": "s.py", "content": "print('s')", "visibility": "private"}
    )
    open_one = run.root.snippets.create(
        {"title": f"{title} open", "file_name": "o.py", "content": "print('o')", "visibility": "public"}
    )
    internal = run.root.snippets.create({"title": f"{title} internal", "file_name": "i.py", "content": "i"})
    assert internal.visibility == "internal", internal.visibility
    assert secret.project_id is None and secret.file_name == "s.py", secret.attributes

    mine = [s.id for s in run.root.snippets.list(get_all=True)]
    assert {secret.id, open_one.id, internal.id} <= set(mine), mine
    assert run.root.snippets.get(secret.id).content() == b"print('s')"

    public_ids = [s.id for s in other.snippets.public(get_all=True)]
    assert open_one.id in public_ids and internal.id not in public_ids, public_ids
    seen = [s.id for s in other.snippets.list(path="/snippets/all", get_all=True)]
    assert open_one.id in seen and internal.id in seen and secret.id not in seen, seen
    assert [s.id for s in other.snippets.list(get_all=True)] == [], "the other user has no snippets"
    try:
        other.snippets.get(secret.id)
    except gitlab.exceptions.GitlabGetError as err:
        assert err.response_code == 404, err.response_code
    else:
        raise AssertionError("another user read a private snippet")

    again = run.root.snippets.get(open_one.id)
    again.title = f"{title} renamed"
    again.content = "print('o2')"
    again.save()
    read = other.snippets.get(open_one.id)
    assert read.title == f"{title} renamed", read.title
    assert read.content() == b"print('o2')"

    try:
        other.snippets.delete(open_one.id)
    except gitlab.exceptions.GitlabDeleteError as err:
        assert err.response_code == 404, err.response_code
    else:
        raise AssertionError("another user deleted the snippet")
    again.delete()
    try:
        run.root.snippets.get(open_one.id)
    except gitlab.exceptions.GitlabGetError as err:
        assert err.response_code == 404, err.response_code
    else:
        raise AssertionError("the deleted snippet is still there")


SCENARIOS = {"personal": personal}


if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
