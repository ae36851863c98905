"""Carbonledger: estimates are factor times amount, flights and freight add up, ledgers keep their year."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

CB = ServiceTools("carbon")
WORLD = CB.world
ok, refused, every = CB.ok, CB.refused, CB.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
GRID = "electricity-supply_grid-source_residual_mix"
DIESEL = "fuel-type_diesel-fuel_use_na"


def test_an_estimate_is_the_factor_times_the_amount(ep: Episode) -> None:
    [diesel] = ok(ep, "search_factors", query="diesel", unit_type="Volume")
    est = ok(ep, "estimate", activity_id=DIESEL, amount=200.0)
    assert est["co2e"] == round(200 * diesel["factor"], 3) and est["scope"] == diesel["scope"] == 1
    refused(ep, "estimate", "not_found", "activity_id", activity_id="no_such_factor", amount=1.0)
    refused(ep, "estimate", "rule_violation", "region", activity_id=GRID, amount=10.0)


def test_grid_factors_differ_by_country_and_renewables_cut_market_based_emissions(ep: Episode) -> None:
    se = ok(ep, "estimate_electricity", country="SE", energy_kwh=10000.0)
    pl = ok(ep, "estimate_electricity", country="PL", energy_kwh=10000.0)
    assert pl["co2e"] > 10 * se["co2e"] and se["scope"] == 2
    half = ok(ep, "estimate_electricity", country="PL", energy_kwh=10000.0, renewable_share=50.0)
    assert abs(half["co2e"] - pl["co2e"] / 2) < 0.01 and half["activity_amount"] == 10000.0
    assert ok(ep, "estimate", activity_id=GRID, amount=10000.0, region="PL")["co2e"] == pl["co2e"]
    refused(ep, "estimate_electricity", "not_found", "country", country="ZZ", energy_kwh=1.0)


def test_flights_grow_with_distance_class_and_return(ep: Episode) -> None:
    short = ok(ep, "estimate_flight", origin="London", destination="Paris")
    long = ok(ep, "estimate_flight", origin="London", destination="Tokyo")
    assert long["co2e"] > 5 * short["co2e"] and "long_haul" in long["activity_id"]
    business = ok(ep, "estimate_flight", origin="London", destination="Tokyo", cabin_class="business")
    assert business["co2e"] > 2.5 * long["co2e"]
    back = ok(ep, "estimate_flight", origin="London", destination="Tokyo", return_trip=True)
    assert abs(back["co2e"] - 2 * long["co2e"]) < 0.01
    assert ok(ep, "estimate_flight", origin="Tokyo", destination="London")["co2e"] == long["co2e"]
    refused(ep, "estimate_flight", "not_found", "origin", origin="Atlantis", destination="London")
    refused(ep, "estimate_flight", "rule_violation", "destination", origin="London", destination="london")


def test_freight_legs_add_up_by_mode(ep: Episode) -> None:
    road = ok(ep, "estimate_freight", weight_kg=2000.0, legs=[{"mode": "road", "distance_km": 500.0}])
    sea = ok(ep, "estimate_freight", weight_kg=2000.0, legs=[{"mode": "sea", "distance_km": 500.0}])
    both = ok(
        ep,
        "estimate_freight",
        weight_kg=2000.0,
        legs=[{"mode": "road", "distance_km": 500.0}, {"mode": "sea", "distance_km": 500.0}],
    )
    assert sea["co2e"] < road["co2e"] and abs(both["co2e"] - road["co2e"] - sea["co2e"]) < 0.01
    assert both["activity_amount"] == 2000.0


def test_spend_estimates_convert_currency_first(ep: Episode) -> None:
    usd = ok(ep, "estimate_spend", category="office_equipment", amount=100000, currency="USD")
    eur = ok(ep, "estimate_spend", category="office_equipment", amount=100000, currency="EUR")
    assert usd["co2e"] == round(1000 * 0.31, 3) and eur["co2e"] > usd["co2e"]
    refused(ep, "estimate_spend", "not_found", "category", category="yachts", amount=100)
    refused(ep, "estimate_spend", "not_found", "currency", category="office_equipment", amount=100, currency="NOK")


def test_seeded_ledgers_total_their_entries_by_scope(ep: Episode) -> None:
    ledgers = every(ep, "list_ledgers")
    assert {lg["status"] for lg in ledgers} == {"open", "closed"} and all(lg["owner_email"] in STAFF for lg in ledgers)
    closed = CB.first(ep, "ledgers", status="closed")
    rows = every(ep, "list_entries", ledger_id=closed["id"])
    summary = ok(ep, "ledger_summary", ledger_id=closed["id"])
    assert summary["entries"] == len(rows) > 12
    assert abs(summary["total_kg"] - sum(e["co2e_kg"] for e in rows)) < 0.01
    assert summary["scope1_kg"] > 0 and summary["scope2_kg"] > 0 and summary["scope3_kg"] > 0
    assert all(e["occurred_on"].startswith(str(closed["reporting_year"])) for e in rows)


def test_recording_a_flight_adds_a_scope_3_entry(ep: Episode) -> None:
    ledger = max(every(ep, "list_ledgers", status="open"), key=lambda lg: lg["reporting_year"])
    before = ok(ep, "ledger_summary", ledger_id=ledger["id"])
    day = f"{ledger['reporting_year']}-01-15"
    entry = ok(ep, "record_flight", ledger_id=ledger["id"], origin="Berlin", destination="Madrid", occurred_on=day)
    quote = ok(ep, "estimate_flight", origin="Berlin", destination="Madrid")
    assert (entry["scope"], entry["co2e_kg"], entry["category"]) == (3, quote["co2e"], "Air Travel")
    after = ok(ep, "ledger_summary", ledger_id=ledger["id"])
    assert abs(after["scope3_kg"] - before["scope3_kg"] - quote["co2e"]) < 0.01


def test_entries_must_fall_in_the_ledgers_year_and_not_ahead(ep: Episode) -> None:
    ledger = max(every(ep, "list_ledgers", status="open"), key=lambda lg: lg["reporting_year"])
    year = ledger["reporting_year"]
    args = {"ledger_id": ledger["id"], "activity_id": DIESEL, "amount": 50.0}
    refused(ep, "record_activity", "rule_violation", "occurred_on", occurred_on=f"{year - 1}-06-01", **args)
    refused(ep, "record_activity", "rule_violation", "occurred_on", occurred_on=f"{year}-12-31", **args)


def test_closed_ledgers_are_frozen_and_ledgers_with_entries_are_kept(ep: Episode) -> None:
    closed = CB.first(ep, "ledgers", status="closed")
    year = closed["reporting_year"]
    refused(
        ep,
        "record_activity",
        "rule_violation",
        "ledger_id",
        ledger_id=closed["id"],
        activity_id=DIESEL,
        amount=5.0,
        occurred_on=f"{year}-03-01",
    )
    entry = CB.first(ep, "entries", ledger_id=closed["id"])
    refused(ep, "update_entry", "rule_violation", "entry_id", entry_id=entry["id"], description="late fix")
    refused(ep, "delete_ledger", "rule_violation", "ledger_id", ledger_id=closed["id"])
    ok(ep, "reopen_ledger", ledger_id=closed["id"])
    assert ok(ep, "update_entry", entry_id=entry["id"], description="late fix")["description"] == "late fix"


def test_ledger_names_are_unique_per_year_and_kept_by_staff(ep: Episode) -> None:
    ledger = CB.first(ep, "ledgers", status="open")
    owner = POP.employees[0].email
    refused(
        ep,
        "create_ledger",
        "conflict",
        "name",
        name=ledger["name"],
        owner_email=owner,
        reporting_year=ledger["reporting_year"],
    )
    ok(ep, "create_ledger", name=ledger["name"], owner_email=owner, reporting_year=ledger["reporting_year"] + 1)
    refused(
        ep,
        "create_ledger",
        "rule_violation",
        "owner_email",
        name="X",
        owner_email=POP.contacts[0].email,
        reporting_year=2026,
    )
