"""Tickerline market data: every world company is listed, and quote, history and overview tell one story."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import subprocess
import sys
from typing import Any

from compoworld import Episode
from compoworld.engine.entities import Company
from compoworld.engine.state import canonical_json
from compoworld.services.information.stocks import EXCHANGES, _quote, is_trading_day, listings, ticker_of
from tests.services.helpers import ServiceTools, service_world

STOCKS = ServiceTools("stocks")
WORLD = STOCKS.world
ok, refused = STOCKS.ok, STOCKS.refused
POP = WORLD.population
NOW = WORLD.epoch  # Monday 2026-03-02 09:00 UTC: Europe trades, New York is in pre-market, Tokyo has closed


def listed(mic_prefix: str = "") -> Company:
    """A world customer company listed on an exchange whose MIC starts with ``mic_prefix``."""
    for company in POP.customers:
        if listings(POP)[ticker_of(POP, company)].exchange.mic.startswith(mic_prefix):
            return company
    raise AssertionError(f"no company listed on {mic_prefix}*")


def us_company() -> Company:
    return next(c for c in POP.customers if c.place.country == "US")


def eu_company() -> Company:
    return next(c for c in POP.customers if c.place.country in ("DE", "FR", "NL", "ES", "IT", "GB", "SE"))


# -- world consistency ----------------------------------------------------------------------------


def test_every_world_company_has_a_unique_ticker_of_one_to_five_capitals_derived_from_its_name() -> None:
    tickers = [ticker_of(POP, c) for c in POP.companies]
    assert len(set(tickers)) == len(POP.companies)
    for company, ticker in zip(POP.companies, tickers, strict=True):
        assert ticker.isalpha() and ticker.isupper() and 1 <= len(ticker) <= 5
        assert ticker[0] == company.name[0].upper()
    # Stable: the same world built again lists the same tickers.
    again = service_world("stocks").population
    assert [ticker_of(again, c) for c in again.companies] == tickers


def test_tickers_stay_unique_in_a_much_larger_world() -> None:
    big = service_world("stocks", seed=11)
    from compoworld.world.population import build_population

    pop = build_population(11, scale=12)
    assert len(listings(pop)) == len(pop.companies) > 300
    assert len(listings(big.population)) == len(big.population.companies)


def test_searching_a_company_name_finds_its_ticker_first_with_a_perfect_score(ep: Episode) -> None:
    for company in POP.customers[:8]:
        best = ok(ep, "search_symbols", keywords=company.name)["best_matches"][0]
        assert best["symbol"] == ticker_of(POP, company)
        assert best["name"] == company.name and best["domain"] == company.domain
        assert best["match_score"] == 1.0


def test_a_company_is_found_by_its_web_domain_its_ticker_or_part_of_its_name(ep: Episode) -> None:
    company = POP.customers[2]
    ticker = ticker_of(POP, company)
    for keywords in (company.domain, ticker, company.name.split()[0].lower()):
        symbols = [m["symbol"] for m in ok(ep, "search_symbols", keywords=keywords)["best_matches"]]
        assert ticker in symbols, keywords


def test_a_search_that_matches_no_listed_company_returns_no_matches(ep: Episode) -> None:
    assert ok(ep, "search_symbols", keywords="Xylophone Quantum Bakery")["best_matches"] == []


def test_the_overview_is_the_worlds_own_record_of_the_company(ep: Episode) -> None:
    company = POP.customers[1]
    ov = ok(ep, "company_overview", symbol=ticker_of(POP, company))
    assert ov["name"] == company.name
    assert ov["domain"] == company.domain
    assert ov["website"] == f"https://www.{company.domain}"
    assert ov["industry"] == company.industry
    assert ov["employees"] == company.employees
    assert ov["address"] == company.address.model_dump()
    assert ov["phone"] == company.phone
    assert ov["country"] == company.place.country
    assert ov["city"] == company.place.city
    assert ov["currency"] == company.place.currency
    people = POP.people_at(company)
    assert ov["officers"] == [{"name": p.name, "title": p.job_title} for p in people]
    assert company.name in ov["description"] and company.place.city in ov["description"]


def test_a_company_trades_on_its_home_countrys_exchange_in_its_currency(ep: Episode) -> None:
    for company in POP.customers:
        q = ok(ep, "quote", symbol=ticker_of(POP, company))
        assert q["currency"] == company.place.currency
        assert EXCHANGES[q["exchange"]].country == company.place.country


# -- one price story --------------------------------------------------------------------------------


def test_a_closed_markets_quote_is_the_last_sessions_bar_of_the_history(ep: Episode) -> None:
    company = us_company()  # New York is in pre-market at 04:00 local
    ticker = ticker_of(POP, company)
    q = ok(ep, "quote", symbol=ticker)
    assert q["market_state"] == "pre_market"
    assert q["latest_trading_day"] == "2026-02-27"  # the Friday before
    bars = ok(ep, "daily_history", symbol=ticker, limit=2)["bars"]
    assert [b["date"] for b in bars] == ["2026-02-27", "2026-02-26"]
    assert (q["price"], q["open"], q["high"], q["low"], q["volume"]) == (
        bars[0]["close"],
        bars[0]["open"],
        bars[0]["high"],
        bars[0]["low"],
        bars[0]["volume"],
    )
    assert q["previous_close"] == bars[1]["close"]
    assert q["change"] == q["price"] - q["previous_close"]
    assert q["change_percent"] == round(100 * q["change"] / q["previous_close"], 4)
    assert q["as_of"] == "2026-02-27T21:00:00Z"  # the 16:00 New York close
    assert ok(ep, "company_overview", symbol=ticker)["latest_close"] == q["price"]


def test_an_open_markets_quote_moves_within_todays_bar_which_the_history_does_not_have_yet(ep: Episode) -> None:
    company = eu_company()
    listing = listings(POP)[ticker_of(POP, company)]
    q = ok(ep, "quote", symbol=listing.ticker)
    assert q["market_state"] == "open" and q["latest_trading_day"] == "2026-03-02"
    assert q["as_of"] == "2026-03-02T09:00:00Z"
    day = listing.bar(dt.date(2026, 3, 2))
    assert day.low <= q["low"] <= q["price"] <= q["high"] <= day.high
    assert q["open"] == day.open and q["volume"] < day.volume
    bars = ok(ep, "daily_history", symbol=listing.ticker, limit=1)["bars"]
    assert bars[0]["date"] == "2026-02-27"
    assert q["previous_close"] == bars[0]["close"]


def test_after_the_close_the_quote_is_todays_finished_bar() -> None:
    listing = listings(POP)[ticker_of(POP, eu_company())]
    evening = dt.datetime(2026, 3, 2, 20, 0, tzinfo=dt.UTC)
    q = _quote(listing, evening)
    bar = listing.bar(dt.date(2026, 3, 2))
    assert q.market_state == "closed"
    assert (q.price, q.high, q.low, q.volume) == (bar.close, bar.high, bar.low, bar.volume)


def test_history_skips_weekends_and_exchange_holidays(ep: Episode) -> None:
    ticker = ticker_of(POP, us_company())
    bars = ok(ep, "daily_history", symbol=ticker, start_date="2025-04-14", end_date="2025-04-22", order="asc")
    dates = [b["date"] for b in bars["bars"]]
    # Good Friday 2025-04-18 and the weekend after it have no session in New York.
    assert dates == ["2025-04-14", "2025-04-15", "2025-04-16", "2025-04-17", "2025-04-21", "2025-04-22"]
    assert not is_trading_day("XNYS", dt.date(2025, 12, 25))
    assert not is_trading_day("XNYS", dt.date(2025, 7, 4))
    assert is_trading_day("XTKS", dt.date(2025, 4, 18))


def test_the_same_days_bar_is_the_same_in_every_range_and_order(ep: Episode) -> None:
    ticker = ticker_of(POP, POP.customers[3])
    wide = ok(ep, "daily_history", symbol=ticker, start_date="2025-01-01", end_date="2026-02-27", limit=5000)
    narrow = ok(ep, "daily_history", symbol=ticker, start_date="2025-06-02", end_date="2025-06-06", order="asc")
    by_date = {b["date"]: b for b in wide["bars"]}
    assert narrow["count"] == 5
    for bar in narrow["bars"]:
        assert by_date[bar["date"]] == bar
    assert wide["bars"] == sorted(wide["bars"], key=lambda b: b["date"], reverse=True)


def test_a_long_range_keeps_the_most_recent_sessions_up_to_the_limit(ep: Episode) -> None:
    ticker = ticker_of(POP, POP.customers[0])
    out = ok(ep, "daily_history", symbol=ticker, start_date="2024-01-01", end_date="2026-02-27", limit=10)
    assert out["count"] == 10 and out["truncated"] is True
    assert out["bars"][0]["date"] == "2026-02-27"


def test_the_overviews_52_week_range_and_averages_come_from_the_daily_closes(ep: Episode) -> None:
    ticker = ticker_of(POP, POP.customers[4])
    ov = ok(ep, "company_overview", symbol=ticker)
    closes = [
        b["close"]
        for b in ok(ep, "daily_history", symbol=ticker, start_date="2025-02-28", end_date="2026-03-02", limit=5000)[
            "bars"
        ]
    ]
    assert ov["week_52_high"] == max(closes) and ov["week_52_low"] == min(closes)
    assert ov["moving_average_50"] == round(sum(closes[:50]) / 50)
    price = ov["latest_close"] / (1 if ov["currency"] == "JPY" else 100)
    assert abs(ov["market_capitalization"] - ov["shares_outstanding"] * price) <= 1


# -- value ranges ------------------------------------------------------------------------------------


def test_bars_are_well_formed_and_daily_moves_stay_realistic(ep: Episode) -> None:
    for company in POP.customers[:10]:
        ticker = ticker_of(POP, company)
        bars = ok(ep, "daily_history", symbol=ticker, start_date="2024-06-01", limit=250, order="asc")["bars"]
        assert len(bars) == 250
        for prev, bar in itertools.pairwise(bars):
            assert 0 < bar["low"] <= min(bar["open"], bar["close"]) <= max(bar["open"], bar["close"]) <= bar["high"]
            assert bar["volume"] > 0
            assert abs(bar["close"] / prev["close"] - 1) < 0.2
        first, last = bars[0]["close"], bars[-1]["close"]
        assert 0.2 < last / first < 5


def test_share_prices_sit_in_a_realistic_range_for_their_currency(ep: Episode) -> None:
    per_usd = {"USD": 1, "EUR": 0.92, "GBP": 0.79, "SEK": 10.5, "CAD": 1.36, "JPY": 150, "SGD": 1.34, "AUD": 1.52}
    for company in POP.companies:
        q = ok(ep, "quote", symbol=ticker_of(POP, company))
        scale = 1 if q["currency"] == "JPY" else 100
        usd = q["price"] / scale / per_usd.get(q["currency"], 5.0)
        assert 0.1 < usd < 3000, (company.name, q)


def test_market_status_knows_which_exchanges_trade_at_the_worlds_time(ep: Episode) -> None:
    out = ok(ep, "market_status")
    assert out["server_time"] == "2026-03-02T09:00:00Z"
    by_mic = {m["exchange"]: m for m in out["markets"]}
    assert set(by_mic) == set(EXCHANGES)
    assert by_mic["XETR"]["market_state"] == "open"
    assert by_mic["XLON"]["market_state"] == "open"
    assert by_mic["XNAS"]["market_state"] == "pre_market"
    assert by_mic["XTKS"]["market_state"] == "closed"
    nas = by_mic["XNAS"]
    assert nas["session_open"] == "2026-03-02T14:30:00Z" and nas["next_open"] == "2026-03-02T14:30:00Z"
    assert nas["next_close"] == "2026-03-02T21:00:00Z"
    assert by_mic["XETR"]["next_open"] == "2026-03-03T08:00:00Z"
    assert by_mic["XTKS"]["local_time"] == "2026-03-02T18:00:00+09:00"
    assert sum(m["listed_companies"] for m in out["markets"]) == len(POP.companies)
    one = ok(ep, "market_status", exchange="XLON")["markets"]
    assert one == [by_mic["XLON"]]


def test_top_movers_rank_the_quotes_of_the_listed_stocks(ep: Episode) -> None:
    out = ok(ep, "top_movers", limit=3)
    gains = [m["change_percent"] for m in out["top_gainers"]]
    losses = [m["change_percent"] for m in out["top_losers"]]
    assert gains == sorted(gains, reverse=True) and all(g > 0 for g in gains)
    assert losses == sorted(losses) and all(x < 0 for x in losses)
    for mover in out["top_gainers"] + out["top_losers"] + out["most_actively_traded"]:
        q = ok(ep, "quote", symbol=mover["symbol"])
        assert (mover["price"], mover["change_percent"], mover["volume"]) == (
            q["price"],
            q["change_percent"],
            q["volume"],
        )
    mic = ok(ep, "quote", symbol=out["most_actively_traded"][0]["symbol"])["exchange"]
    only = ok(ep, "top_movers", exchange=mic, limit=20)
    assert all(m["exchange"] == mic for m in only["most_actively_traded"])


# -- determinism ------------------------------------------------------------------------------------


def test_the_same_calls_give_the_same_answers_in_two_episodes() -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("quote", {"symbol": ticker_of(POP, POP.customers[5])}),
        ("daily_history", {"symbol": ticker_of(POP, POP.customers[5]), "limit": 30}),
        ("company_overview", {"symbol": ticker_of(POP, POP.customers[6])}),
        ("top_movers", {}),
    ]
    first, second = Episode(WORLD), Episode(WORLD, seed=99)
    for tool, args in calls:
        assert ok(first, tool, **args) == ok(second, tool, **args)


def test_another_world_seed_lists_other_prices() -> None:
    other = service_world("stocks", seed=4)
    a = ok(Episode(WORLD), "quote", symbol=ticker_of(POP, POP.home))["price"]
    b = ok(Episode(other), "quote", symbol=ticker_of(other.population, other.population.home))["price"]
    assert a != b


_SCRIPT = """
import json
from compoworld import Episode
from tests.services.helpers import service_world
from compoworld.services.information.stocks import ticker_of
from compoworld.engine.state import canonical_json
w = service_world("stocks")
ep = Episode(w)
t = ticker_of(w.population, w.population.customers[7])
out = [ep.call("stocks__" + n, a).to_dict() for n, a in (
    ("quote", {"symbol": t}),
    ("daily_history", {"symbol": t, "limit": 20}),
    ("company_overview", {"symbol": t}),
    ("search_symbols", {"keywords": w.population.customers[7].name.split()[0]}),
    ("top_movers", {"limit": 4}),
)]
print(canonical_json(out))
"""


def test_results_are_byte_identical_in_a_process_with_another_hash_seed() -> None:
    ep = Episode(WORLD)
    t = ticker_of(POP, POP.customers[7])
    here = [
        ep.call("stocks__" + n, a).to_dict()
        for n, a in (
            ("quote", {"symbol": t}),
            ("daily_history", {"symbol": t, "limit": 20}),
            ("company_overview", {"symbol": t}),
            ("search_symbols", {"keywords": POP.customers[7].name.split()[0]}),
            ("top_movers", {"limit": 4}),
        )
    ]
    env = dict(os.environ, PYTHONHASHSEED="12345")
    proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, env=env, check=True)
    assert proc.stdout.strip() == canonical_json(here)
    assert all(r["ok"] for r in json.loads(proc.stdout))


# -- refusals ---------------------------------------------------------------------------------------


def test_an_unknown_ticker_is_not_found_with_a_hint_to_search(ep: Episode) -> None:
    taken = set(listings(POP))
    unknown = next(t for t in ("ZZZZ", "QQQQQ", "XYZ") if t not in taken)
    for tool in ("quote", "company_overview", "daily_history"):
        msg = refused(ep, tool, "not_found", "symbol", symbol=unknown)
        assert unknown in msg


def test_a_ticker_in_lower_case_or_too_long_is_an_invalid_argument(ep: Episode) -> None:
    refused(ep, "quote", "invalid_arguments", "symbol", symbol="abcd")
    refused(ep, "quote", "invalid_arguments", "symbol", symbol="ABCDEFG")


def test_history_into_the_future_is_refused(ep: Episode) -> None:
    ticker = ticker_of(POP, POP.customers[0])
    refused(ep, "daily_history", "rule_violation", "end_date", symbol=ticker, end_date="2026-03-10")


def test_history_with_a_start_after_its_end_is_refused(ep: Episode) -> None:
    ticker = ticker_of(POP, POP.customers[0])
    refused(
        ep,
        "daily_history",
        "rule_violation",
        "start_date",
        symbol=ticker,
        start_date="2026-02-10",
        end_date="2026-02-01",
    )


def test_history_from_before_the_listing_is_refused_with_the_first_trading_day(ep: Episode) -> None:
    ticker = ticker_of(POP, POP.customers[0])
    ipo = ok(ep, "company_overview", symbol=ticker)["ipo_date"]
    msg = refused(ep, "daily_history", "rule_violation", "end_date", symbol=ticker, end_date="2002-12-31")
    assert ipo in msg
    # A range that starts before the listing simply begins on the first trading day.
    first = dt.date.fromisoformat(ipo)
    out = ok(ep, "daily_history", symbol=ticker, start_date="2002-01-01", end_date=str(first + dt.timedelta(days=10)))
    assert out["bars"][-1]["date"] == ipo


def test_keywords_without_letters_or_digits_are_refused(ep: Episode) -> None:
    refused(ep, "search_symbols", "rule_violation", "keywords", keywords="!!!")
    refused(ep, "search_symbols", "invalid_arguments", "keywords", keywords="   ")


def test_an_unknown_exchange_code_is_an_invalid_argument(ep: Episode) -> None:
    refused(ep, "market_status", "invalid_arguments", "exchange", exchange="XXXX")
