"""World state: the seeded, immutable initial state of every service.

A :class:`WorldState` is built from a catalog and a population: every service's
seeders run once, through a :class:`SeedContext`, and fill its tables. A world
is never written to; episodes overlay their own writes on it. Which population
a world is seeded from is the world layer's business
(:class:`compoworld.world.world.World` draws it from a seed).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
from typing import Any, TypeVar

from pydantic import ValidationError

from compoworld.engine.catalog import Catalog
from compoworld.engine.entities import Population
from compoworld.engine.errors import CatalogError
from compoworld.engine.records import Record, generated_fields
from compoworld.engine.service import ResourceSpec

__all__ = ["EPOCH", "SeedContext", "WorldState", "WorldTable", "canonical_json"]

EPOCH = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
"""Every world's "now" before any episode writes: a Monday morning, UTC."""

RT = TypeVar("RT", bound=Record)


# One encoder for every call: json.dumps with these options would build a new one each time.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> str:
    """Serialise JSON-ready data canonically: sorted keys, no spaces, UTF-8 text."""
    return _CANONICAL.encode(value)


class WorldTable:
    """One table of the world: records by id, ids in order, lazy equality indexes.

    Args:
        spec: The resource the table holds.
        records: Its records by id.
        counters: The last value of each counter (``id`` and sequence fields).
    """

    __slots__ = ("_indexes", "counters", "records", "sorted_ids", "spec")

    def __init__(self, spec: ResourceSpec[Any], records: dict[str, Record], counters: dict[str, int]) -> None:
        self.spec = spec
        self.records = records
        self.sorted_ids: list[str] = sorted(records)
        self.counters = counters
        self._indexes: dict[str, dict[Any, list[str]]] = {}

    def index(self, field: str) -> dict[Any, list[str]]:
        """Ids by value of ``field`` (built on first use; ids in order)."""
        idx = self._indexes.get(field)
        if idx is None:
            idx = {}
            for rid in self.sorted_ids:
                value = getattr(self.records[rid], field)
                try:
                    idx.setdefault(value, []).append(rid)
                except TypeError:
                    raise CatalogError(
                        f"{self.spec.table}.{field} holds unhashable values and cannot be filtered on"
                    ) from None
            self._indexes[field] = idx
        return idx


class SeedContext:
    """What a service's seeder sees while the world is built.

    Args:
        world: The world under construction.
        service: The service being seeded.
    """

    def __init__(self, world: WorldState, service: str) -> None:
        self._world = world
        self.service = service
        self.population: Population = world.population
        self.rng = random.Random(f"compoworld-seed:{world.seed}:{service}")
        self.now: dt.datetime = EPOCH

    def _table(self, model: type[Record]) -> tuple[ResourceSpec[Any], dict[str, Record], dict[str, int]]:
        spec = self._world.catalog.spec_of(model)
        if spec.service != self.service:
            raise CatalogError(f"seeder of {self.service!r} cannot insert {spec.qualified} records")
        records, counters = self._world._staging.setdefault(spec.table, ({}, {}))
        return spec, records, counters

    def create(self, model: type[RT], **fields: Any) -> RT:
        """Insert a record, assigning its id and generated fields like a create tool.

        ``created``/``updated`` fields default to :data:`EPOCH` minus nothing; pass
        them explicitly to back-date seeded records.

        Args:
            model: The record type.
            **fields: Field values.

        Returns:
            The record.

        Raises:
            CatalogError: if the values do not make a valid record.
        """
        spec, records, counters = self._table(model)
        values = dict(fields)
        n = counters.get("id", 0) + 1
        counters["id"] = n
        values["id"] = f"{spec.prefix}_{n:06d}"
        for fname, gen in generated_fields(model):
            if gen.kind == "sequence":
                k = counters.get(fname, 0) + 1
                counters[fname] = k
                values.setdefault(fname, gen.render(k))
            else:
                values.setdefault(fname, self.now)
        try:
            rec = model.model_validate(values)
        except ValidationError as exc:
            raise CatalogError(f"seeder of {self.service!r} made an invalid {spec.qualified}: {exc}") from exc
        records[rec.id] = rec
        return rec

    def update(self, record: RT, **changes: Any) -> RT:
        """Replace a seeded record with a changed, re-validated copy (for records that point at each other).

        Args:
            record: A record this seeder created.
            **changes: New field values (not ``id``).

        Returns:
            The new record.

        Raises:
            CatalogError: if the record was not seeded here or the values are invalid.
        """
        spec, records, _ = self._table(type(record))
        if records.get(record.id) is not record:
            raise CatalogError(f"seeder of {self.service!r} can only update records it created ({record.id})")
        if "id" in changes:
            raise CatalogError(f"seeder of {self.service!r} cannot change the id of {record.id}")
        try:
            new = type(record).model_validate({**record.__dict__, **changes})
        except ValidationError as exc:
            raise CatalogError(f"seeder of {self.service!r} made an invalid {spec.qualified}: {exc}") from exc
        records[record.id] = new
        return new

    def ago(self, *, days: float = 0, hours: float = 0, minutes: float = 0) -> dt.datetime:
        """The time that long before the seeder's now (back-dating seeded records)."""
        return self.now - dt.timedelta(days=days, hours=hours, minutes=minutes)

    def records(self, model: type[RT]) -> list[RT]:
        """The records of ``model`` seeded so far, in id order."""
        _, records, _ = self._table(model)
        return [records[k] for k in sorted(records)]  # type: ignore[misc]


class WorldState:
    """The immutable initial state shared by every episode in a process.

    Args:
        catalog: The loaded catalog.
        population: The people, companies, products and places the services seed from.
        seed: The world seed (every seeder's randomness derives from it).
        scale: The population's scale, recorded in the version.
    """

    def __init__(self, catalog: Catalog, population: Population, *, seed: int = 0, scale: float = 1.0) -> None:
        self.catalog = catalog
        self.seed = seed
        self.scale = scale
        self.epoch = EPOCH
        self.population = population
        self._staging: dict[str, tuple[dict[str, Record], dict[str, int]]] = {}
        for svc in catalog.services.values():
            ctx = SeedContext(self, svc.name)
            for seeder in svc.seeders:
                seeder(ctx)
        self.tables: dict[str, WorldTable] = {}
        for table, spec in catalog.tables.items():
            records, counters = self._staging.pop(table, ({}, {}))
            self.tables[table] = WorldTable(spec, records, counters)
        self._version: str | None = None

    @property
    def version(self) -> str:
        """A hash of the catalog's contract and of every record: equal worlds, equal versions."""
        if self._version is None:
            h = hashlib.sha256()
            h.update(f"{self.catalog.fingerprint}:{self.seed}:{self.scale}".encode())
            for name in sorted(self.tables):
                table = self.tables[name]
                h.update(name.encode())
                for rid in table.sorted_ids:
                    h.update(canonical_json(table.records[rid].model_dump(mode="json")).encode())
            self._version = h.hexdigest()[:20]
        return self._version

    def record_count(self) -> int:
        """Number of records in all tables."""
        return sum(len(t.records) for t in self.tables.values())
