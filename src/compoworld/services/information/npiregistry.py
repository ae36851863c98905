"""ProviderLookup: the national provider directory by NPI, name, taxonomy and place, with credentialing work.

Modeled on the CMS NPPES NPI Registry API v2.1 (``?number=``,
``enumeration_type`` NPI-1 individual / NPI-2 organization, ``first_name``,
``last_name``, ``organization_name``, ``taxonomy_description``, ``city``,
``state``, ``postal_code``, ``country_code``, ``limit``, ``skip``; results
with ``basic`` — ``credential``, ``sex``, ``enumeration_date``,
``last_updated``, ``status`` A, ``authorized_official_*`` — ``addresses``
with ``address_purpose`` LOCATION / MAILING, and NUCC ``taxonomies`` with
``code``, ``desc``, ``primary``, ``state`` and ``license``), with the NPPES
deactivation file, and a credentialing team's work as in credentialing
platforms (CAQH ProView / Medallion): checklists of primary-source
verifications and monitors of an NPI's registry changes.

An open-world service: the directory is a deterministic draw from the world
seed. The practice's own clinicians (the clinic, EHR and pharmacy services'
providers, with the same NPIs) are individual NPIs at their clinic's address;
the clinic companies are organisation NPIs; other providers practise in the
world's cities; a few NPIs are deactivated. Stored state: a credentialing
checklist is opened once per active NPI, its items are verified or failed by
staff, it is submitted when no item is pending and approved by another staff
member only if every item is verified (else denied with a reason); approval
sets recredentialing due in 36 months. A monitor reports an NPI's updates and
deactivation since its last check.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Country, Date, Email, IdOf, PostalCode, SemanticType, Text
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.text import fold
from compoworld.services.kit.time import add_months
from compoworld.world.care import clinic_sites, clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "npiregistry",
    title="ProviderLookup",
    category="provider_directory",
    modeled_on="CMS NPPES NPI Registry API v2.1 (search by number, name, taxonomy, location; basic, addresses, "
    "taxonomies) with credentialing checklists and NPI monitors",
    description="Provider directory: look up individual and organisation NPIs by number, name, taxonomy and "
    "place with their addresses, taxonomies and licences, and keep the credentialing team's checklists of "
    "verifications (submit, approve by a second person, deny) and monitors of registry changes.",
)

Npi = Annotated[str, SemanticType("provider.npi", kind="ref"), StringConstraints(pattern=r"^[0-9]{10}$")]
TaxonomyCode = Annotated[str, StringConstraints(pattern=r"^[0-9]{3}[0-9A-Z]{6}X$")]
ChecklistId = Annotated[str, IdOf("npiregistry.checklist")]
MonitorId = Annotated[str, IdOf("npiregistry.monitor")]
Words = Annotated[str, StringConstraints(min_length=2, max_length=80)]
State = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
EnumerationType = Literal["NPI-1", "NPI-2"]
ItemName = Literal[
    "npi_verification", "state_license", "board_certification", "exclusion_check", "malpractice_insurance"
]
ITEMS: tuple[str, ...] = (
    "npi_verification",
    "state_license",
    "board_certification",
    "exclusion_check",
    "malpractice_insurance",
)
RECREDENTIAL_MONTHS = 36

_TAXONOMIES: dict[str, tuple[str, bool]] = {
    "207Q00000X": ("Family Medicine", True),
    "207R00000X": ("Internal Medicine", True),
    "208000000X": ("Pediatrics", True),
    "207N00000X": ("Dermatology", True),
    "207RC0000X": ("Internal Medicine, Cardiovascular Disease", True),
    "2084P0800X": ("Psychiatry & Neurology, Psychiatry", True),
    "363LF0000X": ("Nurse Practitioner, Family", True),
    "1223G0001X": ("Dentist, General Practice", True),
    "183500000X": ("Pharmacist", True),
    "261QP2300X": ("Clinic/Center, Primary Care", False),
    "282N00000X": ("General Acute Care Hospital", False),
    "333600000X": ("Pharmacy", False),
}
"""NUCC code: description, whether individuals (True) or organisations hold it."""
_CLINIC_TAXONOMY = ("207Q00000X", "207R00000X", "208000000X", "207N00000X", "207Q00000X", "207RC0000X")
"""Taxonomy of the practice's six clinicians, in the clinic's order of specialties."""
_US_STATE = {"New York": "NY", "Chicago": "IL", "Austin": "TX", "San Francisco": "CA", "Seattle": "WA"}
_CREDENTIAL = {"207": "MD", "208": "MD", "363": "NP", "122": "DDS", "183": "PharmD"}
_FIRST = ("Maria", "James", "Aisha", "Robert", "Mei", "Carlos", "Fatima", "John", "Priya", "Tom", "Elena", "Kwame")
_LAST = ("Garcia", "Smith", "Okafor", "Johnson", "Wang", "Lopez", "Haddad", "Brown", "Patel", "Novak", "Rossi")


@dataclass(frozen=True, slots=True)
class _Provider:
    npi: str
    kind: str
    name: str
    first: str | None
    last: str | None
    credential: str | None
    sex: str | None
    taxonomy: str
    license: str | None
    street: str
    city: str
    state: str | None
    postal: str
    country: str
    phone: str
    enumerated: dt.date
    updated: dt.date
    deactivated: dt.date | None
    official_email: str | None


def _db(ctx: Ctx) -> dict[str, _Provider]:
    return _build(ctx.population, ctx.today())


def _luhn_npi(base: int) -> str:
    """A 10-digit NPI: nine digits and the Luhn check digit over the 80840 prefix, as CMS issues them."""
    digits = f"80840{base:09d}"
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return f"{base:09d}{(10 - total % 10) % 10}"


@per_population
def _build(pop: Population, today: dt.date) -> dict[str, _Provider]:
    r = random.Random(f"npiregistry:{pop.seed}")
    out: dict[str, _Provider] = {}

    def ago(lo: int, hi: int) -> dt.date:
        return today - dt.timedelta(days=r.randint(lo, hi))

    sites = clinic_sites(pop)
    for i, c in enumerate(sites):
        official = pop.first_contact(c)
        npi = _luhn_npi(140_000_000 + 31_337 * i)
        a = c.address
        out[npi] = _Provider(
            npi,
            "NPI-2",
            c.name.upper(),
            None,
            None,
            None,
            None,
            "261QP2300X",
            None,
            a.street,
            a.city,
            _US_STATE.get(a.city),
            a.postal_code,
            a.country,
            c.phone,
            ago(2000, 6000),
            ago(10, 400),
            None,
            official.email if official else None,
        )
    for i, (p, site) in enumerate(clinicians(pop)):
        c = sites[site] if sites else pop.home
        a = c.address
        tax = _CLINIC_TAXONOMY[i % len(_CLINIC_TAXONOMY)]
        out[provider_npi(i)] = _Provider(
            provider_npi(i),
            "NPI-1",
            f"{p.last_name.upper()}, {p.first_name.upper()}",
            p.first_name.upper(),
            p.last_name.upper(),
            "MD",
            None,
            tax,
            f"MD{r.randint(100000, 999999)}",
            a.street,
            a.city,
            _US_STATE.get(a.city),
            a.postal_code,
            a.country,
            p.phone,
            ago(1500, 7000),
            ago(5, 700),
            None,
            p.email,
        )
    places = [c for c in pop.customers if c not in sites][:12] or [pop.home]
    codes = list(_TAXONOMIES)
    for n in range(60):
        c = places[n % len(places)]
        a = c.address
        tax = r.choice(codes)
        org = not _TAXONOMIES[tax][0]
        first, last = r.choice(_FIRST), r.choice(_LAST)
        name = f"{a.city.upper()} {_TAXONOMIES[tax][0].split(',')[0].upper()} {n}" if org else f"{last}, {first}"
        npi = _luhn_npi(150_000_000 + 104_729 * n)
        out[npi] = _Provider(
            npi,
            "NPI-2" if org else "NPI-1",
            name.upper(),
            None if org else first.upper(),
            None if org else last.upper(),
            None if org else _CREDENTIAL.get(tax[:3], "MD"),
            None if org else r.choice(("F", "M")),
            tax,
            None if org or r.random() < 0.1 else f"{tax[:2]}{r.randint(100000, 999999)}",
            f"{r.randint(1, 999)} {r.choice(('Main St', 'Park Ave', 'Health Way', 'Medical Pkwy'))}",
            a.city,
            _US_STATE.get(a.city),
            a.postal_code,
            a.country,
            c.phone,
            ago(800, 7000),
            ago(1, 900),
            ago(5, 300) if n % 13 == 5 else None,
            None,
        )
    return out


# -- result models --------------------------------------------------------------------------------------------


class Address(BaseModel):
    """An address of a provider."""

    address_purpose: Literal["LOCATION", "MAILING"] = Field(description="Practice location or mailing.")
    address_1: str = Field(description="Street.")
    city: City = Field(description="City.")
    state: State | None = Field(description="US state, if in the US.")
    postal_code: PostalCode = Field(description="Postal code.")
    country_code: Country = Field(description="Country.")
    telephone_number: str = Field(description="Phone.")


class Taxonomy(BaseModel):
    """A NUCC taxonomy of a provider."""

    code: TaxonomyCode = Field(description="NUCC code.")
    desc: str = Field(description="Description.")
    primary: bool = Field(description="Whether it is the primary taxonomy.")
    state: State | None = Field(description="Licensing state.")
    license: str | None = Field(description="Licence number; null when none is on file.")


class Provider(BaseModel):
    """An NPI record."""

    number: Npi = Field(description="The NPI.")
    enumeration_type: EnumerationType = Field(description="NPI-1 individual or NPI-2 organisation.")
    name: str = Field(description="LAST, FIRST for individuals; the organisation's name otherwise.")
    first_name: str | None = Field(description="First name (individuals).")
    last_name: str | None = Field(description="Last name (individuals).")
    credential: str | None = Field(description="Credential (MD, NP ...).")
    sex: Literal["F", "M"] | None = Field(description="Sex (individuals).")
    status: Literal["A", "D"] = Field(description="A active, D deactivated.")
    enumeration_date: Date = Field(description="When the NPI was issued.")
    last_updated: Date = Field(description="Last update of the record.")
    deactivation_date: Date | None = Field(description="When it was deactivated.")
    addresses: list[Address] = Field(description="Location and mailing addresses.")
    taxonomies: list[Taxonomy] = Field(description="Taxonomies, primary first.")
    contact_email: Email | None = Field(description="Direct e-mail of the provider or authorised official, if known.")


class TaxonomyInfo(BaseModel):
    """A NUCC taxonomy with its count of providers."""

    code: TaxonomyCode = Field(description="NUCC code.")
    desc: str = Field(description="Description.")
    enumeration_type: EnumerationType = Field(description="Who holds it.")
    providers: int = Field(description="Active providers with it.")


def _provider(p: _Provider) -> Provider:
    addr = Address(
        address_purpose="LOCATION",
        address_1=p.street,
        city=p.city,
        state=p.state,
        postal_code=p.postal,
        country_code=p.country,
        telephone_number=p.phone,
    )
    return Provider(
        number=p.npi,
        enumeration_type=p.kind,
        name=p.name,
        first_name=p.first,
        last_name=p.last,
        credential=p.credential,
        sex=p.sex,
        status="D" if p.deactivated else "A",
        enumeration_date=p.enumerated,
        last_updated=p.updated,
        deactivation_date=p.deactivated,
        addresses=[addr, addr.model_copy(update={"address_purpose": "MAILING"})],
        taxonomies=[
            Taxonomy(code=p.taxonomy, desc=_TAXONOMIES[p.taxonomy][0], primary=True, state=p.state, license=p.license)
        ],
        contact_email=p.official_email,
    )


def _get(ctx: Ctx, npi: str, field: str = "npi") -> _Provider:
    p = _db(ctx).get(npi)
    if p is None:
        raise NotFound(f"no NPI {npi} in the registry", field=field, hint="search with npiregistry__search_providers")
    return p


# -- open-world tools -----------------------------------------------------------------------------------------


@service.tool(intent="search the provider directory", open_world=True)
def search_providers(
    ctx: Ctx,
    first_name: Words | None = None,
    last_name: Words | None = None,
    organization_name: Words | None = None,
    taxonomy_description: Words | None = None,
    enumeration_type: EnumerationType | None = None,
    city: City | None = None,
    state: State | None = None,
    country_code: Country | None = None,
    limit: Annotated[int, Field(ge=1, le=200)] = 10,
    skip: Annotated[int, Field(ge=0, le=1000)] = 0,
) -> list[Provider]:
    """Search active NPIs by name, taxonomy and place (deactivated ones are left out), by NPI.

    Args:
        first_name: An individual's first name (exact, any case).
        last_name: An individual's last name (exact, any case).
        organization_name: Words of an organisation's name.
        taxonomy_description: Words of the taxonomy (Family Medicine, Pharmacy).
        enumeration_type: NPI-1 individuals or NPI-2 organisations.
        city: City of the practice location.
        state: US state of the practice location.
        country_code: Country of the practice location.
        limit: Most results.
        skip: Results to skip (paging).
    """
    ow, tw = fold(organization_name or "").split(), fold(taxonomy_description or "").split()
    found = [
        p
        for p in _db(ctx).values()
        if p.deactivated is None
        and (first_name is None or fold(first_name) == fold(p.first or ""))
        and (last_name is None or fold(last_name) == fold(p.last or ""))
        and (not ow or (p.kind == "NPI-2" and all(w in fold(p.name).split() for w in ow)))
        and all(w in fold(_TAXONOMIES[p.taxonomy][0]).split() for w in tw)
        and enumeration_type in (None, p.kind)
        and (city is None or fold(city) == fold(p.city))
        and state in (None, p.state)
        and country_code in (None, p.country)
    ]
    found.sort(key=lambda p: p.npi)
    return [_provider(p) for p in found[skip : skip + limit]]


def _example_npi(ctx: Ctx) -> dict[str, Any]:
    return {"npi": provider_npi(0)}


@service.tool(intent="look up an NPI", open_world=True, example=_example_npi)
def get_provider(ctx: Ctx, npi: Npi) -> Provider:
    """Get an NPI's record (?number=), deactivated ones included with status D.

    Args:
        npi: The 10-digit NPI.
    """
    return _provider(_get(ctx, npi))


@service.tool(intent="list provider taxonomies", open_world=True)
def list_taxonomies(ctx: Ctx, enumeration_type: EnumerationType | None = None) -> list[TaxonomyInfo]:
    """List the NUCC taxonomies in the directory with their counts of active providers.

    Args:
        enumeration_type: Only taxonomies of individuals (NPI-1) or organisations (NPI-2).
    """
    db = _db(ctx).values()
    out = []
    for code, (desc, person) in sorted(_TAXONOMIES.items()):
        kind = "NPI-1" if person else "NPI-2"
        if enumeration_type in (None, kind):
            n = sum(p.taxonomy == code and p.deactivated is None for p in db)
            out.append(TaxonomyInfo(code=code, desc=desc, enumeration_type=kind, providers=n))
    return out


# -- credentialing --------------------------------------------------------------------------------------------


class Item(Value):
    """A verification on a checklist."""

    name: ItemName = Field(description="What is verified.")
    status: Literal["pending", "verified", "failed"] = Field(default="pending", description="Its outcome.")
    verified_by: Email | None = Field(default=None, description="Who verified it.")
    verified_on: Date | None = Field(default=None, description="When.")
    note: str = Field(default="", description="Source and finding.")


class Checklist(Timestamped):
    """A credentialing checklist for a provider."""

    id: ChecklistId
    npi: Npi
    """The provider's NPI."""
    provider_name: str
    """Its name in the registry."""
    kind: Literal["initial", "recredentialing"] = "initial"
    """initial or recredentialing."""
    owner_email: Email
    """The credentialing specialist."""
    items: list[Item]
    """The verifications."""
    status: Literal["open", "submitted", "approved", "denied", "withdrawn"] = "open"
    """open, submitted (to the committee), approved, denied or withdrawn."""
    decided_by: Email | None = None
    """Who approved or denied it."""
    decision_note: Text = ""
    """Reason of a denial."""
    recredential_due: Date | None = None
    """When an approved provider is due again."""


