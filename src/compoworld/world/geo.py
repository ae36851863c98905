"""The world's geography: great-circle distances (and, as services share them, its cities and countries)."""

from __future__ import annotations

import math

__all__ = ["EARTH_RADIUS_KM", "haversine_km", "haversine_m"]

EARTH_RADIUS_KM = 6371.0088
"""The mean radius of the Earth (IUGG), in kilometres."""


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance between two points, in kilometres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def haversine_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance between two points, in metres."""
    return haversine_km(lat1, lon1, lat2, lon2) * 1000.0
