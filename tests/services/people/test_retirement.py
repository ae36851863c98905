"""Nestegg 401(k): eligibility, enrollment and elections, IRS-capped contributions and match, loans, hardships."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RET = ServiceTools("retirement")
WORLD = RET.world
ok, refused, every = RET.ok, RET.refused, RET.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email: p for p in POP.employees}


def first(ep: Episode, status: str) -> Any:
    return every(ep, "list_participants", status=status)[0]


def plan(ep: Episode) -> Any:
    return every(ep, "list_plans")[0]


def test_participants_are_the_shared_employees_with_their_dates(ep: Episode) -> None:
    for p in every(ep, "list_participants"):
        person = STAFF[p["employee_email"]]
        assert (p["name"], p["birth_date"]) == (person.name, person.birth_date.isoformat())
        if p["status"] == "ineligible":
            assert p["eligible_on"] is None
        if p["status"] != "enrolled":
            assert (p["pre_tax_percent"], p["roth_percent"]) == (0.0, 0.0)
    statuses = {p["status"] for p in every(ep, "list_participants")}
    assert statuses == {"ineligible", "eligible", "enrolled", "opted_out", "terminated"}


def test_eligibility_waits_for_the_service_period(ep: Episode) -> None:
    waiting = first(ep, "ineligible")
    assert ok(ep, "check_eligibility", participant_id=waiting["id"])["status"] == "ineligible"
    refused(ep, "enroll", "rule_violation", "participant_id", participant_id=waiting["id"])
    ok(ep, "update_plan", plan_id=plan(ep)["id"], service_months=0)
    done = ok(ep, "check_eligibility", participant_id=waiting["id"])
    assert done["status"] == "eligible" and done["eligible_on"] <= TODAY.isoformat()


def test_enrolling_uses_auto_enrollment_and_caps_the_split_at_90_percent(ep: Episode) -> None:
    a, b = every(ep, "list_participants", status="eligible")[:2]
    refused(
        ep, "enroll", "rule_violation", "pre_tax_percent", participant_id=a["id"], pre_tax_percent=60, roth_percent=31
    )
    auto = ok(ep, "enroll", participant_id=a["id"])
    assert (auto["status"], auto["pre_tax_percent"]) == ("enrolled", plan(ep)["auto_enroll_percent"])
    chosen = ok(ep, "enroll", participant_id=b["id"], pre_tax_percent=5, roth_percent=5)
    assert (chosen["pre_tax_percent"], chosen["roth_percent"]) == (5.0, 5.0)
    assert len(every(ep, "list_elections", participant_id=b["id"])) == 1
    refused(ep, "enroll", "rule_violation", "participant_id", participant_id=b["id"])


def test_election_changes_need_enrollment_and_a_real_change(ep: Episode) -> None:
    p = first(ep, "enrolled")
    refused(
        ep,
        "change_election",
        "conflict",
        "pre_tax_percent",
        participant_id=p["id"],
        pre_tax_percent=p["pre_tax_percent"],
        roth_percent=p["roth_percent"],
    )
    before = len(every(ep, "list_elections", participant_id=p["id"]))
    ok(ep, "change_election", participant_id=p["id"], pre_tax_percent=12, roth_percent=0)
    assert len(every(ep, "list_elections", participant_id=p["id"])) == before + 1
    out = first(ep, "opted_out")
    refused(ep, "change_election", "rule_violation", "participant_id", participant_id=out["id"], pre_tax_percent=5)
    assert ok(ep, "enroll", participant_id=out["id"], pre_tax_percent=4)["status"] == "enrolled"


def test_a_contribution_defers_at_the_election_and_matches_up_to_the_limit(ep: Episode) -> None:
    p = next(x for x in every(ep, "list_participants", status="enrolled") if x["pre_tax_percent"] == 6.0)
    made = ok(ep, "record_contribution", participant_id=p["id"], pay_date=TODAY.isoformat(), gross_pay_cents=500_000)
    rules = plan(ep)
    assert (made["pre_tax_cents"], made["roth_cents"]) == (30_000, 0)
    matched = min(30_000, round(500_000 * rules["match_limit_percent"] / 100))
    assert made["employer_match_cents"] == round(matched * rules["match_percent"] / 100)
    after = ok(ep, "get_participant", participant_id=p["id"])
    assert after["balance_cents"] == p["balance_cents"] + 30_000 + made["employer_match_cents"]
    refused(
        ep,
        "record_contribution",
        "conflict",
        "pay_date",
        participant_id=p["id"],
        pay_date=TODAY.isoformat(),
        gross_pay_cents=500_000,
    )
    out = first(ep, "opted_out")
    refused(
        ep,
        "record_contribution",
        "rule_violation",
        "participant_id",
        participant_id=out["id"],
        pay_date=TODAY.isoformat(),
        gross_pay_cents=500_000,
    )


def test_deferrals_stop_at_the_irs_limit_with_catch_up(ep: Episode) -> None:
    capped = every(ep, "list_contributions", capped=True)[0]
    p = ok(ep, "get_participant", participant_id=capped["participant_id"])
    ytd = ok(ep, "year_to_date", participant_id=p["id"], year=TODAY.year)
    older = TODAY.year - int(p["birth_date"][:4]) >= 50
    assert ytd["limit_cents"] == 2_450_000 + (800_000 if older else 0)
    assert (ytd["employee_deferral_cents"], ytd["remaining_cents"]) == (ytd["limit_cents"], 0)
    more = ok(ep, "record_contribution", participant_id=p["id"], pay_date=TODAY.isoformat(), gross_pay_cents=900_000)
    assert (more["pre_tax_cents"], more["roth_cents"], more["capped"]) == (0, 0, True)


def test_loans_are_limited_to_half_the_vested_balance_and_one_at_a_time(ep: Episode) -> None:
    busy = ok(ep, "get_loan", loan_id=every(ep, "list_loans", status="active")[0]["id"])
    refused(
        ep,
        "request_loan",
        "conflict",
        "participant_id",
        participant_id=busy["participant_id"],
        amount_cents=100_000,
        term_months=12,
    )
    free = next(
        p
        for p in every(ep, "list_participants", status="enrolled")
        if not every(ep, "list_loans", participant_id=p["id"]) and p["vested_balance_cents"] >= 400_000
    )
    half = free["vested_balance_cents"] // 2
    refused(
        ep,
        "request_loan",
        "rule_violation",
        "amount_cents",
        participant_id=free["id"],
        amount_cents=half + 1,
        term_months=24,
    )
    refused(
        ep,
        "request_loan",
        "rule_violation",
        "amount_cents",
        participant_id=free["id"],
        amount_cents=99_999,
        term_months=24,
    )
    loan = ok(ep, "request_loan", participant_id=free["id"], amount_cents=half, term_months=24)
    active = ok(ep, "review_loan", loan_id=loan["id"], approve=True)
    assert (active["status"], active["outstanding_cents"]) == ("active", half)
    assert (
        ok(ep, "get_participant", participant_id=free["id"])["vested_balance_cents"]
        == free["vested_balance_cents"] - half
    )


def test_repaying_the_rest_pays_the_loan_off(ep: Episode) -> None:
    loan = every(ep, "list_loans", status="active")[0]
    refused(
        ep,
        "repay_loan",
        "rule_violation",
        "amount_cents",
        loan_id=loan["id"],
        amount_cents=loan["outstanding_cents"] + 1,
    )
    ok(ep, "repay_loan", loan_id=loan["id"], amount_cents=20_000)
    done = ok(ep, "repay_loan", loan_id=loan["id"], amount_cents=loan["outstanding_cents"] - 20_000)
    assert (done["status"], done["outstanding_cents"]) == ("paid_off", 0)
    refused(ep, "repay_loan", "rule_violation", "loan_id", loan_id=loan["id"], amount_cents=1)


def test_hardship_withdrawals_need_documentation_and_fit_the_balance(ep: Episode) -> None:
    undocumented = next(w for w in every(ep, "list_withdrawals", status="requested") if not w["documentation_received"])
    refused(ep, "review_hardship", "rule_violation", "withdrawal_id", withdrawal_id=undocumented["id"], approve=True)
    ok(ep, "update_withdrawal", withdrawal_id=undocumented["id"], documentation_received=True)
    p = ok(ep, "get_participant", participant_id=undocumented["participant_id"])
    assert ok(ep, "review_hardship", withdrawal_id=undocumented["id"], approve=True)["status"] == "approved"
    after = ok(ep, "get_participant", participant_id=p["id"])
    assert after["vested_balance_cents"] == p["vested_balance_cents"] - undocumented["amount_cents"]
    refused(
        ep,
        "request_hardship",
        "rule_violation",
        "amount_cents",
        participant_id=p["id"],
        amount_cents=after["vested_balance_cents"] + 1,
        reason="tuition",
    )
    eligible = first(ep, "eligible")
    refused(
        ep,
        "request_hardship",
        "rule_violation",
        "participant_id",
        participant_id=eligible["id"],
        amount_cents=1000,
        reason="medical",
    )


def test_terminated_participants_stop_deferring_but_keep_their_balance(ep: Episode) -> None:
    p = first(ep, "enrolled")
    done = ok(ep, "terminate_participant", participant_id=p["id"])
    assert (done["status"], done["pre_tax_percent"], done["balance_cents"]) == ("terminated", 0.0, p["balance_cents"])
    refused(ep, "terminate_participant", "conflict", "participant_id", participant_id=p["id"])
    refused(
        ep,
        "record_contribution",
        "rule_violation",
        "participant_id",
        participant_id=p["id"],
        pay_date=TODAY.isoformat(),
        gross_pay_cents=100_000,
    )