class Monitor(Timestamped):
    """A watch on an NPI's registry record."""

    id: MonitorId
    npi: Npi
    """The NPI."""
    provider_name: str
    """Its name."""
    owner_email: Email
    """Who is told."""
    status: Literal["active", "paused"] = "active"
    """active, or paused (not checked)."""
    last_checked_on: Date
    """Changes after this date are reported at the next check."""


class Change(BaseModel):
    """A change found by a monitor."""

    npi: Npi = Field(description="The NPI.")
    change: Literal["updated", "deactivated"] = Field(description="The record was updated or deactivated.")
    date: Date = Field(description="When.")


def _staff(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _guard_checklist(ctx: Ctx, new: Checklist, old: Checklist | None) -> None:
    if new.owner_email not in _staff(ctx):
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="staff credential")
    if old is not None and old.status != "open" and new.status == old.status:
        raise RuleViolation(f"checklist {old.id} is {old.status}", field="checklist_id", hint="only open ones change")


def _guard_checklist_delete(ctx: Ctx, new: None, old: Checklist) -> None:
    if old.status not in ("open", "withdrawn"):
        raise RuleViolation(
            f"checklist {old.id} is {old.status}", field="checklist_id", hint="decided checklists are kept"
        )


checklists = service.resource(
    Checklist,
    name="checklist",
    plural="checklists",
    prefix="ncl",
    create=False,
    filters=("npi", "owner_email", "status", "kind"),
    search=("provider_name",),
    update=("owner_email",),
    transitions={"withdraw": Transition("status", ("open",), "withdrawn", "withdraw the credentialing checklist")},
    guard_update=_guard_checklist,
    guard_delete=_guard_checklist_delete,
    title="credentialing checklist",
)


