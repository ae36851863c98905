"""The context a tool runs in: its episode's tables, clock, randomness and ids.

Tools read and write records only through a :class:`Ctx`; they take time,
randomness and new ids from it too, never from the wall clock, the global
random module or uuid, so that the same calls give the same state anywhere.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import R, Record, generated_fields

if TYPE_CHECKING:
    from compoworld.engine.crud import RecordContext
    from compoworld.engine.entities import Population
    from compoworld.engine.overlay import EpisodeState
    from compoworld.engine.service import ResourceSpec
    from compoworld.engine.tools import Tool

__all__ = ["Ctx", "validation_message"]

_NOTHING = object()


def validation_message(exc: ValidationError) -> tuple[str, str | None]:
    """Summarise a pydantic error as (message, dotted field path of the first error)."""
    errors = exc.errors(include_url=False)
    if not errors:
        return str(exc), None
    first = errors[0]
    loc = ".".join(str(p) for p in first.get("loc", ()))
    msg = first.get("msg", "invalid value")
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    return (f"{loc}: {msg}{more}" if loc else f"{msg}{more}"), (loc or None)


class Ctx:
    """What a running tool sees.

    Args:
        episode: The episode the call runs against.
        tool: The tool being run (None for engine-internal use).
        writable: Whether writes are allowed; read tools get False.
        rng_seed: Seed of :attr:`rng` instead of the episode's (open-world answers are
            seeded by their call alone).
        now: A fixed time for :meth:`now` instead of the episode clock (open-world answers
            must not depend on when in an episode they are asked).
    """

    __slots__ = ("_episode", "_now", "_rng", "_rng_seed", "_tool", "_writable")

    def __init__(
        self,
        episode: EpisodeState,
        tool: Tool | None = None,
        *,
        writable: bool = True,
        rng_seed: str | None = None,
        now: dt.datetime | None = None,
    ) -> None:
        self._episode = episode
        self._tool = tool
        self._writable = writable
        self._rng: random.Random | None = None
        self._rng_seed = rng_seed
        self._now = now

    # -- clock, randomness, population -------------------------------------------------

    def now(self) -> dt.datetime:
        """The episode's current time (UTC)."""
        return self._now if self._now is not None else self._episode.now()

    def today(self) -> dt.date:
        """The episode's current date."""
        return self.now().date()

    @property
    def rng(self) -> random.Random:
        """A random generator seeded by the world, the episode and the episode's clock.

        For an open-world tool it is seeded by the world seed, the tool and the
        canonical arguments alone, so the same call gets the same answer anywhere.
        """
        if self._rng is None:
            ep = self._episode
            name = self._tool.name if self._tool else ""
            seed = self._rng_seed if self._rng_seed is not None else f"{ep.world.seed}:{ep.seed}:{ep.tick}:{name}"
            self._rng = random.Random(seed)
        return self._rng

    @property
    def population(self) -> Population:
        """The world's shared population."""
        return self._episode.world.population

    @property
    def episode(self) -> EpisodeState:
        """The episode (for engine code; services use the table methods)."""
        return self._episode

    # -- reads -------------------------------------------------------------------------

    def _spec(self, model: type[Record]) -> ResourceSpec[Any]:
        return self._episode.world.catalog.spec_of(model)

    def find(self, model: type[R], record_id: str) -> R | None:
        """Return the record with ``record_id`` or None."""
        rec = self._episode.get(self._spec(model).table, record_id)
        return rec  # type: ignore[return-value]

    def get(self, model: type[R], record_id: str, *, field: str | None = None) -> R:
        """Return the record with ``record_id``.

        Args:
            model: The record type.
            record_id: Its id.
            field: The argument that named it, for the error.

        Raises:
            NotFound: if there is no such record.
        """
        spec = self._spec(model)
        rec = self._episode.get(spec.table, record_id)
        if rec is None:
            raise NotFound(
                f"no {spec.noun} with id {record_id!r}",
                field=field,
                hint=f"list {spec.plural.replace('_', ' ')} to find a valid id",
            )
        return rec  # type: ignore[return-value]

    def scan(self, model: type[R]) -> Iterator[R]:
        """Iterate over every record of ``model`` in id order."""
        return self._episode.iter_records(self._spec(model).table)  # type: ignore[return-value]

    def where(self, model: type[R], **equals: Any) -> list[R]:
        """Return the records whose fields equal the given values, in id order."""
        return list(self._episode.select(self._spec(model).table, equals))  # type: ignore[arg-type]

    def select(self, model: type[R], equals: Mapping[str, Any], *, after: str | None = None) -> Iterator[R]:
        """Iterate the current records whose fields equal ``equals``, in id order, after id ``after``.

        Lazy, and indexed on the first field: a filtered page costs its matches, not the table.
        """
        return self._episode.select(self._spec(model).table, equals, after=after)  # type: ignore[return-value]

    def first(self, model: type[R], **equals: Any) -> R | None:
        """Return the first record (in id order) whose fields equal the given values."""
        for rec in self._episode.select(self._spec(model).table, equals):
            return rec  # type: ignore[return-value]
        return None

    # -- writes ------------------------------------------------------------------------

    def _check_writable(self) -> None:
        if not self._writable:
            name = self._tool.name if self._tool else "this context"
            raise RuntimeError(f"{name} is a read-only tool and tried to write")

    def _check_unique(self, spec: ResourceSpec[Any], rec: Record) -> None:
        for fname in spec.unique:
            value = getattr(rec, fname)
            if value is None:
                continue
            for other in self._episode.select(spec.table, {fname: value}):
                if other.id != rec.id:
                    raise Conflict(
                        f"{spec.a_noun} with {fname} {value!r} already exists ({other.id})",
                        field=fname,
                        hint=f"use the existing {spec.noun} or choose another {fname}",
                    )

    def create(self, model: type[R], **fields: Any) -> R:
        """Create a record: assign its id and generated fields, validate, insert.

        Args:
            model: The record type.
            **fields: Field values (not ``id`` nor generated fields).

        Returns:
            The new record.

        Raises:
            RuleViolation: if the values do not make a valid record.
            Conflict: if a unique field's value is taken.
        """
        self._check_writable()
        spec = self._spec(model)
        ep = self._episode
        values = dict(fields)
        values["id"] = f"{spec.prefix}_{ep.next_counter(spec.table, 'id'):06d}"
        now = ep.now()
        for fname, gen in generated_fields(model):
            if gen.kind == "sequence":
                values[fname] = gen.render(ep.next_counter(spec.table, fname))
            else:
                values[fname] = now
        try:
            rec = model.model_validate(values)
        except ValidationError as exc:
            msg, loc = validation_message(exc)
            raise RuleViolation(f"invalid {spec.noun}: {msg}", field=loc) from exc
        self._check_unique(spec, rec)
        ep.put(spec.table, rec)
        return rec

    def update(self, record: R, **changes: Any) -> R:
        """Write a changed copy of ``record``; ``updated`` fields take the clock.

        Args:
            record: The current record.
            **changes: New field values.

        Returns:
            The updated record.

        Raises:
            RuleViolation: if the new values do not make a valid record.
            Conflict: if a unique field's new value is taken.
        """
        self._check_writable()
        model = type(record)
        spec = self._spec(model)
        if "id" in changes and changes["id"] != record.id:
            raise RuleViolation(f"the id of {spec.a_noun} cannot change", field="id")
        if all(getattr(record, k, _NOTHING) == v for k, v in changes.items()):
            # Nothing changes: no write, so the clock does not move and the diff stays clean.
            return record
        values = dict(record.__dict__)
        values.update(changes)
        for fname, gen in generated_fields(model):
            if gen.kind == "updated":
                values[fname] = self._episode.now()
        try:
            rec = model.model_validate(values)
        except ValidationError as exc:
            msg, loc = validation_message(exc)
            raise RuleViolation(f"invalid {spec.noun}: {msg}", field=loc) from exc
        if spec.unique:
            self._check_unique(spec, rec)
        self._episode.put(spec.table, rec)
        return rec

    def delete(self, record: Record) -> None:
        """Delete ``record``."""
        self._check_writable()
        self._episode.remove(self._spec(type(record)).table, record.id)

    def next_number(self, model: type[Record], name: str) -> int:
        """Draw the next value of a named per-table counter (1, 2, 3 …)."""
        self._check_writable()
        return self._episode.next_counter(self._spec(model).table, name)


if TYPE_CHECKING:

    def _is_a_record_context(ctx: Ctx) -> RecordContext:
        # mypy proves here that Ctx gives the standard tools all they need of a context.
        return ctx
