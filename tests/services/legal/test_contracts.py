"""Covenant CLM: templates and clause rules, approval routing, signature, renewals, terminations, obligations."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CLM = ServiceTools("contracts")
WORLD = CLM.world
ok, refused, every = CLM.ok, CLM.refused, CLM.every
POP = WORLD.population
SIGNED = "https://files.example.com/contracts/new-signed.pdf"


def template(ep: Episode, kind: str) -> dict[str, Any]:
    return every(ep, "list_templates", contract_type=kind, active=True)[0]


def draft(ep: Episode, kind: str = "msa", value: int = 10_000_00, **extra: Any) -> dict[str, Any]:
    company = POP.customers[3]
    contact = POP.people_at(company)[0] if POP.people_at(company) else POP.contacts[0]
    return dict(
        ok(
            ep,
            "create_contract",
            template_id=template(ep, kind)["id"],
            title=f"{kind.upper()} with {company.name}",
            counterparty_name=company.name,
            counterparty_contact=contact.name,
            counterparty_email=contact.email,
            owner_email=POP.employees[0].email,
            value=value,
            **extra,
        )
    )


def roles_of(ep: Episode, contract_id: str) -> set[str]:
    return {a["role"] for a in every(ep, "list_approvals", contract_id=contract_id, status="pending")}


def approve_all(ep: Episode, contract_id: str) -> None:
    for a in every(ep, "list_approvals", contract_id=contract_id, status="pending"):
        ok(ep, "decide_approval", approval_id=a["id"], approver_email=a["approver_email"], decision="approved")


def test_parties_are_the_populations_companies_and_staff() -> None:
    ep = Episode(WORLD)
    staff = {p.email for p in POP.employees}
    companies = {c.name: c for c in POP.customers}
    for c in every(ep, "list_contracts"):
        company = companies[c["counterparty_name"]]
        assert c["counterparty_email"] in {p.email for p in POP.people_at(company)}
        assert c["owner_email"] in staff
    assert {r["email"] for r in every(ep, "list_reviewers")} <= staff


def test_seeded_contracts_are_consistent_with_their_status() -> None:
    ep = Episode(WORLD)
    for c in every(ep, "list_contracts"):
        steps = every(ep, "list_approvals", contract_id=c["id"])
        if c["status"] == "draft":
            assert steps == []
        elif c["status"] == "in_review":
            assert any(a["status"] == "pending" for a in steps)
        else:
            assert steps and all(a["status"] == "approved" for a in steps)
        if c["status"] == "active":
            assert c["effective_date"] <= "2026-03-02" <= c["end_date"]
        if c["status"] == "signed":
            assert c["effective_date"] > "2026-03-02"


def test_a_draft_starts_with_the_templates_clauses_and_an_employee_owner(ep: Episode) -> None:
    c = draft(ep)
    tpl = template(ep, "msa")
    assert (c["status"], c["clause_keys"], c["term_months"]) == (
        "draft",
        tpl["default_clause_keys"],
        tpl["default_term_months"],
    )
    assert c["owner_name"] == POP.employees[0].name and c["number"].startswith("CTR-")
    retired = every(ep, "list_templates", active=False)[0]
    refused(
        ep,
        "create_contract",
        "rule_violation",
        "template_id",
        template_id=retired["id"],
        title="X",
        counterparty_name="Acme",
        counterparty_contact="Ann Lee",
        counterparty_email="ann@acme.example.com",
        owner_email=POP.employees[0].email,
    )
    refused(
        ep,
        "create_contract",
        "not_found",
        "owner_email",
        template_id=tpl["id"],
        title="X",
        counterparty_name="Acme",
        counterparty_contact="Ann Lee",
        counterparty_email="ann@acme.example.com",
        owner_email="someone@acme.example.com",
    )


def test_a_fallback_clause_replaces_the_standard_one_of_its_category(ep: Episode) -> None:
    c = draft(ep)
    changed = ok(ep, "add_clause", contract_id=c["id"], clause_key="liability_cap_24m")
    assert "liability_cap_24m" in changed["clause_keys"] and "liability_cap_12m" not in changed["clause_keys"]
    assert len(changed["clause_keys"]) == len(c["clause_keys"])
    refused(ep, "add_clause", "conflict", "clause_key", contract_id=c["id"], clause_key="liability_cap_24m")
    refused(ep, "add_clause", "rule_violation", "clause_key", contract_id=c["id"], clause_key="evergreen_renewal")
    refused(ep, "add_clause", "not_found", "clause_key", contract_id=c["id"], clause_key="no_such_clause")


def test_required_clauses_stay_and_optional_ones_can_go(ep: Episode) -> None:
    c = draft(ep, "nda")
    refused(
        ep, "remove_clause", "rule_violation", "clause_key", contract_id=c["id"], clause_key="mutual_confidentiality"
    )
    ok(ep, "add_clause", contract_id=c["id"], clause_key="termination_convenience")
    after = ok(ep, "remove_clause", contract_id=c["id"], clause_key="termination_convenience")
    assert after["clause_keys"] == c["clause_keys"]


def test_review_routes_by_value_and_non_standard_clauses(ep: Episode) -> None:
    small = draft(ep, "msa", value=10_000_00)
    ok(ep, "submit_for_review", contract_id=small["id"])
    assert roles_of(ep, small["id"]) == {"legal"}
    big = draft(ep, "msa", value=template(ep, "msa")["finance_threshold"])
    ok(ep, "add_clause", contract_id=big["id"], clause_key="unlimited_liability")
    assert ok(ep, "submit_for_review", contract_id=big["id"])["status"] == "in_review"
    assert roles_of(ep, big["id"]) == {"legal", "finance", "general_counsel"}
    refused(ep, "update_contract", "rule_violation", "contract_id", contract_id=big["id"], value=1)
    refused(ep, "submit_for_review", "rule_violation", "contract_id", contract_id=big["id"])


def test_a_rejection_returns_the_contract_to_draft(ep: Episode) -> None:
    c = draft(ep, "msa", value=template(ep, "msa")["finance_threshold"])
    ok(ep, "submit_for_review", contract_id=c["id"])
    legal, finance = (
        next(a for a in every(ep, "list_approvals", contract_id=c["id"]) if a["role"] == r)
        for r in ("legal", "finance")
    )
    refused(
        ep,
        "decide_approval",
        "rule_violation",
        "approver_email",
        approval_id=legal["id"],
        approver_email=finance["approver_email"],
        decision="approved",
    )
    refused(
        ep,
        "decide_approval",
        "rule_violation",
        "comment",
        approval_id=legal["id"],
        approver_email=legal["approver_email"],
        decision="rejected",
    )
    ok(
        ep,
        "decide_approval",
        approval_id=legal["id"],
        approver_email=legal["approver_email"],
        decision="rejected",
        comment="Cap liability",
    )
    assert ok(ep, "get_contract", contract_id=c["id"])["status"] == "draft"
    assert ok(ep, "get_approval", approval_id=finance["id"])["status"] == "cancelled"
    ok(ep, "submit_for_review", contract_id=c["id"])
    approve_all(ep, c["id"])
    assert ok(ep, "get_contract", contract_id=c["id"])["status"] == "approved"


def test_only_an_approved_contract_is_signed_and_its_term_starts(ep: Episode) -> None:
    c = draft(ep, "order_form", auto_renew=True, notice_days=45)
    refused(ep, "record_signature", "rule_violation", "contract_id", contract_id=c["id"], signed_document=SIGNED)
    ok(ep, "submit_for_review", contract_id=c["id"])
    approve_all(ep, c["id"])
    refused(
        ep,
        "record_signature",
        "rule_violation",
        "signed_date",
        contract_id=c["id"],
        signed_document=SIGNED,
        signed_date="2026-03-10",
    )
    signed = ok(ep, "record_signature", contract_id=c["id"], signed_document=SIGNED)
    assert (signed["status"], signed["effective_date"], signed["end_date"]) == ("active", "2026-03-02", "2027-03-01")
    [notice] = every(ep, "list_obligations", contract_id=c["id"])
    assert (notice["kind"], notice["due_date"], notice["owner_email"]) == (
        "renewal_notice",
        "2027-01-15",
        c["owner_email"],
    )
    later = every(ep, "list_contracts", status="approved")[0]
    future = ok(ep, "record_signature", contract_id=later["id"], signed_document=SIGNED, effective_date="2026-04-01")
    assert future["status"] == "signed"


def test_renewals_open_in_the_last_120_days(ep: Episode) -> None:
    soon = ok(ep, "upcoming_renewals", within_days=120)
    assert soon and [r["end_date"] for r in soon] == sorted(r["end_date"] for r in soon)
    near = ok(ep, "get_contract", contract_id=soon[0]["contract_id"])
    renewed = ok(ep, "renew_contract", contract_id=near["id"], term_months=12)
    assert renewed["end_date"] > near["end_date"] and renewed["renewal_count"] == 1
    far = next(c for c in every(ep, "list_contracts", status="active") if c["end_date"] > "2026-07-01")
    msg = refused(ep, "renew_contract", "rule_violation", "contract_id", contract_id=far["id"])
    assert "120 days" in msg


def test_terminating_needs_notice_and_waives_later_obligations(ep: Episode) -> None:
    c = next(
        c
        for c in every(ep, "list_contracts", status="active")
        if any(o["status"] == "open" for o in every(ep, "list_obligations", contract_id=c["id"]))
        and c["end_date"] > "2026-09-01"
    )
    too_soon = "2026-03-10"
    refused(
        ep,
        "terminate_contract",
        "rule_violation",
        "termination_date",
        contract_id=c["id"],
        reason="Budget",
        termination_date=too_soon,
    )
    refused(
        ep,
        "terminate_contract",
        "rule_violation",
        "termination_date",
        contract_id=c["id"],
        reason="Budget",
        termination_date="2031-01-01",
    )
    when = "2026-06-30"
    done = ok(ep, "terminate_contract", contract_id=c["id"], reason="Budget cuts", termination_date=when)
    assert (done["status"], done["end_date"]) == ("terminated", when)
    for o in every(ep, "list_obligations", contract_id=c["id"]):
        if o["due_date"] > when:
            assert o["status"] in ("waived", "done")


def test_obligations_are_tracked_on_signed_contracts_only(ep: Episode) -> None:
    d = every(ep, "list_contracts", status="draft")[0]
    refused(
        ep,
        "create_obligation",
        "rule_violation",
        "contract_id",
        contract_id=d["id"],
        title="Kick-off",
        kind="delivery",
        owner_email=d["owner_email"],
        due_date="2026-04-01",
    )
    active = every(ep, "list_contracts", status="active")[0]
    ob = ok(
        ep,
        "create_obligation",
        contract_id=active["id"],
        title="Deliver onboarding",
        kind="delivery",
        owner_email=active["owner_email"],
        due_date="2026-04-01",
    )
    assert ok(ep, "complete_obligation", obligation_id=ob["id"])["status"] == "done"
    refused(ep, "update_obligation", "rule_violation", "obligation_id", obligation_id=ob["id"], due_date="2026-05-01")
