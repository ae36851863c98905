"""CensusData: American Community Survey variables and population estimates by geography, with saved reports.

Modeled on the US Census Bureau Data API (``/data/{year}/acs/acs5`` and
``/data/{year}/acs/acs1`` with ``get=NAME,B01003_001E,...`` up to 50
variables, ``for=county:*&in=state:06``; the ``_E`` estimate and ``_M``
margin-of-error variables; ``variables.json`` with ``label`` and ``concept``;
``/data/{vintage}/pep/population``; FIPS geographies: the nation ``us``, states
of two digits, counties of five, places of seven), with a planning team's
saved reports as in data.census.gov's saved tables.

An open-world service: the numbers are a deterministic draw from the world
seed around realistic anchors for each geography, moving year by year, with
counties adding up to no more than their state and places to no more than
their county; the world's US cities are among the places. ACS 1-year data
exist only for geographies of 65,000 people or more and not for 2020 (not
released); the latest ACS year is two years back, the latest population
estimate one. Stored state is saved reports: an employee picks up to 50
variables and up to 25 geographies; a report is run (its rows stored) and
published only if it was run since its last change; a published report is
shared with colleagues; an archived one is frozen.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, SemanticType, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "census",
    title="CensusData",
    category="demographic_data",
    modeled_on="US Census Bureau Data API (ACS 1-year and 5-year detailed tables, variables.json, PEP population "
    "estimates, FIPS geographies) with saved reports",
    description="Demographic data: American Community Survey estimates with margins of error and population "
    "estimates for the nation, states, counties and places by FIPS code, variable metadata, rankings and "
    "year-on-year changes, and saved reports that staff run, publish and share.",
)

Fips = Annotated[
    str, SemanticType("census.fips", kind="ref"), StringConstraints(pattern=r"^(us|[0-9]{2}|[0-9]{5}|[0-9]{7})$")
]
VariableName = Annotated[str, StringConstraints(pattern=r"^B[0-9]{5}_[0-9]{3}E$")]
ReportId = Annotated[str, IdOf("census.report")]
Dataset = Literal["acs5", "acs1"]
Level = Literal["us", "state", "county", "place"]
Year = Annotated[int, Field(ge=2010, le=2100)]
MAX_VARIABLES = 50
MAX_GEOGRAPHIES = 25
ACS1_MIN_POPULATION = 65_000

_VARS: dict[str, tuple[str, str, str]] = {
    "B01003_001E": ("Estimate!!Total", "TOTAL POPULATION", "count"),
    "B01002_001E": ("Estimate!!Median age --!!Total:", "MEDIAN AGE BY SEX", "years"),
    "B19013_001E": ("Estimate!!Median household income in the past 12 months", "MEDIAN HOUSEHOLD INCOME", "dollars"),
    "B25077_001E": ("Estimate!!Median value (dollars)", "MEDIAN VALUE (DOLLARS)", "dollars"),
    "B25064_001E": ("Estimate!!Median gross rent", "MEDIAN GROSS RENT (DOLLARS)", "dollars"),
    "B11001_001E": ("Estimate!!Total:", "HOUSEHOLD TYPE", "count"),
    "B15003_022E": ("Estimate!!Total:!!Bachelor's degree", "EDUCATIONAL ATTAINMENT 25 YEARS AND OVER", "count"),
    "B23025_005E": (
        "Estimate!!Total:!!In labor force:!!Civilian labor force:!!Unemployed",
        "EMPLOYMENT STATUS",
        "count",
    ),
    "B17001_002E": ("Estimate!!Total:!!Income in the past 12 months below poverty level", "POVERTY STATUS", "count"),
}
_SHARE = {"B11001_001E": 0.39, "B15003_022E": 0.15, "B23025_005E": 0.027, "B17001_002E": 0.12}
"""Count variables as a share of the population."""

# fips: name, parent, population, median income, median home value, median age, median rent
_GEOS: dict[str, tuple[str, str | None, int, int, int, float, int]] = {
    "us": ("United States", None, 334_000_000, 75_000, 280_000, 38.9, 1_270),
}
for _line in """
06|California|us|39000000|91000|715000|37.6|1850
17|Illinois|us|12600000|78000|240000|39.0|1150
36|New York|us|19600000|79000|380000|39.4|1450
48|Texas|us|30500000|73000|240000|35.5|1250
53|Washington|us|7800000|90000|530000|38.3|1600
06075|San Francisco County, California|06|810000|136000|1300000|39.5|2300
06085|Santa Clara County, California|06|1870000|153000|1400000|38.0|2700
06041|Marin County, California|06|256000|142000|1300000|47.5|2400
17031|Cook County, Illinois|17|5090000|78000|300000|37.5|1250
36061|New York County, New York|36|1600000|99000|1000000|38.3|1850
36047|Kings County, New York|36|2560000|74000|850000|35.4|1550
48453|Travis County, Texas|48|1330000|97000|520000|34.2|1550
53033|King County, Washington|53|2250000|116000|780000|37.4|1950
0667000|San Francisco city, California|06075|808000|136000|1300000|39.5|2300
0670364|Sausalito city, California|06041|7200|160000|1600000|52.1|2600
1714000|Chicago city, Illinois|17031|2660000|71000|300000|35.3|1300
3651000|New York city, New York|36061|8300000|76000|730000|37.0|1600
4805000|Austin city, Texas|48453|975000|89000|540000|33.9|1600
5363000|Seattle city, Washington|53033|750000|116000|900000|35.5|2000
5357745|Sammamish city, Washington|53033|66000|210000|1350000|39.8|3100
""".strip().splitlines():
    _f, _n, _p, _pop, _inc, _val, _age, _rent = _line.split("|")
    _GEOS[_f] = (_n, _p, int(_pop), int(_inc), int(_val), float(_age), int(_rent))


def _level(fips: str) -> str:
    return "us" if fips == "us" else {2: "state", 5: "county"}.get(len(fips), "place")


def _latest(today: dt.date, dataset: str) -> int:
    return today.year - (1 if dataset == "pep" else 2)


def _growth(seed: int, fips: str) -> float:
    return random.Random(f"census:{seed}:{fips}:growth").uniform(-0.004, 0.018)


def _value(seed: int, today: dt.date, fips: str, var: str, year: int) -> float:
    """The estimate of ``var`` in ``fips`` for ``year``: the anchor moved by growth and a little noise."""
    _, parent, pop, inc, val, age, rent = _GEOS[fips]
    t = year - _latest(today, "acs5")
    wiggle = random.Random(f"census:{seed}:{fips}:{var}:{year}").gauss(0, 0.004)
    if var == "B01003_001E":
        own = pop * math.exp(_growth(seed, fips) * t + wiggle)
        if parent is not None:  # never more than the enclosing geography
            own = min(own, 0.98 * _value(seed, today, parent, var, year))
        return float(round(own))
    if var in _SHARE:
        return float(round(_value(seed, today, fips, "B01003_001E", year) * _SHARE[var] * (1 + 10 * wiggle)))
    if var == "B01002_001E":
        return round(age + 0.15 * t + 10 * wiggle, 1)
    base = {"B19013_001E": inc, "B25077_001E": val, "B25064_001E": rent}[var]
    rate = {"B19013_001E": 0.035, "B25077_001E": 0.05, "B25064_001E": 0.04}[var]
    return float(round(base * math.exp(rate * t + wiggle)))


def _moe(dataset: str, fips: str, var: str, value: float) -> float:
    pop = _GEOS[fips][2]
    factor = (1.0 if dataset == "acs5" else 2.2) * min(0.25, 12 / math.sqrt(max(pop, 1)))
    return round(value * factor * (0.3 if var == "B01003_001E" else 1), 1 if var == "B01002_001E" else 0)


# -- argument checks ----------------------------------------------------------------------------------------


def _check_geo(fips: str, field: str = "fips") -> None:
    if fips not in _GEOS:
        raise NotFound(f"no geography with FIPS {fips}", field=field, hint="find it with census__list_geographies")


def _check_vars(names: list[str], field: str = "variables") -> None:
    if not names:
        raise RuleViolation("name at least one variable", field=field, hint="see census__list_variables")
    if len(names) > MAX_VARIABLES:
        raise RuleViolation(f"at most {MAX_VARIABLES} variables per call", field=field, hint="split the request")
    for i, v in enumerate(names):
        if v not in _VARS:
            raise NotFound(f"unknown variable {v}", field=f"{field}.{i}", hint="see census__list_variables")


def _check_year(ctx: Ctx, dataset: str, year: int, geos: list[str], field: str = "year") -> None:
    latest = _latest(ctx.today(), dataset)
    if year > latest:
        raise RuleViolation(
            f"{dataset} {year} is not released yet; the latest is {latest}", field=field, hint=f"use {latest}"
        )
    if dataset == "acs1" and year == 2020:
        raise RuleViolation(
            "ACS 1-year 2020 estimates were not released", field=field, hint="use acs5, or 2019 or 2021"
        )
    if dataset == "acs1":
        for g in geos:
            if _GEOS[g][2] < ACS1_MIN_POPULATION:
                raise RuleViolation(
                    f"{_GEOS[g][0]} has under {ACS1_MIN_POPULATION:,} people: no ACS 1-year estimates",
                    field="dataset",
                    hint="use the acs5 dataset for small geographies",
                )


# -- result models ------------------------------------------------------------------------------------------


class Cell(Value):
    """One variable's estimate with its margin of error."""

    variable: VariableName = Field(description="Variable (B01003_001E).")
    estimate: float = Field(description="The estimate (_E).")
    margin_of_error: float = Field(description="90% margin of error (_M).")


