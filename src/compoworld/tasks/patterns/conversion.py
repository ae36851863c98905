"""Conversion: a value the work needs is stated in another unit than the tool takes.

Colleagues state a value the way it reached them: a supplier's quote in euros, a deadline in working
days. The systems take it in their own unit, and the agent must convert it with the world's own tools.
Two forms, the first that fits a walk:

* ``currency``: a write takes an amount of money (a price, a payment, a deal's value) that the walk
  states, or copies from a record that keeps it in another currency (an order's total in pounds). A
  stated amount is stated in another currency (``EUR 480.00``); a found one stays named where it is
  found, and its record's currency is for the agent to see. The note says which currency the books
  are kept in; the oracle converts the amount with the exchange-rate service (``fx__convert``, today's
  rate) and the write takes the converted amount, in minor units, exactly as the conversion gives it;
* ``working_days``: a write takes a date the walk derives as some days after a date it found (a
  follow-up due after a contact signed up). The instruction counts the days as working days and the
  note says on which country's calendar; the oracle works the date out with the holiday service
  (``holidays__add_working_days``), which skips weekends and public holidays.

The conversion step is told (the instruction does not ask for it) and its result is named by the
value as stated or found (``amount: EUR 480.00``, ``due date: 10 working days after …``). Where the
write makes a record, a *not sent* criterion says no record is made with the unconverted value; a
walk whose write keeps the value nowhere a criterion can ask for it takes no conversion.

Shortcuts the task must fail: ``no_conversion`` (the stated number entered as it is: the foreign amount
as if it were in the books' currency, or the date as many calendar days later) and ``weekdays_only``
(weekends skipped but not the public holiday that falls in the span, where one does).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import replace

from compoworld.engine.episode import Episode, StateDiff
from compoworld.tasks.criteria import NotSentCriterion
from compoworld.tasks.graph import ToolGraph, label, render_value
from compoworld.tasks.patterns.base import Negative, Part, Shortcut, insert_steps, rerun, value_at, with_argument
from compoworld.tasks.render import source_phrase
from compoworld.tasks.replay import replay_walk
from compoworld.tasks.transforms import apply_transform
from compoworld.tasks.walk import Provenance, Step, Walk, flatten
from compoworld.world.geo import COUNTRY_NAMES
from compoworld.world.world import World

__all__ = ["CONVERSION_FORMS", "plant_conversion", "plant_currency", "plant_working_days"]

CONVERSION_FORMS: tuple[str, ...] = ("currency", "working_days")
"""The forms a conversion takes, in the order they are tried."""

_CONVERT = "fx__convert"
_ADD_WORKING_DAYS = "holidays__add_working_days"
# Currencies a colleague quotes in (one other than the books' is drawn), in words for the note.
_CURRENCY_WORDS: dict[str, str] = {
    "USD": "US dollars",
    "EUR": "euros",
    "GBP": "pounds sterling",
    "CAD": "Canadian dollars",
    "AUD": "Australian dollars",
    "CHF": "Swiss francs",
    "JPY": "Japanese yen",
    "SEK": "Swedish kronor",
    "SGD": "Singapore dollars",
    "NZD": "New Zealand dollars",
    "DKK": "Danish kroner",
    "NOK": "Norwegian kroner",
}
_MINOR_UNITS: dict[str, int] = {"JPY": 0, "ISK": 0, "KRW": 0, "KWD": 3}
_PLURAL_COUNTRIES = frozenset({"Netherlands", "Philippines", "Czech Republic", "Bahamas"})
# Working days a due date is counted in: enough to span a weekend, so calendar days are always wrong.
_WORKING_DAYS = (5, 10, 15)


def _minor(code: str) -> int:
    """Decimals of a currency's minor unit (2 for cents)."""
    return _MINOR_UNITS.get(code, 2)


def _money(code: str, minor: int) -> str:
    """An amount as a colleague states it: ``EUR 480.00``, ``JPY 72,300``."""
    digits = _minor(code)
    return f"{code} {minor / 10**digits:,.{digits}f}"


