"""Goodcheck: US nonprofit data (exempt organizations, Form 990 financials, revocations) and due-diligence checks.

Modeled on the IRS Exempt Organizations Business Master File and Tax Exempt
Organization Search (EIN, name, city and state, ``SUBSECTION`` 501(c)(3), (4),
(6), (7), ``FOUNDATION`` public charity or private foundation, ``DEDUCTIBILITY``,
``NTEE_CD``, ``RULING`` year; the Pub 78 list of organizations eligible for
deductible contributions; the Automatic Revocation of Exemption list with
revocation and posting dates) and Candid's GuideStar Essentials and Premier
APIs (profile with mission and principal officer; Form 990, 990-EZ and 990-N
financials by tax year: total revenue, contributions, program service revenue,
program, management and fundraising expenses, assets, liabilities), with a
finance team's due-diligence checks as grant makers and matching-gift programs
keep them (Candid Charity Check).

An open-world service: the register is a deterministic draw from the world seed:
charities, social welfare organizations, business leagues and clubs in the
world's US cities, whose principal officers are people living there. The form
an organization files follows its gross receipts; an organization that stopped
filing three years running has its exemption revoked (and loses Pub 78
eligibility). Stored state is the due-diligence checks: a check is opened for an
EIN and a purpose, run (findings from the register: revocation, subsection,
missing recent 990s, a program expense ratio under 65 %, a deficit), then
approved by someone in Finance other than the requester once every finding is
waived (blockers cannot be), or rejected; a cancelled or decided check is final.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Date, Email, IdOf, PersonName, SemanticType, Text, Url
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "charities",
    title="Goodcheck",
    category="nonprofit_data",
    modeled_on="IRS Exempt Organizations Business Master File, Pub 78 and Automatic Revocation list with Candid "
    "GuideStar Essentials and Premier APIs (profiles, Form 990 financials) and Charity Check due diligence",
    description="Nonprofit data: search US exempt organizations by name, city, state, NTEE code and 501(c) "
    "subsection, read an organization's profile and Form 990 financials by year, check revocation and Pub 78 "
    "eligibility, and run due-diligence checks with findings that Finance waives, approves or rejects.",
)

Ein = Annotated[str, SemanticType("nonprofit.ein", kind="ref"), StringConstraints(pattern=r"^[0-9]{2}-[0-9]{7}$")]
State = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
CheckId = Annotated[str, IdOf("charities.check")]
FindingId = Annotated[str, IdOf("charities.finding")]
Words = Annotated[str, StringConstraints(min_length=2, max_length=120)]
Subsection = Literal["501(c)(3)", "501(c)(4)", "501(c)(6)", "501(c)(7)"]
NteeMajor = Literal["A", "B", "D", "E", "K", "L", "N", "O", "P", "S"]
Purpose = Literal["grant", "donation_match", "sponsorship", "volunteer_partnership"]
Severity = Literal["blocker", "warning"]
_STATES = {"New York": "NY", "Chicago": "IL", "Austin": "TX", "San Francisco": "CA", "Seattle": "WA"}
_NTEE = {
    "A": "Arts, Culture and Humanities",
    "B": "Education",
    "D": "Animal-Related",
    "E": "Health Care",
    "K": "Food, Agriculture and Nutrition",
    "L": "Housing and Shelter",
    "N": "Recreation and Sports",
    "O": "Youth Development",
    "P": "Human Services",
    "S": "Community Improvement and Capacity Building",
}
_KINDS = (
    (
        "{c} Food Bank",
        "K31",
        "501(c)(3)",
        "Ending hunger in {c} by sourcing and distributing food to partner pantries.",
    ),
    ("{c} Literacy Council", "B60", "501(c)(3)", "Free tutoring that helps adults in {c} read, write and work."),
    ("Friends of {c} Parks", "S20", "501(c)(3)", "Volunteers caring for the parks and trails of {c}."),
    ("{c} Habitat Home Builders", "L21", "501(c)(3)", "Building affordable homes with working families in {c}."),
    ("{c} Animal Rescue League", "D20", "501(c)(3)", "Sheltering, treating and rehoming animals across {c}."),
    ("{c} Youth Soccer Association", "N64", "501(c)(3)", "Affordable youth soccer leagues for {c} children."),
    ("Children's Health Fund of {c}", "E30", "501(c)(3)", "Clinics and health education for children in {c}."),
    ("{c} Arts Collective", "A20", "501(c)(3)", "Studios, shows and classes for local artists in {c}."),
    ("{c} Mentoring Partnership", "O30", "501(c)(3)", "Matching {c} youth with trained volunteer mentors."),
    ("{c} Family Services", "P40", "501(c)(3)", "Counseling and emergency help for families in {c}."),
    ("{c} Neighborhood Alliance", "S22", "501(c)(4)", "Advocacy for safe streets and housing in {c}."),
    ("{c} Chamber of Commerce", "S41", "501(c)(6)", "The voice of {c} business."),
    ("{c} Rowing Club", "N60", "501(c)(7)", "A members' rowing club on the waters of {c}."),
)
MIN_PROGRAM_RATIO = 0.65
FILING_YEARS = 6


@dataclass(frozen=True, slots=True)
class _Return:
    year: int
    form: str
    filed: dt.date
    revenue: int
    contributions: int
    program_revenue: int
    program: int
    management: int
    fundraising: int
    assets: int
    liabilities: int


@dataclass(frozen=True, slots=True)
class _Org:
    ein: str
    name: str
    city: str
    state: str
    zip: str
    ntee: str
    subsection: str
    foundation: str
    ruling: int
    mission: str
    officer: str
    officer_title: str
    website: str
    revoked_on: dt.date | None
    returns: tuple[_Return, ...]


@per_population
def _register(pop: Population, today: dt.date) -> dict[str, _Org]:
    r = random.Random(f"charities:{pop.seed}")
    places = [p for p in pop.places if p.country == "US"] or list(pop.places[:3])
    orgs: dict[str, _Org] = {}
    for place in places:
        residents = [p for p in pop.people if p.place.city == place.city] or list(pop.consumers or pop.people)
        for k, (pattern, ntee, sub, mission) in enumerate(_KINDS):
            name = pattern.format(c=place.city)
            ein = f"{r.randint(10, 99)}-{r.randint(1_000_000, 9_999_999)}"
            size = r.choice((30_000, 150_000, 900_000, 4_000_000, 20_000_000))
            revoked = (k == 9 and place == places[0]) or r.random() < 0.05
            last = today.year - (5 if revoked else 1)
            returns = []
            for year in range(today.year - FILING_YEARS, last + 1):
                revenue = round(size * r.uniform(0.75, 1.3))
                form = "990-N" if revenue <= 50_000 else "990-EZ" if revenue < 200_000 else "990"
                ratio = r.uniform(0.55, 0.9) if k % 4 == 3 else r.uniform(0.7, 0.9)
                expenses = revenue * r.uniform(0.85, 1.08)
                assets = round(revenue * r.uniform(0.4, 1.8))
                contributions = round(revenue * (r.uniform(0.6, 0.95) if sub == "501(c)(3)" else r.uniform(0.0, 0.3)))
                returns.append(
                    _Return(
                        year=year,
                        form=form,
                        filed=dt.date(year + 1, 5, 15) + dt.timedelta(days=r.randint(0, 150)),
                        revenue=revenue,
                        contributions=contributions,
                        program_revenue=revenue - contributions,
                        program=round(expenses * ratio),
                        management=round(expenses * (1 - ratio) * 0.6),
                        fundraising=round(expenses * (1 - ratio) * 0.4),
                        assets=assets,
                        liabilities=round(assets * r.uniform(0.05, 0.5)),
                    )
                )
            returns = [x for x in returns if x.filed <= today]
            officer = residents[(k + len(orgs)) % len(residents)]
            slug = fold(name).replace(" ", "")[:24]
            orgs[ein] = _Org(
                ein=ein,
                name=name,
                city=place.city,
                state=_STATES.get(place.city, "NY"),
                zip=f"{place.postal_prefix}{r.randint(100, 999)}",
                ntee=ntee,
                subsection=sub,
                foundation="private_foundation" if sub == "501(c)(3)" and k == 6 else "public_charity",
                ruling=r.randint(1955, today.year - 8),
                mission=mission.format(c=place.city),
                officer=officer.name,
                officer_title=r.choice(("Executive Director", "President", "Chief Executive Officer")),
                website=f"https://www.{slug}.org",
                revoked_on=dt.date(last + 4, 5, 15) if revoked else None,
                returns=tuple(returns),
            )
    return orgs


def _orgs(ctx: Ctx) -> dict[str, _Org]:
    return _register(ctx.population, ctx.today())


def _get(ctx: Ctx, ein: str, field: str = "ein") -> _Org:
    org = _orgs(ctx).get(ein)
    if org is None:
        raise NotFound(
            f"no exempt organization with EIN {ein}", field=field, hint="search with charities__search_organizations"
        )
    return org


def _revoked(org: _Org, today: dt.date) -> bool:
    return org.revoked_on is not None and org.revoked_on <= today


def _deductible(org: _Org, today: dt.date) -> bool:
    return org.subsection == "501(c)(3)" and not _revoked(org, today)


# -- result models -----------------------------------------------------------------------------------------


class Organization(BaseModel):
    """An exempt organization's profile."""

    ein: Ein = Field(description="Employer Identification Number.")
    name: str = Field(description="Legal name.")
    city: City = Field(description="City.")
    state: State = Field(description="State.")
    zip: str = Field(description="ZIP code.")
    subsection: Subsection = Field(description="501(c) subsection.")
    foundation: Literal["public_charity", "private_foundation", "not_applicable"] = Field(
        description="Foundation status (501(c)(3) only)."
    )
    ntee_code: str = Field(description="NTEE code (K31 …).")
    ntee_major_group: str = Field(description="Its major group's title.")
    ruling_year: int = Field(description="Year the IRS recognized the exemption.")
    deductible: bool = Field(description="Whether contributions are tax-deductible now (Pub 78).")
    status: Literal["exempt", "revoked"] = Field(description="exempt, or revoked (automatic revocation).")
    mission: str = Field(description="Mission statement.")
    principal_officer: PersonName = Field(description="Principal officer on the latest return.")
    principal_officer_title: str = Field(description="Their title.")
    website: Url = Field(description="Website.")
    latest_tax_year: int | None = Field(description="Latest tax year filed.")


