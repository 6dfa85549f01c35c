"""Drives project and group issue boards with python-gitlab 3.12 (Debian's python3-gitlab): boards.create/list/
get, board.save() and board.delete(), board.lists.create/list/get, list.save() (a move) and list.delete().

Usage: GL_URL=http://127.0.0.1:8080 GL_TOKEN=... python3 python_gitlab_boards.py <scenario>
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
            {"name": f"pyb{self.suffix}", "path": f"pyb{self.suffix}", "visibility": "private"}
        )
        return group, self.root.projects.create({"name": "app", "namespace_id": group.id})


def expect_404(get) -> None:
    try:
        get()
    except gitlab.exceptions.GitlabGetError as err:
        assert err.response_code == 404, err.response_code
    else:
        raise AssertionError("expected 404")


def lists_of(board):
    return [(item.label["name"], item.position) for item in board.lists.list(all=True)]


def project_boards(run: Run) -> None:
    """A project board with a list of the project's label and one of the group's; a move; deletes."""
    group, project = run.project()
    own = project.labels.create({"name": "needs: review", "color": "#FF0000"})
    shared = group.labels.create({"name": "team", "color": "#0000FF"})
    board = project.boards.create({"name": "Development"})
    assert board.name == "Development" and board.project["id"] == project.id, board.attributes
    other = project.boards.create({"name": "Releases"})
    assert [b.name for b in project.boards.list(all=True)] == ["Development", "Releases"]
    first = board.lists.create({"label_id": own.id})
    second = board.lists.create({"label_id": shared.id})
    assert (first.position, second.position) == (0, 1), (first.attributes, second.attributes)
    assert lists_of(board) == [("needs: review", 0), ("team", 1)], lists_of(board)
    moved = board.lists.get(second.id)
    moved.position = 0
    moved.save()
    assert lists_of(board) == [("team", 0), ("needs: review", 1)], lists_of(board)
    board.name = "Dev"
    board.save()
    assert project.boards.get(board.id).name == "Dev"
    board.lists.get(first.id).delete()
    assert lists_of(board) == [("team", 0)], lists_of(board)
    other.delete()
    expect_404(lambda: project.boards.get(other.id))


def group_boards(run: Run) -> None:
    """A group board with a list of a group label, fetched back and removed."""
    group, _project = run.project()
    label = group.labels.create({"name": "doing", "color": "#00FF00"})
    board = group.boards.create({"name": "Team"})
    assert board.group["id"] == group.id, board.attributes
    created = board.lists.create({"label_id": label.id})
    assert group.boards.get(board.id).lists.get(created.id).label["name"] == "doing"
    board.delete()
    expect_404(lambda: group.boards.get(board.id))


SCENARIOS = {"project boards": project_boards, "group boards": group_boards}

if __name__ == "__main__":
    run_scenarios(__file__, SCENARIOS, Run)
