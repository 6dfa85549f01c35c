"""Drives the identity catalogue with python-gitlab 3.12 (Debian's python3-gitlab), the strictest of the
clients: it compares Content-Type literally, sends booleans as True/False, adds stray `id` params, and
warns when a pagination Link points at another host (turned into an error here).

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_identity.py
Prints one JSON object with what it checked; exits non-zero on the first failure.
"""
import json
import os
import sys
import time
import warnings

import gitlab

warnings.simplefilter("error", UserWarning)


def main() -> None:
    url, token = os.environ["GL_URL"], os.environ["GL_TOKEN"]
    suffix = format(int(time.time() * 1000), "x")
    checked = []
    root = gitlab.Gitlab(url, private_token=token, per_page=2)
    root.auth()
    assert root.user.username == "root" and root.user.id == 1, root.user
    checked.append("auth")

    user = root.users.create(
        {"username": f"py{suffix}", "name": "Py Dev", "email": f"py{suffix}@example.com", "password": "long-enough-pass"}
    )
    token_obj = user.personal_access_tokens.create({"name": "py", "scopes": ["api"]})
    dev = gitlab.Gitlab(url, private_token=token_obj.token)
    dev.auth()
    assert dev.user.id == user.id
    checked.append("user+token")

    group = root.groups.create({"name": f"pyg{suffix}", "path": f"pyg{suffix}", "visibility": "private"})
    sub = root.groups.create({"name": "sub", "path": "sub", "parent_id": group.id})
    assert sub.full_path == f"pyg{suffix}/sub", sub.full_path
    project = root.projects.create({"name": "proj", "namespace_id": sub.id})
    assert root.projects.get(f"pyg{suffix}/sub/proj").id == project.id
    checked.append("groups+projects by path")

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
    checked.append("members")

    owned = root.groups.list(owned=True, get_all=True)  # sends owned=True
    assert any(g.id == group.id for g in owned)
    for i in range(5):
        root.projects.create({"name": f"pylist{suffix}-{i}"})
    listed = root.projects.list(search=f"pylist{suffix}", get_all=True)  # follows Link rel="next", 2 per page
    assert len(listed) == 5, len(listed)
    checked.append("pagination")

    project.star()
    assert root.projects.get(project.id).star_count == 1
    project.unstar()
    root.projects.delete(project.id)  # 202 with a JSON body
    group.members.delete(user.id)  # 204
    checked.append("star+delete")

    print(json.dumps({"ok": True, "checked": checked}))


if __name__ == "__main__":
    try:
        main()
    except Exception as exc:  # report what failed, in one line, for the jest assertion message
        print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"}))
        sys.exit(1)
