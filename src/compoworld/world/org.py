"""The home company's reporting lines, which every service that mirrors its staff agrees on.

HR, time off, training, performance reviews, expenses and cards each keep their own copy of the staff
and agree on who manages whom only because they derive it the same way, here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from compoworld.engine.entities import Person

__all__ = ["LEAD_WORDS", "OrgChart", "department_of", "is_lead", "org_chart"]

LEAD_WORDS = ("Manager", "Lead", "Controller")
"""Words in a job title that make its holder a lead, first in line to head their department."""


def department_of(person: Person) -> str:
    """The person's department; staff without one work in Operations."""
    return person.department or "Operations"


def is_lead(person: Person) -> bool:
    """Whether the person's job title makes them a manager or lead (see :data:`LEAD_WORDS`)."""
    return any(w in person.job_title for w in LEAD_WORDS)


@dataclass(frozen=True)
class OrgChart:
    """Who heads each department of the home staff, and whom everyone reports to.

    Attributes:
        heads: Each department's head by department name, in name order: its
            longest-serving lead, else its longest-serving member.
        top: The longest-serving head; the other heads report to them.
    """

    heads: dict[str, Person]
    top: Person

    def is_head(self, person: Person) -> bool:
        """Whether the person heads a department (the top included)."""
        return any(h.key == person.key for h in self.heads.values())

    def manager_of(self, person: Person) -> Person | None:
        """The person's manager: the top for a head, the head of their department for others; None for the top."""
        if person.key == self.top.key:
            return None
        if self.is_head(person):
            return self.top
        return self.heads[department_of(person)]


def org_chart(staff: Sequence[Person]) -> OrgChart:
    """The reporting lines of the home company's staff.

    Args:
        staff: The home company's employees (``Population.employees``).

    Returns:
        The department heads and the top of the company.
    """
    heads: dict[str, Person] = {}
    for name in sorted({department_of(p) for p in staff}):
        members = [p for p in staff if department_of(p) == name]
        members.sort(key=lambda p: (not is_lead(p), p.hire_date, p.key))
        heads[name] = members[0]
    top = min(heads.values(), key=lambda p: (p.hire_date, p.key))
    return OrgChart(heads, top)
