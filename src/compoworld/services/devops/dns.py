"""Waypoint DNS: a domain registrar and authoritative DNS with zones, typed records and renewals.

Modeled on the Cloudflare API v4 (Zones with ``status`` pending/active and
assigned ``name_servers``, DNS records with ``type``, ``content``, ``ttl``
where 1 means automatic, ``proxied`` and ``priority``, and its validation
errors such as 81053 "a CNAME cannot coexist with other records" and 81058
"an identical record already exists") and Cloudflare Registrar (domain
registration and renewal at cost, auto-renew, transfer lock, nameservers):
record content must fit its type (IPv4 for A, IPv6 for AAAA, host names for
CNAME/MX/NS, a priority for MX and SRV); only A, AAAA and CNAME records are
proxied and proxied records use automatic TTL; a zone becomes active only when
its domain delegates to the zone's assigned nameservers; a domain's
registration cannot extend beyond ten years; expired domains past the grace
period cost a redemption fee; transfers out need the lock off, 60 days since
registration and an unexpired domain.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Currency, Date, DateTime, Domain, Email, IdOf, Quantity
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "dns",
    title="Waypoint DNS",
    category="cloud_infrastructure",
    modeled_on="Cloudflare API v4 (Zones, DNS records, nameserver activation) and Cloudflare Registrar "
    "(registration, renewal, auto-renew, transfer lock)",
    description="The company's domain names and their DNS: registration and renewal of domains, transfer "
    "locks and nameservers, DNS zones activated by delegation, typed DNS records with TTLs and proxying, "
    "name resolution and zone-file export.",
)

DomainRegId = Annotated[str, IdOf("dns.domain")]
ZoneId = Annotated[str, IdOf("dns.zone")]
RecordId = Annotated[str, IdOf("dns.record")]
RenewalId = Annotated[str, IdOf("dns.renewal")]

RecordType = Literal["A", "AAAA", "CNAME", "MX", "TXT", "NS", "SRV", "CAA"]
HostName = Annotated[
    str, StringConstraints(pattern=r"^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$", max_length=253)
]
Content = Annotated[str, StringConstraints(min_length=1, max_length=2048)]
Ttl = Annotated[int, Field(ge=1, le=86400)]
NameServer = Annotated[str, StringConstraints(pattern=r"^([a-z0-9-]+\.)+[a-z]{2,}$", max_length=253)]
PRICES: dict[str, int] = {"com": 1044, "net": 1144, "org": 1050, "io": 4900, "co": 2500, "dev": 1200, "app": 1400}
"""Yearly price in cents by top-level domain (registrar at cost)."""
REDEMPTION_FEE = 8000
GRACE_DAYS = 30
REDEMPTION_DAYS = 60
MAX_YEARS = 10
TRANSFER_WAIT_DAYS = 60
NS_NAMES = ("ada", "bob", "cruz", "dora", "elle", "fred", "gina", "hugo", "iris", "jack")
HOST_RE = re.compile(r"^([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z]{2,}\.?$")


class Registration(Record):
    """A domain name registered through the registrar."""

    id: DomainRegId
    name: Domain
    """The domain name; unique."""
    registrant_company: CompanyName
    """Organisation that holds it."""
    registrant_email: Email
    """Contact e-mail of the registrant."""
    registered_on: Date
    """When it was first registered."""
    expires_on: Date
    """When the current registration ends."""
    auto_renew: bool = True
    """Renew for a year automatically before it expires."""
    locked: bool = True
    """Transfer lock: while on, the domain cannot be transferred away."""
    nameservers: tuple[NameServer, ...] = ()
    """Nameservers the domain delegates to."""
    transfer_out_pending: bool = False
    """Whether a transfer to another registrar was requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Renewal(Record):
    """A registration or renewal charge."""

    id: RenewalId
    domain_id: DomainRegId
    """The domain."""
    domain_name: Domain
    """Its name."""
    years: Annotated[int, Field(ge=1, le=10)]
    """Years added."""
    amount: Cents
    """Charged, in cents (redemption fee included)."""
    currency: Currency = "USD"
    """Currency."""
    new_expires_on: Date
    """Expiry after the renewal."""
    at: Annotated[DateTime, CREATED]
    """When it was charged."""


