"""The package's layers hold, and the check that says so catches what breaks them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import compoworld
from compoworld.devtools.layering import check_layers, part_of

PACKAGE = Path(compoworld.__file__).parent


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the package without most services (parsing them all is slow and adds nothing here)."""
    root = tmp_path / "compoworld"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
    for domain in (root / "services").iterdir():
        if domain.is_dir() and domain.name not in ("sales", "places", "kit"):
            shutil.rmtree(domain)
    return root


def _add(path: Path, text: str) -> None:
    path.write_text(path.read_text() + "\n" + text + "\n")


def test_the_package_respects_its_layers_and_has_no_import_cycle() -> None:
    assert check_layers(PACKAGE) == []


def test_every_module_belongs_to_a_known_part() -> None:
    assert part_of("compoworld.engine.episode") == "engine"
    assert part_of("compoworld.services.sales.crm") == "services"
    assert part_of("compoworld.services.kit.geo") == "services.kit"
    assert part_of("compoworld.__main__") == "cli"
    assert part_of("compoworld") == ""


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("engine/records.py", "from compoworld.agents.chat import ToolCallRequest"),
        (
            "engine/records.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from compoworld.world.world import World",
        ),
        ("tasks/walk.py", "def _late() -> None:\n    from compoworld.agents.session import TaskSession"),
        ("serve/sessions.py", "import compoworld.adapters.gym"),
        ("adapters/trl.py", "from compoworld.train.export import rl_rows"),
        ("world/population.py", "from compoworld.services.sales import crm"),
        ("services/sales/crm.py", "from compoworld.services.places.maps import haversine_m"),
        ("services/sales/crm.py", "from compoworld.tasks.task import Task"),
        ("engine/context.py", "import compoworld"),
    ],
)
def test_an_import_against_the_layers_is_reported_wherever_it_is_written(tree: Path, where: str, text: str) -> None:
    _add(tree / where, text)
    problems = check_layers(tree)
    order = [p for p in problems if not p.startswith("import cycle: ")]
    assert len(order) == 1 and order[0].startswith(f"{tree / where}:"), problems
    # An import up the layers often closes a cycle too; that is reported as well, and nothing else is.
    assert len(problems) - len(order) <= 1


def test_the_copied_tree_is_clean_before_anything_is_added(tree: Path) -> None:
    assert check_layers(tree) == []


def test_an_import_cycle_within_one_part_is_reported(tree: Path) -> None:
    _add(tree / "engine/errors.py", "from compoworld.engine.episode import Episode")
    problems = check_layers(tree)
    assert any(p.startswith("import cycle: ") and "compoworld.engine.errors" in p for p in problems), problems
    assert all("imports" not in p.split(": ", 1)[0] for p in problems)


def test_relative_imports_are_resolved_like_absolute_ones(tree: Path) -> None:
    _add(tree / "tasks/graph.py", "from ..agents import chat")
    problems = check_layers(tree)
    assert len(problems) == 1 and "compoworld.tasks.graph imports compoworld.agents.chat" in problems[0], problems
