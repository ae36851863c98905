"""BFCL evaluation: BFCL's own data and checkers judge scripted policies, and SmolLM2 on one item.

These need ``bfcl-eval`` (``pip install --no-deps bfcl-eval==2026.3.23``). Outside CI they are
skipped when it is missing; in CI (``CI`` set) a missing package fails them instead.
"""

from __future__ import annotations

import ast
import importlib.resources
import importlib.util
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from compoworld.agents.chat import render_hermes_call
from compoworld.agents.policies import OraclePolicy, Policy, PolicyTurn, RandomPolicy, TurnInput
from compoworld.train.bfcl import (
    BFCL_INSTALL,
    CATEGORIES,
    MULTI_TURN_CATEGORIES,
    RELEVANCE_CATEGORIES,
    RESULTS_FILE,
    SUMMARY_FILE,
    bfcl_openai_tools,
    require_bfcl,
    resolve_categories,
    run_bfcl,
)
from tests.agents_support import jsonl, require_training_stack

# A few items of each kind: BFCL's AST checker on one, several and parallel calls, its relevance rule,
# and its multi-turn backends and checker (miss_func adds a function halfway).
AST_SET = ["simple_python", "multiple", "parallel", "parallel_multiple", "live_simple"]
SCRIPTED_SET = [*AST_SET, "irrelevance", "live_relevance", "multi_turn_base", "multi_turn_miss_func"]


def needs_bfcl() -> None:
    """Skip outside CI when bfcl-eval is missing; in CI fail instead, so these always run there."""
    if importlib.util.find_spec("bfcl_eval") is None and not os.environ.get("CI"):
        pytest.skip(f"needs bfcl-eval ({BFCL_INSTALL})")
    require_bfcl()


def possible_answers(category: str) -> dict[str, Any]:
    """BFCL's possible answers of a category, by question id, read from the installed package."""
    path = importlib.resources.files("bfcl_eval") / "data" / "possible_answer" / f"BFCL_v4_{category}.json"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {r["id"]: r["ground_truth"] for r in rows}


def shown(name: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]", "_", name)[:64]


def first_value(values: list[Any]) -> Any:
    """The first acceptable value of a possible answer; a dict's entries are possible answers in turn."""
    value = values[0]
    if isinstance(value, dict):
        return {k: first_value(v) for k, v in value.items() if v and v[0] != ""}
    return value