def _guard_monitor(ctx: Ctx, new: Monitor, old: Monitor | None) -> None:
    if new.owner_email not in _staff(ctx):
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="staff monitor NPIs")


monitors = service.resource(
    Monitor,
    name="monitor",
    plural="monitors",
    prefix="nmo",
    create=False,
    filters=("npi", "owner_email", "status"),
    search=("provider_name",),
    update=("owner_email",),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the NPI monitor"),
        "resume": Transition("status", ("paused",), "active", "resume the NPI monitor"),
    },
    guard_update=_guard_monitor,
    title="NPI monitor",
)


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    busy = {c.npi for c in ctx.where(Checklist, status="open")} | {
        c.npi for c in ctx.where(Checklist, status="submitted")
    }
    free = next((p.npi for p in _db(ctx).values() if p.deactivated is None and p.npi not in busy), None)
    return None if free is None else {"npi": free, "owner_email": ctx.population.employees[0].email}


@service.tool(intent="open a credentialing checklist", write=True, example=_example_open)
def open_checklist(
    ctx: Ctx, npi: Npi, owner_email: Email, kind: Literal["initial", "recredentialing"] = "initial"
) -> Checklist:
    """Open a credentialing checklist for an active NPI, with every verification pending.

    Args:
        npi: The provider's NPI (active; one open or submitted checklist at a time).
        owner_email: The credentialing specialist (an employee).
        kind: initial or recredentialing (needs an earlier approved checklist).
    """
    p = _get(ctx, npi)
    if p.deactivated is not None:
        raise RuleViolation(
            f"NPI {npi} was deactivated on {p.deactivated}", field="npi", hint="a deactivated NPI is not credentialed"
        )
    for status in ("open", "submitted"):
        other = ctx.first(Checklist, npi=npi, status=status)
        if other is not None:
            raise Conflict(f"NPI {npi} already has {status} checklist {other.id}", field="npi", hint="work on that one")
    if kind == "recredentialing" and ctx.first(Checklist, npi=npi, status="approved") is None:
        raise RuleViolation(f"NPI {npi} was never approved", field="kind", hint="open an initial checklist")
    rec = ctx.create(
        Checklist,
        npi=npi,
        provider_name=p.name,
        kind=kind,
        owner_email=owner_email,
        items=[Item(name=n) for n in ITEMS],
    )
    _guard_checklist(ctx, rec, None)
    return rec


