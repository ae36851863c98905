"""Task sets on disk: one loader refuses every unusable task file; synthesis resumes only what it made, as it made it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from compoworld.tasks import taskset
from compoworld.tasks.synthesis import SynthConfig
from compoworld.tasks.taskset import read_tasks, synthesize, verify_file
from compoworld.tasks.walk import WalkConfig
from tests.taskfile_support import BAD_CASES, bad_task_files, damage_middle_line, kill_after

SERVICES = ["crm", "mail", "calendar", "invoicing", "payments"]
SERVICE_ARGS = [a for s in SERVICES for a in ("--service", s)]


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("good")
    assert synthesize(out, count=3, seed=3, services=SERVICES)["kept"] == 3
    return out / "tasks.jsonl"


@pytest.fixture(scope="module")
def bad_files(good: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    return bad_task_files(good, tmp_path_factory.mktemp("bad"))


CASES = BAD_CASES


@pytest.mark.parametrize("case", CASES)
def test_the_loader_refuses_an_unusable_task_file_with_one_line_naming_it(
    case: str, bad_files: dict[str, tuple[Path, str]]
) -> None:
    path, pattern = bad_files[case]
    with pytest.raises(taskset.TaskFileError, match=pattern) as caught:
        read_tasks(path)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_the_loader_reads_every_task_of_a_sound_file_and_skips_blank_lines(good: Path, tmp_path: Path) -> None:
    tasks = read_tasks(good)
    spaced = tmp_path / "spaced.jsonl"
    spaced.write_bytes(b"\n" + good.read_bytes().replace(b"\n", b"\n\n"))
    assert [t.id for t in read_tasks(spaced)] == [t.id for t in tasks] and len(tasks) == 3


def _readers() -> dict[str, Callable[[Path], Any]]:
    from compoworld.adapters.gym import CompoWorldEnv
    from compoworld.agents.policies import OraclePolicy
    from compoworld.agents.rollout import run_rollouts
    from compoworld.serve.sessions import ServeBackend
    from compoworld.train.export import export_rl
    from compoworld.train.verl_tools import write_verl_tool_config

    return {
        "verify": lambda p: verify_file(p, SERVICES),
        "rollout": lambda p: run_rollouts(p, OraclePolicy(), p.parent / "run"),
        "export-rl": lambda p: export_rl(p, p.parent / "data", "trl", services=SERVICES, parquet=False),
        "verl-tools": lambda p: write_verl_tool_config(p, p.parent / "verl.yaml", services=SERVICES),
        "gym": lambda p: CompoWorldEnv(p, services=SERVICES),
        "serve": lambda p: ServeBackend.load(SERVICES, task_files=[p]),
    }


@pytest.mark.parametrize("reader", ["verify", "rollout", "export-rl", "verl-tools", "gym", "serve"])
@pytest.mark.parametrize("case", ["duplicate", "empty", "directory"])
def test_every_reader_of_task_files_refuses_through_the_one_loader(
    reader: str, case: str, bad_files: dict[str, tuple[Path, str]]
) -> None:
    path, pattern = bad_files[case]
    with pytest.raises(taskset.TaskFileError, match=pattern):
        _readers()[reader](path)


# Synthesis resumes: settings


def _fast(out: Path, count: int, *, seed: int = 3, config: SynthConfig | None = None) -> dict[str, Any]:
    return synthesize(out, count=count, seed=seed, services=SERVICES, config=config)


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def test_a_synth_resumed_with_another_seed_is_refused_and_the_same_settings_resume_byte_identically(
    tmp_path: Path,
) -> None:
    whole, part = tmp_path / "whole", tmp_path / "part"
    _fast(whole, 5)
    _fast(part, 2)
    before = _files(part)
    with pytest.raises(ValueError, match=r"other settings \(seed: 3 there, 4 now\).*another --out directory"):
        _fast(part, 5, seed=4)
    assert _files(part) == before
    assert _fast(part, 5)["kept"] == 5
    assert (part / "tasks.jsonl").read_bytes() == (whole / "tasks.jsonl").read_bytes()


def test_a_synth_resumed_with_another_length_range_is_refused_naming_what_differs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _fast(out, 2)
    before = _files(out)
    shorter = SynthConfig(walk=WalkConfig(min_length=2, max_length=5))
    with pytest.raises(ValueError, match=r"max_length: 6 there, 5 now; min_length: 3 there, 2 now") as caught:
        _fast(out, 4, config=shorter)
    assert "seed" not in str(caught.value)
    assert _files(out) == before
    assert _fast(out, 3, config=SynthConfig(walk=WalkConfig(min_length=3, max_length=6)))["kept"] == 3


def test_a_synth_directory_without_recorded_settings_is_still_refused_another_seed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _fast(out, 2)
    progress = json.loads((out / "progress.json").read_text())
    del progress["settings"]  # as directories made before settings were recorded
    (out / "progress.json").write_text(json.dumps(progress))
    with pytest.raises(ValueError, match=r"seed: 3 there, 9 now"):
        _fast(out, 3, seed=9)


def test_synth_over_the_cli_refuses_other_settings_in_one_line_with_what_to_do(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _fast(out, 1)
    cmd = [sys.executable, "-m", "compoworld.cli", "synth", "--tasks", "2", "--out", str(out), *SERVICE_ARGS]
    res = subprocess.run([*cmd, "--seed", "3", "--max-length", "5"], capture_output=True, text=True, check=False)
    assert res.returncode == 2
    assert res.stderr.strip().count("\n") == 0 and "Traceback" not in res.stderr
    assert "max_length: 6 there, 5 now" in res.stderr and "another --out directory" in res.stderr


# Synthesis resumes: a killed run whose file was then damaged in the middle

_SYNTH = [sys.executable, "-m", "compoworld.cli", "synth", "--seed", "7", *SERVICE_ARGS]


def test_a_killed_synth_with_a_corrupt_middle_line_refuses_then_skips_it_keeping_every_valid_line(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    target = out / "tasks.jsonl"
    # Far more tasks than it gets to make before the kill; the resumes then ask for a few more than are left
    # (the count is not a setting, so a resume may change it).
    kill_after([*_SYNTH, "--tasks", "300", "--out", str(out)], target, lines=8)
    damaged, valid = damage_middle_line(target, 4)
    count = len(valid) + 5
    resume = [*_SYNTH, "--tasks", str(count)]

    refused = subprocess.run([*resume, "--out", str(out)], capture_output=True, text=True, check=False)
    assert refused.returncode == 1, refused.stderr
    assert refused.stderr.strip().count("\n") == 0 and "Traceback" not in refused.stderr, refused.stderr
    assert "tasks.jsonl:4: line 4 " in refused.stderr and "--skip-bad-lines" in refused.stderr, refused.stderr
    assert target.read_bytes() == damaged

    copy = tmp_path / "copy"
    copy.mkdir()
    for f in out.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    for where in (out, copy):
        done = subprocess.run(
            [*resume, "--out", str(where), "--skip-bad-lines"], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        assert "moved 1 damaged line(s)" in done.stderr, done.stderr
    lines = target.read_bytes().splitlines(keepends=True)
    assert lines[: len(valid)] == valid  # before and after the bad line, byte for byte
    tasks = read_tasks(target)
    assert len(tasks) == count and len({t.id for t in tasks}) == count, [t.id for t in tasks]
    assert [t.index for t in tasks] == sorted(t.index for t in tasks), [t.index for t in tasks]
    moved = json.loads((out / "tasks.jsonl.bad").read_text())
    assert moved["line"] == 4 and moved["text"].encode() + b"\n" == damaged.splitlines(keepends=True)[3]
    assert json.loads((out / "stats.json").read_text())["skipped_lines"] == 1
    assert target.read_bytes() == (copy / "tasks.jsonl").read_bytes(), "skipping is deterministic"


COVER_SERVICES = [
    "crm",
    "mail",
    "helpdesk",
    "teamchat",
    "invoicing",
    "shop",
    "todo",
    "sms",
    "calendar",
    "hr",
    "payments",
    "tracker",
]


def test_cover_gives_every_service_a_task_and_records_itself_in_the_settings(tmp_path: Path) -> None:
    walk = WalkConfig(trigger=False)
    free = synthesize(tmp_path / "free", count=24, seed=0, services=COVER_SERVICES, config=SynthConfig(walk=walk))
    covered = synthesize(
        tmp_path / "cover",
        count=24,
        seed=0,
        services=COVER_SERVICES,
        config=SynthConfig(walk=walk, cover=1.0, focused=4),
    )
    assert free["kept"] == covered["kept"] == 24

    def services(out: Path) -> set[str]:
        return {s for t in read_tasks(out / "tasks.jsonl") for s in t.metadata["services"]}

    assert services(tmp_path / "cover") == set(COVER_SERVICES)
    assert len(services(tmp_path / "free")) < len(COVER_SERVICES)
    assert verify_file(tmp_path / "cover" / "tasks.jsonl") == (24, [])
    # Covering changes which tasks are drawn, so a covered set does not resume as a free one.
    with pytest.raises(ValueError, match="cover"):
        synthesize(tmp_path / "cover", count=25, seed=0, services=COVER_SERVICES, config=SynthConfig(walk=walk))
