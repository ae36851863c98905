"""City Fix 311: routing and SLA on submission, acknowledgement, closure and reopening, merges, votes, comments."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CIVIC = ServiceTools("civic311")
WORLD = CIVIC.world
ok, refused, every = CIVIC.ok, CIVIC.refused, CIVIC.every
POP = WORLD.population
RESIDENT = POP.consumers[-1]


def report(ep: Episode, code: str = "STR-01", address: str = "12 Elm Street", who: Any = RESIDENT) -> Any:
    return ok(
        ep,
        "submit_request",
        service_code=code,
        description="Pothole in the bike lane.",
        address_string=address,
        lat=40.7,
        long=-74.0,
        reporter_email=who.email,
        reporter_name=who.name,
    )


def test_seeded_requests_come_from_residents_and_follow_their_service(ep: Episode) -> None:
    people = {p.email: p.name for p in POP.people}
    types = {t["id"]: t for t in every(ep, "list_service_types")}
    reqs = every(ep, "list_requests")
    assert {r["status"] for r in reqs} == {"open", "acknowledged", "closed"}
    for r in reqs:
        assert people[r["reporter_email"]] == r["reporter_name"]
        st = types[r["service_type_id"]]
        assert r["service_code"] == st["service_code"] and r["department_id"] == st["department_id"]
        if r["assignee_email"]:
            dept = ok(ep, "get_department", department_id=r["department_id"])
            assert r["assignee_email"] in dept["agent_emails"]
    dup = every(ep, "list_requests", close_reason="duplicate")[0]
    assert ok(ep, "get_request", request_id=dup["duplicate_of"])["status"] in ("open", "acknowledged")


def test_a_request_is_routed_and_due_after_its_sla(ep: Episode) -> None:
    st = every(ep, "list_service_types", service_code="SAN-01")[0]
    made = report(ep, "SAN-01")
    assert (made["status"], made["department_id"]) == ("open", st["department_id"])
    filed = dt.datetime.fromisoformat(made["created_at"])
    due = dt.datetime.fromisoformat(made["expected_datetime"])
    assert due - filed == dt.timedelta(days=st["sla_days"])


def test_submission_refuses_inactive_services_unknown_codes_and_repeats(ep: Episode) -> None:
    args = {"description": "x", "lat": 1.0, "long": 2.0, "reporter_email": RESIDENT.email}
    args["reporter_name"] = RESIDENT.name
    refused(
        ep, "submit_request", "rule_violation", "service_code", service_code="SAN-03", address_string="1 A St", **args
    )
    refused(
        ep, "submit_request", "rule_violation", "service_code", service_code="ZZ-99", address_string="1 A St", **args
    )
    report(ep)
    refused(
        ep,
        "submit_request",
        "conflict",
        "address_string",
        service_code="STR-01",
        address_string="12 ELM street",
        **args,
    )
    assert report(ep, "STR-01", "14 Elm Street")["status"] == "open"


def test_acknowledging_needs_a_department_and_assigning_needs_its_agent(ep: Episode) -> None:
    req = report(ep)
    dept = ok(ep, "get_department", department_id=req["department_id"])
    other = next(d for d in every(ep, "list_departments") if d["id"] != dept["id"])
    refused(
        ep,
        "assign_request",
        "rule_violation",
        "assignee_email",
        request_id=req["id"],
        department_id=dept["id"],
        assignee_email=other["agent_emails"][0],
    )
    moved = ok(
        ep, "assign_request", request_id=req["id"], department_id=dept["id"], assignee_email=dept["agent_emails"][0]
    )
    assert moved["assignee_email"] == dept["agent_emails"][0]
    acked = ok(ep, "acknowledge_request", request_id=req["id"], status_notes="Crew scheduled")
    assert (acked["status"], acked["status_notes"]) == ("acknowledged", "Crew scheduled")
    refused(ep, "acknowledge_request", "rule_violation", "request_id", request_id=req["id"])


def test_closing_needs_notes_and_closed_requests_take_no_work(ep: Episode) -> None:
    req = every(ep, "list_requests", status="acknowledged")[0]
    refused(ep, "close_request", "rule_violation", "status_notes", request_id=req["id"], status_notes="  ")
    refused(
        ep,
        "close_request",
        "rule_violation",
        "close_reason",
        request_id=req["id"],
        status_notes="x",
        close_reason="duplicate",
    )
    closed = ok(ep, "close_request", request_id=req["id"], status_notes="Patched")
    assert (closed["status"], closed["close_reason"]) == ("closed", "resolved") and closed["closed_at"]
    refused(
        ep, "assign_request", "rule_violation", "request_id", request_id=req["id"], department_id=req["department_id"]
    )
    refused(
        ep, "vote_request", "rule_violation", "request_id", request_id=req["id"], voter_email=POP.consumers[0].email
    )


def test_reopening_works_within_30_days_but_not_on_merged_duplicates(ep: Episode) -> None:
    req = every(ep, "list_requests", status="acknowledged")[0]
    ok(ep, "close_request", request_id=req["id"], status_notes="Patched")
    refused(ep, "reopen_request", "rule_violation", "reason", request_id=req["id"], reason=" ")
    again = ok(ep, "reopen_request", request_id=req["id"], reason="Still broken")
    assert (again["status"], again["closed_at"], again["close_reason"]) == ("open", None, None)
    dup = every(ep, "list_requests", close_reason="duplicate")[0]
    refused(ep, "reopen_request", "rule_violation", "request_id", request_id=dup["id"], reason="x")


def test_merging_a_duplicate_closes_it_and_moves_its_votes(ep: Episode) -> None:
    orig = report(ep, "STR-01", "1 Main St")
    dup = report(ep, "STR-01", "3 Main St", POP.consumers[0])
    ok(ep, "vote_request", request_id=dup["id"], voter_email=POP.consumers[1].email)
    graffiti = report(ep, "COD-01", "1 Main St")
    refused(ep, "merge_duplicate", "rule_violation", "duplicate_of", request_id=dup["id"], duplicate_of=graffiti["id"])
    refused(ep, "merge_duplicate", "rule_violation", "duplicate_of", request_id=dup["id"], duplicate_of=dup["id"])
    merged = ok(ep, "merge_duplicate", request_id=dup["id"], duplicate_of=orig["id"])
    assert (merged["status"], merged["close_reason"], merged["duplicate_of"]) == ("closed", "duplicate", orig["id"])
    kept = ok(ep, "get_request", request_id=orig["id"])
    assert kept["vote_count"] == 2 and POP.consumers[1].email in kept["voter_emails"]
    refused(ep, "merge_duplicate", "rule_violation", "duplicate_of", request_id=graffiti["id"], duplicate_of=dup["id"])
    refused(
        ep,
        "create_comment",
        "rule_violation",
        "request_id",
        request_id=dup["id"],
        author_email=RESIDENT.email,
        body="hi",
    )


def test_residents_vote_once_and_never_on_their_own_request(ep: Episode) -> None:
    req = report(ep)
    refused(ep, "vote_request", "rule_violation", "voter_email", request_id=req["id"], voter_email=RESIDENT.email)
    voter = POP.consumers[2].email
    assert ok(ep, "vote_request", request_id=req["id"], voter_email=voter)["vote_count"] == 1
    refused(ep, "vote_request", "conflict", "voter_email", request_id=req["id"], voter_email=voter)


def test_internal_comments_are_for_city_agents_only(ep: Episode) -> None:
    req = report(ep)
    args = {"request_id": req["id"], "body": "Crew note", "internal": True}
    refused(ep, "create_comment", "rule_violation", "internal", author_email=RESIDENT.email, **args)
    agent = ok(ep, "get_department", department_id=req["department_id"])["agent_emails"][0]
    assert ok(ep, "create_comment", author_email=agent, **args)["internal"] is True


def test_backlog_and_overdue_agree_with_the_requests(ep: Episode) -> None:
    for dept in every(ep, "list_departments"):
        live = [r for r in every(ep, "list_requests", department_id=dept["id"]) if r["status"] != "closed"]
        backlog = ok(ep, "department_backlog", department_id=dept["id"])
        assert backlog["open"] + backlog["acknowledged"] == len(live)
        assert backlog["unassigned"] == sum(r["assignee_email"] is None for r in live)
        late = ok(ep, "overdue_requests", department_id=dept["id"])
        assert backlog["overdue"] == len(late)
        assert all(r["status"] != "closed" for r in late)
    refused(
        ep,
        "update_department",
        "rule_violation",
        "active",
        department_id=every(ep, "list_requests", status="open")[0]["department_id"],
        active=False,
    )
