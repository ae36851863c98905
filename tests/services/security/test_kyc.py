"""Veriface: inquiry lifecycle, ID and selfie checks, watchlist screening, manual review cases."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

KYC = ServiceTools("kyc")
WORLD = KYC.world
ok, refused, every = KYC.ok, KYC.refused, KYC.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
ANALYST = POP.employees[0].email


def template(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_templates", name=name)[0]


def start(ep: Episode, tmpl: str, first: str = "Nora", last: str = "Quinn") -> dict[str, Any]:
    t = template(ep, tmpl)
    country = t["allowed_countries"][0] if t["allowed_countries"] else "US"
    made: dict[str, Any] = ok(
        ep,
        "create_inquiry",
        template_id=t["id"],
        email=f"{first.lower()}@mailbox.net",
        name_first=first,
        name_last=last,
        country=country,
    )
    return made


def passport(inquiry: dict[str, Any], name: str, days: int = 900, country: str | None = None) -> dict[str, Any]:
    return {
        "inquiry_id": inquiry["id"],
        "type": "government_id",
        "id_class": "pp",
        "name_on_document": name,
        "issuing_country": country or "US",
        "expiration_date": (TODAY + dt.timedelta(days=days)).isoformat(),
    }


STD = "KYC standard (ID + selfie)"
LIGHT = "ID only (low risk)"


def test_seeded_inquiries_cover_every_status_and_verified_accounts_were_approved(ep: Episode) -> None:
    inqs = every(ep, "list_inquiries")
    assert {"created", "pending", "completed", "needs_review", "approved", "declined", "failed", "expired"} <= {
        i["status"] for i in inqs
    }
    for a in every(ep, "list_accounts", verified=True):
        assert any(i["status"] == "approved" for i in every(ep, "list_inquiries", account_id=a["id"]))
    for i in every(ep, "list_inquiries", status="needs_review"):
        assert every(ep, "list_cases", inquiry_id=i["id"])


def test_a_full_inquiry_completes_and_auto_approves(ep: Episode) -> None:
    inq = start(ep, STD)
    country = template(ep, STD)["allowed_countries"][0]
    v = ok(ep, "submit_verification", **passport(inq, "Nora Quinn", country=country))
    assert v["status"] == "passed"
    assert ok(ep, "get_inquiry", inquiry_id=inq["id"])["status"] == "pending"
    ok(ep, "submit_verification", inquiry_id=inq["id"], type="selfie", similarity=0.93)
    assert ok(ep, "get_inquiry", inquiry_id=inq["id"])["status"] == "approved"
    assert ok(ep, "get_account", account_id=inq["account_id"])["verified"] is True
    assert [r["type"] for r in every(ep, "list_reports", inquiry_id=inq["id"])] == ["watchlist"]


def test_id_checks_fail_on_expiry_name_and_country(ep: Episode) -> None:
    inq = start(ep, STD)
    allowed = template(ep, STD)["allowed_countries"]
    bad_country = next(c for c in ("ZZ", "AQ", "KP") if c not in allowed)
    v = ok(ep, "submit_verification", **passport(inq, "Nora Q. Smith", days=-1, country=bad_country))
    assert set(v["failed_checks"]) == {"id_expired", "name_mismatch", "country_not_allowed"}
    assert ok(ep, "get_inquiry", inquiry_id=inq["id"])["attempts"] == 1
    refused(ep, "submit_verification", "rule_violation", "id_class", inquiry_id=inq["id"], type="government_id")


def test_three_failures_fail_the_inquiry(ep: Episode) -> None:
    inq = start(ep, STD)
    for _ in range(3):
        ok(ep, "submit_verification", inquiry_id=inq["id"], type="selfie", similarity=0.4)
    assert ok(ep, "get_inquiry", inquiry_id=inq["id"])["status"] == "failed"
    refused(
        ep, "submit_verification", "rule_violation", "inquiry_id", inquiry_id=inq["id"], type="selfie", similarity=0.99
    )


def test_one_open_inquiry_per_customer_and_templates_decide_what_is_asked(ep: Episode) -> None:
    inq = start(ep, LIGHT)
    t = template(ep, LIGHT)
    refused(
        ep,
        "create_inquiry",
        "conflict",
        "email",
        template_id=t["id"],
        email="nora@mailbox.net",
        name_first="Nora",
        name_last="Quinn",
        country="US",
    )
    refused(ep, "submit_verification", "rule_violation", "type", inquiry_id=inq["id"], type="selfie", similarity=0.9)
    ok(ep, "expire_inquiry", inquiry_id=inq["id"])
    again = ok(
        ep,
        "create_inquiry",
        template_id=t["id"],
        email="nora@mailbox.net",
        name_first="Nora",
        name_last="Quinn",
        country="US",
    )
    assert again["account_id"] == inq["account_id"]
    archived = every(ep, "list_templates", status="archived")[0]
    refused(
        ep,
        "create_inquiry",
        "rule_violation",
        "template_id",
        template_id=archived["id"],
        email="zed@mailbox.net",
        name_first="Zed",
        name_last="Ray",
        country="US",
    )


def test_without_auto_approve_a_completed_inquiry_waits_for_an_analyst(ep: Episode) -> None:
    inq = start(ep, LIGHT)
    ok(ep, "submit_verification", **passport(inq, "nora quinn"))
    assert ok(ep, "get_inquiry", inquiry_id=inq["id"])["status"] == "completed"
    refused(ep, "approve_inquiry", "rule_violation", "reviewer", inquiry_id=inq["id"], reviewer="x@y.io")
    done = ok(ep, "approve_inquiry", inquiry_id=inq["id"], reviewer=ANALYST)
    assert (done["status"], done["reviewer"]) == ("approved", ANALYST)
    refused(ep, "decline_inquiry", "rule_violation", "inquiry_id", inquiry_id=inq["id"], reviewer=ANALYST)


def test_a_watchlist_match_opens_a_case_that_decides_the_inquiry(ep: Episode) -> None:
    inq = start(ep, LIGHT, "Omar", "Khalidi")
    ok(ep, "submit_verification", **passport(inq, "Omar Khalidi"))
    assert ok(ep, "get_inquiry", inquiry_id=inq["id"])["status"] == "needs_review"
    case = every(ep, "list_cases", inquiry_id=inq["id"])[0]
    refused(ep, "approve_inquiry", "rule_violation", "inquiry_id", inquiry_id=inq["id"], reviewer=ANALYST)
    refused(ep, "resolve_case", "rule_violation", "case_id", case_id=case["id"], resolution="declined")
    ok(ep, "assign_case", case_id=case["id"], assignee=ANALYST)
    assert ok(ep, "resolve_case", case_id=case["id"], resolution="declined")["status"] == "resolved"
    final = ok(ep, "get_inquiry", inquiry_id=inq["id"])
    assert (final["status"], final["reviewer"]) == ("declined", ANALYST)
    refused(ep, "assign_case", "conflict", "case_id", case_id=case["id"], assignee=ANALYST)


def test_declining_resolves_the_open_case(ep: Episode) -> None:
    inq = every(ep, "list_inquiries", status="needs_review")[0]
    ok(ep, "decline_inquiry", inquiry_id=inq["id"], reviewer=ANALYST)
    assert {c["resolution"] for c in every(ep, "list_cases", inquiry_id=inq["id"])} == {"declined"}


def test_rescreening_an_account_reports_watchlist_matches(ep: Episode) -> None:
    listed = next(a for a in every(ep, "list_accounts") if a["name_last"] in ("Sarkov", "Moravec"))
    assert ok(ep, "run_report", account_id=listed["id"], type="watchlist")["has_match"] is True
    clean = every(ep, "list_accounts", verified=True)[0]
    rep = ok(ep, "run_report", account_id=clean["id"], type="watchlist")
    assert (rep["has_match"], rep["inquiry_id"]) == (False, None)
