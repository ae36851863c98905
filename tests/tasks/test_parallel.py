"""The executor path of synthesis: a worker's draw is trusted only while it is what this process would draw."""

from __future__ import annotations

import dataclasses
import filecmp
from collections.abc import Generator, Iterable
from pathlib import Path
from typing import Any

from compoworld.tasks.parallel import IndexDraw, LocalExecutor, SeenProbe
from compoworld.tasks.taskset import synthesize


class _Stale:
    """Hands out draws as if made before the first task was kept: each later one asked about that task."""

    workers = 1

    def __init__(self) -> None:
        self.inner = LocalExecutor()
        self.poisoned = 0

    def imap(self, worker: str, init: dict[str, Any], method: str, items: Iterable[Any]) -> Generator[Any, None, None]:
        first: str | None = None
        for part in self.inner.imap(worker, init, method, items):
            out = []
            for draw in part:
                assert isinstance(draw, IndexDraw)
                if first is None:
                    first = draw.kept[0] if draw.kept else None
                    out.append(draw)
                    continue
                self.poisoned += 1
                # Were the driver to trust it, a damaged line and a made-up rejection would reach the files.
                out.append(
                    dataclasses.replace(
                        draw,
                        task_json='{"damaged": true}' if draw.task_json else None,
                        asked=(*draw.asked, first),
                        rejected={"made_up": 1},
                    )
                )
            yield out

    def close(self) -> None:
        self.inner.close()


def test_stale_draws_are_drawn_again_by_the_driver_and_the_files_match_a_local_run(tmp_path: Path) -> None:
    synthesize(tmp_path / "local", count=8, seed=2)
    stale = _Stale()
    synthesize(tmp_path / "stale", count=8, seed=2, executor=stale)
    assert stale.poisoned > 0
    for name in ("tasks.jsonl", "stats.json", "progress.json"):
        assert filecmp.cmp(tmp_path / "local" / name, tmp_path / "stale" / name, shallow=False), name


def test_the_probe_answers_not_seen_and_remembers_every_question() -> None:
    probe = SeenProbe()
    assert "a" not in probe and "b" not in probe
    probe.add("c")
    assert probe.asked == ["a", "b"] and set(probe) == {"c"}
    draw = IndexDraw(0, None, ("a", "b"), (), {})
    assert draw.valid_for({"z"}) and not draw.valid_for({"b"})
