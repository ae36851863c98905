"""``compoworld train grpo``: GRPO on synthesized tasks with TRL's ``GRPOTrainer``.

Each task is played whole by the model through :class:`~compoworld.adapters.trl_rollout.CompoWorldRolloutFunc`
(the task's own tools, its :class:`~compoworld.agents.session.TaskSession`), and every episode is
rewarded on the task's rubric with the chosen scheme (:func:`~compoworld.adapters.trl.compoworld_reward`).
The per-kind pass rates ride along as zero-weight reward functions, so they are logged as curves
without steering the update. The run directory is resumable (see :mod:`compoworld.train.logs`).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from compoworld.tasks.rewards import SCHEMES
from compoworld.tasks.taskset import read_tasks, task_set_services
from compoworld.train.logs import last_checkpoint, metrics_callback, read_metrics, save_model, tensorboard_callback
from compoworld.train.presets import GRPOSettings
from compoworld.train.sft import check_run_settings, model_dir

__all__ = ["train_grpo"]


def train_grpo(
    tasks_path: Path,
    init: str,
    out: Path,
    settings: GRPOSettings,
    *,
    scheme: str = "completion_focused",
    limit: int | None = None,
) -> dict[str, Any]:
    """Train ``init`` with GRPO on the tasks of ``tasks_path`` into the run directory ``out``.

    A rerun resumes from the latest checkpoint; a finished run returns its summary at once.

    Args:
        tasks_path: A ``tasks.jsonl`` file.
        init: The starting model: ``smollm2``, ``hf:DIR`` or a checkpoint directory.
        out: The run directory.
        settings: Hyper-parameters.
        scheme: The reward scheme: ``completion_focused``, ``uniform`` or ``binary``.
        limit: Use only the first N tasks.

    Returns:
        The summary also written to ``out/summary.json``: steps, episodes, mean reward, share of
        groups whose rewards were all equal, seconds, model path.

    Raises:
        ValueError: for an unknown scheme, or when ``out`` holds a run with other settings.
    """
    if scheme not in SCHEMES:
        raise ValueError(f"unknown reward scheme {scheme!r}; use one of {', '.join(SCHEMES)}")
    check_run_settings(
        out,
        {"kind": "grpo", "tasks": str(tasks_path), "init": init, "scheme": scheme, "limit": limit}
        | settings.model_dump(),
    )
    if (out / "summary.json").exists() and (out / "model" / "config.json").exists():
        return dict(json.loads((out / "summary.json").read_text()))
    import datasets
    from trl import GRPOConfig, GRPOTrainer  # type: ignore[attr-defined]

    from compoworld.adapters.trl import compoworld_reward, criterion_rewards
    from compoworld.adapters.trl_rollout import CompoWorldRolloutFunc
    from compoworld.engine.catalog import Catalog
    from compoworld.train.export import rl_rows

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    tasks = read_tasks(tasks_path)[:limit] if limit else read_tasks(tasks_path)
    services = task_set_services(tasks_path)
    rows = rl_rows(tasks, Catalog.load(services), "trl", services=services)
    per_kind = criterion_rewards(services)
    args = GRPOConfig(
        output_dir=str(out / "checkpoints"),
        max_steps=settings.steps,
        per_device_train_batch_size=settings.prompts_per_step * settings.num_generations,
        num_generations=settings.num_generations,
        max_completion_length=settings.max_completion_length,
        temperature=settings.temperature,
        learning_rate=settings.learning_rate,
        beta=settings.beta,
        reward_weights=[1.0] + [0.0] * len(per_kind),
        activation_checkpointing=False,
        use_cpu=settings.use_cpu,
        bf16=settings.bf16,
        seed=settings.seed,
        logging_steps=1,
        save_strategy="steps",
        save_steps=settings.save_steps,
        save_total_limit=2,
        report_to="none",
        dataloader_num_workers=0,
    )
    callbacks = [c for c in (metrics_callback(out), tensorboard_callback(out)) if c is not None]
    trainer = GRPOTrainer(
        model=str(model_dir(init)),
        reward_funcs=[compoworld_reward(scheme, services=services), *per_kind],
        args=args,
        train_dataset=datasets.Dataset.from_list(rows),
        rollout_func=CompoWorldRolloutFunc(
            rows, services=services, max_turns=settings.max_turns, max_turn_tokens=settings.max_turn_tokens
        ),
        callbacks=callbacks,
    )
    started = time.perf_counter()
    checkpoint = last_checkpoint(out / "checkpoints")
    result = trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    steps = [m for m in read_metrics(out) if "loss" in m]
    reward_key = f"rewards/compoworld_{scheme}/mean"
    summary = {
        "kind": "grpo",
        "scheme": scheme,
        "tasks": len(rows),
        "steps": int(result.global_step),
        "episodes": int(result.global_step) * settings.prompts_per_step * settings.num_generations,
        "mean_reward": _mean([m.get(reward_key) for m in steps]),
        "completion_rate": _mean([m.get("compoworld/completion_rate") for m in steps]),
        "zero_variance_share": _mean([m.get("frac_reward_zero_std") for m in steps]),
        "seconds": round(time.perf_counter() - started, 1),
        "resumed_from": checkpoint.name if checkpoint else None,
        "model": str(out / "model"),
    }
    save_model(trainer, out, summary)
    return summary


def _mean(values: list[Any]) -> float | None:
    numbers = [float(v) for v in values if isinstance(v, int | float)]
    return round(sum(numbers) / len(numbers), 4) if numbers else None