class Zone(Record):
    """A DNS zone served by the service."""

    id: ZoneId
    name: Domain
    """The zone's domain; unique."""
    status: Literal["pending", "active"] = "pending"
    """pending until the domain delegates to name_servers, then active."""
    plan: Literal["free", "pro", "business"] = "free"
    """Plan; the free plan's minimum TTL is 60 seconds, pro and business 30."""
    name_servers: tuple[NameServer, NameServer]
    """The two nameservers assigned to the zone."""
    paused: bool = False
    """Paused zones serve DNS only (no proxying)."""
    dnssec: bool = False
    """Whether DNSSEC signing is on."""
    created_at: Annotated[DateTime, CREATED]
    """When the zone was added."""
    activated_at: DateTime | None = None
    """When it became active."""


class DnsRecord(Record):
    """A DNS record of a zone."""

    id: RecordId
    zone_id: ZoneId
    """The zone."""
    type: RecordType
    """A, AAAA, CNAME, MX, TXT, NS, SRV or CAA."""
    name: HostName
    """Fully qualified name (www.example.com); inside the zone."""
    content: Content
    """A: IPv4; AAAA: IPv6; CNAME, NS, MX: a host name; TXT: text; SRV: 'weight port target'; CAA: 'flags tag value'."""
    ttl: Ttl = 1
    """Seconds; 1 means automatic."""
    proxied: bool = False
    """Whether traffic goes through the proxy (A, AAAA and CNAME only)."""
    priority: Annotated[int, Field(ge=0, le=65535)] | None = None
    """For MX and SRV: priority (lower first)."""
    comment: Annotated[str, StringConstraints(max_length=100)] = ""
    """A note."""
    modified_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- validation -------------------------------------------------------------------------------


