"""Registry Lens: domain registration data over RDAP, DNS answers, and a watch list for expiry alerts.

Modeled on RDAP as RFC 9083 defines its responses and as ICANN's Registration
Data Lookup Tool queries it (``/domain/{name}``, ``/nameserver/{name}``,
``/entity/{handle}`` for registrars by IANA id, the IANA bootstrap of TLDs to
RDAP services): a domain has an ``ldhName``, EPP ``status`` values (``active``,
``client transfer prohibited``, ``auto renew period``, ``redemption period``,
``pending delete``), ``events`` (registration, expiration, last changed),
registrar and registrant ``entities`` (registrants of persons are ``REDACTED
FOR PRIVACY``), ``nameservers`` and ``secureDNS``; DNS answers follow Google
Public DNS's JSON API (``/resolve?name=&type=`` with ``Status`` and ``Answer``
records of type A, AAAA, MX, NS, TXT, CNAME).

An open-world service: registrations are a deterministic model seeded by the
world seed. The world's companies hold their domains through known registrars,
with websites at the addresses the IP service knows, mail exchangers and SPF
and DMARC records; any other domain under a known TLD is registered (or not)
by a draw from its name, and one past expiry goes through the auto-renew grace
(45 days), redemption (30 days) and pending delete (5 days) before it is free.
Reserved names (``.example``, ``.test``, ``.invalid``, ``.localhost``) have no
registration. The stored watch list keeps domains the company depends on with
an alert lead time; a check raises expiring, expired and status-change alerts,
each once, which someone acknowledges.
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
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import CompanyName, Country, Date, DateTime, Domain, Email, IdOf, Text, Url
from compoworld.services.information.companyinfo import FREE_MAIL, RESERVED_DOMAINS, RESERVED_SUFFIXES, _firm
from compoworld.services.information.ipintel import website_ip
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "domaininfo",
    title="Registry Lens",
    category="domain_data",
    modeled_on="RDAP (RFC 9083 responses; /domain, /nameserver, /entity, IANA bootstrap) as ICANN's Registration "
    "Data Lookup Tool uses it, with Google Public DNS JSON API (/resolve) for DNS answers",
    description="Domain registration data: who registered a domain and through which registrar, when it was "
    "created and when it expires, its EPP status and name servers, its DNS records and mail security, whether a "
    "name is free, and the company's watch list of domains whose expiry or status changes raise alerts.",
)

WatchId = Annotated[str, IdOf("domaininfo.watch")]
AlertId = Annotated[str, IdOf("domaininfo.alert")]
Hostname = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]([a-z0-9_.-]{0,251}[a-z0-9])?$", to_lower=True)]
"""A host name (``ns1.cloudflare.com``, ``_dmarc.acme.com``)."""

RecordType = Literal["A", "AAAA", "MX", "NS", "TXT", "CNAME"]
AlertKind = Literal["expiring", "expired", "status_changed"]
WatchStatus = Literal["watching", "paused"]
AlertStatus = Literal["open", "acknowledged"]

GRACE_DAYS, REDEMPTION_DAYS, PENDING_DELETE_DAYS = 45, 30, 5
MAX_WATCHES = 100
MAX_BULK = 20


@dataclass(frozen=True, slots=True)
class _Registrar:
    iana_id: int
    name: str
    url: str
    abuse: str


_REGISTRARS: tuple[_Registrar, ...] = (
    _Registrar(292, "MarkMonitor Inc.", "https://www.markmonitor.com", "abusecomplaints@markmonitor.com"),
    _Registrar(146, "GoDaddy.com, LLC", "https://www.godaddy.com", "abuse@godaddy.com"),
    _Registrar(1068, "NameCheap, Inc.", "https://www.namecheap.com", "abuse@namecheap.com"),
    _Registrar(1910, "Cloudflare, Inc.", "https://www.cloudflare.com", "registrar-abuse@cloudflare.com"),
    _Registrar(81, "Gandi SAS", "https://www.gandi.net", "abuse@support.gandi.net"),
    _Registrar(69, "Tucows Domains Inc.", "https://www.tucows.com", "domainabuse@tucows.com"),
    _Registrar(895, "Squarespace Domains II LLC", "https://domains.squarespace.com", "abuse-complaints@squarespace.com"),
)  # fmt: skip
_BY_IANA = {r.iana_id: r for r in _REGISTRARS}
_TLDS: dict[str, tuple[str, str]] = {
    "com": ("VeriSign Global Registry Services", "https://rdap.verisign.com/com/v1/"),
    "net": ("VeriSign Global Registry Services", "https://rdap.verisign.com/net/v1/"),
    "org": ("Public Interest Registry", "https://rdap.publicinterestregistry.org/rdap/"),
    "io": ("Internet Computer Bureau", "https://rdap.identitydigital.services/rdap/"),
    "app": ("Charleston Road Registry", "https://pubapi.registry.google/rdap/"),
    "dev": ("Charleston Road Registry", "https://pubapi.registry.google/rdap/"),
    "co": (".CO Internet S.A.S.", "https://rdap.registry.co/co/"),
    "de": ("DENIC eG", "https://rdap.denic.de/"),
    "uk": ("Nominet UK", "https://rdap.nominet.uk/uk/"),
    "fr": ("AFNIC", "https://rdap.nic.fr/"),
    "nl": ("SIDN", "https://rdap.sidn.nl/"),
    "se": ("Internetstiftelsen", "https://rdap.iis.se/"),
    "br": ("NIC.br", "https://rdap.registro.br/"),
    "au": ("auDA", "https://rdap.cctld.au/rdap/"),
    "jp": ("Japan Registry Services", "https://jprdap.jprs.jp/rdap/"),
}
_DNS_HOSTS = (
    ("cloudflare.com", ("ns1.cloudflare.com", "ns2.cloudflare.com")),
    ("awsdns", ("ns-1021.awsdns-63.net", "ns-1536.awsdns-00.co.uk")),
    ("domaincontrol.com", ("ns51.domaincontrol.com", "ns52.domaincontrol.com")),
    ("registrar-servers.com", ("dns1.registrar-servers.com", "dns2.registrar-servers.com")),
)
_MAIL = (("google", "aspmx.l.google.com", "include:_spf.google.com"),
         ("microsoft", "{dashed}.mail.protection.outlook.com", "include:spf.protection.outlook.com"),
         ("zoho", "mx.zoho.eu", "include:zoho.eu"))  # fmt: skip


_POLICIES: dict[str, Literal["reject", "quarantine", "none"]] = {
    "reject": "reject",
    "quarantine": "quarantine",
    "none": "none",
}


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(("domaininfo", str(seed), *map(str, parts))))


# -- the world model ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Reg:
    domain: str
    registrar: _Registrar
    created: dt.date
    expires: dt.date
    updated: dt.date
    nameservers: tuple[str, ...]
    dnssec: bool
    registrant: str
    country: str | None
    mail: int
    dmarc: str | None
    world: bool


def _check_name(domain: str, field: str = "domain") -> tuple[str, str]:
    """The domain's registrable name and its TLD; reserved names and unknown TLDs are refused."""
    domain = domain.strip().lower().rstrip(".")
    if domain in RESERVED_DOMAINS or domain.endswith(RESERVED_SUFFIXES) or domain.split(".")[-1] in ("example", "test"):
        raise RuleViolation(f"{domain} is a reserved name: no one can register it", field=field,
                            hint="ask about a real domain")  # fmt: skip
    labels = domain.split(".")
    tld = labels[-1]
    if tld not in _TLDS:
        raise NotFound(f"no RDAP service is known for .{tld}", field=field,
                       hint="see the covered TLDs with domaininfo__list_tlds")  # fmt: skip
    second = ("co", "com", "org", "net", "ac")
    size = 3 if len(labels) >= 2 and labels[-2] in second and tld in ("uk", "au", "jp", "br") else 2
    if len(labels) < size:
        raise RuleViolation(f"{domain} is a TLD, not a domain", field=field, hint="give a full name like acme.com")
    return ".".join(labels[-size:]), tld