class Row(Value):
    """One geography's row of a table."""

    fips: Fips = Field(description="FIPS code.")
    name: str = Field(description="NAME.")
    cells: list[Cell] = Field(description="One cell per variable asked.")


class Table(BaseModel):
    """The answer to a data query."""

    dataset: Dataset = Field(description="acs5 or acs1.")
    year: int = Field(description="Survey year (end year for acs5).")
    rows: list[Row] = Field(description="One row per geography.")


class Geography(BaseModel):
    """A geography."""

    fips: Fips = Field(description="FIPS code.")
    name: str = Field(description="Name.")
    level: Level = Field(description="us, state, county or place.")
    parent_fips: Fips | None = Field(description="The enclosing geography.")
    acs1_available: bool = Field(description="Whether it has 65,000 people or more (ACS 1-year estimates).")


class Variable(BaseModel):
    """A variable's metadata (variables.json)."""

    name: VariableName = Field(description="Variable name.")
    label: str = Field(description="Label.")
    concept: str = Field(description="Table concept.")
    unit: str = Field(description="count, dollars or years.")


class PopulationPoint(BaseModel):
    """A population estimate of a year."""

    year: int = Field(description="Estimate year (July 1).")
    population: int = Field(description="Resident population.")
    change: int | None = Field(description="Change from the year before.")


