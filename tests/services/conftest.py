"""The ``ep`` fixture of the service tests."""

from __future__ import annotations

import pytest

from compoworld import Episode, World


@pytest.fixture
def ep(request: pytest.FixtureRequest) -> Episode:
    """A fresh episode of the test module's ``WORLD``."""
    world = request.module.WORLD
    assert isinstance(world, World), f"{request.module.__name__} defines no WORLD"
    return Episode(world)