def _registration(pop: Population, today: dt.date, name: str, ctx: Ctx | None = None) -> _Reg | None:
    """The registration of a registrable name, or None when it is free (``ctx`` names unknown registrants)."""
    r = _rng(pop.seed, "reg", name)
    company = next((c for c in pop.companies if c.domain == name), None)
    world = company is not None or name in FREE_MAIL
    if not world and r.random() < 0.22:
        return None
    # Registrations run in whole years from the creation date: the expiry is drawn, the creation follows.
    gone = GRACE_DAYS + REDEMPTION_DAYS + PENDING_DELETE_DAYS
    if company is not None and company.home:
        left = r.randint(20, 28)
    elif world:
        left = r.randint(5, 60) if r.random() < 0.3 else r.randint(61, 365)
    else:
        left = -r.randint(1, gone - 1) if r.random() < 0.08 else r.randint(1, 365)
    expires = EPOCH.date() + dt.timedelta(days=left)
    created = dt.date(expires.year - r.randint(3 if world else 1, 25), expires.month, min(expires.day, 28))
    if (today - expires).days >= gone:
        return None
    host = _DNS_HOSTS[r.randrange(len(_DNS_HOSTS))][1]
    if company is not None:
        registrant, country = company.name, company.address.country
    elif name in FREE_MAIL or ctx is None:
        registrant, country = "REDACTED FOR PRIVACY", None
    else:
        firm = _firm(ctx, name)
        private = r.random() < 0.6
        registrant = "REDACTED FOR PRIVACY" if private else firm.name
        country = firm.place.country
    return _Reg(name, _REGISTRARS[r.randrange(len(_REGISTRARS))], created, expires,
                min(today, expires - dt.timedelta(days=365 - r.randint(0, 200))), host, r.random() < 0.35,
                registrant, country, r.randrange(len(_MAIL)), r.choice(("reject", "quarantine", "none", None)),
                world)  # fmt: skip