class Change(BaseModel):
    """How one variable changed between two years in one geography."""

    variable: VariableName = Field(description="Variable.")
    from_estimate: float = Field(description="Estimate in from_year.")
    to_estimate: float = Field(description="Estimate in to_year.")
    change_pct: float = Field(description="Change in percent.")
    significant: bool = Field(description="Whether the change exceeds the combined margins of error.")


def _geo(fips: str) -> Geography:
    name, parent, pop, *_ = _GEOS[fips]
    return Geography(
        fips=fips, name=name, level=_level(fips), parent_fips=parent, acs1_available=pop >= ACS1_MIN_POPULATION
    )


def _rows(ctx: Ctx, dataset: str, year: int, variables: list[str], geos: list[str]) -> list[Row]:
    seed, today = ctx.population.seed, ctx.today()
    out = []
    for g in geos:
        cells = []
        for v in variables:
            est = _value(seed, today, g, v, year)
            cells.append(Cell(variable=v, estimate=est, margin_of_error=_moe(dataset, g, v, est)))
        out.append(Row(fips=g, name=_GEOS[g][0], cells=cells))
    return out


def _children(level: str, within: str | None) -> list[str]:
    return [f for f in _GEOS if _level(f) == level and (within is None or _inside(f, within))]


def _inside(fips: str, within: str) -> bool:
    parent = _GEOS[fips][1]
    while parent is not None:
        if parent == within:
            return True
        parent = _GEOS[parent][1]
    return False


# -- open-world tools ---------------------------------------------------------------------------------------

Variables = Annotated[list[VariableName], Field(min_length=1, max_length=60)]


