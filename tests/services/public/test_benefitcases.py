"""Harbor Benefits: applications, verifications that block decisions, eligibility and benefits, recertification."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BC = ServiceTools("benefitcases")
WORLD = BC.world
ok, refused, every, first = BC.ok, BC.refused, BC.every, BC.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def new_household(ep: Episode, size: int, income: int) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_household",
        head_first_name="Rosa",
        head_last_name="Delgado",
        email="rosa.delgado@example.org",
        street="12 Elm St",
        city="Springfield",
        postal_code="62701",
        size=size,
        monthly_income_cents=income,
    )
    return made


def test_households_are_the_worlds_residents_and_decisions_have_notices(ep: Episode) -> None:
    emails = {p.email for p in POP.consumers}
    assert all(h["email"] in emails for h in every(ep, "list_households"))
    for d in every(ep, "list_determinations"):
        app = ok(ep, "get_application", application_id=d["application_id"])
        assert app["status"] == ("approved" if d["eligible"] else "denied")
        kinds = {n["kind"] for n in every(ep, "list_notices", application_id=app["id"])}
        assert ("approval" if d["eligible"] else "denial") in kinds


def test_one_open_application_per_household_and_program(ep: Episode) -> None:
    h = new_household(ep, 3, 150000)
    app = ok(ep, "submit_application", email=h["email"], program="snap")
    assert app["status"] == "submitted" and app["application_number"].startswith("APP-")
    refused(ep, "submit_application", "conflict", "program", email=h["email"], program="snap")
    refused(ep, "submit_application", "rule_violation", "email", email="nobody@example.org", program="snap")
    refused(
        ep,
        "create_household",
        "conflict",
        "email",
        head_first_name="X",
        head_last_name="Y",
        email=h["email"],
        street="1 A St",
        city="Springfield",
        postal_code="62701",
        size=1,
        monthly_income_cents=0,
    )
    assert ok(ep, "submit_application", email=h["email"], program="medicaid")["program"] == "medicaid"


def test_outstanding_verifications_block_the_decision(ep: Episode) -> None:
    h = new_household(ep, 2, 100000)
    app = ok(ep, "submit_application", email=h["email"], program="snap")
    v = ok(ep, "request_verification", application_id=app["id"], item="income")
    assert v["due_on"] == (TODAY + dt.timedelta(days=10)).isoformat()
    assert ok(ep, "get_application", application_id=app["id"])["status"] == "pending_verification"
    refused(ep, "request_verification", "conflict", "item", application_id=app["id"], item="income")
    refused(ep, "determine_eligibility", "rule_violation", "application_id", application_id=app["id"])
    refused(ep, "waive_verification", "rule_violation", "reason", verification_id=v["id"], reason=" ")
    assert ok(ep, "receive_verification", verification_id=v["id"])["status"] == "received"
    assert ok(ep, "get_application", application_id=app["id"])["status"] == "submitted"
    kinds = [n["kind"] for n in every(ep, "list_notices", application_id=app["id"])]
    assert kinds == ["verification_request"]


def test_income_under_the_limit_is_approved_with_a_benefit_for_twelve_months(ep: Episode) -> None:
    h = new_household(ep, 3, 150000)
    app = ok(ep, "submit_application", email=h["email"], program="snap")
    d = ok(ep, "determine_eligibility", application_id=app["id"])
    screen = ok(ep, "screen_eligibility", program="snap", household_size=3, monthly_income_cents=150000)
    assert d["eligible"] and d["income_limit_cents"] == screen["income_limit_cents"] == 279716
    assert d["monthly_benefit_cents"] == screen["estimated_benefit_cents"] == 76800 - 45000
    assert d["certification_end"] == (TODAY.replace(year=TODAY.year + 1) - dt.timedelta(days=1)).isoformat()
    assert ok(ep, "get_application", application_id=app["id"])["status"] == "approved"
    refused(ep, "determine_eligibility", "rule_violation", "application_id", application_id=app["id"])


def test_income_over_the_limit_is_denied_with_a_reason(ep: Episode) -> None:
    h = new_household(ep, 1, 400000)
    app = ok(ep, "submit_application", email=h["email"], program="medicaid")
    d = ok(ep, "determine_eligibility", application_id=app["id"])
    assert (d["eligible"], d["status"], d["certification_end"]) == (False, "denied", None)
    denied = ok(ep, "get_application", application_id=app["id"])
    assert denied["status"] == "denied" and "above the limit" in denied["denial_reason"]
    assert [n["kind"] for n in every(ep, "list_notices", application_id=app["id"])] == ["denial"]


def test_recertification_opens_only_in_the_last_45_days(ep: Episode) -> None:
    active = every(ep, "list_determinations", status="active")
    near = [d for d in active if dt.date.fromisoformat(d["certification_end"]) - TODAY <= dt.timedelta(days=45)]
    far = [d for d in active if d not in near]
    assert near and far
    refused(ep, "start_recertification", "rule_violation", "determination_id", determination_id=far[0]["id"])
    renewal = ok(ep, "start_recertification", determination_id=near[0]["id"])
    assert renewal["recertification"] and renewal["status"] == "submitted"
    refused(ep, "start_recertification", "conflict", "determination_id", determination_id=near[0]["id"])
    assert every(ep, "list_notices", application_id=renewal["id"])[0]["kind"] == "recertification_due"


def test_a_new_approval_closes_the_previous_determination(ep: Episode) -> None:
    h = new_household(ep, 4, 100000)
    first_app = ok(ep, "submit_application", email=h["email"], program="snap")
    old = ok(ep, "determine_eligibility", application_id=first_app["id"])
    again = ok(ep, "submit_application", email=h["email"], program="snap")
    ok(ep, "determine_eligibility", application_id=again["id"])
    assert ok(ep, "get_determination", determination_id=old["id"])["status"] == "closed"


def test_withdrawal_waives_what_was_outstanding_and_caseworkers_are_staff(ep: Episode) -> None:
    app = first(ep, "applications", status="pending_verification")
    refused(
        ep,
        "update_application",
        "rule_violation",
        "caseworker_email",
        application_id=app["id"],
        caseworker_email="someone@example.org",
    )
    staff = POP.employees[0].email
    assert ok(ep, "update_application", application_id=app["id"], caseworker_email=staff)["caseworker_email"] == staff
    ok(ep, "withdraw_application", application_id=app["id"])
    assert {v["status"] for v in every(ep, "list_verifications", application_id=app["id"])} == {"waived"}
    refused(ep, "request_verification", "rule_violation", "application_id", application_id=app["id"], item="identity")


def test_closing_a_case_sends_a_notice(ep: Episode) -> None:
    d = first(ep, "determinations", status="active")
    refused(ep, "close_determination", "rule_violation", "reason", determination_id=d["id"], reason="")
    closed = ok(ep, "close_determination", determination_id=d["id"], reason="Moved out of county")
    assert (closed["status"], closed["certification_end"]) == ("closed", TODAY.isoformat())
    assert "closure" in {n["kind"] for n in every(ep, "list_notices", application_id=d["application_id"])}
    refused(ep, "close_determination", "conflict", "determination_id", determination_id=d["id"], reason="again")
