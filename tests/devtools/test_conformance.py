"""The conformance suite, run over every registered service and tool.

Parametrised from the registry: a newly registered service is checked the
moment it exists, with no test to write.
"""

from __future__ import annotations

import pytest

from compoworld import Catalog, World
from compoworld.devtools.conformance import check_tool
from compoworld.engine.registration import registered
from compoworld.tasks.arguments import ValuePool

_CATALOG = Catalog.load(render_schemas=True)
_TOOLS = sorted(_CATALOG.tools)
_POOL: dict[int, ValuePool] = {}


def test_every_registered_service_is_in_the_catalog() -> None:
    assert sorted(_CATALOG.services) == sorted(registered())


def test_the_catalog_has_the_breadth_the_foundation_promises() -> None:
    stats = _CATALOG.stats()
    assert stats["services"] >= 12
    assert stats["tools"] >= 150
    assert stats["categories"] >= 6


@pytest.mark.parametrize("tool_name", _TOOLS)
def test_tool_conforms(world: World, tool_name: str) -> None:
    pool = _POOL.get(id(world))
    if pool is None:  # built once per worker: collecting a whole world's values takes a while
        pool = _POOL[id(world)] = ValuePool.from_world(world)
    failures = [r for r in check_tool(world, world.catalog.tools[tool_name], pool) if not r.ok]
    assert not failures, "\n".join(f"{r.check}: {r.detail}" for r in failures)
