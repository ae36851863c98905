"""Property tests: episode isolation under random interleavings, and no input breaks the runtime."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compoworld import Episode, World
from compoworld.tasks.arguments import ValuePool, find_valid_arguments

_VALID: dict[int, list[tuple[str, dict[str, Any]]]] = {}


def _valid_writes(world: World) -> list[tuple[str, dict[str, Any]]]:
    """A valid call for every write tool of the world, found once."""
    key = id(world)
    if key not in _VALID:
        pool = ValuePool.from_world(world)
        calls = []
        for tool in world.catalog.tools.values():
            if tool.writes:
                args, _ = find_valid_arguments(world, tool, pool, attempts=12)
                if args is not None:
                    calls.append((tool.name, args))
        _VALID[key] = calls
    return _VALID[key]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_episode_sees_another_episodes_writes_whatever_the_interleaving(world: World, data: st.DataObject) -> None:
    calls = _valid_writes(world)
    n_eps = data.draw(st.integers(2, 5), label="episodes")
    schedule = data.draw(
        st.lists(
            st.tuples(st.integers(0, n_eps - 1), st.sampled_from(calls), st.sampled_from(["call", "snap", "restore"])),
            min_size=1,
            max_size=30,
        ),
        label="schedule",
    )
    shared = [Episode(world, seed=i) for i in range(n_eps)]
    alone = [Episode(world, seed=i) for i in range(n_eps)]
    snaps_shared: dict[int, Any] = {}
    snaps_alone: dict[int, Any] = {}
    for idx, (tool, args), op in schedule:
        if op == "call":
            r1 = shared[idx].call(tool, args)
            r2 = alone[idx].call(tool, args)
            assert r1.to_dict() == r2.to_dict()
        elif op == "snap":
            snaps_shared[idx] = shared[idx].snapshot()
            snaps_alone[idx] = alone[idx].snapshot()
        elif idx in snaps_shared:
            shared[idx].restore(snaps_shared[idx])
            alone[idx].restore(snaps_alone[idx])
        # Replaying each episode's own calls in isolation gives the same state:
        # nothing written by another episode leaked in.
    for i in range(n_eps):
        assert shared[i].state_hash() == alone[i].state_hash()
        assert shared[i].diff().to_dict() == alone[i].diff().to_dict()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_malformed_arguments_never_raise_out_of_the_runtime_nor_change_state(world: World, data: st.DataObject) -> None:
    names = sorted(world.catalog.tools)
    tool = data.draw(st.sampled_from(names) | st.text(max_size=20), label="tool")
    known = world.catalog.tools.get(tool)
    keys = list(known.parameters_schema.get("properties", {})) if known else []
    key_strategy = st.sampled_from(keys) | st.text(max_size=10) if keys else st.text(max_size=10)
    arguments = data.draw(
        st.dictionaries(key_strategy, json_values, max_size=6) | json_values | st.text(max_size=40),
        label="arguments",
    )
    ep = Episode(world)
    before = ep.state_hash()
    res = ep.call(tool, arguments)
    if not res.ok:
        assert res.error is not None and res.error.type != "internal_error", res.error
        assert ep.state_hash() == before and ep.diff().is_empty
