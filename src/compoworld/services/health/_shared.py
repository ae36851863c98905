"""The practice the health services seed from, kept in the world (:mod:`compoworld.world.care`)."""

from __future__ import annotations

from compoworld.world.care import clinic_sites, clinicians, local_time, provider_npi

__all__ = ["clinic_sites", "clinicians", "local_time", "provider_npi"]
