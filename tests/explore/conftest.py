"""A small task set with an oracle run and a random run, made once for the explorer's tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SERVICES = ["crm", "mail", "helpdesk", "shop", "invoicing", "teamchat"]


def _cli(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "compoworld", *args], check=True, capture_output=True, text=True)


@pytest.fixture(scope="session")
def explore_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tasks/tasks.jsonl`` (12 tasks over six services) and ``runs/oracle``, ``runs/random`` (2 rollouts each)."""
    root = tmp_path_factory.mktemp("explore")
    services = [a for s in SERVICES for a in ("--service", s)]
    _cli("synth", "--tasks", "12", *services, "--out", str(root / "tasks"))
    tasks = str(root / "tasks" / "tasks.jsonl")
    _cli("rollout", "--tasks", tasks, "--policy", "oracle", "--out", str(root / "runs" / "oracle"))
    _cli("rollout", "--tasks", tasks, "--policy", "random", "--group-size", "2", "--out", str(root / "runs" / "random"))
    return root
