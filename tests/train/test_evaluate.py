"""`compoworld eval`: completion and criteria with Wilson intervals, by pattern and length, as a run directory
that `compoworld report` reads; presets and their options."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from compoworld.cli import app
from compoworld.train.evaluate import EVAL_SUMMARY, wilson
from compoworld.train.logs import last_checkpoint, read_metrics
from compoworld.train.presets import PRESETS, preset
from tests.agents_support import make_tasks


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tasks(tmp_path_factory.mktemp("eval"), count=4, seed=9, distractors=0)


def test_wilson_interval_matches_its_formula_at_the_edges_and_inside() -> None:
    assert wilson(0, 10).to_dict() == {"passed": 0, "total": 10, "rate": 0.0, "ci95": [0.0, 0.2775]}
    assert wilson(10, 10).to_dict()["ci95"] == [0.7225, 1.0]
    mid = wilson(5, 10)
    assert (mid.low, mid.high) == (0.2366, 0.7634)
    assert wilson(0, 0).to_dict() == {"passed": 0, "total": 0, "rate": 0.0, "ci95": [0.0, 1.0]}
    with pytest.raises(ValueError, match=r"within 0\.\.total"):
        wilson(3, 2)


def test_eval_scores_the_oracle_and_random_apart_and_report_reads_the_runs(tasks: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    for policy in ("oracle", "random"):
        result = runner.invoke(
            app, ["eval", "--policy", policy, "--tasks", str(tasks), "--out", str(tmp_path / policy), "--json"]
        )
        assert result.exit_code == 0, result.output
    oracle = json.loads((tmp_path / "oracle" / EVAL_SUMMARY).read_text())
    random = json.loads((tmp_path / "random" / EVAL_SUMMARY).read_text())
    assert oracle["completion"]["passed"] == 4 and oracle["must"]["rate"] == 1.0
    assert random["completion"]["passed"] == 0 and random["must"]["rate"] < 0.5
    # Doing little passes the negatives: "must not" is reported apart so that it cannot flatter a policy.
    assert random["must_not"]["rate"] > random["must"]["rate"]
    assert random["completion"]["ci95"][1] > 0.4, "four tasks leave a wide interval"
    assert set(oracle["by_length"]) and all(v["total"] for v in oracle["by_length"].values())
    assert sum(oracle["stops"].values()) == 4 and oracle["episodes_with_a_call"] == 4
    result = runner.invoke(app, ["report", str(tmp_path), "--out", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    assert "oracle" in (tmp_path / "report" / "report.md").read_text()


def test_eval_says_what_it_needs_and_refuses_bad_settings(tasks: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["eval", "--policy", "oracle", "--tasks", str(tasks)])
    assert result.exit_code == 2 and "needs --policy, --tasks and --out" in result.output
    result = runner.invoke(
        app, ["eval", "--policy", "oracle", "--tasks", str(tasks), "--out", str(tmp_path / "x"), "--preset", "tpu"]
    )
    assert result.exit_code == 2 and "cpu-small or gpu" in result.output
    result = runner.invoke(app, ["eval", "--policy", "nobody", "--tasks", str(tasks), "--out", str(tmp_path / "y")])
    assert result.exit_code == 2 and "unknown policy" in result.output


def test_presets_fill_in_only_what_the_options_leave_out() -> None:
    assert set(PRESETS) == {"cpu-small", "gpu"}
    cpu, gpu = preset("cpu-small"), preset("gpu")
    assert cpu.sft.use_cpu and not gpu.sft.use_cpu and gpu.sft.bf16
    assert gpu.experiment.eval_tasks > cpu.experiment.eval_tasks
    with pytest.raises(ValueError, match="unknown preset"):
        preset("large")
    with pytest.raises(ValueError):
        cpu.sft.model_validate(cpu.sft.model_dump() | {"learning_rat": 1.0})  # a typo is refused, not ignored


def test_metrics_keep_each_step_once_across_a_resume(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    from compoworld.train.logs import metrics_callback

    callback = metrics_callback(tmp_path)
    state = SimpleNamespace(global_step=0, epoch=0.0, is_world_process_zero=True)
    callback.on_train_begin(None, state, None)
    for step in (1, 2, 3):
        state.global_step = step
        callback.on_log(None, state, None, logs={"loss": 1.0 / step, "note": [1, 2]})
    # Killed after step 3; the checkpoint is step 2: the resumed run logs step 3 again.
    resumed = metrics_callback(tmp_path)
    state.global_step = 2
    resumed.on_train_begin(None, state, None)
    state.global_step = 3
    resumed.on_log(None, state, None, logs={"loss": 0.3})
    steps = read_metrics(tmp_path)
    assert [m["step"] for m in steps] == [1, 2, 3] and steps[-1]["loss"] == 0.3
    assert "note" not in steps[0], "only scalars are logged"


def test_last_checkpoint_is_the_newest_complete_one(tmp_path: Path) -> None:
    assert last_checkpoint(tmp_path / "none") is None
    for step in (2, 10):
        (tmp_path / f"checkpoint-{step}").mkdir()
        (tmp_path / f"checkpoint-{step}" / "trainer_state.json").write_text("{}")
    (tmp_path / "checkpoint-12").mkdir()  # killed while saving: no trainer state yet
    checkpoint = last_checkpoint(tmp_path)
    assert checkpoint is not None and checkpoint.name == "checkpoint-10"
