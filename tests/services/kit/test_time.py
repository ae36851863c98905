"""Calendar helpers: times on a day, month arithmetic kept within the month, ISO text, ages."""

from __future__ import annotations

import datetime as dt

from compoworld.services.kit.time import add_months, age_on, iso_z, utc_at


def test_utc_at_is_that_time_in_utc_on_that_day() -> None:
    assert utc_at(dt.date(2026, 3, 2), 9, 30) == dt.datetime(2026, 3, 2, 9, 30, tzinfo=dt.UTC)
    assert utc_at(dt.date(2026, 3, 2)) == dt.datetime(2026, 3, 2, tzinfo=dt.UTC)


def test_adding_months_stays_within_the_target_month() -> None:
    assert add_months(dt.date(2026, 1, 31), 1) == dt.date(2026, 2, 28)
    assert add_months(dt.date(2028, 1, 31), 1) == dt.date(2028, 2, 29)
    assert add_months(dt.date(2026, 11, 15), 3) == dt.date(2027, 2, 15)
    assert add_months(dt.date(2026, 3, 31), -1) == dt.date(2026, 2, 28)
    assert add_months(dt.date(2026, 1, 10), -13) == dt.date(2024, 12, 10)


def test_iso_z_writes_utc_as_z() -> None:
    assert iso_z(dt.datetime(2026, 3, 2, 9, tzinfo=dt.UTC)) == "2026-03-02T09:00:00Z"
    offset = dt.datetime(2026, 3, 2, 9, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert iso_z(offset) == "2026-03-02T09:00:00+02:00"


def test_age_counts_whole_years_passed_birthdays_only() -> None:
    born = dt.date(1990, 6, 15)
    assert age_on(born, dt.date(2026, 6, 14)) == 35
    assert age_on(born, dt.date(2026, 6, 15)) == 36
