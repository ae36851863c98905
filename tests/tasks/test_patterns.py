"""Difficulty patterns: decoys planted in the setup, the negative criteria that guard them, and their credit."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compoworld import Catalog, Episode, World
from compoworld.cli import app
from compoworld.tasks.criteria import NEGATIVE_KINDS, NotSentCriterion, UnchangedCriterion, check_criteria
from compoworld.tasks.gates import validate_task
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.patterns import (
    PATTERNS,
    Shortcut,
    apply_patterns,
    near_duplicate,
    near_duplicate_email,
    shortcut_passes,
)
from compoworld.tasks.replay import apply_setup
from compoworld.tasks.rewards import RewardConfig, group_rewards
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.walk import Walk

# Services where work acts on people and records found by their e-mail or SKU: where decoys fit.
runner = CliRunner()
SERVICES = ["identity", "meetings", "teamchat", "helpdesk", "crm", "marketplace", "mail"]


@pytest.fixture(scope="module")
def world() -> World:
    return World.build(Catalog.load(SERVICES), seed=0)


@pytest.fixture(scope="module")
def tasks(world: World) -> list[Task]:
    synth = Synthesizer(world, config=SynthConfig(patterns=("decoys",)))
    return [t for _, t, _ in synth.tasks(0, 40) if t is not None]


def _decoyed(tasks: list[Task]) -> list[Task]:
    found = [t for t in tasks if "decoys" in t.patterns]
    assert len(found) >= 5, "the decoy pattern should fit several tasks of these services"
    return found


def test_near_duplicates_look_alike_and_differ() -> None:
    rng = random.Random(0)
    twin = near_duplicate_email("jane.doe@acme.com", rng)
    assert twin is not None and twin.startswith("jane.doe@") and twin != "jane.doe@acme.com"
    everything = {f"jane.doe@{d}" for d in ("acme.co", "acme.net", "acme-group.com", "mail.acme.com")}
    assert near_duplicate_email("jane.doe@acme.com", rng, taken=everything) is None
    assert near_duplicate("WC-1042", rng) in {"WC-1042-B", "WC-1042-OLD", "WC-1042-2"}
    assert str(near_duplicate("Kovacs Consulting", rng)).startswith("Kovacs Consulting ")
    assert near_duplicate("lowercase", rng) is None
    assert near_duplicate_email("not an address", rng) is None


def test_unknown_patterns_are_refused_by_name(world: World) -> None:
    walk = Walk([], Episode(world))
    with pytest.raises(ValueError, match=r"unknown pattern.*known: " + ", ".join(PATTERNS)):
        apply_patterns(world, ToolGraph.build(world.catalog), walk, ("decoy",), random.Random(0))
    assert "decoys" in PATTERNS


def test_decoyed_tasks_pass_every_gate_and_plant_a_look_alike(world: World, tasks: list[Task]) -> None:
    for task in _decoyed(tasks):
        assert validate_task(world, task) is None, task.id
        (guard,) = [c for c in task.criteria if isinstance(c, UnchangedCriterion)]
        ep = Episode(world)
        apply_setup(ep, task)
        decoy = ep.get(guard.table, guard.record_id)
        assert decoy is not None and guard.record_id not in world.tables[guard.table].records
        # The decoy imitates a world record of the same table the solution writes to.
        written = {a for s in task.solution for a in s.arguments.values() if isinstance(a, str)}
        originals = [world.tables[guard.table].records[i] for i in written if i in world.tables[guard.table].records]
        assert originals, task.id
        fields = decoy.model_dump(exclude={"id", "created_at", "updated_at"})
        assert any(sum(fields[k] != o.model_dump().get(k) for k in fields) >= 1 for o in originals)


def test_acting_on_the_decoy_breaks_its_criterion_and_costs_credit(world: World, tasks: list[Task]) -> None:
    task = _decoyed(tasks)[0]
    guard = next(c for c in task.criteria if isinstance(c, UnchangedCriterion))
    original = next(
        i
        for s in task.solution
        for i in s.arguments.values()
        if isinstance(i, str) and i in world.tables[guard.table].records
    )
    ep = Episode(world)
    base = apply_setup(ep, task)
    for step in task.solution:
        args = dict(step.arguments)
        ep.call(step.tool, args)
        # The same write, made to the look-alike as well: what an agent does that acts on every match.
        if original in args.values():
            swapped = {k: (guard.record_id if v == original else v) for k, v in args.items()}
            assert ep.call(step.tool, swapped).ok
    verdicts = check_criteria(task.criteria, ep, task_answer(task), base)
    broken = {v.kind for v in verdicts if not v.passed}
    # The decoy is changed, and the write made twice adds more records than the work asks for.
    assert "unchanged" in broken and broken <= {"unchanged", "no_collateral", "count"}
    passed = [[int(v.passed) for v in verdicts]]
    negative = [v.kind in NEGATIVE_KINDS for v in verdicts]
    reward = group_rewards(passed, [[] for _ in verdicts], RewardConfig(scheme="uniform"), negative).rewards[0]
    assert 0 < reward < 1


def test_negatives_that_still_hold_earn_nothing() -> None:
    # Two positive criteria, then a decoy guard and a no-collateral check.
    negative = [False, False, True, True]
    nothing = [0, 0, 1, 1]
    everything = [1, 1, 1, 1]
    half = [1, 0, 1, 1]
    careless = [1, 1, 0, 1]
    deps: list[list[int]] = [[], [], [], []]
    uniform = group_rewards([nothing, everything, half, careless], deps, RewardConfig(scheme="uniform"), negative)
    assert uniform.rewards == pytest.approx([0.0, 1.0, 0.5, 2 / 3])
    focused = group_rewards([nothing, everything, half, careless], deps, RewardConfig(), negative)
    assert focused.rewards[0] == 0.0 and focused.rewards[1] == 1.0
    assert 0 < focused.rewards[3] < focused.rewards[1]
    binary = group_rewards([nothing, everything, careless], deps, RewardConfig(scheme="binary"), negative)
    assert binary.rewards == [0.0, 1.0, 0.0]


def test_unchanged_and_not_sent_criteria(world: World) -> None:
    ep = Episode(world)
    base = ep.snapshot()
    contact = next(iter(world.tables["crm.contacts"].records))
    guard = UnchangedCriterion(id="c0", description="left alone", table="crm.contacts", record_id=contact)
    mailbox = next(iter(world.tables["mail.mailboxes"].records))
    quiet = NotSentCriterion(
        id="c1", description="nobody wrote to them", table="mail.messages", fields={"to": "x@example.com"}
    )
    assert all(v.passed for v in check_criteria([guard, quiet], ep, "", base))
    assert ep.call("crm__update_contact", {"contact_id": contact, "title": "Chief Decoy Officer"}).ok
    sent = ep.call(
        "mail__send_message",
        {"mailbox_id": mailbox, "to": ["y@example.com", "x@example.com"], "subject": "Hi", "body": "Hello"},
    )
    assert sent.ok, sent.error
    guard_v, quiet_v = check_criteria([guard, quiet], ep, "", base)
    assert not guard_v.passed and "changed" in guard_v.detail
    # One of several recipients is as much written to as a sole one.
    assert not quiet_v.passed and "x@example.com" in quiet_v.detail


def test_synth_applies_the_patterns_asked_for_and_counts_them(tmp_path: Path) -> None:
    services = [a for s in SERVICES for a in ("--service", s)]
    bad = runner.invoke(app, ["synth", "--tasks", "1", "--patterns", "decoy", "--out", str(tmp_path / "x"), *services])
    assert bad.exit_code == 2 and "use none, all or some of policy," in bad.output and "decoys" in bad.output
    out = tmp_path / "set"
    res = runner.invoke(app, ["synth", "--tasks", "12", "--patterns", "all", "--out", str(out), *services])
    assert res.exit_code == 0, res.output
    stats = json.loads((out / "stats.json").read_text())
    tasks = [Task.model_validate_json(line) for line in (out / "tasks.jsonl").read_text().splitlines()]
    # Patterned walks are drawn longer unless lengths are given.
    settings = json.loads((out / "progress.json").read_text())["settings"]
    assert (settings["min_length"], settings["max_length"]) == (6, 10)
    assert all(len(t.solution) >= 6 for t in tasks)
    counted = {n: sum(n in t.patterns for t in tasks) for n in PATTERNS}
    assert stats["patterns_histogram"] == {n: c for n, c in counted.items() if c} and counted["decoys"]
    kinds = stats["audit"]["criteria_kinds"]
    assert kinds["unchanged"] == sum(c.kind == "unchanged" for t in tasks for c in t.criteria)
    assert stats["audit"]["negative_criteria_share"] > 0
    assert stats["share_2plus_patterns"] == round(sum(len(t.patterns) >= 2 for t in tasks) / len(tasks), 4)
    # Rejections of patterned walks are counted in all and under each pattern the walk had.
    assert set(stats["pattern_rejections"]) <= set(PATTERNS)
    for reasons in stats["pattern_rejections"].values():
        assert all(stats["rejected"][reason] >= n for reason, n in reasons.items())
    assert not any(k.startswith("by_pattern:") for k in stats["rejected"])
    # A run made with patterns resumes only with the same patterns.
    other = runner.invoke(app, ["synth", "--tasks", "13", "--out", str(out), *services])
    assert other.exit_code != 0 and "patterns" in other.output


def test_synth_lengths_given_win_over_the_patterned_defaults(tmp_path: Path) -> None:
    services = [a for s in SERVICES for a in ("--service", s)]
    for given, wanted in ((["--max-length", "5"], (5, 5)), (["--min-length", "4"], (4, 10)), ([], (3, 6))):
        out = tmp_path / str(len(list(tmp_path.iterdir())))
        patterned = ["--patterns", "all"] if given else []
        res = runner.invoke(app, ["synth", "--tasks", "2", "--out", str(out), *patterned, *given, *services])
        assert res.exit_code == 0, res.output
        settings = json.loads((out / "progress.json").read_text())["settings"]
        assert (settings["min_length"], settings["max_length"]) == wanted, given


POLICY_SERVICES = ["sheets", "crm", "livechat", "oncall", "servicedesk", "teamchat", "helpdesk", "mail", "tracker"]


@pytest.fixture(scope="module")
def policy_world() -> World:
    return World.build(Catalog.load(POLICY_SERVICES), seed=0)


@pytest.fixture(scope="module")
def policy_tasks(policy_world: World) -> list[Task]:
    synth = Synthesizer(policy_world, config=SynthConfig(patterns=("policy",)))
    found = [t for _, t, _ in synth.tasks(0, 40) if t is not None and "policy" in t.patterns]
    assert len(found) >= 5, "the policy pattern should fit several tasks of these services"
    return found


def test_a_policy_task_keeps_its_choice_in_a_sheet_the_agent_must_read(
    policy_world: World, policy_tasks: list[Task]
) -> None:
    for task in policy_tasks:
        assert validate_task(policy_world, task) is None, task.id
        find, lookup = task.solution[1], task.solution[2]
        assert (find.tool, lookup.tool) == ("sheets__list_sheets", "sheets__lookup_rows")
        assert find.arguments["title"] in task.instruction and "sheet in Gridbook Sheets" in task.instruction
        # The row the record's value finds decides a later write: that value is never stated.
        ep = Episode(policy_world)
        apply_setup(ep, task)
        row = ep.call(lookup.tool, lookup.arguments).result
        assert isinstance(row, list) and len(row) == 1
        decided = [
            (s, name)
            for s in task.solution[3:]
            for name, prov in s.provenance.items()
            if prov.get("kind") == "step" and prov.get("step") == 2
        ]
        assert len(decided) == 1
        step, name = decided[0]
        assert step.arguments[name] == row[0]["cells"][name.replace("_", " ").capitalize()]
        assert f'"{step.arguments[name]}"' not in task.instruction
        # Other rows of the table map other values of the key: the table is a rule, not a single answer.
        rows = ep.call("sheets__list_rows", {"sheet_id": lookup.arguments["sheet_id"]}).result
        assert len(rows) >= 2


def test_ignoring_the_policy_fails_the_task(policy_world: World, policy_tasks: list[Task]) -> None:
    for task in policy_tasks:
        (step_index, name) = next(
            (i, n)
            for i, s in enumerate(task.solution)
            for n, p in s.provenance.items()
            if p.get("kind") == "step" and p.get("step") == 2
        )
        chosen = task.solution[step_index].arguments[name]
        tool = policy_world.catalog.tools[task.solution[step_index].tool]
        prop = tool.parameters_schema["properties"][name]
        options = next(o["enum"] for o in [prop, *prop.get("anyOf", [])] if "enum" in o)
        other = next(v for v in options if v != chosen)
        ep = Episode(policy_world)
        base = apply_setup(ep, task)
        for i, s in enumerate(task.solution):
            args = {**s.arguments, name: other} if i == step_index else s.arguments
            ep.call(s.tool, args)
        assert not all(v.passed for v in check_criteria(task.criteria, ep, task_answer(task), base)), task.id


def test_shortcuts_fail_patterned_tasks_and_a_task_one_passes_is_not_kept(
    policy_world: World, policy_tasks: list[Task], world: World, tasks: list[Task], monkeypatch: pytest.MonkeyPatch
) -> None:
    for task in policy_tasks:
        # The oracle's own calls are no corner cut: they pass.
        assert shortcut_passes(policy_world, task, Shortcut("none"))
        j, name = next(
            (i, n)
            for i, s in enumerate(task.solution)
            for n, p in s.provenance.items()
            if p.get("kind") == "step" and p.get("step") == 2
        )
        assert not shortcut_passes(policy_world, task, Shortcut("ignore_policy", drop=(1, 2), choice=(j, name, None)))
    for task in _decoyed(tasks):
        guard = next(c for c in task.criteria if isinstance(c, UnchangedCriterion))
        original = next(
            v
            for s in task.solution
            for v in s.arguments.values()
            if isinstance(v, str) and v in world.tables[guard.table].records
        )
        assert not shortcut_passes(world, task, Shortcut("every_match", also=(original, guard.record_id)))
    # Were a shortcut to pass, the patterned task would be dropped, counted, and the walk built as drawn.
    monkeypatch.setattr("compoworld.tasks.synthesis.shortcut_passes", lambda *a: True)
    rejected: dict[str, int] = {}
    synth = Synthesizer(policy_world, config=SynthConfig(patterns=("policy",)))
    kept = [synth.task_at(0, i, set(), rejected) for i in range(12)]
    assert all(t is None or not t.patterns for t in kept)
    assert rejected.get("shortcut:ignore_policy", 0) >= 1


@pytest.fixture(scope="module")
def variant_tasks(policy_world: World) -> list[Task]:
    synth = Synthesizer(policy_world, config=SynthConfig(patterns=("conditional", "recency")))
    found = [t for _, t, _ in synth.tasks(0, 40) if t is not None and t.patterns]
    assert sum("conditional" in t.patterns for t in found) >= 3 and sum("recency" in t.patterns for t in found) >= 3
    return found


def _picked(task: Task) -> tuple[int, str, dict[str, object]]:
    """The step, argument and pick_row parameters of the choice a rule table decides."""
    return next(
        (i, n, p["params"])
        for i, s in enumerate(task.solution)
        for n, p in s.provenance.items()
        if p.get("transform") == "pick_row"
    )


def test_a_conditional_or_dated_table_returns_near_misses_ahead_of_the_right_row(
    policy_world: World, variant_tasks: list[Task]
) -> None:
    for task in variant_tasks:
        assert validate_task(policy_world, task) is None, task.id
        j, name, params = _picked(task)
        ep = Episode(policy_world)
        apply_setup(ep, task)
        rows = ep.call(task.solution[2].tool, task.solution[2].arguments).result
        assert isinstance(rows, list) and len(rows) >= 2, "the lookup finds several rows for the case"
        chosen = task.solution[j].arguments[name]
        # The first row the lookup returns is a near miss: another second condition, or a replaced row.
        assert rows[0]["cells"][params["take"]] != chosen
        if "recency" in task.patterns:
            assert params["newest"] == "Effective from" and "in effect now" in task.instruction
            newest = max(rows, key=lambda r: r["cells"]["Effective from"])
            assert newest["cells"][params["take"]] == chosen or params.get("where")
        if "conditional" in task.patterns:
            assert params["where"] and " and the " in task.instruction.split("sheet in Gridbook Sheets")[1]
        assert f'"{chosen}"' not in task.instruction


def test_taking_the_first_row_fails_and_the_misread_is_named_by_a_negative(
    policy_world: World, variant_tasks: list[Task]
) -> None:
    for task in variant_tasks:
        j, name, params = _picked(task)
        ep = Episode(policy_world)
        apply_setup(ep, task)
        first = ep.call(task.solution[2].tool, task.solution[2].arguments).result[0]["cells"][params["take"]]
        assert not shortcut_passes(policy_world, task, Shortcut("first_match", choice=(j, name, first)))
        guards = [c for c in task.criteria if isinstance(c, NotSentCriterion) and c.fields.get(name) == first]
        tool = policy_world.catalog.tools[task.solution[j].tool]
        if tool.kind == "create" or tool.name.rsplit("__", 1)[1].startswith(("create_", "send_", "post_")):
            assert guards, f"{task.id}: a create that takes the first row's {name} is named by a negative"
        ep2 = Episode(policy_world)
        base = apply_setup(ep2, task)
        for i, s in enumerate(task.solution):
            ep2.call(s.tool, {**s.arguments, name: first} if i == j else s.arguments)
        verdicts = {v.id: v.passed for v in check_criteria(task.criteria, ep2, task_answer(task), base)}
        assert all(not verdicts[g.id] for g in guards)