@service.tool(
    intent="get census estimates for geographies",
    open_world=True,
    example=fixed_example(variables=["B01003_001E", "B19013_001E"], level="county", within="06", year=2022),
)
def get_data(
    ctx: Ctx,
    variables: Variables,
    level: Level,
    year: Year,
    within: Fips | None = None,
    dataset: Dataset = "acs5",
) -> Table:
    """Get ACS estimates with margins of error (get=...&for=level:*&in=...), one row per geography.

    Args:
        variables: Variable names (at most 50).
        level: us, state, county or place.
        year: Survey year (the latest is two years back; no acs1 for 2020).
        within: Only geographies inside this one (a state or county FIPS).
        dataset: acs5 (default; every geography) or acs1 (65,000 people or more).
    """
    _check_vars(variables)
    if within is not None:
        _check_geo(within, "within")
    geos = _children(level, within)
    if not geos:
        raise NotFound(f"no {level} geographies in {within}", field="level", hint="see census__list_geographies")
    _check_year(ctx, dataset, year, geos)
    return Table(dataset=dataset, year=year, rows=_rows(ctx, dataset, year, variables, geos))


@service.tool(intent="get the population estimates over the years", open_world=True, example=fixed_example(fips="48"))
def get_population_estimates(
    ctx: Ctx, fips: Fips, from_year: Year = 2015, to_year: Year | None = None
) -> list[PopulationPoint]:
    """Get yearly population estimates (PEP) of a geography with the change from year to year.

    Args:
        fips: The geography's FIPS code.
        from_year: First year.
        to_year: Last year (default and at most: last year).
    """
    _check_geo(fips)
    last = _latest(ctx.today(), "pep")
    end = last if to_year is None else to_year
    if end > last:
        raise RuleViolation(f"estimates run to {last}", field="to_year", hint=f"use {last} or earlier")
    if end < from_year:
        raise RuleViolation("to_year is before from_year", field="to_year", hint="swap the years")
    out: list[PopulationPoint] = []
    for y in range(from_year, end + 1):
        pop = int(_value(ctx.population.seed, ctx.today(), fips, "B01003_001E", y))
        out.append(PopulationPoint(year=y, population=pop, change=pop - out[-1].population if out else None))
    return out


@service.tool(intent="list census variables", open_world=True)
def list_variables(ctx: Ctx, search: Annotated[str, StringConstraints(max_length=80)] | None = None) -> list[Variable]:
    """List the variables (variables.json), optionally those whose label or concept has the given words.

    Args:
        search: Words of the label or concept (income, rent, poverty).
    """
    words = fold(search or "").split()
    return [
        Variable(name=n, label=lab, concept=con, unit=u)
        for n, (lab, con, u) in _VARS.items()
        if all(w in fold(f"{lab} {con}").split() for w in words)
    ]


@service.tool(intent="list census geographies", open_world=True)
def list_geographies(
    ctx: Ctx,
    level: Level | None = None,
    within: Fips | None = None,
    name: Annotated[str, StringConstraints(max_length=80)] | None = None,
) -> list[Geography]:
    """List geographies by level, parent and words of the name, with their FIPS codes.

    Args:
        level: us, state, county or place.
        within: Only geographies inside this FIPS.
        name: Words of the name (Travis, Seattle).
    """
    if within is not None:
        _check_geo(within, "within")
    words = fold(name or "").split()
    return [
        _geo(f)
        for f in _GEOS
        if level in (None, _level(f))
        and (within is None or _inside(f, within))
        and all(w in fold(_GEOS[f][0]).split() for w in words)
    ]


@service.tool(
    intent="rank geographies by a variable",
    open_world=True,
    example=fixed_example(variable="B19013_001E", level="county", year=2022),
)
def rank_geographies(
    ctx: Ctx,
    variable: VariableName,
    level: Level,
    year: Year,
    within: Fips | None = None,
    limit: Annotated[int, Field(ge=1, le=50)] = 10,
) -> list[Row]:
    """Rank geographies of a level by one variable's acs5 estimate, highest first.

    Args:
        variable: The variable.
        level: state, county or place.
        year: Survey year.
        within: Only geographies inside this FIPS.
        limit: Most rows.
    """
    _check_vars([variable], "variable")
    if within is not None:
        _check_geo(within, "within")
    geos = _children(level, within)
    _check_year(ctx, "acs5", year, geos)
    rows = _rows(ctx, "acs5", year, [variable], geos)
    return sorted(rows, key=lambda r: -r.cells[0].estimate)[:limit]


