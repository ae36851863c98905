"""The reward formulas of docs/design.md §6, pinned by examples and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compoworld.tasks.rewards import RewardConfig, advantages, gate, group_rewards, weights_for

CHAIN = [[], [0], [1]]
"""Three criteria in a chain: c1 needs c0, c2 needs c1."""


def test_gating_zeroes_everything_downstream_of_a_failed_link() -> None:
    assert gate([[1, 1, 1], [0, 1, 1], [1, 0, 1], [1, 1, 0]], CHAIN) == [[1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0]]
    # A criterion with two prerequisites needs both.
    assert gate([[1, 0, 1], [1, 1, 1]], [[], [], [0, 1]]) == [[1, 0, 0], [1, 1, 1]]
    with pytest.raises(ValueError, match="cycle"):
        gate([[1, 1]], [[1], [0]])


def test_weights_favour_what_the_group_fails_and_sum_to_one() -> None:
    w = weights_for([1.0, 0.5, 0.0], alpha=1.0, epsilon=0.05)
    assert math.isclose(sum(w), 1.0)
    assert w[0] < w[1] < w[2]
    assert math.isclose(w[0], 0.05 / (0.05 + 0.55 + 1.05))


def test_completion_focused_by_hand() -> None:
    passed = [[1, 1, 1], [1, 1, 0], [1, 0, 1], [0, 1, 1]]
    score = group_rewards(passed, CHAIN, RewardConfig())
    gated = [[1, 1, 1], [1, 1, 0], [1, 0, 0], [0, 0, 0]]
    rates = [0.75, 0.5, 0.25]
    raw = [0.05 + (1 - p) for p in rates]
    w = [x / sum(raw) for x in raw]
    expected = [0.5 * all(row) + 0.5 * sum(wk * c for wk, c in zip(w, row, strict=True)) for row in gated]
    assert score.rewards == pytest.approx(expected)
    assert score.gated_pass_rates == rates and score.pass_rates == [0.75, 0.75, 0.75]
    assert score.weights == pytest.approx(w)
    # Without gating the downstream criteria count even when their link failed.
    ungated = group_rewards(passed, CHAIN, RewardConfig(gating=False))
    assert ungated.rewards[3] > 0 == score.rewards[3]


def test_binary_and_uniform() -> None:
    passed = [[1, 1, 1], [1, 1, 0], [0, 0, 0]]
    assert group_rewards(passed, CHAIN, RewardConfig(scheme="binary")).rewards == [1.0, 0.0, 0.0]
    assert group_rewards(passed, CHAIN, RewardConfig(scheme="uniform")).rewards == pytest.approx([1.0, 2 / 3, 0.0])


def test_advantages() -> None:
    assert advantages([1.0, 0.0], "dr_grpo") == [0.5, -0.5]
    a = advantages([1.0, 0.0, 0.0, 0.0])
    std = math.sqrt((0.75**2 + 3 * 0.25**2) / 3)
    assert a[0] == pytest.approx(0.75 / (std + 1e-6))
    assert advantages([0.3, 0.3, 0.3]) == [0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="scheme"):
        RewardConfig(scheme="other")  # type: ignore[arg-type]


groups = st.integers(min_value=1, max_value=4).flatmap(
    lambda k: st.tuples(
        st.just(k),
        st.lists(st.lists(st.booleans(), min_size=k, max_size=k), min_size=2, max_size=8),
        st.lists(st.lists(st.integers(0, k - 1), max_size=2), min_size=k, max_size=k),
    )
)


def _dag(k: int, deps: list[list[int]]) -> list[list[int]]:
    """Only edges to earlier criteria: always acyclic, like the walk's criteria."""
    return [sorted({j for j in d if j < i}) for i, d in enumerate(deps[:k])]


@settings(max_examples=200, deadline=None)
@given(groups, st.floats(0.1, 3.0), st.floats(0.0, 0.5))
def test_properties_of_every_scheme(
    group: tuple[int, list[list[bool]], list[list[int]]], alpha: float, eps: float
) -> None:
    k, passed, deps = group
    deps = _dag(k, deps)
    for scheme in ("binary", "uniform", "completion_focused"):
        for adv in ("grpo", "dr_grpo"):
            score = group_rewards(passed, deps, RewardConfig(scheme=scheme, alpha=alpha, epsilon=eps, advantage=adv))  # type: ignore[arg-type]
            assert abs(sum(score.advantages)) < 1e-6, "advantages sum to zero per group"
            assert all(0.0 <= r <= 1.0 + 1e-9 for r in score.rewards)
            if score.weights:
                assert math.isclose(sum(score.weights), 1.0)
    # λ = 1 is binary.
    lam1 = group_rewards(passed, deps, RewardConfig(lam=1.0, alpha=alpha, epsilon=eps))
    assert lam1.rewards == group_rewards(passed, deps, RewardConfig(scheme="binary")).rewards
    # A rollout that passes everything gets the top reward of its group.
    cf = group_rewards(passed, deps, RewardConfig(alpha=alpha, epsilon=eps))
    for row, r in zip(passed, cf.rewards, strict=True):
        if all(row):
            assert r == pytest.approx(max(cf.rewards))


@settings(max_examples=200, deadline=None)
@given(groups, st.floats(0.0, 5.0))
def test_a_criterion_every_rollout_passes_or_fails_has_no_effect_on_advantages_whatever_its_weight(
    group: tuple[int, list[list[bool]], list[list[int]]], extra: float
) -> None:
    k, passed, deps = group
    deps = _dag(k, deps)
    gated = gate(passed, deps)
    constant = [j for j in range(k) if len({row[j] for row in gated}) == 1]
    if not constant:
        return
    rates = [sum(row[j] for row in gated) / len(gated) for j in range(k)]
    w = weights_for(rates, 1.0, 0.05)

    def rewards(weights: list[float]) -> list[float]:
        return [0.5 * all(row) + 0.5 * sum(a * c for a, c in zip(weights, row, strict=True)) for row in gated]

    base = advantages(rewards(w), "dr_grpo")
    bumped = list(w)
    bumped[constant[0]] += extra
    assert advantages(rewards(bumped), "dr_grpo") == pytest.approx(base, abs=1e-9)
    assert advantages(rewards(bumped)) == pytest.approx(advantages(rewards(w)), abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=7, max_size=7), min_size=1, max_size=6))
def test_a_rollout_that_meets_every_criterion_earns_exactly_one(rows: list[list[bool]]) -> None:
    # Seven independent criteria with uneven pass rates: their weights need not sum to 1 in floating point.
    passed = [*rows, [True] * 7]
    for config in (RewardConfig(), RewardConfig(scheme="uniform"), RewardConfig(scheme="binary")):
        score = group_rewards(passed, [[]] * 7, config)
        assert score.rewards[-1] == 1.0
