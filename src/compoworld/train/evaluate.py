"""``compoworld eval``: a policy on a task set, with 95 % confidence intervals.

It rolls the policy out (a resumable run directory, as ``compoworld rollout`` writes, so ``compoworld
report`` reads it too) and summarises it: completion and criterion pass rates with Wilson intervals,
broken down by difficulty pattern and by length, and what went wrong (how episodes stopped, which
errors tool calls met) so that a low score can be traced to format errors, cut-offs or the tasks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compoworld.agents.rollout import RolloutConfig, Trajectory, read_trajectories, run_rollouts
from compoworld.engine.jsonl import write_json_atomic
from compoworld.tasks.criteria import NEGATIVE_KINDS
from compoworld.tasks.parallel import Executor
from compoworld.train.presets import EvalSettings
from compoworld.train.report import run_stats

__all__ = ["EVAL_SUMMARY", "Rate", "eval_summary", "evaluate", "wilson"]

EVAL_SUMMARY = "eval.json"

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Rate:
    """A proportion with its 95 % Wilson interval.

    Attributes:
        passed: Successes.
        total: Trials.
        rate: ``passed / total`` (0 when there are none).
        low: Lower end of the interval.
        high: Upper end of the interval.
    """

    passed: int
    total: int
    rate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        """The rate as JSON."""
        return {"passed": self.passed, "total": self.total, "rate": self.rate, "ci95": [self.low, self.high]}


def wilson(passed: int, total: int, z: float = Z95) -> Rate:
    """The Wilson score interval of ``passed`` out of ``total``: sound at 0 %, 100 % and small samples.

    Raises:
        ValueError: when ``passed`` is not within ``0..total``.
    """
    if not 0 <= passed <= total:
        raise ValueError(f"passed must be within 0..total, got {passed} of {total}")
    if total == 0:
        return Rate(0, 0, 0.0, 0.0, 1.0)
    p = passed / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return Rate(passed, total, round(p, 4), round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def eval_summary(trajectories: list[Trajectory], name: str = "eval") -> dict[str, Any]:
    """Summarise an evaluation run.

    Criterion pass rates pool the criteria of every episode; their intervals treat them as
    independent, so they are narrower than the truth when one task's criteria fail together. "must"
    counts what the work asks for (state, transition, message, answer); "must not" the negatives
    (:data:`~compoworld.tasks.criteria.NEGATIVE_KINDS`), which hold before the agent acts, so an
    agent that does nothing passes them: read "criteria" next to "must".

    Args:
        trajectories: The run's trajectories.
        name: The run's name in the summary.
    """
    stats = run_stats(name, trajectories)
    criteria = [v.passed for t in trajectories for v in t.verdicts]
    must = [v.passed for t in trajectories for v in t.verdicts if v.kind not in NEGATIVE_KINDS]
    must_not = [v.passed for t in trajectories for v in t.verdicts if v.kind in NEGATIVE_KINDS]
    calls = [len(t.calls) for t in trajectories]
    return {
        "name": name,
        "policy": stats.policy,
        "episodes": len(trajectories),
        "tasks": stats.tasks,
        "completion": wilson(sum(t.success for t in trajectories), len(trajectories)).to_dict(),
        "criteria": wilson(sum(criteria), len(criteria)).to_dict(),
        "must": wilson(sum(must), len(must)).to_dict(),
        "must_not": wilson(sum(must_not), len(must_not)).to_dict(),
        "criteria_by_kind": stats.criterion_by_kind,
        "by_pattern": {k: wilson(*v).to_dict() for k, v in stats.by_pattern.items()},
        "by_length": {str(k): wilson(*v).to_dict() for k, v in stats.by_length.items()},
        "stops": dict(stats.stops.most_common()),
        "call_errors": dict(stats.errors.most_common()),
        "mean_calls": round(sum(calls) / len(calls), 2) if calls else 0.0,
        "mean_turns": round(sum(stats.turns) / len(stats.turns), 2) if stats.turns else 0.0,
        "episodes_with_a_call": sum(1 for n in calls if n),
    }


def evaluate(
    policy: str,
    tasks: Path,
    out: Path,
    settings: EvalSettings,
    *,
    limit: int | None = None,
    seed: int = 0,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Evaluate ``policy`` on ``tasks`` into the run directory ``out`` (resumable) and ``out/eval.json``.

    Args:
        policy: A policy name as ``compoworld rollout`` takes it (``oracle``, ``smollm2``, ``hf:DIR``, ``openai`` ...).
        tasks: A ``tasks.jsonl`` file.
        out: The run directory.
        settings: Turns, tokens, temperature and worker processes.
        limit: Use only the first N tasks.
        seed: Run seed.
        base_url: openai: the endpoint.
        model: openai: the model.
        api_key: openai: the key.
        executor: Plays the episodes on its workers (see :func:`~compoworld.agents.rollout.run_rollouts`).

    Returns:
        The summary (see :func:`eval_summary`).

    Raises:
        ValueError: for an unknown policy or missing endpoint settings.
        RuntimeError: when episodes could not be played (the run directory keeps the rest; rerun to finish).
    """
    from compoworld.agents.factory import make_policy

    spec: dict[str, Any] = {
        "spec": policy,
        "base_url": base_url,
        "model": model,
        "api_key": api_key,
        "temperature": settings.temperature,
        "max_tokens": settings.max_tokens,
        "workers": settings.workers,
    }
    agent = make_policy(**spec)
    config = RolloutConfig(max_turns=settings.max_turns, concurrency=max(1, settings.workers), seed=seed)
    result = run_rollouts(tasks, agent, out, config, limit=limit, executor=executor, policy_spec=spec)
    if not result.complete:
        raise RuntimeError(
            f"{len(result.failures)} episode(s) could not be played (first: {result.failures[0] if result.failures else '?'}); "
            f"rerun to finish {out}"
        )
    summary = eval_summary(read_trajectories(out), name=out.name)
    write_json_atomic(out / EVAL_SUMMARY, summary)
    return summary
