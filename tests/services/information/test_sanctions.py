"""Clearlist Screening: match scores, datasets and relations, and the screening case workflow with four eyes."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SAN = ServiceTools("sanctions")
WORLD = SAN.world
ok, refused, every = SAN.ok, SAN.refused, SAN.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]
PEP = POP.contacts[3]
NAMESAKE = POP.contacts[9]


def case(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_screenings", status=status)[0]


def test_a_birth_date_tells_the_real_pep_from_a_namesake(ep: Episode) -> None:
    pep = ok(ep, "match_entities", schema_name="Person", name=PEP.name, birth_date=PEP.birth_date.isoformat())
    top = pep["results"][0]
    assert (top["score"], top["match"], top["topics"]) == (1.0, True, ["role.pep"])
    assert top["features"]["birth_date"] == "match"
    by_name = ok(ep, "match_entities", schema_name="Person", name=NAMESAKE.name)
    assert by_name["matches"] >= 1 and by_name["results"][0]["features"]["birth_date"] == "unknown"
    dated = ok(
        ep, "match_entities", schema_name="Person", name=NAMESAKE.name, birth_date=NAMESAKE.birth_date.isoformat()
    )
    assert dated["matches"] == 0 and dated["results"][0]["features"]["birth_date"] == "mismatch"
    assert ok(ep, "match_entities", schema_name="Company", name="Quiet Meadow Bakery")["total"] == 0


def test_datasets_filter_matches_and_are_listed(ep: Episode) -> None:
    args = {"schema_name": "Person", "name": PEP.name, "birth_date": PEP.birth_date.isoformat()}
    assert ok(ep, "match_entities", dataset="peps", **args)["matches"] == 1
    assert ok(ep, "match_entities", dataset="us_ofac_sdn", **args)["matches"] == 0
    refused(ep, "match_entities", "not_found", "dataset", dataset="xx_list", **args)
    sets = {d["name"]: d for d in ok(ep, "list_datasets")}
    assert ok(ep, "get_dataset", name="peps") == sets["peps"]
    pep_id = ok(ep, "match_entities", **args)["results"][0]["entity_id"]
    assert "peps" in ok(ep, "get_entity", entity_id=pep_id)["datasets"] and sets["peps"]["entity_count"] >= 1
    refused(ep, "get_dataset", "not_found", "name", name="nothing")


def test_a_sanctioned_person_and_their_company_point_at_each_other(ep: Episode) -> None:
    firms = ok(ep, "search_entities", q="LLC", topic="sanction") + ok(ep, "search_entities", q="Ltd", topic="sanction")
    firm = next(f for f in firms if f["related_ids"])
    owner = ok(ep, "get_adjacent", entity_id=firm["id"])[0]
    assert owner["schema_name"] == "Person" and firm["id"] in owner["related_ids"]
    assert ok(ep, "get_entity", entity_id=owner["id"]) == owner
    assert set(owner["datasets"]) == set(firm["datasets"]) and owner["programs"] == firm["programs"]
    refused(ep, "get_entity", "not_found", "entity_id", entity_id="osv-nobody-0000")


def test_screening_opens_a_case_only_for_hits_and_once(ep: Episode) -> None:
    clean = ok(ep, "screen_subject", schema_name="Company", name="Quiet Meadow Bakery", requested_by=STAFF[0])
    assert (clean["status"], clean["hits"]) == ("no_match", [])
    refused(
        ep, "screen_subject", "rule_violation", "requested_by", schema_name="Person", name="A B", requested_by="x@y.io"
    )
    refused(
        ep,
        "screen_subject",
        "rule_violation",
        "birth_date",
        schema_name="Company",
        name="Acme",
        birth_date="1980-01-01",
        requested_by=STAFF[0],
    )
    open_case = case(ep, "pending_review")
    refused(
        ep, "screen_subject", "conflict", "name", schema_name="Person", name=open_case["name"], requested_by=STAFF[0]
    )


def test_clearing_a_false_positive_exempts_its_hits_from_later_screens(ep: Episode) -> None:
    c = case(ep, "pending_review")
    refused(ep, "clear_screening", "rule_violation", "note", screening_id=c["id"], decided_by=STAFF[1], note=" ")
    done = ok(ep, "clear_screening", screening_id=c["id"], decided_by=STAFF[1], note="Other birth date per passport.")
    assert (done["status"], done["decided_by"]) == ("cleared", STAFF[1])
    made = every(ep, "list_exemptions", screening_id=c["id"])
    assert sorted(x["entity_id"] for x in made) == sorted(h["entity_id"] for h in c["hits"])
    again = ok(ep, "screen_subject", schema_name="Person", name=c["name"], requested_by=STAFF[0])
    assert again["status"] == "no_match"
    assert ok(ep, "rescreen", screening_id=c["id"])["status"] == "cleared"
    refused(
        ep, "clear_screening", "rule_violation", "screening_id", screening_id=c["id"], decided_by=STAFF[1], note="x"
    )


def test_an_escalated_case_is_decided_by_a_second_analyst(ep: Episode) -> None:
    c = case(ep, "escalated")
    refused(
        ep,
        "confirm_match",
        "rule_violation",
        "decided_by",
        screening_id=c["id"],
        decided_by=c["escalated_by"],
        note="Same",
    )
    other = next(e for e in STAFF if e != c["escalated_by"])
    done = ok(ep, "confirm_match", screening_id=c["id"], decided_by=other, note="PEP: enhanced due diligence")
    assert (done["status"], done["decided_by"]) == ("confirmed_match", other)
    refused(ep, "confirm_match", "rule_violation", "screening_id", screening_id=c["id"], decided_by=other, note="again")


def test_an_exact_hit_cannot_be_cleared_without_escalation(ep: Episode) -> None:
    c = case(ep, "escalated")
    other = next(e for e in STAFF if e != c["escalated_by"])
    ok(ep, "confirm_match", screening_id=c["id"], decided_by=other, note="Match")
    reopened = ok(ep, "reopen_screening", screening_id=c["id"], reopened_by=STAFF[0], note="QA sample")
    assert reopened["status"] == "pending_review" and "confirmed_match" in reopened["decision_note"]
    refused(
        ep, "clear_screening", "rule_violation", "screening_id", screening_id=c["id"], decided_by=STAFF[0], note="No"
    )
    ok(ep, "escalate_screening", screening_id=c["id"], escalated_by=STAFF[0], note="Exact match, second look")
    assert (
        ok(ep, "clear_screening", screening_id=c["id"], decided_by=STAFF[1], note="Retired from office 2012")["status"]
        == "cleared"
    )


def test_monitoring_reopens_a_case_whose_exemption_is_withdrawn(ep: Episode) -> None:
    cleared = case(ep, "cleared")
    assert cleared["monitored"]
    assert ok(ep, "rescreen_monitored") == []
    for x in every(ep, "list_exemptions", screening_id=cleared["id"]):
        ok(ep, "delete_exemption", exemption_id=x["id"])
    reopened = ok(ep, "rescreen_monitored")
    assert [r["id"] for r in reopened] == [cleared["id"]] and reopened[0]["status"] == "pending_review"
    refused(ep, "rescreen", "rule_violation", "screening_id", screening_id=cleared["id"])


def test_a_batch_answers_each_query_in_order(ep: Episode) -> None:
    queries = [
        {"schema_name": "Person", "name": NAMESAKE.name},
        {"schema_name": "Company", "name": POP.customers[0].name},
    ]
    res = ok(ep, "match_batch", queries=queries)
    assert [r["query_name"] for r in res] == [NAMESAKE.name, POP.customers[0].name]
    assert res[0]["matches"] >= 1 and res[1]["matches"] == 0


def test_stats_count_the_cases(ep: Episode) -> None:
    cases = every(ep, "list_screenings")
    stats = ok(ep, "screening_stats")
    assert sum(stats["by_status"].values()) == len(cases)
    assert stats["open_hits"] == sum(len(c["hits"]) for c in cases if c["status"] in ("pending_review", "escalated"))
    assert stats["exemptions"] == len(every(ep, "list_exemptions"))
    for c in cases:
        assert c["requested_by"] in STAFF
