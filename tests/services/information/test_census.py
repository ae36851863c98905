"""CensusData: nested geographies add up, release rules, consistent tools, and saved reports."""

from __future__ import annotations

import itertools

from compoworld import Episode
from tests.services.helpers import ServiceTools

CEN = ServiceTools("census")
WORLD = CEN.world
ok, refused, every = CEN.ok, CEN.refused, CEN.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]
ACS = WORLD.epoch.date().year - 2
POPULATION, INCOME = "B01003_001E", "B19013_001E"


def est(row: dict[str, object], i: int = 0) -> float:
    cells = row["cells"]
    assert isinstance(cells, list)
    return float(cells[i]["estimate"])


def test_counties_fit_in_their_state_and_places_in_their_county(ep: Episode) -> None:
    states = {r["fips"]: est(r) for r in ok(ep, "get_data", variables=[POPULATION], level="state", year=ACS)["rows"]}
    for state, total in states.items():
        counties = ok(ep, "get_data", variables=[POPULATION], level="county", within=state, year=ACS)["rows"]
        assert counties and sum(est(c) for c in counties) <= total
        for c in counties:
            if ok(ep, "list_geographies", level="place", within=c["fips"]):
                places = ok(ep, "get_data", variables=[POPULATION], level="place", within=c["fips"], year=ACS)["rows"]
                assert all(est(p) <= est(c) for p in places)
    assert sum(states.values()) < est(ok(ep, "get_data", variables=[POPULATION], level="us", year=ACS)["rows"][0])


def test_tools_agree_on_the_same_numbers(ep: Episode) -> None:
    table = ok(ep, "get_data", variables=[POPULATION, INCOME], level="county", year=ACS)
    by_fips = {r["fips"]: r for r in table["rows"]}
    ranked = ok(ep, "rank_geographies", variable=INCOME, level="county", year=ACS, limit=50)
    assert [r["fips"] for r in ranked] == sorted(by_fips, key=lambda f: -est(by_fips[f], 1))
    series = ok(ep, "get_population_estimates", fips="48453", from_year=ACS - 3, to_year=ACS)
    assert series[-1]["population"] == est(by_fips["48453"])
    assert all(b["change"] == b["population"] - a["population"] for a, b in itertools.pairwise(series))
    change = ok(ep, "compare_years", fips="48453", variables=[POPULATION], from_year=ACS - 3, to_year=ACS)[0]
    assert (change["from_estimate"], change["to_estimate"]) == (series[0]["population"], series[-1]["population"])


def test_release_rules_refuse_unreleased_and_uncovered_data(ep: Episode) -> None:
    args = {"variables": [POPULATION], "level": "state"}
    refused(ep, "get_data", "rule_violation", "year", year=ACS + 1, **args)
    refused(ep, "get_data", "rule_violation", "year", year=2020, dataset="acs1", **args)
    assert ok(ep, "get_data", year=2020, **args)["rows"]
    small = ok(ep, "get_geography", fips="0670364")
    assert not small["acs1_available"]
    refused(
        ep,
        "get_data",
        "rule_violation",
        "dataset",
        variables=[POPULATION],
        level="place",
        within="06041",
        year=ACS,
        dataset="acs1",
    )
    refused(ep, "get_data", "not_found", "variables.1", variables=[POPULATION, "B99999_001E"], level="us", year=ACS)
    refused(ep, "get_geography", "not_found", "fips", fips="99")


def test_acs1_margins_are_wider_than_acs5(ep: Episode) -> None:
    five = ok(ep, "get_data", variables=[INCOME], level="state", year=ACS)["rows"]
    one = ok(ep, "get_data", variables=[INCOME], level="state", year=ACS, dataset="acs1")["rows"]
    for a, b in zip(five, one, strict=True):
        assert a["cells"][0]["estimate"] == b["cells"][0]["estimate"]
        assert b["cells"][0]["margin_of_error"] > a["cells"][0]["margin_of_error"] > 0


def test_seeded_reports_are_staffs_and_their_rows_match_the_data(ep: Episode) -> None:
    reports = every(ep, "list_reports")
    assert {r["status"] for r in reports} == {"draft", "published", "archived"}
    for r in reports:
        assert r["owner_email"] in STAFF and all(e in STAFF and e != r["owner_email"] for e in r["shared_with"])
        if not r["stale"]:
            for row in r["rows"]:
                live = ok(
                    ep,
                    "get_data",
                    variables=r["variables"],
                    level=ok(ep, "get_geography", fips=row["fips"])["level"],
                    year=r["year"],
                    dataset=r["dataset"],
                )["rows"]
                assert row in live


def test_a_report_is_published_only_after_a_run_since_its_last_change(ep: Episode) -> None:
    r = ok(
        ep,
        "create_report",
        name="Seattle rents",
        owner_email=STAFF[0],
        year=ACS,
        variables=["B25064_001E"],
        geographies=["5363000"],
    )
    refused(ep, "publish_report", "rule_violation", "report_id", report_id=r["id"])
    refused(ep, "export_report", "rule_violation", "report_id", report_id=r["id"])
    ran = ok(ep, "run_report", report_id=r["id"])
    assert len(ran["rows"]) == 1 and not ran["stale"]
    assert ok(ep, "export_report", report_id=r["id"]).splitlines()[1].startswith('"Seattle city, Washington",5363000,')
    assert ok(ep, "publish_report", report_id=r["id"])["status"] == "published"
    changed = ok(ep, "update_report", report_id=r["id"], year=ACS - 1)
    assert (changed["status"], changed["stale"]) == ("draft", True)


def test_reports_refuse_bad_contents(ep: Episode) -> None:
    base = {"name": "x", "owner_email": STAFF[0], "year": ACS, "variables": [POPULATION]}
    refused(
        ep,
        "create_report",
        "rule_violation",
        "owner_email",
        **(base | {"owner_email": POP.contacts[0].email}),
        geographies=["06"],
    )
    refused(ep, "create_report", "not_found", "geographies.1", geographies=["06", "00"], **base)
    refused(ep, "create_report", "rule_violation", "geographies", geographies=["06"] * 26, **base)
    refused(ep, "create_report", "rule_violation", "dataset", geographies=["0670364"], dataset="acs1", **base)


def test_sharing_needs_a_published_report_and_colleagues_once(ep: Episode) -> None:
    draft = CEN.first(ep, "reports", status="draft")
    other = next(e for e in STAFF if e != draft["owner_email"])
    refused(ep, "share_report", "rule_violation", "report_id", report_id=draft["id"], emails=[other])
    pub = CEN.first(ep, "reports", status="published")
    refused(ep, "share_report", "rule_violation", "emails.0", report_id=pub["id"], emails=[pub["owner_email"]])
    if pub["shared_with"]:
        refused(ep, "share_report", "conflict", "emails.0", report_id=pub["id"], emails=[pub["shared_with"][0]])
        ok(ep, "unshare_report", report_id=pub["id"], email=pub["shared_with"][0])
    new = next(e for e in STAFF if e != pub["owner_email"])
    assert new in ok(ep, "share_report", report_id=pub["id"], emails=[new])["shared_with"]
    archived = CEN.first(ep, "reports", status="archived")
    refused(ep, "run_report", "rule_violation", "report_id", report_id=archived["id"])
