"""Sprout Nutrition: package credits, initial consult first, meal plan macros, food journals, goals."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from compoworld.world.care import clinicians
from tests.services.helpers import ServiceTools

NU = ServiceTools("nutrition")
WORLD = NU.world
ok, refused, every, first = NU.ok, NU.refused, NU.every, NU.first
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def at(days: int, hour: int = 17) -> str:
    return dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC).isoformat()


def test_clients_are_consumers_with_the_practices_dietitians(ep: Episode) -> None:
    docs = {p.email for p, _ in clinicians(POP)}
    assert {d["email"] for d in every(ep, "list_dietitians")} <= docs
    names = {p.email: p.name for p in POP.consumers}
    for c in every(ep, "list_clients"):
        assert names[c["email"]] == c["name"]
        for s in every(ep, "list_sessions", client_id=c["id"]):
            assert s["dietitian_id"] == c["dietitian_id"]


def test_a_follow_up_needs_a_completed_initial_consult_and_a_credit(ep: Episode) -> None:
    rd = first(ep, "dietitians")
    c = ok(
        ep,
        "create_client",
        name="June Park",
        email="june.park@example.org",
        birth_date="1988-09-09",
        dietitian_id=rd["id"],
    )
    refused(ep, "book_session", "rule_violation", "client_id", client_id=c["id"], kind="initial", starts_at=at(5))
    pkg = first(ep, "packages", active=True)
    pur = ok(ep, "purchase_package", client_id=c["id"], package_id=pkg["id"])
    assert pur["sessions_left"] == pkg["sessions"]
    refused(ep, "book_session", "rule_violation", "kind", client_id=c["id"], kind="follow_up", starts_at=at(5))
    s = ok(ep, "book_session", client_id=c["id"], kind="initial", starts_at=at(5))
    assert ok(ep, "get_purchase", purchase_id=s["purchase_id"])["sessions_left"] == pkg["sessions"] - 1


def test_booking_draws_credits_until_the_package_is_used_up(ep: Episode) -> None:
    used = first(ep, "purchases", status="used_up")
    refused(
        ep,
        "book_session",
        "rule_violation",
        "client_id",
        client_id=used["client_id"],
        kind="follow_up",
        starts_at=at(4),
    )
    retired = first(ep, "packages", active=False)
    refused(
        ep, "purchase_package", "rule_violation", "package_id", client_id=used["client_id"], package_id=retired["id"]
    )


def test_cancelling_returns_the_credit_and_a_no_show_keeps_it_used(ep: Episode) -> None:
    future = next(s for s in every(ep, "list_sessions", status="booked") if s["starts_at"] > NOW.isoformat())
    before = ok(ep, "get_purchase", purchase_id=future["purchase_id"])["sessions_left"]
    ok(ep, "cancel_session", session_id=future["id"])
    assert ok(ep, "get_purchase", purchase_id=future["purchase_id"])["sessions_left"] == before + 1
    refused(ep, "cancel_session", "rule_violation", "session_id", session_id=future["id"])
    begun = next(s for s in every(ep, "list_sessions", status="booked") if s["starts_at"] <= NOW.isoformat())
    refused(ep, "cancel_session", "rule_violation", "session_id", session_id=begun["id"])
    left = ok(ep, "get_purchase", purchase_id=begun["purchase_id"])["sessions_left"]
    ok(ep, "mark_no_show", session_id=begun["id"])
    assert ok(ep, "get_purchase", purchase_id=begun["purchase_id"])["sessions_left"] == left


def test_a_session_is_charted_once_it_has_begun(ep: Episode) -> None:
    future = next(s for s in every(ep, "list_sessions", status="booked") if s["starts_at"] > NOW.isoformat())
    refused(ep, "complete_session", "rule_violation", "session_id", session_id=future["id"], note="x")
    begun = next(s for s in every(ep, "list_sessions", status="booked") if s["starts_at"] <= NOW.isoformat())
    refused(ep, "complete_session", "rule_violation", "note", session_id=begun["id"], note=" ")
    assert ok(ep, "complete_session", session_id=begun["id"], note="Swapped soda for water.")["status"] == "completed"


def test_macros_add_to_100_and_one_plan_is_published(ep: Episode) -> None:
    c = first(ep, "clients", status="active")
    args = {"client_id": c["id"], "name": "Low carb", "calories": 1700, "protein_pct": 30, "carbs_pct": 30}
    refused(ep, "create_meal_plan", "rule_violation", "fat_pct", fat_pct=30, **args)
    plan = ok(ep, "create_meal_plan", fat_pct=40, **args)
    ok(ep, "publish_meal_plan", meal_plan_id=plan["id"])
    published = every(ep, "list_meal_plans", client_id=c["id"], status="published")
    assert [p["id"] for p in published] == [plan["id"]]


def test_the_food_journal_totals_against_the_plan(ep: Episode) -> None:
    c = first(ep, "clients", status="active")
    ok(ep, "log_food", client_id=c["id"], meal="dinner", description="Lentil soup", calories=450)
    ok(ep, "log_food", client_id=c["id"], meal="snack", description="Pear", calories=100)
    day = ok(ep, "daily_intake", client_id=c["id"], day=TODAY.isoformat())
    assert (day["dinner"], day["snack"], day["total"]) == (450, 100, 550)
    plan = every(ep, "list_meal_plans", client_id=c["id"], status="published")
    assert day["target"] == (plan[0]["calories"] if plan else 0)
    refused(
        ep, "log_food", "rule_violation", "description", client_id=c["id"], meal="snack", description=" ", calories=10
    )


def test_archived_clients_log_nothing_and_book_nothing(ep: Episode) -> None:
    c = first(ep, "clients", status="archived")
    refused(ep, "log_food", "rule_violation", "client_id", client_id=c["id"], meal="lunch", description="x", calories=1)
    refused(ep, "book_session", "rule_violation", "client_id", client_id=c["id"], kind="follow_up", starts_at=at(3))
    ok(ep, "reactivate_client", client_id=c["id"])
    ok(ep, "log_food", client_id=c["id"], meal="lunch", description="Soup", calories=300)


def test_goals_need_a_future_date_and_close_once(ep: Episode) -> None:
    c = first(ep, "clients", status="active")
    refused(
        ep,
        "create_goal",
        "rule_violation",
        "due_on",
        client_id=c["id"],
        kind="habit",
        description="Walk",
        due_on=TODAY.isoformat(),
    )
    g = ok(ep, "create_goal", client_id=c["id"], kind="habit", description="Walk daily", due_on=at(30)[:10])
    assert ok(ep, "achieve_goal", goal_id=g["id"])["status"] == "achieved"
    refused(ep, "abandon_goal", "rule_violation", "goal_id", goal_id=g["id"])
