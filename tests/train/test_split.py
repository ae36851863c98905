"""Training and evaluation splits: held-out services never reach training tasks, and every evaluation task
touches one, drawn from a seed stream of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compoworld.cli import app
from compoworld.engine.registration import registered
from compoworld.tasks.split import EVAL_START, Split, holdout_services
from compoworld.tasks.synthesis import SynthConfig
from compoworld.tasks.taskset import read_tasks, synthesize
from compoworld.tasks.walk import WalkConfig

SHORT = SynthConfig(walk=WalkConfig(min_length=3, max_length=4), distractors=0)


def test_the_default_holdout_is_one_service_in_five_and_stable_under_a_larger_catalog() -> None:
    every = list(registered())
    held = holdout_services()
    assert 0.1 * len(every) <= len(held) <= 0.3 * len(every)
    # A service's fate depends on its name alone: choosing among fewer services keeps the same choice.
    assert holdout_services(every[: len(every) // 2]) == [s for s in held if s in every[: len(every) // 2]]


def test_split_rejects_what_cannot_be_a_split() -> None:
    with pytest.raises(ValueError, match="unknown split"):
        Split.make("test", None)
    with pytest.raises(ValueError, match="not among the services"):
        Split.make("train", ["crm", "mail"], ["calendar"])
    with pytest.raises(ValueError, match="nothing is left to train on"):
        Split.make("train", ["crm", "mail"], ["crm", "mail"])


def test_train_and_eval_splits_are_apart_by_services_and_by_index(tmp_path: Path) -> None:
    # The eval split keeps the draws that touch a held-out service; teamchat is in most walks, so 4 come quickly.
    holdout = ["surveys", "meetings", "teamchat"]
    train = synthesize(tmp_path / "train", count=6, seed=3, config=SHORT, split=Split.make("train", None, holdout))
    evals = synthesize(tmp_path / "eval", count=4, seed=3, config=SHORT, split=Split.make("eval", None, holdout))
    assert train["kept"] == 6 and evals["kept"] == 4
    train_tasks = read_tasks(tmp_path / "train" / "tasks.jsonl")
    eval_tasks = read_tasks(tmp_path / "eval" / "tasks.jsonl")
    # Training tasks live in a world without the held-out services: their tools are not even in it.
    assert train["services"] is not None and not set(train["services"]) & set(holdout)
    assert all(not set(t.metadata["services"]) & set(holdout) for t in train_tasks)
    assert all(not any(tool.split("__")[0] in holdout for tool in t.tools) for t in train_tasks)
    assert all(set(t.metadata["services"]) & set(holdout) for t in eval_tasks)
    assert all(t.index < EVAL_START for t in train_tasks) and all(t.index >= EVAL_START for t in eval_tasks)
    assert evals["holdout"] == sorted(holdout) and evals["split"] == "eval"
    assert evals["rejected"]["split:no_holdout_service"] > 0
    # The split is a setting: resuming the directory as the other split is refused.
    with pytest.raises(ValueError, match="other settings"):
        synthesize(tmp_path / "eval", count=4, seed=3, config=SHORT, split=Split.make("train", None, holdout))


def test_synth_cli_split_options(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["synth", "--tasks", "1", "--out", str(tmp_path / "a"), "--holdout", "crm"])
    assert result.exit_code == 2 and "--holdout needs --split" in result.output
    result = runner.invoke(app, ["synth", "--tasks", "1", "--out", str(tmp_path / "b"), "--split", "dev"])
    assert result.exit_code == 2 and "unknown split" in result.output
    args = ["synth", "--tasks", "2", "--seed", "1", "--max-length", "4", "--distractors", "0", "--split", "eval"]
    # Held out: services most walks reach, so that the evaluation draw does not starve as the catalog grows.
    result = runner.invoke(app, [*args, "--holdout", "teamchat", "--holdout", "mail", "--out", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "c" / "stats.json").read_text())
    assert stats["split"] == "eval" and stats["holdout"] == ["mail", "teamchat"]
    assert all({"teamchat", "mail"} & set(t.metadata["services"]) for t in read_tasks(tmp_path / "c" / "tasks.jsonl"))
