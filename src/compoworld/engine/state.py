"""World state: the seeded, immutable initial state of every service.

A :class:`WorldState` is built from a catalog and a population: each service's
seeders run once, through a :class:`SeedContext`, and fill its tables. They run
when one of the service's tables is first read (a call, a diff, an export …),
not when the world is built, so a process that uses a few services seeds and
imports only those; a seeder sees only its own service's records and the
shared population, so the order in which services are seeded changes nothing.
A world is never written to; episodes overlay their own writes on it. Which
population a world is seeded from is the world layer's business
(:class:`compoworld.world.world.World` draws it from a seed).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import random
import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from compoworld.engine.catalog import Catalog
from compoworld.engine.entities import Population
from compoworld.engine.errors import CatalogError
from compoworld.engine.index import IndexStore
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

    A world holds every table of its catalog from the start; until the
    service is seeded, ``records``, ``sorted_ids`` and ``counters`` are unset
    and the first read of one seeds it.

    Args:
        spec: The resource the table holds.
        records: Its records by id.
        counters: The last value of each counter (``id`` and sequence fields).
    """

    __slots__ = ("_indexes", "_load", "counters", "records", "sorted_ids", "spec")

    def __init__(self, spec: ResourceSpec[Any], records: dict[str, Record], counters: dict[str, int]) -> None:
        self.spec = spec
        self._indexes: dict[str, dict[Any, list[str]]] = {}
        self._load: Callable[[], None] | None = None
        self._fill(records, counters)

    @classmethod
    def unseeded(cls, spec: ResourceSpec[Any], load: Callable[[], None]) -> WorldTable:
        """A table whose records ``load`` fills in (by seeding its service) on first read."""
        table = cls.__new__(cls)
        table.spec = spec
        table._indexes = {}
        table._load = load
        return table

    def _fill(self, records: dict[str, Record], counters: dict[str, int]) -> None:
        self.counters = counters
        self.sorted_ids: list[str] = sorted(records)
        self.records = records
        self._load = None

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise accept any attribute name

        def __getattr__(self, name: str) -> Any:
            # Reached only while a slot is unset: the first read of a table not seeded yet.
            # Once seeded, the slots answer directly and reads pay nothing for the laziness.
            if name in ("records", "sorted_ids", "counters"):
                load = object.__getattribute__(self, "_load")
                if load is not None:
                    load()
                    return object.__getattribute__(self, name)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

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


_VERSION = re.compile(r"^[0-9a-f]{20}$")


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
        # Threads share a world: a service must be seeded once, whoever reads its tables first.
        self._lock = threading.RLock()
        self._unseeded: set[str] = set(catalog.services)
        self.tables: dict[str, WorldTable] = {
            table: WorldTable.unseeded(spec, functools.partial(self._seed, spec.service))
            for table, spec in catalog.tables.items()
        }
        self._version: str | None = None

    def _seed(self, service: str) -> None:
        """Run a service's seeders (importing it if need be) and fill its tables."""
        with self._lock:
            if service not in self._unseeded:
                return
            svc = self.catalog.services[service]
            # A fresh staging area: a SeedContext made by hand on this world (tests do) writes to the old one.
            outer, self._staging = self._staging, {}
            try:
                ctx = SeedContext(self, service)
                for seeder in svc.seeders:
                    seeder(ctx)
                staged = self._staging
            finally:
                self._staging = outer
            for spec in svc.resources:
                records, counters = staged.pop(spec.table, ({}, {}))
                self.tables[spec.table]._fill(records, counters)
            self._unseeded.discard(service)

    def seed_all(self) -> None:
        """Seed every service not seeded yet (importing it if need be)."""
        for service in sorted(self._unseeded):
            self._seed(service)

    @property
    def seeded(self) -> frozenset[str]:
        """The services whose tables are seeded so far."""
        return frozenset(self.catalog.services) - self._unseeded

    def _version_key(self) -> str | None:
        """What the version is kept under: everything the records derive from, or None when that is not known.

        The catalog's source digest covers the code (services, the modules they
        import, the engine); the population's text covers who is in the world.
        """
        sources = self.catalog.source_digest
        if sources is None:
            return None
        world = type(self)
        parts = [
            "world-version-1",
            self.catalog.fingerprint,
            sources,
            repr(self.seed),
            repr(self.scale),
            f"{world.__module__}.{world.__qualname__}",
            hashlib.sha256(repr(self.population).encode()).hexdigest(),
        ]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]

    @property
    def version(self) -> str:
        """A hash of the catalog's contract and of every record: equal worlds, equal versions.

        It needs every record, so it would seed every service; a catalog loaded
        from its index keeps the value on disk instead, under a key of the
        sources and the population the records derive from
        (:meth:`_version_key`), and a fresh process reads it from there.
        """
        if self._version is None:
            with self._lock:
                if self._version is None:
                    key = self._version_key()
                    store = IndexStore() if key is not None else None
                    cached = store.read_text("worlds", key) if store is not None and key is not None else None
                    if cached is not None and _VERSION.match(cached):
                        self._version = cached
                    else:
                        self._version = self._compute_version()
                        if store is not None and key is not None:
                            store.write_text("worlds", key, self._version)
        return self._version

    def _compute_version(self) -> str:
        h = hashlib.sha256()
        h.update(f"{self.catalog.fingerprint}:{self.seed}:{self.scale}".encode())
        for name in sorted(self.tables):
            table = self.tables[name]
            h.update(name.encode())
            for rid in table.sorted_ids:
                h.update(canonical_json(table.records[rid].model_dump(mode="json")).encode())
        return h.hexdigest()[:20]

    def record_count(self) -> int:
        """Number of records in all tables (seeding every service)."""
        return sum(len(t.records) for t in self.tables.values())
