"""Dealflow CRM: stages in pipelines, product lines make the value, won/lost/reopen, forecast and rotting."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DEALFLOW = ServiceTools("dealflow")
WORLD = DEALFLOW.world
ok, refused, every, items = DEALFLOW.ok, DEALFLOW.refused, DEALFLOW.every, DEALFLOW.items
POP = WORLD.population
CUR = POP.home.place.currency


def open_deal(ep: Episode, with_lines: bool | None = False) -> dict[str, Any]:
    lines = {p["deal_id"] for p in every(ep, "list_deal_products")}
    for deal in every(ep, "list_deals", status="open"):
        if with_lines is None or (deal["id"] in lines) == with_lines:
            return deal
    raise AssertionError("no such open deal")


def stages_of(ep: Episode, pipeline_id: str) -> list[dict[str, Any]]:
    return sorted(items(ep, "stages", pipeline_id=pipeline_id), key=lambda s: s["order_nr"])


def pipeline(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in items(ep, "pipelines") if p["name"] == name)


# -- the world ------------------------------------------------------------------------------


def test_organizations_and_persons_are_the_populations_customers_and_contacts() -> None:
    ep = Episode(WORLD)
    companies = {c.name: c for c in POP.customers}
    sales = {p.email for p in POP.employees if p.department == "Sales"}
    for org in every(ep, "list_organizations"):
        assert org["domain"] == companies[org["name"]].domain
        assert org["owner_email"] in sales
    people = {p.email: p for p in POP.people}
    for person in every(ep, "list_persons"):
        assert person["name"] == people[person["email"]].name
        if person["org_id"]:
            org = ok(ep, "get_organization", organization_id=person["org_id"])
            assert people[person["email"]].company_key is not None
            assert POP.companies_by_key[people[person["email"]].company_key].name == org["name"]


def test_seeded_deals_sit_in_stages_of_their_pipeline_and_lines_sum_to_the_value() -> None:
    ep = Episode(WORLD)
    stage_pipe = {s["id"]: s["pipeline_id"] for s in every(ep, "list_stages")}
    lines = every(ep, "list_deal_products")
    skus = {p.sku for p in POP.products}
    assert lines and all(line["sku"] in skus for line in lines)
    statuses = set()
    for deal in every(ep, "list_deals"):
        statuses.add(deal["status"])
        assert stage_pipe[deal["stage_id"]] == deal["pipeline_id"]
        mine = [x for x in lines if x["deal_id"] == deal["id"]]
        if mine:
            assert deal["value"] == sum(x["sum"] for x in mine)
        if deal["status"] == "lost":
            assert deal["lost_reason"]
    assert statuses == {"open", "won", "lost"}


# -- deals ----------------------------------------------------------------------------------


def test_a_deal_is_created_only_in_a_stage_of_its_pipeline(ep: Episode) -> None:
    sales, partners = pipeline(ep, "Sales"), pipeline(ep, "Partnerships")
    person = items(ep, "persons", email=POP.contacts[0].email)[0]
    args = dict(title="New platform deal", value=50_000_00, currency=CUR, owner_email=POP.employees[0].email)
    refused(
        ep,
        "create_deal",
        "rule_violation",
        "stage_id",
        pipeline_id=sales["id"],
        stage_id=stages_of(ep, partners["id"])[0]["id"],
        **args,
    )
    legacy = pipeline(ep, "Legacy renewals")
    refused(
        ep,
        "create_deal",
        "rule_violation",
        "pipeline_id",
        pipeline_id=legacy["id"],
        stage_id=stages_of(ep, legacy["id"])[0]["id"],
        **args,
    )
    deal = ok(
        ep,
        "create_deal",
        pipeline_id=sales["id"],
        stage_id=stages_of(ep, sales["id"])[0]["id"],
        person_id=person["id"],
        org_id=person["org_id"],
        **args,
    )
    assert (deal["status"], deal["person_id"]) == ("open", person["id"])


def test_the_contact_must_work_at_the_deals_organization(ep: Episode) -> None:
    deal = open_deal(ep)
    stranger = next(p for p in every(ep, "list_persons") if p["org_id"] and p["org_id"] != deal["org_id"])
    refused(ep, "update_deal", "rule_violation", "person_id", deal_id=deal["id"], person_id=stranger["id"])


def test_moving_a_deal_to_another_pipelines_stage_moves_it_to_that_pipeline(ep: Episode) -> None:
    deal = open_deal(ep)
    refused(ep, "move_deal_to_stage", "rule_violation", "stage_id", deal_id=deal["id"], stage_id=deal["stage_id"])
    other = next(p for p in items(ep, "pipelines", active=True) if p["id"] != deal["pipeline_id"])
    target = stages_of(ep, other["id"])[-1]
    moved = ok(ep, "move_deal_to_stage", deal_id=deal["id"], stage_id=target["id"])
    assert (moved["pipeline_id"], moved["stage_id"]) == (other["id"], target["id"])
    assert moved["stage_change_time"] is not None
    legacy = pipeline(ep, "Legacy renewals")
    refused(
        ep,
        "move_deal_to_stage",
        "rule_violation",
        "stage_id",
        deal_id=deal["id"],
        stage_id=stages_of(ep, legacy["id"])[0]["id"],
    )


def test_winning_needs_a_value_and_losing_needs_a_reason(ep: Episode) -> None:
    sales = pipeline(ep, "Sales")
    deal = ok(
        ep,
        "create_deal",
        title="Zero deal",
        currency=CUR,
        pipeline_id=sales["id"],
        stage_id=stages_of(ep, sales["id"])[2]["id"],
        owner_email=POP.employees[0].email,
    )
    refused(ep, "mark_deal_won", "rule_violation", "deal_id", deal_id=deal["id"])
    refused(ep, "mark_deal_lost", "rule_violation", "lost_reason", deal_id=deal["id"], lost_reason="  ")
    ok(ep, "update_deal", deal_id=deal["id"], value=12_000_00)
    won = ok(ep, "mark_deal_won", deal_id=deal["id"])
    assert won["status"] == "won" and won["won_time"] is not None


def test_a_closed_deal_cannot_change_until_it_is_reopened(ep: Episode) -> None:
    deal = every(ep, "list_deals", status="lost")[0]
    refused(ep, "update_deal", "rule_violation", "deal_id", deal_id=deal["id"], title="Second try")
    refused(ep, "mark_deal_won", "rule_violation", "deal_id", deal_id=deal["id"])
    refused(ep, "add_deal_product", "rule_violation", "deal_id", deal_id=deal["id"], sku=POP.products[0].sku)
    refused(
        ep,
        "create_activity",
        "rule_violation",
        "deal_id",
        subject="Call again",
        due_date="2026-03-05",
        deal_id=deal["id"],
        owner_email=deal["owner_email"],
    )
    again = ok(ep, "reopen_deal", deal_id=deal["id"])
    assert (again["status"], again["lost_reason"], again["lost_time"]) == ("open", None, None)
    refused(ep, "reopen_deal", "rule_violation", "deal_id", deal_id=deal["id"])
    assert ok(ep, "update_deal", deal_id=deal["id"], title="Second try")["title"] == "Second try"


# -- product lines --------------------------------------------------------------------------


def test_product_lines_make_the_deal_value(ep: Episode) -> None:
    deal = open_deal(ep, with_lines=False)
    a, b = POP.products[0], POP.products[1]
    line = ok(ep, "add_deal_product", deal_id=deal["id"], sku=a.sku, quantity=3)
    assert (line["item_price"], line["sum"], line["name"]) == (a.price_cents, 3 * a.price_cents, a.name)
    ok(ep, "add_deal_product", deal_id=deal["id"], sku=b.sku, quantity=2, item_price=10_000, discount_percent=10)
    assert ok(ep, "get_deal", deal_id=deal["id"])["value"] == 3 * a.price_cents + 18_000
    msg = refused(ep, "update_deal", "rule_violation", "value", deal_id=deal["id"], value=1)
    assert "product lines" in msg
    ok(ep, "delete_deal_product", deal_product_id=line["id"])
    assert ok(ep, "get_deal", deal_id=deal["id"])["value"] == 18_000


def test_a_product_must_be_in_the_catalog_and_on_the_deal_once(ep: Episode) -> None:
    deal = open_deal(ep, with_lines=None)
    refused(ep, "add_deal_product", "rule_violation", "sku", deal_id=deal["id"], sku="NOPE-0000")
    sku = POP.products[5].sku
    ok(ep, "add_deal_product", deal_id=deal["id"], sku=sku)
    refused(ep, "add_deal_product", "rule_violation", "sku", deal_id=deal["id"], sku=sku)


def test_a_list_price_applies_only_to_deals_in_the_home_currency(ep: Episode) -> None:
    sales = pipeline(ep, "Sales")
    other = "USD" if CUR != "USD" else "EUR"
    deal = ok(
        ep,
        "create_deal",
        title="Export deal",
        currency=other,
        pipeline_id=sales["id"],
        stage_id=stages_of(ep, sales["id"])[0]["id"],
        owner_email=POP.employees[0].email,
    )
    sku = POP.products[2].sku
    refused(ep, "add_deal_product", "rule_violation", "item_price", deal_id=deal["id"], sku=sku)
    line = ok(ep, "add_deal_product", deal_id=deal["id"], sku=sku, quantity=4, item_price=2_500)
    assert line["sum"] == 10_000


# -- activities, forecast, rotting ----------------------------------------------------------


def test_completing_an_activity_keeps_the_deal_fresh(ep: Episode) -> None:
    sales = pipeline(ep, "Sales")
    summary = ok(ep, "pipeline_summary", pipeline_id=sales["id"], currency=CUR)
    assert summary["rotten_deal_ids"], "the seeded pipeline has rotten deals"
    deal_id = summary["rotten_deal_ids"][0]
    deal = ok(ep, "get_deal", deal_id=deal_id)
    act = ok(
        ep,
        "create_activity",
        subject="Follow-up call",
        type="call",
        due_date="2026-03-02",
        deal_id=deal_id,
        owner_email=deal["owner_email"],
    )
    assert deal_id in ok(ep, "pipeline_summary", pipeline_id=sales["id"], currency=CUR)["rotten_deal_ids"]
    ok(ep, "complete_activity", activity_id=act["id"])
    assert ok(ep, "get_deal", deal_id=deal_id)["last_activity_date"] == "2026-03-02"
    assert deal_id not in ok(ep, "pipeline_summary", pipeline_id=sales["id"], currency=CUR)["rotten_deal_ids"]
    refused(ep, "complete_activity", "rule_violation", "activity_id", activity_id=act["id"])


def test_the_forecast_weighs_open_deals_by_probability() -> None:
    ep = Episode(WORLD)
    sales = pipeline(ep, "Sales")
    summary = ok(ep, "pipeline_summary", pipeline_id=sales["id"], currency=CUR)
    stage_prob = {s["id"]: s["deal_probability"] for s in stages_of(ep, sales["id"])}
    deals = every(ep, "list_deals", pipeline_id=sales["id"])
    open_ = [d for d in deals if d["status"] == "open"]
    expected = sum(
        round(d["value"] * (d["probability"] if d["probability"] is not None else stage_prob[d["stage_id"]]) / 100)
        for d in open_
    )
    assert summary["weighted_value"] == expected
    assert summary["open_value"] == sum(d["value"] for d in open_)
    assert summary["won_value"] == sum(d["value"] for d in deals if d["status"] == "won")
    assert [s["stage_id"] for s in summary["stages"]] == list(stage_prob)
    partners = pipeline(ep, "Partnerships")
    unweighted = ok(ep, "pipeline_summary", pipeline_id=partners["id"], currency=CUR)
    assert unweighted["weighted_value"] == unweighted["open_value"]


def test_changing_a_stage_probability_changes_the_forecast(ep: Episode) -> None:
    sales = pipeline(ep, "Sales")
    before = ok(ep, "pipeline_summary", pipeline_id=sales["id"], currency=CUR)
    stage = stages_of(ep, sales["id"])[0]
    refused(ep, "update_stage", "rule_violation", "order_nr", stage_id=stage["id"], order_nr=2)
    ok(ep, "update_stage", stage_id=stage["id"], deal_probability=100)
    after = ok(ep, "pipeline_summary", pipeline_id=sales["id"], currency=CUR)
    assert after["stages"][0]["weighted_value"] > before["stages"][0]["weighted_value"]
    assert after["open_value"] == before["open_value"]


def test_a_person_email_is_unique_and_finds_the_person(ep: Episode) -> None:
    contact = POP.contacts[0]
    found = items(ep, "persons", email=contact.email)
    assert [p["name"] for p in found] == [contact.name]
    refused(
        ep,
        "create_person",
        "conflict",
        "email",
        name="Someone Else",
        email=contact.email,
        owner_email=POP.employees[0].email,
    )
