"""Goodcheck: the register's rules (forms by receipts, revocation, Pub 78) and due-diligence checks with four eyes."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CH = ServiceTools("charities")
WORLD = CH.world
ok, refused, every = CH.ok, CH.refused, CH.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
FINANCE = [p.email for p in POP.staff("Finance")] or [p.email for p in POP.employees]


def orgs(ep: Episode, **filters: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = ok(ep, "search_organizations", **filters)
    return found


def test_organizations_sit_in_the_worlds_us_cities_led_by_people_living_there(ep: Episode) -> None:
    us_cities = {p.city for p in POP.places if p.country == "US"}
    found = orgs(ep)
    assert {o["city"] for o in found} == us_cities
    for o in found:
        locals_ = {p.name for p in POP.people if p.place.city == o["city"]}
        assert o["principal_officer"] in locals_ or not locals_
        assert o["ntee_code"][0] in {g["code"] for g in ok(ep, "list_ntee_groups")}
    o = found[0]
    assert o in ok(ep, "search_by_officer", name=o["principal_officer"].upper())
    assert ok(ep, "get_organization", ein=o["ein"]) == o
    refused(ep, "get_organization", "not_found", "ein", ein="00-0000000")


def test_the_form_filed_follows_gross_receipts_and_the_books_add_up(ep: Episode) -> None:
    for o in orgs(ep)[:15]:
        for f in ok(ep, "get_financial_history", ein=o["ein"], years=6):
            rev = f["total_revenue"]
            assert f["form"] == ("990-N" if rev <= 50_000 else "990-EZ" if rev < 200_000 else "990")
            parts = f["program_expenses"] + f["management_expenses"] + f["fundraising_expenses"]
            assert parts == f["total_expenses"] and f["surplus"] == rev - f["total_expenses"]
            assert f["net_assets"] == f["total_assets"] - f["total_liabilities"]
            assert f["contributions"] + f["program_service_revenue"] == rev


def test_returns_are_filed_after_their_year_newest_first(ep: Episode) -> None:
    o = next(o for o in orgs(ep) if o["status"] == "exempt")
    filings = ok(ep, "list_filings", ein=o["ein"])
    years = [f["tax_year"] for f in filings]
    assert years == sorted(years, reverse=True) and years[0] == o["latest_tax_year"]
    assert all(int(f["filed_on"][:4]) == f["tax_year"] + 1 and f["filed_on"] <= TODAY.isoformat() for f in filings)
    assert ok(ep, "get_financials", ein=o["ein"])["tax_year"] == years[0]
    refused(ep, "get_financials", "not_found", "tax_year", ein=o["ein"], tax_year=1999)


def test_revoked_organizations_stopped_filing_and_lost_pub78(ep: Episode) -> None:
    revoked = [o for o in orgs(ep) if o["status"] == "revoked"]
    assert revoked
    for o in revoked:
        rev = ok(ep, "check_revocation", ein=o["ein"])
        assert rev["revoked"] and rev["revocation_date"] <= TODAY.isoformat()
        assert rev["last_return_year"] <= TODAY.year - 4
        pub = ok(ep, "check_pub78", ein=o["ein"])
        assert not pub["eligible"] and not o["deductible"]
    deductible = orgs(ep, deductible_only=True)
    assert deductible and all(o["subsection"] == "501(c)(3)" and o["status"] == "exempt" for o in deductible)
    club = orgs(ep, subsection="501(c)(7)")[0]
    assert ok(ep, "check_pub78", ein=club["ein"])["eligible"] is False


def test_seeded_checks_are_consistent_with_the_register(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    for c in every(ep, "list_checks"):
        assert c["requested_by"] in staff and c["decided_by"] != c["requested_by"]
        assert ok(ep, "get_organization", ein=c["ein"])["name"] == c["organization_name"]
        found = every(ep, "list_findings", check_id=c["id"])
        if c["status"] == "passed":
            assert found == []
        if c["status"] == "flagged":
            assert found


def test_running_a_check_records_the_registers_findings(ep: Episode) -> None:
    me = POP.employees[0].email
    revoked = next(o for o in orgs(ep) if o["status"] == "revoked")
    check = ok(ep, "open_check", ein=revoked["ein"], purpose="grant", requested_by=me, amount_usd=1000)
    assert check["status"] == "open" and check["organization_name"] == revoked["name"]
    refused(ep, "open_check", "rule_violation", "ein", ein=revoked["ein"], purpose="grant", requested_by=me)
    ran = ok(ep, "run_check", check_id=check["id"])
    assert ran["status"] == "flagged" and ran["last_run_on"] == TODAY.isoformat()
    codes = {f["code"]: f for f in every(ep, "list_findings", check_id=check["id"])}
    assert codes["revoked"]["severity"] == "blocker" and "missing_returns" in codes
    ok(ep, "run_check", check_id=check["id"])
    assert len(every(ep, "list_findings", check_id=check["id"])) == len(codes)


def test_blockers_cannot_be_waived_and_open_findings_block_approval(ep: Episode) -> None:
    me = POP.employees[0].email
    checker = next(e for e in FINANCE if e != me)
    club = orgs(ep, subsection="501(c)(6)")[0]
    check = ok(ep, "open_check", ein=club["ein"], purpose="donation_match", requested_by=me)
    ok(ep, "run_check", check_id=check["id"])
    blocker = next(f for f in every(ep, "list_findings", check_id=check["id"]) if f["code"] == "not_501c3")
    assert blocker["severity"] == "blocker"
    refused(
        ep, "waive_finding", "rule_violation", "finding_id", finding_id=blocker["id"], waived_by=checker, reason="ok"
    )
    refused(ep, "approve_check", "rule_violation", "check_id", check_id=check["id"], decided_by=checker)
    done = ok(ep, "reject_check", check_id=check["id"], decided_by=checker, reason="not deductible")
    assert done["status"] == "rejected" and "not deductible" in done["notes"]
    refused(ep, "run_check", "rule_violation", "check_id", check_id=check["id"])
    refused(ep, "cancel_check", "rule_violation", "check_id", check_id=check["id"])


def test_warnings_are_waived_by_finance_with_a_reason_then_a_second_person_approves(ep: Episode) -> None:
    flagged = CH.first(ep, "checks", status="flagged")
    warnings = [f for f in every(ep, "list_findings", check_id=flagged["id"]) if f["severity"] == "warning"]
    assert warnings
    outsider = next((p.email for p in POP.employees if p.email not in FINANCE), None)
    checker = next(e for e in FINANCE if e != flagged["requested_by"])
    if outsider is not None:
        refused(
            ep,
            "waive_finding",
            "rule_violation",
            "waived_by",
            finding_id=warnings[0]["id"],
            waived_by=outsider,
            reason="fine",
        )
    refused(
        ep, "waive_finding", "rule_violation", "reason", finding_id=warnings[0]["id"], waived_by=checker, reason=" "
    )
    for f in every(ep, "list_findings", check_id=flagged["id"]):
        assert f["severity"] == "warning"
        ok(ep, "waive_finding", finding_id=f["id"], waived_by=checker, reason="Reviewed the latest 990.")
    assert ok(ep, "run_check", check_id=flagged["id"])["status"] == "passed"
    if flagged["requested_by"] in FINANCE:
        refused(
            ep,
            "approve_check",
            "rule_violation",
            "decided_by",
            check_id=flagged["id"],
            decided_by=flagged["requested_by"],
        )
    done = ok(ep, "approve_check", check_id=flagged["id"], decided_by=checker)
    assert (done["status"], done["decided_by"]) == ("approved", checker)


def test_only_finance_decides_and_never_on_an_unrun_check(ep: Episode) -> None:
    opened = CH.first(ep, "checks", status="open")
    checker = next(e for e in FINANCE if e != opened["requested_by"])
    refused(ep, "approve_check", "rule_violation", "check_id", check_id=opened["id"], decided_by=checker)
    passed = CH.first(ep, "checks", status="passed")
    refused(
        ep, "approve_check", "rule_violation", "decided_by", check_id=passed["id"], decided_by=POP.contacts[0].email
    )
    requester = passed["requested_by"]
    refused(ep, "approve_check", "rule_violation", "decided_by", check_id=passed["id"], decided_by=requester)
    assert ok(ep, "cancel_check", check_id=opened["id"])["status"] == "cancelled"
    refused(ep, "update_check", "rule_violation", "check_id", check_id=opened["id"], notes="again")
