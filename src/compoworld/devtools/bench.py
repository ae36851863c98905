"""The engine benchmark behind ``compoworld bench engine``.

Measures, in one run: validated calls per second on a read and a write tool,
reset/snapshot/restore latency on a small and a large world (to show they do
not grow with the world), the memory of 10,000 live episodes with 10 writes
each, the time to import, load the catalog and build the world in a fresh
process, and the time a fresh process takes to load three services, build their
world and make one call on each (what a worker that serves a few services pays:
services load on first use, docs/design.md §3).
"""

from __future__ import annotations

import gc
import json
import os
import resource
import subprocess
import sys
import time
from typing import Any

from compoworld.engine.catalog import Catalog
from compoworld.engine.episode import Episode
from compoworld.engine.tools import Tool
from compoworld.tasks.arguments import find_valid_arguments
from compoworld.world.world import World

__all__ = ["bench_engine", "rss_mb"]

TARGETS = {
    "read_calls_per_s": (">=", 50_000),
    "reset_us": ("<=", 50),
    "snapshot_us": ("<=", 50),
    "large_reset_us": ("<=", 50),
    "large_snapshot_us": ("<=", 50),
    "episodes_10k_mb": ("<=", 2048),
    "load_s": ("<=", 1.0),
    "load_3_services_s": ("<=", 0.5),
}

THREE_SERVICES = ("crm", "mail", "helpdesk")
"""The services ``load_3_services_s`` loads."""