def _open(ctx: Ctx, checklist_id: str, status: str = "open") -> Checklist:
    c = ctx.get(Checklist, checklist_id, field="checklist_id")
    if c.status != status:
        raise RuleViolation(f"checklist {c.id} is {c.status}, not {status}", field="checklist_id", hint="list them")
    return c


def _example_verify(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Checklist, status="open")
    if c is None:
        return None
    item = next((i.name for i in c.items if i.status == "pending"), "exclusion_check")
    return {"checklist_id": c.id, "item": item, "result": "verified", "verified_by": ctx.population.employees[0].email}


@service.tool(intent="record a verification on the checklist", write=True, example=_example_verify)
def verify_item(
    ctx: Ctx,
    checklist_id: ChecklistId,
    item: ItemName,
    result: Literal["verified", "failed"],
    verified_by: Email,
    note: Annotated[str, StringConstraints(max_length=500)] = "",
) -> Checklist:
    """Record the outcome of one primary-source verification on an open checklist.

    A state licence can be verified only when the registry shows a licence number.

    Args:
        checklist_id: The checklist (open).
        item: The verification.
        result: verified or failed.
        verified_by: The employee who checked the source.
        note: Source and finding.
    """
    c = _open(ctx, checklist_id)
    if verified_by not in _staff(ctx):
        raise RuleViolation(f"{verified_by} is not an employee", field="verified_by", hint="staff verify")
    p = _get(ctx, c.npi)
    if item == "state_license" and result == "verified" and p.license is None:
        raise RuleViolation(
            f"the registry shows no licence for NPI {c.npi}", field="result", hint="record the licence check as failed"
        )
    items = [
        i.model_copy(update={"status": result, "verified_by": verified_by, "verified_on": ctx.today(), "note": note})
        if i.name == item
        else i
        for i in c.items
    ]
    return ctx.update(c, items=items)