def _round_quote(value: float) -> float:
    """A quote's figure: three significant digits at most (``441.6`` → ``442``, ``72345`` → ``72300``)."""
    if value < 1:
        return 1.0
    step = 10 ** max(0, len(str(int(value))) - 3)
    return float(max(step, round(value / step) * step))


def _books(world: World, step: Step) -> str:
    """The currency a write's amounts are kept in: the one it names, its default, or the home company's."""
    props = world.catalog.tools[step.tool].parameters_schema.get("properties", {})
    named = step.arguments.get("currency", props.get("currency", {}).get("default"))
    return named if isinstance(named, str) and len(named) == 3 else world.population.home.place.currency


def _currency_of(walk: Walk, k: int, path: str) -> tuple[str, str] | None:
    """The currency a found amount is in: ``(path, code)`` of its record's ``currency``, or None."""
    parent = path.rpartition(".")[0]
    where = f"{parent}.currency" if parent else "currency"
    code = value_at(walk.steps[k].result, where)
    return (where, code) if isinstance(code, str) and len(code) == 3 else None


def _amounts(world: World, graph: ToolGraph, walk: Walk) -> list[tuple[int, str]]:
    """``(step, parameter)`` of each amount of money a write takes that may be in another currency.

    An amount the instruction states, or one a write copies from a record it found that keeps its
    amounts in another currency than the write's (an order's total in pounds into a deal in dollars).
    """
    tools = world.catalog.tools
    found = []
    for j, step in enumerate(walk.steps):
        if not tools[step.tool].writes or j in walk.told:
            continue
        for port in graph.inputs[step.tool]:
            value = step.arguments.get(port.path)
            prov = step.provenance.get(port.path)
            if (
                port.semantic != "money.amount"
                or "." in port.path
                or "[" in port.path
                or not isinstance(value, int)
                or isinstance(value, bool)
                or value <= 0
                or prov is None
            ):
                continue
            if prov.kind in ("literal", "given"):
                found.append((j, port.path))
            elif prov.kind == "step" and prov.step is not None and prov.field and prov.step not in walk.told:
                held = _currency_of(walk, prov.step, prov.field)
                if held is not None and held[1] != _books(world, step):
                    found.append((j, port.path))
    return found


def _stated(world: World, step: Step, name: str, books: str, rng: random.Random) -> tuple[Step, str] | None:
    """The conversion of an amount stated in a foreign currency, and how the instruction states it.

    The figure is the walk's amount in a currency other than the books', rounded as a quote is.
    """
    foreign = rng.choice([c for c in _CURRENCY_WORDS if c != books])
    quoted = Episode(world).call(
        _CONVERT, {"amount": step.arguments[name], "from_currency": books, "to_currency": foreign}
    )
    if not quoted.ok or not isinstance(quoted.result, dict):
        return None
    stated = int(_round_quote(quoted.result["result"] / 10 ** _minor(foreign)) * 10 ** _minor(foreign))
    args = {"amount": stated, "from_currency": foreign, "to_currency": books}
    phrase = _money(foreign, stated)
    return Step(_CONVERT, args, {k: Provenance("literal") for k in args}, None, phrase=phrase), phrase


