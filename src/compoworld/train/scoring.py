"""Score a rollout run: every trajectory against its task's criteria, grouped by task.

``compoworld score RUN_DIR --scheme NAME`` prints the run's summary; with
``--out`` it also writes each trajectory's reward and advantage.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from compoworld.agents.rollout import Trajectory, read_trajectories
from compoworld.tasks.parallel import Executor
from compoworld.tasks.rewards import GroupScore, RewardConfig, score_each, score_groups

__all__ = ["ScoreWorker", "score_run", "score_trajectories"]

Groups = dict[str, list[list[dict[str, Any]]]]


class ScoreWorker:
    """Scores shards of groups (what each executor worker holds: only the scheme).

    Args:
        config: The reward scheme.
    """

    def __init__(self, *, config: RewardConfig) -> None:
        self.config = config

    def score(self, shard: Groups) -> dict[str, GroupScore]:
        """Each group's score (see :func:`~compoworld.tasks.rewards.score_each`)."""
        return score_each(shard, self.config)


def score_trajectories(
    trajectories: list[Trajectory],
    config: RewardConfig | None = None,
    *,
    executor: Executor | None = None,
    shard: int = 256,
) -> dict[str, Any]:
    """Score trajectories grouped by task.

    Args:
        trajectories: Trajectories of one run (any number of rollouts per task).
        config: The reward scheme.
        executor: Scores shards of groups on its workers; the result is the same.
        shard: Groups per shard given to a worker.

    Returns:
        ``summary`` (see :func:`compoworld.tasks.rewards.score_groups`, plus ``tasks``,
        ``mean_group_size``, ``stop_reasons`` and ``per_criterion``), and ``rows``:
        per trajectory its task, rollout, reward, advantage and success.
    """
    config = config or RewardConfig()
    by_task: dict[str, list[Trajectory]] = defaultdict(list)
    for t in trajectories:
        by_task[t.task_id].append(t)
    for group in by_task.values():
        group.sort(key=lambda t: t.rollout)
    groups = {tid: [[v.model_dump() for v in t.verdicts] for t in group] for tid, group in by_task.items()}
    scores: dict[str, GroupScore] | None = None
    if executor is not None:
        ids = list(groups)
        shards = [{t: groups[t] for t in ids[i : i + shard]} for i in range(0, len(ids), shard)]
        scores = {}
        for part in executor.imap("compoworld.train.scoring:ScoreWorker", {"config": config}, "score", shards):
            scores.update(part)
    scored = score_groups(groups, config, scores)
    summary = scored["summary"]
    summary["tasks"] = len(by_task)
    summary["mean_group_size"] = round(len(trajectories) / len(by_task), 3) if by_task else 0.0
    stops: dict[str, int] = defaultdict(int)
    for t in trajectories:
        stops[t.stop] += 1
    summary["stop_reasons"] = dict(sorted(stops.items()))
    per_criterion = []
    rows = []
    for tid, group in by_task.items():
        score = scored["scores"][tid]
        for k, v in enumerate(group[0].verdicts):
            per_criterion.append(
                {
                    "task_id": tid,
                    "criterion": v.id,
                    "kind": v.kind,
                    "description": v.description,
                    "pass_rate": round(score.pass_rates[k], 4),
                    "gated_pass_rate": round(score.gated_pass_rates[k], 4),
                    "weight": round(score.weights[k], 4) if score.weights else None,
                }
            )
        for i, t in enumerate(group):
            rows.append(
                {
                    "task_id": tid,
                    "rollout": t.rollout,
                    "reward": round(score.rewards[i], 6),
                    "advantage": round(score.advantages[i], 6),
                    "success": t.success,
                }
            )
    summary["per_criterion"] = per_criterion
    return {"summary": summary, "rows": rows}


def score_run(
    run_dir: str | Path,
    config: RewardConfig | None = None,
    out: str | Path | None = None,
    *,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Score every trajectory of a run directory.

    Args:
        run_dir: A directory written by ``compoworld rollout``.
        config: The reward scheme.
        out: Where to write per-trajectory rewards as JSONL (optional).
        executor: Scores shards of groups on its workers (see :func:`score_trajectories`).

    Returns:
        The summary (see :func:`score_trajectories`).
    """
    scored = score_trajectories(read_trajectories(run_dir), config, executor=executor)
    if out is not None:
        path = Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in scored["rows"]))
    summary: dict[str, Any] = scored["summary"]
    return summary
