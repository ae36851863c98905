"""What a service drew from a world: drawn once per world and day, the same object handed back, at most eight kept."""

from __future__ import annotations

import datetime as dt

from compoworld.engine.entities import Population
from compoworld.services.kit.drawn import per_population
from compoworld.world.population import build_population

POP = build_population(0)
DAY = dt.date(2026, 3, 2)


def test_the_same_world_and_day_get_the_same_object_drawn_once() -> None:
    draws: list[int] = []

    @per_population
    def catalogue(pop: Population, today: dt.date) -> dict[str, int]:
        """The world's catalogue on a day."""
        draws.append(pop.seed)
        return {"people": len(pop.people), "day": today.toordinal()}

    first = catalogue(POP, DAY)
    assert catalogue(POP, DAY) is first
    assert catalogue(build_population(0), DAY) is first, "the same world built again is the same world"
    assert draws == [0]
    assert catalogue.__name__ == "catalogue" and catalogue.__doc__ == "The world's catalogue on a day."


def test_another_day_another_world_or_a_larger_one_is_drawn_again() -> None:
    draws: list[tuple[int, int, dt.date]] = []

    @per_population
    def catalogue(pop: Population, today: dt.date) -> tuple[int, int]:
        draws.append((pop.seed, len(pop.people), today))
        return pop.seed, len(pop.people)

    other, larger = build_population(1), build_population(0, scale=2)
    assert len(larger.people) > len(POP.people)
    catalogue(POP, DAY)
    catalogue(POP, DAY + dt.timedelta(days=1))
    assert catalogue(other, DAY) == (1, len(other.people))
    assert catalogue(larger, DAY) == (0, len(larger.people))
    assert len(draws) == 4
    catalogue(POP, DAY)
    assert len(draws) == 4, "the first day is still kept"


def test_a_world_alone_is_a_key_and_each_function_keeps_its_own() -> None:
    drawn: list[str] = []

    @per_population
    def pages(pop: Population) -> list[str]:
        drawn.append("pages")
        return [p.name for p in pop.people]

    @per_population
    def places(pop: Population) -> list[str]:
        drawn.append("places")
        return [p.city for p in pop.places]

    assert pages(POP) is pages(POP)
    assert places(POP) is places(POP)
    assert drawn == ["pages", "places"]


def test_at_most_eight_are_kept_and_a_ninth_forgets_them() -> None:
    draws: list[dt.date] = []

    @per_population
    def catalogue(pop: Population, today: dt.date) -> dt.date:
        draws.append(today)
        return today

    days = [DAY + dt.timedelta(days=n) for n in range(9)]
    for day in days[:8]:
        catalogue(POP, day)
    for day in days[:8]:
        catalogue(POP, day)
    assert draws == days[:8], "eight are kept"
    catalogue(POP, days[8])
    catalogue(POP, days[0])
    assert draws == [*days, days[0]], "the ninth forgot the first"
