"""Mailfinder: find and verify professional e-mail addresses, and keep the prospects found as leads.

Modeled on the Hunter.io API v2 (``/domain-search``, ``/email-finder``,
``/email-verifier``, ``/email-count``, ``/account`` with its monthly
``requests.searches`` and ``requests.verifications`` quotas, ``/leads`` and
``/leads_lists``). The four look-ups are open-world: their answers come from a
deterministic model of the outside world built on the shared population, the
same one the company-data service answers from. A world company's people are
known with their real addresses, which follow the company's pattern
(``{first}.{last}``); an unknown company's pattern, people, generic addresses
and catch-all setting are drawn from its domain alone; webmail, disposable and
reserved domains are recognised as such. Verification says ``valid`` for a
mailbox that exists, ``invalid`` for one that does not, ``accept_all`` where the
server takes every address, ``webmail``, ``disposable`` or ``unknown``.

The account's quotas are charged when results are saved into leads: a domain
search saved costs one search per ten addresses returned, a finder result one
search (nothing when no address is found), each lead verification one
verification; a call the quota cannot cover is refused before anything is
saved. A lead's e-mail address is unique in the account, and changing it drops
its verification.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Date,
    Domain,
    Email,
    FirstName,
    IdOf,
    JobTitle,
    LastName,
    PersonName,
    Quantity,
    Text,
)
from compoworld.services.information.companyinfo import (
    FREE_MAIL,
    RESERVED_DOMAINS,
    RESERVED_SUFFIXES,
    _apply_pattern,
    _Firm,
    _firm,
    _Human,
    _humans,
    _local_token,
    _normal_domain,
    _same_name,
    _seniority_of,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "emailcheck",
    title="Mailfinder",
    category="email_verification",
    modeled_on="Hunter.io API v2 (Domain Search, Email Finder, Email Verifier, Email Count, Account, Leads, "
    "Leads Lists)",
    description="Professional e-mail discovery: the addresses and pattern of a company's domain, a person's work "
    "address from their name, deliverability checks, and the sales team's saved leads and lists, within the "
    "account's monthly search and verification quotas.",
)

AccountId = Annotated[str, IdOf("emailcheck.account")]
LeadsListId = Annotated[str, IdOf("emailcheck.leads_list")]
LeadId = Annotated[str, IdOf("emailcheck.lead")]

VerifyStatus = Literal["valid", "invalid", "accept_all", "webmail", "disposable", "unknown"]
Deliverability = Literal["deliverable", "undeliverable", "risky"]
Department = Literal["executive", "it", "finance", "management", "sales", "support", "hr", "marketing", "operations"]
Seniority = Literal["junior", "senior", "executive"]
Score = Annotated[int, Field(ge=0, le=100)]

DISPOSABLE = frozenset({"mailinator.com", "10minutemail.com", "guerrillamail.com", "yopmail.com", "tempmail.dev"})
"""Throwaway mail providers."""
WORLD_WEBMAIL = ("mailbox.net", "postbox.org", "inbox.io")
"""The world's own webmail providers: every one of their users is a known consumer."""
GENERIC = ("info", "contact", "sales", "support", "hello", "press", "jobs", "billing")
"""Generic (role) mailbox names a company may run."""
DEPARTMENTS: dict[str, Department] = {
    "Engineering": "it",
    "Sales": "sales",
    "Support": "support",
    "Finance": "finance",
    "People": "hr",
    "Operations": "operations",
    "Marketing": "marketing",
}
_TITLE_DEPARTMENTS: tuple[tuple[str, Department], ...] = (
    ("chief", "executive"),
    ("sales", "sales"),
    ("account", "finance"),
    ("market", "marketing"),
    ("engineer", "it"),
    ("operations", "operations"),
    ("manager", "management"),
)
"""Departments read off job titles of people whose department is not known."""
PAGE = 10
"""Addresses one search credit pays for in a saved domain search."""


def _rng(ctx: Ctx, *parts: str) -> random.Random:
    """Randomness for one domain or address, from the world seed and that key alone."""
    return random.Random(":".join(("emailcheck", str(ctx.population.seed), *parts)))


def _department(h: _Human) -> Department | None:
    if h.department in DEPARTMENTS:
        return DEPARTMENTS[h.department]
    low = h.job_title.lower()
    for key, dep in (
        ("chief", "executive"),
        ("sales", "sales"),
        ("account", "finance"),
        ("market", "marketing"),
        ("engineer", "it"),
        ("operations", "operations"),
        ("manager", "management"),
    ):
        if key in low:
            return dep  # type: ignore[return-value]
    return None