def _reg_of(ctx: Ctx, name: str) -> _Reg | None:
    return _registration(ctx.population, ctx.today(), name, ctx)


def _status(reg: _Reg, today: dt.date) -> list[str]:
    late = (today - reg.expires).days
    if late >= GRACE_DAYS + REDEMPTION_DAYS:
        return ["pending delete", "redemption period"]
    if late >= GRACE_DAYS:
        return ["redemption period", "client hold"]
    if late > 0:
        return ["auto renew period", "client transfer prohibited"]
    return ["active", "client transfer prohibited"] + (["client delete prohibited"] if reg.world else [])


def _lookup(ctx: Ctx, domain: str, field: str = "domain") -> tuple[str, _Reg]:
    name, _ = _check_name(domain, field)
    reg = _reg_of(ctx, name)
    if reg is None:
        raise NotFound(f"{name} is not registered", field=field,
                       hint="domaininfo__check_availability says whether and where it can be registered")  # fmt: skip
    return name, reg


# -- result models ------------------------------------------------------------------------------------------


class Event(BaseModel):
    """An RDAP event."""

    event_action: Literal["registration", "expiration", "last changed", "last update of RDAP database"] = Field(
        description="What happened."
    )
    event_date: DateTime = Field(description="When.")


class Entity(BaseModel):
    """An RDAP entity: the registrar or the registrant."""

    handle: str = Field(description="Its handle (a registrar's IANA id).")
    roles: list[Literal["registrar", "registrant", "abuse"]] = Field(description="Its roles on the object.")
    name: str = Field(description="Its name (fn), or REDACTED FOR PRIVACY.")
    email: Email | None = Field(description="Contact e-mail (a registrar's abuse mailbox).")
    url: Url | None = Field(description="Its web site.")
    country: Country | None = Field(description="Its country, when published.")


class DomainRecord(BaseModel):
    """An RDAP domain response."""

    object_class_name: Literal["domain"] = Field(description="Always domain.")
    handle: str = Field(description="The registry's handle of the domain.")
    ldh_name: Domain = Field(description="The domain name.")
    status: list[str] = Field(description="EPP status values.")
    events: list[Event] = Field(description="registration, expiration, last changed, last update of RDAP database.")
    registrar: Entity = Field(description="The sponsoring registrar.")
    registrant: Entity = Field(description="The registrant (persons' data redacted).")
    registrant_organization: CompanyName | None = Field(description="The registrant's organisation when public.")
    nameservers: list[str] = Field(description="Delegated name servers.")
    delegation_signed: bool = Field(description="DNSSEC: whether the delegation is signed.")
    expires_on: Date = Field(description="The expiration date.")
    days_to_expiry: int = Field(description="Days from today to expiry (negative: expired).")
    rdap_server: Url = Field(description="The registry's RDAP base URL.")