@service.tool(
    intent="submit the checklist to the committee",
    write=True,
    example=first_example(
        Checklist,
        "checklist_id",
        where={"status": "open"},
        match=lambda ctx, c: all(i.status != "pending" for i in c.items),
    ),
)
def submit_checklist(ctx: Ctx, checklist_id: ChecklistId) -> Checklist:
    """Submit an open checklist to the credentialing committee once no verification is pending.

    Args:
        checklist_id: The checklist (open).
    """
    c = _open(ctx, checklist_id)
    pending = [i.name for i in c.items if i.status == "pending"]
    if pending:
        raise RuleViolation(
            f"verifications still pending: {', '.join(pending)}", field="checklist_id", hint="verify each first"
        )
    return ctx.update(c, status="submitted")


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Checklist, status="submitted"):
        if all(i.status == "verified" for i in c.items):
            other = next(p.email for p in ctx.population.employees if p.email != c.owner_email)
            return {"checklist_id": c.id, "decided_by": other}
    return None


@service.tool(intent="approve the provider's credentialing", write=True, example=_example_decide)
def approve_checklist(ctx: Ctx, checklist_id: ChecklistId, decided_by: Email) -> Checklist:
    """Approve a submitted checklist whose verifications all passed; recredentialing is due in 36 months.

    Args:
        checklist_id: The checklist (submitted).
        decided_by: The committee member (an employee other than the checklist's owner).
    """
    c = _decider(ctx, checklist_id, decided_by)
    failed = [i.name for i in c.items if i.status == "failed"]
    if failed:
        raise RuleViolation(
            f"failed verifications: {', '.join(failed)}", field="checklist_id", hint="deny it with a reason"
        )
    due = add_months(ctx.today(), RECREDENTIAL_MONTHS)
    return ctx.update(c, status="approved", decided_by=decided_by, recredential_due=due)


