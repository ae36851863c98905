"""Episode state: one agent's private, copy-on-write view of a world's records.

An episode holds only its own writes over the shared immutable world: per
table, a dict of ``id -> record`` (``None`` for a deletion). That makes the
uniform state interface cheap and independent of the world's size:

* ``reset`` drops the writes;
* ``snapshot`` shares the current write dicts with a token and marks them
  borrowed, so the next write to a table copies that table's writes first;
* ``restore`` adopts a token's dicts the same way;
* ``diff`` and ``state_hash`` only look at written records.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from heapq import merge
from typing import Any

from compoworld.engine.openworld import DEFAULT_WORLD_MODEL, Recording, WorldModel
from compoworld.engine.records import Record
from compoworld.engine.state import WorldState, canonical_json

__all__ = ["EpisodeState", "RecordChange", "Snapshot", "StateDiff", "TableDiff"]

_MISSING: Any = object()
_TICK = dt.timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A cheap token for an episode state; restore it with :meth:`Episode.restore`."""

    world: WorldState
    overlay: Mapping[str, dict[str, Record | None]]
    counters: Mapping[str, int]
    tick: int


@dataclass(slots=True)
class RecordChange:
    """One updated record: its state before and after, and the fields that changed."""

    id: str
    before: dict[str, Any]
    after: dict[str, Any]
    changed: list[str]


@dataclass(slots=True)
class TableDiff:
    """Records added, updated and removed in one table (JSON-ready dicts)."""

    added: list[dict[str, Any]] = field(default_factory=list)
    updated: list[RecordChange] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class StateDiff:
    """Per-table changes between two states of an episode."""

    tables: dict[str, TableDiff] = field(default_factory=dict)

    @property
    def is_empty(self) -> bool:
        """True when nothing changed."""
        return not self.tables

    def counts(self) -> dict[str, dict[str, int]]:
        """Numbers of added, updated and removed records per table."""
        return {
            name: {"added": len(t.added), "updated": len(t.updated), "removed": len(t.removed)}
            for name, t in self.tables.items()
        }

    def to_dict(self) -> dict[str, Any]:
        """The diff as JSON-ready data."""
        return {
            name: {
                "added": t.added,
                "updated": [
                    {"id": c.id, "changed": c.changed, "before": c.before, "after": c.after} for c in t.updated
                ],
                "removed": t.removed,
            }
            for name, t in self.tables.items()
        }


