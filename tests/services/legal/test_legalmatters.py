"""Caseline Practice: conflict checks, time in tenths, locked billed entries, trust never negative, closing."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LAW = ServiceTools("legalmatters")
WORLD = LAW.world
ok, refused, every = LAW.ok, LAW.refused, LAW.every
POP = WORLD.population


def lawyer(ep: Episode, role: str = "associate") -> dict[str, Any]:
    return every(ep, "list_users", role=role, active=True)[0]


def hourly_matter(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_matters", status="open", billing_method="hourly")[0]


def fresh_matter(ep: Episode, **extra: Any) -> dict[str, Any]:
    client = every(ep, "list_clients", type="person")[0]
    args: dict[str, Any] = {
        "client_id": client["id"],
        "description": "Tenancy dispute",
        "practice_area": "real_estate",
        "responsible_attorney_id": lawyer(ep, "partner")["id"],
        **extra,
    }
    return dict(ok(ep, "open_matter", **args))


def test_clients_and_timekeepers_come_from_the_population() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for c in every(ep, "list_clients"):
        person = people[c["email"]]
        assert c["name"] == person.name
        company = POP.company_of(person)
        assert c["company_name"] == (company.name if c["type"] == "company" and company else None)
    assert {u["email"] for u in every(ep, "list_users")} <= {p.email for p in POP.employees}


def test_seeded_trust_bills_and_closed_matters_are_consistent() -> None:
    ep = Episode(WORLD)
    moves = every(ep, "list_trust_transactions")
    acts = {a["id"]: a for a in every(ep, "list_activities")}
    for m in every(ep, "list_matters"):
        mine = [t for t in moves if t["matter_id"] == m["id"]]
        net = sum(t["amount"] if t["kind"] == "deposit" else -t["amount"] for t in mine)
        assert m["trust_balance"] == net == (mine[-1]["balance_after"] if mine else 0)
        if m["status"] == "closed":
            assert m["trust_balance"] == 0
            assert all(b["status"] in ("paid", "void") for b in every(ep, "list_bills", matter_id=m["id"]))
    for b in every(ep, "list_bills"):
        assert b["total"] == b["flat_fee"] + sum(acts[a]["total"] for a in b["activity_ids"])
        assert all(acts[a]["bill_id"] == b["id"] for a in b["activity_ids"])
        assert b["balance"] == b["total"] - b["paid"]


def test_the_conflict_check_refuses_acting_against_a_current_client(ep: Episode) -> None:
    live = every(ep, "list_matters", status="open")
    adverse = next(c for c in every(ep, "list_clients", type="company") if any(m["client_id"] == c["id"] for m in live))
    msg = refused(
        ep,
        "open_matter",
        "conflict",
        "adverse_party",
        client_id=every(ep, "list_clients", type="person")[0]["id"],
        description="Claim against a supplier",
        practice_area="litigation",
        responsible_attorney_id=lawyer(ep, "partner")["id"],
        adverse_party=adverse["company_name"],
    )
    assert "conflict of interest" in msg
    refused(
        ep,
        "open_matter",
        "rule_violation",
        "responsible_attorney_id",
        client_id=adverse["id"],
        description="X",
        practice_area="tax",
        responsible_attorney_id=lawyer(ep, "paralegal")["id"],
    )
    refused(
        ep,
        "open_matter",
        "rule_violation",
        "flat_fee",
        client_id=adverse["id"],
        description="X",
        practice_area="tax",
        responsible_attorney_id=lawyer(ep, "partner")["id"],
        billing_method="flat_fee",
    )
    m = fresh_matter(ep, adverse_party="Unrelated Holdings")
    assert (m["status"], m["trust_balance"], m["display_number"][:4]) == ("open", 0, "MAT-")


def test_time_is_recorded_in_tenths_of_an_hour_at_the_users_rate(ep: Episode) -> None:
    m, u = hourly_matter(ep), lawyer(ep)
    entry = ok(ep, "log_time", matter_id=m["id"], user_id=u["id"], minutes=90, description="Drafted the reply")
    assert (entry["rate"], entry["total"], entry["billable"]) == (u["hourly_rate"], u["hourly_rate"] * 3 // 2, True)
    refused(
        ep, "log_time", "rule_violation", "minutes", matter_id=m["id"], user_id=u["id"], minutes=50, description="Call"
    )
    refused(
        ep,
        "log_time",
        "rule_violation",
        "date",
        matter_id=m["id"],
        user_id=u["id"],
        minutes=60,
        description="Call",
        date="2026-03-04",
    )
    inactive = every(ep, "list_users", active=False)[0]
    refused(
        ep,
        "log_time",
        "rule_violation",
        "user_id",
        matter_id=m["id"],
        user_id=inactive["id"],
        minutes=60,
        description="Call",
    )
    flat = every(ep, "list_matters", status="open", billing_method="flat_fee")[0]
    assert not ok(ep, "log_time", matter_id=flat["id"], user_id=u["id"], minutes=60, description="Filing")["billable"]


def test_billing_collects_the_unbilled_entries_and_locks_them(ep: Episode) -> None:
    m = fresh_matter(ep)
    u = lawyer(ep)
    a = ok(ep, "log_time", matter_id=m["id"], user_id=u["id"], minutes=120, description="Research", date="2026-02-20")
    b = ok(ep, "log_expense", matter_id=m["id"], user_id=u["id"], amount=350_00, description="Filing fee")
    ok(ep, "log_time", matter_id=m["id"], user_id=u["id"], minutes=30, description="Call", billable=False)
    only_feb = ok(ep, "generate_bill", matter_id=m["id"], through="2026-02-28")
    assert (only_feb["activity_ids"], only_feb["total"]) == ([a["id"]], a["total"])
    rest = ok(ep, "generate_bill", matter_id=m["id"])
    assert (rest["activity_ids"], rest["total"]) == ([b["id"]], 350_00)
    refused(ep, "generate_bill", "rule_violation", "matter_id", matter_id=m["id"])
    refused(ep, "update_activity", "rule_violation", "activity_id", activity_id=a["id"], description="Changed")
    ok(ep, "void_bill", bill_id=only_feb["id"])
    assert ok(ep, "update_activity", activity_id=a["id"], description="Legal research")["bill_id"] is None


def test_a_flat_fee_is_billed_once(ep: Episode) -> None:
    m = fresh_matter(ep, billing_method="flat_fee", flat_fee=2_000_00, practice_area="intellectual_property")
    first = ok(ep, "generate_bill", matter_id=m["id"])
    assert (first["flat_fee"], first["total"]) == (2_000_00, 2_000_00)
    refused(ep, "generate_bill", "rule_violation", "matter_id", matter_id=m["id"])


def test_trust_pays_only_what_it_holds(ep: Episode) -> None:
    m = fresh_matter(ep)
    ok(ep, "log_time", matter_id=m["id"], user_id=lawyer(ep)["id"], minutes=600, description="Trial preparation")
    bill = ok(ep, "generate_bill", matter_id=m["id"])
    refused(ep, "pay_bill_from_trust", "rule_violation", "bill_id", bill_id=bill["id"], amount=100)
    bill = ok(ep, "issue_bill", bill_id=bill["id"])
    assert bill["due_date"] == "2026-04-01"
    ok(ep, "deposit_to_trust", matter_id=m["id"], amount=1_000_00, reference="Retainer")
    msg = refused(ep, "pay_bill_from_trust", "rule_violation", "amount", bill_id=bill["id"], amount=1_000_01)
    assert "overdraw" in msg
    paid = ok(ep, "pay_bill_from_trust", bill_id=bill["id"], amount=1_000_00)
    assert (paid["paid"], paid["balance"]) == (1_000_00, bill["total"] - 1_000_00)
    assert ok(ep, "get_matter", matter_id=m["id"])["trust_balance"] == 0
    refused(ep, "record_payment", "rule_violation", "amount", bill_id=bill["id"], amount=paid["balance"] + 1)
    done = ok(ep, "record_payment", bill_id=bill["id"], amount=paid["balance"])
    assert done["status"] == "paid"
    refused(ep, "void_bill", "rule_violation", "bill_id", bill_id=bill["id"])


def test_refunds_never_overdraw_trust_and_the_ledger_runs(ep: Episode) -> None:
    m = next(x for x in every(ep, "list_matters", status="open") if x["trust_balance"] > 0)
    refused(ep, "refund_trust", "rule_violation", "amount", matter_id=m["id"], amount=m["trust_balance"] + 1)
    ok(ep, "refund_trust", matter_id=m["id"], amount=m["trust_balance"], reference="Unused retainer")
    ledger = ok(ep, "trust_ledger", matter_id=m["id"])
    assert ledger["balance"] == 0 == ledger["lines"][-1]["balance"]
    running = 0
    for line in ledger["lines"]:
        running += line["amount"] if line["kind"] == "deposit" else -line["amount"]
        assert line["balance"] == running
    assert ledger["deposits"] - ledger["withdrawals"] == 0


def test_a_matter_closes_only_when_settled_and_is_then_final(ep: Episode) -> None:
    m = fresh_matter(ep)
    u = lawyer(ep)
    ok(ep, "log_time", matter_id=m["id"], user_id=u["id"], minutes=60, description="Advice")
    ok(ep, "deposit_to_trust", matter_id=m["id"], amount=5_000_00)
    msg = refused(ep, "close_matter", "rule_violation", "matter_id", matter_id=m["id"])
    assert "unbilled" in msg
    bill = ok(ep, "issue_bill", bill_id=ok(ep, "generate_bill", matter_id=m["id"])["id"])
    refused(ep, "close_matter", "rule_violation", "matter_id", matter_id=m["id"])
    ok(ep, "pay_bill_from_trust", bill_id=bill["id"], amount=bill["total"])
    refused(ep, "close_matter", "rule_violation", "matter_id", matter_id=m["id"])
    ok(ep, "refund_trust", matter_id=m["id"], amount=5_000_00 - bill["total"])
    closed = ok(ep, "close_matter", matter_id=m["id"])
    assert (closed["status"], closed["close_date"]) == ("closed", "2026-03-02")
    refused(
        ep, "log_time", "rule_violation", "matter_id", matter_id=m["id"], user_id=u["id"], minutes=6, description="Late"
    )
    refused(ep, "update_matter", "rule_violation", "matter_id", matter_id=m["id"], description="Reopened")


def test_a_matter_is_reassigned_only_to_an_active_lawyer(ep: Episode) -> None:
    m = hourly_matter(ep)
    refused(
        ep,
        "update_matter",
        "rule_violation",
        "responsible_attorney_id",
        matter_id=m["id"],
        responsible_attorney_id=lawyer(ep, "paralegal")["id"],
    )
    inactive = every(ep, "list_users", active=False)[0]
    refused(
        ep,
        "update_matter",
        "rule_violation",
        "responsible_attorney_id",
        matter_id=m["id"],
        responsible_attorney_id=inactive["id"],
    )
    other = next(
        u for u in every(ep, "list_users", role="partner", active=True) if u["id"] != m["responsible_attorney_id"]
    )
    moved = ok(ep, "update_matter", matter_id=m["id"], responsible_attorney_id=other["id"])
    assert moved["responsible_attorney_id"] == other["id"]
