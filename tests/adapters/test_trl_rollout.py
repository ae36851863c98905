"""The TRL rollout function: each task's own tools in the prompt, whole episodes played token by token.

A scripted model that writes the oracle's turns stands in for a trained one, so the episode mechanics
(calls run on the session, tool results appended as masked tokens, answer, budget, turn limit) are
checked exactly; tests/adapters/test_trl_grpo.py runs it inside GRPOTrainer with SmolLM2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from compoworld.adapters.trl import compoworld_reward
from compoworld.adapters.trl_rollout import CompoWorldRolloutFunc
from compoworld.agents.chat import render_hermes_call
from compoworld.engine.catalog import Catalog
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.taskset import read_tasks
from compoworld.train.export import rl_rows
from tests.agents_support import SERVICES, make_tasks, require_training_stack
from tests.oracle_model import OracleModel, trainer_for


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    require_training_stack()
    from transformers import AutoTokenizer

    from compoworld.agents.hf import prepare_smollm2

    return AutoTokenizer.from_pretrained(prepare_smollm2())


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> list[Task]:
    return read_tasks(make_tasks(tmp_path_factory.mktemp("rollout"), count=3, seed=11, distractors=0))


@pytest.fixture(scope="module")
def rows(tasks: list[Task]) -> list[dict[str, Any]]:
    return rl_rows(tasks, Catalog.load(SERVICES), "trl")


def spans(mask: list[int]) -> int:
    """How many runs of zeros (tool results) a mask has."""
    return sum(1 for i, m in enumerate(mask) if m == 0 and (i == 0 or mask[i - 1] == 1))


def test_the_oracle_played_through_the_rollout_function_completes_every_task(
    tokenizer: Any, tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    rollout = CompoWorldRolloutFunc([r["task"] for r in rows])
    prompts = [r["prompt"] for r in rows for _ in range(2)]  # as TRL hands them: each prompt num_generations times
    model = OracleModel(tokenizer, tasks)
    out = rollout(prompts, trainer_for(tokenizer, model, 4096))
    assert out["logprobs"] is None and out["compoworld_stops"] == ["answer"] * len(prompts)
    assert model.calls == max(len(t.solution) for t in tasks) + 1, "one batched generate per turn"
    for i in range(len(prompts)):
        task = tasks[i // 2]
        rendered = tokenizer.decode(out["prompt_ids"][i])
        assert task.instruction in rendered and all(f'"{name}"' in rendered for name in task.tools)
        ids, mask = out["completion_ids"][i], out["env_mask"][i]
        assert len(ids) == len(mask) and spans(mask) == len(task.solution)
        tool_text = tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if m == 0])
        assert tool_text.count("<tool_response>") == len(task.solution) and '"error"' not in tool_text
        model_text = tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if m == 1])
        assert model_text.count("<tool_call>") == len(task.solution)
        session = out["compoworld_sessions"][i]
        assert session.calls == len(task.solution) and session.errors == 0
        assert all(v.passed for v in session.verdicts())
    # The reward functions score the sessions as played, with the group scheme over rows sharing a task id.
    columns = {k: [r[k] for r in rows for _ in range(2)] for k in ("task", "task_id")}
    completions = [[{"role": "assistant", "content": "(decoded by TRL)"}]] * len(prompts)
    for scheme in ("binary", "completion_focused"):
        reward = compoworld_reward(scheme, log_metrics=False)  # type: ignore[arg-type]
        got = reward(prompts, completions, compoworld_sessions=out["compoworld_sessions"], **columns)
        assert got == [1.0] * len(prompts)
    metrics: dict[str, float] = {}
    compoworld_reward()(prompts, completions, log_metric=metrics.__setitem__, **out, **columns)
    assert metrics["compoworld/stop/answer"] == 1.0 and metrics["compoworld/stop/length"] == 0.0
    assert metrics["compoworld/completion_rate"] == 1.0


def test_the_completion_budget_and_the_turn_limit_end_episodes_early(
    tokenizer: Any, tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    task_jsons = [r["task"] for r in rows]
    prompts = [r["prompt"] for r in rows]
    budget = 40  # shorter than one tool call and its result
    out = CompoWorldRolloutFunc(task_jsons)(prompts, trainer_for(tokenizer, OracleModel(tokenizer, tasks), budget))
    assert out["compoworld_stops"] == ["length"] * len(prompts)
    assert all(len(ids) <= budget for ids in out["completion_ids"])
    limited = CompoWorldRolloutFunc(task_jsons, max_turns=1)
    out = limited(prompts, trainer_for(tokenizer, OracleModel(tokenizer, tasks), 4096))
    assert out["compoworld_stops"] == ["turn_limit"] * len(prompts)
    assert [s.calls for s in out["compoworld_sessions"]] == [1] * len(prompts)
    assert all(set(m) == {1} for m in out["env_mask"]), "nothing is appended after the last turn"
    reward = compoworld_reward("binary", log_metrics=False)
    columns = {k: [r[k] for r in rows] for k in ("task", "task_id")}
    assert reward(prompts, [[]] * len(prompts), compoworld_sessions=out["compoworld_sessions"], **columns) == [0.0] * 3


def test_a_turn_cut_by_the_budget_without_eos_ends_the_episode(
    tokenizer: Any, tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    model = OracleModel(tokenizer, tasks, suffix=" and more words than fit" * 40)  # never writes EOS in budget
    out = CompoWorldRolloutFunc([r["task"] for r in rows])([rows[0]["prompt"]], trainer_for(tokenizer, model, 200))
    assert out["compoworld_stops"] == ["length"] and len(out["completion_ids"][0]) == 200


def test_prompts_are_matched_to_their_tasks_or_refused_with_a_reason(
    tasks: list[Task], rows: list[dict[str, Any]], tmp_path: Path
) -> None:
    rollout = CompoWorldRolloutFunc(rows)  # whole TRL rows work too
    assert rollout.task_for(rows[1]["prompt"]).id == tasks[1].id
    with pytest.raises(KeyError, match="no task has the instruction"):
        rollout.task_for([{"role": "user", "content": "something else"}])
    with pytest.raises(ValueError, match="user message"):
        rollout.task_for([{"role": "system", "content": "x"}])
    twin = tasks[0].model_copy(update={"id": "other"})
    with pytest.raises(ValueError, match="share an instruction"):
        CompoWorldRolloutFunc([tasks[0], twin])
    with pytest.raises(ValueError, match="max_turns"):
        CompoWorldRolloutFunc(tasks, max_turns=0)


def test_a_template_that_cannot_render_tools_is_refused(tokenizer: Any, rows: list[dict[str, Any]]) -> None:
    import copy

    plain = copy.deepcopy(tokenizer)
    plain.chat_template = "{% for m in messages %}{{ m.content }}{% endfor %}"
    with pytest.raises(ValueError, match="does not render the tools"):
        CompoWorldRolloutFunc([r["task"] for r in rows]).start(rows[0]["prompt"], plain)


def test_the_prepared_checkpoint_parses_its_own_tool_calls_back(tokenizer: Any) -> None:
    # GRPOTrainer runs a model's tool calls only when tokenizer.parse_response can read them.
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": "hi"}], add_generation_prompt=True, tokenize=True, return_dict=False
    )
    call = '<tool_call>\n{"name": "crm__get_contact", "arguments": {"contact_id": "c_1"}}\n</tool_call><|im_end|>'
    parsed = tokenizer.parse_response(tokenizer(call, add_special_tokens=False)["input_ids"], prefix=prompt)
    assert parsed["tool_calls"] == [
        {"type": "function", "function": {"name": "crm__get_contact", "arguments": {"contact_id": "c_1"}}}
    ]
    prose = tokenizer.parse_response(tokenizer("All done.<|im_end|>")["input_ids"], prefix=prompt)
    assert prose == {"role": "assistant", "content": "All done."}


def test_a_checkpoint_prepared_without_the_response_template_counts_as_stale(tmp_path: Path) -> None:
    import json

    from compoworld.agents.hf import RESPONSE_TEMPLATE, _prepared

    assert not _prepared(tmp_path)
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"eos_token": "<|im_end|>"}))
    assert not _prepared(tmp_path), "an earlier checkpoint is rebuilt"
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"response_template": RESPONSE_TEMPLATE}))
    assert _prepared(tmp_path)


def discovery_turn(task: Task, turn: int) -> dict[str, Any]:
    """A scripted discovery agent: search each solution tool by name, call it through call_tool, then answer."""
    step, second = divmod(turn, 2)
    if step >= len(task.solution):
        return {"role": "assistant", "content": task_answer(task) or "Done."}
    tool = task.solution[step]
    if not second:
        return {
            "role": "assistant",
            "content": render_hermes_call("search_tools", json.dumps({"query": tool.tool, "top_k": 1})),
        }
    call = {"name": tool.tool, "arguments": tool.arguments}
    return {"role": "assistant", "content": render_hermes_call("call_tool", json.dumps(call))}


def test_in_discovery_mode_prompts_show_the_meta_tools_and_episodes_run_in_that_mode(
    tokenizer: Any, tasks: list[Task], rows: list[dict[str, Any]]
) -> None:
    rollout = CompoWorldRolloutFunc([r["task"] for r in rows], discovery=True, max_turns=20)
    prompts = [r["prompt"] for r in rows]
    model = OracleModel(tokenizer, tasks, message=discovery_turn)
    out = rollout(prompts, trainer_for(tokenizer, model, 8192))
    assert out["compoworld_stops"] == ["answer"] * len(prompts)
    for i, task in enumerate(tasks):
        rendered = tokenizer.decode(out["prompt_ids"][i])
        assert '"search_tools"' in rendered and '"call_tool"' in rendered
        assert not any(f'"{name}"' in rendered for name in task.tools)
        session = out["compoworld_sessions"][i]
        assert session.discovery and session.calls == 2 * len(task.solution) and session.errors == 0
        assert all(v.passed for v in session.verdicts())