class Filing(BaseModel):
    """A Form 990-series return."""

    ein: Ein = Field(description="The filer.")
    tax_year: int = Field(description="Tax year.")
    form: Literal["990", "990-EZ", "990-N"] = Field(description="990, 990-EZ or 990-N (e-Postcard).")
    filed_on: Date = Field(description="When it was filed.")


class Financials(BaseModel):
    """Form 990 financials of one tax year (whole US dollars)."""

    ein: Ein = Field(description="The filer.")
    tax_year: int = Field(description="Tax year.")
    form: Literal["990", "990-EZ", "990-N"] = Field(description="The return.")
    total_revenue: int = Field(description="Total revenue.")
    contributions: int = Field(description="Contributions and grants.")
    program_service_revenue: int = Field(description="Program service and other revenue.")
    total_expenses: int = Field(description="Total functional expenses.")
    program_expenses: int = Field(description="Program services.")
    management_expenses: int = Field(description="Management and general.")
    fundraising_expenses: int = Field(description="Fundraising.")
    program_expense_ratio: float = Field(description="Program expenses / total expenses.")
    total_assets: int = Field(description="Total assets at year end.")
    total_liabilities: int = Field(description="Total liabilities.")
    net_assets: int = Field(description="Assets minus liabilities.")
    surplus: int = Field(description="Revenue minus expenses (negative: a deficit).")


