"""Task synthesis: criteria accept any correct solution, gates hold, files are deterministic and resumable."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from compoworld import Catalog, Episode, World
from compoworld.tasks.actions import action_of
from compoworld.tasks.criteria import MessageCriterion, StateCriterion, TransitionCriterion, check_criteria
from compoworld.tasks.derive import derive_criteria
from compoworld.tasks.gates import validate_task
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.replay import apply_setup
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.walk import Provenance, Step, Walk
from tests.tasks.handmade import log_call_walk

SERVICES = ["crm", "mail", "invoicing", "payments", "calendar", "chat", "shop", "shipping", "helpdesk", "hr"]
SERVICE_ARGS = [a for s in SERVICES for a in ("--service", s)]


@pytest.fixture(scope="module")
def world() -> World:
    return World.build(Catalog.load(SERVICES), seed=0)


@pytest.fixture(scope="module")
def tasks(world: World) -> list[Task]:
    synth = Synthesizer(world, config=SynthConfig())
    return [t for _, t, _ in synth.tasks(11, 40) if t is not None]


def _run(world: World, task: Task, steps: list[tuple[str, dict[str, object]]]) -> bool:
    return _run_all(world, task, steps)[0]


def _run_all(world: World, task: Task, steps: list[tuple[str, dict[str, object]]]) -> tuple[bool, list[bool]]:
    ep = Episode(world)
    base = apply_setup(ep, task)
    oks = [ep.call(tool, args).ok for tool, args in steps]
    return all(v.passed for v in check_criteria(task.criteria, ep, task_answer(task), base)), oks


def test_every_task_passes_its_gates_and_has_a_write_and_a_transition(world: World, tasks: list[Task]) -> None:
    assert len(tasks) >= 30
    for task in tasks:
        assert validate_task(world, task) is None
        assert any(world.catalog.tools[s.tool].writes for s in task.solution)
        assert any(isinstance(c, TransitionCriterion | MessageCriterion) for c in task.criteria), task.id
        assert set(task.tools) >= {s.tool for s in task.solution}
        ids = {c.id for c in task.criteria}
        assert all(d in ids for c in task.criteria for d in c.depends_on)


def test_no_two_tasks_share_a_solution(tasks: list[Task]) -> None:
    sigs = [json.dumps([(s.tool, s.arguments) for s in t.solution], sort_keys=True) for t in tasks]
    assert len(set(sigs)) == len(sigs)


def test_solutions_that_skip_repeat_or_corrupt_a_write_fail(world: World, tasks: list[Task]) -> None:
    checked = repeated = 0
    for task in tasks:
        steps = [(s.tool, s.arguments) for s in task.solution]
        assert _run(world, task, steps)
        writes = [i for i, s in enumerate(task.solution) if world.catalog.tools[s.tool].writes]
        last_write = writes[-1]
        assert not _run(world, task, steps[:last_write] + steps[last_write + 1 :]), "skipping a write passed"
        # A record made twice, or a message sent twice, is one too many.
        creates = [i for i in writes if action_of(world.catalog.tools[task.solution[i].tool]) in ("create", "message")]
        if creates:
            i = creates[0]
            passed, oks = _run_all(world, task, [*steps[: i + 1], steps[i], *steps[i + 1 :]])
            # A repeat the service refuses (a duplicate e-mail …) changes nothing; one that succeeds must fail.
            if oks[i + 1]:
                assert not passed, "repeating a create or a send passed"
                repeated += 1
        state = [c for c in task.criteria if isinstance(c, StateCriterion) and c.step is not None and c.fields]
        if state:
            c = state[0]
            assert c.step is not None
            tool, args = steps[c.step]
            # A field a later step sets again (an update of the same record) is not the creation's to corrupt.
            later = {k for _, a in steps[c.step + 1 :] for k in a}
            key = next((k for k, v in args.items() if k in c.fields and isinstance(v, str) and k not in later), None)
            if key is not None:
                bad = dict(args) | {key: args[key] + " (typo)"}
                assert not _run(world, task, [*steps[: c.step], (tool, bad), *steps[c.step + 1 :]]), "corruption passed"
                checked += 1
    # Walks prefer updates and state moves to creates, so fewer tasks end on a create to repeat.
    assert checked >= 5 and repeated >= 1


def test_independent_steps_may_run_in_another_order(world: World, tasks: list[Task]) -> None:
    swapped = 0
    for task in tasks:
        sol = task.solution
        for j in range(1, len(sol) - 1):
            b = sol[j + 1]
            b_uses = {p.get("step") for p in b.provenance.values() if p["kind"] == "step"}
            # Two steps on one record (deactivate, then reactivate) depend on each other whatever their provenance.
            same_record = set(map(str, sol[j].arguments.values())) & set(map(str, b.arguments.values()))
            if j in b_uses or same_record:
                continue
            steps = [(s.tool, s.arguments) for s in sol]
            steps[j], steps[j + 1] = steps[j + 1], steps[j]
            assert _run(world, task, steps), f"{task.id}: swapping independent steps {j} and {j + 1} failed"
            swapped += 1
            break
    assert swapped >= 3


def test_a_different_read_tool_that_finds_the_same_value_passes(world: World) -> None:
    contact = world.tables["crm.contacts"].records["con_000001"]
    email = contact.email  # type: ignore[attr-defined]
    ep = Episode(world)
    found = ep.call("crm__find_contact_by_email", {"email": email}).result
    args = {"contact_id": found["id"], "kind": "call", "subject": "Renewal call"}
    logged = ep.call("crm__create_activity", args).result
    walk = Walk(
        [
            Step(
                "crm__find_contact_by_email", {"email": email}, {"email": Provenance("given", semantic="email")}, found
            ),
            Step(
                "crm__create_activity",
                args,
                {
                    "contact_id": Provenance("step", 0, "id", "crm.contact.id"),
                    "kind": Provenance("literal"),
                    "subject": Provenance("literal"),
                },
                logged,
            ),
        ],
        ep,
    )
    derived = derive_criteria(world, ToolGraph.build(world.catalog), walk)
    assert derived is not None
    criteria = derived.criteria
    other = Episode(world)
    listed = other.call("crm__list_contacts", {"email": email}).result["items"][0]
    other.call("crm__create_activity", {"contact_id": listed["id"], "kind": "call", "subject": "Renewal call"})
    assert all(v.passed for v in check_criteria(criteria, other))
    wrong = Episode(world)
    wrong.call("crm__create_activity", {"contact_id": "con_000002", "kind": "call", "subject": "Renewal call"})
    assert not all(v.passed for v in check_criteria(criteria, wrong))


_SYNTH = [sys.executable, "-m", "compoworld.cli", "synth", "--tasks", "12", "--seed", "7", *SERVICE_ARGS]


def _synth(out: Path, hashseed: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    return subprocess.run([*_SYNTH, "--out", str(out)], capture_output=True, text=True, env=env, check=False)


def test_synthesis_is_byte_identical_across_processes(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert _synth(a, "1").returncode == 0
    assert _synth(b, "999").returncode == 0
    assert (a / "tasks.jsonl").read_bytes() == (b / "tasks.jsonl").read_bytes()
    stats = json.loads((a / "stats.json").read_text())
    assert stats["kept"] == 12 and sum(stats["length_histogram"].values()) == 12


def test_a_killed_synth_resumes_without_losing_or_duplicating(tmp_path: Path) -> None:
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    assert _synth(whole, "0").returncode == 0
    proc = subprocess.Popen([*_SYNTH, "--out", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    target = killed / "tasks.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if target.exists() and target.read_bytes().count(b"\n") >= 3:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    lines_before = target.read_bytes().count(b"\n")
    assert 3 <= lines_before < 12
    with target.open("ab") as fh:
        fh.write(b'{"id": "half-writ')  # a line cut short by the kill
    assert _synth(killed, "0").returncode == 0
    assert target.read_bytes() == (whole / "tasks.jsonl").read_bytes()


def test_verify_names_a_task_that_does_not_hold(tmp_path: Path) -> None:
    out = tmp_path / "v"
    assert _synth(out, "0").returncode == 0
    lines = (out / "tasks.jsonl").read_text().splitlines()
    task = json.loads(lines[0])
    state = next(c for c in task["criteria"] if c["kind"] == "state" and c["fields"])
    key = next(iter(state["fields"]))
    state["fields"][key] = "something else entirely"
    lines[0] = json.dumps(task)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n")
    ok = subprocess.run(
        [sys.executable, "-m", "compoworld.cli", "verify", str(out / "tasks.jsonl"), *SERVICE_ARGS],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "compoworld.cli", "verify", str(broken), *SERVICE_ARGS],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1
    assert task["id"] in bad.stderr and "oracle_fails" in bad.stderr


def test_distractors_are_other_tools_half_from_the_tasks_services(world: World) -> None:
    walk = log_call_walk(world)
    synth = Synthesizer(world, config=SynthConfig(distractors=8))
    picked = synth.distractors(walk, random.Random(0))
    assert picked == synth.distractors(walk, random.Random(0))
    assert len(picked) == len(set(picked)) == 8
    assert not set(picked) & {s.tool for s in walk.steps}
    assert [t.split("__")[0] for t in picked[:4]] == ["crm"] * 4
    assert all(not t.startswith("crm__") for t in picked[4:]) and picked[4:] == sorted(picked[4:])


def test_a_built_task_shows_its_solutions_tools_and_the_distractors(world: World) -> None:
    walk = log_call_walk(world)
    built = Synthesizer(world).build(walk, seed=3, index=2, rng=random.Random(5))
    assert built.task is not None, built.reason
    task = built.task
    assert task.id.startswith("t00002-") and task.seed == 3 and task.index == 2
    assert len(task.tools) == len({s.tool for s in walk.steps}) + 8 and task.tools == sorted(task.tools)
    assert task.metadata == {
        "services": ["crm"],
        "length": 5,
        "writes": 3,
        "fan_in": False,
        "open_world_steps": 0,
        "difficulty": 6,
    }
