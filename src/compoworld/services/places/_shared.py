"""What several places services share: the world's cities by name, and local addresses and phone numbers."""

from __future__ import annotations

import random

from compoworld.engine.entities import Place
from compoworld.engine.types import PostalAddress
from compoworld.world.population import PLACES

__all__ = ["local_address", "local_phone", "world_place"]

_BY_NAME = {p.city.casefold(): p for p in PLACES}


def world_place(city: str) -> Place | None:
    """The population's city of that name (any case), or None for a city the population does not live in."""
    return _BY_NAME.get(city.casefold())


def local_address(rng: random.Random, place: Place, street: str, max_number: int) -> PostalAddress:
    """A street address in the city: a house number up to ``max_number`` on ``street`` and a local postal code.

    Draws the house number, then the postal code, from ``rng``.
    """
    return PostalAddress(
        street=f"{rng.randint(1, max_number)} {street}",
        city=place.city,
        postal_code=f"{place.postal_prefix}{rng.randint(100, 999)}",
        country=place.country,
    )


def local_phone(rng: random.Random, place: Place) -> str:
    """A landline in the city: its dialling prefix and seven random digits."""
    return place.phone_prefix + "".join(str(rng.randint(0, 9)) for _ in range(7))