class Revocation(BaseModel):
    """Automatic revocation status."""

    ein: Ein = Field(description="The organization.")
    revoked: bool = Field(description="Whether its exemption is revoked.")
    revocation_date: Date | None = Field(description="Effective date (the due date of the third missed return).")
    last_return_year: int | None = Field(description="Latest tax year it filed.")


class Pub78(BaseModel):
    """Pub 78 eligibility for deductible contributions."""

    ein: Ein = Field(description="The organization.")
    eligible: bool = Field(description="Whether contributions to it are deductible.")
    deductibility_code: Literal["PC", "POF", ""] = Field(description="PC public charity, POF private foundation.")
    reason: str = Field(description="Why.")


class NteeGroup(BaseModel):
    """An NTEE major group."""

    code: NteeMajor = Field(description="Letter.")
    title: str = Field(description="Title.")


def _org(org: _Org, today: dt.date) -> Organization:
    return Organization(
        ein=org.ein,
        name=org.name,
        city=org.city,
        state=org.state,
        zip=org.zip,
        subsection=org.subsection,
        foundation=org.foundation if org.subsection == "501(c)(3)" else "not_applicable",
        ntee_code=org.ntee,
        ntee_major_group=_NTEE[org.ntee[0]],
        ruling_year=org.ruling,
        deductible=_deductible(org, today),
        status="revoked" if _revoked(org, today) else "exempt",
        mission=org.mission,
        principal_officer=org.officer,
        principal_officer_title=org.officer_title,
        website=org.website,
        latest_tax_year=org.returns[-1].year if org.returns else None,
    )


