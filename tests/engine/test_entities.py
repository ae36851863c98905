"""The shared population's helpers: staff of departments, a company's first contact, back-dated seeding."""

from __future__ import annotations

import datetime as dt

from compoworld import Catalog, World
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.world.population import build_population


def test_staff_are_the_employees_of_the_departments_in_order() -> None:
    pop = build_population(0)
    sales = pop.staff("Sales")
    assert sales and all(p.department == "Sales" for p in sales)
    assert sales == [p for p in pop.employees if p.department == "Sales"]
    both = pop.staff("Sales", "Finance")
    assert [p.key for p in both] == [p.key for p in pop.employees if p.department in ("Sales", "Finance")]


def test_staff_of_an_absent_department_falls_back_to_the_first_employees() -> None:
    pop = build_population(0)
    assert pop.staff("Astronomy", fallback=3) == list(pop.employees[:3])
    assert pop.staff("Astronomy") == list(pop.employees)


def test_a_companys_first_contact_is_its_first_person_and_none_for_a_company_without_people() -> None:
    pop = build_population(0)
    for company in pop.customers:
        people = pop.people_at(company)
        assert pop.first_contact(company) == (people[0] if people else None)


def test_a_seeder_back_dates_from_its_now() -> None:
    world = World.build(Catalog.load(["crm"]), seed=0)
    s = SeedContext(world, "crm")
    assert s.ago(days=2, hours=3) == EPOCH - dt.timedelta(days=2, hours=3)
    assert s.ago() == EPOCH
