"""What every python-gitlab client script shares: the root client of a run and the scenario runner.

A script defines its scenarios (functions taking its Run) and ends with
`if __name__ == "__main__": run_scenarios(__file__, SCENARIOS, Run)`; the jest spec runs it once per
scenario and reads the one JSON line it prints.
"""

import json
import os
import secrets
import sys
import time
from typing import Callable, Dict, TypeVar

import gitlab


class RootRun:
    """The root client and a suffix that keeps this run's names apart from every other run's."""

    def __init__(self, **client_options) -> None:
        self.url = os.environ["GL_URL"]
        self.suffix = format(int(time.time() * 1000), "x") + secrets.token_hex(2)
        self.root = gitlab.Gitlab(self.url, private_token=os.environ["GL_TOKEN"], **client_options)
        self.root.auth()


R = TypeVar("R")


def run_scenarios(script: str, scenarios: Dict[str, Callable[[R], None]], make_run: Callable[[], R]) -> None:
    """Runs the scenario named by the only argument; prints {"ok": true, ...} or the failure in one line."""
    try:
        if len(sys.argv) != 2 or sys.argv[1] not in scenarios:
            raise ValueError(f"usage: {os.path.basename(script)} <scenario>, one of {sorted(scenarios)}")
        name = sys.argv[1]
        scenarios[name](make_run())
        print(json.dumps({"ok": True, "checked": [name]}))
    except Exception as exc:  # report what failed, in one line, for the jest assertion message
        print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"}))
        sys.exit(1)