def _fin(org: _Org, x: _Return) -> Financials:
    total = x.program + x.management + x.fundraising
    return Financials(
        ein=org.ein,
        tax_year=x.year,
        form=x.form,
        total_revenue=x.revenue,
        contributions=x.contributions,
        program_service_revenue=x.program_revenue,
        total_expenses=total,
        program_expenses=x.program,
        management_expenses=x.management,
        fundraising_expenses=x.fundraising,
        program_expense_ratio=round(x.program / total, 4),
        total_assets=x.assets,
        total_liabilities=x.liabilities,
        net_assets=x.assets - x.liabilities,
        surplus=x.revenue - total,
    )


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search exempt organizations", open_world=True)
def search_organizations(
    ctx: Ctx,
    name: Words | None = None,
    city: City | None = None,
    state: State | None = None,
    ntee_major: NteeMajor | None = None,
    subsection: Subsection | None = None,
    deductible_only: bool = False,
) -> list[Organization]:
    """Search the exempt organizations register, by name.

    Args:
        name: Words of the name.
        city: City.
        state: Two-letter state.
        ntee_major: NTEE major group letter (K food, P human services …).
        subsection: 501(c) subsection.
        deductible_only: Only organizations eligible for deductible contributions (Pub 78).
    """
    today = ctx.today()
    words = fold(name or "").split()
    found = [
        o
        for o in _orgs(ctx).values()
        if all(w in fold(o.name).split() for w in words)
        and (city is None or fold(city) == fold(o.city))
        and state in (None, o.state)
        and ntee_major in (None, o.ntee[0])
        and subsection in (None, o.subsection)
        and (not deductible_only or _deductible(o, today))
    ]
    return [_org(o, today) for o in sorted(found, key=lambda o: (o.name, o.ein))]


def _example_ein(ctx: Ctx) -> dict[str, Any]:
    return {"ein": next(iter(_orgs(ctx)))}


@service.tool(intent="get the organization", open_world=True, example=_example_ein)
def get_organization(ctx: Ctx, ein: Ein) -> Organization:
    """Get an organization's profile: subsection, foundation status, NTEE, mission, principal officer, status.

    Args:
        ein: The EIN (12-3456789).
    """
    return _org(_get(ctx, ein), ctx.today())