class BulkDomains(BaseModel):
    """Several domains looked up."""

    count: int = Field(description="Domains asked for.")
    registered: list[DomainRecord] = Field(description="Those registered.")
    not_registered: list[Domain] = Field(description="Those free.")


class Nameserver(BaseModel):
    """An RDAP nameserver response."""

    ldh_name: str = Field(description="Its host name.")
    ipv4: list[str] = Field(description="Its IPv4 addresses.")
    domains_served: int = Field(description="Domains delegated to it in this world.")


class DnsRecord(BaseModel):
    """One DNS answer."""

    name: str = Field(description="The owner name, with the trailing dot.")
    type: RecordType = Field(description="Record type.")
    ttl: int = Field(description="TTL in seconds.")
    data: str = Field(description="The record's data.")


class DnsAnswer(BaseModel):
    """A DNS-over-HTTPS answer."""

    status: Literal[0, 3] = Field(description="0 NOERROR, 3 NXDOMAIN.")
    name: str = Field(description="The name asked for.")
    type: RecordType = Field(description="The type asked for.")
    answer: list[DnsRecord] = Field(description="The records (empty when none).")


class Availability(BaseModel):
    """Whether a name can be registered."""

    domain: Domain = Field(description="The registrable name.")
    available: bool = Field(description="Free to register now.")
    status: list[str] = Field(description="The current EPP status when registered.")
    available_from: Date | None = Field(description="When an expiring registration frees it, if it will.")
    registry: str = Field(description="The TLD's registry.")


class Tld(BaseModel):
    """A TLD in the IANA RDAP bootstrap."""

    tld: str = Field(description="The TLD.")
    registry: str = Field(description="Its registry operator.")
    rdap_server: Url = Field(description="Its RDAP base URL.")


class MailSecurity(BaseModel):
    """A domain's mail records and how well they protect it."""

    domain: Domain = Field(description="The domain.")
    mx: list[str] = Field(description="Mail exchangers.")
    spf: str | None = Field(description="The SPF record, if any.")
    dmarc_policy: Literal["reject", "quarantine", "none"] | None = Field(description="DMARC policy, if any.")
    dnssec: bool = Field(description="Whether the delegation is signed.")
    grade: Literal["A", "B", "C", "F"] = Field(description="A: SPF, DMARC reject/quarantine and DNSSEC … F: no SPF.")


# -- answers ------------------------------------------------------------------------------------------------


def _stamp(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, 12, 0, tzinfo=dt.UTC)


def _record(ctx: Ctx, name: str, reg: _Reg) -> DomainRecord:
    tld = name.split(".")[-1]
    rr = reg.registrar
    today = ctx.today()
    public = reg.registrant != "REDACTED FOR PRIVACY"
    return DomainRecord(
        object_class_name="domain",
        handle=f"D{_rng(ctx.population.seed, 'h', name).randrange(10**9, 10**10)}-{tld.upper()}",
        ldh_name=name,
        status=_status(reg, today),
        events=[Event(event_action="registration", event_date=_stamp(reg.created)),
                Event(event_action="expiration", event_date=_stamp(reg.expires)),
                Event(event_action="last changed", event_date=_stamp(reg.updated)),
                Event(event_action="last update of RDAP database", event_date=ctx.now().replace(microsecond=0))],
        registrar=Entity(handle=str(rr.iana_id), roles=["registrar"], name=rr.name, email=rr.abuse, url=rr.url,
                         country=None),
        registrant=Entity(handle="REDACTED" if not public else f"C{reg.created:%Y%m%d}-{tld.upper()}",
                          roles=["registrant"], name=reg.registrant, email=None, url=None, country=reg.country),
        registrant_organization=reg.registrant if public else None,
        nameservers=list(reg.nameservers),
        delegation_signed=reg.dnssec,
        expires_on=reg.expires,
        days_to_expiry=(reg.expires - today).days,
        rdap_server=_TLDS[tld][1],
    )  # fmt: skip


