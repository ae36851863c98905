"""Shared fixtures: the full catalog and a world, built once per test session."""

from __future__ import annotations

import pytest

from compoworld import Catalog, World


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return Catalog.load(render_schemas=True)


@pytest.fixture(scope="session")
def world(catalog: Catalog) -> World:
    return World.build(catalog, seed=0)


@pytest.fixture(scope="session")
def crm_world() -> World:
    return World.build(Catalog.load(["crm"]), seed=0)
