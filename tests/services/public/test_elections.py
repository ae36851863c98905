"""County Votes: voter registration, mail ballot requests and returns, cure, certification, poll workers."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EL = ServiceTools("elections")
WORLD = EL.world
ok, refused, every, first = EL.ok, EL.refused, EL.every, EL.first
POP = WORLD.population


def election(ep: Episode, name: str) -> dict[str, Any]:
    return next(e for e in every(ep, "list_elections") if e["name"] == name)


def fresh_active_voter(ep: Episode, election_id: str) -> dict[str, Any]:
    for v in every(ep, "list_voters", status="active"):
        if not every(ep, "list_ballot_requests", voter_id=v["id"], election_id=election_id):
            return v
    raise AssertionError("no active voter without a request")


def test_the_roll_is_the_worlds_residents_and_precinct_counts_add_up(ep: Episode) -> None:
    people = {(p.first_name, p.last_name, p.birth_date.isoformat()) for p in POP.people}
    roll = every(ep, "list_voters")
    assert all((v["first_name"], v["last_name"], v["birth_date"]) in people for v in roll)
    assert {v["status"] for v in roll} == {"active", "pending", "inactive"}
    for pct in every(ep, "list_precincts"):
        assert pct["voter_count"] == len(every(ep, "list_voters", precinct_id=pct["id"]))


def test_registration_refuses_duplicates_and_the_too_young(ep: Episode) -> None:
    v = every(ep, "list_voters")[0]
    args = {k: v[k] for k in ("first_name", "last_name", "birth_date", "street", "city", "postal_code", "precinct_id")}
    refused(ep, "register_voter", "conflict", "last_name", **args)
    refused(ep, "register_voter", "rule_violation", "birth_date", **(args | {"birth_date": "2015-01-01"}))
    made = ok(ep, "register_voter", **(args | {"first_name": "Zed"}))
    assert made["status"] == "pending" and len(made["voter_number"]) == 9
    pct = ok(ep, "get_precinct", precinct_id=v["precinct_id"])
    assert pct["voter_count"] == len(every(ep, "list_voters", precinct_id=v["precinct_id"]))
    assert ok(ep, "verify_voter", voter_id=made["id"])["status"] == "active"


def test_mail_ballots_need_an_active_voter_once_per_election_before_the_deadline(ep: Episode) -> None:
    general = election(ep, "General Election")
    pending = every(ep, "list_voters", status="pending")[0]
    refused(
        ep,
        "request_mail_ballot",
        "rule_violation",
        "voter_number",
        voter_number=pending["voter_number"],
        election_id=general["id"],
    )
    v = fresh_active_voter(ep, general["id"])
    made = ok(ep, "request_mail_ballot", voter_number=v["voter_number"], election_id=general["id"])
    assert (made["status"], made["voter_email"]) == ("requested", v["email"])
    refused(
        ep, "request_mail_ballot", "conflict", "voter_number", voter_number=v["voter_number"], election_id=general["id"]
    )
    runoff = election(ep, "Municipal Runoff Election")
    refused(
        ep,
        "request_mail_ballot",
        "rule_violation",
        "election_id",
        voter_number=v["voter_number"],
        election_id=runoff["id"],
    )
    ok(ep, "cancel_ballot_request", ballot_request_id=made["id"])
    again = ok(ep, "request_mail_ballot", voter_number=v["voter_number"], election_id=general["id"], delivery="pickup")
    assert again["delivery"] == "pickup"


def test_a_ballot_goes_out_comes_back_and_a_bad_signature_is_cured(ep: Episode) -> None:
    req = first(ep, "ballot_requests", status="requested")
    refused(ep, "record_return", "conflict", "ballot_request_id", ballot_request_id=req["id"], signature_matches=True)
    sent = ok(ep, "send_ballot", ballot_request_id=req["id"])
    assert sent["status"] == "sent" and sent["sent_on"]
    back = ok(ep, "record_return", ballot_request_id=req["id"], signature_matches=False)
    assert (back["status"], back["reject_reason"]) == ("rejected", "signature does not match")
    cured = ok(ep, "cure_ballot", ballot_request_id=req["id"])
    assert (cured["status"], cured["reject_reason"]) == ("accepted", None)
    refused(ep, "cure_ballot", "conflict", "ballot_request_id", ballot_request_id=req["id"])


def test_a_rejected_ballot_of_a_closed_past_election_cannot_be_cured(ep: Episode) -> None:
    referendum = election(ep, "Library District Referendum")
    rejected = every(ep, "list_ballot_requests", election_id=referendum["id"], status="rejected")[0]
    refused(ep, "cure_ballot", "rule_violation", "ballot_request_id", ballot_request_id=rejected["id"])
    assert ok(ep, "certify_election", election_id=referendum["id"])["certified_on"]


def test_certification_waits_for_the_cure_window(ep: Episode) -> None:
    runoff = election(ep, "Municipal Runoff Election")
    assert every(ep, "list_ballot_requests", election_id=runoff["id"], status="rejected")
    ok(ep, "close_election", election_id=runoff["id"])
    refused(ep, "certify_election", "rule_violation", "election_id", election_id=runoff["id"])
    refused(
        ep,
        "start_early_voting_election",
        "rule_violation",
        "election_id",
        election_id=election(ep, "General Election")["id"],
    )
    near = election(ep, "Community Development District Election")
    assert ok(ep, "start_early_voting_election", election_id=near["id"])["status"] == "early_voting"


def test_scheduling_computes_the_calendar(ep: Episode) -> None:
    refused(ep, "schedule_election", "rule_violation", "days_ahead", name="Too soon", kind="special", days_ahead=20)
    refused(ep, "schedule_election", "conflict", "name", name="General Election", kind="general", days_ahead=90)
    e = ok(ep, "schedule_election", name="Bond Referendum", kind="special", days_ahead=60)
    cal = ok(ep, "election_calendar", election_id=e["id"])
    assert cal["days_to_election"] == 60 and cal["registration_deadline"] == e["registration_deadline"]
    assert cal["election_day"] == e["election_date"]


def test_poll_workers_are_trained_before_assignment_and_one_clerk_per_precinct(ep: Episode) -> None:
    general = election(ep, "General Election")
    pcts = every(ep, "list_precincts")
    applicant = first(ep, "poll_workers", status="applicant")
    refused(
        ep,
        "assign_poll_worker",
        "rule_violation",
        "worker_email",
        worker_email=applicant["email"],
        election_id=general["id"],
        precinct_id=pcts[0]["id"],
    )
    trained = ok(ep, "complete_training_poll_worker", poll_worker_id=applicant["id"])
    assert trained["trained_on"]
    a = ok(
        ep,
        "assign_poll_worker",
        worker_email=applicant["email"],
        election_id=general["id"],
        precinct_id=pcts[0]["id"],
        position="clerk",
    )
    refused(
        ep,
        "assign_poll_worker",
        "conflict",
        "worker_email",
        worker_email=applicant["email"],
        election_id=general["id"],
        precinct_id=pcts[1]["id"],
    )
    other = next(w for w in every(ep, "list_poll_workers", status="trained") if w["id"] != applicant["id"])
    refused(
        ep,
        "assign_poll_worker",
        "conflict",
        "precinct_id",
        worker_email=other["email"],
        election_id=general["id"],
        precinct_id=pcts[0]["id"],
        position="clerk",
    )
    ok(ep, "decline_assignment", assignment_id=a["id"])
    assert (
        ok(
            ep,
            "assign_poll_worker",
            worker_email=other["email"],
            election_id=general["id"],
            precinct_id=pcts[0]["id"],
            position="clerk",
        )["status"]
        == "assigned"
    )


def test_poll_worker_emails_are_unique(ep: Episode) -> None:
    w = every(ep, "list_poll_workers")[0]
    refused(ep, "create_poll_worker", "conflict", "email", first_name="A", last_name="B", email=w["email"])
    made = ok(ep, "create_poll_worker", first_name="Ana", last_name="Ruiz", email="ana.ruiz@example.org")
    assert made["status"] == "applicant"
