"""Marque IP Docket: deadlines computed from events, extensions, windows, gates, renewals, abandonment."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

IP = ServiceTools("ipdocket")
WORLD = IP.world
ok, refused, every = IP.ok, IP.refused, IP.every
POP = WORLD.population
TODAY = WORLD.epoch.date().isoformat()


def matter(ep: Episode, title: str, jurisdiction: str, status: str | None = None) -> dict[str, Any]:
    extra = {"status": status} if status else {}
    found = [m for m in every(ep, "list_matters", jurisdiction=jurisdiction, **extra) if m["title"] == title]
    assert len(found) == 1, found
    return found[0]


def open_deadline(ep: Episode, matter_id: str, kind: str) -> dict[str, Any]:
    found = every(ep, "list_deadlines", matter_id=matter_id, kind=kind, status="open")
    assert found, f"no open {kind}"
    return found[0]


def home_mark() -> str:
    return POP.home.name.split()[0].upper()


def test_seeded_counsel_come_from_the_population_and_deadlines_follow_the_rules() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for a in every(ep, "list_attorneys"):
        role = people[a["email"]].role
        assert (role == "employee") == (a["role"] == "in_house")
        if a["role"] == "in_house":
            assert a["firm"] == POP.home.name
    for m in every(ep, "list_matters", status="registered"):
        assert m["registration_number"] and m["expiry_date"]
    eu = matter(ep, home_mark(), "EU")
    renewal = open_deadline(ep, eu["id"], "renewal")
    assert renewal["due_date"] == eu["expiry_date"] and renewal["due_date"][4:] == eu["filing_date"][4:]
    statuses = {m["status"] for m in every(ep, "list_matters")}
    assert {"pending", "published", "allowed", "registered", "granted", "abandoned"} <= statuses


def test_an_office_action_sets_a_response_deadline_that_the_response_meets(ep: Episode) -> None:
    gb = ok(
        ep,
        "create_matter",
        kind="trademark",
        title="SEAWARD",
        jurisdiction="US",
        application_number="98000001",
        filing_date="2025-11-03",
        responsible_attorney_id=every(ep, "list_attorneys")[0]["id"],
        classes=[9],
    )
    got = ok(ep, "record_event", matter_id=gb["id"], event_type="office_action", event_date="2026-02-16")
    [d] = got["deadlines"]
    assert (d["kind"], d["due_date"], d["final_date"]) == ("office_action_response", "2026-05-16", "2026-08-16")
    done = ok(ep, "record_event", matter_id=gb["id"], event_type="response_filed", event_date=TODAY)
    assert [c["id"] for c in done["completed"]] == [d["id"]]
    refused(
        ep,
        "record_event",
        "rule_violation",
        "event_type",
        matter_id=gb["id"],
        event_type="response_filed",
        event_date=TODAY,
    )
    br = matter(ep, home_mark(), "BR")
    foreign = open_deadline(ep, br["id"], "office_action_response")
    assert foreign["due_date"] == foreign["final_date"]  # four months, no extension outside the US
    refused(ep, "extend_deadline", "rule_violation", "deadline_id", deadline_id=foreign["id"])


def test_a_past_due_response_needs_an_extension_and_the_final_date_is_final(ep: Episode) -> None:
    late = matter(ep, f"{home_mark()} CLOUD", "US")
    d = open_deadline(ep, late["id"], "office_action_response")
    assert d["due_date"] < TODAY <= d["final_date"]
    att = late["responsible_attorney_id"]
    msg = refused(ep, "complete_deadline", "rule_violation", "deadline_id", deadline_id=d["id"], attorney_id=att)
    assert d["due_date"] in msg
    extended = ok(ep, "extend_deadline", deadline_id=d["id"])
    assert extended["due_date"] == extended["final_date"] and extended["extensions"] == 1
    refused(ep, "extend_deadline", "rule_violation", "deadline_id", deadline_id=d["id"])
    done = ok(ep, "complete_deadline", deadline_id=d["id"], attorney_id=att)
    assert done["status"] == "completed" and done["completed_on"] == TODAY
    refused(ep, "complete_deadline", "rule_violation", "deadline_id", deadline_id=d["id"], attorney_id=att)
    refused(
        ep,
        "complete_deadline",
        "rule_violation",
        "completed_on",
        deadline_id=open_deadline(ep, matter(ep, home_mark(), "US")["id"], "office_action_response")["id"],
        attorney_id=att,
        completed_on="2099-01-01",
    )


def test_an_allowed_us_mark_registers_only_after_its_statement_of_use(ep: Episode) -> None:
    itu = next(m for m in every(ep, "list_matters", status="allowed", kind="trademark"))
    args = {"matter_id": itu["id"], "event_type": "registration", "event_date": TODAY}
    refused(ep, "record_event", "rule_violation", "event_type", registration_number="7654321", **args)
    sou = open_deadline(ep, itu["id"], "statement_of_use")
    moved = ok(ep, "extend_deadline", deadline_id=sou["id"])
    assert moved["due_date"] > sou["due_date"] and moved["final_date"] == sou["final_date"]
    ok(ep, "complete_deadline", deadline_id=sou["id"], attorney_id=itu["responsible_attorney_id"])
    refused(ep, "record_event", "rule_violation", "registration_number", **args)
    got = ok(ep, "record_event", registration_number="7654321", **args)
    assert got["matter"]["status"] == "registered" and got["matter"]["expiry_date"] == "2036-03-02"
    kinds = {d["kind"]: d for d in got["deadlines"]}
    assert kinds["declaration_of_use"]["due_date"] == "2032-03-02"
    assert kinds["renewal"]["opens_on"] == "2035-03-02" and kinds["renewal"]["final_date"] == "2036-09-02"


def test_a_patent_is_granted_after_its_issue_fee_and_then_owes_maintenance_fees(ep: Episode) -> None:
    allowed = next(m for m in every(ep, "list_matters", status="allowed", kind="patent"))
    args = {"matter_id": allowed["id"], "event_type": "grant", "event_date": TODAY, "registration_number": "US12345678"}
    refused(ep, "record_event", "rule_violation", "event_type", **args)
    fee = open_deadline(ep, allowed["id"], "issue_fee")
    refused(ep, "extend_deadline", "rule_violation", "deadline_id", deadline_id=fee["id"])
    ok(ep, "complete_deadline", deadline_id=fee["id"], attorney_id=allowed["responsible_attorney_id"])
    got = ok(ep, "record_event", **args)
    assert got["matter"]["status"] == "granted" and got["matter"]["registration_number"] == "US12345678"
    assert [d["due_date"] for d in got["deadlines"]] == ["2029-09-02", "2033-09-02", "2037-09-02"]
    refused(
        ep,
        "record_event",
        "rule_violation",
        "event_type",
        matter_id=allowed["id"],
        event_type="office_action",
        event_date=TODAY,
    )


def test_renewals_open_a_year_ahead_and_start_the_next_cycle(ep: Episode) -> None:
    gb = matter(ep, home_mark(), "GB")
    early = open_deadline(ep, gb["id"], "renewal")
    msg = refused(
        ep,
        "complete_deadline",
        "rule_violation",
        "deadline_id",
        deadline_id=early["id"],
        attorney_id=gb["responsible_attorney_id"],
    )
    assert early["opens_on"] in msg
    eu = matter(ep, home_mark(), "EU")
    due = open_deadline(ep, eu["id"], "renewal")
    ok(ep, "complete_deadline", deadline_id=due["id"], attorney_id=eu["responsible_attorney_id"])
    nxt = open_deadline(ep, eu["id"], "renewal")
    assert nxt["due_date"] == "2036-08-02" and ok(ep, "get_matter", matter_id=eu["id"])["expiry_date"] == "2036-08-02"


def test_events_must_fit_the_matter_and_its_dates(ep: Episode) -> None:
    reg = matter(ep, home_mark(), "GB")
    refused(
        ep,
        "record_event",
        "rule_violation",
        "event_type",
        matter_id=reg["id"],
        event_type="publication",
        event_date=TODAY,
    )
    pending = matter(ep, home_mark(), "US")
    refused(
        ep,
        "record_event",
        "rule_violation",
        "event_type",
        matter_id=pending["id"],
        event_type="grant",
        event_date=TODAY,
        registration_number="US1234567",
    )
    refused(
        ep,
        "record_event",
        "rule_violation",
        "event_type",
        matter_id=pending["id"],
        event_type="registration",
        event_date=TODAY,
        registration_number="7654321",
    )
    for day in ("2099-01-01", "2000-01-01"):
        refused(
            ep,
            "record_event",
            "rule_violation",
            "event_date",
            matter_id=pending["id"],
            event_type="office_action",
            event_date=day,
        )
    pub = ok(ep, "record_event", matter_id=pending["id"], event_type="publication", event_date=TODAY)
    assert pub["matter"]["status"] == "published" and pub["deadlines"][0]["due_date"] == "2026-04-01"


def test_docketing_applications_checks_kind_office_number_and_counsel(ep: Episode) -> None:
    att = every(ep, "list_attorneys", active=True)[0]["id"]
    base = {
        "title": "WAVELINE",
        "application_number": "97999999",
        "filing_date": "2026-01-05",
        "responsible_attorney_id": att,
    }
    refused(ep, "create_matter", "rule_violation", "classes", kind="trademark", jurisdiction="US", **base)
    refused(ep, "create_matter", "rule_violation", "classes", kind="patent", jurisdiction="US", classes=[9], **base)
    refused(ep, "create_matter", "rule_violation", "jurisdiction", kind="patent", jurisdiction="EU", **base)
    refused(
        ep,
        "create_matter",
        "rule_violation",
        "filing_date",
        kind="patent",
        jurisdiction="US",
        **{**base, "filing_date": "2099-01-01"},
    )
    inactive = every(ep, "list_attorneys", active=False)[0]["id"]
    refused(
        ep,
        "create_matter",
        "rule_violation",
        "responsible_attorney_id",
        kind="patent",
        jurisdiction="US",
        **{**base, "responsible_attorney_id": inactive},
    )
    made = ok(ep, "create_matter", kind="patent", jurisdiction="US", **base)
    assert made["expiry_date"] == "2046-01-05" and made["owner"] == POP.home.name
    assert made["docket_number"] == "IP-00014"
    refused(ep, "create_matter", "conflict", "application_number", kind="patent", jurisdiction="US", **base)
    assert ok(ep, "create_matter", kind="patent", jurisdiction="CA", **base)["status"] == "pending"


def test_abandoning_and_reassigning_carry_the_open_deadlines(ep: Episode) -> None:
    late = matter(ep, f"{home_mark()} CLOUD", "US")
    ok(ep, "abandon_matter", matter_id=late["id"])
    assert {d["status"] for d in every(ep, "list_deadlines", matter_id=late["id"])} == {"closed"}
    refused(ep, "abandon_matter", "rule_violation", "matter_id", matter_id=matter(ep, home_mark(), "GB")["id"])
    granted = every(ep, "list_matters", status="granted")[0]
    other = next(a for a in every(ep, "list_attorneys", active=True) if a["id"] != granted["responsible_attorney_id"])
    ok(ep, "update_matter", matter_id=granted["id"], responsible_attorney_id=other["id"])
    for d in every(ep, "list_deadlines", matter_id=granted["id"], status="open"):
        assert d["responsible_attorney_id"] == other["id"]
    inactive = every(ep, "list_attorneys", active=False)[0]["id"]
    refused(
        ep,
        "update_matter",
        "rule_violation",
        "responsible_attorney_id",
        matter_id=granted["id"],
        responsible_attorney_id=inactive,
    )
    refused(ep, "update_attorney", "rule_violation", "attorney_id", attorney_id=other["id"], active=False)


def test_the_docket_report_lists_what_is_due_soonest_first_with_overdue_flagged(ep: Episode) -> None:
    report = ok(ep, "docket_report", days=90)
    dues = [i["deadline"]["due_date"] for i in report["items"]]
    assert dues == sorted(dues) and report["overdue"] == sum(1 for i in report["items"] if i["overdue"]) >= 1
    assert all(i["days_left"] <= 90 for i in report["items"])
    att = report["items"][0]["deadline"]["responsible_attorney_id"]
    mine = ok(ep, "docket_report", days=90, responsible_attorney_id=att)["items"]
    assert mine and all(i["deadline"]["responsible_attorney_id"] == att for i in mine)
    assert len(mine) < len(report["items"])