def _tld(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _in_zone(zone: str, name: str) -> bool:
    return name == zone or name.endswith("." + zone)


def _validate(
    ctx: Ctx,
    zone: Zone,
    rec_id: str | None,
    type_: str,
    name: str,
    content: str,
    ttl: int,
    proxied: bool,
    priority: int | None,
) -> None:
    if not _in_zone(zone.name, name):
        raise RuleViolation(
            f"{name} is not inside zone {zone.name}", field="name", hint=f"use a name ending in {zone.name}"
        )
    if type_ == "A":
        try:
            ipaddress.IPv4Address(content)
        except ValueError:
            raise RuleViolation(
                "an A record needs an IPv4 address", field="content", hint="e.g. 203.0.113.10"
            ) from None
    elif type_ == "AAAA":
        try:
            ipaddress.IPv6Address(content)
        except ValueError:
            raise RuleViolation(
                "an AAAA record needs an IPv6 address", field="content", hint="e.g. 2001:db8::1"
            ) from None
    elif type_ in ("CNAME", "MX", "NS"):
        if not HOST_RE.match(content.lower()):
            raise RuleViolation(f"a {type_} record needs a host name", field="content", hint="e.g. mail.example.com")
        if type_ == "CNAME" and content.rstrip(".") == name:
            raise RuleViolation("a CNAME cannot point at itself", field="content", hint="point it at another name")
    elif type_ == "SRV":
        parts = content.split()
        if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit() or not HOST_RE.match(parts[2]):
            raise RuleViolation(
                "SRV content is 'weight port target'", field="content", hint="e.g. 5 5060 sip.example.com"
            )
    elif type_ == "CAA":
        parts = content.split(maxsplit=2)
        if len(parts) != 3 or parts[1] not in ("issue", "issuewild", "iodef"):
            raise RuleViolation(
                "CAA content is 'flags tag value'", field="content", hint='e.g. 0 issue "letsencrypt.org"'
            )
    if type_ in ("MX", "SRV") and priority is None:
        raise RuleViolation(f"a {type_} record needs a priority", field="priority", hint="e.g. priority 10")
    if type_ not in ("MX", "SRV") and priority is not None:
        raise RuleViolation(f"{type_} records take no priority", field="priority", hint="omit priority")
    if proxied and type_ not in ("A", "AAAA", "CNAME"):
        raise RuleViolation(f"{type_} records cannot be proxied", field="proxied", hint="set proxied=false")
    if proxied and ttl != 1:
        raise RuleViolation("proxied records use automatic TTL", field="ttl", hint="set ttl=1 (automatic)")
    minimum = 60 if zone.plan == "free" else 30
    if ttl != 1 and ttl < minimum:
        raise RuleViolation(
            f"the {zone.plan} plan's minimum TTL is {minimum} seconds",
            field="ttl",
            hint=f"use 1 (auto) or at least {minimum}",
        )
    if type_ == "NS" and name == zone.name:
        raise RuleViolation(
            "the zone's own NS records are managed by the service",
            field="name",
            hint="add NS records for subdomains only",
        )
    for other in ctx.where(DnsRecord, zone_id=zone.id, name=name):
        if other.id == rec_id:
            continue
        if type_ == "CNAME" or other.type == "CNAME":
            raise Conflict(
                f"81053: {name} already has a {other.type} record; a CNAME cannot coexist with other records",
                field="name",
                hint="delete the other record(s) first or pick another name",
            )
        if other.type == type_ and other.content == content:
            raise Conflict("81058: an identical record already exists", field="content", hint="nothing to add")


def _guard_record(ctx: Ctx, new: Any, old: Any) -> None:
    zone = ctx.get(Zone, new.zone_id)
    _validate(ctx, zone, new.id, new.type, new.name, new.content, new.ttl, new.proxied, new.priority)


def _guard_record_delete(ctx: Ctx, new: Any, old: Any) -> None:
    zone = ctx.get(Zone, old.zone_id)
    if old.type == "NS" and old.name == zone.name:
        raise RuleViolation(
            "the zone's own NS records cannot be deleted", field="record_id", hint="delete the zone instead"
        )


def _guard_zone_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for rec in ctx.where(DnsRecord, zone_id=old.id):
        ctx.delete(rec)


def _guard_zone(ctx: Ctx, new: Any, old: Any) -> None:
    if new.plan == "free" and old.plan != "free":
        short = [r for r in ctx.where(DnsRecord, zone_id=new.id) if r.ttl != 1 and r.ttl < 60]
        if short:
            raise RuleViolation(
                f"{len(short)} record(s) have a TTL under 60s, below the free plan's minimum",
                field="plan",
                hint="raise their TTLs first",
            )


def _guard_domain(ctx: Ctx, new: Any, old: Any) -> None:
    if old.transfer_out_pending and new.locked and not old.locked:
        raise RuleViolation(
            f"{old.name} has a transfer out pending", field="locked", hint="cancel the transfer before locking"
        )


domains = service.resource(
    Registration,
    name="domain",
    plural="domains",
    prefix="dom",
    create=False,
    filters=("name", "registrant_email", "registrant_company", "auto_renew", "locked", "transfer_out_pending"),
    search=("name",),
    update=("auto_renew", "locked", "registrant_email"),
    delete=False,
    unique=("name",),
    guard_update=_guard_domain,
    title="registered domain",
)
renewals = service.resource(
    Renewal,
    name="renewal",
    plural="renewals",
    prefix="ren",
    create=False,
    get=False,
    filters=("domain_id", "domain_name"),
    delete=False,
    title="domain renewal",
)
zones = service.resource(
    Zone,
    name="zone",
    plural="zones",
    prefix="zn",
    create=False,
    filters=("name", "status", "plan"),
    search=("name",),
    update=("plan", "paused", "dnssec"),
    unique=("name",),
    guard_update=_guard_zone,
    guard_delete=_guard_zone_delete,
    title="DNS zone",
)
records = service.resource(
    DnsRecord,
    name="record",
    plural="records",
    prefix="rec",
    create=False,
    get=False,
    filters=("zone_id", "type", "name", "proxied"),
    search=("name", "content", "comment"),
    update=("content", "ttl", "proxied", "priority", "comment"),
    guard_update=_guard_record,
    guard_delete=_guard_record_delete,
    title="DNS record",
)


# -- helpers ----------------------------------------------------------------------------------


def _state(reg: Registration, today: dt.date) -> str:
    if reg.expires_on >= today:
        return "active"
    if (today - reg.expires_on).days <= GRACE_DAYS:
        return "grace"
    if (today - reg.expires_on).days <= REDEMPTION_DAYS:
        return "redemption"
    return "deleted"


def _assigned_ns(name: str) -> tuple[str, str]:
    h = hashlib.sha256(name.encode()).digest()
    a, b = NS_NAMES[h[0] % len(NS_NAMES)], NS_NAMES[h[1] % len(NS_NAMES)]
    if a == b:
        b = NS_NAMES[(h[1] + 1) % len(NS_NAMES)]
    return (f"{a}.ns.waypoint.example", f"{b}.ns.waypoint.example")


# -- examples ---------------------------------------------------------------------------------


def _example_register(ctx: Ctx) -> dict[str, Any]:
    reg = ctx.first(Registration)
    email = reg.registrant_email if reg else "it@example.com"
    company = reg.registrant_company if reg else "Example Inc"
    return {"name": "brand-new-launch.com", "years": 2, "registrant_company": company, "registrant_email": email}


def _example_domain(ctx: Ctx) -> dict[str, Any] | None:
    today = ctx.today()
    for reg in ctx.scan(Registration):
        if _state(reg, today) != "deleted" and reg.expires_on < today.replace(year=today.year + 8):
            return {"domain_id": reg.id, "years": 1}
    return None


def _example_ns(ctx: Ctx) -> dict[str, Any] | None:
    zone = ctx.first(Zone, status="pending")
    if zone is None:
        return None
    reg = ctx.first(Registration, name=zone.name)
    return None if reg is None else {"domain_id": reg.id, "nameservers": list(zone.name_servers)}


def _example_zone(ctx: Ctx) -> dict[str, Any]:
    return {"name": "new-product.io", "plan": "free"}


def _example_record(ctx: Ctx) -> dict[str, Any] | None:
    zone = ctx.first(Zone, status="active")
    if zone is None:
        return None
    return {"zone_id": zone.id, "type": "A", "name": f"edge.{zone.name}", "content": "203.0.113.77", "proxied": True}


def _example_resolve(ctx: Ctx) -> dict[str, Any] | None:
    rec = ctx.first(DnsRecord, type="CNAME") or ctx.first(DnsRecord)
    return None if rec is None else {"name": rec.name, "type": "A"}


# -- domain tools -----------------------------------------------------------------------------


class Charge(BaseModel):
    """A domain and what it was charged."""

    domain: Registration = Field(description="The domain after the operation.")
    renewal: Renewal = Field(description="The charge.")


@service.tool(intent="register a domain name", write=True, example=_example_register)
def register_domain(
    ctx: Ctx,
    name: Domain,
    registrant_company: CompanyName,
    registrant_email: Email,
    years: Annotated[int, Field(ge=1, le=10)] = 1,
    auto_renew: bool = True,
) -> Charge:
    """Register an available domain for 1-10 years at the TLD's yearly price (.com, .net, .org, .io, .co, .dev, .app).

    Args:
        name: The domain (name.tld, one level).
        registrant_company: Organisation that will hold it.
        registrant_email: Registrant contact e-mail.
        years: Years to register.
        auto_renew: Renew automatically.
    """
    if name.count(".") != 1:
        raise RuleViolation("register a second-level domain (name.tld)", field="name", hint="e.g. example.com")
    tld = _tld(name)
    if tld not in PRICES:
        raise RuleViolation(
            f".{tld} domains are not offered", field="name", hint=f"offered: {', '.join('.' + t for t in PRICES)}"
        )
    if ctx.first(Registration, name=name) is not None:
        raise Conflict(f"{name} is already registered", field="name", hint="renew it instead, or pick another name")
    today = ctx.today()
    reg = ctx.create(
        Registration,
        name=name,
        registrant_company=registrant_company,
        registrant_email=registrant_email,
        registered_on=today,
        expires_on=add_months(today, 12 * years),
        auto_renew=auto_renew,
        locked=True,
    )
    ren = ctx.create(
        Renewal,
        domain_id=reg.id,
        domain_name=name,
        years=years,
        amount=PRICES[tld] * years,
        new_expires_on=reg.expires_on,
    )
    return Charge(domain=reg, renewal=ren)


@service.tool(intent="renew the domain", write=True, example=_example_domain)
def renew_domain(ctx: Ctx, domain_id: DomainRegId, years: Annotated[int, Field(ge=1, le=10)] = 1) -> Charge:
    """Renew a domain by whole years, at most ten years ahead of today.

    Within 30 days after expiry the normal price applies; from 30 to 60 days a
    redemption fee is added; later the domain is gone.

    Args:
        domain_id: The domain.
        years: Years to add.
    """
    reg = ctx.get(Registration, domain_id, field="domain_id")
    today = ctx.today()
    state = _state(reg, today)
    if state == "deleted":
        raise RuleViolation(
            f"{reg.name} expired more than {REDEMPTION_DAYS} days ago and was released",
            field="domain_id",
            hint="register it again if it is still available",
        )
    base = max(reg.expires_on, today)
    new_expiry = add_months(base, 12 * years)
    if new_expiry > add_months(today, 12 * MAX_YEARS):
        left = MAX_YEARS - (base.year - today.year) - (1 if (base.month, base.day) > (today.month, today.day) else 0)
        raise RuleViolation(
            f"{reg.name} cannot be registered more than {MAX_YEARS} years ahead",
            field="years",
            hint=f"renew for at most {max(0, left)} year(s)",
        )
    amount = PRICES.get(_tld(reg.name), 1500) * years + (REDEMPTION_FEE if state == "redemption" else 0)
    reg = ctx.update(reg, expires_on=new_expiry)
    ren = ctx.create(
        Renewal, domain_id=reg.id, domain_name=reg.name, years=years, amount=amount, new_expires_on=new_expiry
    )
    return Charge(domain=reg, renewal=ren)


@service.tool(intent="point the domain at nameservers", write=True, idempotent=True, example=_example_ns)
def set_nameservers(
    ctx: Ctx, domain_id: DomainRegId, nameservers: Annotated[list[NameServer], Field(min_length=2, max_length=6)]
) -> Registration:
    """Set the nameservers a registered domain delegates to (2 to 6 distinct ones).

    Args:
        domain_id: The domain.
        nameservers: Host names of the nameservers.
    """
    reg = ctx.get(Registration, domain_id, field="domain_id")
    if len(set(nameservers)) != len(nameservers):
        raise RuleViolation("a nameserver is listed twice", field="nameservers", hint="list each once")
    if _state(reg, ctx.today()) != "active":
        raise RuleViolation(f"{reg.name} has expired", field="domain_id", hint="renew it first")
    return ctx.update(reg, nameservers=tuple(nameservers))


class TransferCode(BaseModel):
    """An authorisation code for moving a domain to another registrar."""

    domain: Registration = Field(description="The domain, now with a transfer pending.")
    auth_code: str = Field(description="Give this code to the new registrar.")


@service.tool(
    intent="start transferring the domain away",
    write=True,
    example=first_example(
        Registration,
        "domain_id",
        where={"locked": False, "transfer_out_pending": False},
        match=lambda ctx, reg: (
            _state(reg, ctx.today()) == "active" and (ctx.today() - reg.registered_on).days >= TRANSFER_WAIT_DAYS
        ),
    ),
)
def request_transfer_out(ctx: Ctx, domain_id: DomainRegId) -> TransferCode:
    """Get the authorisation code to transfer a domain to another registrar.

    The transfer lock must be off, the domain registered at least 60 days ago and not expired.

    Args:
        domain_id: The domain.
    """
    reg = ctx.get(Registration, domain_id, field="domain_id")
    if reg.transfer_out_pending:
        raise Conflict(f"a transfer of {reg.name} is already pending", field="domain_id", hint="use the code you got")
    if reg.locked:
        raise RuleViolation(
            f"{reg.name} has the transfer lock on",
            field="domain_id",
            hint="unlock it with dns__update_domain (locked=false)",
        )
    today = ctx.today()
    if (today - reg.registered_on).days < TRANSFER_WAIT_DAYS:
        raise RuleViolation(
            f"{reg.name} was registered less than {TRANSFER_WAIT_DAYS} days ago",
            field="domain_id",
            hint=f"wait until {reg.registered_on + dt.timedelta(days=TRANSFER_WAIT_DAYS)}",
        )
    if _state(reg, today) != "active":
        raise RuleViolation(f"{reg.name} has expired", field="domain_id", hint="renew it before transferring")
    code = hashlib.sha256(f"{reg.id}:{ctx.now().isoformat()}".encode()).hexdigest()[:16].upper()
    return TransferCode(domain=ctx.update(reg, transfer_out_pending=True), auth_code=code)


class Expiring(BaseModel):
    """A domain that will lapse unless renewed."""

    domain_id: DomainRegId = Field(description="The domain.")
    name: Domain = Field(description="Its name.")
    expires_on: Date = Field(description="Expiry.")
    days_left: int = Field(description="Days until expiry (negative: already expired).")
    state: Literal["active", "grace", "redemption"] = Field(description="active, grace or redemption.")
    renewal_price: Cents = Field(description="Price of a one-year renewal now, in cents.")
    registrant_email: Email = Field(description="Who to tell.")


@service.tool(intent="list the domains about to expire")
def expiring_domains(ctx: Ctx, within_days: Annotated[int, Field(ge=1, le=365)] = 30) -> list[Expiring]:
    """List domains without auto-renew that expire within the given days, and those already expired but recoverable.

    Args:
        within_days: Look-ahead in days.
    """
    today = ctx.today()
    out: list[Expiring] = []
    for reg in ctx.scan(Registration):
        state = _state(reg, today)
        if state == "deleted" or reg.transfer_out_pending:
            continue
        days = (reg.expires_on - today).days
        if state == "active" and (reg.auto_renew or days > within_days):
            continue
        price = PRICES.get(_tld(reg.name), 1500) + (REDEMPTION_FEE if state == "redemption" else 0)
        out.append(
            Expiring(
                domain_id=reg.id,
                name=reg.name,
                expires_on=reg.expires_on,
                days_left=days,
                state=state,
                renewal_price=price,
                registrant_email=reg.registrant_email,
            )
        )
    out.sort(key=lambda e: (e.expires_on, e.name))
    return out


@service.tool(intent="add a DNS zone", write=True, example=_example_zone)
def create_zone(ctx: Ctx, name: Domain, plan: Literal["free", "pro", "business"] = "free") -> Zone:
    """Add a zone; it stays pending until its domain delegates to the two nameservers assigned here.

    The zone starts with its apex NS records.

    Args:
        name: The domain (name.tld).
        plan: free, pro or business.
    """
    if name.count(".") != 1:
        raise RuleViolation("zones are added for a registered domain (name.tld)", field="name", hint="e.g. example.com")
    if ctx.first(Zone, name=name) is not None:
        raise Conflict(f"zone {name} exists", field="name", hint="use the existing zone")
    zone = ctx.create(Zone, name=name, plan=plan, name_servers=_assigned_ns(name))
    for ns in zone.name_servers:
        ctx.create(DnsRecord, zone_id=zone.id, type="NS", name=name, content=ns, ttl=86400)
    return zone


@service.tool(
    intent="activate the zone", write=True, example=first_example(Zone, "zone_id", where={"status": "pending"})
)
def activate_zone(ctx: Ctx, zone_id: ZoneId) -> Zone:
    """Check the delegation of a pending zone and activate it when the domain uses both assigned nameservers.

    Only domains registered here can be checked.

    Args:
        zone_id: The zone.
    """
    zone = ctx.get(Zone, zone_id, field="zone_id")
    if zone.status == "active":
        raise Conflict(f"zone {zone.name} is already active", field="zone_id", hint="nothing to do")
    reg = ctx.first(Registration, name=zone.name)
    if reg is None:
        raise RuleViolation(
            f"{zone.name} is not registered here; its delegation cannot be checked",
            field="zone_id",
            hint="register or transfer the domain in first",
        )
    missing = [ns for ns in zone.name_servers if ns not in reg.nameservers]
    if missing:
        raise RuleViolation(
            f"{zone.name} does not delegate to {', '.join(missing)}",
            field="zone_id",
            hint=f"set the domain's nameservers to {', '.join(zone.name_servers)} with dns__set_nameservers",
        )
    return ctx.update(zone, status="active", activated_at=ctx.now())


@service.tool(intent="add a DNS record", write=True, example=_example_record)
def create_record(
    ctx: Ctx,
    zone_id: ZoneId,
    type: RecordType,
    name: HostName,
    content: Content,
    ttl: Ttl = 1,
    proxied: bool = False,
    priority: Annotated[int, Field(ge=0, le=65535)] | None = None,
    comment: Annotated[str, StringConstraints(max_length=100)] = "",
) -> DnsRecord:
    """Add a record to a zone; its content must fit its type and the name must be inside the zone.

    A CNAME cannot share its name with any other record; identical records are refused.

    Args:
        zone_id: The zone.
        type: A, AAAA, CNAME, MX, TXT, NS, SRV or CAA.
        name: Fully qualified name inside the zone.
        content: The record's data (see the record type).
        ttl: Seconds, or 1 for automatic.
        proxied: Route traffic through the proxy (A, AAAA, CNAME only; TTL automatic).
        priority: For MX and SRV.
        comment: A note.
    """
    zone = ctx.get(Zone, zone_id, field="zone_id")
    _validate(ctx, zone, None, type, name, content, ttl, proxied, priority)
    return ctx.create(
        DnsRecord,
        zone_id=zone.id,
        type=type,
        name=name,
        content=content,
        ttl=ttl,
        proxied=proxied,
        priority=priority,
        comment=comment,
    )


class Answer(BaseModel):
    """The result of resolving a name."""

    name: str = Field(description="The name asked.")
    type: RecordType = Field(description="The type asked.")
    chain: list[str] = Field(description="Names followed through CNAMEs, in order.")
    answers: list[str] = Field(
        description="Contents of the matching records (for proxied records: the proxy's address)."
    )
    authoritative: bool = Field(description="Whether an active zone here answered.")
    status: Literal["NOERROR", "NXDOMAIN", "NODATA", "REFUSED"] = Field(description="DNS response status.")


PROXY_V4 = "104.16.0.1"
PROXY_V6 = "2606:4700::1"


@service.tool(intent="look up the DNS name", example=_example_resolve)
def resolve_name(ctx: Ctx, name: HostName, type: RecordType = "A") -> Answer:
    """Resolve a name against the active zones here, following CNAMEs (at most 8).

    Proxied records answer with the proxy's address; names of no active zone here are REFUSED.

    Args:
        name: The name.
        type: The record type wanted.
    """
    chain: list[str] = []
    current = name
    for _ in range(8):
        zone = next((z for z in ctx.where(Zone, status="active") if _in_zone(z.name, current)), None)
        if zone is None:
            return Answer(
                name=name,
                type=type,
                chain=chain,
                answers=[],
                authoritative=bool(chain),
                status="REFUSED" if not chain else "NOERROR",
            )
        recs = ctx.where(DnsRecord, zone_id=zone.id, name=current)
        wildcard = f"*.{current.split('.', 1)[1]}" if current.count(".") > 1 else None
        if not recs and wildcard:
            recs = ctx.where(DnsRecord, zone_id=zone.id, name=wildcard)
        cname = next((r for r in recs if r.type == "CNAME"), None)
        if cname is not None and type != "CNAME":
            if cname.proxied and not zone.paused and type in ("A", "AAAA"):
                return Answer(
                    name=name,
                    type=type,
                    chain=[*chain, current],
                    authoritative=True,
                    status="NOERROR",
                    answers=[PROXY_V4 if type == "A" else PROXY_V6],
                )
            chain.append(current)
            current = cname.content.rstrip(".")
            continue
        if not recs:
            return Answer(name=name, type=type, chain=chain, answers=[], authoritative=True, status="NXDOMAIN")
        hits = [r for r in recs if r.type == type]
        if not hits:
            return Answer(name=name, type=type, chain=chain, answers=[], authoritative=True, status="NODATA")
        answers = []
        for r in sorted(hits, key=lambda r: (r.priority or 0, r.content)):
            if r.proxied and not zone.paused:
                answers.append(PROXY_V4 if type == "A" else PROXY_V6)
            else:
                answers.append(f"{r.priority} {r.content}" if r.priority is not None else r.content)
        return Answer(
            name=name,
            type=type,
            chain=chain,
            answers=sorted(dict.fromkeys(answers), key=answers.index),
            authoritative=True,
            status="NOERROR",
        )
    raise RuleViolation(f"{name} has a CNAME chain longer than 8", field="name", hint="shorten the CNAME chain")


class ZoneFile(BaseModel):
    """A zone in BIND format."""

    zone_id: ZoneId = Field(description="The zone.")
    records: Quantity = Field(description="Number of records.")
    text: str = Field(description="The zone file.")


@service.tool(intent="export the zone file", example=first_example(Zone, "zone_id", where={"status": "pending"}))
def export_zone_file(ctx: Ctx, zone_id: ZoneId) -> ZoneFile:
    """Export a zone's records as a BIND zone file (automatic TTL written as 300).

    Args:
        zone_id: The zone.
    """
    zone = ctx.get(Zone, zone_id, field="zone_id")
    recs = sorted(ctx.where(DnsRecord, zone_id=zone.id), key=lambda r: (r.name, r.type, r.priority or 0, r.content))
    lines = [f"$ORIGIN {zone.name}.", "$TTL 300"]
    for r in recs:
        data = r.content
        if r.type in ("CNAME", "MX", "NS") and not data.endswith("."):
            data += "."
        if r.type == "TXT":
            data = '"' + data.replace('"', '\\"') + '"'
        prio = f"{r.priority} " if r.priority is not None else ""
        lines.append(f"{r.name}.\t{300 if r.ttl == 1 else r.ttl}\tIN\t{r.type}\t{prio}{data}")
    return ZoneFile(zone_id=zone.id, records=len(recs), text="\n".join(lines) + "\n")


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's domains (one expiring, one expired), their zones and records."""
    pop = s.population
    now = s.now
    today = now.date()
    home = pop.home
    it = pop.staff("Engineering", fallback=1)[0]
    org = org_handle(pop)
    plan: list[tuple[str, int, int, bool, bool, str | None]] = [
        # name, registered days ago, expires in days, auto_renew, locked, zone plan (None: no zone)
        (home.domain, 2900, 200, True, True, "business"),
        (f"{org}.dev", 700, 95, True, True, "free"),
        (f"{org}-status.com", 400, 21, False, True, "free"),
        (f"get{org}.app", 30, 335, True, True, "free"),
        (f"{org}-legacy.net", 1500, -12, False, False, None),
        (f"{org}-old.co", 1900, -45, False, False, None),
        (f"{org}.org", 1200, 500, True, False, None),
    ]
    for name, reg_ago, exp_in, auto, locked, zplan in plan:
        ns = _assigned_ns(name) if zplan else ()  # get{org}.app delegates already; its zone awaits the check
        reg = s.create(
            Registration,
            name=name,
            registrant_company=home.name,
            registrant_email=it.email,
            registered_on=today - dt.timedelta(days=reg_ago),
            expires_on=today + dt.timedelta(days=exp_in),
            auto_renew=auto,
            locked=locked,
            nameservers=ns,
            updated_at=s.ago(days=30),
        )
        s.create(
            Renewal,
            domain_id=reg.id,
            domain_name=name,
            years=1,
            amount=PRICES[_tld(name)],
            new_expires_on=reg.expires_on,
            at=s.ago(days=max(1, 365 - exp_in)),
        )
        if zplan is None:
            continue
        pending = name == f"get{org}.app"
        zone = s.create(
            Zone,
            name=name,
            status="pending" if pending else "active",
            plan=zplan,
            name_servers=_assigned_ns(name),
            dnssec=name == home.domain,
            created_at=s.ago(days=min(reg_ago, 600)),
            activated_at=None if pending else s.ago(days=min(reg_ago, 600) - 1),
        )
        for type_, rname, content, ttl, proxied, prio in _zone_entries(zone, home.domain, org):
            s.create(
                DnsRecord,
                zone_id=zone.id,
                type=type_,
                name=rname,
                content=content,
                ttl=ttl,
                proxied=proxied,
                priority=prio,
                modified_at=s.ago(days=20),
            )


_Entry = tuple[str, str, str, int, bool, int | None]
"""A seeded DNS record: (type, name, content, ttl, proxied, priority)."""


def _zone_entries(zone: Zone, home_domain: str, org: str) -> list[_Entry]:
    """The records of a seeded zone: its apex NS records, and the company's usual hosts on the zones in use."""
    name = zone.name
    entries: list[_Entry] = [
        ("NS", name, zone.name_servers[0], 86400, False, None),
        ("NS", name, zone.name_servers[1], 86400, False, None),
    ]
    if name == home_domain:
        entries += [
            ("A", name, "203.0.113.10", 1, True, None),
            ("CNAME", f"www.{name}", name, 1, True, None),
            ("A", f"api.{name}", "203.0.113.20", 1, True, None),
            ("AAAA", f"api.{name}", "2001:db8::20", 1, True, None),
            ("CNAME", f"docs.{name}", f"{org}.github.io", 3600, False, None),
            ("CNAME", f"status.{name}", f"{org}-status.com", 300, False, None),
            ("MX", name, f"mx1.mail.{name}", 3600, False, 10),
            ("MX", name, f"mx2.mail.{name}", 3600, False, 20),
            ("A", f"mx1.mail.{name}", "198.51.100.25", 3600, False, None),
            ("A", f"mx2.mail.{name}", "198.51.100.26", 3600, False, None),
            ("TXT", name, f"v=spf1 include:mail.{name} ~all", 3600, False, None),
            ("TXT", f"_dmarc.{name}", f"v=DMARC1; p=quarantine; rua=mailto:dmarc@{name}", 3600, False, None),
            ("CAA", name, '0 issue "letsencrypt.org"', 3600, False, None),
            ("SRV", f"_sip._tcp.{name}", f"5 5060 sip.{name}", 3600, False, 10),
            ("A", f"vpn.{name}", "198.51.100.40", 60, False, None),
        ]
    elif name == f"{org}.dev":
        entries += [
            ("A", name, "203.0.113.30", 1, True, None),
            ("CNAME", f"*.preview.{name}", f"preview-lb.{name}", 300, False, None),
            ("A", f"preview-lb.{name}", "203.0.113.31", 300, False, None),
        ]
    elif name == f"{org}-status.com":
        entries += [("CNAME", f"www.{name}", name, 1, False, None), ("A", name, "192.0.2.50", 300, False, None)]
    return entries
