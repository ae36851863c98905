"""Ratewise FX: one rate history per currency, cross rates through the dollar, conversions in minor units."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import math
import os
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools, service_world

FX = ServiceTools("fx")
WORLD = FX.world
ok, refused = FX.ok, FX.refused
POP = WORLD.population
TODAY = WORLD.epoch.date()  # a Monday
ANCHORS = {"EUR": 0.92, "GBP": 0.79, "JPY": 150.0, "SEK": 10.5, "CAD": 1.36, "AUD": 1.52, "SGD": 1.34, "BRL": 5.0}


def rates(table: dict[str, Any]) -> dict[str, float]:
    return {r["currency"]: r["rate"] for r in table["rates"]}


def close(a: float, b: float, rel: float = 2e-5) -> bool:
    return math.isclose(a, b, rel_tol=rel)


# -- world consistency ----------------------------------------------------------------------


def test_the_latest_rates_on_the_worlds_first_day_are_the_realistic_anchors(ep: Episode) -> None:
    table = ok(ep, "latest_rates", symbols=list(ANCHORS))
    assert table["base"] == "USD" and table["date"] == TODAY.isoformat() and not table["market_closed"]
    assert rates(table) == ANCHORS
    assert table["timestamp"] == WORLD.epoch.isoformat().replace("+00:00", "Z")


def test_every_world_currency_and_country_is_supported(ep: Episode) -> None:
    listed = {c["code"]: c for c in ok(ep, "list_currencies")["currencies"]}
    for place in POP.places:
        assert place.country in listed[place.currency]["countries"], place
    home = POP.home.place
    [only] = ok(ep, "list_currencies", country=home.country)["currencies"]
    assert only["code"] == home.currency
    assert (listed["JPY"]["minor_units"], listed["KWD"]["minor_units"], listed["EUR"]["minor_units"]) == (0, 3, 2)
    assert listed["DKK"]["pegged_to"] == "EUR" and listed["HKD"]["pegged_to"] == "USD"


def test_cross_rates_go_through_the_dollar(ep: Episode) -> None:
    day = (TODAY - dt.timedelta(days=200)).isoformat()
    usd = {**rates(ok(ep, "historical_rates", date=day)), "USD": 1.0}
    for base in ("EUR", "JPY", "BRL"):
        crossed = rates(ok(ep, "historical_rates", date=day, base=base))
        for code, rate in crossed.items():
            assert close(rate, usd[code] / usd[base], rel=2e-5), (base, code)
    eur = ok(ep, "historical_rates", date=day, base="EUR", symbols=["GBP"])["rates"][0]
    assert close(eur["rate"] * eur["inverse"], 1.0)


def test_a_conversion_applies_the_published_rate_of_its_date_in_minor_units(ep: Episode) -> None:
    day = (TODAY - dt.timedelta(days=45)).isoformat()
    table = rates(ok(ep, "historical_rates", date=day, base="USD", symbols=["JPY", "KWD", "EUR"]))
    out = ok(ep, "convert", amount=123456, from_currency="USD", to_currency="JPY", date=day)
    assert out["rate"] == table["JPY"]
    # 1,234.56 dollars become whole yen (JPY has no minor unit).
    assert out["result"] == int((Decimal("1234.56") * Decimal(repr(table["JPY"]))).quantize(0, ROUND_HALF_UP))
    kwd = ok(ep, "convert", amount=100, from_currency="USD", to_currency="KWD", date=day)
    assert kwd["result"] == round(1000 * table["KWD"])  # one dollar in fils (three decimals)
    eur = ok(ep, "convert", amount=10000, from_currency="USD", to_currency="EUR", date=day)
    assert eur["result"] == round(10000 * table["EUR"]) and eur["result_display"].startswith("€")
    assert out["amount_display"] == "$1,234.56" and out["result_display"].startswith("¥")


def test_converting_without_a_date_uses_the_latest_rate_and_zero_stays_zero(ep: Episode) -> None:
    home = POP.home.place.currency
    latest = ok(ep, "convert", amount=125000, from_currency="USD", to_currency="SEK")
    assert latest["date"] == TODAY.isoformat() and latest["rate"] == 10.5 and latest["result"] == 1312500
    assert ok(ep, "convert", amount=0, from_currency="USD", to_currency=home)["result"] == 0
    same = ok(ep, "convert", amount=4321, from_currency="GBP", to_currency="GBP")
    assert (same["rate"], same["result"]) == (1.0, 4321)


def test_a_weekend_has_the_fridays_rates(ep: Episode) -> None:
    saturday, friday = TODAY - dt.timedelta(days=2), TODAY - dt.timedelta(days=3)
    sat = ok(ep, "historical_rates", date=saturday.isoformat(), base="EUR")
    fri = ok(ep, "historical_rates", date=friday.isoformat(), base="EUR")
    assert sat["market_closed"] and not fri["market_closed"]
    assert sat["rate_date"] == friday.isoformat()
    assert sat["rates"] == fri["rates"]


def test_a_time_series_repeats_the_historical_rates_of_each_day(ep: Episode) -> None:
    start, end = TODAY - dt.timedelta(days=20), TODAY
    series = ok(ep, "timeseries", start_date=start.isoformat(), end_date=end.isoformat(), base="GBP")
    assert len(series["days"]) == 21
    for entry in series["days"][::5]:
        assert entry["rates"] == ok(ep, "historical_rates", date=entry["date"], base="GBP")["rates"]
    assert series["days"][-1]["rates"] == ok(ep, "latest_rates", base="GBP")["rates"]


def test_fluctuation_summarises_the_time_series(ep: Episode) -> None:
    args = {"start_date": "2025-03-03", "end_date": "2026-03-02", "base": "USD", "symbols": ["EUR", "JPY", "TRY"]}
    series = ok(ep, "timeseries", **args)["days"]
    report = {c["currency"]: c for c in ok(ep, "fluctuation", **args)["currencies"]}
    for code, row in report.items():
        daily = [rates(d)[code] for d in series]
        assert (row["start_rate"], row["end_rate"]) == (daily[0], daily[-1])
        assert (row["high"], row["low"]) == (max(daily), min(daily))
        assert close(row["change_pct"], 100 * (daily[-1] - daily[0]) / daily[0], rel=1e-4)


# -- value ranges -----------------------------------------------------------------------------


def test_major_rates_move_like_real_markets_from_day_to_day(ep: Episode) -> None:
    series = ok(ep, "timeseries", start_date="2025-03-03", end_date="2026-03-02", symbols=["EUR", "JPY", "GBP"])
    for code in ("EUR", "JPY", "GBP"):
        daily = [rates(d)[code] for d in series["days"]]
        moves = [abs(math.log(b / a)) for a, b in itertools.pairwise(daily)]
        assert max(moves) < 0.04, code  # no day moves 4 %
        assert 0.002 < sum(moves) / len(moves) < 0.01, code
        assert 0.7 < max(daily) / min(daily) < 1.5, code


def test_pegged_currencies_hold_their_pegs(ep: Episode) -> None:
    for day in ("2003-06-02", "2015-01-15", "2025-11-04"):
        usd = rates(ok(ep, "historical_rates", date=day, symbols=["HKD", "AED", "SAR"]))
        assert close(usd["HKD"], 7.82, rel=1e-3) and close(usd["AED"], 3.6725, rel=1e-3)
        assert close(usd["SAR"], 3.75, rel=1e-3)
        dkk = rates(ok(ep, "historical_rates", date=day, base="EUR", symbols=["DKK"]))["DKK"]
        assert close(dkk, 6.86 / 0.92, rel=1e-3)


def test_rates_back_to_1999_stay_within_plausible_bounds(ep: Episode) -> None:
    for year in range(1999, 2026, 3):
        usd = rates(ok(ep, "historical_rates", date=f"{year}-06-15"))
        for code, anchor in ANCHORS.items():
            assert anchor / 5 < usd[code] < anchor * 5, (year, code)


# -- determinism ------------------------------------------------------------------------------


def test_the_same_call_gives_the_same_answer_in_two_episodes() -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("latest_rates", {"base": "CHF"}),
        ("historical_rates", {"date": "2008-09-15", "base": "GBP"}),
        ("convert", {"amount": 987654321, "from_currency": "BRL", "to_currency": "KRW", "date": "2019-12-31"}),
        ("timeseries", {"start_date": "2024-01-01", "end_date": "2024-12-31", "symbols": ["EUR", "TRY"]}),
        ("fluctuation", {"start_date": "2026-02-01", "end_date": "2026-03-01"}),
    ]
    first, second = Episode(WORLD), Episode(WORLD)
    assert [ok(first, n, **a) for n, a in calls] == [ok(second, n, **a) for n, a in calls]


def test_another_world_has_another_history_but_the_same_anchors(ep: Episode) -> None:
    other = Episode(service_world("fx", seed=11))
    day = "2024-05-06"
    assert rates(ok(ep, "historical_rates", date=day)) != rates(FX.ok(other, "historical_rates", date=day))
    assert rates(FX.ok(other, "latest_rates", symbols=list(ANCHORS))) == ANCHORS


_SCRIPT = """
import json
from compoworld import Catalog, Episode, World
ep = Episode(World.build(Catalog.load(["fx"]), seed=3))
calls = [
    ("fx__latest_rates", {"base": "EUR"}),
    ("fx__historical_rates", {"date": "2001-09-11", "base": "JPY"}),
    ("fx__convert", {"amount": 5000000, "from_currency": "EUR", "to_currency": "ISK", "date": "2012-02-29"}),
    ("fx__timeseries", {"start_date": "2025-12-01", "end_date": "2025-12-31"}),
    ("fx__fluctuation", {"start_date": "2025-01-01", "end_date": "2025-12-31", "symbols": ["GBP", "ZAR"]}),
]
print(json.dumps([ep.call(n, a).to_dict() for n, a in calls], sort_keys=True, ensure_ascii=False))
"""


def test_answers_are_byte_identical_in_processes_with_other_hash_seeds() -> None:
    outputs = []
    for hashseed in ("1", "987654"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=env, check=True)
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert all(r["ok"] for r in json.loads(outputs[0]))


# -- refusals ---------------------------------------------------------------------------------


def test_unknown_currency_codes_are_not_found_with_the_argument_named(ep: Episode) -> None:
    hint_check = refused(ep, "convert", "not_found", "from_currency", amount=1, from_currency="XYZ", to_currency="EUR")
    assert "XYZ" in hint_check
    refused(ep, "convert", "not_found", "to_currency", amount=1, from_currency="EUR", to_currency="ABC")
    refused(ep, "latest_rates", "not_found", "base", base="QQQ")
    refused(ep, "latest_rates", "not_found", "symbols.1", symbols=["EUR", "XXX"])
    refused(ep, "list_currencies", "not_found", "country", country="AQ")


def test_malformed_codes_are_invalid_arguments(ep: Episode) -> None:
    refused(ep, "latest_rates", "invalid_arguments", "base", base="usd")
    refused(ep, "convert", "invalid_arguments", "amount", amount=-5, from_currency="USD", to_currency="EUR")


def test_future_dates_and_dates_before_1999_are_refused(ep: Episode) -> None:
    tomorrow = (TODAY + dt.timedelta(days=1)).isoformat()
    msg = refused(ep, "historical_rates", "rule_violation", "date", date=tomorrow)
    assert "future" in msg
    refused(ep, "convert", "rule_violation", "date", amount=1, from_currency="USD", to_currency="EUR", date=tomorrow)
    refused(ep, "historical_rates", "rule_violation", "date", date="1998-12-31")
    refused(ep, "timeseries", "rule_violation", "end_date", start_date="2026-02-01", end_date=tomorrow)


def test_periods_must_be_ordered_and_not_too_long(ep: Episode) -> None:
    refused(ep, "timeseries", "rule_violation", "end_date", start_date="2026-02-10", end_date="2026-02-01")
    refused(
        ep, "fluctuation", "rule_violation", "end_date", start_date="2024-01-01", end_date="2025-06-01", symbols=["EUR"]
    )
    msg = refused(ep, "timeseries", "rule_violation", "symbols", start_date="2025-12-01", end_date="2026-01-31")
    assert "62 days" in msg
    assert len(ok(ep, "timeseries", start_date="2025-12-01", end_date="2026-01-31", symbols=["EUR"])["days"]) == 62


def test_a_conversion_beyond_the_largest_amount_is_refused(ep: Episode) -> None:
    refused(ep, "convert", "rule_violation", "amount", amount=10**12, from_currency="USD", to_currency="IDR")