class EpisodeState:
    """A private, mutable view of a world with the uniform state interface.

    What a tool's context, the runtime and the SQLite export work on;
    :class:`compoworld.engine.episode.Episode` adds the calls themselves.

    Args:
        world: The shared world.
        seed: Episode seed; mixes into the randomness tools draw.
        world_model: Answers open-world calls (default: the synthetic, offline model).

    The open-world answers it returned are in :attr:`recording`; replay them with
    :class:`~compoworld.engine.openworld.ReplayWorldModel`.
    """

    __slots__ = ("_counters", "_journal", "_overlay", "_owned", "_recording", "seed", "tick", "world", "world_model")

    def __init__(self, world: WorldState, *, seed: int = 0, world_model: WorldModel | None = None) -> None:
        self.world = world
        self.seed = seed
        self.world_model: WorldModel = world_model or DEFAULT_WORLD_MODEL
        self._recording: Recording | None = None
        self._overlay: dict[str, dict[str, Record | None]] = {}
        self._owned: set[str] = set()
        self._counters: dict[str, int] = {}
        self.tick = 0
        self._journal: list[tuple[str, str, Any]] | None = None

    # -- the uniform state interface ---------------------------------------------------

    def reset(self) -> None:
        """Drop every write and the open-world recording: back to the world's initial state."""
        self._recording = None
        self._overlay = {}
        self._owned = set()
        self._counters = {}
        self.tick = 0

    @property
    def recording(self) -> Recording:
        """Every open-world answer this episode returned since its last reset."""
        if self._recording is None:
            # Made on first use: most episodes make no open-world call, and reset stays O(1).
            self._recording = Recording()
        return self._recording

    @property
    def pristine(self) -> bool:
        """Whether the state is still the world's own: nothing written, no counter drawn, the clock at its start.

        A call's outcome on such a state depends on the call alone (and the episode's seed and world model).
        """
        return self.tick == 0 and not self._counters and not any(self._overlay.values())

    def snapshot(self) -> Snapshot:
        """Return a token of the current state (cost independent of world size)."""
        self._owned = set()
        return Snapshot(self.world, dict(self._overlay), self._counters, self.tick)

    def restore(self, snap: Snapshot) -> None:
        """Return to the state a snapshot was taken in.

        The snapshot may come from another episode of the same world: restoring it
        forks that state (start a group of rollouts from one mid-task state, say).
        The two episodes share nothing afterwards: each copies a table before its
        first write to it. The open-world recording is the episode's own and is kept.

        Raises:
            ValueError: if the snapshot belongs to another world.
        """
        if snap.world is not self.world:
            raise ValueError("snapshot belongs to another world")
        self._overlay = dict(snap.overlay)
        self._owned = set()
        self._counters = dict(snap.counters)
        self.tick = snap.tick

    def diff(self, base: Snapshot | None = None) -> StateDiff:
        """Records added, updated and removed since ``base`` (default: the world).

        Args:
            base: An earlier snapshot of this episode, or None for the initial state.

        Returns:
            The per-table diff, tables and ids in sorted order.
        """
        base_overlay: Mapping[str, dict[str, Record | None]] = base.overlay if base else {}
        out: dict[str, TableDiff] = {}
        for table in sorted(set(self._overlay) | set(base_overlay)):
            world_records = self.world.tables[table].records
            mine = self._overlay.get(table, {})
            theirs = base_overlay.get(table, {})
            td = TableDiff()
            for rid in sorted(set(mine) | set(theirs)):
                before = theirs[rid] if rid in theirs else world_records.get(rid)
                after = mine[rid] if rid in mine else world_records.get(rid)
                if before == after:
                    continue
                if before is None and after is not None:
                    td.added.append(after.model_dump(mode="json"))
                elif after is None and before is not None:
                    td.removed.append(before.model_dump(mode="json"))
                elif before is not None and after is not None:
                    b = before.model_dump(mode="json")
                    a = after.model_dump(mode="json")
                    changed = sorted(k for k in a if a[k] != b.get(k))
                    td.updated.append(RecordChange(rid, b, a, changed))
            if td.added or td.updated or td.removed:
                out[table] = td
        return StateDiff(out)

    def state_hash(self) -> str:
        """A canonical hash of the records: same records, same hash, in any process.

        Writes that leave a record as the world has it (or delete a record that
        never existed) do not count, so the hash depends on the state alone.
        """
        h = hashlib.sha256(self.world.version.encode())
        for table in sorted(self._overlay):
            world_records = self.world.tables[table].records
            ov = self._overlay[table]
            for rid in sorted(ov):
                rec = ov[rid]
                orig = world_records.get(rid)
                if rec == orig:
                    continue
                body = "null" if rec is None else canonical_json(rec.model_dump(mode="json"))
                h.update(f"\x00{table}\x00{rid}\x00{body}".encode())
        return h.hexdigest()

    # -- reads ------------------------------------------------------------------------

    def now(self) -> dt.datetime:
        """The episode clock: the world's epoch plus one minute per successful write call."""
        return self.world.epoch + self.tick * _TICK

    def get(self, table: str, record_id: str) -> Record | None:
        """Return the current record ``record_id`` of ``table`` or None."""
        ov = self._overlay.get(table)
        if ov is not None:
            rec = ov.get(record_id, _MISSING)
            if rec is not _MISSING:
                return rec  # type: ignore[no-any-return]
        return self.world.tables[table].records.get(record_id)

    def iter_records(self, table: str, after: str | None = None) -> Iterator[Record]:
        """Iterate the current records of ``table`` in id order, after id ``after``."""
        wt = self.world.tables[table]
        ids = wt.sorted_ids
        start = bisect_right(ids, after) if after is not None else 0
        ov = self._overlay.get(table)
        records = wt.records
        if not ov:
            for i in range(start, len(ids)):
                yield records[ids[i]]
            return
        added = sorted(k for k, v in ov.items() if v is not None and k not in records and (after is None or k > after))
        world_ids = (ids[i] for i in range(start, len(ids)))
        for rid in merge(world_ids, added):
            rec = ov.get(rid, _MISSING)
            if rec is _MISSING:
                yield records[rid]
            elif rec is not None:
                yield rec

    def select(self, table: str, equals: Mapping[str, Any], after: str | None = None) -> Iterator[Record]:
        """Iterate the current records whose fields equal ``equals``, in id order.

        Uses the world table's index on the first field, so a filtered list
        costs the matches, not the table.
        """
        if not equals:
            yield from self.iter_records(table, after)
            return
        wt = self.world.tables[table]
        items = list(equals.items())
        first_field, first_value = items[0]
        try:
            candidates = wt.index(first_field).get(first_value, ())
        except TypeError:  # an unhashable filter value matches nothing
            return
        ov = self._overlay.get(table) or {}
        ids: list[str] = [i for i in candidates if i not in ov] if ov else list(candidates)
        if ov:
            ids.extend(k for k, v in ov.items() if v is not None and getattr(v, first_field) == first_value)
            ids.sort()
        start = bisect_right(ids, after) if after is not None else 0
        rest = items[1:]
        for i in range(start, len(ids)):
            rid = ids[i]
            rec = ov.get(rid) if rid in ov else wt.records[rid]
            if rec is None:
                continue
            if all(getattr(rec, f) == v for f, v in rest):
                yield rec

    # -- writes (through Ctx) ---------------------------------------------------------

    def _own(self, table: str) -> dict[str, Record | None]:
        if table in self._owned:
            return self._overlay[table]
        ov = dict(self._overlay.get(table, ()))
        self._overlay[table] = ov
        self._owned.add(table)
        return ov

    def put(self, table: str, record: Record) -> None:
        """Write ``record`` into ``table`` (insert or replace)."""
        ov = self._own(table)
        if self._journal is not None:
            self._journal.append((table, record.id, ov.get(record.id, _MISSING)))
        ov[record.id] = record

    def remove(self, table: str, record_id: str) -> None:
        """Delete record ``record_id`` from ``table``."""
        ov = self._own(table)
        if self._journal is not None:
            self._journal.append((table, record_id, ov.get(record_id, _MISSING)))
        ov[record_id] = None

    def next_counter(self, table: str, name: str) -> int:
        """Draw the next value of a table's counter (ids, invoice numbers …)."""
        key = f"{table}:{name}"
        current = self._counters.get(key)
        if current is None:
            current = self.world.tables[table].counters.get(name, 0)
        # Replace rather than mutate: snapshots share the dict.
        self._counters = {**self._counters, key: current + 1}
        return current + 1

    # -- transactions (for the runtime) -----------------------------------------------

    def begin(self) -> tuple[dict[str, int], int]:
        """Start recording writes so that :meth:`rollback` can undo them."""
        self._journal = []
        return self._counters, self.tick

    def commit(self, advance_clock: bool) -> None:
        """Keep the writes since :meth:`begin`; a write call advances the clock."""
        wrote = bool(self._journal)
        self._journal = None
        if advance_clock and wrote:
            self.tick += 1

    def rollback(self, saved: tuple[dict[str, int], int]) -> None:
        """Undo every write since :meth:`begin`."""
        journal = self._journal or []
        for table, rid, prev in reversed(journal):
            ov = self._overlay[table]
            if prev is _MISSING:
                del ov[rid]
            else:
                ov[rid] = prev
        self._journal = None
        self._counters, self.tick = saved