@service.tool(
    intent="compare estimates between two years",
    open_world=True,
    example=fixed_example(fips="53033", variables=["B25064_001E"], from_year=2017, to_year=2022),
)
def compare_years(
    ctx: Ctx, fips: Fips, variables: Variables, from_year: Year, to_year: Year, dataset: Dataset = "acs5"
) -> list[Change]:
    """Compare a geography's estimates between two years, flagging changes beyond the margins of error.

    Args:
        fips: The geography.
        variables: Variable names.
        from_year: Earlier year.
        to_year: Later year.
        dataset: acs5 (default) or acs1.
    """
    _check_geo(fips)
    _check_vars(variables)
    if to_year <= from_year:
        raise RuleViolation("to_year must be after from_year", field="to_year", hint="swap the years")
    _check_year(ctx, dataset, from_year, [fips], "from_year")
    _check_year(ctx, dataset, to_year, [fips], "to_year")
    a = _rows(ctx, dataset, from_year, variables, [fips])[0].cells
    b = _rows(ctx, dataset, to_year, variables, [fips])[0].cells
    return [
        Change(
            variable=x.variable,
            from_estimate=x.estimate,
            to_estimate=y.estimate,
            change_pct=round(100 * (y.estimate - x.estimate) / x.estimate, 2) if x.estimate else 0.0,
            significant=abs(y.estimate - x.estimate) > math.hypot(x.margin_of_error, y.margin_of_error),
        )
        for x, y in zip(a, b, strict=True)
    ]


@service.tool(intent="get the geography", open_world=True, example=fixed_example(fips="48453"))
def get_geography(ctx: Ctx, fips: Fips) -> Geography:
    """Get a geography by FIPS code: name, level, parent and whether it has ACS 1-year estimates.

    Args:
        fips: The FIPS code (us, 06, 06075, 0667000).
    """
    _check_geo(fips)
    return _geo(fips)


@service.tool(intent="get the variable's metadata", open_world=True, example=fixed_example(name="B19013_001E"))
def get_variable(ctx: Ctx, name: VariableName) -> Variable:
    """Get a variable's label, concept and unit.

    Args:
        name: The variable name (B19013_001E).
    """
    _check_vars([name], "name")
    lab, con, unit = _VARS[name]
    return Variable(name=name, label=lab, concept=con, unit=unit)


class DatasetInfo(BaseModel):
    """A dataset and its years."""

    dataset: Literal["acs5", "acs1", "pep"] = Field(description="acs5, acs1 or pep (population estimates).")
    title: str = Field(description="Title.")
    first_year: int = Field(description="First year available.")
    latest_year: int = Field(description="Latest year released.")
    missing_years: list[int] = Field(description="Years not released.")
    min_population: int = Field(description="Smallest geography covered (people).")


@service.tool(intent="list the datasets and their years", open_world=True)
def list_datasets(ctx: Ctx) -> list[DatasetInfo]:
    """List the datasets with their first and latest years, years not released and coverage."""
    today = ctx.today()
    return [
        DatasetInfo(
            dataset="acs5",
            title="American Community Survey 5-Year Estimates",
            first_year=2010,
            latest_year=_latest(today, "acs5"),
            missing_years=[],
            min_population=0,
        ),
        DatasetInfo(
            dataset="acs1",
            title="American Community Survey 1-Year Estimates",
            first_year=2010,
            latest_year=_latest(today, "acs1"),
            missing_years=[2020],
            min_population=ACS1_MIN_POPULATION,
        ),
        DatasetInfo(
            dataset="pep",
            title="Population Estimates Program",
            first_year=2010,
            latest_year=_latest(today, "pep"),
            missing_years=[],
            min_population=0,
        ),
    ]


# -- saved reports ------------------------------------------------------------------------------------------


class Report(Timestamped):
    """A saved table: variables for geographies in one dataset and year."""

    id: ReportId
    name: Title
    """Its name."""
    owner_email: Email
    """The employee who keeps it."""
    dataset: Dataset = "acs5"
    """acs5 or acs1."""
    year: int
    """Survey year."""
    variables: list[VariableName]
    """Variables (at most 50)."""
    geographies: list[Fips]
    """FIPS codes (at most 25)."""
    status: Literal["draft", "published", "archived"] = "draft"
    """draft, published, or archived (frozen)."""
    rows: list[Row] = Field(default_factory=list)
    """The rows of the last run."""
    last_run_at: DateTime | None = None
    """When it was last run."""
    stale: bool = True
    """Whether it changed since its last run."""
    shared_with: list[Email] = Field(default_factory=list)
    """Colleagues it is shared with."""