def rss_mb() -> float:
    """Current resident memory of this process in MiB (peak where /proc is missing)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _pick(world: World, kind: str, name: str | None) -> tuple[Tool, dict[str, Any]]:
    tools = world.catalog.tools
    candidates = [tools[name]] if name else [t for n, t in sorted(tools.items()) if t.kind == kind]
    for tool in candidates:
        args, _ = find_valid_arguments(world, tool)
        if args is not None:
            return tool, args
    raise RuntimeError(f"no {kind} tool with a valid call found")


def _distinct_writes(world: World, tool: Tool, args: dict[str, Any], n: int = 10) -> list[dict[str, Any]]:
    """``args`` aimed at ``n`` different records, each call a real write on a fresh episode."""
    if tool.resource is None:
        return []
    spec = world.catalog.resources[tool.resource]
    pname = f"{spec.name}_id"
    out: list[dict[str, Any]] = []
    for rid in world.tables[spec.table].sorted_ids:
        candidate = {**args, pname: rid}
        ep = Episode(world)
        if ep.call(tool.name, candidate).ok and not ep.diff().is_empty:
            out.append(candidate)
            if len(out) == n:
                break
    return out


def _pick_writer(world: World, name: str | None) -> tuple[Tool, list[dict[str, Any]]]:
    tools = world.catalog.tools
    candidates = [tools[name]] if name else [t for n, t in sorted(tools.items()) if t.kind == "update"]
    for tool in candidates:
        args, _ = find_valid_arguments(world, tool)
        if args is not None:
            writes = _distinct_writes(world, tool, args)
            if len(writes) == 10:
                return tool, writes
    raise RuntimeError("no update tool that really writes 10 different records found")


def _rate(fn: Any, seconds: float) -> float:
    n = 0
    batch = 200
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(batch):
            fn()
        n += batch
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def _writes(tool: Tool, writes: list[dict[str, Any]], episode: Episode) -> None:
    for args in writes:
        res = episode.call(tool.name, args)
        if not res.ok:
            raise RuntimeError(f"benchmark write failed: {res.error}")


def _state_ops_us(world: World, wtool: Tool, writes: list[dict[str, Any]], rounds: int = 2000) -> dict[str, float]:
    ep = Episode(world)
    reset_ns = snap_ns = restore_ns = 0
    for _ in range(rounds):
        _writes(wtool, writes, ep)
        if ep.diff().is_empty:
            raise RuntimeError("benchmark writes did not change the state")
        t0 = time.perf_counter_ns()
        snap = ep.snapshot()
        t1 = time.perf_counter_ns()
        ep.restore(snap)
        t2 = time.perf_counter_ns()
        ep.reset()
        t3 = time.perf_counter_ns()
        snap_ns += t1 - t0
        restore_ns += t2 - t1
        reset_ns += t3 - t2
    return {
        "reset_us": reset_ns / rounds / 1000,
        "snapshot_us": snap_ns / rounds / 1000,
        "restore_us": restore_ns / rounds / 1000,
    }


def _load_seconds(services: list[str] | None) -> float:
    code = (
        "import time, json, sys; t = time.perf_counter();"
        "from compoworld import Catalog, World;"
        f"c = Catalog.load({services!r}); w = World.build(c, seed=0);"
        "print(json.dumps(time.perf_counter() - t))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def _load_three_seconds() -> float:
    """Seconds a fresh process takes to load :data:`THREE_SERVICES`, build their world and list once in each."""
    code = (
        "import time, json; t = time.perf_counter();"
        "from compoworld import Catalog, Episode, World;"
        f"c = Catalog.load({list(THREE_SERVICES)!r}); ep = Episode(World.build(c, seed=0));"
        "ok = [ep.call(next(t.name for t in c.tools_of(s) if t.kind == 'list'), {}).ok for s in c.services];"
        "print(json.dumps([time.perf_counter() - t, all(ok)]))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    seconds, ok = json.loads(out.stdout.strip().splitlines()[-1])
    if not ok:
        raise RuntimeError(f"a list call on one of {', '.join(THREE_SERVICES)} failed")
    return float(seconds)


def bench_engine(
    *,
    seconds: float = 1.0,
    services: list[str] | None = None,
    read_tool: str | None = None,
    write_tool: str | None = None,
    large_scale: float = 10.0,
    episodes: int = 10_000,
) -> dict[str, Any]:
    """Run the engine benchmark.

    Args:
        seconds: Duration of each throughput measurement.
        services: Services to load (default: all).
        read_tool: Read tool to time (default: the first ``get`` tool with a valid call).
        write_tool: Write tool to time (default: the first ``update`` tool with a valid call).
        large_scale: Population scale of the large world for the size-independence check.
        episodes: Number of live episodes in the memory measurement.

    Returns:
        The measurements, with ``targets_met`` per target of docs/design.md §9.
    """
    catalog = Catalog.load(services)
    world = World.build(catalog, seed=0)
    rtool, rargs = _pick(world, "get", read_tool)
    wtool, writes = _pick_writer(world, write_tool)
    ep = Episode(world)
    read_rate = _rate(lambda: ep.call(rtool.name, rargs), seconds)
    wep = Episode(world)

    def ten_writes_then_reset() -> None:
        # Ten real writes to ten records; reset (O(1)) so the next round writes again.
        _writes(wtool, writes, wep)
        wep.reset()

    write_rate = _rate(ten_writes_then_reset, seconds) * len(writes)

    small = _state_ops_us(world, wtool, writes)
    big_world = World.build(catalog, seed=0, scale=large_scale)
    big_writes = _distinct_writes(big_world, wtool, writes[0])
    big = _state_ops_us(big_world, wtool, big_writes)

    gc.collect()
    before = rss_mb()
    live = []
    for i in range(episodes):
        e = Episode(world, seed=i)
        _writes(wtool, writes, e)
        live.append(e)
    gc.collect()
    episodes_mb = (rss_mb() - before) * (10_000 / episodes)
    del live

    out: dict[str, Any] = {
        "read_tool": rtool.name,
        "write_tool": wtool.name,
        "read_calls_per_s": round(read_rate),
        "write_calls_per_s": round(write_rate),
        "reset_us": round(small["reset_us"], 2),
        "snapshot_us": round(small["snapshot_us"], 2),
        "restore_us": round(small["restore_us"], 2),
        "world_records": world.record_count(),
        "large_world_records": big_world.record_count(),
        "large_reset_us": round(big["reset_us"], 2),
        "large_snapshot_us": round(big["snapshot_us"], 2),
        "large_restore_us": round(big["restore_us"], 2),
        "episodes_10k_mb": round(episodes_mb, 1),
        "load_s": round(_load_seconds(services), 3),
        "load_3_services_s": round(_load_three_seconds(), 3),
        "tools": len(catalog.tools),
        "services": len(catalog.services),
    }
    met: dict[str, bool] = {}
    for key, (op, target) in TARGETS.items():
        value = out[key]
        met[key] = value >= target if op == ">=" else value <= target
    out["targets_met"] = met
    return out
