"""Netlens IP: IP geolocation, ASN and privacy data, and the company's IP allow and deny lists.

Modeled on the ipinfo.io API (``/{ip}`` with ``asn``, ``company``, ``privacy``
and ``abuse`` objects, ``/batch``, ``/AS{n}``, ``/ranges/{domain}``,
``/domains/{ip}``, ``/json`` for the caller's own address and the
``bogon`` flag for reserved addresses) and, for the stored lists, on
Cloudflare's account IP Lists (a list is ``ip`` kind, items are addresses or
CIDR ranges with a comment).

An open-world service: networks are a deterministic model seeded by the world
seed. Each company of the world owns one /24 (its offices, in its city) under
its own ASN, and its website sits at an address of a hosting network; a set of
real carrier, cloud, VPN and Tor networks (AS7922 Comcast, AS3320 Deutsche
Telekom, AS16509 Amazon with 3.120.0.0/14 in Frankfurt, AS24940 Hetzner,
AS9009 M247 …) hold their real ranges; any other public address belongs to an
access provider drawn from its /16. Private, loopback, link-local, CGNAT,
documentation and multicast ranges are bogons and carry no data.

Lists are ``allow`` or ``deny``, active or disabled. An entry is a single
address or a network written with its host bits clear (``10.0.0.0/24``, not
``10.0.0.5/24``), IPv4 no wider than /16 and IPv6 no wider than /32; entries of
one list may not overlap, a deny entry may not overlap an active allow list's
entry (nor the reverse), bogons cannot be denied, and the company's own office
network cannot be denied (it would lock the office out). A list is deleted only
once disabled.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    City,
    CompanyName,
    Country,
    Date,
    Domain,
    Email,
    IdOf,
    Latitude,
    Longitude,
    Phone,
    SemanticType,
    Text,
    Timezone,
)
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.world.geo import CITIES, CityRef

__all__ = ["company_block", "service", "website_ip"]

service = Service(
    "ipintel",
    title="Netlens IP",
    category="ip_intelligence",
    modeled_on="ipinfo.io API (/{ip} with asn, company, privacy and abuse; /batch; /AS{n}; /ranges/{domain}; "
    "/domains/{ip}; /json) with Cloudflare account IP Lists for stored allow and deny lists",
    description="IP address intelligence: where an address is, which network and company hold it, whether it is "
    "a VPN, proxy, Tor exit or hosting address, who to contact about abuse, the networks of an ASN or a domain, "
    "and the company's own allow and deny lists that decide what an address may reach.",
)

ListId = Annotated[str, IdOf("ipintel.ip_list")]
EntryId = Annotated[str, IdOf("ipintel.entry")]
IpAddress = Annotated[str, SemanticType("network.ip", kind="ref"), StringConstraints(pattern=r"^[0-9A-Fa-f:.]{2,45}$")]
"""An IPv4 or IPv6 address."""
Cidr = Annotated[
    str, SemanticType("network.cidr", kind="ref"), StringConstraints(pattern=r"^[0-9A-Fa-f:.]{2,45}(/\d{1,3})?$")
]
"""An address or a network in CIDR notation (``198.51.100.0/24``)."""
Asn = Annotated[int, SemanticType("network.asn", kind="ref"), Field(ge=1, le=4_294_967_295)]
"""An autonomous system number (``16509`` for AS16509)."""

NetType = Literal["isp", "hosting", "business", "education"]
ListKind = Literal["allow", "deny"]
ListStatus = Literal["active", "disabled"]
Verdict = Literal["allow", "deny", "none"]
ListName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{1,50}$")]
"""A list name: lower case letters, digits and underscores."""

MAX_BATCH = 100
MAX_ENTRIES = 500
WIDEST = {4: 16, 6: 32}
"""The widest prefix an entry may have, per IP version."""


@dataclass(frozen=True, slots=True)
class _Net:
    asn: int
    name: str
    domain: str
    kind: NetType
    country: str
    prefixes: tuple[str, ...]
    vpn: str | None = None
    tor: bool = False
    relay: str | None = None


_NETS: tuple[_Net, ...] = (
    _Net(7922, "Comcast Cable Communications, LLC", "comcast.com", "isp", "US", ("73.0.0.0/8", "98.192.0.0/10")),
    _Net(7018, "AT&T Services, Inc.", "att.com", "isp", "US", ("12.0.0.0/8",)),
    _Net(3320, "Deutsche Telekom AG", "telekom.de", "isp", "DE", ("79.192.0.0/10", "93.192.0.0/10")),
    _Net(2856, "British Telecommunications PLC", "bt.com", "isp", "GB", ("86.128.0.0/10",)),
    _Net(3215, "Orange S.A.", "orange.com", "isp", "FR", ("90.0.0.0/9",)),
    _Net(17676, "SoftBank Corp.", "softbank.jp", "isp", "JP", ("126.0.0.0/8",)),
    _Net(1221, "Telstra Limited", "telstra.com.au", "isp", "AU", ("1.128.0.0/11",)),
    _Net(16509, "Amazon.com, Inc.", "amazon.com", "hosting", "DE", ("3.120.0.0/14", "18.184.0.0/15")),
    _Net(14061, "DigitalOcean, LLC", "digitalocean.com", "hosting", "US", ("159.89.0.0/16", "167.99.0.0/16")),
    _Net(24940, "Hetzner Online GmbH", "hetzner.com", "hosting", "DE", ("88.198.0.0/16", "116.202.0.0/16")),
    _Net(13335, "Cloudflare, Inc.", "cloudflare.com", "hosting", "US", ("104.16.0.0/13",)),
    _Net(
        13335, "Cloudflare, Inc.", "cloudflare.com", "hosting", "US", ("172.224.0.0/12",), relay="iCloud Private Relay"
    ),
    _Net(9009, "M247 Europe SRL", "m247.com", "hosting", "RO", ("185.156.172.0/22", "146.70.0.0/16"), vpn="Mullvad"),
    _Net(60729, "Stiftung Erneuerbare Freiheit", "artikel10.org", "hosting", "DE", ("185.220.100.0/22",), tor=True),
    _Net(15169, "Google LLC", "google.com", "hosting", "US", ("8.8.8.0/24", "8.8.4.0/24", "34.64.0.0/10")),
    _Net(3, "Massachusetts Institute of Technology", "mit.edu", "education", "US", ("18.0.0.0/9",)),
)
_ACCESS = [n for n in _NETS if n.kind == "isp"]
_HOSTS = [n for n in _NETS if n.kind == "hosting" and n.vpn is None and not n.tor and n.relay is None]
_NET_CITY = {"US": "New York", "DE": "Frankfurt", "GB": "London", "FR": "Paris", "JP": "Tokyo", "AU": "Sydney",
             "RO": "Bucharest"}  # fmt: skip
COMPANY_ASN_BASE = 396000
"""The world's companies hold AS396001, AS396002 … in population order."""


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(("ipintel", str(seed), *map(str, parts))))