def _seniority(title: str) -> Seniority:
    level = _seniority_of(title)
    return (
        "executive"
        if level in ("executive", "director")
        else ("senior" if level in ("manager", "senior") else "junior")
    )


def _generic(ctx: Ctx, firm: _Firm) -> list[str]:
    rng = _rng(ctx, "generic", firm.domain)
    return sorted(rng.sample(GENERIC, k=2 + min(3, firm.employees // 150)))


def _accept_all(ctx: Ctx, firm: _Firm) -> bool:
    """Whether the domain's mail server accepts every address (never for world companies, whose mailboxes are known)."""
    return firm.company is None and _rng(ctx, "catchall", firm.domain).random() < 0.35


def _score(ctx: Ctx, email: str, low: int, high: int) -> int:
    return _rng(ctx, "score", email).randint(low, high)


# -- result models -----------------------------------------------------------------------


class FoundEmail(BaseModel):
    """An address a domain search found."""

    value: Email = Field(description="The address.")
    type: Literal["personal", "generic"] = Field(description="personal (a person's) or generic (info@, sales@ …).")
    confidence: Score = Field(description="How sure the finding is, 0–100.")
    first_name: FirstName | None = Field(default=None, description="The person's given name.")
    last_name: LastName | None = Field(default=None, description="The person's family name.")
    position: JobTitle | None = Field(default=None, description="Job title.")
    department: Department | None = Field(default=None, description="Department.")
    seniority: Seniority | None = Field(default=None, description="junior, senior or executive.")
    sources: int = Field(description="How many public pages mention the address.")


class DomainSearch(BaseModel):
    """The addresses found on a domain."""

    domain: Domain = Field(description="The domain searched.")
    organization: CompanyName | None = Field(description="The organisation behind it (none for webmail).")
    pattern: str | None = Field(description="The address pattern, e.g. {first}.{last}.")
    webmail: bool = Field(description="Whether it is a webmail provider (no company addresses).")
    accept_all: bool = Field(description="Whether the mail server accepts every address.")
    total: int = Field(description="Addresses matching the filters, before paging.")
    emails: list[FoundEmail] = Field(description="This page of addresses, most confident first.")


class Verification(BaseModel):
    """The deliverability of one address."""

    email: Email = Field(description="The address.")
    status: VerifyStatus = Field(description="valid, invalid, accept_all, webmail, disposable or unknown.")
    result: Deliverability = Field(description="deliverable, undeliverable or risky.")
    score: Score = Field(description="Deliverability score, 0–100.")
    regexp: bool = Field(description="Whether the address is well formed.")
    gibberish: bool = Field(description="Whether the local part looks machine-generated.")
    disposable: bool = Field(description="Whether the domain is a throwaway provider.")
    webmail: bool = Field(description="Whether the domain is a webmail provider.")
    mx_records: bool = Field(description="Whether the domain has mail servers.")
    smtp_check: bool = Field(description="Whether the mailbox answered as existing.")
    accept_all: bool = Field(description="Whether the server accepts every address.")


class Finding(BaseModel):
    """The address the finder found for a person."""

    email: Email = Field(description="The most likely address.")
    score: Score = Field(description="Confidence, 0–100.")
    domain: Domain = Field(description="The company domain.")
    company: CompanyName = Field(description="The company.")
    first_name: FirstName = Field(description="Given name searched.")
    last_name: LastName = Field(description="Family name searched.")
    position: JobTitle | None = Field(description="Job title when the person is known.")
    known: bool = Field(description="Whether the person was found on public pages (else the pattern's guess).")
    verification: VerifyStatus | None = Field(description="The address's verification status when known.")


class EmailCount(BaseModel):
    """How many addresses are known on a domain (free: no quota)."""

    domain: Domain = Field(description="The domain.")
    total: int = Field(description="All addresses.")
    personal: int = Field(description="Personal addresses.")
    generic: int = Field(description="Generic addresses.")
    by_department: dict[str, int] = Field(description="Personal addresses by department.")


# -- the world model ---------------------------------------------------------------------


def _found(ctx: Ctx, domain: str) -> tuple[_Firm, list[FoundEmail]]:
    firm = _firm(ctx, domain)
    out = [
        FoundEmail(
            value=h.email,
            type="personal",
            confidence=_score(ctx, h.email, 90, 99) if h.person is not None else _score(ctx, h.email, 70, 92),
            first_name=h.first_name,
            last_name=h.last_name,
            position=h.job_title,
            department=_department(h),
            seniority=_seniority(h.job_title),
            sources=_rng(ctx, "sources", h.email).randint(1, 12),
        )
        for h in _humans(ctx, firm)
    ]
    out += [
        FoundEmail(
            value=f"{g}@{firm.domain}",
            type="generic",
            confidence=_score(ctx, g + firm.domain, 85, 95),
            sources=_rng(ctx, "sources", g + firm.domain).randint(3, 30),
        )
        for g in _generic(ctx, firm)
    ]
    out.sort(key=lambda e: (-e.confidence, e.value))
    return firm, out


def verify(ctx: Ctx, email: str) -> Verification:
    """Check an address against the world: the mailbox exists, does not, or the server cannot tell."""
    local, _, domain = email.partition("@")
    domain = _normal_domain(domain)
    gibberish = len(local) >= 8 and not re.search(r"[aeiou]", local)
    base: dict[str, Any] = {
        "email": email,
        "regexp": True,
        "gibberish": gibberish,
        "disposable": False,
        "webmail": False,
        "mx_records": True,
        "smtp_check": False,
        "accept_all": False,
    }
    known = {p.email for p in ctx.population.people}
    if domain in DISPOSABLE:
        return Verification(status="disposable", result="risky", score=25, **{**base, "disposable": True})
    if domain in RESERVED_DOMAINS or domain.endswith(RESERVED_SUFFIXES):
        return Verification(status="invalid", result="undeliverable", score=0, **{**base, "mx_records": False})
    if domain in FREE_MAIL:
        base["webmail"] = True
        if email in known:
            return Verification(status="webmail", result="deliverable", score=90, **{**base, "smtp_check": True})
        if domain in WORLD_WEBMAIL:
            return Verification(status="invalid", result="undeliverable", score=5, **base)
        return Verification(status="webmail", result="risky", score=50, **base)
    firm = _firm(ctx, domain, field="email")
    if _accept_all(ctx, firm):
        return Verification(
            status="accept_all",
            result="risky",
            score=_score(ctx, email, 55, 80),
            **{**base, "accept_all": True, "smtp_check": True},
        )
    mailboxes = {h.email for h in _humans(ctx, firm)} | {f"{g}@{firm.domain}" for g in _generic(ctx, firm)}
    if email in mailboxes:
        return Verification(
            status="valid", result="deliverable", score=_score(ctx, email, 91, 100), **{**base, "smtp_check": True}
        )
    return Verification(status="invalid", result="undeliverable", score=_score(ctx, email, 0, 10), **base)


def find(ctx: Ctx, domain: str, first_name: str, last_name: str) -> Finding:
    """The finder's answer: the known person's address, else the domain pattern's guess."""
    for name, field in ((first_name, "first_name"), (last_name, "last_name")):
        if not _local_token(name):
            raise RuleViolation(
                f"cannot form an address from {name!r}", field=field, hint="give the name in Latin letters"
            )
    if _normal_domain(domain) in FREE_MAIL:
        raise RuleViolation(
            f"{domain} is a webmail provider: its addresses follow no company pattern",
            field="domain",
            hint="give the domain of the person's employer",
        )
    firm = _firm(ctx, domain)
    common = {"domain": firm.domain, "company": firm.name, "first_name": first_name, "last_name": last_name}
    for h in _humans(ctx, firm):
        if _same_name(h.first_name, first_name) and _same_name(h.last_name, last_name):
            return Finding(
                email=h.email,
                score=_score(ctx, h.email, 92, 99),
                position=h.job_title,
                known=True,
                verification=verify(ctx, h.email).status,
                **common,
            )
    guess = f"{_apply_pattern(firm.pattern, first_name, last_name)}@{firm.domain}"
    score = 30 if firm.company is not None else _score(ctx, guess, 40, 70)
    return Finding(email=guess, score=score, position=None, known=False, verification=None, **common)


# -- open-world look-ups -----------------------------------------------------------------


def _ex_domain(ctx: Ctx) -> dict[str, Any]:
    return {"domain": ctx.population.customers[0].domain}


@service.tool(intent="find the e-mail addresses of a company's domain", open_world=True, example=_ex_domain)
def domain_search(
    ctx: Ctx,
    domain: Domain,
    type: Literal["personal", "generic"] | None = None,
    department: Department | None = None,
    seniority: Seniority | None = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 10,
    offset: Annotated[int, Field(ge=0, le=10_000)] = 0,
) -> DomainSearch:
    """Every address found on a domain, with the pattern, most confident first.

    Args:
        domain: The company's web domain.
        type: Only personal or only generic addresses.
        department: Only people of this department.
        seniority: Only people of this seniority.
        limit: Addresses per page.
        offset: Addresses to skip.
    """
    domain = _normal_domain(domain)
    if domain in FREE_MAIL:
        return DomainSearch(
            domain=domain, organization=None, pattern=None, webmail=True, accept_all=False, total=0, emails=[]
        )
    firm, found = _found(ctx, domain)
    hits = [
        e
        for e in found
        if (type is None or e.type == type)
        and (department is None or e.department == department)
        and (seniority is None or e.seniority == seniority)
    ]
    return DomainSearch(
        domain=firm.domain,
        organization=firm.name,
        pattern=firm.pattern,
        webmail=False,
        accept_all=_accept_all(ctx, firm),
        total=len(hits),
        emails=hits[offset : offset + limit],
    )


def _ex_person(ctx: Ctx) -> dict[str, Any]:
    p = ctx.population.contacts[0]
    company = ctx.population.company_of(p)
    return {
        "domain": company.domain if company else "example-firm.io",
        "first_name": p.first_name,
        "last_name": p.last_name,
    }


@service.tool(intent="find the person's work e-mail address", open_world=True, example=_ex_person)
def email_finder(ctx: Ctx, domain: Domain, first_name: FirstName, last_name: LastName) -> Finding:
    """The most likely work address of a person from their name and their company's domain.

    Args:
        domain: The company's web domain.
        first_name: The person's given name.
        last_name: The person's family name.
    """
    return find(ctx, domain, first_name, last_name)


@service.tool(
    intent="check whether the e-mail address is deliverable",
    open_world=True,
    example=lambda ctx: {"email": ctx.population.contacts[0].email},  # a known person's work address
)
def email_verifier(ctx: Ctx, email: Email) -> Verification:
    """Check an address's deliverability: format, mail servers, mailbox, catch-all, webmail, disposable.

    Args:
        email: The address.
    """
    return verify(ctx, email)


@service.tool(intent="count the e-mail addresses known on the domain", open_world=True, example=_ex_domain)
def email_count(ctx: Ctx, domain: Domain) -> EmailCount:
    """How many addresses are known on a domain, personal and generic, by department (free of charge).

    Args:
        domain: The company's web domain.
    """
    domain = _normal_domain(domain)
    if domain in FREE_MAIL:
        return EmailCount(domain=domain, total=0, personal=0, generic=0, by_department={})
    firm, found = _found(ctx, domain)
    personal = [e for e in found if e.type == "personal"]
    by: dict[str, int] = {}
    for e in personal:
        if e.department:
            by[e.department] = by.get(e.department, 0) + 1
    return EmailCount(
        domain=firm.domain,
        total=len(found),
        personal=len(personal),
        generic=len(found) - len(personal),
        by_department=dict(sorted(by.items())),
    )


# -- account, lists and leads ------------------------------------------------------------


class Account(Record):
    """The company's account and its monthly quotas."""

    id: AccountId
    owner_name: PersonName
    """The account owner."""
    owner_email: Email
    """The owner's login address."""
    plan_name: Literal["Free", "Starter", "Growth", "Business"]
    """The subscription plan."""
    reset_date: Date
    """When the monthly quotas reset."""
    searches_used: Quantity
    """Searches used this period."""
    searches_available: Quantity
    """Searches the plan gives each period."""
    verifications_used: Quantity
    """Verifications used this period."""
    verifications_available: Quantity
    """Verifications the plan gives each period."""


class LeadsList(Created):
    """A named list of leads."""

    id: LeadsListId
    name: Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
    """The list's name (unique)."""


class Lead(Timestamped):
    """A saved prospect."""

    id: LeadId
    leads_list_id: LeadsListId
    """The list it is on."""
    email: Email
    """The address (unique in the account)."""
    first_name: FirstName | None = None
    """Given name."""
    last_name: LastName | None = None
    """Family name."""
    position: JobTitle | None = None
    """Job title."""
    company: CompanyName | None = None
    """Employer."""
    domain: Domain | None = None
    """The employer's web domain."""
    confidence_score: Score | None = None
    """How sure the finding was."""
    source: Literal["manual", "domain_search", "email_finder"] = "manual"
    """How it was added."""
    verification_status: VerifyStatus | None = None
    """The last verification's status."""
    verification_date: Date | None = None
    """When it was last verified."""
    notes: Text = ""
    """Notes."""


def _guard_lead(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Lead, email=new.email):
        if other.id != new.id:
            raise Conflict(
                f"{new.email} is already a lead ({other.id})", field="email", hint="update the existing lead instead"
            )
    if old is not None and new.email != old.email:
        ctx.update(new, verification_status=None, verification_date=None, confidence_score=None)


accounts = service.resource(
    Account, name="account", plural="accounts", prefix="acct", create=False, get=False, filters=None, delete=False
)
leads_lists = service.resource(
    LeadsList,
    name="leads_list",
    plural="leads_lists",
    prefix="ll",
    create=("name",),
    get=False,
    filters=("name",),
    delete=False,
    unique=("name",),
    title="leads list",
)
leads = service.resource(
    Lead,
    name="lead",
    plural="leads",
    prefix="lead",
    create=("leads_list_id", "email", "first_name", "last_name", "position", "company", "domain", "notes"),
    filters=("leads_list_id", "email", "domain", "verification_status", "source"),
    search=("first_name", "last_name", "company", "email"),
    update=("leads_list_id", "email", "first_name", "last_name", "position", "company", "notes"),
    guard_create=_guard_lead,
    guard_update=_guard_lead,
)


def _account(ctx: Ctx) -> Account:
    acct = ctx.first(Account)
    if acct is None:
        raise NotFound("the account is not set up", hint="ask the account owner to sign in once")
    return acct


def _charge(ctx: Ctx, acct: Account, kind: Literal["searches", "verifications"], cost: int, field: str) -> Account:
    used, available = getattr(acct, f"{kind}_used"), getattr(acct, f"{kind}_available")
    if used + cost > available:
        raise RuleViolation(
            f"the monthly {kind} quota is used up: {used} of {available} used, this needs {cost}",
            field=field,
            hint=f"wait for the reset on {acct.reset_date} or upgrade the {acct.plan_name} plan",
        )
    return ctx.update(acct, **{f"{kind}_used": used + cost})


@service.tool(intent="check the account's plan and remaining quota")
def account_information(ctx: Ctx) -> Account:
    """The account's plan, its monthly search and verification quotas and what is used of them."""
    return _account(ctx)


@service.tool(
    intent="verify the lead's e-mail address",
    write=True,
    example=first_example(Lead, "lead_id", where={"verification_status": None}),
)
def verify_lead(ctx: Ctx, lead_id: LeadId) -> Lead:
    """Verify a lead's address and store the result; costs one verification.

    Args:
        lead_id: The lead.
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    _charge(ctx, _account(ctx), "verifications", 1, "lead_id")
    result = verify(ctx, lead.email)
    return ctx.update(lead, verification_status=result.status, verification_date=ctx.today())


def _ex_finder_lead(ctx: Ctx) -> dict[str, Any] | None:
    lst = ctx.first(LeadsList)
    saved = {lead.email for lead in ctx.scan(Lead)}
    for p in ctx.population.contacts:
        company = ctx.population.company_of(p)
        if company is not None and lst is not None and p.email not in saved:
            return {
                "leads_list_id": lst.id,
                "domain": company.domain,
                "first_name": p.first_name,
                "last_name": p.last_name,
            }
    return None


@service.tool(intent="find the person's address and save them as a lead", write=True, example=_ex_finder_lead)
def save_finder_lead(
    ctx: Ctx, leads_list_id: LeadsListId, domain: Domain, first_name: FirstName, last_name: LastName
) -> Lead:
    """Run the finder for a person and save the address found as a lead; costs one search.

    Args:
        leads_list_id: The list to save the lead on.
        domain: The company's web domain.
        first_name: The person's given name.
        last_name: The person's family name.
    """
    ctx.get(LeadsList, leads_list_id, field="leads_list_id")
    found = find(ctx, domain, first_name, last_name)
    if ctx.first(Lead, email=found.email) is not None:
        raise Conflict(f"{found.email} is already a lead", field="first_name", hint="update the existing lead instead")
    _charge(ctx, _account(ctx), "searches", 1, "domain")
    return ctx.create(
        Lead,
        leads_list_id=leads_list_id,
        email=found.email,
        first_name=first_name,
        last_name=last_name,
        position=found.position,
        company=found.company,
        domain=found.domain,
        confidence_score=found.score,
        source="email_finder",
    )


class SavedSearch(BaseModel):
    """What saving a domain search added."""

    domain: Domain = Field(description="The domain.")
    searches_charged: int = Field(description="Searches taken from the quota (one per ten addresses returned).")
    added: list[Lead] = Field(description="New leads.")
    skipped: list[Email] = Field(description="Addresses already saved as leads.")


def _ex_domain_leads(ctx: Ctx) -> dict[str, Any] | None:
    lst = ctx.first(LeadsList)
    return None if lst is None else {"leads_list_id": lst.id, "domain": ctx.population.customers[-1].domain}


@service.tool(
    intent="save a company's people as leads",
    write=True,
    example=_ex_domain_leads,
)
def save_domain_leads(
    ctx: Ctx,
    leads_list_id: LeadsListId,
    domain: Domain,
    department: Department | None = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 10,
) -> SavedSearch:
    """Search a domain for personal addresses and save the people as leads; costs one search per ten returned.

    Args:
        leads_list_id: The list to save them on.
        domain: The company's web domain.
        department: Only people of this department.
        limit: At most this many addresses.
    """
    ctx.get(LeadsList, leads_list_id, field="leads_list_id")
    domain = _normal_domain(domain)
    if domain in FREE_MAIL:
        raise RuleViolation(
            f"{domain} is a webmail provider and has no company addresses",
            field="domain",
            hint="search the domain of a company",
        )
    firm, found = _found(ctx, domain)
    people = [e for e in found if e.type == "personal" and (department is None or e.department == department)]
    page = people[:limit]
    if not page:
        raise RuleViolation(
            f"no personal addresses found on {domain}" + (f" in {department}" if department else ""),
            field="department" if department else "domain",
            hint="try without the department filter or another domain",
        )
    cost = -(-len(page) // PAGE)
    _charge(ctx, _account(ctx), "searches", cost, "domain")
    added, skipped = [], []
    for e in page:
        if ctx.first(Lead, email=e.value) is not None:
            skipped.append(e.value)
            continue
        added.append(
            ctx.create(
                Lead,
                leads_list_id=leads_list_id,
                email=e.value,
                first_name=e.first_name,
                last_name=e.last_name,
                position=e.position,
                company=firm.name,
                domain=firm.domain,
                confidence_score=e.confidence,
                source="domain_search",
            )
        )
    return SavedSearch(domain=firm.domain, searches_charged=cost, added=added, skipped=skipped)


# -- seeding -----------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """The sales team's account close to its verification quota, two lists and leads from customer companies."""
    pop = s.population
    owner = (pop.staff("Sales", fallback=1) or list(pop.people[:1]))[0]
    today = s.now.date()
    s.create(
        Account,
        owner_name=owner.name,
        owner_email=owner.email,
        plan_name="Starter",
        reset_date=add_months(today.replace(day=1), 1),
        searches_used=462,
        searches_available=500,
        verifications_used=995,
        verifications_available=1000,
    )
    outbound = s.create(LeadsList, name="Outbound: software prospects", created_at=s.ago(days=40))
    events = s.create(LeadsList, name="Trade show follow-ups", created_at=s.ago(days=12))
    for k, p in enumerate(pop.contacts[:18]):
        company = pop.company_of(p)
        if company is None:
            continue
        verified = k % 3 != 2
        when = s.ago(days=30 - k)
        s.create(
            Lead,
            leads_list_id=outbound.id if company.industry == "software" else events.id,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            position=p.job_title,
            company=company.name,
            domain=company.domain,
            confidence_score=90 + k % 10 if k % 2 else None,
            source="domain_search" if k % 2 else "manual",
            verification_status="valid" if verified else None,
            verification_date=(when + dt.timedelta(days=1)).date() if verified else None,
            created_at=when,
            updated_at=when + dt.timedelta(days=1 if verified else 0),
        )
    # A lead who left: their old address no longer exists.
    gone = pop.contacts[18] if len(pop.contacts) > 18 else None
    company = pop.company_of(gone) if gone else None
    if gone is not None and company is not None:
        s.create(
            Lead,
            leads_list_id=events.id,
            email=f"{_local_token(gone.first_name)}.{_local_token(gone.last_name)}.old@{company.domain}",
            first_name=gone.first_name,
            last_name=gone.last_name,
            company=company.name,
            domain=company.domain,
            verification_status="invalid",
            verification_date=today - dt.timedelta(days=3),
            notes="Bounced after the trade show.",
            created_at=s.ago(days=20),
            updated_at=s.ago(days=3),
        )
