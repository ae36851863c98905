"""Every command that reads a task file refuses an unusable one with one clear line and exit status 1."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compoworld.cli import app
from compoworld.tasks.taskset import synthesize
from tests.taskfile_support import BAD_CASES, bad_task_files

SERVICES = ["crm", "mail"]
CASES = BAD_CASES

runner = CliRunner()


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    out = tmp_path_factory.mktemp("good")
    assert synthesize(out, count=2, seed=3, services=SERVICES)["kept"] == 2
    return bad_task_files(out / "tasks.jsonl", tmp_path_factory.mktemp("bad"))


def _commands(path: Path, scratch: Path) -> dict[str, list[str]]:
    return {
        "verify": ["verify", str(path)],
        "render": ["render", str(path), "--out", str(scratch / "md")],
        "rollout": ["rollout", "--tasks", str(path), "--policy", "oracle", "--out", str(scratch / "run")],
        "export-rl": ["export", "rl", "--tasks", str(path), "--format", "trl", "--out", str(scratch / "data")],
    }


def _assert_one_line_refusal(exit_code: int, stderr: str, output: str, pattern: str) -> None:
    assert exit_code == 1, output
    assert "Traceback" not in output
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("task file error: ")
    assert re.search(pattern, lines[0]), lines[0]


@pytest.mark.parametrize("command", ["verify", "render", "rollout", "export-rl"])
@pytest.mark.parametrize("case", CASES)
def test_a_command_given_an_unusable_task_file_exits_1_with_one_line_and_no_traceback(
    command: str, case: str, bad_files: dict[str, tuple[Path, str]], tmp_path: Path
) -> None:
    path, pattern = bad_files[case]
    res = runner.invoke(app, _commands(path, tmp_path)[command])
    assert isinstance(res.exception, SystemExit), res.exception
    _assert_one_line_refusal(res.exit_code, res.stderr, res.output, pattern)
    assert not (tmp_path / "md").exists() and not (tmp_path / "run").exists(), "nothing is written for a bad file"


@pytest.mark.parametrize("case", ["duplicate", "directory", "binary"])
def test_the_servers_refuse_an_unusable_task_file_as_every_other_command_does(
    case: str, bad_files: dict[str, tuple[Path, str]]
) -> None:
    path, pattern = bad_files[case]
    http = runner.invoke(app, ["serve", "http", "--services", ",".join(SERVICES), "--tasks", str(path), "--port", "0"])
    _assert_one_line_refusal(http.exit_code, http.stderr, http.output, pattern)
    mcp = runner.invoke(app, ["serve", "mcp", "--services", ",".join(SERVICES), "--task", f"{path}:some-id"])
    _assert_one_line_refusal(mcp.exit_code, mcp.stderr, mcp.output, pattern)


def test_rollout_of_a_directory_in_a_real_process_says_which_file_was_meant(
    bad_files: dict[str, tuple[Path, str]], tmp_path: Path
) -> None:
    path, pattern = bad_files["directory"]
    cmd = [sys.executable, "-m", "compoworld.cli", *_commands(path, tmp_path)["rollout"]]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    _assert_one_line_refusal(res.returncode, res.stderr, res.stdout + res.stderr, pattern)
    assert "did you mean" in res.stderr
