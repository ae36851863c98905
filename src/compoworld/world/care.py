"""The practice every health service agrees on: its clinic sites, its clinicians and their NPIs.

The clinic seeds the clinicians as providers, the pharmacy as prescribers and the NPI registry as
registered providers, so that a prescription names a doctor the patient can also book and look up.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from compoworld.engine.entities import Company, Person, Population
from compoworld.engine.state import EPOCH

__all__ = ["clinic_sites", "clinicians", "local_time", "provider_npi"]


def local_time(day: dt.date, hour: int, minute: int, tz: str) -> dt.datetime:
    """The UTC instant of ``hour:minute`` on ``day`` in time zone ``tz``."""
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZoneInfo(tz)).astimezone(dt.UTC)


def clinic_sites(pop: Population) -> list[Company]:
    """The two companies whose cities host the clinics (healthcare companies first).

    Only cities where the world's first morning (:data:`EPOCH`) is still within the
    day's clinic hours qualify, so the first day has visits still to come.

    Args:
        pop: The world's population.

    Returns:
        At most two customer companies.
    """
    daytime = [c for c in pop.customers if local_time(EPOCH.date(), 13, 0, c.place.timezone) > EPOCH]
    return ([c for c in daytime if c.industry == "healthcare"] + [c for c in daytime if c.industry != "healthcare"])[:2]


def clinicians(pop: Population) -> list[tuple[Person, int]]:
    """The practice's six providers and the index of the clinic each works at.

    The people of the healthcare companies that host clinics, then consumers from
    the end of the population.

    Args:
        pop: The world's population.

    Returns:
        Six (person, index into :func:`clinic_sites`) pairs.
    """
    sites = clinic_sites(pop)
    found: list[tuple[Person, int]] = []
    for i, company in enumerate(sites):
        if company.industry == "healthcare":
            found.extend((p, i) for p in pop.people_at(company))
    consumers = list(pop.consumers)
    k = 0
    while len(found) < 6:
        found.append((consumers[-1 - k], k % len(sites)))
        k += 1
    return found[:6]


def provider_npi(i: int) -> str:
    """The NPI of the ``i``-th clinician of :func:`clinicians`."""
    return f"1{(123456789 + i * 7654321) % 10**9:09d}"