def calls_message(calls: list[tuple[str, dict[str, Any]]], turn: int, *, hermes: bool = False) -> dict[str, Any]:
    texts = [(name, json.dumps(args)) for name, args in calls]
    if hermes:
        return {"role": "assistant", "content": "\n".join(render_hermes_call(n, a) for n, a in texts)}
    tool_calls = [
        {"id": f"call_{turn}_{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(texts)
    ]
    return {"role": "assistant", "content": None, "tool_calls": tool_calls}


def multi_turn_calls(strings: list[str], tools: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """BFCL's ground-truth calls (``cd(folder='x')``, positional arguments too) as tool calls."""
    params = {t["function"]["name"]: list(t["function"]["parameters"]["properties"]) for t in tools}
    out = []
    for text in strings:
        call = ast.parse(text, mode="eval").body
        assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
        name = call.func.id
        args = {params[name][i]: ast.literal_eval(a) for i, a in enumerate(call.args)}
        args.update({str(k.arg): ast.literal_eval(k.value) for k in call.keywords})
        out.append((name, args))
    return out


class AnswerKey(Policy):
    """Answers every item from BFCL's possible answers (or, with ``wrong``, gets every item wrong)."""

    def __init__(self, categories: list[str], *, wrong: bool = False, hermes: bool = False, name: str = "") -> None:
        self.answers: dict[str, Any] = {}
        for category in categories:
            if category not in RELEVANCE_CATEGORIES:
                self.answers.update(possible_answers(category))
        self.wrong = wrong
        self.hermes = hermes
        self.name = name or ("wrong-key" if wrong else "answer-key")
        self.asked: list[str] = []

    async def act(self, inp: TurnInput) -> PolicyTurn:
        self.asked.append(inp.task.id)
        category = inp.task.metadata["category"]
        text = {"role": "assistant", "content": "None of these functions fit the request."}
        if category in RELEVANCE_CATEGORIES:
            should_call = (category == "live_relevance") != self.wrong
            first = inp.tools[0]["function"]["name"]
            return PolicyTurn(calls_message([(first, {})], inp.turn) if should_call else text)
        truth = self.answers[inp.task.id]
        if category in MULTI_TURN_CATEGORIES:
            turn = sum(m["role"] == "user" for m in inp.messages) - 1
            if self.wrong or inp.messages[-1]["role"] == "tool" or not truth[turn]:
                return PolicyTurn(text)
            return PolicyTurn(calls_message(multi_turn_calls(truth[turn], inp.tools), inp.turn, hermes=self.hermes))
        calls = []
        for answer in truth:
            ((name, params),) = answer.items()
            if self.wrong:  # the right functions, every argument wrong
                args: dict[str, Any] = {k: "__wrong__" for k in params}
            else:
                args = {k: first_value(v) for k, v in params.items() if v and v[0] != ""}
            calls.append((shown(name), args))
        return PolicyTurn(calls_message(calls, inp.turn, hermes=self.hermes))


def test_unknown_categories_are_refused_listing_the_valid_ones(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown BFCL category 'simple_pyhton'") as info:
        run_bfcl(OraclePolicy(), ["simple_python", "simple_pyhton"], out=tmp_path)
    assert all(c in str(info.value) for c in CATEGORIES)
    with pytest.raises(ValueError, match="web_search_base is not supported here"):
        resolve_categories(["web_search_base"])
    assert resolve_categories(["simple", "irrelevance", "simple_python"]) == ["simple_python", "irrelevance"]
    assert not (tmp_path / RESULTS_FILE).exists()


def test_a_missing_bfcl_package_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "bfcl_eval", None)  # what find_spec reports for an absent package
    with pytest.raises(ImportError, match=re.escape("pip install --no-deps bfcl-eval==2026.3.23")):
        require_bfcl()
    with pytest.raises(ImportError, match=re.escape(BFCL_INSTALL)):
        run_bfcl(OraclePolicy(), ["simple_python"], out=tmp_path, limit=1)


def test_function_docs_become_valid_openai_tools() -> None:
    needs_bfcl()
    doc = {
        "name": "math.stats.mean",
        "description": "Mean.",
        "parameters": {
            "type": "dict",
            "properties": {
                "x": {"type": "float", "description": "A value."},
                "pairs": {"type": "tuple", "items": {"type": "any"}},
                "options": {"type": "dict", "properties": {"w": {"type": "float"}}, "required": ["w"]},
            },
            "required": ["x"],
        },
    }
    tools, names = bfcl_openai_tools([doc, {**doc, "name": "math_stats_mean"}])
    assert [t["function"]["name"] for t in tools] == ["math_stats_mean", "math_stats_mean_2"]
    assert names == {"math_stats_mean": "math.stats.mean", "math_stats_mean_2": "math_stats_mean"}
    params = tools[0]["function"]["parameters"]
    assert params["type"] == "object" and params["required"] == ["x"]
    props = params["properties"]
    assert props["x"] == {"type": "number", "format": "float", "description": "A value. This is a float type value."}
    assert props["pairs"] == {"type": "array", "items": {"type": "string"}}
    assert props["options"]["type"] == "object" and props["options"]["properties"]["w"]["type"] == "number"
    slim = bfcl_openai_tools([doc], detail="slim")[0][0]["function"]["parameters"]["properties"]
    assert slim["x"]["type"] == "number" and "format" not in json.dumps(slim["pairs"])

    from bfcl_eval.utils import load_dataset_entry  # type: ignore[import-untyped]

    checked = 0
    for category in CATEGORIES:
        for entry in load_dataset_entry(category, include_prereq=False, include_language_specific_hint=False)[:10]:
            docs = entry["function"] + [f for fs in (entry.get("missed_function") or {}).values() for f in fs]
            tools, names = bfcl_openai_tools(docs)
            assert sorted(names.values()) == sorted(d["name"] for d in docs)
            for tool in tools:
                assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", tool["function"]["name"])
                jsonschema.Draft202012Validator.check_schema(tool["function"]["parameters"])
                checked += 1
    assert checked > 200


def test_answers_from_the_possible_answers_score_one_and_wrong_ones_zero(tmp_path: Path) -> None:
    needs_bfcl()
    key = AnswerKey(SCRIPTED_SET)
    summary = run_bfcl(key, SCRIPTED_SET, out=tmp_path / "key", limit=3)
    assert list(summary.categories) == SCRIPTED_SET
    for category, score in summary.categories.items():
        assert (score.items, score.scored, score.correct, score.accuracy) == (3, 3, 3, 1.0), category
        assert score.ci95 is not None and score.ci95[1] == 1.0 and score.ci95[0] == pytest.approx(0.4385, abs=1e-4)
    assert summary.pooled.accuracy == 1.0 and summary.complete and summary.done_now == 3 * len(SCRIPTED_SET)
    rows = jsonl(tmp_path / "key" / RESULTS_FILE)
    assert len(rows) == 3 * len(SCRIPTED_SET) and all(r["valid"] and not r["error"] for r in rows)
    by_id = {r["id"]: r for r in rows}
    assert by_id["simple_python_1"]["calls"] == [{"math.factorial": {"number": 5}}], "BFCL's own (dotted) name"
    assert by_id["irrelevance_0"]["calls"] == [] and by_id["irrelevance_0"]["answer"]
    played = by_id["multi_turn_base_0"]["turns"]
    assert played is not None and played[0][0][0].startswith("cd(")
    on_disk = json.loads((tmp_path / "key" / SUMMARY_FILE).read_text())
    assert on_disk["categories"]["parallel"]["accuracy"] == 1.0 and on_disk["policy"] == "answer-key"

    wrong = run_bfcl(AnswerKey(SCRIPTED_SET, wrong=True), SCRIPTED_SET, out=tmp_path / "wrong", limit=3)
    for category, score in wrong.categories.items():
        assert (score.scored, score.correct, score.accuracy, score.policy_errors) == (3, 0, 0.0, 0), category
    rows = {r["id"]: r for r in jsonl(tmp_path / "wrong" / RESULTS_FILE)}
    assert all(not r["valid"] and r["error"] and r["error_type"] for r in rows.values())
    assert rows["simple_python_0"]["error_type"].startswith(("type_error", "value_error"))
    assert "__wrong__" in json.dumps(rows["simple_python_0"]["error"])
    assert rows["irrelevance_0"]["error_type"] == "irrelevance_error:decoder_success"
    assert rows["live_relevance_0-0-0"]["error_type"] == "relevance_error:decoder_failed"
    assert rows["multi_turn_base_0"]["error_type"] == "multi_turn:empty_turn_model_response"


def test_hermes_text_calls_are_read_and_multi_turn_backends_do_not_leak_between_runs(tmp_path: Path) -> None:
    needs_bfcl()
    categories = ["parallel_multiple", "multi_turn_base"]
    for run in ("a", "b"):  # the same items twice in one process: BFCL's backends start afresh each time
        summary = run_bfcl(AnswerKey(categories, hermes=True), categories, out=tmp_path / run, limit=2)
        assert summary.pooled.accuracy == 1.0, jsonl(tmp_path / run / RESULTS_FILE)
    from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils  # type: ignore[import-untyped]

    assert not [k for k in vars(multi_turn_utils) if k.startswith("compoworld_")]


class Mischief(Policy):
    """Multi-turn: calls an unknown function and one with a parameter name that is code, then a malformed
    block; single-turn: fails to produce a turn."""

    name = "mischief"

    def __init__(self) -> None:
        self.seen: list[list[dict[str, Any]]] = []

    async def act(self, inp: TurnInput) -> PolicyTurn:
        self.seen.append(inp.messages)
        if inp.task.metadata["category"] not in MULTI_TURN_CATEGORIES:
            return PolicyTurn({"role": "assistant", "content": None}, error="the conversation does not fit")
        if inp.turn == 0:
            evil = {"folder=__import__('os').system('exit 3'),x": "y"}
            return PolicyTurn(calls_message([("rm_everything", {}), ("cd", evil)], 0))
        if inp.turn == 1:
            return PolicyTurn({"role": "assistant", "content": "<tool_call>{not json</tool_call>"})
        return PolicyTurn({"role": "assistant", "content": "Done."})


def test_bad_calls_are_answered_with_errors_never_run_and_policy_errors_count_as_wrong(tmp_path: Path) -> None:
    needs_bfcl()
    policy = Mischief()
    summary = run_bfcl(policy, ["multi_turn_base", "simple_python"], out=tmp_path, limit=1)
    rows = {r["id"]: r for r in jsonl(tmp_path / RESULTS_FILE)}
    played = rows["multi_turn_base_0"]
    assert not played["valid"] and played["turns"][0] == [[]], "nothing was executed"
    answered = [m for m in policy.seen[1] if m["role"] == "tool"]
    assert [m["name"] for m in answered] == ["rm_everything", "cd"]
    assert "'rm_everything' is not defined" in answered[0]["content"]
    assert "invalid parameter name" in answered[1]["content"]
    after_bad_block = policy.seen[2]
    assert after_bad_block[-2]["role"] == "tool" and "Error during decoding" in after_bad_block[-2]["content"]
    assert after_bad_block[-1]["role"] == "user", "a block that is not JSON ends the turn, as in BFCL"
    failed = rows["simple_python_0"]
    assert failed["error_type"] == "policy_error" and "does not fit" in failed["error"][0]
    assert summary.categories["simple_python"].policy_errors == 1 and summary.pooled.correct == 0


def test_a_resumed_run_asks_only_about_items_without_a_result(tmp_path: Path) -> None:
    needs_bfcl()
    first = AnswerKey(["simple_python", "irrelevance"])
    summary = run_bfcl(first, ["simple_python", "irrelevance"], out=tmp_path, limit=2)
    assert summary.done_now == 4 and len(first.asked) == 4
    again = AnswerKey(["simple_python", "irrelevance"])
    starts: list[tuple[int, int]] = []
    summary = run_bfcl(again, ["simple", "irrelevance"], out=tmp_path, limit=3, on_start=lambda *a: starts.append(a))
    assert sorted(again.asked) == ["irrelevance_2", "simple_python_2"]
    assert starts == [(6, 4)] and (summary.done_before, summary.done_now) == (4, 2)
    assert summary.categories["simple_python"].scored == 3 and summary.pooled.accuracy == 1.0
    assert len(jsonl(tmp_path / RESULTS_FILE)) == 6
    done = run_bfcl(AnswerKey(["simple_python"]), ["simple_python"], out=tmp_path, limit=3)
    assert done.done_now == 0 and done.categories["simple_python"].correct == 3
    with pytest.raises(ValueError, match="other settings"):
        run_bfcl(AnswerKey(["simple_python"], name="another"), ["simple_python"], out=tmp_path, limit=3)


def test_the_random_policy_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="random policy"):
        run_bfcl(RandomPolicy(), ["simple_python"], out=tmp_path, limit=1)


@pytest.mark.slow
def test_smollm2_answers_one_bfcl_item(tmp_path: Path) -> None:
    require_training_stack()
    needs_bfcl()
    from compoworld.agents.factory import make_policy

    policy = make_policy("smollm2", temperature=0.0, max_tokens=48)
    summary = run_bfcl(policy, ["simple_python"], out=tmp_path, limit=1)
    assert summary.policy == "hf:smollm2" and summary.tool_detail == "slim"
    assert summary.categories["simple_python"].scored == 1 and summary.pooled.policy_errors == 0
    (row,) = jsonl(tmp_path / RESULTS_FILE)
    assert row["id"] == "simple_python_0" and row["steps"] == 1
    assert row["prompt_tokens"] > 100, "the prompt lists the question's function"
    assert 0 < row["completion_tokens"] <= 48
    assert row["valid"] or row["error"], "BFCL's checker judged the answer"