@service.tool(intent="list the organization's returns", open_world=True, example=_example_ein)
def list_filings(ctx: Ctx, ein: Ein) -> list[Filing]:
    """List an organization's Form 990-series returns, newest first.

    Args:
        ein: The EIN.
    """
    org = _get(ctx, ein)
    return [Filing(ein=ein, tax_year=x.year, form=x.form, filed_on=x.filed) for x in reversed(org.returns)]


@service.tool(intent="get the organization's financials", open_world=True, example=_example_ein)
def get_financials(ctx: Ctx, ein: Ein, tax_year: Annotated[int, Field(ge=1990, le=2100)] | None = None) -> Financials:
    """Get Form 990 financials of a tax year (default: the latest filed).

    Args:
        ein: The EIN.
        tax_year: The tax year.
    """
    org = _get(ctx, ein)
    if not org.returns:
        raise NotFound(f"{org.name} has filed no return", field="ein", hint="check its revocation status")
    if tax_year is None:
        return _fin(org, org.returns[-1])
    x = next((x for x in org.returns if x.year == tax_year), None)
    if x is None:
        years = ", ".join(str(x.year) for x in org.returns)
        raise NotFound(f"{org.name} filed no return for {tax_year}", field="tax_year", hint=f"it filed for {years}")
    return _fin(org, x)


@service.tool(intent="get the financial history", open_world=True, example=_example_ein)
def get_financial_history(
    ctx: Ctx, ein: Ein, years: Annotated[int, Field(ge=1, le=FILING_YEARS)] = 3
) -> list[Financials]:
    """Get the financials of an organization's latest returns, oldest first, to see the trend.

    Args:
        ein: The EIN.
        years: How many of the latest returns.
    """
    org = _get(ctx, ein)
    return [_fin(org, x) for x in org.returns[-years:]]


@service.tool(
    intent="find organizations by officer",
    open_world=True,
    example=lambda ctx: {"name": next(iter(_orgs(ctx).values())).officer},
)
def search_by_officer(ctx: Ctx, name: PersonName) -> list[Organization]:
    """Find the organizations whose principal officer has this name (Candid people search).

    Args:
        name: The person's full name (any case).
    """
    today = ctx.today()
    return [_org(o, today) for o in _orgs(ctx).values() if fold(o.officer) == fold(name)]


@service.tool(intent="check the revocation status", open_world=True, example=_example_ein)
def check_revocation(ctx: Ctx, ein: Ein) -> Revocation:
    """Check the Automatic Revocation of Exemption list for an organization.

    Args:
        ein: The EIN.
    """
    org = _get(ctx, ein)
    revoked = _revoked(org, ctx.today())
    return Revocation(
        ein=ein,
        revoked=revoked,
        revocation_date=org.revoked_on if revoked else None,
        last_return_year=org.returns[-1].year if org.returns else None,
    )


@service.tool(intent="check deductibility eligibility", open_world=True, example=_example_ein)
def check_pub78(ctx: Ctx, ein: Ein) -> Pub78:
    """Check whether contributions to an organization are tax-deductible (Publication 78).

    Args:
        ein: The EIN.
    """
    org = _get(ctx, ein)
    today = ctx.today()
    if _revoked(org, today):
        return Pub78(ein=ein, eligible=False, deductibility_code="", reason="exemption automatically revoked")
    if org.subsection != "501(c)(3)":
        return Pub78(ein=ein, eligible=False, deductibility_code="", reason=f"{org.subsection} organization")
    code = "POF" if org.foundation == "private_foundation" else "PC"
    return Pub78(ein=ein, eligible=True, deductibility_code=code, reason="501(c)(3) in good standing")


@service.tool(intent="list the NTEE major groups", open_world=True)
def list_ntee_groups(ctx: Ctx) -> list[NteeGroup]:
    """List the NTEE major groups the register uses."""
    return [NteeGroup(code=c, title=t) for c, t in _NTEE.items()]