def _example_domain(ctx: Ctx) -> dict[str, Any]:
    return {"domain": ctx.population.customers[0].domain}


@service.tool(intent="look up a domain's registration", open_world=True, example=_example_domain)
def lookup_domain(ctx: Ctx, domain: Domain) -> DomainRecord:
    """RDAP domain lookup: registrar, registrant, creation and expiry, EPP status, name servers, DNSSEC.

    A subdomain is looked up as its registrable name (www.acme.com → acme.com).

    Args:
        domain: The domain name.
    """
    name, reg = _lookup(ctx, domain)
    return _record(ctx, name, reg)


def _example_domains(ctx: Ctx) -> dict[str, Any]:
    return {"domains": [c.domain for c in ctx.population.customers[:3]]}


@service.tool(intent="look up several domains' registrations", open_world=True, example=_example_domains)
def lookup_domains(ctx: Ctx, domains: Annotated[list[Domain], Field(min_length=1, max_length=MAX_BULK)]) -> BulkDomains:
    """Look up to 20 domains at once; free ones are listed apart.

    Args:
        domains: The domain names.
    """
    found, free = [], []
    for i, d in enumerate(domains):
        name, _ = _check_name(d, f"domains.{i}")
        reg = _reg_of(ctx, name)
        if reg is None:
            free.append(name)
        else:
            found.append(_record(ctx, name, reg))
    return BulkDomains(count=len(domains), registered=found, not_registered=free)


@service.tool(intent="look up a name server", open_world=True, example=fixed_example(nameserver="ns1.cloudflare.com"))
def lookup_nameserver(ctx: Ctx, nameserver: Hostname) -> Nameserver:
    """RDAP nameserver lookup: its addresses and how many of the world's domains it serves.

    Args:
        nameserver: The server's host name.
    """
    known = {ns for _, pair in _DNS_HOSTS for ns in pair}
    if nameserver not in known:
        raise NotFound(f"no nameserver object for {nameserver}", field="nameserver",
                       hint="take a name server from a domain lookup's nameservers")  # fmt: skip
    served = 0
    for c in ctx.population.companies:
        reg = _reg_of(ctx, c.domain)
        served += reg is not None and nameserver in reg.nameservers
    r = _rng(ctx.population.seed, "ns", nameserver)
    return Nameserver(ldh_name=nameserver, ipv4=[f"{r.randint(100, 200)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"],
                      domains_served=served)  # fmt: skip


@service.tool(intent="look up a registrar", open_world=True, example=fixed_example(iana_id=292))
def lookup_registrar(ctx: Ctx, iana_id: Annotated[int, Field(ge=1, le=99999)]) -> Entity:
    """RDAP entity lookup of an accredited registrar by its IANA id.

    Args:
        iana_id: The registrar's IANA id (292 MarkMonitor, 146 GoDaddy …).
    """
    rr = _BY_IANA.get(iana_id)
    if rr is None:
        raise NotFound(f"no registrar with IANA id {iana_id}", field="iana_id",
                       hint="take the id from a domain lookup's registrar handle")  # fmt: skip
    return Entity(handle=str(rr.iana_id), roles=["registrar"], name=rr.name, email=rr.abuse, url=rr.url, country="US")


def _answers(ctx: Ctx, host: str, rtype: str, name: str, reg: _Reg) -> list[DnsRecord]:
    label = host[: -len(name)].rstrip(".")
    kind, mx, spf = _MAIL[reg.mail]
    fqdn = host + "."
    if label in ("", "www") and rtype == "A":
        return [DnsRecord(name=fqdn, type="A", ttl=300, data=website_ip(ctx.population.seed, name))]
    if label == "" and rtype == "NS":
        return [DnsRecord(name=fqdn, type="NS", ttl=86400, data=ns + ".") for ns in reg.nameservers]
    if label == "" and rtype == "MX":
        host_mx = mx.format(dashed=name.replace(".", "-"))
        return [DnsRecord(name=fqdn, type="MX", ttl=3600, data=f"{1 if kind == 'google' else 10} {host_mx}.")]
    if label == "" and rtype == "TXT" and (reg.world or reg.dmarc is not None):
        return [DnsRecord(name=fqdn, type="TXT", ttl=3600, data=f'"v=spf1 {spf} ~all"')]
    if label == "_dmarc" and rtype == "TXT" and reg.dmarc is not None:
        return [DnsRecord(name=fqdn, type="TXT", ttl=3600, data=f'"v=DMARC1; p={reg.dmarc}; rua=mailto:dmarc@{name}"')]
    return []


