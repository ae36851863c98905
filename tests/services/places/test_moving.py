"""Haulwise: lead to survey to estimate to booked job, crews and trucks, dispatch, billing and claims."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import iso_z
from tests.services.helpers import ServiceTools

MOVE = ServiceTools("moving")
WORLD = MOVE.world
ok, refused, every, first = MOVE.ok, MOVE.refused, MOVE.every, MOVE.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = [p.email for p in POP.employees]
INV = [{"name": "Sofa", "quantity": 1, "cubic_feet": 50}, {"name": "Box", "quantity": 30, "cubic_feet": 3}]


def at(days: int, hour: int) -> str:
    return iso_z(dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC))


def surveyed_lead(ep: Episode) -> dict[str, Any]:
    lead = first(ep, "leads", status="contacted")
    sv = ok(ep, "schedule_survey", lead_id=lead["id"], kind="virtual", surveyor_email=STAFF[0], scheduled_at=at(1, 15))
    ok(ep, "complete_survey", survey_id=sv["id"], inventory=INV)
    return dict(lead)


def test_seeded_leads_are_consumers_and_jobs_follow_accepted_estimates(ep: Episode) -> None:
    consumers = {p.email: p.name for p in POP.consumers}
    for lead in every(ep, "list_leads"):
        assert consumers[lead["email"]] == lead["customer_name"]
    for job in every(ep, "list_jobs"):
        assert ok(ep, "get_estimate", estimate_id=job["estimate_id"])["status"] == "accepted"
        assert ok(ep, "get_lead", lead_id=job["lead_id"])["status"] == "booked"


def test_a_survey_is_before_the_move_by_staff_and_sums_the_inventory(ep: Episode) -> None:
    lead = first(ep, "leads", status="contacted")
    args = {"lead_id": lead["id"], "kind": "in_home"}
    refused(
        ep,
        "schedule_survey",
        "rule_violation",
        "surveyor_email",
        surveyor_email="x@y.io",
        scheduled_at=at(1, 9),
        **args,
    )
    refused(
        ep, "schedule_survey", "rule_violation", "scheduled_at", surveyor_email=STAFF[0], scheduled_at=at(60, 9), **args
    )
    sv = ok(ep, "schedule_survey", surveyor_email=STAFF[0], scheduled_at=at(1, 9), **args)
    assert ok(ep, "get_lead", lead_id=lead["id"])["status"] == "survey_scheduled"
    refused(ep, "complete_survey", "rule_violation", "inventory", survey_id=sv["id"], inventory=[])
    assert ok(ep, "complete_survey", survey_id=sv["id"], inventory=INV)["total_cubic_feet"] == 140


def test_an_estimate_needs_a_completed_survey_and_prices_by_kind(ep: Episode) -> None:
    pending = first(ep, "leads", status="survey_scheduled")
    refused(
        ep,
        "create_estimate",
        "rule_violation",
        "lead_id",
        lead_id=pending["id"],
        kind="hourly",
        crew_size=2,
        trucks=1,
        hours=4,
    )
    lead = surveyed_lead(ep)
    hourly = ok(ep, "create_estimate", lead_id=lead["id"], kind="hourly", crew_size=2, trucks=1, hours=4)
    assert hourly["total"] == 2 * 4 * 6500 + 15000 and hourly["weight_lbs"] == 140 * 7
    binding = ok(ep, "create_estimate", lead_id=lead["id"], kind="binding", crew_size=2, trucks=1, hours=4)
    assert binding["total"] == round(hourly["total"] * 1.1)
    refused(
        ep,
        "create_estimate",
        "rule_violation",
        "declared_value",
        lead_id=lead["id"],
        kind="binding",
        crew_size=2,
        trucks=1,
        hours=4,
        valuation="full_value",
    )


def test_accepting_a_sent_estimate_books_the_job_and_declines_the_others(ep: Episode) -> None:
    lead = surveyed_lead(ep)
    a = ok(ep, "create_estimate", lead_id=lead["id"], kind="hourly", crew_size=2, trucks=1, hours=4)
    b = ok(ep, "create_estimate", lead_id=lead["id"], kind="binding", crew_size=3, trucks=1, hours=5)
    refused(ep, "accept_estimate", "rule_violation", "estimate_id", estimate_id=a["id"])
    ok(ep, "send_estimate", estimate_id=a["id"])
    ok(ep, "send_estimate", estimate_id=b["id"])
    job = ok(ep, "accept_estimate", estimate_id=b["id"])
    assert (job["status"], job["move_date"], job["customer_email"]) == ("booked", lead["move_date"], lead["email"])
    assert ok(ep, "get_estimate", estimate_id=a["id"])["status"] == "declined"
    assert ok(ep, "get_lead", lead_id=lead["id"])["status"] == "booked"


def test_crew_and_trucks_must_fit_the_estimate_and_be_free(ep: Episode) -> None:
    job = next(j for j in every(ep, "list_jobs", status="booked") if j["move_date"] > TODAY.isoformat())
    est = ok(ep, "get_estimate", estimate_id=job["estimate_id"])
    trucks = sorted(every(ep, "list_trucks", status="available"), key=lambda t: -t["capacity_cubic_feet"])
    base = {"job_id": job["id"], "truck_ids": [trucks[0]["id"]]}
    refused(ep, "assign_crew", "rule_violation", "crew_emails", crew_emails=STAFF[:1], **base)
    refused(ep, "assign_crew", "rule_violation", "crew_emails", crew_emails=[STAFF[0], STAFF[1], "x@y.io"], **base)
    broken = first(ep, "trucks", status="maintenance")
    refused(
        ep,
        "assign_crew",
        "conflict",
        "truck_ids",
        crew_emails=STAFF[: est["crew_size"]],
        job_id=job["id"],
        truck_ids=[broken["id"]],
    )
    done = ok(ep, "assign_crew", crew_emails=STAFF[: est["crew_size"]], **base)
    assert done["truck_ids"] == [trucks[0]["id"]]


def test_dispatch_is_on_the_move_day_with_a_crew(ep: Episode) -> None:
    today = next(j for j in every(ep, "list_jobs", status="booked") if j["move_date"] == TODAY.isoformat())
    later = next(j for j in every(ep, "list_jobs", status="booked") if j["move_date"] > TODAY.isoformat())
    refused(ep, "dispatch_job", "rule_violation", "job_id", job_id=later["id"])
    assert ok(ep, "dispatch_job", job_id=today["id"])["status"] == "dispatched"
    refused(ep, "cancel_job", "rule_violation", "job_id", job_id=today["id"])


def test_completion_bills_binding_quotes_as_quoted_and_others_by_hours(ep: Episode) -> None:
    job = first(ep, "jobs", status="dispatched")
    est = ok(ep, "get_estimate", estimate_id=job["estimate_id"])
    done = ok(ep, "complete_job", job_id=job["id"], actual_hours=9)
    if est["kind"] == "binding":
        assert done["final_amount"] == est["total"]
    else:
        assert done["final_amount"] == est["crew_size"] * 9 * 6500 + 15000 * est["trucks"] + est["materials"]
    assert done["completed_on"] == TODAY.isoformat()


def test_claims_are_capped_by_valuation(ep: Episode) -> None:
    job = first(ep, "jobs", status="completed")
    est = ok(ep, "get_estimate", estimate_id=job["estimate_id"])
    assert est["valuation"] == "full_value"
    refused(
        ep,
        "file_claim",
        "rule_violation",
        "amount_claimed",
        job_id=job["id"],
        item="Lamp",
        weight_lbs=5,
        amount_claimed=0,
    )
    big = ok(ep, "file_claim", job_id=job["id"], item="Piano", weight_lbs=500, amount_claimed=5_000_000)
    assert ok(ep, "decide_claim", claim_id=big["id"], approve=True)["amount_approved"] == est["declared_value"]
    refused(ep, "decide_claim", "rule_violation", "claim_id", claim_id=big["id"], approve=False)
    refused(
        ep,
        "file_claim",
        "rule_violation",
        "job_id",
        job_id=first(ep, "jobs", status="booked")["id"],
        item="X",
        weight_lbs=5,
        amount_claimed=10,
    )


def test_released_value_pays_sixty_cents_a_pound(ep: Episode) -> None:
    job = first(ep, "jobs", status="dispatched")
    ok(ep, "complete_job", job_id=job["id"], actual_hours=5)
    claim = ok(ep, "file_claim", job_id=job["id"], item="TV", weight_lbs=40, amount_claimed=90000)
    assert ok(ep, "decide_claim", claim_id=claim["id"], approve=True)["amount_approved"] == 40 * 60
