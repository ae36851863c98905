"""GRPOTrainer on the CPU with SmolLM2-135M on synthesized tasks, rewarded by the completion-focused scheme.

Two steps through each TRL path: the ``environment_factory`` class (generic ``call_tool`` and
``submit_answer``) and the rollout function (each task's own tools). Both check that the rewards and the
per-criterion metrics reach TRL's logs. Untrained, SmolLM2-135M calls no tool, so its own groups have
equal rewards and no gradient; the rollout-function test therefore pairs each of its episodes with the
oracle's and checks that the differing rewards give a non-zero gradient that moves the weights. Slow (one
to three minutes each on two cores); CI runs them, and fails rather than skips when the training stack is
missing.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from compoworld.adapters.trl import CompoWorldToolEnvironment, compoworld_reward, criterion_rewards
from compoworld.adapters.trl_rollout import CompoWorldRolloutFunc
from compoworld.agents.session import load_task
from compoworld.engine.catalog import Catalog
from compoworld.tasks.criteria import CRITERION_KINDS
from compoworld.tasks.taskset import read_tasks
from compoworld.train.export import rl_rows
from tests.agents_support import SERVICES, make_tasks, require_training_stack
from tests.oracle_model import OracleModel, trainer_for

pytestmark = pytest.mark.slow

PER_CRITERION = ("state", "transition", "no_collateral")


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    require_training_stack()
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    tasks = read_tasks(make_tasks(tmp_path_factory.mktemp("grpo"), count=2, seed=11, distractors=0))
    return rl_rows(tasks, Catalog.load(SERVICES), "trl")


def grpo_config(out: Path, completion_tokens: int) -> Any:
    from trl import GRPOConfig

    return GRPOConfig(
        output_dir=str(out),
        max_steps=2,
        per_device_train_batch_size=2,
        num_generations=2,  # a group of two rollouts per task
        max_completion_length=completion_tokens,  # short: a CPU generates a few tokens a second per sequence
        max_tool_calling_iterations=2,
        temperature=1.0,
        learning_rate=1e-6,
        # Only the scheme's reward trains; the per-kind reward functions are logged as curves.
        reward_weights=[1.0] + [0.0] * len(CRITERION_KINDS),
        activation_checkpointing=False,  # a 135M model fits; recomputation only slows the CPU
        use_cpu=True,
        bf16=False,
        report_to="none",
        logging_steps=1,
        save_strategy="no",
        dataloader_num_workers=0,
    )


def shared_kinds(rows: list[dict[str, Any]]) -> set[str]:
    """The per-criterion kinds every task of the rows has: a step logs the pass rate of the kinds its task has."""
    kinds = [{c.kind for c in load_task(r["task"]).criteria} for r in rows]
    shared = set(PER_CRITERION).intersection(*kinds)
    assert "no_collateral" in shared, kinds
    return shared


def assert_logged(history: list[dict[str, Any]], kinds: set[str]) -> None:
    steps = [h for h in history if "loss" in h]
    assert [h["step"] for h in steps] == [1, 2]
    for h in steps:
        assert math.isfinite(h["loss"])
        scheme = h["rewards/compoworld_completion_focused/mean"]
        assert 0.0 <= scheme <= 1.0 and h["reward"] == pytest.approx(scheme), "only the scheme is weighted"
        for kind in PER_CRITERION:
            # A kind the step's task lacks has no reward (None, which TRL leaves out of the sum).
            mean = h[f"rewards/compoworld_{kind}/mean"]
            assert (kind not in kinds and mean is None) or 0.0 <= mean <= 1.0
        for kind in kinds:
            assert 0.0 <= h[f"compoworld/pass_rate/{kind}"] <= 1.0
        assert 0.0 <= h["compoworld/completion_rate"] <= 1.0
        assert h["compoworld/zero_variance_group_share"] in (0.0, 1.0), "one group of two per step"


def test_grpo_trains_smollm2_with_the_environment_factory(rows: list[dict[str, Any]], tmp_path: Path) -> None:
    import datasets
    from trl import GRPOTrainer

    from compoworld.agents.hf import prepare_smollm2

    trainer = GRPOTrainer(
        model=str(prepare_smollm2()),
        reward_funcs=[compoworld_reward("completion_focused"), *criterion_rewards()],
        args=grpo_config(tmp_path, 48),
        train_dataset=datasets.Dataset.from_list(rows),
        # One line per tool keeps the prompt near 450 tokens.
        environment_factory=CompoWorldToolEnvironment.factory(tool_listing="signature"),
    )
    assert trainer.train().global_step == 2
    assert_logged(trainer.state.log_history, shared_kinds(rows))
    assert all("tools/call_frequency" in h for h in trainer.state.log_history if "loss" in h)


def test_grpo_learns_from_the_completion_focused_reward_through_the_rollout_function(
    rows: list[dict[str, Any]], tmp_path: Path
) -> None:
    """Each group holds one episode SmolLM2 plays and one the oracle plays (tokens TRL then scores under the
    model, as with any off-policy sample): the rewards differ within every group, so the update is not zero."""
    import datasets
    import torch
    from trl import GRPOTrainer

    from compoworld.agents.hf import prepare_smollm2

    tasks = [load_task(r["task"]) for r in rows]
    played: list[str | None] = []

    class HalfOracle(CompoWorldRolloutFunc):
        def __call__(self, prompts: Any, trainer: Any) -> dict[str, Any]:
            tok = trainer.processing_class
            # TRL repeats each prompt num_generations (2) times in a row: the first of each pair goes to the oracle.
            oracle = super().__call__(prompts[0::2], trainer_for(tok, OracleModel(tok, tasks), 2048))
            own_trainer = SimpleNamespace(
                processing_class=tok,
                model=trainer.model,
                generation_config=trainer.generation_config,
                max_completion_length=48,  # the model's own episodes stay short on a CPU
                eos_token_ids=trainer.eos_token_ids,
                accelerator=trainer.accelerator,
            )
            own = super().__call__(prompts[1::2], own_trainer)
            out: dict[str, Any] = {
                k: [x for pair in zip(oracle[k], own[k], strict=True) for x in pair] for k in own if k != "logprobs"
            }
            out["logprobs"] = None
            played.extend(out["compoworld_stops"])
            return out

    args = grpo_config(tmp_path, 2048)
    trainer = GRPOTrainer(
        model=str(prepare_smollm2()),
        reward_funcs=[compoworld_reward("completion_focused"), *criterion_rewards()],
        args=args,
        train_dataset=datasets.Dataset.from_list(rows),
        rollout_func=HalfOracle(rows, max_turns=8),
    )
    before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
    assert trainer.train().global_step == 2
    history = trainer.state.log_history
    assert_logged(history, shared_kinds(rows))
    assert len(played) == 4 and played[0::2] == ["answer"] * 2, "the oracle's episodes end in an answer"
    assert set(played) <= {"answer", "length", "turn_limit"}
    logged = [h for h in history if "loss" in h]
    for h in logged:
        assert h["compoworld/completion_rate"] >= 0.5 and h["compoworld/stop/answer"] >= 0.5
        assert h["reward_std"] > 0 and h["frac_reward_zero_std"] == 0.0, "every group's rewards differ"
        assert h["grad_norm"] > 0
    moved = [n for n, p in trainer.model.named_parameters() if not torch.equal(p.detach(), before[n])]
    assert moved, "two GRPO steps on differing rewards change the weights"
