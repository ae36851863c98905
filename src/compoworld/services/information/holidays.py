"""Daybook Holidays: public holidays by country and year, long weekends, working days, and company calendars.

Modeled on the Nager.Date API v3 (``PublicHolidays/{year}/{country}``, ``IsTodayPublicHoliday``,
``NextPublicHolidays``, ``LongWeekend/{year}/{country}``, ``AvailableCountries``) and Calendarific
(``holidays`` with types, working-day arithmetic).

The public holidays are an open world answered by the real rules, not by chance: fixed dates,
Easter-based feasts (the Gregorian computus), nth-weekday holidays, Japan's equinox days and the
substitute days off that each country grants when a holiday falls on a weekend (US observed days,
UK and Australian substitute days, Japan's furikae kyujitsu, Singapore's Monday). Singapore's lunar,
Islamic and Hindu holidays come from a table for 2024-2027. National holidays only; regional ones
are left out. A long weekend is three or more days off in a row built from a holiday and a weekend,
possibly across one bridge day.

Company holiday calendars are the service's own records: a calendar follows one country's public
holidays and adds company days off (never on a weekend or a public holiday), at most three bridge
days a year; employees subscribe to it; due dates and working days are counted on it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Country, Date, DateTime, Email, IdOf, PersonName, Title, Url
from compoworld.services.kit.records import Created
from compoworld.world.geo import COUNTRY_NAMES

__all__ = ["service"]

service = Service(
    "holidays",
    title="Daybook Holidays",
    category="calendar",
    modeled_on="Nager.Date API v3 (PublicHolidays, IsTodayPublicHoliday, NextPublicHolidays, LongWeekend, "
    "AvailableCountries) and Calendarific (holiday types, working days)",
    description="Public holidays of 17 countries by year with substitute days off, is-it-a-holiday checks, "
    "upcoming holidays, long weekends with bridge days and working-day arithmetic, plus company holiday "
    "calendars with their own days off and subscribers.",
)

CalendarId = Annotated[str, IdOf("holidays.calendar")]
CompanyDayId = Annotated[str, IdOf("holidays.company_day")]
SubscriberId = Annotated[str, IdOf("holidays.subscriber")]
Year = Annotated[int, Field(ge=1990, le=2099)]
HolidayType = Literal["public", "observance"]
DayKind = Literal["company_day", "bridge_day", "closure"]

BRIDGE_DAYS_PER_YEAR = 3
MAX_SPAN_DAYS = 3660

COUNTRIES: dict[str, str] = {
    code: COUNTRY_NAMES[code]
    for code in ["AT", "AU", "BE", "BR", "CA", "CH", "DE", "ES", "FR", "GB", "IE", "IT", "JP", "NL", "SE", "SG", "US"]
}
"""The countries whose public holidays are known, by ISO code, with their names."""


@dataclass(frozen=True, slots=True)
class _Day:
    date: dt.date
    name: str
    local_name: str
    kind: HolidayType
    observed_on: dt.date | None


def easter(year: int) -> dt.date:
    """Easter Sunday (anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month = (h + ell - 7 * m + 114) // 31
    day = (h + ell - 7 * m + 114) % 31 + 1
    return dt.date(year, month, day)


def _nth(year: int, month: int, weekday: int, n: int) -> dt.date:
    """The n-th weekday (0 = Monday) of a month; n = -1 for the last."""
    if n > 0:
        first = dt.date(year, month, 1)
        return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    last = nxt - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def _d(year: int, month: int, day: int) -> dt.date:
    return dt.date(year, month, day)


_SG_TABLE: dict[int, tuple[tuple[str, str, int, int], ...]] = {
    2024: (("Hari Raya Puasa", "Hari Raya Puasa", 4, 10), ("Vesak Day", "Vesak Day", 5, 22),
           ("Hari Raya Haji", "Hari Raya Haji", 6, 17), ("Deepavali", "Deepavali", 10, 31)),
    2025: (("Hari Raya Puasa", "Hari Raya Puasa", 3, 31), ("Vesak Day", "Vesak Day", 5, 12),
           ("Hari Raya Haji", "Hari Raya Haji", 6, 7), ("Deepavali", "Deepavali", 10, 20)),
    2026: (("Hari Raya Puasa", "Hari Raya Puasa", 3, 21), ("Vesak Day", "Vesak Day", 5, 31),
           ("Hari Raya Haji", "Hari Raya Haji", 5, 27), ("Deepavali", "Deepavali", 11, 8)),
    2027: (("Hari Raya Puasa", "Hari Raya Puasa", 3, 10), ("Vesak Day", "Vesak Day", 5, 20),
           ("Hari Raya Haji", "Hari Raya Haji", 5, 17), ("Deepavali", "Deepavali", 10, 28)),
}  # fmt: skip
_LUNAR_NEW_YEAR: dict[int, tuple[int, int]] = {
    2020: (1, 25), 2021: (2, 12), 2022: (2, 1), 2023: (1, 22), 2024: (2, 10), 2025: (1, 29),
    2026: (2, 17), 2027: (2, 6), 2028: (1, 26), 2029: (2, 13), 2030: (2, 3),
}  # fmt: skip


def _raw(country: str, y: int) -> list[tuple[dt.date, str, str, HolidayType]]:
    """The holidays of a year by their actual dates: (date, English name, local name, type)."""
    e = easter(y)

    def ed(n: int) -> dt.date:
        return e + dt.timedelta(days=n)

    ny = (_d(y, 1, 1), "New Year's Day")
    xmas = (_d(y, 12, 25), "Christmas Day")
    rows: list[tuple[dt.date, str, str]]
    if country == "DE":
        rows = [(ny[0], ny[1], "Neujahr"), (ed(-2), "Good Friday", "Karfreitag"), (ed(1), "Easter Monday", "Ostermontag"),
                (_d(y, 5, 1), "Labour Day", "Tag der Arbeit"), (ed(39), "Ascension Day", "Christi Himmelfahrt"),
                (ed(50), "Whit Monday", "Pfingstmontag"), (_d(y, 10, 3), "German Unity Day", "Tag der Deutschen Einheit"),
                (xmas[0], xmas[1], "Erster Weihnachtstag"), (_d(y, 12, 26), "St. Stephen's Day", "Zweiter Weihnachtstag")]  # fmt: skip
    elif country == "AT":
        rows = [(ny[0], ny[1], "Neujahr"), (_d(y, 1, 6), "Epiphany", "Heilige Drei Könige"),
                (ed(1), "Easter Monday", "Ostermontag"), (_d(y, 5, 1), "National Holiday", "Staatsfeiertag"),
                (ed(39), "Ascension Day", "Christi Himmelfahrt"), (ed(50), "Whit Monday", "Pfingstmontag"),
                (ed(60), "Corpus Christi", "Fronleichnam"), (_d(y, 8, 15), "Assumption Day", "Maria Himmelfahrt"),
                (_d(y, 10, 26), "National Holiday", "Nationalfeiertag"), (_d(y, 11, 1), "All Saints' Day", "Allerheiligen"),
                (_d(y, 12, 8), "Immaculate Conception", "Maria Empfängnis"), (xmas[0], xmas[1], "Christtag"),
                (_d(y, 12, 26), "St. Stephen's Day", "Stefanitag")]  # fmt: skip
    elif country == "CH":
        rows = [(ny[0], ny[1], "Neujahr"), (ed(-2), "Good Friday", "Karfreitag"), (ed(1), "Easter Monday", "Ostermontag"),
                (ed(39), "Ascension Day", "Auffahrt"), (ed(50), "Whit Monday", "Pfingstmontag"),
                (_d(y, 8, 1), "Swiss National Day", "Bundesfeier"), (xmas[0], xmas[1], "Weihnachten"),
                (_d(y, 12, 26), "St. Stephen's Day", "Stephanstag")]  # fmt: skip
    elif country == "FR":
        rows = [(ny[0], ny[1], "Jour de l'an"), (ed(1), "Easter Monday", "Lundi de Pâques"),
                (_d(y, 5, 1), "Labour Day", "Fête du Travail"), (_d(y, 5, 8), "Victory in Europe Day", "Victoire 1945"),
                (ed(39), "Ascension Day", "Ascension"), (ed(50), "Whit Monday", "Lundi de Pentecôte"),
                (_d(y, 7, 14), "Bastille Day", "Fête nationale"), (_d(y, 8, 15), "Assumption Day", "Assomption"),
                (_d(y, 11, 1), "All Saints' Day", "Toussaint"), (_d(y, 11, 11), "Armistice Day", "Armistice 1918"),
                (xmas[0], xmas[1], "Noël")]  # fmt: skip
    elif country == "BE":
        rows = [(ny[0], ny[1], "Nieuwjaar"), (ed(1), "Easter Monday", "Paasmaandag"), (_d(y, 5, 1), "Labour Day", "Dag van de Arbeid"),
                (ed(39), "Ascension Day", "O.L.H. Hemelvaart"), (ed(50), "Whit Monday", "Pinkstermaandag"),
                (_d(y, 7, 21), "Belgian National Day", "Nationale feestdag"), (_d(y, 8, 15), "Assumption Day", "O.L.V. Hemelvaart"),
                (_d(y, 11, 1), "All Saints' Day", "Allerheiligen"), (_d(y, 11, 11), "Armistice Day", "Wapenstilstand"),
                (xmas[0], xmas[1], "Kerstmis")]  # fmt: skip
    elif country == "NL":
        kings = _d(y, 4, 27) if _d(y, 4, 27).weekday() != 6 else _d(y, 4, 26)
        rows = [(ny[0], ny[1], "Nieuwjaarsdag"), (ed(0), "Easter Sunday", "Eerste Paasdag"), (ed(1), "Easter Monday", "Tweede Paasdag"),
                (kings, "King's Day", "Koningsdag"), (_d(y, 5, 5), "Liberation Day", "Bevrijdingsdag"),
                (ed(39), "Ascension Day", "Hemelvaartsdag"), (ed(49), "Whit Sunday", "Eerste Pinksterdag"),
                (ed(50), "Whit Monday", "Tweede Pinksterdag"), (xmas[0], xmas[1], "Eerste Kerstdag"),
                (_d(y, 12, 26), "St. Stephen's Day", "Tweede Kerstdag")]  # fmt: skip
    elif country == "ES":
        rows = [(ny[0], ny[1], "Año Nuevo"), (_d(y, 1, 6), "Epiphany", "Día de Reyes"), (ed(-2), "Good Friday", "Viernes Santo"),
                (_d(y, 5, 1), "Labour Day", "Fiesta del trabajo"), (_d(y, 8, 15), "Assumption", "Asunción"),
                (_d(y, 10, 12), "National Day", "Fiesta Nacional de España"), (_d(y, 11, 1), "All Saints' Day", "Todos los Santos"),
                (_d(y, 12, 6), "Constitution Day", "Día de la Constitución"), (_d(y, 12, 8), "Immaculate Conception", "Inmaculada Concepción"),
                (xmas[0], xmas[1], "Navidad")]  # fmt: skip
    elif country == "IT":
        rows = [(ny[0], ny[1], "Capodanno"), (_d(y, 1, 6), "Epiphany", "Epifania"), (ed(0), "Easter Sunday", "Pasqua"),
                (ed(1), "Easter Monday", "Pasquetta"), (_d(y, 4, 25), "Liberation Day", "Festa della Liberazione"),
                (_d(y, 5, 1), "Labour Day", "Festa del Lavoro"), (_d(y, 6, 2), "Republic Day", "Festa della Repubblica"),
                (_d(y, 8, 15), "Assumption Day", "Ferragosto"), (_d(y, 11, 1), "All Saints' Day", "Tutti i santi"),
                (_d(y, 12, 8), "Immaculate Conception", "Immacolata Concezione"), (xmas[0], xmas[1], "Natale"),
                (_d(y, 12, 26), "St. Stephen's Day", "Santo Stefano")]  # fmt: skip
    elif country == "SE":
        midsummer_eve = _d(y, 6, 19) + dt.timedelta(days=(4 - _d(y, 6, 19).weekday()) % 7)
        all_saints = _d(y, 10, 31) + dt.timedelta(days=(5 - _d(y, 10, 31).weekday()) % 7)
        rows = [(ny[0], ny[1], "Nyårsdagen"), (_d(y, 1, 6), "Epiphany", "Trettondedag jul"), (ed(-2), "Good Friday", "Långfredagen"),
                (ed(1), "Easter Monday", "Annandag påsk"), (_d(y, 5, 1), "International Workers' Day", "Första maj"),
                (ed(39), "Ascension Day", "Kristi himmelsfärdsdag"), (_d(y, 6, 6), "National Day of Sweden", "Sveriges nationaldag"),
                (midsummer_eve, "Midsummer Eve", "Midsommarafton"), (midsummer_eve + dt.timedelta(days=1), "Midsummer Day", "Midsommardagen"),
                (all_saints, "All Saints' Day", "Alla helgons dag"), (_d(y, 12, 24), "Christmas Eve", "Julafton"),
                (xmas[0], xmas[1], "Juldagen"), (_d(y, 12, 26), "St. Stephen's Day", "Annandag jul"),
                (_d(y, 12, 31), "New Year's Eve", "Nyårsafton")]  # fmt: skip
    elif country == "GB":
        rows = [(ny[0], ny[1], ny[1]), (ed(-2), "Good Friday", "Good Friday"), (ed(1), "Easter Monday", "Easter Monday"),
                (_nth(y, 5, 0, 1), "Early May Bank Holiday", "Early May Bank Holiday"),
                (_nth(y, 5, 0, -1), "Spring Bank Holiday", "Spring Bank Holiday"),
                (_nth(y, 8, 0, -1), "Summer Bank Holiday", "Summer Bank Holiday"),
                (xmas[0], xmas[1], xmas[1]), (_d(y, 12, 26), "Boxing Day", "Boxing Day")]  # fmt: skip
    elif country == "IE":
        brigid = _nth(y, 2, 0, 1) if _d(y, 2, 1).weekday() != 4 else _d(y, 2, 1)
        rows = [(ny[0], ny[1], "Lá Caille"), (brigid, "Saint Brigid's Day", "Lá Fhéile Bríde"),
                (_d(y, 3, 17), "Saint Patrick's Day", "Lá Fhéile Pádraig"), (ed(1), "Easter Monday", "Luan Cásca"),
                (_nth(y, 5, 0, 1), "May Day", "Lá Bealtaine"), (_nth(y, 6, 0, 1), "June Holiday", "Lá Saoire i mí Mheithimh"),
                (_nth(y, 8, 0, 1), "August Holiday", "Lá Saoire i mí Lúnasa"),
                (_nth(y, 10, 0, -1), "October Holiday", "Lá Saoire i mí Dheireadh Fómhair"),
                (xmas[0], xmas[1], "Lá Nollag"), (_d(y, 12, 26), "St. Stephen's Day", "Lá Fhéile Stiofáin")]  # fmt: skip
    elif country == "US":
        rows = [(ny[0], ny[1], ny[1]), (_nth(y, 1, 0, 3), "Martin Luther King, Jr. Day", "Martin Luther King, Jr. Day"),
                (_nth(y, 2, 0, 3), "Washington's Birthday", "Presidents Day"), (_nth(y, 5, 0, -1), "Memorial Day", "Memorial Day"),
                (_d(y, 7, 4), "Independence Day", "Independence Day"), (_nth(y, 9, 0, 1), "Labor Day", "Labour Day"),
                (_nth(y, 10, 0, 2), "Columbus Day", "Columbus Day"), (_d(y, 11, 11), "Veterans Day", "Veterans Day"),
                (_nth(y, 11, 3, 4), "Thanksgiving Day", "Thanksgiving"), (xmas[0], xmas[1], xmas[1])]  # fmt: skip
        if y >= 2021:
            rows.append((_d(y, 6, 19), "Juneteenth National Independence Day", "Juneteenth"))
    elif country == "CA":
        victoria = _d(y, 5, 24) - dt.timedelta(days=_d(y, 5, 24).weekday())
        rows = [(ny[0], ny[1], "Jour de l'an"), (ed(-2), "Good Friday", "Vendredi saint"), (victoria, "Victoria Day", "Fête de la Reine"),
                (_d(y, 7, 1), "Canada Day", "Fête du Canada"), (_nth(y, 9, 0, 1), "Labour Day", "Fête du travail"),
                (_nth(y, 10, 0, 2), "Thanksgiving", "Action de grâce"), (_d(y, 11, 11), "Remembrance Day", "Jour du Souvenir"),
                (xmas[0], xmas[1], "Noël"), (_d(y, 12, 26), "Boxing Day", "Lendemain de Noël")]  # fmt: skip
        if y >= 2021:
            rows.append(
                (
                    _d(y, 9, 30),
                    "National Day for Truth and Reconciliation",
                    "Journée nationale de la vérité et de la réconciliation",
                )
            )
    elif country == "AU":
        rows = [(ny[0], ny[1], ny[1]), (_d(y, 1, 26), "Australia Day", "Australia Day"), (ed(-2), "Good Friday", "Good Friday"),
                (ed(-1), "Easter Saturday", "Easter Saturday"), (ed(1), "Easter Monday", "Easter Monday"),
                (_d(y, 4, 25), "Anzac Day", "Anzac Day"), (_nth(y, 6, 0, 2), "King's Birthday", "King's Birthday"),
                (xmas[0], xmas[1], xmas[1]), (_d(y, 12, 26), "Boxing Day", "Boxing Day")]  # fmt: skip
    elif country == "BR":
        rows = [(ny[0], "New Year's Day", "Confraternização Universal"), (ed(-48), "Carnival", "Carnaval"),
                (ed(-47), "Carnival", "Carnaval"), (ed(-2), "Good Friday", "Sexta-feira Santa"),
                (_d(y, 4, 21), "Tiradentes", "Dia de Tiradentes"), (_d(y, 5, 1), "Labour Day", "Dia do Trabalhador"),
                (ed(60), "Corpus Christi", "Corpus Christi"), (_d(y, 9, 7), "Independence Day", "Dia da Independência"),
                (_d(y, 10, 12), "Our Lady of Aparecida", "Nossa Senhora Aparecida"), (_d(y, 11, 2), "All Souls' Day", "Finados"),
                (_d(y, 11, 15), "Republic Proclamation Day", "Proclamação da República"), (xmas[0], xmas[1], "Natal")]  # fmt: skip
        if y >= 2024:
            rows.append((_d(y, 11, 20), "Black Awareness Day", "Dia Nacional de Zumbi e da Consciência Negra"))
    elif country == "JP":
        k = y - 1980
        vernal = _d(y, 3, int(20.8431 + 0.242194 * k - k // 4))
        autumnal = _d(y, 9, int(23.2488 + 0.242194 * k - k // 4))
        rows = [(ny[0], ny[1], "元日"), (_nth(y, 1, 0, 2), "Coming of Age Day", "成人の日"),
                (_d(y, 2, 11), "Foundation Day", "建国記念の日"), (_d(y, 2, 23), "The Emperor's Birthday", "天皇誕生日"),
                (vernal, "Vernal Equinox Day", "春分の日"), (_d(y, 4, 29), "Shōwa Day", "昭和の日"),
                (_d(y, 5, 3), "Constitution Memorial Day", "憲法記念日"), (_d(y, 5, 4), "Greenery Day", "みどりの日"),
                (_d(y, 5, 5), "Children's Day", "こどもの日"), (_nth(y, 7, 0, 3), "Marine Day", "海の日"),
                (_d(y, 8, 11), "Mountain Day", "山の日"), (_nth(y, 9, 0, 3), "Respect for the Aged Day", "敬老の日"),
                (autumnal, "Autumnal Equinox Day", "秋分の日"), (_nth(y, 10, 0, 2), "Sports Day", "スポーツの日"),
                (_d(y, 11, 3), "Culture Day", "文化の日"), (_d(y, 11, 23), "Labour Thanksgiving Day", "勤労感謝の日")]  # fmt: skip
        dates = {r[0] for r in rows}
        # A day between two national holidays is a holiday too (kokumin no kyujitsu).
        rows += [
            (d + dt.timedelta(days=1), "Citizens' Holiday", "国民の休日")
            for d in sorted(dates)
            if d + dt.timedelta(days=2) in dates
            and d + dt.timedelta(days=1) not in dates
            and (d + dt.timedelta(days=1)).weekday() != 6
        ]
    elif country == "SG":
        rows = [(ny[0], ny[1], ny[1]), (ed(-2), "Good Friday", "Good Friday"), (_d(y, 5, 1), "Labour Day", "Labour Day"),
                (_d(y, 8, 9), "National Day", "National Day"), (xmas[0], xmas[1], xmas[1])]  # fmt: skip
        if y in _LUNAR_NEW_YEAR:
            first = _d(y, *_LUNAR_NEW_YEAR[y])
            rows += [(first, "Chinese New Year", "Chinese New Year"),
                     (first + dt.timedelta(days=1), "Chinese New Year", "Chinese New Year")]  # fmt: skip
        rows += [(_d(y, mo, da), name, local) for name, local, mo, da in _SG_TABLE.get(y, ())]
    else:  # pragma: no cover - guarded by _country
        rows = []
    observance = {("NL", "Easter Sunday"), ("NL", "Whit Sunday"), ("IT", "Easter Sunday"), ("SE", "Midsummer Eve"),
                  ("SE", "Christmas Eve"), ("SE", "New Year's Eve"), ("CA", "Remembrance Day")}  # fmt: skip
    return sorted(
        (day, name, local, "observance" if (country, name) in observance else "public") for day, name, local in rows
    )


def _substitutes(country: str, rows: list[tuple[dt.date, str, str, HolidayType]]) -> list[dt.date | None]:
    """The day off each holiday gives (None when it falls on a weekend without a substitute)."""
    taken = {d for d, _, _, k in rows if k == "public" and d.weekday() < 5}
    out: list[dt.date | None] = []
    for day, _name, _local, kind in rows:
        if kind != "public":
            out.append(None)
            continue
        wd = day.weekday()
        if wd < 5 or (country == "JP" and wd == 5) or (country == "AU" and _name == "Easter Saturday"):
            out.append(day if wd < 5 else None)
            continue
        sub: dt.date | None = None
        if country == "US":
            sub = day - dt.timedelta(days=1) if wd == 5 else day + dt.timedelta(days=1)
        elif country in ("GB", "AU", "IE", "CA") or (country in ("JP", "SG") and wd == 6):
            sub = day + dt.timedelta(days=7 - wd)
            while sub in taken or sub.weekday() >= 5:
                sub += dt.timedelta(days=1)
        if sub is not None:
            taken.add(sub)
        out.append(sub)
    return out


@lru_cache(maxsize=2048)
def holidays_of(country: str, year: int) -> tuple[_Day, ...]:
    """The public holidays and observances of a country in a year, with the day off each gives."""
    rows = _raw(country, year)
    subs = _substitutes(country, rows)
    return tuple(_Day(day, name, local, kind, sub) for (day, name, local, kind), sub in zip(rows, subs, strict=True))


def days_off(country: str, year: int) -> frozenset[dt.date]:
    """Weekdays off work for public holidays (substitute days included)."""
    return frozenset(h.observed_on for h in holidays_of(country, year) if h.observed_on is not None)


def _off(country: str, day: dt.date, extra: frozenset[dt.date] = frozenset()) -> bool:
    return day.weekday() >= 5 or day in days_off(country, day.year) or day in extra


def _country(code: str, field: str = "country") -> str:
    if code not in COUNTRIES:
        raise NotFound(
            f"no holiday data for {code}",
            field=field,
            hint="supported countries: " + ", ".join(sorted(COUNTRIES)),
        )
    return code


# -- open-world tools ------------------------------------------------------------------------------------


class PublicHoliday(BaseModel):
    """A public holiday or observance (Nager.Date PublicHoliday)."""

    date: Date = Field(description="Date of the holiday.")
    local_name: str = Field(description="Name in the country's language.")
    name: str = Field(description="English name.")
    country: Country = Field(description="ISO country code.")
    type: HolidayType = Field(description="public (a day off) or observance (no day off).")
    observed_on: Date | None = Field(
        description="Weekday taken off for it (a substitute day when it falls on a weekend); null for none."
    )


def _public(country: str, h: _Day) -> PublicHoliday:
    return PublicHoliday(
        date=h.date, local_name=h.local_name, name=h.name, country=country, type=h.kind, observed_on=h.observed_on
    )


def _example_year(ctx: Ctx) -> dict[str, Any]:
    return {"year": ctx.today().year, "country": ctx.population.home.place.country}


@service.tool(intent="list the public holidays of the country", open_world=True, example=_example_year)
def public_holidays(ctx: Ctx, year: Year, country: Country) -> list[PublicHoliday]:
    """List a country's national public holidays and observances of a year, with substitute days off.

    Args:
        year: The year.
        country: ISO 3166-1 alpha-2 code.
    """
    code = _country(country)
    return [_public(code, h) for h in holidays_of(code, year)]


class HolidayCheck(BaseModel):
    """Whether a date is a public holiday."""

    date: Date = Field(description="The date checked.")
    country: Country = Field(description="The country.")
    is_public_holiday: bool = Field(description="Whether it is a public holiday (or its substitute day off).")
    is_working_day: bool = Field(description="Whether it is a weekday that is not a day off.")
    holidays: list[PublicHoliday] = Field(description="Holidays on that date or taken off on it.")


def _example_country(ctx: Ctx) -> dict[str, Any]:
    return {"country": ctx.population.home.place.country}


@service.tool(intent="check whether the day is a public holiday", open_world=True, example=_example_country)
def is_public_holiday(ctx: Ctx, country: Country, date: Date | None = None) -> HolidayCheck:
    """Tell whether a date (default today) is a public holiday or a substitute day off in a country.

    Args:
        country: ISO code.
        date: The date; omit for today.
    """
    code = _country(country)
    day = date or ctx.today()
    found = [h for h in holidays_of(code, day.year) if h.kind == "public" and (h.date == day or h.observed_on == day)]
    return HolidayCheck(
        date=day,
        country=code,
        is_public_holiday=bool(found),
        is_working_day=not _off(code, day),
        holidays=[_public(code, h) for h in found],
    )


@service.tool(intent="see the next public holidays", open_world=True, example=_example_country)
def next_public_holidays(
    ctx: Ctx, country: Country, count: Annotated[int, Field(ge=1, le=30)] = 5
) -> list[PublicHoliday]:
    """List the next public holidays (days off) of a country from today on.

    Args:
        country: ISO code.
        count: How many.
    """
    code = _country(country)
    today = ctx.today()
    out: list[PublicHoliday] = []
    for year in range(today.year, today.year + 3):
        for h in holidays_of(code, year):
            if h.kind == "public" and h.date >= today and len(out) < count:
                out.append(_public(code, h))
    return out


class LongWeekend(BaseModel):
    """Consecutive days off built from holidays and a weekend (Nager.Date LongWeekend)."""

    start: Date = Field(description="First day off.")
    end: Date = Field(description="Last day off.")
    day_count: int = Field(description="Days off in a row.")
    need_bridge_day: bool = Field(description="Whether one working day must be taken off to get it.")
    bridge_days: list[Date] = Field(description="The working days to take off.")
    holidays: list[str] = Field(description="Names of the holidays in it.")


def _long_weekends(code: str, year: int, extra: frozenset[dt.date] = frozenset()) -> list[LongWeekend]:
    first, last = dt.date(year, 1, 1), dt.date(year, 12, 31)
    names: dict[dt.date, list[str]] = {}
    for h in holidays_of(code, year):
        if h.observed_on is not None:
            names.setdefault(h.observed_on, []).append(h.name)
    off = {first + dt.timedelta(days=k) for k in range((last - first).days + 1)}
    off = {d for d in off if _off(code, d, extra)}
    # Runs of days off, allowing one working day inside (a bridge) between two runs.
    out: list[LongWeekend] = []
    ordered = sorted(off)
    runs: list[list[dt.date]] = []
    for d in ordered:
        if runs and (d - runs[-1][-1]).days == 1:
            runs[-1].append(d)
        else:
            runs.append([d])
    seen: set[tuple[dt.date, dt.date]] = set()
    for i, run in enumerate(runs):
        holiday_in = [d for d in run if d in names]
        if len(run) >= 3 and holiday_in:
            key = (run[0], run[-1])
            if key not in seen:
                seen.add(key)
                out.append(
                    LongWeekend(
                        start=run[0],
                        end=run[-1],
                        day_count=len(run),
                        need_bridge_day=False,
                        bridge_days=[],
                        holidays=[n for d in holiday_in for n in names[d]],
                    )
                )
        if i + 1 < len(runs):
            nxt = runs[i + 1]
            gap = (nxt[0] - run[-1]).days - 1
            merged = [*run, *nxt]
            if gap == 1 and any(d in names for d in merged):
                bridge = run[-1] + dt.timedelta(days=1)
                out.append(
                    LongWeekend(
                        start=run[0],
                        end=nxt[-1],
                        day_count=len(merged) + 1,
                        need_bridge_day=True,
                        bridge_days=[bridge],
                        holidays=[n for d in merged if d in names for n in names[d]],
                    )
                )
    out.sort(key=lambda w: (w.start, w.end))
    return out


@service.tool(intent="find the long weekends of the year", open_world=True, example=_example_year)
def long_weekends(ctx: Ctx, year: Year, country: Country) -> list[LongWeekend]:
    """List a year's long weekends: three or more days off in a row around a holiday, some needing a bridge day.

    Args:
        year: The year.
        country: ISO code.
    """
    return _long_weekends(_country(country), year)


class WorkingDays(BaseModel):
    """Working days in a date range."""

    start: Date = Field(description="First day counted.")
    end: Date = Field(description="Last day counted.")
    working_days: int = Field(description="Weekdays that are not days off.")
    weekend_days: int = Field(description="Saturdays and Sundays.")
    holidays_off: int = Field(description="Weekdays off for public holidays (and company days off).")
    holiday_dates: list[Date] = Field(description="Those weekdays off.")


def _count(code: str, start: dt.date, end: dt.date, extra: frozenset[dt.date], field: str) -> WorkingDays:
    if end < start:
        raise RuleViolation("the range ends before it starts", field=field, hint="give an end on or after the start")
    if (end - start).days > MAX_SPAN_DAYS:
        raise RuleViolation("the range is longer than ten years", field=field, hint="count a shorter range")
    work = weekend = 0
    holidays: list[dt.date] = []
    day = start
    while day <= end:
        if day.weekday() >= 5:
            weekend += 1
        elif _off(code, day, extra):
            holidays.append(day)
        else:
            work += 1
        day += dt.timedelta(days=1)
    return WorkingDays(
        start=start,
        end=end,
        working_days=work,
        weekend_days=weekend,
        holidays_off=len(holidays),
        holiday_dates=holidays,
    )


def _example_range(ctx: Ctx) -> dict[str, Any]:
    today = ctx.today()
    return {
        "country": ctx.population.home.place.country,
        "start": today.isoformat(),
        "end": (today + dt.timedelta(days=60)).isoformat(),
    }


@service.tool(intent="count the working days between the dates", open_world=True, example=_example_range)
def working_days_between(ctx: Ctx, country: Country, start: Date, end: Date) -> WorkingDays:
    """Count the working days from start to end (both included) in a country: weekdays minus public holidays.

    Args:
        country: ISO code.
        start: First day.
        end: Last day.
    """
    return _count(_country(country), start, end, frozenset(), "end")


class DueDate(BaseModel):
    """A date some working days away."""

    start: Date = Field(description="The day counted from.")
    working_days: int = Field(description="Working days added (negative: subtracted).")
    date: Date = Field(description="The resulting working day.")
    skipped: list[Date] = Field(description="Weekdays skipped as days off.")


def _add(code: str, start: dt.date, n: int, extra: frozenset[dt.date]) -> DueDate:
    step = 1 if n >= 0 else -1
    day, left = start, abs(n)
    skipped: list[dt.date] = []
    while left:
        day += dt.timedelta(days=step)
        if day.weekday() < 5 and _off(code, day, extra):
            skipped.append(day)
        if not _off(code, day, extra):
            left -= 1
    if n == 0:
        while _off(code, day, extra):
            if day.weekday() < 5:
                skipped.append(day)
            day += dt.timedelta(days=1)
    return DueDate(start=start, working_days=n, date=day, skipped=skipped)


def _example_add(ctx: Ctx) -> dict[str, Any]:
    return {"country": ctx.population.home.place.country, "date": ctx.today().isoformat(), "days": 10}


@service.tool(intent="work out the date some working days away", open_world=True, example=_example_add)
def add_working_days(ctx: Ctx, country: Country, date: Date, days: Annotated[int, Field(ge=-500, le=500)]) -> DueDate:
    """Add (or subtract) working days to a date in a country, skipping weekends and public holidays.

    Zero days gives the date itself if it is a working day, else the next working day.

    Args:
        country: ISO code.
        date: The start date.
        days: Working days to add; negative to go back.
    """
    return _add(_country(country), date, days, frozenset())


class CountryInfo(BaseModel):
    """A country the service has holidays for."""

    country: Country = Field(description="ISO code.")
    name: str = Field(description="English name.")
    public_holidays_this_year: int = Field(description="Public holidays this year.")


@service.tool(intent="list the countries with holiday data", open_world=True)
def supported_countries(ctx: Ctx) -> list[CountryInfo]:
    """List the countries with public-holiday data."""
    year = ctx.today().year
    return [
        CountryInfo(
            country=code,
            name=name,
            public_holidays_this_year=sum(1 for h in holidays_of(code, year) if h.kind == "public"),
        )
        for code, name in sorted(COUNTRIES.items())
    ]


# -- company calendars (records) -------------------------------------------------------------------------


class Calendar(Created):
    """A company holiday calendar: one country's public holidays plus the company's own days off."""

    id: CalendarId
    name: Title
    """Calendar name (e.g. the office)."""
    company: CompanyName
    """The company."""
    country: Country
    """Country whose public holidays it follows."""
    owner_email: Email
    """Who maintains it."""
    feed_url: Url
    """iCalendar feed subscribers use."""


class CompanyDay(Record):
    """A company day off on a calendar."""

    id: CompanyDayId
    calendar_id: CalendarId
    """The calendar."""
    date: Date
    """The day off; a weekday that is not a public holiday."""
    name: Title
    """What it is."""
    kind: DayKind = "company_day"
    """company_day, bridge_day (between a holiday and a weekend) or closure."""


class Subscriber(Record):
    """Someone who follows a calendar."""

    id: SubscriberId
    calendar_id: CalendarId
    """The calendar."""
    name: PersonName
    """Subscriber's name."""
    email: Email
    """Subscriber's e-mail; once per calendar."""
    created_at: Annotated[DateTime, CREATED]
    """When they subscribed."""


def _guard_calendar(ctx: Ctx, new: Any, old: Any) -> None:
    _country(new.country)


def _guard_calendar_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Subscriber, calendar_id=old.id) is not None:
        raise RuleViolation(
            f"calendar {old.name!r} has subscribers", field="calendar_id", hint="remove its subscribers first"
        )
    for day in ctx.where(CompanyDay, calendar_id=old.id):
        ctx.delete(day)


def _guard_company_day(ctx: Ctx, new: Any, old: Any) -> None:
    cal = ctx.get(Calendar, new.calendar_id, field="calendar_id")
    if new.date.weekday() >= 5:
        raise RuleViolation(f"{new.date} is a {new.date:%A}", field="date", hint="company days off are weekdays")
    if new.date in days_off(cal.country, new.date.year):
        raise RuleViolation(
            f"{new.date} is already a public holiday in {cal.country}", field="date", hint="pick another day"
        )
    for other in ctx.where(CompanyDay, calendar_id=cal.id, date=new.date):
        if other.id != new.id:
            raise Conflict(f"{new.date} is already {other.name!r}", field="date", hint="pick another day")
    if new.kind == "bridge_day":
        off = days_off(cal.country, new.date.year)
        before, after = new.date - dt.timedelta(days=1), new.date + dt.timedelta(days=1)
        if not ((before in off and after.weekday() >= 5) or (after in off and before.weekday() >= 5)):
            raise RuleViolation(
                f"{new.date} does not lie between a holiday and a weekend",
                field="kind",
                hint="use company_day, or find bridge days with holidays__suggest_bridge_days",
            )
        used = [d for d in ctx.where(CompanyDay, calendar_id=cal.id, kind="bridge_day") if d.date.year == new.date.year]
        if len(used) > BRIDGE_DAYS_PER_YEAR:
            raise RuleViolation(
                f"the calendar already has {BRIDGE_DAYS_PER_YEAR} bridge days in {new.date.year}",
                field="kind",
                hint="remove one first",
            )


def _guard_subscriber(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Subscriber, calendar_id=new.calendar_id, email=new.email):
        if other.id != new.id:
            raise Conflict(f"{new.email} already subscribes", field="email", hint="nothing to do")


calendars = service.resource(
    Calendar,
    name="calendar",
    plural="calendars",
    prefix="hcal",
    create=False,
    filters=("country", "company", "owner_email"),
    search=("name",),
    update=("name", "owner_email"),
    guard_delete=_guard_calendar_delete,
    title="holiday calendar",
)
company_days = service.resource(
    CompanyDay,
    name="company_day",
    plural="company_days",
    prefix="cday",
    create=("calendar_id", "date", "name", "kind"),
    get=False,
    filters=("calendar_id", "kind", "date"),
    guard_create=_guard_company_day,
    title="company day off",
)
subscribers = service.resource(
    Subscriber,
    name="subscriber",
    plural="subscribers",
    prefix="sub",
    create=("calendar_id", "name", "email"),
    get=False,
    filters=("calendar_id", "email"),
    guard_create=_guard_subscriber,
)


def _extra(ctx: Ctx, cal: Calendar) -> frozenset[dt.date]:
    return frozenset(d.date for d in ctx.where(CompanyDay, calendar_id=cal.id))


def _example_new_calendar(ctx: Ctx) -> dict[str, Any]:
    return {
        "name": "Remote team",
        "company": ctx.population.home.name,
        "country": "IE",
        "owner_email": f"people@{ctx.population.home.domain}",
    }


@service.tool(intent="create a company holiday calendar", write=True, example=_example_new_calendar)
def create_calendar(ctx: Ctx, name: Title, company: CompanyName, country: Country, owner_email: Email) -> Calendar:
    """Create a company holiday calendar that follows a country's public holidays; it gets an iCalendar feed.

    Args:
        name: Calendar name.
        company: The company.
        country: Country whose public holidays it follows (a supported one).
        owner_email: Who maintains it.
    """
    _country(country)
    cal = ctx.create(
        Calendar, name=name, company=company, country=country, owner_email=owner_email, feed_url="https://x.invalid/"
    )
    return ctx.update(cal, feed_url=f"https://cal.daybook.app/feeds/{cal.id}.ics")


class DayOff(BaseModel):
    """A day off on a company calendar."""

    date: Date = Field(description="The weekday off.")
    name: str = Field(description="What it is.")
    source: Literal["public_holiday", "company_day", "bridge_day", "closure"] = Field(description="Why it is off.")


def _example_calendar(ctx: Ctx) -> dict[str, Any] | None:
    cal = ctx.first(Calendar)
    return None if cal is None else {"calendar_id": cal.id, "year": ctx.today().year}


@service.tool(intent="list the days off on the company calendar", example=_example_calendar)
def calendar_days_off(ctx: Ctx, calendar_id: CalendarId, year: Year) -> list[DayOff]:
    """List a company calendar's weekdays off in a year: public holidays (substitutes included) and company days.

    Args:
        calendar_id: The calendar.
        year: The year.
    """
    cal = ctx.get(Calendar, calendar_id, field="calendar_id")
    out = [
        DayOff(date=h.observed_on, name=h.name, source="public_holiday")
        for h in holidays_of(cal.country, year)
        if h.observed_on is not None
    ]
    out += [
        DayOff(date=d.date, name=d.name, source=d.kind if d.kind != "company_day" else "company_day")
        for d in ctx.where(CompanyDay, calendar_id=cal.id)
        if d.date.year == year
    ]
    out.sort(key=lambda d: (d.date, d.name))
    return out


def _example_due(ctx: Ctx) -> dict[str, Any] | None:
    cal = ctx.first(Calendar)
    return None if cal is None else {"calendar_id": cal.id, "date": ctx.today().isoformat(), "days": 15}


@service.tool(intent="work out the due date on the company calendar", example=_example_due)
def calendar_due_date(
    ctx: Ctx, calendar_id: CalendarId, date: Date, days: Annotated[int, Field(ge=-500, le=500)]
) -> DueDate:
    """Add working days to a date on a company calendar (skipping weekends, public holidays and company days off).

    Args:
        calendar_id: The calendar.
        date: The start date.
        days: Working days to add; negative to go back.
    """
    cal = ctx.get(Calendar, calendar_id, field="calendar_id")
    return _add(cal.country, date, days, _extra(ctx, cal))


def _example_count(ctx: Ctx) -> dict[str, Any] | None:
    cal = ctx.first(Calendar)
    if cal is None:
        return None
    return {"calendar_id": cal.id, "start": ctx.today().isoformat(), "end": f"{ctx.today().year}-12-31"}


@service.tool(intent="count the working days on the company calendar", example=_example_count)
def calendar_working_days(ctx: Ctx, calendar_id: CalendarId, start: Date, end: Date) -> WorkingDays:
    """Count working days from start to end (both included) on a company calendar.

    Args:
        calendar_id: The calendar.
        start: First day.
        end: Last day.
    """
    cal = ctx.get(Calendar, calendar_id, field="calendar_id")
    return _count(cal.country, start, end, _extra(ctx, cal), "end")


@service.tool(intent="suggest bridge days for the company calendar", example=_example_calendar)
def suggest_bridge_days(ctx: Ctx, calendar_id: CalendarId, year: Year) -> list[LongWeekend]:
    """Long weekends a single bridge day would make on a company calendar that are not taken yet.

    Args:
        calendar_id: The calendar.
        year: The year.
    """
    cal = ctx.get(Calendar, calendar_id, field="calendar_id")
    return [w for w in _long_weekends(cal.country, year, _extra(ctx, cal)) if w.need_bridge_day]


# -- seed ---------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Calendars of the home company's offices (its country and the staff's other countries), days off, staff."""
    pop = s.population
    home = pop.home
    hr = pop.staff("People")
    year = s.now.year
    countries: dict[str, list[Any]] = {}
    for p in pop.employees:
        if p.place.country in COUNTRIES:
            countries.setdefault(p.place.country, []).append(p)
    order = sorted(countries, key=lambda c: (c != home.place.country, -len(countries[c]), c))[:3]
    for k, code in enumerate(order):
        cal = s.create(
            Calendar,
            name=f"{home.name} {COUNTRIES[code]}" + (" (head office)" if code == home.place.country else ""),
            company=home.name,
            country=code,
            owner_email=hr[k % len(hr)].email,
            feed_url="https://x.invalid/",
            created_at=s.now - dt.timedelta(days=300 - k),
        )
        s.update(cal, feed_url=f"https://cal.daybook.app/feeds/{cal.id}.ics")
        off = days_off(code, year)
        # A company summer day, a closure between Christmas and New Year, and the first bridge day.
        summer = dt.date(year, 7, 3)
        while summer.weekday() >= 5 or summer in off:
            summer += dt.timedelta(days=1)
        s.create(CompanyDay, calendar_id=cal.id, date=summer, name="Company summer day", kind="company_day")
        for day in (dt.date(year, 12, 24), dt.date(year, 12, 31)):
            if day.weekday() < 5 and day not in off:
                s.create(CompanyDay, calendar_id=cal.id, date=day, name="Year-end closure", kind="closure")
        bridges = [w for w in _long_weekends(code, year) if w.need_bridge_day]
        taken = {d.date for d in s.records(CompanyDay) if d.calendar_id == cal.id}
        for w in bridges[:1]:
            if w.bridge_days[0] not in taken:
                s.create(CompanyDay, calendar_id=cal.id, date=w.bridge_days[0], name="Bridge day", kind="bridge_day")
        for p in countries[code][:12]:
            s.create(
                Subscriber, calendar_id=cal.id, name=p.name, email=p.email, created_at=s.now - dt.timedelta(days=30)
            )
    planned = next(c for c in sorted(COUNTRIES) if c not in order)
    cal = s.create(
        Calendar,
        name=f"{home.name} {COUNTRIES[planned]} (planned office)",
        company=home.name,
        country=planned,
        owner_email=hr[0].email,
        feed_url="https://x.invalid/",
        created_at=s.now - dt.timedelta(days=5),
    )
    s.update(cal, feed_url=f"https://cal.daybook.app/feeds/{cal.id}.ics")
