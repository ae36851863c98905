"""Derived values: each transform on the values walks find, and how an instruction says it."""

from __future__ import annotations

import random

import pytest

from compoworld.tasks.transforms import TRANSFORMS, apply_transform, draw_params, sources_for, transform_phrase


def test_a_date_plus_days_keeps_to_the_calendar() -> None:
    assert apply_transform("add_days", "2026-02-25", {"days": 7}) == "2026-03-04"
    assert apply_transform("add_days", "2026-12-28T17:45:00Z", {"days": 7}) == "2027-01-04"
    assert apply_transform("add_days", "next week", {"days": 7}) is None


def test_a_time_plus_days_keeps_the_time_of_day_in_utc() -> None:
    assert apply_transform("add_days_at", "2026-03-02T09:30:00Z", {"days": 14}) == "2026-03-16T09:30:00Z"
    assert apply_transform("add_days_at", "2026-03-02T23:30:00-02:00", {"days": 1}) == "2026-03-04T01:30:00Z"
    # A day alone, or a clock time of no known zone, gives no time to keep.
    assert apply_transform("add_days_at", "2026-03-02", {"days": 1}) is None
    assert apply_transform("add_days_at", "2026-03-02T09:30:00", {"days": 1}) is None


def test_a_domain_is_a_companys_never_a_free_mailbox_provider() -> None:
    assert apply_transform("email_domain", "Ana.Diaz@Flintsupply.com") == "flintsupply.com"
    assert apply_transform("email_domain", "ana.diaz@gmail.com") is None
    assert apply_transform("email_domain", "not an address") is None


def test_names_split_into_first_and_the_rest() -> None:
    assert apply_transform("first_name", "Mary Ann van Dijk") == "Mary"
    assert apply_transform("last_name", "Mary Ann van Dijk") == "Ann van Dijk"
    assert apply_transform("last_name", "Cher") is None


def test_an_unknown_transform_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="add_days_at"):
        apply_transform("add_weeks", "2026-01-01")


def test_every_transform_is_found_by_its_target_and_said_in_words() -> None:
    rng = random.Random(1)
    for name, transform in TRANSFORMS.items():
        assert transform in sources_for(transform.target)
        phrase = transform_phrase(name, "the order date", draw_params(transform, rng))
        assert "the order date" in phrase and name not in phrase
    assert transform_phrase("add_days_at", "the start", {"days": 1}) == "1 day after the start, at the same time of day"