def _example_resolve(ctx: Ctx) -> dict[str, Any]:
    return {"name": ctx.population.customers[0].domain, "type": "MX"}


@service.tool(intent="resolve a DNS name", open_world=True, example=_example_resolve)
def resolve_dns(ctx: Ctx, name: Hostname, type: RecordType = "A") -> DnsAnswer:
    """Resolve a name over DNS-over-HTTPS: A, AAAA, MX, NS, TXT or CNAME records (status 3 for an unregistered domain).

    Args:
        name: The host name (acme.com, www.acme.com, _dmarc.acme.com).
        type: The record type.
    """
    registrable, _ = _check_name(name, "name")
    reg = _reg_of(ctx, registrable)
    if reg is None or "redemption period" in _status(reg, ctx.today()):
        return DnsAnswer(status=3, name=name, type=type, answer=[])
    return DnsAnswer(status=0, name=name, type=type, answer=_answers(ctx, name, type, registrable, reg))


@service.tool(intent="check whether a domain can be registered", open_world=True,
              example=fixed_example(domain="quiet-harbor-analytics.com"))  # fmt: skip
def check_availability(ctx: Ctx, domain: Domain) -> Availability:
    """Whether a name is free to register, and when an expired registration will free it.

    Args:
        domain: The domain name.
    """
    name, tld = _check_name(domain)
    reg = _reg_of(ctx, name)
    registry = _TLDS[tld][0]
    if reg is None:
        return Availability(domain=name, available=True, status=[], available_from=None, registry=registry)
    status = _status(reg, ctx.today())
    free_on = None
    if reg.expires < ctx.today():
        free_on = reg.expires + dt.timedelta(days=GRACE_DAYS + REDEMPTION_DAYS + PENDING_DELETE_DAYS)
    return Availability(domain=name, available=False, status=status, available_from=free_on, registry=registry)


@service.tool(intent="list the TLDs with registration data", open_world=True)
def list_tlds(ctx: Ctx) -> list[Tld]:
    """The TLDs in the RDAP bootstrap this service covers, with registry and RDAP server."""
    return [Tld(tld=t, registry=reg, rdap_server=url) for t, (reg, url) in sorted(_TLDS.items())]


@service.tool(intent="check a domain's mail security", open_world=True, example=_example_domain)
def mail_security(ctx: Ctx, domain: Domain) -> MailSecurity:
    """A domain's MX, SPF and DMARC records and DNSSEC, graded A (all set, DMARC enforcing) to F (no SPF).

    Args:
        domain: The domain name.
    """
    name, reg = _lookup(ctx, domain)
    mx = [a.data.split(" ", 1)[1].rstrip(".") for a in _answers(ctx, name, "MX", name, reg)]
    txt = _answers(ctx, name, "TXT", name, reg)
    spf = txt[0].data.strip('"') if txt else None
    policy = _POLICIES.get(reg.dmarc or "")
    if spf is None:
        grade: Literal["A", "B", "C", "F"] = "F"
    elif policy in ("reject", "quarantine"):
        grade = "A" if reg.dnssec else "B"
    else:
        grade = "C"
    return MailSecurity(domain=name, mx=mx, spf=spf, dmarc_policy=policy, dnssec=reg.dnssec, grade=grade)


# -- the watch list -----------------------------------------------------------------------------------------


