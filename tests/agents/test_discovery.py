"""Tool discovery mode: search_tools and call_tool instead of the task's tools, in sessions, rollouts and exports."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from compoworld.agents import discovery
from compoworld.agents.chat import MAX_RESULT_CHARS
from compoworld.agents.discovery import (
    CALL_TOOL,
    META_TOOLS,
    SEARCH_TOOLS,
    DiscoveryUnavailable,
    ToolIndex,
    discovery_queries,
    discovery_recall,
    meta_tool_specs,
    tokenize,
)
from compoworld.agents.policies import (
    OraclePolicy,
    Policy,
    PolicyTurn,
    RandomPolicy,
    TurnInput,
    oracle_discovery_message,
)
from compoworld.agents.rollout import (
    RolloutConfig,
    Trajectory,
    load_task_worlds,
    read_trajectories,
    run_episode,
    run_rollouts,
)
from compoworld.agents.session import TaskSession
from compoworld.cli import app
from compoworld.engine.catalog import Catalog
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.taskset import read_tasks
from compoworld.train.export import export_sft, rl_rows, sft_rows
from compoworld.world.world import World
from tests.agents_support import SERVICES, jsonl, make_tasks

runner = CliRunner()


@pytest.fixture(scope="module")
def tasks_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tasks(tmp_path_factory.mktemp("discovery"), count=6, seed=7)


@pytest.fixture(scope="module")
def tasks(tasks_path: Path) -> list[Task]:
    return read_tasks(tasks_path)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load(SERVICES)


@pytest.fixture(scope="module")
def worlds(tasks: list[Task], tasks_path: Path) -> dict[int, World]:
    return load_task_worlds(tasks, None, tasks_path)


def _play(world: World, task: Task, policy: Policy, *, discovery: bool, max_turns: int = 40) -> Trajectory:
    config = RolloutConfig(max_turns=max_turns, discovery=discovery)
    return asyncio.run(run_episode(world, task, policy, rollout=0, config=config))


# -- the index ----------------------------------------------------------------------------------


def test_names_split_into_words_and_plurals_fold_alike() -> None:
    assert tokenize("crm__list_accounts") == ["crm", "list", "account"]
    assert tokenize("The activities of an address") == ["activity", "address"]


def test_the_index_is_built_once_per_catalog_fingerprint_and_ranks_deterministically(catalog: Catalog) -> None:
    index = ToolIndex.of(catalog)
    assert ToolIndex.of(Catalog.load(list(reversed(SERVICES)))) is index  # same services: same fingerprint
    assert len(index) == len(catalog.tools)
    hits = index.rank("find the contact with this e-mail address", 5)
    assert hits[0].name == "crm__find_contact_by_email"
    ranked = index.rank("list", len(index))  # many ties: score first, then name
    assert ranked == sorted(ranked, key=lambda h: (-h.score, h.name))
    assert index.rank("list", 10) == index.rank("list", 10)
    assert index.rank("crm__get_account", 1)[0].name == "crm__get_account"  # an exact name comes first
    assert index.rank("zzqx qqzz", 5) == [] and index.rank("", 5) == []


def test_a_search_lists_names_descriptions_and_compact_schemas_within_one_message(catalog: Catalog) -> None:
    index = ToolIndex.of(catalog)
    out = index.search("refund a payment", 3)
    assert out["query"] == "refund a payment" and out["tools"] == len(catalog.tools) and len(out["results"]) == 3
    best = out["results"][0]
    assert set(best) == {"name", "description", "parameters", "score"}
    assert best["description"] == catalog.tools[best["name"]].description
    assert "x-semantic-type" not in json.dumps(best["parameters"]) and "properties" in best["parameters"]
    many = index.search("list", 20)  # too long for one message in full: the tail is shortened, never cut
    text = json.dumps(many, ensure_ascii=False, sort_keys=True)
    assert len(text) <= MAX_RESULT_CHARS and "hint" in many
    assert "slim" not in many["results"][0] and many["results"][-1].get("slim") is True
    assert index.search("zzqx", 5)["results"] == [] and "hint" in index.search("zzqx", 5)


def test_the_meta_tools_have_derived_schemas() -> None:
    search, call = meta_tool_specs()
    assert [search["function"]["name"], call["function"]["name"]] == list(META_TOOLS)
    assert search["function"]["parameters"]["required"] == ["query"]
    assert set(call["function"]["parameters"]["properties"]) == {"name", "arguments"}
    assert all("title" not in json.dumps(s) for s in (search, call))
    assert [t["function"]["name"] for t in meta_tool_specs("slim")] == list(META_TOOLS)


def test_a_missing_bm25_library_names_the_extra(monkeypatch: pytest.MonkeyPatch, catalog: Catalog) -> None:
    monkeypatch.setitem(sys.modules, "rank_bm25", None)
    with pytest.raises(DiscoveryUnavailable, match=r"compoworld\[discovery\]"):
        discovery.require_discovery()
    with pytest.raises(ImportError, match="discovery extra"):
        ToolIndex(catalog)
    res = runner.invoke(app, ["rollout", "--tasks", "x.jsonl", "--policy", "oracle", "--out", "y", "--discovery"])
    assert res.exit_code == 2 and "compoworld[discovery]" in res.output


# -- the session --------------------------------------------------------------------------------


def test_a_discovery_session_offers_the_two_meta_tools_and_calls_any_catalog_tool(
    tasks: list[Task], worlds: dict[int, World]
) -> None:
    task = tasks[0]
    world = worlds[task.world_seed]
    plain = TaskSession(task, world=world)
    found = TaskSession(task, world=world, discovery=True)
    assert found.tools == list(META_TOOLS) and found.tool_specs() == meta_tool_specs()
    assert plain.tools == task.tools
    # The same call, direct and through call_tool: the same result, the same state.
    step = task.solution[0]
    direct = plain.call(step.tool, step.arguments)
    wrapped = found.call(CALL_TOOL, {"name": step.tool, "arguments": step.arguments})
    assert direct == wrapped and direct["ok"]
    assert plain.episode.state_hash() == found.episode.state_hash()
    # Any tool of the world's catalog, not only the task's.
    other = next(n for n in world.catalog.tools if n not in task.tools and n.endswith("__list_accounts"))
    assert found.call(CALL_TOOL, {"name": other, "arguments": {}})["ok"]
    assert plain.call(other, {})["error"]["type"] == "unknown_tool"
    # The same validation and errors as a direct call.
    assert found.call(CALL_TOOL, {"name": step.tool, "arguments": {"nope": 1}}) == plain.call(step.tool, {"nope": 1})
    search = found.call(SEARCH_TOOLS, {"query": "look up an account"})
    assert search["ok"] and len(search["result"]["results"]) == 5
    assert found.calls == 4 and found.errors == 1


@pytest.mark.parametrize(
    ("name", "arguments", "error", "field"),
    [
        (CALL_TOOL, {"name": "crm__delete_everything", "arguments": {}}, "unknown_tool", "name"),
        ("crm__get_account", {"account_id": "acc_000001"}, "unknown_tool", None),
        ("nothing_like_it", {}, "unknown_tool", None),
        (CALL_TOOL, {"arguments": {}}, "invalid_arguments", "name"),
        (CALL_TOOL, {"name": "crm__get_account", "arguments": [1]}, "invalid_arguments", "arguments"),
        (CALL_TOOL, "{not json", "invalid_arguments", None),
        (SEARCH_TOOLS, {"query": ""}, "invalid_arguments", "query"),
        (SEARCH_TOOLS, {"query": "x", "top_k": 99}, "invalid_arguments", "top_k"),
        (SEARCH_TOOLS, {"query": "x", "extra": 1}, "invalid_arguments", "extra"),
    ],
)
def test_what_discovery_mode_cannot_run_is_refused_with_a_way_to_find_tools(
    tasks: list[Task], worlds: dict[int, World], name: str, arguments: Any, error: str, field: str | None
) -> None:
    session = TaskSession(tasks[0], world=worlds[tasks[0].world_seed], discovery=True)
    before = session.episode.state_hash()
    out = session.call(name, arguments)
    assert out["ok"] is False and out["error"]["type"] == error and out["error"]["field"] == field, out
    assert out["error"]["hint"]
    if error == "unknown_tool":
        assert SEARCH_TOOLS in out["error"]["hint"] and CALL_TOOL in out["error"]["hint"]
    assert session.episode.state_hash() == before


# -- the oracle ---------------------------------------------------------------------------------


def test_the_oracles_queries_describe_the_tool_without_naming_it(tasks: list[Task], catalog: Catalog) -> None:
    for task in tasks:
        for step in task.solution:
            tool = catalog.tools[step.tool]
            first, fuller, exact = discovery_queries(tool, catalog)
            assert tool.name not in first and tool.intent in first
            assert tool.name not in fuller and catalog.services[tool.service].title in fuller
            assert exact == tool.name and len(fuller) > len(first)


def test_the_oracle_retries_a_missed_search_with_a_fuller_query_then_the_exact_name(
    tasks: list[Task], catalog: Catalog
) -> None:
    task = tasks[0]
    step = task.solution[0]
    queries = discovery_queries(catalog.tools[step.tool], catalog)
    messages: list[dict[str, Any]] = [{"role": "system", "content": "-"}, {"role": "user", "content": "-"}]
    miss = json.dumps({"query": "q", "results": [{"name": "crm__other"}], "tools": 1}, sort_keys=True)
    for turn, query in enumerate(queries):
        message = oracle_discovery_message(task, messages, catalog, turn)
        call = message["tool_calls"][0]
        assert call["function"]["name"] == SEARCH_TOOLS and json.loads(call["function"]["arguments"])["query"] == query
        messages += [message, {"role": "tool", "tool_call_id": call["id"], "content": miss}]
    # Every query missed: the tool is called by its name anyway, with the next step's search alongside.
    message = oracle_discovery_message(task, messages, catalog, len(queries))
    names = [c["function"]["name"] for c in message["tool_calls"]]
    assert names == [CALL_TOOL, SEARCH_TOOLS]
    assert json.loads(message["tool_calls"][0]["function"]["arguments"]) == {
        "name": step.tool,
        "arguments": step.arguments,
    }


@pytest.mark.parametrize("hermes", [False, True], ids=["native-tool-calls", "hermes-text"])
def test_the_oracle_in_discovery_mode_completes_every_task_with_the_same_state_as_without(
    tasks: list[Task], worlds: dict[int, World], catalog: Catalog, hermes: bool
) -> None:
    for task in tasks:
        world = worlds[task.world_seed]
        plain = _play(world, task, OraclePolicy(), discovery=False)
        found = _play(world, task, OraclePolicy(hermes=hermes), discovery=True)
        assert found.success and found.stop == "answer" and found.discovery and not plain.discovery
        assert found.tools == list(META_TOOLS)
        assert found.diff == plain.diff and found.verdicts == plain.verdicts and found.answer == plain.answer
        calls = [c for c in found.calls if c.tool == CALL_TOOL]
        assert [c.target for c in calls] == [s.tool for s in task.solution] and all(c.ok for c in found.calls)
        searches = [c for c in found.calls if c.tool == SEARCH_TOOLS]
        assert len(searches) >= len(task.solution) and all(c.target is None for c in searches)
        first = json.loads(searches[0].arguments)["query"]
        assert first == discovery_queries(catalog.tools[task.solution[0].tool], catalog)[0]
        # About as many turns as without discovery: a call shares its turn with the next search.
        assert found.turns <= plain.turns + 1 + (len(searches) - len(task.solution))


def test_the_random_policy_calls_through_call_tool(tasks: list[Task], worlds: dict[int, World]) -> None:
    traj = _play(worlds[tasks[0].world_seed], tasks[0], RandomPolicy(), discovery=True, max_turns=6)
    assert traj.calls and all(c.tool == CALL_TOOL and c.target in tasks[0].tools for c in traj.calls)


# -- recovering from a wrong search -------------------------------------------------------------


class _Recovering(Policy):
    """Searches with a misleading query, calls its (read-only) top hit, calls a tool that does not exist,
    then searches as the oracle does and plays the solution."""

    name = "recovering"

    def __init__(self, misleading: str) -> None:
        self.misleading = misleading
        self.wrong: str | None = None

    @staticmethod
    def _call(turn: int, name: str, arguments: dict[str, Any]) -> PolicyTurn:
        fn = {"name": name, "arguments": json.dumps(arguments)}
        return PolicyTurn({"role": "assistant", "content": None, "tool_calls": [{"id": f"c{turn}", "function": fn}]})

    async def act(self, inp: TurnInput) -> PolicyTurn:
        if inp.turn == 0:
            return self._call(0, SEARCH_TOOLS, {"query": self.misleading, "top_k": 3})
        if inp.turn == 1:
            self.wrong = json.loads(inp.messages[-1]["content"])["results"][0]["name"]
            return self._call(1, CALL_TOOL, {"name": self.wrong, "arguments": {}})
        if inp.turn == 2:
            return self._call(2, CALL_TOOL, {"name": "helpdesk__fix_everything", "arguments": {}})
        # From here on the conversation is the oracle's: its progress is read from its own calls.
        mine = inp.messages[:2] + inp.messages[8:]
        return PolicyTurn(oracle_discovery_message(inp.task, mine, inp.world.catalog, inp.turn))


def test_a_wrong_search_and_a_wrong_call_are_recovered_from_and_the_task_still_passes(
    tasks: list[Task], worlds: dict[int, World]
) -> None:
    task = tasks[0]
    world = worlds[task.world_seed]
    policy = _Recovering("current weather conditions at a place")
    traj = _play(world, task, policy, discovery=True)
    wrong = world.catalog.tools[str(policy.wrong)]
    assert wrong.annotations.read_only and wrong.name not in task.tools  # the misleading query surfaced a bystander
    assert traj.calls[1].target == wrong.name
    refused = traj.calls[2]
    assert not refused.ok and refused.error is not None and refused.error["type"] == "unknown_tool"
    assert SEARCH_TOOLS in refused.error["hint"]
    assert traj.success and traj.answer == (task_answer(task) or "Done."), [v for v in traj.verdicts if not v.passed]
    assert [c.target for c in traj.calls[3:] if c.tool == CALL_TOOL] == [s.tool for s in task.solution]


# -- runs, exports and the recall report --------------------------------------------------------


def test_a_discovery_run_is_recorded_resumed_and_exported_with_the_meta_tools(
    tasks_path: Path, tasks: list[Task], tmp_path: Path
) -> None:
    run = tmp_path / "run"
    result = run_rollouts(tasks_path, OraclePolicy(), run, RolloutConfig(concurrency=2, discovery=True))
    assert result.complete and json.loads((run / "run.json").read_text())["discovery"] is True
    with pytest.raises(ValueError, match="discovery"):
        run_rollouts(tasks_path, OraclePolicy(), run, RolloutConfig(concurrency=2))
    trajectories = read_trajectories(run)
    assert all(t.success and t.discovery for t in trajectories)
    rows = sft_rows(trajectories, Catalog.load(SERVICES))
    assert len(rows) == len(tasks)
    for row in rows:
        assert json.loads(row["tools"]) == meta_tool_specs()
        called = [c["function"]["name"] for m in row["messages"] if m["tool_calls"] for c in m["tool_calls"]]
        assert SEARCH_TOOLS in called and CALL_TOOL in called
        answered = {m["tool_call_id"] for m in row["messages"] if m["role"] == "tool"}
        ids = {c["id"] for m in row["messages"] if m["tool_calls"] for c in m["tool_calls"]}
        assert ids == answered  # every search and call comes with its result
    info = export_sft([run], tmp_path / "sft", parquet=False)
    assert info["rows"] == len(tasks) and all(
        json.loads(r["tools"]) == meta_tool_specs() for r in jsonl(tmp_path / "sft" / "sft.jsonl")
    )


def test_a_run_written_before_discovery_mode_resumes_as_a_plain_run(tasks_path: Path, tmp_path: Path) -> None:
    run = tmp_path / "old"
    run_rollouts(tasks_path, OraclePolicy(), run, RolloutConfig(), limit=2)
    info = json.loads((run / "run.json").read_text())
    del info["discovery"]
    (run / "run.json").write_text(json.dumps(info))
    lines = (run / "trajectories.jsonl").read_text().splitlines(keepends=True)
    (run / "trajectories.jsonl").write_text(lines[0])
    again = run_rollouts(tasks_path, OraclePolicy(), run, RolloutConfig(), limit=2)
    assert again.done_before == 1 and again.done_now == 1 and again.complete
    with pytest.raises(ValueError, match="discovery"):
        run_rollouts(tasks_path, OraclePolicy(), run, RolloutConfig(discovery=True), limit=2)


def test_the_cli_rolls_out_in_discovery_mode(tasks_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "cli"
    res = runner.invoke(
        app, ["rollout", "--tasks", str(tasks_path), "--policy", "oracle", "--out", str(out), "--discovery"]
    )
    assert res.exit_code == 0, res.output
    rows = jsonl(out / "trajectories.jsonl")
    assert len(rows) == 6 and all(r["success"] and r["tools"] == list(META_TOOLS) for r in rows)


def test_rl_rows_in_discovery_mode_show_the_meta_tools(tasks: list[Task], catalog: Catalog) -> None:
    trl = rl_rows(tasks, catalog, "trl", discovery=True)
    assert all(json.loads(r["tools"]) == meta_tool_specs() and r["discovery"] is True for r in trl)
    assert "discovery" not in rl_rows(tasks, catalog, "trl")[0]
    verl = rl_rows(tasks, catalog, "verl", discovery=True)
    assert all(set(r["extra_info"]["tools_kwargs"]) == set(META_TOOLS) and r["extra_info"]["discovery"] for r in verl)


def test_recall_at_5_of_the_oracles_first_queries(tasks: list[Task], catalog: Catalog, tasks_path: Path) -> None:
    report = discovery_recall(tasks, catalog)
    steps = sum(len(t.solution) for t in tasks)
    assert report.queries == steps and report.tools == len(catalog.tools) and 0 < report.found <= steps
    data = report.to_dict()
    assert data["recall_at_5"] == round(report.found / steps, 4)
    assert sum(s["queries"] for s in data["per_service"].values()) == steps
    assert len(data["misses"]) == steps - report.found
    assert all(m["rank"] is None or m["rank"] > 5 for m in data["misses"])
    assert discovery_recall(tasks, catalog, k=len(catalog.tools)).found >= report.found
    res = runner.invoke(app, ["discovery-recall", str(tasks_path), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["recall_at_5"] == data["recall_at_5"]
    table = runner.invoke(app, ["discovery-recall", str(tasks_path)])
    assert table.exit_code == 0 and "recall@5" in table.output
    missing = runner.invoke(app, ["discovery-recall", str(tasks_path.parent / "nope.jsonl")])
    assert missing.exit_code != 0