def plant_currency(world: World, graph: ToolGraph, walk: Walk, rng: random.Random) -> Part | None:
    """An amount a write takes is in another currency than its books; the oracle converts it at today's rate.

    Either the instruction states the amount in a foreign currency (``EUR 480.00``: the walk's amount
    in that currency, rounded as a quote is), or the write copies it from a record that keeps it in
    another currency (an order's total in pounds); the write takes what the conversion gives.

    Args:
        world: The world (it must hold the exchange-rate service).
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the amount and the currency.

    Returns:
        The part, or None when no write takes such an amount or the conversion cannot be made.
    """
    if "fx" not in world.catalog.services or _CONVERT not in world.catalog.tools:
        return None
    spots = _amounts(world, graph, walk)
    if not spots:
        return None
    j, name = rng.choice(spots)
    step = walk.steps[j]
    books = _books(world, step)
    prov = step.provenance[name]
    if prov.kind == "step" and prov.step is not None and prov.field:
        held = _currency_of(walk, prov.step, prov.field)
        assert held is not None
        args = {"amount": step.arguments[name], "from_currency": held[1], "to_currency": books}
        provenance = {
            "amount": Provenance("step", prov.step, prov.field, "money.amount"),
            "from_currency": Provenance("step", prov.step, held[0], "currency"),
            "to_currency": Provenance("literal"),
        }
        convert = Step(_CONVERT, args, provenance, None, phrase=source_phrase(world, walk, prov.step, prov.field))
    else:
        made = _stated(world, step, name, books, rng)
        if made is None:
            return None
        convert = made[0]
    res = Episode(world).call(_CONVERT, convert.arguments)
    if not res.ok or not isinstance(res.result, dict):
        return None
    unconverted, converted = convert.arguments["amount"], res.result["result"]
    if not isinstance(converted, int) or converted <= 0 or converted == unconverted:
        return None
    inserted = insert_steps(walk, j, [convert])
    steps = list(inserted.steps)
    steps[j + 1] = with_argument(steps[j + 1], name, converted, Provenance("step", j, "result", "money.amount"))
    service = world.catalog.services[world.catalog.tools[step.tool].service].title
    words = _CURRENCY_WORDS.get(books, books)
    if books == world.population.home.place.currency:
        note = f"Our books are kept in {words} ({books}): amounts go into {service} in {books}."
    else:
        note = f"This one is booked in {words} ({books}): the amount goes into {service} in {books}."
    return Part(
        names=("conversion",),
        walk=replace(inserted, steps=steps, told=inserted.told | {j}),
        inserted=(j,),
        notes=[note],
        shortcuts=[Shortcut("no_conversion", drop=(j,), choice=(j + 1, name, unconverted))],
    )


def _due_dates(world: World, graph: ToolGraph, walk: Walk) -> list[tuple[int, str]]:
    """``(step, parameter)`` of each date a write takes as some days after a date the walk found."""
    tools = world.catalog.tools
    found = []
    for j, step in enumerate(walk.steps):
        if not tools[step.tool].writes or j in walk.told:
            continue
        for port in graph.inputs[step.tool]:
            prov = step.provenance.get(port.path)
            if (
                port.semantic == "date"
                and "." not in port.path
                and prov is not None
                and prov.kind == "derived"
                and prov.transform == "add_days"
                and prov.step is not None
                and prov.step not in walk.told
                and not walk.steps[prov.step].phrase
            ):
                found.append((j, port.path))
    return found


def _weekdays_after(start: dt.date, days: int) -> dt.date:
    """The date ``days`` weekdays after ``start``, public holidays counted as working days."""
    day = start
    while days:
        day += dt.timedelta(days=1)
        days -= day.weekday() < 5
    return day


def plant_working_days(world: World, graph: ToolGraph, walk: Walk, rng: random.Random) -> Part | None:
    """Count a derived due date in working days; the oracle works it out on the home country's calendar.

    Args:
        world: The world (it must hold the holiday service).
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the date and the number of working days.

    Returns:
        The part, or None when no write takes a date derived from a found one, or the date cannot be
        worked out.
    """
    if "holidays" not in world.catalog.services or _ADD_WORKING_DAYS not in world.catalog.tools:
        return None
    spots = _due_dates(world, graph, walk)
    if not spots:
        return None
    j, name = rng.choice(spots)
    prov = walk.steps[j].provenance[name]
    assert prov.step is not None
    k, path = prov.step, prov.field or ""
    found = dict(flatten(walk.steps[k].result)).get(path)
    start = apply_transform("add_days", found, {"days": 0})
    country = world.population.home.place.country
    if not isinstance(start, str) or country not in COUNTRY_NAMES:
        return None
    days = rng.choice(_WORKING_DAYS)
    args = {"country": country, "date": start, "days": days}
    made = Episode(world).call(_ADD_WORKING_DAYS, args)
    if not made.ok or not isinstance(made.result, dict) or not isinstance(made.result.get("date"), str):
        return None
    due = made.result["date"]
    calendar = (dt.date.fromisoformat(start) + dt.timedelta(days=days)).isoformat()
    weekdays = _weekdays_after(dt.date.fromisoformat(start), days).isoformat()
    if due == calendar:
        return None
    lookup = Step(
        _ADD_WORKING_DAYS,
        args,
        {
            "country": Provenance("literal"),
            "date": Provenance("derived", k, path, "date", transform="add_days", params=(("days", 0),)),
            "days": Provenance("literal"),
        },
        None,
        phrase=f"{days} working days after {source_phrase(world, walk, k, path)}",
    )
    inserted = insert_steps(walk, j, [lookup])
    steps = list(inserted.steps)
    steps[j + 1] = with_argument(steps[j + 1], name, due, Provenance("step", j, "date", "date"))
    service = world.catalog.services[world.catalog.tools[steps[j + 1].tool].service].title
    place = COUNTRY_NAMES[country]
    place = f"the {place}" if place.startswith("United ") or place in _PLURAL_COUNTRIES else place
    note = (
        f"We count {label(name)}s in working days: weekends and public holidays in {place} don't count "
        f"({service} takes the calendar date)."
    )
    shortcuts = [Shortcut("no_conversion", drop=(j,), choice=(j + 1, name, calendar))]
    if weekdays not in (due, calendar):
        shortcuts.append(Shortcut("weekdays_only", drop=(j,), choice=(j + 1, name, weekdays)))
    return Part(
        names=("conversion",),
        walk=replace(inserted, steps=steps, told=inserted.told | {j}),
        inserted=(j,),
        notes=[note],
        shortcuts=shortcuts,
    )


