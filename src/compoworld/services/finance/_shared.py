"""What several finance services compute alike: tax and rate rounding, payment terms."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

__all__ = ["percent_of", "term_days"]


def percent_of(amount: int, rate: float) -> int:
    """``rate`` percent of ``amount`` cents, rounded half up to the cent.

    Args:
        amount: The base amount in cents.
        rate: The rate in percent (e.g. ``8.25``).

    Returns:
        The amount in cents; the rate is taken as written (``str``), so ``8.25`` is exactly 8.25.
    """
    return int((Decimal(amount) * Decimal(str(rate)) / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def term_days(terms: str) -> int:
    """Days from a document's date to its due date under payment terms: ``net_30`` is 30, ``due_on_receipt`` 0."""
    return 0 if terms == "due_on_receipt" else int(terms.removeprefix("net_"))
