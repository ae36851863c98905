"""Calendar helpers services share: times on a day, month arithmetic, ISO text, ages."""

from __future__ import annotations

import datetime as dt

__all__ = ["add_months", "age_on", "iso_z", "utc_at"]


def utc_at(day: dt.date, hour: int = 0, minute: int = 0) -> dt.datetime:
    """``hour:minute`` UTC on ``day``."""
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=dt.UTC)


def add_months(day: dt.date, months: int) -> dt.date:
    """``day`` moved by ``months`` (negative: back), kept within the target month (Jan 31 + 1 month = Feb 28/29)."""
    m = day.month - 1 + months
    year, month = day.year + m // 12, m % 12 + 1
    last = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).day
    return dt.date(year, month, min(day.day, last))


def iso_z(when: dt.datetime) -> str:
    """An aware UTC time as ISO 8601 text with ``Z`` for UTC (``2026-03-02T09:00:00Z``), as most APIs write it."""
    return when.isoformat().replace("+00:00", "Z")


def age_on(birth: dt.date, day: dt.date) -> int:
    """Age in whole years on ``day`` of someone born on ``birth``."""
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))