# -- due-diligence checks ----------------------------------------------------------------------------------


class Check(Timestamped):
    """A due-diligence check of a nonprofit before money goes to it."""

    id: CheckId
    ein: Ein
    """The organization."""
    organization_name: str
    """Its name."""
    purpose: Purpose
    """grant, donation_match, sponsorship or volunteer_partnership."""
    amount_usd: int = 0
    """Intended amount (whole US dollars)."""
    requested_by: Email
    """The employee asking."""
    status: Literal["open", "passed", "flagged", "approved", "rejected", "cancelled"] = "open"
    """open, passed or flagged (after a run), approved, rejected or cancelled."""
    last_run_on: Date | None = None
    """When it last ran."""
    decided_by: Email | None = None
    """Who approved or rejected it."""
    notes: Text = ""
    """Notes."""


class Finding(Timestamped):
    """A finding of a due-diligence run."""

    id: FindingId
    check_id: CheckId
    """The check."""
    code: Literal["revoked", "not_501c3", "private_foundation", "missing_returns", "low_program_ratio", "deficit"]
    """What was found."""
    severity: Severity
    """blocker (cannot be waived) or warning."""
    message: Text
    """Details."""
    status: Literal["open", "waived"] = "open"
    """open or waived."""
    waived_by: Email | None = None
    """Who waived it."""
    waiver_reason: Text = ""
    """Why."""


_FINAL = ("approved", "rejected", "cancelled")


def _guard_check(ctx: Ctx, new: Check | None, old: Check | None) -> None:
    if old is not None and old.status in _FINAL:
        raise RuleViolation(f"check {old.id} is {old.status}", field="check_id", hint="open a new check")


checks = service.resource(
    Check,
    name="check",
    plural="checks",
    prefix="cdd",
    create=False,
    filters=("ein", "purpose", "status", "requested_by"),
    search=("organization_name", "notes"),
    update=("notes", "amount_usd"),
    transitions={
        "cancel": Transition("status", ("open", "passed", "flagged"), "cancelled", "cancel the check", destructive=True)
    },
    guard_update=_guard_check,
    guard_delete=_guard_check,
    title="due-diligence check",
)
findings = service.resource(
    Finding,
    name="finding",
    plural="findings",
    prefix="cfd",
    create=False,
    delete=False,
    filters=("check_id", "code", "severity", "status"),
    search=("message",),
    title="due-diligence finding",
)


def _staff(ctx: Ctx, *departments: str) -> set[str]:
    return {p.email for p in ctx.population.employees if not departments or p.department in departments}


def _example_open(ctx: Ctx) -> dict[str, Any]:
    org = next(o for o in _orgs(ctx).values() if _deductible(o, ctx.today()))
    return {
        "ein": org.ein,
        "purpose": "donation_match",
        "amount_usd": 500,
        "requested_by": ctx.population.employees[0].email,
    }


@service.tool(intent="open a due-diligence check", write=True, example=_example_open)
def open_check(
    ctx: Ctx, ein: Ein, purpose: Purpose, requested_by: Email, amount_usd: Annotated[int, Field(ge=0, le=10**9)] = 0
) -> Check:
    """Open a due-diligence check of an organization for a purpose (one open check per EIN and purpose).

    Args:
        ein: The organization's EIN.
        purpose: grant, donation_match, sponsorship or volunteer_partnership.
        requested_by: The employee asking.
        amount_usd: Intended amount, whole US dollars.
    """
    org = _get(ctx, ein)
    if requested_by not in _staff(ctx):
        raise RuleViolation(f"{requested_by} is not an employee", field="requested_by", hint="a colleague asks")
    for c in ctx.where(Check, ein=ein, purpose=purpose):
        if c.status not in _FINAL:
            raise RuleViolation(
                f"check {c.id} for {org.name} is still {c.status}", field="ein", hint="finish that check"
            )
    return ctx.create(
        Check, ein=ein, organization_name=org.name, purpose=purpose, amount_usd=amount_usd, requested_by=requested_by
    )