@lru_cache(maxsize=8192)
def _parsed(prefix: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    return ipaddress.ip_network(prefix)


def company_block(seed: int, index: int) -> ipaddress.IPv4Network:
    """The /24 the ``index``-th company of the population holds (in 45.0.0.0/8, spread by the seed)."""
    r = _rng(seed, "block", index)
    return ipaddress.IPv4Network(f"45.{(index * 37 + r.randrange(4)) % 250 + 2}.{r.randrange(256)}.0/24")


def website_ip(seed: int, domain: str) -> str:
    """The address a company's website answers on: one in a hosting network's range, drawn from its domain."""
    r = _rng(seed, "site", domain)
    net = _HOSTS[r.randrange(len(_HOSTS))]
    block = max((_parsed(p) for p in net.prefixes), key=lambda b: b.num_addresses)
    return str(block.network_address + 256 * r.randrange(1, block.num_addresses // 256) + r.randrange(2, 250))


# -- the world model ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Where:
    net: _Net
    route: str
    city: CityRef
    company: Company | None


def _city(name: str, country: str) -> CityRef:
    return next((c for c in CITIES if c.city == name), None) or next(
        (c for c in CITIES if c.country == country), CITIES[0]
    )


def _ip(value: str, field: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    try:
        return ipaddress.ip_address(value.strip())
    except ValueError:
        raise RuleViolation(
            f"{value!r} is not an IP address", field=field, hint="give an IPv4 (203.0.113.7) or IPv6 address"
        ) from None


def _bogon(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return not ip.is_global or ip.is_multicast


def _company_at(ctx: Ctx, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> tuple[Company, str] | None:
    if ip.version != 4:
        return None
    seed = ctx.population.seed
    for k, company in enumerate(ctx.population.companies):
        block = company_block(seed, k)
        if ip in block:
            return company, str(block)
    return None


def _locate(ctx: Ctx, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> _Where:
    owned = _company_at(ctx, ip)
    if owned is not None:
        company, route = owned
        k = ctx.population.companies.index(company)
        net = _Net(COMPANY_ASN_BASE + k + 1, company.name, company.domain, "business", company.place.country, (route,))
        return _Where(net, route, _city(company.place.city, company.place.country), company)
    for net in _NETS:
        for prefix in net.prefixes:
            block = _parsed(prefix)
            if ip.version == block.version and ip in block:
                r = _rng(ctx.population.seed, "city", net.asn, int(ip) >> 12)
                home = _city(_NET_CITY.get(net.country, ""), net.country)
                local = [c for c in CITIES if c.country == net.country] or [home]
                city = home if net.kind == "hosting" else local[r.randrange(len(local))]
                return _Where(net, prefix, city, None)
    bits = 16 if ip.version == 4 else 32
    route = str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))
    r = _rng(ctx.population.seed, "access", route)
    net = _ACCESS[r.randrange(len(_ACCESS))]
    local = [c for c in CITIES if c.country == net.country] or list(CITIES)
    return _Where(net, route, local[r.randrange(len(local))], None)


# -- result models ------------------------------------------------------------------------------------------


class AsnBrief(BaseModel):
    """The network an address is routed in."""

    asn: str = Field(description="The ASN, written AS16509.")
    name: CompanyName = Field(description="The network's holder.")
    domain: Domain = Field(description="The holder's web domain.")
    route: Cidr = Field(description="The announced prefix the address is in.")
    type: NetType = Field(description="isp, hosting, business or education.")


class CompanyBrief(BaseModel):
    """The organisation using the address."""

    name: CompanyName = Field(description="Its name.")
    domain: Domain = Field(description="Its web domain.")
    type: NetType = Field(description="isp, hosting, business or education.")


class Privacy(BaseModel):
    """Whether the address hides its user (ipinfo privacy detection)."""

    vpn: bool = Field(description="A VPN exit.")
    proxy: bool = Field(description="An open or web proxy.")
    tor: bool = Field(description="A Tor exit relay.")
    relay: bool = Field(description="An anonymising relay such as iCloud Private Relay.")
    hosting: bool = Field(description="A data-centre or cloud address rather than an end user's.")
    service: str = Field(description="The VPN or relay service's name; empty when none.")


class Abuse(BaseModel):
    """Who to report abuse from an address to."""

    address: str = Field(description="Postal address of the network's holder.")
    country: Country = Field(description="Country.")
    email: Email = Field(description="Abuse mailbox.")
    name: str = Field(description="Contact name.")
    network: Cidr = Field(description="The network the contact covers.")
    phone: Phone = Field(description="Phone.")


class IpDetails(BaseModel):
    """Everything known about one address (ipinfo /{ip})."""

    ip: IpAddress = Field(description="The address, normalised.")
    bogon: bool = Field(description="A reserved (private, loopback, documentation …) address: nothing else is set.")
    hostname: str | None = Field(description="Reverse DNS name.")
    city: City | None = Field(description="City.")
    country: Country | None = Field(description="Country (ISO 3166-1 alpha-2).")
    latitude: Latitude | None = Field(description="Latitude of the city.")
    longitude: Longitude | None = Field(description="Longitude of the city.")
    postal: str | None = Field(description="Postal code prefix.")
    timezone: Timezone | None = Field(description="IANA time zone.")
    org: str | None = Field(description="'AS<number> <holder>', as ipinfo writes it.")
    asn: AsnBrief | None = Field(description="The routing network.")
    company: CompanyBrief | None = Field(description="The organisation using the address.")
    privacy: Privacy | None = Field(description="Privacy detection.")
    abuse: Abuse | None = Field(description="Abuse contact.")


class BatchLookup(BaseModel):
    """Several addresses looked up at once."""

    count: int = Field(description="Addresses looked up.")
    results: list[IpDetails] = Field(description="One entry per address, in the order given.")


class Prefix(BaseModel):
    """A prefix an ASN announces."""

    netblock: Cidr = Field(description="The prefix.")
    name: str = Field(description="Its holder.")
    country: Country = Field(description="Where it is used.")
    size: int = Field(description="Addresses in it.")


class AsnDetails(BaseModel):
    """An autonomous system (ipinfo /AS{n})."""

    asn: str = Field(description="AS16509 style.")
    name: CompanyName = Field(description="The holder.")
    country: Country = Field(description="The holder's country.")
    domain: Domain = Field(description="The holder's web domain.")
    registry: Literal["arin", "ripe", "apnic", "lacnic", "afrinic"] = Field(description="Regional registry.")
    type: NetType = Field(description="isp, hosting, business or education.")
    num_ips: int = Field(description="Addresses announced in total.")
    prefixes: list[Prefix] = Field(description="Announced prefixes.")


class Ranges(BaseModel):
    """The networks a domain's owner holds (ipinfo /ranges/{domain})."""

    domain: Domain = Field(description="The domain.")
    num_ranges: int = Field(description="Networks found (0 for a domain holding none).")
    ranges: list[Cidr] = Field(description="The networks.")


class HostedDomains(BaseModel):
    """Domains whose websites answer on an address (ipinfo /domains/{ip})."""

    ip: IpAddress = Field(description="The address.")
    total: int = Field(description="Domains found.")
    domains: list[Domain] = Field(description="The domains, by name.")


class Summary(BaseModel):
    """Counts over a set of addresses (ipinfo summarize)."""

    total: int = Field(description="Addresses given.")
    unique: int = Field(description="Distinct addresses.")
    bogons: int = Field(description="Reserved addresses.")
    countries: dict[str, int] = Field(description="Addresses per country.")
    top_asns: dict[str, int] = Field(description="Addresses per ASN (the five largest).")
    privacy: dict[str, int] = Field(description="Addresses flagged vpn, proxy, tor, relay, hosting.")


class Evaluation(BaseModel):
    """What the company's lists say about an address."""

    ip: IpAddress = Field(description="The address.")
    verdict: Verdict = Field(description="deny when an active deny entry matches (deny wins), else allow, else none.")
    matched_entry_ids: list[EntryId] = Field(description="Active, unexpired entries containing the address.")
    privacy: Privacy | None = Field(description="Privacy detection (none for a bogon).")
    advice: str = Field(description="A one-line reading of the result.")


# -- lookups --------------------------------------------------------------------------------------------------


def _privacy(w: _Where) -> Privacy:
    return Privacy(vpn=w.net.vpn is not None, proxy=False, tor=w.net.tor, relay=w.net.relay is not None,
                   hosting=w.net.kind == "hosting", service=w.net.vpn or w.net.relay or "")  # fmt: skip


def _abuse(w: _Where) -> Abuse:
    if w.company is not None:
        c = w.company
        addr = f"{c.address.street}, {c.address.postal_code} {c.address.city}"
        return Abuse(address=addr, country=c.address.country, email=f"abuse@{c.domain}", name=f"{c.name} NOC",
                     network=w.route, phone=c.phone)  # fmt: skip
    city = w.city
    return Abuse(address=f"{city.city}, {city.country}", country=w.net.country, email=f"abuse@{w.net.domain}",
                 name=f"{w.net.name} Abuse", network=w.route, phone=f"{city.phone_prefix}200555000")  # fmt: skip


def _details(ctx: Ctx, raw: str, field: str = "ip") -> IpDetails:
    ip = _ip(raw, field)
    if _bogon(ip):
        return IpDetails(ip=str(ip), bogon=True, hostname=None, city=None, country=None, latitude=None,
                         longitude=None, postal=None, timezone=None, org=None, asn=None, company=None,
                         privacy=None, abuse=None)  # fmt: skip
    w = _locate(ctx, ip)
    if w.company is not None:
        host = f"gw-{str(ip).rsplit('.', 1)[-1]}.{w.company.domain}"
    elif w.net.kind == "hosting":
        host = f"{str(ip).replace('.', '-').replace(':', '-')}.static.{w.net.domain}"
    else:
        host = f"{str(ip).replace('.', '-').replace(':', '-')}.dyn.{w.net.domain}"
    return IpDetails(
        ip=str(ip),
        bogon=False,
        hostname=host,
        city=w.city.city,
        country=w.city.country,
        latitude=w.city.latitude,
        longitude=w.city.longitude,
        postal=w.city.postal_prefix,
        timezone=w.city.timezone,
        org=f"AS{w.net.asn} {w.net.name}",
        asn=AsnBrief(asn=f"AS{w.net.asn}", name=w.net.name, domain=w.net.domain, route=w.route, type=w.net.kind),
        company=CompanyBrief(name=w.net.name, domain=w.net.domain, type=w.net.kind),
        privacy=_privacy(w),
        abuse=_abuse(w),
    )


def _example_ip(ctx: Ctx) -> dict[str, Any]:
    return {"ip": website_ip(ctx.population.seed, ctx.population.customers[0].domain)}


@service.tool(intent="look up an IP address", open_world=True, example=_example_ip)
def lookup_ip(ctx: Ctx, ip: IpAddress) -> IpDetails:
    """Where an address is, which network and organisation hold it, privacy flags and abuse contact (/{ip}).

    A reserved address (private, loopback, documentation, multicast …) comes back with bogon true only.

    Args:
        ip: An IPv4 or IPv6 address.
    """
    return _details(ctx, ip)


@service.tool(intent="look up several IP addresses", open_world=True,
              example=fixed_example(ips=["3.121.4.20", "185.220.101.7", "10.1.2.3"]))  # fmt: skip
def lookup_batch(ctx: Ctx, ips: Annotated[list[IpAddress], Field(min_length=1, max_length=MAX_BATCH)]) -> BatchLookup:
    """Look up to 100 addresses in one call (/batch).

    Args:
        ips: The addresses.
    """
    return BatchLookup(count=len(ips), results=[_details(ctx, ip, f"ips.{i}") for i, ip in enumerate(ips)])


@service.tool(intent="check whether an IP address is a VPN, proxy or Tor exit", open_world=True,
              example=fixed_example(ip="146.70.12.9"))  # fmt: skip
def lookup_privacy(ctx: Ctx, ip: IpAddress) -> Privacy:
    """Privacy detection for one address: VPN, proxy, Tor, relay, hosting (/{ip}/privacy).

    Args:
        ip: A public address.
    """
    addr = _ip(ip, "ip")
    if _bogon(addr):
        raise RuleViolation(f"{addr} is a reserved address", field="ip", hint="privacy data exists for public ones")
    return _privacy(_locate(ctx, addr))


@service.tool(intent="get the abuse contact of an IP address", open_world=True, example=_example_ip)
def get_abuse_contact(ctx: Ctx, ip: IpAddress) -> Abuse:
    """Who to report abuse from an address to (/{ip}/abuse).

    Args:
        ip: A public address.
    """
    addr = _ip(ip, "ip")
    if _bogon(addr):
        raise RuleViolation(f"{addr} is a reserved address", field="ip", hint="report abuse from public addresses")
    return _abuse(_locate(ctx, addr))


def _asn_nets(ctx: Ctx, asn: int) -> list[_Net]:
    k = asn - COMPANY_ASN_BASE - 1
    companies = ctx.population.companies
    if 0 <= k < len(companies):
        c = companies[k]
        block = str(company_block(ctx.population.seed, k))
        return [_Net(asn, c.name, c.domain, "business", c.place.country, (block,))]
    return [n for n in _NETS if n.asn == asn]


_REGISTRY = {"US": "arin", "CA": "arin", "JP": "apnic", "AU": "apnic", "CN": "apnic", "IN": "apnic", "KR": "apnic",
             "BR": "lacnic", "MX": "lacnic", "ZA": "afrinic", "NG": "afrinic"}  # fmt: skip


@service.tool(intent="look up an autonomous system", open_world=True, example=fixed_example(asn=16509))
def lookup_asn(ctx: Ctx, asn: Asn) -> AsnDetails:
    """An autonomous system's holder, registry, type and announced prefixes (/AS{n}).

    Args:
        asn: The number, without the AS (16509).
    """
    nets = _asn_nets(ctx, asn)
    if not nets:
        raise NotFound(f"AS{asn} announces no prefixes", field="asn", hint="take the ASN from an IP lookup's asn")
    first = nets[0]
    prefixes = [Prefix(netblock=p, name=n.name, country=n.country, size=_parsed(p).num_addresses)
                for n in nets for p in n.prefixes]  # fmt: skip
    return AsnDetails(asn=f"AS{asn}", name=first.name, country=first.country, domain=first.domain,
                      registry=_REGISTRY.get(first.country, "ripe"), type=first.kind,
                      num_ips=sum(p.size for p in prefixes), prefixes=prefixes)  # fmt: skip


def _example_domain(ctx: Ctx) -> dict[str, Any]:
    return {"domain": ctx.population.customers[0].domain}


@service.tool(intent="find the IP ranges a domain's owner holds", open_world=True, example=_example_domain)
def lookup_ranges(ctx: Ctx, domain: Domain) -> Ranges:
    """The networks held by the owner of a domain (/ranges/{domain}); none for a domain holding none.

    Args:
        domain: The web domain.
    """
    seed = ctx.population.seed
    found = [str(company_block(seed, k)) for k, c in enumerate(ctx.population.companies) if c.domain == domain]
    found += [p for n in _NETS if n.domain == domain for p in n.prefixes]
    return Ranges(domain=domain, num_ranges=len(found), ranges=sorted(set(found)))


@service.tool(intent="find the domains hosted on an IP address", open_world=True, example=_example_ip)
def hosted_domains(ctx: Ctx, ip: IpAddress) -> HostedDomains:
    """Domains whose websites answer on an address (/domains/{ip}, reverse IP).

    Args:
        ip: The address.
    """
    addr = str(_ip(ip, "ip"))
    seed = ctx.population.seed
    found = sorted(c.domain for c in ctx.population.companies if website_ip(seed, c.domain) == addr)
    return HostedDomains(ip=addr, total=len(found), domains=found)


def _office(ctx: Ctx) -> ipaddress.IPv4Network:
    return company_block(ctx.population.seed, ctx.population.companies.index(ctx.population.home))


@service.tool(intent="see the company's own public IP address", open_world=True)
def my_ip(ctx: Ctx) -> IpDetails:
    """Details of the address the company's requests come from: its office gateway (/json)."""
    return _details(ctx, str(_office(ctx).network_address + 10))


@service.tool(intent="summarize a set of IP addresses", open_world=True,
              example=fixed_example(ips=["3.121.4.20", "3.121.4.21", "185.220.101.7", "73.5.6.7", "192.168.1.4"]))  # fmt: skip
def summarize_ips(ctx: Ctx, ips: Annotated[list[IpAddress], Field(min_length=1, max_length=1000)]) -> Summary:
    """Counts over up to 1000 addresses (a log's sources): by country, top ASNs, privacy flags, bogons.

    Args:
        ips: The addresses; repeats count each time.
    """
    looked = [_details(ctx, ip, f"ips.{i}") for i, ip in enumerate(ips)]
    countries: Counter[str] = Counter(d.country for d in looked if d.country)
    asns: Counter[str] = Counter(d.asn.asn for d in looked if d.asn)
    flags: Counter[str] = Counter()
    for d in looked:
        if d.privacy is not None:
            flags.update(k for k in ("vpn", "proxy", "tor", "relay", "hosting") if getattr(d.privacy, k))
    return Summary(total=len(ips), unique=len({d.ip for d in looked}), bogons=sum(d.bogon for d in looked),
                   countries=dict(sorted(countries.items())), top_asns=dict(asns.most_common(5)),
                   privacy={k: flags[k] for k in ("vpn", "proxy", "tor", "relay", "hosting")})  # fmt: skip


# -- lists ---------------------------------------------------------------------------------------------------


class IpList(Timestamped):
    """A named allow or deny list of addresses and networks."""

    id: ListId
    name: ListName
    """Its name: lower case, digits and underscores (unique)."""
    kind: ListKind
    """allow or deny."""
    description: Text = ""
    """What it is for."""
    owner_email: Email
    """The employee responsible for it."""
    status: ListStatus = "active"
    """active (applied) or disabled."""


class Entry(Created):
    """An address or network on a list."""

    id: EntryId
    list_id: ListId
    """The list."""
    cidr: Cidr
    """The network, normalised (a single address is /32 or /128)."""
    comment: Text = ""
    """Why it is there."""
    added_by: Email
    """The employee who added it."""
    expires_on: Date | None = None
    """The last day it applies; none: no end."""


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_list(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.owner_email != old.owner_email:
        _staff(ctx, new.owner_email, "owner_email")


def _guard_list_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "active":
        raise Conflict(f"list {old.name} is active", field="ip_list_id", hint="disable it first (disable_ip_list)")
    for e in ctx.where(Entry, list_id=old.id):
        ctx.delete(e)


ip_lists = service.resource(
    IpList, name="ip_list", plural="ip_lists", prefix="lst", create=False,
    filters=("kind", "status", "owner_email", "name"), search=("name", "description"),
    update=("description", "owner_email"), unique=("name",), title="IP list",
    transitions={
        "enable": Transition("status", ("disabled",), "active", "enable the IP list"),
        "disable": Transition("status", ("active",), "disabled", "disable the IP list"),
    },
    guard_update=_guard_list, guard_delete=_guard_list_delete,
)  # fmt: skip
entries = service.resource(
    Entry, name="entry", plural="entries", prefix="ent", create=False, filters=("list_id", "added_by", "cidr"),
    search=("comment", "cidr"), update=("comment", "expires_on"), title="list entry",
)  # fmt: skip


def _example_create(ctx: Ctx) -> dict[str, Any]:
    return {"name": "payment_webhooks", "kind": "allow", "description": "Payment provider webhook senders.",
            "owner_email": ctx.population.employees[0].email}  # fmt: skip


@service.tool(intent="create an IP list", write=True, example=_example_create)
def create_ip_list(ctx: Ctx, name: ListName, kind: ListKind, owner_email: Email, description: Text = "") -> IpList:
    """Create an empty, active allow or deny list; names are unique.

    Args:
        name: Lower case letters, digits and underscores, up to 50 (payment_webhooks).
        kind: allow or deny.
        owner_email: The employee responsible for it.
        description: What it is for.
    """
    if ctx.first(IpList, name=name) is not None:
        raise Conflict(f"a list named {name} exists", field="name", hint="pick another name or add to that list")
    _staff(ctx, owner_email, "owner_email")
    return ctx.create(IpList, name=name, kind=kind, owner_email=owner_email, description=description)


def _network(value: str, field: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        net = ipaddress.ip_network(value.strip())
    except ValueError:
        try:
            loose = ipaddress.ip_network(value.strip(), strict=False)
        except ValueError:
            raise RuleViolation(f"{value!r} is no address or CIDR network", field=field,
                                hint="write 203.0.113.7 or 203.0.113.0/24") from None  # fmt: skip
        raise RuleViolation(f"{value} has host bits set", field=field, hint=f"write the network as {loose}") from None
    if net.prefixlen < WIDEST[net.version]:
        raise RuleViolation(f"{net} is wider than /{WIDEST[net.version]}", field=field,
                            hint=f"split it into /{WIDEST[net.version]} networks or narrower")  # fmt: skip
    return net


def _live(ctx: Ctx, e: Entry) -> bool:
    return e.expires_on is None or e.expires_on >= ctx.today()


def _check_entry(ctx: Ctx, lst: IpList, net: ipaddress.IPv4Network | ipaddress.IPv6Network) -> None:
    if lst.kind == "deny":
        if _bogon(net.network_address):
            raise RuleViolation(f"{net} is a reserved range", field="cidr", hint="bogons never reach you: no need")
        office = _office(ctx)
        if net.version == 4 and net.overlaps(office):
            raise RuleViolation(f"{net} covers the company's office network {office}", field="cidr",
                                hint="denying it would lock the office out; deny a narrower, outside network")  # fmt: skip
    for e in ctx.where(Entry, list_id=lst.id):
        other = _parsed(e.cidr)
        if other.version == net.version and other.overlaps(net):
            raise Conflict(f"{net} overlaps entry {e.id} ({e.cidr}) of list {lst.name}", field="cidr",
                           hint="edit or remove that entry instead")  # fmt: skip
    for other_list in ctx.where(IpList, status="active"):
        if other_list.kind == lst.kind:
            continue
        for e in ctx.where(Entry, list_id=other_list.id):
            other = _parsed(e.cidr)
            if _live(ctx, e) and other.version == net.version and other.overlaps(net):
                raise Conflict(f"{net} overlaps {e.cidr} on {other_list.kind} list {other_list.name}",
                               field="cidr", hint="an address cannot be both allowed and denied: remove one")  # fmt: skip


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    lst = ctx.first(IpList, kind="deny", status="active")
    if lst is None:
        return None
    return {"ip_list_id": lst.id, "cidr": "159.89.14.0/24", "comment": "Credential stuffing source",
            "added_by": ctx.population.employees[0].email}  # fmt: skip


@service.tool(intent="add an address or network to an IP list", write=True, example=_example_add)
def add_entry(
    ctx: Ctx, ip_list_id: ListId, cidr: Cidr, added_by: Email, comment: Text = "", expires_on: Date | None = None
) -> Entry:
    """Add an address or CIDR network to a list; entries may not overlap, nor contradict the other kind's lists.

    Args:
        ip_list_id: The list.
        cidr: An address or network with host bits clear (IPv4 up to /16, IPv6 up to /32).
        added_by: The employee adding it.
        comment: Why.
        expires_on: The last day it applies (after today); omit for no end.
    """
    lst = ctx.get(IpList, ip_list_id, field="ip_list_id")
    if lst.status != "active":
        raise RuleViolation(f"list {lst.name} is disabled", field="ip_list_id", hint="enable it first")
    net = _network(cidr, "cidr")
    _staff(ctx, added_by, "added_by")
    if expires_on is not None and expires_on <= ctx.today():
        raise RuleViolation("expires_on must be after today", field="expires_on", hint="pick a future date")
    if len(ctx.where(Entry, list_id=lst.id)) >= MAX_ENTRIES:
        raise RuleViolation(f"list {lst.name} holds {MAX_ENTRIES} entries already", field="ip_list_id",
                            hint="remove expired entries or start another list")  # fmt: skip
    _check_entry(ctx, lst, net)
    entry = ctx.create(Entry, list_id=lst.id, cidr=str(net), comment=comment, added_by=added_by,
                       expires_on=expires_on)  # fmt: skip
    return entry


def _example_deny_asn(ctx: Ctx) -> dict[str, Any] | None:
    lst = ctx.first(IpList, kind="deny", status="active")
    if lst is None:
        return None
    return {"ip_list_id": lst.id, "asn": 14061, "comment": "Abusive hosting", "added_by": lst.owner_email}


@service.tool(intent="deny every network of an autonomous system", write=True, example=_example_deny_asn)
def deny_asn(ctx: Ctx, ip_list_id: ListId, asn: Asn, added_by: Email, comment: Text = "") -> list[Entry]:
    """Add every prefix an ASN announces to a deny list, skipping those already there; returns the new entries.

    Args:
        ip_list_id: A deny list.
        asn: The autonomous system (from an IP lookup's asn).
        added_by: The employee adding them.
        comment: Why.
    """
    lst = ctx.get(IpList, ip_list_id, field="ip_list_id")
    if lst.kind != "deny" or lst.status != "active":
        raise RuleViolation(f"list {lst.name} is not an active deny list", field="ip_list_id",
                            hint="pick an active deny list")  # fmt: skip
    nets = _asn_nets(ctx, asn)
    if not nets:
        raise NotFound(f"AS{asn} announces no prefixes", field="asn", hint="take the ASN from an IP lookup")
    _staff(ctx, added_by, "added_by")
    have = {e.cidr for e in ctx.where(Entry, list_id=lst.id)}
    made = []
    for prefix in (p for n in nets for p in n.prefixes if p not in have):
        net = _parsed(prefix)
        if net.prefixlen < WIDEST[net.version]:
            raise RuleViolation(f"AS{asn} announces {net}, wider than /{WIDEST[net.version]}", field="asn",
                                hint="deny its narrower networks one by one with add_entry")  # fmt: skip
        _check_entry(ctx, lst, net)
        made.append(ctx.create(Entry, list_id=lst.id, cidr=prefix, comment=comment or f"AS{asn}", added_by=added_by))
    return made


@service.tool(intent="check an IP address against the company's lists", example=_example_ip)
def evaluate_ip(ctx: Ctx, ip: IpAddress) -> Evaluation:
    """What the active lists say about an address (deny wins over allow; expired entries do not count).

    Args:
        ip: The address.
    """
    addr = _ip(ip, "ip")
    hits: dict[str, list[str]] = {"allow": [], "deny": []}
    for lst in ctx.where(IpList, status="active"):
        for e in ctx.where(Entry, list_id=lst.id):
            net = _parsed(e.cidr)
            if _live(ctx, e) and net.version == addr.version and addr in net:
                hits[lst.kind].append(e.id)
    verdict: Verdict = "deny" if hits["deny"] else "allow" if hits["allow"] else "none"
    privacy = None if _bogon(addr) else _privacy(_locate(ctx, addr))
    if verdict != "none":
        advice = f"{'denied' if verdict == 'deny' else 'allowed'} by the company's lists"
    elif privacy is not None and (privacy.tor or privacy.vpn):
        advice = "on no list, but an anonymising exit: consider denying it"
    else:
        advice = "on no list"
    return Evaluation(ip=str(addr), verdict=verdict, matched_entry_ids=sorted(hits["deny"] + hits["allow"]),
                      privacy=privacy, advice=advice)  # fmt: skip


# -- seed ----------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Allow lists for the offices and partners, deny lists for Tor exits and scrapers, one disabled list."""
    pop = s.population
    sec = pop.staff("Engineering", "IT", fallback=3)
    office = company_block(pop.seed, pop.companies.index(pop.home))
    partners = [(k, c) for k, c in enumerate(pop.companies) if not c.home][:4]

    def make(name: str, kind: ListKind, about: str, status: ListStatus = "active") -> IpList:
        return s.create(IpList, name=name, kind=kind, description=about, owner_email=sec[len(name) % len(sec)].email,
                        status=status, created_at=s.ago(days=200), updated_at=s.ago(days=10))  # fmt: skip

    def add(lst: IpList, cidr: str, comment: str, days: int, expires: dt.date | None = None) -> None:
        s.create(Entry, list_id=lst.id, cidr=cidr, comment=comment, added_by=sec[days % len(sec)].email,
                 expires_on=expires, created_at=s.ago(days=days))  # fmt: skip

    offices = make("office_egress", "allow", "Our office gateways: skip MFA prompts from here.")
    add(offices, str(office), f"{pop.home.name} office", 180)
    apis = make("partner_apis", "allow", "Partners allowed to call the order API.")
    for k, c in partners[:3]:
        add(apis, str(company_block(pop.seed, k)), f"{c.name} integration", 90 + k)
    tor = make("tor_exits", "deny", "Tor exit relays: block sign-ups and checkout.")
    add(tor, "185.220.100.0/22", "Tor exits (AS60729)", 60)
    scrapers = make("blocked_scrapers", "deny", "Sources of scraping and credential stuffing.")
    add(scrapers, "88.198.22.0/24", "Price scraper on Hetzner", 30, (s.now + dt.timedelta(days=60)).date())
    add(scrapers, "167.99.40.17/32", "Credential stuffing, ticket SEC-112", 45, (s.now - dt.timedelta(days=3)).date())
    old = make("legacy_vpn", "allow", "The old VPN concentrator, retired.", status="disabled")
    add(old, str(company_block(pop.seed, partners[3][0])) if len(partners) > 3 else "73.12.0.0/24", "old VPN", 400)