def plant_conversion(
    world: World, graph: ToolGraph, walk: Walk, rng: random.Random, names: frozenset[str]
) -> Part | None:
    """The ``conversion`` pattern: an amount in another currency, else a due date in working days.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the value and its unit.
        names: The patterns asked for (unused: the planter is only called for ``conversion``).

    Returns:
        The part, with the conversion step made again so that its result is known, or None when no form
        fits, the walk no longer replays with it, or the write keeps the value nowhere a criterion can
        ask for it (a lead converted without a deal keeps no close date).
    """
    for plant in (plant_currency, plant_working_days):
        part = plant(world, graph, walk, rng)
        made = rerun(world, part.walk) if part is not None else None
        replay = replay_walk(world, made) if made is not None else None
        if part is None or made is None or replay is None:
            continue
        negatives = _unconverted(world, made, replay.diffs, part.shortcuts)
        if negatives or _kept_as_named(made, replay.diffs, part.shortcuts):
            return replace(part, walk=made, negatives=negatives)
    return None


def _kept_as_named(walk: Walk, diffs: list[StateDiff], shortcuts: list[Shortcut]) -> bool:
    """Whether the write keeps the converted value in a field named like its parameter (a state criterion asks)."""
    for shortcut in shortcuts[:1]:
        if shortcut.choice is not None:
            j, name, _ = shortcut.choice
            right = walk.steps[j].arguments[name]
            records = [r for td in diffs[j].tables.values() for r in [*td.added, *(c.after for c in td.updated)]]
            return any(r.get(name) == right for r in records)
    return False


_WHY = {"no_conversion": "the value unconverted", "weekdays_only": "with the public holiday counted as a working day"}


def _unconverted(world: World, walk: Walk, diffs: list[StateDiff], shortcuts: list[Shortcut]) -> list[Negative]:
    """What an unconverted value would make: no new record holds it where the converted one goes.

    One criterion per shortcut's value, where the write makes a record (a write that changes one has
    its state criterion ask for the right value, when it names the field as the tool does). ``diffs``
    are what each step of the walk changes.
    """
    out: list[Negative] = []
    for shortcut in shortcuts:
        if shortcut.choice is None:
            continue
        j, name, wrong = shortcut.choice
        right = walk.steps[j].arguments[name]
        for table, td in diffs[j].tables.items():
            fields = sorted(
                {k for rec in td.added for k, v in rec.items() if v == right and k != "id"}, key=lambda k: k != name
            )
            if not fields:
                continue
            spec = world.tables[table].spec
            out.append(
                NotSentCriterion(
                    id="",
                    description=f"no {spec.noun} is made with {label(fields[0])} {render_value(wrong)}, "
                    f"{_WHY.get(shortcut.name, 'unconverted')}",
                    table=table,
                    fields={fields[0]: wrong},
                )
            )
            break
    return out