def _staff(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _validate(ctx: Ctx, r: Report) -> None:
    if r.owner_email not in _staff(ctx):
        raise RuleViolation(f"{r.owner_email} is not an employee", field="owner_email", hint="reports are staff's")
    _check_vars(r.variables)
    if not r.geographies or len(r.geographies) > MAX_GEOGRAPHIES:
        raise RuleViolation(
            f"a report has 1 to {MAX_GEOGRAPHIES} geographies", field="geographies", hint="pick fewer or more"
        )
    for i, g in enumerate(r.geographies):
        _check_geo(g, f"geographies.{i}")
    _check_year(ctx, r.dataset, r.year, r.geographies, "year")


def _guard_report(ctx: Ctx, new: Report, old: Report | None) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"report {old.id} is archived", field="report_id", hint="archived reports are frozen")
    _validate(ctx, new)
    if old is not None and (new.variables, new.geographies, new.year, new.dataset) != (
        old.variables,
        old.geographies,
        old.year,
        old.dataset,
    ):
        ctx.update(new, stale=True, status="draft" if new.status == "published" else new.status)


reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="crp",
    create=False,
    filters=("owner_email", "status", "dataset"),
    search=("name",),
    update=("name", "dataset", "year", "variables", "geographies"),
    transitions={
        "archive": Transition("status", ("draft", "published"), "archived", "archive the report", destructive=True)
    },
    guard_update=_guard_report,
    title="saved report",
)


def _open(ctx: Ctx, report_id: str) -> Report:
    r = ctx.get(Report, report_id, field="report_id")
    if r.status == "archived":
        raise RuleViolation(f"report {r.id} is archived", field="report_id", hint="archived reports are frozen")
    return r


@service.tool(
    intent="run the saved report",
    write=True,
    example=first_example(Report, "report_id", match=lambda ctx, r: r.status != "archived"),
)
def run_report(ctx: Ctx, report_id: ReportId) -> Report:
    """Run a report: fetch its rows and store them with the time of the run.

    Args:
        report_id: The report (not archived).
    """
    r = _open(ctx, report_id)
    rows = _rows(ctx, r.dataset, r.year, r.variables, r.geographies)
    return ctx.update(r, rows=rows, last_run_at=ctx.now(), stale=False)


@service.tool(
    intent="publish the report",
    write=True,
    example=first_example(Report, "report_id", where={"status": "draft", "stale": False}),
)
def publish_report(ctx: Ctx, report_id: ReportId) -> Report:
    """Publish a draft report that was run since its last change.

    Args:
        report_id: The report (draft, run since its last change).
    """
    r = _open(ctx, report_id)
    if r.status != "draft":
        raise RuleViolation(f"report {r.id} is already {r.status}", field="report_id", hint="it is published")
    if r.stale:
        raise RuleViolation(
            f"report {r.id} changed since its last run", field="report_id", hint="run it with census__run_report"
        )
    return ctx.update(r, status="published")


def _example_share(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Report, status="published")
    if r is None:
        return None
    other = next(p.email for p in ctx.population.employees if p.email != r.owner_email and p.email not in r.shared_with)
    return {"report_id": r.id, "emails": [other]}


@service.tool(intent="share the report with colleagues", write=True, example=_example_share)
def share_report(
    ctx: Ctx, report_id: ReportId, emails: Annotated[list[Email], Field(min_length=1, max_length=20)]
) -> Report:
    """Share a published report with colleagues (employees other than its owner, each once).

    Args:
        report_id: The report (published).
        emails: The colleagues' e-mails.
    """
    r = _open(ctx, report_id)
    if r.status != "published":
        raise RuleViolation(f"report {r.id} is a draft", field="report_id", hint="publish it first")
    staff = _staff(ctx)
    for i, e in enumerate(emails):
        if e not in staff or e == r.owner_email:
            raise RuleViolation(f"{e} is not a colleague", field=f"emails.{i}", hint="share with other employees")
        if e in r.shared_with:
            raise Conflict(f"already shared with {e}", field=f"emails.{i}", hint="leave them out")
    return ctx.update(r, shared_with=[*r.shared_with, *dict.fromkeys(emails)])


def _example_create(ctx: Ctx) -> dict[str, Any]:
    return {
        "name": "Income in Texas counties",
        "owner_email": ctx.population.employees[0].email,
        "year": _latest(ctx.today(), "acs5"),
        "variables": ["B19013_001E"],
        "geographies": ["48453"],
    }


