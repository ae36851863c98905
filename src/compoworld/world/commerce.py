"""The seeding contract that ties the shop, shipping and helpdesk worlds together.

The shop seeds a first order for most consumers and ships some of them; the
shipping service seeds the labels of those parcels under the same order and
tracking numbers; helpdesk tickets quote the same order numbers. Each service
seeds on its own, so the three agree only because they derive these values
from the same rules, kept here.
"""

from __future__ import annotations

import hashlib

from compoworld.engine.entities import Population

__all__ = [
    "TRACKING_URLS",
    "carriers_from",
    "first_order_number",
    "first_order_numbers",
    "places_first_order",
    "seeded_tracking_number",
    "tracking_url",
]

TRACKING_URLS: dict[str, str] = {
    "usps": "https://tools.usps.com/go/TrackConfirmAction?tLabels={tn}",
    "ups": "https://www.ups.com/track?tracknum={tn}",
    "fedex": "https://www.fedex.com/fedextrack/?trknbr={tn}",
    "dhl_express": "https://www.dhl.com/en/express/tracking.html?AWB={tn}",
}
"""Each carrier's public tracking page, with ``{tn}`` for the tracking number."""


def tracking_url(carrier: str, tracking_number: str) -> str:
    """The carrier's public tracking page for a tracking number.

    Args:
        carrier: One of the keys of :data:`TRACKING_URLS`.
        tracking_number: The parcel's tracking number.
    """
    return TRACKING_URLS[carrier].format(tn=tracking_number)


def carriers_from(country: str) -> tuple[str, ...]:
    """Carriers that ship from a country (USPS only ships from the US), in the order seeders cycle through them."""
    return ("ups", "fedex", "dhl_express", "usps") if country == "US" else ("ups", "fedex", "dhl_express")


def seeded_tracking_number(world_seed: int, order_number: str, carrier: str) -> str:
    """The tracking number of the seeded parcel of a shop order, in the carrier's format.

    Args:
        world_seed: The seed of the world (``Population.seed``).
        order_number: The shop order the parcel is for, e.g. ``#1001``.
        carrier: The carrier that has the parcel.
    """
    digits = str(int(hashlib.sha256(f"compoworld-label:{world_seed}:{order_number}".encode()).hexdigest(), 16))
    if carrier == "ups":
        return "1Z" + digits[:16]
    if carrier == "fedex":
        return digits[:12]
    if carrier == "dhl_express":
        return digits[:10]
    return "9400" + digits[:18]


def places_first_order(i: int) -> bool:
    """Whether consumer ``i`` of the population has a seeded first shop order (all but ``i % 8 == 7``)."""
    return i % 8 != 7


def first_order_number(i: int) -> str:
    """The number of consumer ``i``'s seeded first shop order.

    The shop places the first orders in consumer order, numbered from
    ``#1001`` and skipping the consumers without one (see
    :func:`places_first_order`), so consumer ``i``'s is ``#1{i - i // 8 + 1:03d}``.

    Args:
        i: The consumer's index in ``Population.consumers``; it must place a first order.
    """
    return f"#1{i - i // 8 + 1:03d}"


def first_order_numbers(population: Population) -> dict[str, str]:
    """The number of each consumer's first shop order, by the consumer's e-mail.

    Messages, tickets and forms about orders quote these numbers, so an agent can look the order up in
    the shop.

    Args:
        population: The world's population.

    Returns:
        Order numbers by e-mail; consumers without a first order are absent.
    """
    return {p.email: first_order_number(i) for i, p in enumerate(population.consumers) if places_first_order(i)}
