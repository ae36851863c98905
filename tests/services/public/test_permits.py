"""Civic Permit Portal: review workflow, fees that must be paid, inspections before issuance, expiry."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.public.permits import RECORD_TYPES, REINSPECT_CENTS
from tests.services.helpers import ServiceTools

PERMITS = ServiceTools("permits")
WORLD = PERMITS.world
ok, refused, every = PERMITS.ok, PERMITS.refused, PERMITS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def workday(after: dt.date = TODAY) -> str:
    day = after + dt.timedelta(days=1)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day.isoformat()


def contact(ep: Episode, kind: str) -> dict[str, Any]:
    return every(ep, "list_contacts", contact_type=kind)[0]


def free_address(ep: Episode, record_type: str) -> dict[str, Any]:
    for a in every(ep, "list_addresses"):
        open_ = [
            p
            for p in every(ep, "list_permits", address_id=a["id"], record_type=record_type)
            if p["status"] in ("submitted", "in_review", "approved", "issued")
        ]
        if not open_:
            return a
    raise AssertionError("no free address")


def balance(ep: Episode, permit_id: str) -> int:
    return sum(f["amount_cents"] for f in every(ep, "list_fees", permit_id=permit_id, status="invoiced"))


def test_seeded_applicants_and_owners_are_the_populations_people() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for c in every(ep, "list_contacts"):
        assert people[c["email"]].name == f"{c['first_name']} {c['last_name']}"
        if c["contact_type"] == "contractor":
            company = POP.company_of(people[c["email"]])
            assert company is not None and company.name == c["business_name"] and c["license_number"]
    owners = {p.name for p in POP.consumers}
    assert all(a["owner_name"] in owners for a in every(ep, "list_addresses"))
    statuses = {p["status"] for p in every(ep, "list_permits")}
    assert statuses == {"submitted", "in_review", "approved", "denied", "issued", "expired"}
    for p in every(ep, "list_permits", status="issued"):
        assert not every(ep, "list_fees", permit_id=p["id"], status="invoiced"), "issued permits owe nothing"


def test_an_application_assesses_its_filing_fee_and_goes_through_review(ep: Episode) -> None:
    address = free_address(ep, "building_residential")
    applicant = contact(ep, "applicant")
    permit = ok(
        ep,
        "apply_for_permit",
        record_type="building_residential",
        address_id=address["id"],
        applicant_id=applicant["id"],
        description="Sunroom addition, 180 sq ft",
        valuation_cents=3_000_000,
    )
    assert permit["status"] == "submitted" and permit["record_number"].startswith(f"BLD-{TODAY.year}-")
    fees = every(ep, "list_fees", permit_id=permit["id"])
    assert [(f["code"], f["amount_cents"]) for f in fees] == [
        ("FILING", RECORD_TYPES["building_residential"].filing_cents)
    ]
    refused(ep, "approve_permit", "rule_violation", "permit_id", permit_id=permit["id"])
    assert ok(ep, "review_permit", permit_id=permit["id"])["status"] == "in_review"
    approved = ok(ep, "approve_permit", permit_id=permit["id"])
    assert (approved["status"], approved["decided_on"]) == ("approved", TODAY.isoformat())
    refused(ep, "deny_permit", "rule_violation", "permit_id", permit_id=permit["id"])


def test_applications_need_valuation_a_licensed_contractor_and_a_free_address(ep: Episode) -> None:
    applicant = contact(ep, "applicant")
    address = free_address(ep, "electrical")
    base = {"address_id": address["id"], "applicant_id": applicant["id"], "description": "Rewire garage"}
    refused(ep, "apply_for_permit", "rule_violation", "contractor_id", record_type="electrical", **base)
    refused(
        ep,
        "apply_for_permit",
        "rule_violation",
        "contractor_id",
        record_type="electrical",
        contractor_id=applicant["id"],
        **base,
    )
    building = free_address(ep, "building_commercial")
    refused(
        ep,
        "apply_for_permit",
        "rule_violation",
        "valuation_cents",
        record_type="building_commercial",
        address_id=building["id"],
        applicant_id=applicant["id"],
        description="Office fit-out",
    )
    busy = every(ep, "list_permits", status="in_review")[0]
    refused(
        ep,
        "apply_for_permit",
        "conflict",
        "address_id",
        record_type=busy["record_type"],
        address_id=busy["address_id"],
        applicant_id=applicant["id"],
        description="Another job at the same place",
        valuation_cents=1_000_000,
        contractor_id=contact(ep, "contractor")["id"],
    )
    made = ok(ep, "apply_for_permit", record_type="electrical", contractor_id=contact(ep, "contractor")["id"], **base)
    assert made["contractor_id"] == contact(ep, "contractor")["id"]


def test_a_permit_is_issued_only_when_its_fees_are_paid_to_the_cent(ep: Episode) -> None:
    unpaid = next(p for p in every(ep, "list_permits", status="approved") if balance(ep, p["id"]))
    refused(ep, "issue_permit", "rule_violation", "permit_id", permit_id=unpaid["id"])
    owed = balance(ep, unpaid["id"])
    refused(
        ep, "pay_fees", "rule_violation", "amount_cents", permit_id=unpaid["id"], amount_cents=owed - 1, method="ach"
    )
    receipt = ok(ep, "pay_fees", permit_id=unpaid["id"], amount_cents=owed, method="ach")
    assert receipt["amount_cents"] == owed and receipt["receipt_number"].startswith("RCPT-")
    assert all(
        f["receipt_number"] == receipt["receipt_number"]
        for f in every(ep, "list_fees", permit_id=unpaid["id"])
        if f["id"] in receipt["fee_ids"]
    )
    refused(ep, "pay_fees", "conflict", "permit_id", permit_id=unpaid["id"], amount_cents=0, method="ach")
    issued = ok(ep, "issue_permit", permit_id=unpaid["id"])
    days = RECORD_TYPES[issued["record_type"]].validity_days
    assert (issued["issued_on"], issued["expires_on"]) == (
        TODAY.isoformat(),
        (TODAY + dt.timedelta(days=days)).isoformat(),
    )
    refused(ep, "issue_permit", "rule_violation", "permit_id", permit_id=unpaid["id"])


def test_required_inspections_must_pass_before_issuance(ep: Episode) -> None:
    waiting = next(
        p
        for p in every(ep, "list_permits", status="approved")
        if not balance(ep, p["id"]) and every(ep, "list_inspections", permit_id=p["id"], status="scheduled")
    )
    refused(ep, "issue_permit", "rule_violation", "permit_id", permit_id=waiting["id"])
    insp = every(ep, "list_inspections", permit_id=waiting["id"], status="scheduled")[0]
    assert insp["inspection_type"] in RECORD_TYPES[waiting["record_type"]].required
    assert insp["scheduled_date"] == TODAY.isoformat()
    refused(ep, "result_inspection", "rule_violation", "comment", inspection_id=insp["id"], result="failed")
    assert ok(ep, "result_inspection", inspection_id=insp["id"], result="passed")["status"] == "passed"
    refused(ep, "result_inspection", "conflict", "inspection_id", inspection_id=insp["id"], result="passed")
    assert ok(ep, "issue_permit", permit_id=waiting["id"])["status"] == "issued"


def test_inspections_follow_the_record_type_working_days_and_one_open_request(ep: Episode) -> None:
    ready = next(
        p
        for p in every(ep, "list_permits", status="approved", record_type="building_commercial")
        if every(ep, "list_inspections", permit_id=p["id"], status="passed")
    )
    args = {"permit_id": ready["id"]}
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "inspection_type",
        inspection_type="rough_plumbing",
        scheduled_date=workday(),
        **args,
    )
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "scheduled_date",
        inspection_type="footing",
        scheduled_date=TODAY.isoformat(),
        **args,
    )
    saturday = TODAY + dt.timedelta(days=(5 - TODAY.weekday()) % 7 or 7)
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "scheduled_date",
        inspection_type="footing",
        scheduled_date=saturday.isoformat(),
        **args,
    )
    refused(
        ep,
        "schedule_inspection",
        "conflict",
        "inspection_type",
        inspection_type="site_review",
        scheduled_date=workday(),
        **args,
    )
    made = ok(ep, "schedule_inspection", inspection_type="footing", scheduled_date=workday(), **args)
    assert made["status"] == "scheduled" and made["inspector_email"].endswith("@permits.city.gov")
    refused(
        ep,
        "schedule_inspection",
        "conflict",
        "inspection_type",
        inspection_type="footing",
        scheduled_date=workday(),
        **args,
    )
    refused(ep, "result_inspection", "rule_violation", "inspection_id", inspection_id=made["id"], result="passed")
    submitted = every(ep, "list_permits", status="submitted")[0]
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "permit_id",
        permit_id=submitted["id"],
        inspection_type="final",
        scheduled_date=workday(),
    )


def test_scheduling_again_after_a_failure_assesses_a_reinspection_fee(ep: Episode) -> None:
    failed = every(ep, "list_inspections", status="failed")[0]
    before = balance(ep, failed["permit_id"])
    again = ok(
        ep,
        "schedule_inspection",
        permit_id=failed["permit_id"],
        inspection_type=failed["inspection_type"],
        scheduled_date=workday(),
    )
    assert again["status"] == "scheduled"
    reinspect = every(ep, "list_fees", permit_id=failed["permit_id"], code="REINSPECT")
    assert [f["amount_cents"] for f in reinspect] == [REINSPECT_CENTS]
    assert balance(ep, failed["permit_id"]) == before + REINSPECT_CENTS
    refused(ep, "issue_permit", "rule_violation", "permit_id", permit_id=failed["permit_id"])


def test_fees_follow_the_schedule_once_per_code_and_not_on_closed_records(ep: Episode) -> None:
    review = next(p for p in every(ep, "list_permits", status="in_review") if p["valuation_cents"] == 0)
    refused(ep, "assess_fee", "rule_violation", "code", permit_id=review["id"], code="PLAN_CHECK")
    fee = ok(ep, "assess_fee", permit_id=review["id"], code="PERMIT")
    assert fee["amount_cents"] == RECORD_TYPES[review["record_type"]].flat_permit_cents
    refused(ep, "assess_fee", "conflict", "code", permit_id=review["id"], code="PERMIT")
    valued = ok(
        ep,
        "get_permit",
        permit_id=every(ep, "list_permits", record_type="building_residential", status="submitted")[0]["id"],
    )
    plan = ok(ep, "assess_fee", permit_id=valued["id"], code="PLAN_CHECK")
    assert plan["amount_cents"] == round(valued["valuation_cents"] * 0.012 * 0.65)
    for status in ("denied", "issued", "expired"):
        closed = every(ep, "list_permits", status=status)[0]
        refused(ep, "assess_fee", "rule_violation", "permit_id", permit_id=closed["id"], code="REINSPECT")


def test_an_issued_permit_expires_only_after_its_expiry_date(ep: Episode) -> None:
    issued = every(ep, "list_permits", status="issued")
    old = next(p for p in issued if p["expires_on"] <= TODAY.isoformat())
    fresh = next(p for p in issued if p["expires_on"] > TODAY.isoformat())
    refused(ep, "expire_permit", "rule_violation", "permit_id", permit_id=fresh["id"])
    assert ok(ep, "expire_permit", permit_id=old["id"])["status"] == "expired"
    refused(ep, "expire_permit", "rule_violation", "permit_id", permit_id=old["id"])
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "permit_id",
        permit_id=old["id"],
        inspection_type="site_review",
        scheduled_date=workday(),
    )


def test_parcels_and_contact_emails_are_unique_and_contractors_need_a_license(ep: Episode) -> None:
    known = every(ep, "list_addresses")[0]
    refused(
        ep,
        "create_address",
        "conflict",
        "parcel_number",
        street="1 New Way",
        city=known["city"],
        postal_code=known["postal_code"],
        country=known["country"],
        parcel_number=known["parcel_number"],
    )
    refused(
        ep,
        "create_address",
        "conflict",
        "street",
        street=known["street"].upper(),
        city=known["city"],
        postal_code=known["postal_code"],
        country=known["country"],
        parcel_number="999-999-999",
    )
    person = POP.consumers[40]
    refused(
        ep,
        "create_contact",
        "conflict",
        "email",
        first_name="A",
        last_name="B",
        email=contact(ep, "applicant")["email"],
        contact_type="applicant",
    )
    refused(
        ep,
        "create_contact",
        "rule_violation",
        "license_number",
        first_name=person.first_name,
        last_name=person.last_name,
        email=person.email,
        contact_type="contractor",
        business_name="Solo Build LLC",
    )
    made = ok(
        ep,
        "create_contact",
        first_name=person.first_name,
        last_name=person.last_name,
        email=person.email,
        contact_type="contractor",
        business_name="Solo Build LLC",
        license_number="GC-1234567",
    )
    assert made["license_number"] == "GC-1234567"
