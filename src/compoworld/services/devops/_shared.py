"""What several devops services seed alike: the organization's handle on developer platforms."""

from __future__ import annotations

from compoworld.engine.entities import Population

__all__ = ["org_handle"]


def org_handle(population: Population) -> str:
    """The company's organization name on developer platforms: its domain's first label (acme.example: acme)."""
    return population.home.domain.split(".")[0]
