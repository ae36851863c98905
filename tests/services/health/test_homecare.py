"""Hearthside Home Care: admission, care plans, credentialed scheduling, EVV clock-in/out, billing units, misses."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CARE = ServiceTools("homecare")
WORLD = CARE.world
ok, refused, every, first = CARE.ok, CARE.refused, CARE.every, CARE.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def at(days: int, hour: int) -> str:
    return f"{(TODAY + dt.timedelta(days=days)).isoformat()}T{hour:02d}:00:00Z"


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def active_client(ep: Episode, kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    for c in every(ep, "list_clients", status="active"):
        plan = every(ep, "list_care_plans", client_id=c["id"], status="active")[0]
        if plan["required_credential"] == kind:
            return c, every(ep, "list_authorizations", client_id=c["id"], status="active")[0]
    raise AssertionError(kind)


def credentialed(ep: Episode, kind: str, days: int = 0) -> list[str]:
    return [
        c["caregiver_id"]
        for c in every(ep, "list_credentials", kind=kind)
        if c["expires_on"] >= day(days) and ok(ep, "get_caregiver", caregiver_id=c["caregiver_id"])["active"]
    ]


def test_seeded_clients_come_from_the_population_and_billing_adds_up(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    for c in every(ep, "list_clients"):
        assert c["email"] in consumers
        active = every(ep, "list_care_plans", client_id=c["id"], status="active")
        assert len(active) == (0 if c["status"] == "referral" else 1)
    for a in every(ep, "list_authorizations"):
        billed = sum(v["units_billed"] for v in every(ep, "list_visits", authorization_id=a["id"]))
        assert billed == a["units_used"]


def test_a_referral_is_admitted_only_with_a_care_plan(ep: Episode) -> None:
    made = ok(
        ep,
        "create_client",
        name="Ada Moreau",
        phone="+33612345678",
        birth_date="1941-05-02",
        latitude=48.85,
        longitude=2.35,
        payer="medicaid",
    )
    assert made["status"] == "referral"
    refused(ep, "admit_client", "rule_violation", "client_id", client_id=made["id"])
    refused(ep, "create_care_plan", "rule_violation", "tasks", client_id=made["id"], tasks=[], hours_per_week=10)
    plan = ok(ep, "create_care_plan", client_id=made["id"], tasks=["bathing"], hours_per_week=10)
    assert ok(ep, "admit_client", client_id=made["id"])["status"] == "active"
    assert ok(ep, "list_care_plans", client_id=made["id"])["items"][0]["id"] == plan["id"]
    assert every(ep, "list_care_plans", client_id=made["id"], status="active")[0]["id"] == plan["id"]
    refused(ep, "admit_client", "rule_violation", "client_id", client_id=made["id"])


def test_activating_a_plan_supersedes_the_current_one(ep: Episode) -> None:
    draft = first(ep, "care_plans", status="draft", client_id="cli_000001")
    old = every(ep, "list_care_plans", client_id="cli_000001", status="active")[0]
    assert ok(ep, "activate_care_plan", care_plan_id=draft["id"])["status"] == "active"
    assert every(ep, "list_care_plans", client_id="cli_000001", status="superseded")[0]["id"] == old["id"]
    refused(ep, "activate_care_plan", "rule_violation", "care_plan_id", care_plan_id=draft["id"])


def test_scheduling_needs_an_active_client_a_covering_authorization_and_units(ep: Episode) -> None:
    client, auth = active_client(ep, "hha")
    base = {"client_id": client["id"], "authorization_id": auth["id"], "duration_minutes": 120}
    held = first(ep, "clients", status="on_hold")
    refused(ep, "schedule_visit", "rule_violation", "client_id", **(base | {"client_id": held["id"]}), start=at(5, 9))
    refused(ep, "schedule_visit", "rule_violation", "start", **base, start=at(-1, 9))
    refused(ep, "schedule_visit", "rule_violation", "authorization_id", **base, start=at(200, 9))
    other = next(a for a in every(ep, "list_authorizations") if a["client_id"] != client["id"])
    refused(
        ep,
        "schedule_visit",
        "rule_violation",
        "authorization_id",
        **(base | {"authorization_id": other["id"]}),
        start=at(5, 9),
    )
    made = ok(ep, "schedule_visit", **base, start=at(5, 9))
    assert (made["status"], made["scheduled_end"], made["caregiver_id"]) == ("scheduled", at(5, 11), None)


def test_a_caregiver_needs_the_plan_credential_valid_on_the_day_and_a_free_slot(ep: Episode) -> None:
    client, auth = active_client(ep, "hha")
    visit = ok(
        ep, "schedule_visit", client_id=client["id"], authorization_id=auth["id"], start=at(5, 6), duration_minutes=60
    )
    lapsed = next(c for c in every(ep, "list_credentials", kind="hha") if c["expires_on"] < day(0))
    refused(
        ep,
        "assign_caregiver",
        "rule_violation",
        "caregiver_id",
        visit_id=visit["id"],
        caregiver_id=lapsed["caregiver_id"],
    )
    cna_only = next(c for c in credentialed(ep, "cna") if c not in credentialed(ep, "hha", 5))
    refused(ep, "assign_caregiver", "rule_violation", "caregiver_id", visit_id=visit["id"], caregiver_id=cna_only)
    who = credentialed(ep, "hha", 5)[0]
    assert ok(ep, "assign_caregiver", visit_id=visit["id"], caregiver_id=who)["caregiver_id"] == who
    again = ok(
        ep, "schedule_visit", client_id=client["id"], authorization_id=auth["id"], start=at(5, 6), duration_minutes=30
    )
    refused(ep, "assign_caregiver", "conflict", "caregiver_id", visit_id=again["id"], caregiver_id=who)


def test_evv_clock_in_needs_the_home_location_and_time_then_verification_bills_units(ep: Episode) -> None:
    visit = next(v for v in every(ep, "list_visits", status="scheduled") if v["scheduled_start"] == at(0, 10))
    client = ok(ep, "get_client", client_id=visit["client_id"])
    refused(
        ep,
        "clock_in",
        "rule_violation",
        "latitude",
        visit_id=visit["id"],
        latitude=client["latitude"] + 0.01,
        longitude=client["longitude"],
    )
    later = next(v for v in every(ep, "list_visits", status="scheduled") if v["scheduled_start"] > at(1, 0))
    refused(ep, "clock_in", "rule_violation", "visit_id", visit_id=later["id"], latitude=0.0, longitude=0.0)
    inside = ok(ep, "clock_in", visit_id=visit["id"], latitude=client["latitude"], longitude=client["longitude"])
    assert inside["status"] == "in_progress" and inside["clock_in_distance_m"] == 0.0
    running = every(ep, "list_visits", status="in_progress")
    older = next(v for v in running if v["id"] != visit["id"])
    done = ok(ep, "clock_out", visit_id=older["id"], notes="Bathing done")
    auth = ok(ep, "get_authorization", authorization_id=older["authorization_id"])
    billed = ok(ep, "verify_visit", visit_id=done["id"])
    minutes = dt.datetime.fromisoformat(done["clock_out_at"]) - dt.datetime.fromisoformat(done["clock_in_at"])
    assert billed["units_billed"] == -(-int(minutes.total_seconds()) // 900)
    after = ok(ep, "get_authorization", authorization_id=auth["id"])
    assert after["units_used"] == auth["units_used"] + billed["units_billed"]
    refused(ep, "verify_visit", "rule_violation", "visit_id", visit_id=done["id"])


def test_verification_refuses_to_bill_past_the_authorized_units(ep: Episode) -> None:
    done = every(ep, "list_visits", status="completed")[0]
    client = ok(ep, "get_client", client_id=done["client_id"])
    auth = ok(
        ep,
        "create_authorization",
        client_id=client["id"],
        payer=client["payer"],
        service_code="T1019",
        units_authorized=4,
        start_date=day(-10),
        end_date=day(30),
    )
    refused(
        ep,
        "create_authorization",
        "rule_violation",
        "end_date",
        client_id=client["id"],
        payer="va",
        service_code="T1019",
        units_authorized=4,
        start_date=day(10),
        end_date=day(1),
    )
    ok(ep, "schedule_visit", client_id=client["id"], authorization_id=auth["id"], start=at(3, 6), duration_minutes=60)
    refused(
        ep,
        "schedule_visit",
        "rule_violation",
        "authorization_id",
        client_id=client["id"],
        authorization_id=auth["id"],
        start=at(4, 6),
        duration_minutes=60,
    )
    original = ok(ep, "get_authorization", authorization_id=done["authorization_id"])
    assert ok(ep, "verify_visit", visit_id=done["id"])["units_billed"] == 8
    assert ok(ep, "get_authorization", authorization_id=original["id"])["units_used"] == original["units_used"] + 8


def test_past_visits_are_missed_and_future_ones_cancelled(ep: Episode) -> None:
    past = next(v for v in every(ep, "list_visits", status="scheduled") if v["scheduled_end"] < at(0, 9))
    future = next(v for v in every(ep, "list_visits", status="scheduled") if v["scheduled_start"] > at(1, 0))
    refused(ep, "cancel_visit", "rule_violation", "visit_id", visit_id=past["id"], reason="Too late")
    refused(ep, "mark_missed", "rule_violation", "visit_id", visit_id=future["id"], reason="weather")
    missed = ok(ep, "mark_missed", visit_id=past["id"], reason="client_hospitalized", notes="Admitted Friday")
    assert (missed["status"], missed["missed_reason"]) == ("missed", "client_hospitalized")
    refused(ep, "cancel_visit", "rule_violation", "reason", visit_id=future["id"], reason=" ")
    assert ok(ep, "cancel_visit", visit_id=future["id"], reason="Family visiting")["status"] == "cancelled"


def test_discharge_cancels_scheduled_visits_and_waits_for_visits_in_progress(ep: Episode) -> None:
    busy = every(ep, "list_visits", status="in_progress")[0]
    refused(ep, "discharge_client", "rule_violation", "client_id", client_id=busy["client_id"], reason="Moving")
    client = next(
        c
        for c in every(ep, "list_clients", status="active")
        if not every(ep, "list_visits", client_id=c["id"], status="in_progress")
    )
    refused(ep, "discharge_client", "rule_violation", "reason", client_id=client["id"], reason="")
    gone = ok(ep, "discharge_client", client_id=client["id"], reason="Moved to assisted living")
    assert gone["status"] == "discharged"
    assert not every(ep, "list_visits", client_id=client["id"], status="scheduled")
    refused(
        ep,
        "create_care_plan",
        "rule_violation",
        "client_id",
        client_id=client["id"],
        tasks=["bathing"],
        hours_per_week=4,
    )


def test_credentials_are_one_per_kind_renewed_forward_and_lapsing_ones_listed(ep: Episode) -> None:
    lapsing = ok(ep, "expiring_credentials", within_days=30)
    assert lapsing[0]["days_left"] < 0 and [x["days_left"] for x in lapsing] == sorted(x["days_left"] for x in lapsing)
    cred = every(ep, "list_credentials", kind="cpr")[0]
    refused(
        ep,
        "add_credential",
        "conflict",
        "kind",
        caregiver_id=cred["caregiver_id"],
        kind="cpr",
        number="CPR-1",
        expires_on=day(300),
    )
    refused(ep, "renew_credential", "rule_violation", "expires_on", credential_id=cred["id"], expires_on=day(0))
    renewed = ok(ep, "renew_credential", credential_id=lapsing[0]["credential_id"], expires_on=day(700))
    assert renewed["expires_on"] == day(700)
    assert all(x["credential_id"] != renewed["id"] for x in ok(ep, "expiring_credentials", within_days=30))