def _decider(ctx: Ctx, checklist_id: str, decided_by: str) -> Checklist:
    c = _open(ctx, checklist_id, "submitted")
    if decided_by not in _staff(ctx):
        raise RuleViolation(f"{decided_by} is not an employee", field="decided_by", hint="the committee decides")
    if decided_by == c.owner_email:
        raise RuleViolation("the owner cannot decide their own checklist", field="decided_by", hint="ask a colleague")
    return c


def _example_deny(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Checklist, status="submitted")
    if c is None:
        return None
    other = next(p.email for p in ctx.population.employees if p.email != c.owner_email)
    return {"checklist_id": c.id, "decided_by": other, "reason": "Licence could not be verified."}


@service.tool(intent="deny the provider's credentialing", write=True, example=_example_deny)
def deny_checklist(ctx: Ctx, checklist_id: ChecklistId, decided_by: Email, reason: Text) -> Checklist:
    """Deny a submitted checklist, with the reason.

    Args:
        checklist_id: The checklist (submitted).
        decided_by: The committee member (an employee other than the owner).
        reason: Why.
    """
    c = _decider(ctx, checklist_id, decided_by)
    if not reason.strip():
        raise RuleViolation("a denial needs a reason", field="reason", hint="say which verification failed")
    return ctx.update(c, status="denied", decided_by=decided_by, decision_note=reason.strip())


