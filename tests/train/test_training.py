"""Two-step smoke of the loop a user runs: `train sft` on the SFT export, `train grpo` from its model,
`eval` of the result, each through the command line with SmolLM2-135M on the CPU.

Slow (a few minutes on two cores); CI runs it, and fails rather than skips when the training stack is missing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from compoworld.agents.policies import OraclePolicy
from compoworld.agents.rollout import RolloutConfig, run_rollouts
from compoworld.cli import app
from compoworld.train.export import export_sft
from compoworld.train.logs import read_metrics
from tests.agents_support import make_tasks, require_training_stack

pytestmark = pytest.mark.slow

SMALL_SFT = ["--max-steps", "2", "--samples", "2", "--grad-accum", "1", "--max-length", "2048", "--save-steps", "1"]
SMALL_GRPO = [
    "--steps", "2", "--num-generations", "2", "--max-completion-length", "48", "--max-turn-tokens", "24",
    "--max-turns", "2", "--save-steps", "1",
]  # fmt: skip


def invoke(args: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, (result.output, result.exception)
    # The trainers print their logs and progress first; the summary is the JSON document that ends the output.
    return dict(json.loads(result.stdout[result.stdout.rindex("\n{\n") :]))


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    require_training_stack()
    root = tmp_path_factory.mktemp("loop")
    tasks = make_tasks(root / "tasks", count=3, seed=21, distractors=0)
    run_rollouts(tasks, OraclePolicy(), root / "oracle", RolloutConfig())
    export_sft([root / "oracle"], root / "data", tool_detail="slim")
    return tasks, root / "data"


def test_sft_then_grpo_then_eval_through_the_command_line(setup: tuple[Path, Path], tmp_path: Path) -> None:
    tasks, data = setup
    sft = invoke(
        ["train", "sft", "--data", str(data), "--model", "smollm2", "--out", str(tmp_path / "sft"), *SMALL_SFT]
    )
    assert sft["steps"] == 2 and sft["rows"] == 2 and sft["final_loss"] > 0
    assert [m["step"] for m in read_metrics(tmp_path / "sft") if "loss" in m] == [1, 2]
    assert any((tmp_path / "sft" / "tb").iterdir()), "TensorBoard event files are written"
    model = tmp_path / "sft" / "model"
    assert (model / "config.json").exists() and "<tool_call>" in (model / "chat_template.jinja").read_text()

    # Killed after its last checkpoint but before the final model: the rerun resumes, logging no step twice.
    shutil.rmtree(model)
    (tmp_path / "sft" / "summary.json").unlink()
    again = invoke(["train", "sft", "--data", str(data), "--out", str(tmp_path / "sft"), *SMALL_SFT])
    assert again["resumed_from"] == "checkpoint-2" and (model / "config.json").exists()
    assert [m["step"] for m in read_metrics(tmp_path / "sft") if "loss" in m] == [1, 2]
    # Other settings in the same directory are refused, naming them.
    result = CliRunner().invoke(
        app, ["train", "sft", "--data", str(data), "--out", str(tmp_path / "sft"), "--samples", "1"]
    )
    assert result.exit_code == 1 and "samples" in result.output

    grpo_args = ["train", "grpo", "--tasks", str(tasks), "--init", f"hf:{model}", "--scheme", "uniform"]
    grpo = invoke([*grpo_args, "--out", str(tmp_path / "grpo"), *SMALL_GRPO])
    assert grpo["steps"] == 2 and grpo["episodes"] == 4 and grpo["scheme"] == "uniform"
    steps = [m for m in read_metrics(tmp_path / "grpo") if "loss" in m]
    assert [m["step"] for m in steps] == [1, 2]
    assert all(0.0 <= m["rewards/compoworld_uniform/mean"] <= 1.0 for m in steps)
    assert all("compoworld/pass_rate/no_collateral" in m for m in steps)

    out = tmp_path / "eval"
    result = CliRunner().invoke(
        app,
        [
            *["eval", "--policy", f"hf:{tmp_path / 'grpo' / 'model'}", "--tasks", str(tasks), "--out", str(out)],
            *["--limit", "1", "--max-turns", "2", "--max-tokens", "32", "--json"],
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "eval.json").read_text())
    assert summary["episodes"] == 1 and summary["completion"]["total"] == 1
    assert summary["policy"].startswith("hf:") and summary["must"]["total"] > 0


def test_train_commands_say_what_is_missing(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["train", "sft", "--data", str(tmp_path / "nothing"), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 1 and "export sft" in result.output
    result = CliRunner().invoke(
        app, ["train", "grpo", "--tasks", str(tmp_path / "t.jsonl"), "--out", str(tmp_path / "g"), "--scheme", "best"]
    )
    assert result.exit_code == 1 and "unknown reward scheme" in result.output