@service.tool(intent="save a report", write=True, example=_example_create)
def create_report(
    ctx: Ctx,
    name: Title,
    owner_email: Email,
    year: Year,
    variables: Variables,
    geographies: Annotated[list[Fips], Field(min_length=1, max_length=30)],
    dataset: Dataset = "acs5",
) -> Report:
    """Save a report of variables for geographies in one dataset and year, as a draft to run.

    Args:
        name: The report's name.
        owner_email: The employee who keeps it.
        year: Survey year.
        variables: Variable names (at most 50).
        geographies: FIPS codes (at most 25).
        dataset: acs5 (default) or acs1.
    """
    rec = ctx.create(
        Report,
        name=name,
        owner_email=owner_email,
        year=year,
        variables=variables,
        geographies=geographies,
        dataset=dataset,
    )
    _validate(ctx, rec)
    return rec


def _example_unshare(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Report, status="published"):
        if r.shared_with:
            return {"report_id": r.id, "email": r.shared_with[0]}
    return None


@service.tool(intent="stop sharing the report with a colleague", write=True, example=_example_unshare)
def unshare_report(ctx: Ctx, report_id: ReportId, email: Email) -> Report:
    """Stop sharing a report with one colleague.

    Args:
        report_id: The report (not archived).
        email: The colleague it is shared with.
    """
    r = _open(ctx, report_id)
    if email not in r.shared_with:
        raise NotFound(f"report {r.id} is not shared with {email}", field="email", hint="see its shared_with")
    return ctx.update(r, shared_with=[e for e in r.shared_with if e != email])


@service.tool(
    intent="export the report's rows as CSV", example=first_example(Report, "report_id", where={"stale": False})
)
def export_report(ctx: Ctx, report_id: ReportId) -> str:
    """Export the rows of a report's last run as CSV (NAME, fips, then each variable's estimate and margin).

    Args:
        report_id: A report that was run since its last change.
    """
    r = ctx.get(Report, report_id, field="report_id")
    if r.stale:
        raise RuleViolation(f"report {r.id} changed since its last run", field="report_id", hint="run it first")
    head = ["NAME", "fips"] + [f"{v},{v[:-1]}M" for v in r.variables]
    lines = [",".join(head)]
    for row in r.rows:
        cells = ",".join(f"{c.estimate:g},{c.margin_of_error:g}" for c in row.cells)
        lines.append(f'"{row.name}",{row.fips},{cells}')
    return "\n".join(lines)


# -- seed ---------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Market planning reports on the world's US cities: published, draft (stale) and archived."""
    pop = s.population
    today = s.now.date()
    year = _latest(today, "acs5")
    team = pop.staff("Marketing", "Sales", "Finance", fallback=3)
    cities = {fold(c.place.city) for c in pop.companies}
    places = [f for f in _GEOS if _level(f) == "place" and fold(_GEOS[f][0].split(" city")[0]) in cities]
    places = places or ["3651000", "1714000"]
    plans = (
        ("Market sizing: our US cities", "published", "acs5", year, ["B01003_001E", "B19013_001E"], places),
        (
            "Rent and home values by county",
            "draft",
            "acs5",
            year - 1,
            ["B25064_001E", "B25077_001E"],
            ["06075", "17031", "36061", "48453", "53033"],
        ),
        ("Household counts by state", "draft-run", "acs5", year, ["B11001_001E"], ["06", "17", "36"]),
        (
            "Large-state income (1-year)",
            "archived",
            "acs1",
            year - 3 if year - 3 != 2020 else year - 4,
            ["B19013_001E"],
            ["06", "36", "48"],
        ),
    )
    for k, (name, status, ds, y, variables, geos) in enumerate(plans):
        ctx_rows = [
            Row(
                fips=g,
                name=_GEOS[g][0],
                cells=[
                    Cell(
                        variable=v, estimate=(e := _value(pop.seed, today, g, v, y)), margin_of_error=_moe(ds, g, v, e)
                    )
                    for v in variables
                ],
            )
            for g in geos
        ]
        s.create(
            Report,
            name=name,
            owner_email=team[k % len(team)].email,
            dataset=ds,
            year=y,
            variables=variables,
            geographies=geos,
            status=status.removesuffix("-run"),
            rows=ctx_rows if status != "draft" else [],
            last_run_at=s.ago(days=30) if status != "draft" else None,
            stale=status == "draft",
            shared_with=[team[-1].email] if status == "published" and team[-1].email != team[0].email else [],
            created_at=s.ago(days=200 - 50 * k),
            updated_at=s.ago(days=30),
        )
