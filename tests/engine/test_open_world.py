"""Open-world services across the catalog: breadth, read-only answers, determinism across processes, replay."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from compoworld import Catalog, Episode, World
from compoworld.engine.openworld import Recording, ReplayWorldModel
from compoworld.tasks.arguments import ValuePool, find_valid_arguments

_SCRIPT = """
import json
from compoworld import Catalog, World, Episode
from compoworld.tasks.arguments import ValuePool, find_valid_arguments
world = World.build(Catalog.load(), seed=4)
pool = ValuePool.from_world(world)
out = {}
for name, tool in sorted(world.catalog.tools.items()):
    if tool.annotations.open_world:
        args, _ = find_valid_arguments(world, tool, pool)
        out[name] = [args, Episode(world).call(name, args).to_dict() if args is not None else None]
print(json.dumps(out, sort_keys=True))
"""


def test_the_catalog_has_at_least_eight_open_world_services_and_thirty_tools(catalog: Catalog) -> None:
    stats = catalog.stats()
    assert stats["open_world_services"] >= 8
    assert stats["open_world_tools"] >= 30


def test_every_open_world_tool_is_read_only(catalog: Catalog) -> None:
    for tool in catalog.tools.values():
        if tool.annotations.open_world:
            assert tool.annotations.read_only, tool.name


def test_open_world_answers_are_byte_identical_across_processes_and_hash_seeds() -> None:
    outputs = []
    for hashseed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=env, check=True)
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    answers = json.loads(outputs[0])
    assert len(answers) >= 30
    assert all(v[1] is not None and v[1]["ok"] for v in answers.values()), [
        k for k, v in answers.items() if v[1] is None or not v[1]["ok"]
    ]


def test_replaying_an_open_world_episode_reproduces_every_answer(world: World) -> None:
    pool = ValuePool.from_world(world)
    calls = []
    for name, tool in sorted(world.catalog.tools.items()):
        if tool.annotations.open_world:
            args, _ = find_valid_arguments(world, tool, pool)
            if args is not None:
                calls.append((name, args))
    live = Episode(world)
    results = [live.call(n, a).to_dict() for n, a in calls]
    recording = Recording.model_validate_json(live.recording.model_dump_json())
    replay = Episode(world, world_model=ReplayWorldModel(recording))
    assert [replay.call(n, a).to_dict() for n, a in calls] == results
    assert replay.state_hash() == live.state_hash()