class Watch(Timestamped):
    """A domain the company watches for expiry and status changes."""

    id: WatchId
    domain: Domain
    """The registrable domain (unique)."""
    owner_email: Email
    """The employee alerted."""
    alert_days_before: Annotated[int, Field(ge=1, le=90)] = 30
    """How many days before expiry to raise an expiring alert."""
    notes: Text = ""
    """Why it matters."""
    status: WatchStatus = "watching"
    """watching or paused."""
    expires_on: Date
    """Expiry as last checked."""
    registrar: str
    """Registrar as last checked."""
    last_status: list[str]
    """EPP status as last checked."""
    last_checked_at: DateTime
    """When it was last checked."""


class DomainAlert(Created):
    """An alert a check raised."""

    id: AlertId
    watch_id: WatchId
    """The watch."""
    domain: Domain
    """The domain."""
    kind: AlertKind
    """expiring, expired or status_changed."""
    message: Text
    """What happened."""
    expires_on: Date
    """The expiry the alert is about."""
    status: AlertStatus = "open"
    """open or acknowledged."""
    acknowledged_by: Email | None = None
    """Who acknowledged it."""


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_watch(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_watch_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for a in ctx.where(DomainAlert, watch_id=old.id):
        ctx.delete(a)


watches = service.resource(
    Watch, name="watch", plural="watches", prefix="dw", create=False, filters=("owner_email", "status", "domain"),
    search=("domain", "notes"), update=("owner_email", "alert_days_before", "notes"), unique=("domain",),
    transitions={"pause": Transition("status", ("watching",), "paused", "pause watching the domain"),
                 "resume": Transition("status", ("paused",), "watching", "resume watching the domain")},
    guard_update=_guard_watch, guard_delete=_guard_watch_delete, title="domain watch",
)  # fmt: skip
alerts = service.resource(
    DomainAlert, name="alert", plural="alerts", prefix="dal", create=False, filters=("watch_id", "kind", "status"),
    search=("domain", "message"), delete=False, title="domain alert",
)  # fmt: skip


def _example_watch(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.population.customers:
        if ctx.first(Watch, domain=c.domain) is None:
            return {"domain": c.domain, "owner_email": ctx.population.employees[0].email, "alert_days_before": 45}
    return None


@service.tool(intent="watch a domain for expiry", write=True, example=_example_watch)
def watch_domain(ctx: Ctx, domain: Domain, owner_email: Email, alert_days_before: Annotated[int, Field(ge=1, le=90)] = 30,
                 notes: Text = "") -> Watch:  # fmt: skip
    """Start watching a registered domain; it is checked at once and raises alerts like any check.

    Args:
        domain: The domain (its registrable name is watched).
        owner_email: The employee alerted.
        alert_days_before: Days before expiry to raise an expiring alert (1-90).
        notes: Why it matters.
    """
    name, reg = _lookup(ctx, domain)
    _staff(ctx, owner_email, "owner_email")
    other = ctx.first(Watch, domain=name)
    if other is not None:
        raise Conflict(f"{name} is already watched ({other.id})", field="domain", hint="update that watch instead")
    if len(ctx.where(Watch)) >= MAX_WATCHES:
        raise RuleViolation(f"the watch list holds {MAX_WATCHES} domains", field="domain", hint="delete one first")
    w = ctx.create(Watch, domain=name, owner_email=owner_email, alert_days_before=alert_days_before, notes=notes,
                   expires_on=reg.expires, registrar=reg.registrar.name, last_status=_status(reg, ctx.today()),
                   last_checked_at=ctx.now())  # fmt: skip
    _check(ctx, w, fresh=True)
    return w


def _raise(ctx: Ctx, w: Watch, kind: AlertKind, message: str, expires: dt.date) -> DomainAlert | None:
    if ctx.first(DomainAlert, watch_id=w.id, kind=kind, expires_on=expires) is not None and kind != "status_changed":
        return None
    return ctx.create(DomainAlert, watch_id=w.id, domain=w.domain, kind=kind, message=message, expires_on=expires)


def _check(ctx: Ctx, w: Watch, fresh: bool = False) -> list[DomainAlert]:
    today = ctx.today()
    reg = _reg_of(ctx, w.domain)
    made: list[DomainAlert | None] = []
    if reg is None:
        made.append(_raise(ctx, w, "expired", f"{w.domain} has been deleted and is free to register", w.expires_on))
        ctx.update(w, last_status=["available"], last_checked_at=ctx.now())
        return [a for a in made if a is not None]
    status = _status(reg, today)
    left = (reg.expires - today).days
    if left < 0:
        made.append(
            _raise(ctx, w, "expired", f"{w.domain} expired on {reg.expires} ({', '.join(status)})", reg.expires)
        )
    elif left <= w.alert_days_before:
        made.append(_raise(ctx, w, "expiring", f"{w.domain} expires in {left} days, on {reg.expires}", reg.expires))
    if not fresh and status != w.last_status:
        made.append(_raise(ctx, w, "status_changed", f"{w.domain} status {w.last_status} → {status}", reg.expires))
    ctx.update(w, expires_on=reg.expires, registrar=reg.registrar.name, last_status=status, last_checked_at=ctx.now())
    return [a for a in made if a is not None]


@service.tool(
    intent="check a watched domain now",
    write=True,
    example=first_example(Watch, "watch_id", where={"status": "watching"}),
)
def check_watch(ctx: Ctx, watch_id: WatchId) -> list[DomainAlert]:
    """Check one watched domain now; returns the alerts raised (an alert is raised once per expiry date).

    Args:
        watch_id: The watch (it must not be paused).
    """
    w = ctx.get(Watch, watch_id, field="watch_id")
    if w.status != "watching":
        raise RuleViolation(f"the watch on {w.domain} is paused", field="watch_id", hint="resume it first")
    return _check(ctx, w)


@service.tool(intent="check every watched domain", write=True)
def run_checks(ctx: Ctx) -> list[DomainAlert]:
    """Check every domain being watched (paused ones are skipped); returns the alerts raised."""
    return [a for w in ctx.where(Watch, status="watching") for a in _check(ctx, w)]


def _example_ack(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(DomainAlert, status="open")
    return None if a is None else {"alert_id": a.id, "acknowledged_by": ctx.population.employees[0].email}


@service.tool(intent="acknowledge the domain alert", write=True, example=_example_ack)
def acknowledge_alert(ctx: Ctx, alert_id: AlertId, acknowledged_by: Email) -> DomainAlert:
    """Acknowledge an open alert (someone is on it).

    Args:
        alert_id: The alert.
        acknowledged_by: The employee acknowledging.
    """
    a = ctx.get(DomainAlert, alert_id, field="alert_id")
    if a.status != "open":
        raise Conflict(f"alert {a.id} is already acknowledged", field="alert_id", hint="nothing to do")
    _staff(ctx, acknowledged_by, "acknowledged_by")
    return ctx.update(a, status="acknowledged", acknowledged_by=acknowledged_by)


# -- seed ----------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """The home domain and partner companies' domains on the watch list, with the alerts their checks raised.

    One watch was last checked before its registrar locked transfers: its next check reports the status change.
    """
    pop = s.population
    it = pop.staff("Engineering", "IT", fallback=3)
    today = s.now.date()
    for k, c in enumerate([pop.home, *pop.customers[:7]]):
        reg = _registration(pop, today, c.domain)
        if reg is None:
            continue
        status = _status(reg, today)
        w = s.create(Watch, domain=c.domain, owner_email=it[k % len(it)].email,
                     alert_days_before=(30, 60, 90)[k % 3], notes="Our primary domain" if c.home else f"{c.name} (partner)",
                     status="paused" if k == 6 else "watching", expires_on=reg.expires, registrar=reg.registrar.name,
                     last_status=["active"] if k == 1 else status, last_checked_at=s.ago(days=1), created_at=s.ago(days=300 - 10 * k),
                     updated_at=s.ago(days=1))  # fmt: skip
        left = (reg.expires - today).days
        if left <= w.alert_days_before:
            s.create(DomainAlert, watch_id=w.id, domain=w.domain, kind="expiring",
                     message=f"{w.domain} expires in {left} days, on {reg.expires}", expires_on=reg.expires,
                     status="acknowledged" if k % 2 else "open",
                     acknowledged_by=it[0].email if k % 2 else None, created_at=s.ago(days=1))  # fmt: skip
