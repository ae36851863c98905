"""Harbor Benefits: windows and life events gate elections, tiers match dependents, premiums split."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BENEFITS = ServiceTools("benefits")
WORLD = BENEFITS.world
ok, refused, every = BENEFITS.ok, BENEFITS.refused, BENEFITS.every
POP = WORLD.population
TODAY = "2026-03-02"


def window(ep: Episode, kind: str) -> dict[str, Any]:
    return dict(every(ep, "list_enrollment_windows", kind=kind)[0])


def plan(ep: Episode, kind: str) -> dict[str, Any]:
    return dict(every(ep, "list_plans", type=kind, active=True, plan_year=2026)[0])


def member_with(ep: Episode, relationship: str | None = None, dental: str | None = "active") -> dict[str, Any]:
    """An eligible member with a dependent of ``relationship`` (None: none at all) and dental in this status."""
    for m in every(ep, "list_members", eligible=True):
        deps = every(ep, "list_dependents", member_id=m["id"])
        has = any(d["relationship"] == relationship for d in deps) if relationship else not deps
        dent = every(ep, "list_enrollments", member_id=m["id"], plan_type="dental")
        if has and (dental is None or [e["status"] for e in dent] == ([dental] if dental != "none" else [])):
            return dict(m)
    raise AssertionError("no such member")


# -- the world ------------------------------------------------------------------------------


def test_members_are_the_home_staff_and_dependents_share_their_family_name() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p for p in POP.employees}
    members = every(ep, "list_members")
    assert {m["email"] for m in members} == set(staff)
    for m in members:
        p = staff[m["email"]]
        assert (m["name"], m["birth_date"]) == (p.name, p.birth_date.isoformat())
        for d in every(ep, "list_dependents", member_id=m["id"]):
            assert d["name"].split()[-1] == p.last_name


def test_seeded_elections_match_their_tier_and_premium_split() -> None:
    ep = Episode(WORLD)
    plans = {p["id"]: p for p in every(ep, "list_plans")}
    deps = {d["id"]: d for d in every(ep, "list_dependents")}
    for e in every(ep, "list_enrollments", status="active"):
        p = plans[e["plan_id"]]
        assert e["monthly_premium"] == p[f"premium_{e['tier']}"]
        assert e["employer_cost"] == round(e["monthly_premium"] * p["employer_contribution"] / 100)
        assert e["employee_cost"] == e["monthly_premium"] - e["employer_cost"]
        kinds = {deps[d]["relationship"] for d in e["dependent_ids"]}
        partner, child = bool(kinds & {"spouse", "domestic_partner"}), "child" in kinds
        expected = {(False, False): "employee", (True, False): "employee_spouse", (False, True): "employee_children"}
        assert e["tier"] == expected.get((partner, child), "family")


# -- windows --------------------------------------------------------------------------------


def test_electing_in_the_open_window_replaces_the_current_plan_from_its_coverage_start(ep: Episode) -> None:
    m = member_with(ep, None)
    current = every(ep, "list_enrollments", member_id=m["id"], plan_type="dental")[0]
    dental = plan(ep, "dental")
    spring = window(ep, "special")
    new = ok(ep, "enroll", member_id=m["id"], plan_id=dental["id"], tier="employee", window_id=spring["id"])
    assert (new["status"], new["effective_date"]) == ("pending", "2026-04-01")
    assert new["monthly_premium"] == dental["premium_employee"]
    assert new["employer_cost"] == round(dental["premium_employee"] * dental["employer_contribution"] / 100)
    old = ok(ep, "get_enrollment", enrollment_id=current["id"])
    assert (old["status"], old["end_date"]) == ("terminated", "2026-03-31")
    again = ok(ep, "enroll", member_id=m["id"], plan_id=dental["id"], tier="employee", window_id=spring["id"])
    assert ok(ep, "get_enrollment", enrollment_id=new["id"])["status"] == "terminated"
    assert again["status"] == "pending"


def test_a_window_only_offers_its_plan_types_and_dates(ep: Episode) -> None:
    m = member_with(ep, None, dental=None)
    spring = window(ep, "special")
    medical = plan(ep, "medical")
    msg = refused(
        ep,
        "enroll",
        "rule_violation",
        "window_id",
        member_id=m["id"],
        plan_id=medical["id"],
        tier="employee",
        window_id=spring["id"],
    )
    assert "dental" in msg
    oe = window(ep, "open_enrollment")
    refused(
        ep,
        "enroll",
        "rule_violation",
        "window_id",
        member_id=m["id"],
        plan_id=medical["id"],
        tier="employee",
        window_id=oe["id"],
    )
    refused(ep, "enroll", "rule_violation", "window_id", member_id=m["id"], plan_id=medical["id"], tier="employee")


# -- tiers and dependents -------------------------------------------------------------------


def test_the_tier_must_match_the_dependents(ep: Episode) -> None:
    m = member_with(ep, "child", dental=None)
    kids = every(ep, "list_dependents", member_id=m["id"], relationship="child")
    partner = every(ep, "list_dependents", member_id=m["id"])
    spring = window(ep, "special")
    vision = plan(ep, "vision")
    refused(
        ep,
        "enroll",
        "rule_violation",
        "tier",
        member_id=m["id"],
        plan_id=vision["id"],
        tier="employee",
        dependent_ids=[kids[0]["id"]],
        window_id=spring["id"],
    )
    young = [d["id"] for d in kids if d["birth_date"] > "2000-04-01"]
    partners = [d["id"] for d in partner if d["relationship"] != "child"]
    tier = "family" if partners else "employee_children"
    chosen = partners + young
    done = ok(
        ep, "enroll", member_id=m["id"], plan_id=vision["id"], tier=tier, dependent_ids=chosen, window_id=spring["id"]
    )
    assert done["monthly_premium"] == vision[f"premium_{tier}"]


def test_only_own_dependents_under_26_are_covered(ep: Episode) -> None:
    m = member_with(ep, "child", dental=None)
    other = next(d for d in every(ep, "list_dependents") if d["member_id"] != m["id"])
    spring = window(ep, "special")
    vision = plan(ep, "vision")
    refused(
        ep,
        "enroll",
        "rule_violation",
        "dependent_ids.0",
        member_id=m["id"],
        plan_id=vision["id"],
        tier="employee_children",
        dependent_ids=[other["id"]],
        window_id=spring["id"],
    )
    grown = ok(
        ep, "create_dependent", member_id=m["id"], name="Alex Grown", relationship="child", birth_date="1998-05-01"
    )
    refused(
        ep,
        "enroll",
        "rule_violation",
        "dependent_ids.0",
        member_id=m["id"],
        plan_id=vision["id"],
        tier="employee_children",
        dependent_ids=[grown["id"]],
        window_id=spring["id"],
    )


def test_one_partner_and_covered_dependents_stay(ep: Episode) -> None:
    m = member_with(ep, "spouse", dental=None)
    refused(
        ep,
        "create_dependent",
        "conflict",
        "relationship",
        member_id=m["id"],
        name="Kim Other",
        relationship="domestic_partner",
        birth_date="1990-01-01",
    )
    covered = next(
        d for e in every(ep, "list_enrollments", member_id=m["id"], status="active") for d in e["dependent_ids"]
    )
    refused(ep, "delete_dependent", "rule_violation", "dependent_id", dependent_id=covered)


# -- life events ----------------------------------------------------------------------------


def test_life_events_are_reported_within_30_days(ep: Episode) -> None:
    m = member_with(ep, None, dental=None)
    refused(
        ep,
        "report_life_event",
        "rule_violation",
        "event_date",
        member_id=m["id"],
        kind="marriage",
        event_date="2026-01-05",
    )
    refused(
        ep,
        "report_life_event",
        "rule_violation",
        "event_date",
        member_id=m["id"],
        kind="marriage",
        event_date="2026-03-20",
    )
    ok(ep, "report_life_event", member_id=m["id"], kind="marriage", event_date="2026-02-20")
    refused(ep, "report_life_event", "conflict", "kind", member_id=m["id"], kind="marriage", event_date="2026-02-20")


def test_a_birth_opens_special_enrollment_once_approved(ep: Episode) -> None:
    event = every(ep, "list_life_events", kind="birth", status="pending_review")[0]
    m = ok(ep, "get_member", member_id=event["member_id"])
    family = every(ep, "list_dependents", member_id=m["id"])
    medical = plan(ep, "medical")
    tier = "family" if any(d["relationship"] != "child" for d in family) else "employee_children"
    args = dict(member_id=m["id"], plan_id=medical["id"], tier=tier, dependent_ids=[d["id"] for d in family])
    refused(ep, "enroll", "rule_violation", "life_event_id", life_event_id=event["id"], **args)
    ok(ep, "approve_life_event", life_event_id=event["id"], note="Birth certificate received")
    new = ok(ep, "enroll", life_event_id=event["id"], **args)
    assert (new["status"], new["effective_date"]) == ("active", event["event_date"])
    ended = [e for e in every(ep, "list_enrollments", member_id=m["id"], plan_type="medical") if e["id"] != new["id"]]
    assert all(e["status"] in ("terminated", "waived") for e in ended)
    refused(ep, "approve_life_event", "rule_violation", "life_event_id", life_event_id=event["id"])


def test_a_birth_without_the_child_on_file_is_not_approved(ep: Episode) -> None:
    m = member_with(ep, None, dental=None)
    event = ok(ep, "report_life_event", member_id=m["id"], kind="birth", event_date="2026-02-27")
    refused(ep, "approve_life_event", "rule_violation", "life_event_id", life_event_id=event["id"])
    refused(ep, "deny_life_event", "rule_violation", "note", life_event_id=event["id"], note=" ")
    denied = ok(ep, "deny_life_event", life_event_id=event["id"], note="No birth certificate")
    assert denied["status"] == "denied"


def test_after_a_marriage_the_new_spouse_can_be_covered(ep: Episode) -> None:
    event = every(ep, "list_life_events", kind="marriage", status="approved")[0]
    m = ok(ep, "get_member", member_id=event["member_id"])
    spouse = ok(
        ep, "create_dependent", member_id=m["id"], name="Robin Partner", relationship="spouse", birth_date="1991-07-14"
    )
    kids = [d["id"] for d in every(ep, "list_dependents", member_id=m["id"], relationship="child")]
    dental = plan(ep, "dental")
    tier = "family" if kids else "employee_spouse"
    new = ok(
        ep,
        "enroll",
        member_id=m["id"],
        plan_id=dental["id"],
        tier=tier,
        dependent_ids=[spouse["id"], *kids],
        life_event_id=event["id"],
    )
    assert (new["effective_date"], new["status"]) == ("2026-04-01", "pending")
    summary = ok(ep, "benefits_summary", member_id=m["id"])
    active = [e for e in every(ep, "list_enrollments", member_id=m["id"], status="active")]
    assert summary["monthly_employee_cost"] == sum(e["employee_cost"] for e in active)
    assert any(c["status"] == "pending" and "Robin Partner" in c["covered"] for c in summary["coverages"])


# -- waivers and termination ----------------------------------------------------------------


def test_waiving_and_ending_coverage(ep: Episode) -> None:
    m = member_with(ep, None)
    spring = window(ep, "special")
    refused(
        ep,
        "waive_coverage",
        "rule_violation",
        "reason",
        member_id=m["id"],
        plan_type="dental",
        reason=" ",
        window_id=spring["id"],
    )
    waiver = ok(
        ep, "waive_coverage", member_id=m["id"], plan_type="dental", reason="Covered elsewhere", window_id=spring["id"]
    )
    assert waiver["status"] == "waived" and waiver["plan_id"] is None
    medical = every(ep, "list_enrollments", member_id=m["id"], plan_type="medical", status="active")[0]
    refused(
        ep, "terminate_enrollment", "rule_violation", "end_date", enrollment_id=medical["id"], end_date="2025-12-01"
    )
    done = ok(ep, "terminate_enrollment", enrollment_id=medical["id"], end_date="2026-03-31")
    assert done["status"] == "terminated"
    refused(
        ep,
        "terminate_enrollment",
        "rule_violation",
        "enrollment_id",
        enrollment_id=medical["id"],
        end_date="2026-03-31",
    )
    used = every(ep, "list_enrollments", plan_id=every(ep, "list_enrollments", status="active")[0]["plan_id"])[0]
    refused(ep, "update_plan", "rule_violation", "active", plan_id=used["plan_id"], active=False)


def test_a_new_window_is_well_formed(ep: Episode) -> None:
    args = dict(name="Summer vision", kind="special", plan_types=["vision"], plan_year=2026)
    refused(ep, "create_enrollment_window", "rule_violation", "closes", opens="2026-06-15", closes="2026-06-01", **args)
    refused(
        ep,
        "create_enrollment_window",
        "rule_violation",
        "member_id",
        opens="2026-06-01",
        closes="2026-06-15",
        **{**args, "kind": "new_hire"},
    )
    win = ok(ep, "create_enrollment_window", opens="2026-06-01", closes="2026-06-15", **args)
    assert win["coverage_start"] is None
