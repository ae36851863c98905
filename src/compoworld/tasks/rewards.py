"""Reward schemes over rubric verdicts, group advantages and group diagnostics (docs/design.md §6).

For a task with criteria k = 1..K and a group of G rollouts, ``c[i][k]`` is 1
when rollout i passes criterion k:

* ``binary``: r_i = 1 when every criterion holds, else 0;
* ``uniform``: r_i = mean_k c[i][k];
* ``completion_focused`` (the default): criteria are gated along their DAG
  (c'[i][k] = c[i][k] · Π_{j prerequisite of k} c'[i][j]), each weighs
  w_k = ε + (1 − p_k)^α normalised to sum to 1, where p_k is the group's pass
  rate of k, and r_i = λ · Π_k c'[i][k] + (1 − λ) · Σ_k w_k · c'[i][k].

Negative criteria (:data:`~compoworld.tasks.criteria.NEGATIVE_KINDS`: nothing else touched, a decoy
left alone, no message to the wrong person, no duplicate) hold before the agent acts. As in
AutomationBench, partial credit leaves out those that still hold: a rollout's sums run over its positive
criteria and the negatives it broke, so doing nothing earns nothing, and breaking a negative costs what
a missed step costs. Completion still needs every criterion.

Advantages are GRPO's (r − mean) / (std + 1e-6), with the group's sample
standard deviation as TRL computes it, or Dr. GRPO's r − mean.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from compoworld.tasks.criteria import NEGATIVE_KINDS, Verdict

__all__ = [
    "REWARD_OPTIONS",
    "SCHEMES",
    "BatchScore",
    "GroupScore",
    "RewardConfig",
    "advantages",
    "gate",
    "group_rewards",
    "score_batch",
    "score_each",
    "score_groups",
    "weights_for",
]

Scheme = Literal["binary", "uniform", "completion_focused"]
SCHEMES: tuple[Scheme, ...] = ("binary", "uniform", "completion_focused")
REWARD_OPTIONS = ("scheme", "alpha", "epsilon", "lam", "gating")
"""The :class:`RewardConfig` fields a trainer's config may set (the advantage is the trainer's own)."""
ZERO_VARIANCE = 1e-12
"""Reward spreads below this count as zero variance."""


@dataclass(frozen=True, slots=True)
class RewardConfig:
    """A reward scheme and its parameters.

    Attributes:
        scheme: ``binary``, ``uniform`` or ``completion_focused``.
        alpha: Exponent of the failure-prone weight (completion_focused).
        epsilon: Floor of every weight before normalisation (completion_focused).
        lam: Share of the reward that is completion, λ (completion_focused).
        gating: Gate criteria on their prerequisites (completion_focused).
        advantage: ``grpo`` (divide by the group's std) or ``dr_grpo`` (do not).
    """

    scheme: Scheme = "completion_focused"
    alpha: float = 1.0
    epsilon: float = 0.05
    lam: float = 0.5
    gating: bool = True
    advantage: Literal["grpo", "dr_grpo"] = "grpo"

    def __post_init__(self) -> None:
        if self.scheme not in SCHEMES:
            raise ValueError(f"unknown reward scheme {self.scheme!r}; use one of {', '.join(SCHEMES)}")
        if not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"lam must be within [0, 1], not {self.lam}")
        if self.epsilon < 0 or self.alpha <= 0:
            raise ValueError("epsilon must be >= 0 and alpha > 0")
        if self.advantage not in ("grpo", "dr_grpo"):
            raise ValueError(f"unknown advantage {self.advantage!r}; use grpo or dr_grpo")


def gate(passed: Sequence[Sequence[bool | int]], depends_on: Sequence[Sequence[int]]) -> list[list[int]]:
    """Gate each rollout's verdicts along the criteria DAG.

    Args:
        passed: ``passed[i][k]``: rollout i passes criterion k.
        depends_on: For each criterion, the indices of its prerequisites.

    Returns:
        ``c'[i][k]``: 1 when criterion k and, recursively, all its prerequisites hold.

    Raises:
        ValueError: when the dependencies form a cycle.
    """
    k_count = len(depends_on)
    order: list[int] = []
    state = [0] * k_count

    def visit(k: int) -> None:
        if state[k] == 2:
            return
        if state[k] == 1:
            raise ValueError("criteria dependencies form a cycle")
        state[k] = 1
        for j in depends_on[k]:
            visit(j)
        state[k] = 2
        order.append(k)

    for k in range(k_count):
        visit(k)
    out = []
    for row in passed:
        gated = [0] * k_count
        for k in order:
            gated[k] = int(bool(row[k]) and all(gated[j] for j in depends_on[k]))
        out.append(gated)
    return out


def weights_for(pass_rates: Sequence[float], alpha: float, epsilon: float) -> list[float]:
    """Failure-prone weights w_k = ε + (1 − p_k)^α, normalised to sum to 1 (uniform when all are zero)."""
    raw = [epsilon + (1.0 - p) ** alpha for p in pass_rates]
    total = sum(raw)
    if total <= 0:
        return [1.0 / len(raw)] * len(raw) if raw else []
    return [w / total for w in raw]


def advantages(rewards: Sequence[float], kind: Literal["grpo", "dr_grpo"] = "grpo") -> list[float]:
    """Group-relative advantages: GRPO's (r − mean) / (std + 1e-6), or Dr. GRPO's r − mean."""
    n = len(rewards)
    if n == 0:
        return []
    mean = sum(rewards) / n
    centred = [r - mean for r in rewards]
    if kind == "dr_grpo":
        return centred
    std = math.sqrt(sum(c * c for c in centred) / (n - 1)) if n > 1 else 0.0
    return [c / (std + 1e-6) for c in centred]


@dataclass(slots=True)
class GroupScore:
    """One group's rewards and diagnostics.

    Attributes:
        rewards: r_i per rollout.
        advantages: Per rollout, of the configured kind.
        completion: Per rollout, 1 when every criterion holds.
        pass_rates: Per criterion, the share of rollouts passing it (ungated).
        gated_pass_rates: Per criterion, the share passing it and its prerequisites.
        weights: Per criterion, the effective weight (the scheme's; uniform: 1/K; binary: none).
        zero_variance: Whether every rollout got the same reward.
    """

    rewards: list[float]
    advantages: list[float]
    completion: list[int]
    pass_rates: list[float]
    gated_pass_rates: list[float]
    weights: list[float] = field(default_factory=list)

    @property
    def zero_variance(self) -> bool:
        """Whether the group's rewards are all equal (the group teaches nothing)."""
        return (max(self.rewards) - min(self.rewards)) <= ZERO_VARIANCE if self.rewards else True


def group_rewards(
    passed: Sequence[Sequence[bool | int]],
    depends_on: Sequence[Sequence[int]],
    config: RewardConfig | None = None,
    negative: Sequence[bool] | None = None,
) -> GroupScore:
    """Rewards of one group of rollouts of one task.

    Args:
        passed: ``passed[i][k]``: rollout i passes criterion k.
        depends_on: For each criterion, the indices of its prerequisites.
        config: The scheme and its parameters.
        negative: For each criterion, whether it is a negative (left out of a rollout's partial
            credit while it holds); default: none is.

    Returns:
        Rewards, advantages and diagnostics of the group.
    """
    config = config or RewardConfig()
    g = len(passed)
    k_count = len(depends_on)
    raw = [[int(bool(x)) for x in row] for row in passed]
    gated = gate(raw, depends_on)
    completion = [int(all(row)) for row in raw]
    pass_rates = [sum(row[k] for row in raw) / g if g else 0.0 for k in range(k_count)]
    gated_rates = [sum(row[k] for row in gated) / g if g else 0.0 for k in range(k_count)]
    neg = list(negative) if negative is not None else [False] * k_count
    weights: list[float] = []
    if config.scheme == "binary":
        rewards = [float(c) for c in completion]
    elif config.scheme == "uniform":
        weights = [1.0 / k_count] * k_count if k_count else []
        rewards = [_credit(row, [1.0] * k_count, neg) for row in raw]
    else:
        used = gated if config.gating else raw
        rates = gated_rates if config.gating else pass_rates
        weights = weights_for(rates, config.alpha, config.epsilon)
        # A rollout that meets every criterion earns exactly 1 (λ + (1 − λ) · 1): summing its weights in floating
        # point could leave it a hair below, and a hair below is "not solved" to anyone comparing with 1.
        # One that misses any earns only the (1 − λ) share of partial credit.
        rewards = [
            1.0 if all(raw_row) else (1 - config.lam) * _credit(row, weights, neg)
            for row, raw_row in zip(used, raw, strict=True)
        ]
    return GroupScore(rewards, advantages(rewards, config.advantage), completion, pass_rates, gated_rates, weights)


def _credit(row: Sequence[int], weights: Sequence[float], negative: Sequence[bool]) -> float:
    """Weighted share of criteria met, over the positive criteria and the negatives broken."""
    counted = [(w, c) for w, c, n in zip(weights, row, negative, strict=True) if not (n and c)]
    total = math.fsum(w for w, _ in counted)
    return math.fsum(w * c for w, c in counted) / total if total > 0 else 0.0


def score_each(
    groups: dict[str, list[list[dict[str, Any]]]], config: RewardConfig | None = None
) -> dict[str, GroupScore]:
    """Each group's rewards and advantages (see :func:`group_rewards`), by task id.

    Args:
        groups: As :func:`score_groups` takes them.
        config: The scheme and its parameters.

    Returns:
        Per task id, its score.
    """
    config = config or RewardConfig()
    scores: dict[str, GroupScore] = {}
    for task_id, rollouts in groups.items():
        first = rollouts[0]
        index = {v["id"]: k for k, v in enumerate(first)}
        depends = [[index[d] for d in v.get("depends_on", []) if d in index] for v in first]
        passed = [[bool(v["passed"]) for v in r] for r in rollouts]
        scores[task_id] = group_rewards(passed, depends, config, [v["kind"] in NEGATIVE_KINDS for v in first])
    return scores


def score_groups(
    groups: dict[str, list[list[dict[str, Any]]]],
    config: RewardConfig | None = None,
    scores: dict[str, GroupScore] | None = None,
) -> dict[str, Any]:
    """Score many groups and summarise them.

    Args:
        groups: Per task id, its rollouts' verdict lists; each verdict a dict with
            ``id``, ``kind``, ``passed`` and ``depends_on`` (criterion ids), all
            rollouts of a task listing the same criteria in the same order.
        config: The scheme and its parameters.
        scores: The groups' scores when already made (by :func:`score_each`, on other workers).

    Returns:
        ``scores`` (per task: rewards, advantages, weights, pass rates) and
        ``summary``: ``completion_rate``, ``mean_reward``, ``zero_variance_group_share``,
        ``criterion_pass_rate`` and ``criterion_pass_rates`` by criterion kind.
    """
    config = config or RewardConfig()
    scores = score_each(groups, config) if scores is None else {t: scores[t] for t in groups}
    kinds: dict[str, list[int]] = defaultdict(list)
    all_rewards: list[float] = []
    completions: list[int] = []
    for task_id, rollouts in groups.items():
        score = scores[task_id]
        all_rewards += score.rewards
        completions += score.completion
        for r in rollouts:
            for v in r:
                kinds[v["kind"]].append(int(bool(v["passed"])))
    n = len(all_rewards)
    every = [x for values in kinds.values() for x in values]
    summary = {
        "scheme": config.scheme,
        "params": {
            "alpha": config.alpha,
            "epsilon": config.epsilon,
            "lam": config.lam,
            "gating": config.gating,
            "advantage": config.advantage,
        },
        "trajectories": n,
        "groups": len(scores),
        "completion_rate": round(sum(completions) / n, 4) if n else 0.0,
        "mean_reward": round(sum(all_rewards) / n, 4) if n else 0.0,
        "zero_variance_group_share": round(sum(s.zero_variance for s in scores.values()) / len(scores), 4)
        if scores
        else 0.0,
        "criterion_pass_rate": round(sum(every) / len(every), 4) if every else 0.0,
        "criterion_pass_rates": {k: round(sum(v) / len(v), 4) for k, v in sorted(kinds.items())},
    }
    return {"summary": summary, "scores": scores}


@dataclass(slots=True)
class BatchScore:
    """Rewards of a batch of rollouts scored group by group.

    Attributes:
        rewards: Per rollout, its reward (None where it had no verdicts).
        groups: Number of groups scored.
        zero_variance_groups: Groups of more than one rollout whose rewards were all equal.
        multi_rollout_groups: Groups of more than one rollout.
    """

    rewards: list[float | None]
    groups: int = 0
    zero_variance_groups: int = 0
    multi_rollout_groups: int = 0
    weights: dict[Hashable, list[float]] = field(default_factory=dict)


def score_batch(
    keys: Sequence[Hashable], verdicts: Sequence[Sequence[Verdict] | None], config: RewardConfig | None = None
) -> BatchScore:
    """Score rollouts with a reward scheme, the rollouts sharing a key forming one group.

    ``completion_focused`` weighs each criterion by how much of its group fails
    it, so the group must be the rollouts of one prompt (GRPO's group). The
    other schemes score each rollout alone.

    Args:
        keys: Per rollout, its group (task id, or verl's uid).
        verdicts: Per rollout, its verdicts (None: not scored, reward None).
        config: The scheme and its parameters.
    """
    config = config or RewardConfig()
    members: dict[Hashable, list[int]] = defaultdict(list)
    for i, (key, vs) in enumerate(zip(keys, verdicts, strict=True)):
        if vs is not None:
            members[key].append(i)
    out = BatchScore(rewards=[None] * len(keys))
    for key, idxs in members.items():
        first = verdicts[idxs[0]]
        assert first is not None
        index = {v.id: k for k, v in enumerate(first)}
        depends = [[index[d] for d in v.depends_on if d in index] for v in first]
        passed = []
        for i in idxs:
            vs = verdicts[i]
            assert vs is not None
            if [v.id for v in vs] != [v.id for v in first]:
                raise ValueError(f"rollouts of group {key!r} were checked against different criteria")
            passed.append([v.passed for v in vs])
        score = group_rewards(passed, depends, config, [v.kind in NEGATIVE_KINDS for v in first])
        for i, r in zip(idxs, score.rewards, strict=True):
            out.rewards[i] = r
        out.groups += 1
        out.weights[key] = score.weights
        if len(idxs) > 1:
            out.multi_rollout_groups += 1
            out.zero_variance_groups += score.zero_variance
    return out