def _example_monitor(ctx: Ctx) -> dict[str, Any] | None:
    have = {m.npi for m in ctx.scan(Monitor)}
    free = next((n for n in _db(ctx) if n not in have), None)
    return None if free is None else {"npi": free, "owner_email": ctx.population.employees[0].email}


@service.tool(intent="monitor an NPI for changes", write=True, example=_example_monitor)
def create_monitor(ctx: Ctx, npi: Npi, owner_email: Email) -> Monitor:
    """Watch an NPI's registry record; updates and deactivation from today on are reported at each check.

    Args:
        npi: The NPI (watched once).
        owner_email: The employee told of changes.
    """
    p = _get(ctx, npi)
    other = ctx.first(Monitor, npi=npi)
    if other is not None:
        raise Conflict(f"NPI {npi} is already monitored by {other.id}", field="npi", hint="use that monitor")
    rec = ctx.create(Monitor, npi=npi, provider_name=p.name, owner_email=owner_email, last_checked_on=ctx.today())
    _guard_monitor(ctx, rec, None)
    return rec


@service.tool(
    intent="check the monitored NPI for changes",
    write=True,
    example=first_example(Monitor, "monitor_id", where={"status": "active"}),
)
def check_monitor(ctx: Ctx, monitor_id: MonitorId) -> list[Change]:
    """Report the NPI's update and deactivation after the last check, and move the check date.

    Args:
        monitor_id: The monitor (active).
    """
    m = ctx.get(Monitor, monitor_id, field="monitor_id")
    if m.status != "active":
        raise RuleViolation(f"monitor {m.id} is paused", field="monitor_id", hint="resume it first")
    p = _get(ctx, m.npi, "monitor_id")
    out = []
    if p.updated > m.last_checked_on:
        out.append(Change(npi=p.npi, change="updated", date=p.updated))
    if p.deactivated is not None and p.deactivated > m.last_checked_on:
        out.append(Change(npi=p.npi, change="deactivated", date=p.deactivated))
    ctx.update(m, last_checked_on=ctx.today())
    return out


# -- seed -----------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Checklists for the practice's clinicians in every state, and monitors on them and on a deactivated NPI."""
    pop = s.population
    today = s.now.date()
    db = _build(pop, today)
    team = pop.staff("Operations", "People", "Legal", fallback=3)
    owner, other = team[0].email, (team[1] if len(team) > 1 else pop.employees[-1]).email
    docs = [provider_npi(i) for i in range(len(clinicians(pop)))]
    plan = (("approved", 5), ("submitted", 5), ("open", 2), ("denied", 5), ("open", 5), ("submitted", 4))
    for k, (npi, (status, done)) in enumerate(zip(docs, plan, strict=False)):
        p = db[npi]
        verdicts = ["verified"] * done + ["pending"] * (5 - done)
        if k == 3:
            verdicts[1] = "failed"
        if k == 5:
            verdicts[1] = "failed"
            verdicts[4] = "verified"
        items = [
            Item(
                name=n,
                status=v,
                verified_by=owner if v != "pending" else None,
                verified_on=today - dt.timedelta(days=20) if v != "pending" else None,
                note="Primary source checked." if v == "verified" else ("Not found." if v == "failed" else ""),
            )
            for n, v in zip(ITEMS, verdicts, strict=True)
        ]
        s.create(
            Checklist,
            npi=npi,
            provider_name=p.name,
            kind="initial",
            owner_email=owner,
            items=items,
            status=status,
            decided_by=other if status in ("approved", "denied") else None,
            decision_note="State licence lapsed." if status == "denied" else "",
            recredential_due=add_months(today - dt.timedelta(days=15), RECREDENTIAL_MONTHS)
            if status == "approved"
            else None,
            created_at=s.ago(days=60 - k),
            updated_at=s.ago(days=15),
        )
    gone = [p.npi for p in db.values() if p.deactivated is not None]
    for k, npi in enumerate(docs[:3] + gone[:1]):
        s.create(
            Monitor,
            npi=npi,
            provider_name=db[npi].name,
            owner_email=owner,
            status="paused" if k == 2 else "active",
            last_checked_on=today - dt.timedelta(days=365),
            created_at=s.ago(days=500),
            updated_at=s.ago(days=365),
        )