def _findings(org: _Org, purpose: str, today: dt.date) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    if _revoked(org, today):
        out.append(("revoked", "blocker", f"exemption revoked on {org.revoked_on}"))
    if org.subsection != "501(c)(3)":
        severity = "blocker" if purpose in ("grant", "donation_match") else "warning"
        out.append(("not_501c3", severity, f"{org.subsection} organization: gifts are not deductible"))
    elif org.foundation == "private_foundation" and purpose == "donation_match":
        out.append(("private_foundation", "warning", "private foundation: most matching programs exclude them"))
    recent = [x for x in org.returns if x.year >= today.year - 3]
    if not recent:
        out.append(("missing_returns", "warning", f"no return for tax years {today.year - 3} on"))
    if org.returns:
        fin = _fin(org, org.returns[-1])
        if fin.program_expense_ratio < MIN_PROGRAM_RATIO:
            ratio = f"{fin.program_expense_ratio:.0%}"
            out.append(("low_program_ratio", "warning", f"program expenses are {ratio} of expenses in {fin.tax_year}"))
        if fin.surplus < 0:
            out.append(("deficit", "warning", f"deficit of ${-fin.surplus:,} in {fin.tax_year}"))
    return out


@service.tool(
    intent="run the due-diligence check", write=True, example=first_example(Check, "check_id", where={"status": "open"})
)
def run_check(ctx: Ctx, check_id: CheckId) -> Check:
    """Run a check against the register: record its findings; passed without any, flagged with some.

    Args:
        check_id: The check (open, passed or flagged; a rerun replaces open findings).
    """
    c = ctx.get(Check, check_id, field="check_id")
    _guard_check(ctx, None, c)
    org = _get(ctx, c.ein, "check_id")
    waived = {f.code for f in ctx.where(Finding, check_id=c.id, status="waived")}
    for f in ctx.where(Finding, check_id=c.id, status="open"):
        ctx.delete(f)
    found = [f for f in _findings(org, c.purpose, ctx.today()) if f[0] not in waived]
    for code, severity, message in found:
        ctx.create(Finding, check_id=c.id, code=code, severity=severity, message=message)
    return ctx.update(c, status="flagged" if found else "passed", last_run_on=ctx.today())


def _example_waive(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(Finding, status="open", severity="warning")
    finance = sorted(_staff(ctx, "Finance")) or sorted(_staff(ctx))
    return None if f is None else {"finding_id": f.id, "waived_by": finance[0], "reason": "Reviewed the 990."}


@service.tool(intent="waive the finding", write=True, example=_example_waive)
def waive_finding(ctx: Ctx, finding_id: FindingId, waived_by: Email, reason: Text) -> Finding:
    """Waive an open warning with a reason (blockers cannot be waived); Finance staff only.

    Args:
        finding_id: The finding (open warning).
        waived_by: The Finance employee waiving it.
        reason: Why it is acceptable.
    """
    f = ctx.get(Finding, finding_id, field="finding_id")
    _guard_check(ctx, None, ctx.get(Check, f.check_id))
    if f.status != "open":
        raise RuleViolation(f"finding {f.id} is already waived", field="finding_id", hint="pick an open finding")
    if f.severity == "blocker":
        raise RuleViolation(f"{f.code} is a blocker and cannot be waived", field="finding_id", hint="reject the check")
    if waived_by not in (_staff(ctx, "Finance") or _staff(ctx)):
        raise RuleViolation(f"{waived_by} is not in Finance", field="waived_by", hint="ask a Finance colleague")
    if not reason.strip():
        raise RuleViolation("a waiver needs a reason", field="reason", hint="say why the finding is acceptable")
    return ctx.update(f, status="waived", waived_by=waived_by, waiver_reason=reason.strip())


def _decider(ctx: Ctx, c: Check, who: str) -> None:
    if who not in (_staff(ctx, "Finance") or _staff(ctx)):
        raise RuleViolation(f"{who} is not in Finance", field="decided_by", hint="ask a Finance colleague")
    if who == c.requested_by:
        raise RuleViolation("the requester cannot decide their own check", field="decided_by", hint="four eyes")


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Check, status="passed")
    if c is None:
        return None
    finance = sorted((_staff(ctx, "Finance") or _staff(ctx)) - {c.requested_by})
    return None if not finance else {"check_id": c.id, "decided_by": finance[0]}


@service.tool(intent="approve the due-diligence check", write=True, example=_example_decide)
def approve_check(ctx: Ctx, check_id: CheckId, decided_by: Email) -> Check:
    """Approve a check that passed, or was flagged and has every finding waived; by Finance, not the requester.

    Args:
        check_id: The check (passed or flagged).
        decided_by: The approving Finance employee.
    """
    c = ctx.get(Check, check_id, field="check_id")
    if c.status not in ("passed", "flagged"):
        raise RuleViolation(f"check {c.id} is {c.status}", field="check_id", hint="run it first")
    _decider(ctx, c, decided_by)
    still = ctx.where(Finding, check_id=c.id, status="open")
    if still:
        codes = ", ".join(f.code for f in still)
        raise RuleViolation(f"check {c.id} has open findings: {codes}", field="check_id", hint="waive them or reject")
    return ctx.update(c, status="approved", decided_by=decided_by)


@service.tool(intent="reject the due-diligence check", write=True, example=_example_decide)
def reject_check(ctx: Ctx, check_id: CheckId, decided_by: Email, reason: Text = "") -> Check:
    """Reject a check after a run; by Finance, not the requester.

    Args:
        check_id: The check (passed or flagged).
        decided_by: The rejecting Finance employee.
        reason: Why.
    """
    c = ctx.get(Check, check_id, field="check_id")
    if c.status not in ("passed", "flagged"):
        raise RuleViolation(f"check {c.id} is {c.status}", field="check_id", hint="run it first")
    _decider(ctx, c, decided_by)
    notes = f"{c.notes}\nRejected: {reason}".strip() if reason.strip() else c.notes
    return ctx.update(c, status="rejected", decided_by=decided_by, notes=notes)


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Checks for the matching-gift program and community grants: approved, flagged, open and rejected."""
    pop = s.population
    today = s.now.date()
    orgs = list(_register(pop, today).values())
    asker = pop.staff("People", "Marketing", fallback=2)
    finance = [p for p in pop.staff("Finance", fallback=3) if p.email != asker[0].email] or list(pop.employees[-1:])
    good = [o for o in orgs if _deductible(o, today) and not _findings(o, "grant", today)]
    bad = [o for o in orgs if _findings(o, "grant", today)]
    plan = (
        (good[0], "grant", 25_000, "approved"),
        (good[1], "donation_match", 500, "open"),
        (bad[0], "grant", 10_000, "flagged"),
        (bad[-1], "sponsorship", 5_000, "rejected"),
        (good[2], "volunteer_partnership", 0, "passed"),
    )
    for k, (org, purpose, amount, status) in enumerate(plan):
        found = _findings(org, purpose, today) if status != "open" else []
        requester = asker[k % len(asker)].email
        decider = next(p.email for p in [*finance, *pop.employees] if p.email != requester)
        c = s.create(
            Check,
            ein=org.ein,
            organization_name=org.name,
            purpose=purpose,
            amount_usd=amount,
            requested_by=requester,
            status=status,
            last_run_on=None if status == "open" else today - dt.timedelta(days=10 + k),
            decided_by=decider if status in ("approved", "rejected") else None,
            created_at=s.ago(days=30 + k),
            updated_at=s.ago(days=8 + k),
        )
        for code, severity, message in found:
            s.create(
                Finding,
                check_id=c.id,
                code=code,
                severity=severity,
                message=message,
                created_at=s.ago(days=10 + k),
                updated_at=s.ago(days=10 + k),
            )
