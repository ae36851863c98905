"""Sentinel Exchange: a threat intelligence sharing platform (events, attributes, tags, sightings, galaxies).

Modeled on the MISP REST API (events/add, events/publish, attributes/add,
attributes/restSearch, sightings/add, tags, galaxy clusters, sharing_groups):
events with a threat level (high, medium, low, undefined), an analysis stage
(initial, ongoing, completed) and a distribution (your_organisation_only,
this_community_only, connected_communities, all_communities, sharing_group);
attributes (indicators) typed ip-src, ip-dst, domain, hostname, url, md5,
sha256, email-src or filename with a category and an IDS flag, each value
checked against its type and unique per event; tags (one TLP marking per
event), galaxy clusters (threat actors, ATT&CK patterns, ransomware families)
attached as tags, sightings (seen, false positive, expiration), sharing groups of
organisations, and publishing, which needs attributes and is undone by any edit.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "threatintel",
    title="Sentinel Exchange",
    category="threat_intelligence",
    modeled_on="MISP REST API: events (add/edit/publish), attributes with types and IDS flags, restSearch, "
    "tags and TLP, galaxy clusters, sightings, sharing groups",
    description="Threat intelligence shared with partner organisations: events describing campaigns with "
    "their threat level and analysis stage, the indicators (IPs, domains, hashes, URLs) they carry, TLP and "
    "galaxy tags, sightings of indicators in our own network, sharing groups, and publishing to the community.",
)

EventId = Annotated[str, IdOf("threatintel.event")]
AttributeId = Annotated[str, IdOf("threatintel.attribute")]
TagId = Annotated[str, IdOf("threatintel.tag")]
SightingId = Annotated[str, IdOf("threatintel.sighting")]
ClusterId = Annotated[str, IdOf("threatintel.cluster")]
GroupId = Annotated[str, IdOf("threatintel.sharing_group")]

TagName = Annotated[str, StringConstraints(pattern=r'^[a-z0-9][a-z0-9:="._ -]{1,99}$')]
"""A tag such as tlp:amber or misp-galaxy:threat-actor=\"APT29\"."""
Colour = Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")]
"""A hex colour."""
IndicatorValue = Annotated[str, StringConstraints(min_length=1, max_length=500)]
"""An indicator value (an address, a domain, a hash, a URL)."""

ThreatLevel = Literal["high", "medium", "low", "undefined"]
Analysis = Literal["initial", "ongoing", "completed"]
Distribution = Literal[
    "your_organisation_only", "this_community_only", "connected_communities", "all_communities", "sharing_group"
]
AttrType = Literal["ip-src", "ip-dst", "domain", "hostname", "url", "md5", "sha256", "email-src", "filename"]
AttrCategory = Literal["Network activity", "Payload delivery", "Artifacts dropped", "External analysis"]
SightingType = Literal["sighting", "false_positive", "expiration"]
Galaxy = Literal["threat-actor", "mitre-attack-pattern", "ransomware", "tool"]

_IP = r"((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_HOST = r"([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}"
FORMATS: dict[str, str] = {
    "ip-src": _IP,
    "ip-dst": _IP,
    "domain": _HOST,
    "hostname": _HOST,
    "url": r"https?://\S+",
    "md5": r"[0-9a-f]{32}",
    "sha256": r"[0-9a-f]{64}",
    "email-src": r"[^@\s]+@" + _HOST,
    "filename": r"[^/\\]{1,255}",
}
IDS_DEFAULT = frozenset({"ip-src", "ip-dst", "domain", "hostname", "url", "md5", "sha256", "email-src"})


class SharingGroup(Timestamped):
    """Organisations an event can be shared with beyond the community defaults."""

    id: GroupId
    name: Title
    """Its name (unique)."""
    organisations: tuple[CompanyName, ...]
    """The member organisations."""
    releasability: Text = ""
    """Who may receive its events."""
    active: bool = True
    """Whether events can be shared with it."""


class Event(Timestamped):
    """An event: a campaign, incident or report, with its indicators."""

    id: EventId
    info: Title
    """What the event is about."""
    orgc: CompanyName | None = None
    """The organisation that created it (set to ours when we create it)."""
    creator_email: Email
    """The analyst who created it."""
    threat_level: ThreatLevel = "undefined"
    """high, medium, low or undefined."""
    analysis: Analysis = "initial"
    """initial, ongoing or completed."""
    distribution: Distribution = "your_organisation_only"
    """Who may see it."""
    sharing_group_id: GroupId | None = None
    """The sharing group, when distribution is sharing_group."""
    date: Date
    """The day the event happened."""
    published: bool = False
    """Whether it is published to the community."""
    published_at: DateTime | None = None
    """When it was last published."""
    tags: tuple[TagName, ...] = ()
    """Its tags (TLP, galaxy clusters, taxonomies)."""
    attribute_count: int = 0
    """How many attributes it has."""


class Attribute(Created):
    """An indicator or observable of an event."""

    id: AttributeId
    event_id: EventId
    """The event."""
    type: AttrType
    """ip-src, ip-dst, domain, hostname, url, md5, sha256, email-src or filename."""
    category: AttrCategory = "Network activity"
    """Its MISP category."""
    value: IndicatorValue
    """The indicator's value."""
    to_ids: bool = True
    """Whether detection systems should alert on it."""
    comment: Text = ""
    """Context for it."""
    sighting_count: int = 0
    """Sightings of it."""
    false_positive_count: int = 0
    """False-positive sightings of it."""


class Tag(Created):
    """A tag in the tag collection."""

    id: TagId
    name: TagName
    """The tag (unique)."""
    colour: Colour = "#336699"
    """Its display colour."""
    exportable: bool = True
    """Whether it travels with shared events."""


class Sighting(Created):
    """A report that an attribute was seen (or is a false positive, or expired)."""

    id: SightingId
    attribute_id: AttributeId
    """The attribute."""
    event_id: EventId
    """Its event."""
    type: SightingType = "sighting"
    """sighting, false_positive or expiration."""
    source: Title
    """Where it was seen (a sensor, a SIEM, a mailbox)."""
    reported_by: Email
    """The analyst reporting it."""


class Cluster(Record):
    """A galaxy cluster: a known threat actor, technique, ransomware family or tool."""

    id: ClusterId
    galaxy: Galaxy
    """threat-actor, mitre-attack-pattern, ransomware or tool."""
    value: Title
    """Its name (APT29, T1566 Phishing)."""
    description: Text = ""
    """What it is."""
    synonyms: tuple[Title, ...] = ()
    """Other names for it."""


class IndicatorHit(Value):
    """An attribute matching a search, with its event."""

    attribute_id: AttributeId
    """The attribute."""
    event_id: EventId
    """Its event."""
    event_info: Title
    """The event's title."""
    threat_level: ThreatLevel
    """The event's threat level."""
    type: AttrType
    """The attribute type."""
    value: IndicatorValue
    """The value."""
    to_ids: bool
    """Its IDS flag."""


# -- rules ------------------------------------------------------------------------------------


def _check_value(type_: str, value: str) -> None:
    if not re.fullmatch(FORMATS[type_], value):
        raise RuleViolation(f"{value!r} is not a valid {type_}", field="value", hint=f"give a {type_} value")


def _guard_event(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        require_employee(ctx, new.creator_email, field="creator_email", hint="events are created by our analysts")
        if new.orgc is None:
            ctx.update(new, orgc=ctx.population.home.name)
    if new.distribution == "sharing_group":
        if new.sharing_group_id is None:
            raise RuleViolation(
                "distribution sharing_group needs a sharing group", field="sharing_group_id", hint="name one"
            )
        group = ctx.get(SharingGroup, new.sharing_group_id, field="sharing_group_id")
        if not group.active:
            raise RuleViolation(
                f"sharing group {group.name!r} is inactive", field="sharing_group_id", hint="pick another"
            )
    elif new.sharing_group_id is not None:
        raise RuleViolation(
            "a sharing group only applies to distribution sharing_group", field="sharing_group_id", hint="omit it"
        )
    if old is not None and old.published and new.published and _edited(old, new):
        ctx.update(new, published=False)


def _edited(old: Event, new: Event) -> bool:
    keys = ("info", "threat_level", "analysis", "distribution", "sharing_group_id", "date")
    return any(getattr(old, k) != getattr(new, k) for k in keys)


def _delete_event(ctx: Ctx, new: Any, old: Any) -> None:
    for s in ctx.where(Sighting, event_id=old.id):
        ctx.delete(s)
    for a in ctx.where(Attribute, event_id=old.id):
        ctx.delete(a)


def _guard_attribute(ctx: Ctx, new: Any, old: Any) -> None:
    _unpublish(ctx, new.event_id)


def _delete_attribute(ctx: Ctx, new: Any, old: Any) -> None:
    for s in ctx.where(Sighting, attribute_id=old.id):
        ctx.delete(s)
    ev = _unpublish(ctx, old.event_id)
    ctx.update(ev, attribute_count=max(0, ev.attribute_count - 1))


def _unpublish(ctx: Ctx, event_id: str) -> Event:
    ev = ctx.get(Event, event_id, field="event_id")
    return ctx.update(ev, published=False) if ev.published else ev


def _guard_tag_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for ev in ctx.scan(Event):
        if old.name in ev.tags:
            raise Conflict(f"tag {old.name!r} is on event {ev.id}", field="tag_id", hint="untag the events first")


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.organisations or len(set(new.organisations)) != len(new.organisations):
        raise RuleViolation("list each organisation once, at least one", field="organisations", hint="name partners")
    if old is not None and old.active and not new.active:
        for ev in ctx.where(Event, sharing_group_id=new.id):
            raise RuleViolation(
                f"event {ev.id} is shared with this group",
                field="sharing_group_id",
                hint="change its distribution first",
            )


groups = service.resource(
    SharingGroup,
    name="sharing_group",
    plural="sharing_groups",
    prefix="sg",
    create=("name", "organisations", "releasability"),
    filters=("active", "name"),
    search=("name", "releasability"),
    update=("name", "organisations", "releasability"),
    delete=False,
    unique=("name",),
    transitions={
        "deactivate": Transition("active", (True,), False, "deactivate the sharing group"),
        "reactivate": Transition("active", (False,), True, "reactivate the sharing group"),
    },
    guard_create=_guard_group,
    guard_update=_guard_group,
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="ev",
    create=("info", "creator_email", "threat_level", "analysis", "distribution", "sharing_group_id", "date"),
    filters=("threat_level", "analysis", "distribution", "published", "orgc", "creator_email"),
    search=("info",),
    update=("info", "threat_level", "analysis", "distribution", "sharing_group_id"),
    transitions={"unpublish": Transition("published", (True,), False, "unpublish the event")},
    guard_create=_guard_event,
    guard_update=_guard_event,
    guard_delete=_delete_event,
)
attributes = service.resource(
    Attribute,
    name="attribute",
    plural="attributes",
    prefix="attr",
    create=False,
    filters=("event_id", "type", "category", "to_ids", "value"),
    search=("value", "comment"),
    update=("category", "to_ids", "comment"),
    guard_update=_guard_attribute,
    guard_delete=_delete_attribute,
)
tags = service.resource(
    Tag,
    name="tag",
    plural="tags",
    prefix="tag",
    create=False,
    get=False,
    filters=("exportable", "name"),
    search=("name",),
    unique=("name",),
    guard_delete=_guard_tag_delete,
)
sightings = service.resource(
    Sighting,
    name="sighting",
    plural="sightings",
    prefix="sgt",
    create=False,
    get=False,
    filters=("attribute_id", "event_id", "type", "reported_by"),
    delete=False,
)
clusters = service.resource(
    Cluster,
    name="cluster",
    plural="clusters",
    prefix="gc",
    create=False,
    filters=("galaxy",),
    search=("value", "description"),
    delete=False,
    title="galaxy cluster",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="add the indicator to the event",
    write=True,
    example=first_example(Event, "event_id", type="domain", value="update-check.example-cdn.net", comment="C2"),
)
def add_attribute(
    ctx: Ctx,
    event_id: EventId,
    type: AttrType,
    value: IndicatorValue,
    category: AttrCategory | None = None,
    to_ids: bool | None = None,
    comment: Text = "",
) -> Attribute:
    """Add an attribute (indicator) to an event; its value must fit its type and be new to the event.

    Adding to a published event unpublishes it until it is published again.

    Args:
        event_id: The event.
        type: ip-src, ip-dst, domain, hostname, url, md5, sha256, email-src or filename.
        value: The value (hashes in lower case).
        category: The MISP category (default by type).
        to_ids: Whether IDS should alert on it (default: true for network indicators and hashes).
        comment: Context.
    """
    ev = ctx.get(Event, event_id, field="event_id")
    _check_value(type, value)
    if ctx.first(Attribute, event_id=ev.id, type=type, value=value) is not None:
        raise Conflict(f"event {ev.id} already has {type} {value}", field="value", hint="the attribute exists")
    cat: AttrCategory = category or (
        "Payload delivery" if type in ("md5", "sha256", "filename", "email-src") else "Network activity"
    )
    made = ctx.create(
        Attribute,
        event_id=ev.id,
        type=type,
        category=cat,
        value=value,
        to_ids=type in IDS_DEFAULT if to_ids is None else to_ids,
        comment=comment,
    )
    ctx.update(ev, attribute_count=ev.attribute_count + 1, published=False)
    return made


@service.tool(
    intent="publish the event",
    write=True,
    example=first_example(Event, "event_id", where={"published": False}, match=lambda c, e: e.attribute_count > 0),
)
def publish_event(ctx: Ctx, event_id: EventId) -> Event:
    """Publish an event to its distribution; it needs at least one attribute and a TLP tag.

    Args:
        event_id: The event.
    """
    ev = ctx.get(Event, event_id, field="event_id")
    if ev.published:
        raise Conflict(f"event {ev.id} is already published", field="event_id", hint="edit it first to republish")
    if ev.attribute_count == 0:
        raise RuleViolation(f"event {ev.id} has no attributes", field="event_id", hint="add indicators first")
    if not any(t.startswith("tlp:") for t in ev.tags):
        raise RuleViolation(f"event {ev.id} has no TLP tag", field="event_id", hint="tag it tlp:green, tlp:amber…")
    return ctx.update(ev, published=True, published_at=ctx.now())


@service.tool(
    intent="tag the event",
    write=True,
    example=first_example(Event, "event_id", match=lambda c, e: "osint" not in e.tags, tag="osint"),
)
def tag_event(ctx: Ctx, event_id: EventId, tag: TagName) -> Event:
    """Put a tag of the collection on an event; an event has one TLP marking at most.

    Args:
        event_id: The event.
        tag: The tag's name.
    """
    ev = ctx.get(Event, event_id, field="event_id")
    if ctx.first(Tag, name=tag) is None:
        raise RuleViolation(f"no tag {tag!r} in the collection", field="tag", hint="create it with create_tag")
    if tag in ev.tags:
        raise Conflict(f"event {ev.id} is already tagged {tag}", field="tag", hint="nothing to do")
    if tag.startswith("tlp:") and any(t.startswith("tlp:") for t in ev.tags):
        raise Conflict(f"event {ev.id} already has a TLP tag", field="tag", hint="untag the old TLP marking first")
    return ctx.update(ev, tags=(*ev.tags, tag))


@service.tool(intent="create the tag", write=True, example=fixed_example(name="tlp:clear", colour="#f0f0f0"))
def create_tag(ctx: Ctx, name: TagName, colour: Colour = "#336699", exportable: bool = True) -> Tag:
    """Add a tag to the collection (lower case; TLP markings start with tlp:).

    Args:
        name: The tag, e.g. tlp:amber, phishing, or a taxonomy tag like admiralty-scale:source-reliability="b".
        colour: Its display colour (#rrggbb).
        exportable: Whether it travels with shared events.
    """
    if ctx.first(Tag, name=name) is not None:
        raise Conflict(f"tag {name!r} already exists", field="name", hint="use the existing tag")
    return ctx.create(Tag, name=name, colour=colour, exportable=exportable)


def _example_untag(ctx: Ctx) -> dict[str, Any] | None:
    tagged = [ev for ev in ctx.scan(Event) if ev.tags]
    return {"event_id": tagged[0].id, "tag": tagged[0].tags[0]} if tagged else None


@service.tool(intent="untag the event", write=True, example=_example_untag)
def untag_event(ctx: Ctx, event_id: EventId, tag: TagName) -> Event:
    """Remove a tag from an event.

    Args:
        event_id: The event.
        tag: The tag's name.
    """
    ev = ctx.get(Event, event_id, field="event_id")
    if tag not in ev.tags:
        raise RuleViolation(f"event {ev.id} is not tagged {tag}", field="tag", hint="see the event's tags")
    return ctx.update(ev, tags=tuple(t for t in ev.tags if t != tag))


def _example_attach(ctx: Ctx) -> dict[str, Any] | None:
    ev = ctx.first(Event, threat_level="medium")
    gc = ctx.first(Cluster, galaxy="threat-actor")
    return None if ev is None or gc is None else {"event_id": ev.id, "cluster_id": gc.id}


@service.tool(intent="attach the galaxy cluster to the event", write=True, example=_example_attach)
def attach_cluster(ctx: Ctx, event_id: EventId, cluster_id: ClusterId) -> Event:
    """Attach a galaxy cluster (threat actor, technique, ransomware) to an event as its galaxy tag.

    Args:
        event_id: The event.
        cluster_id: The galaxy cluster.
    """
    ev = ctx.get(Event, event_id, field="event_id")
    gc = ctx.get(Cluster, cluster_id, field="cluster_id")
    tag = f'misp-galaxy:{gc.galaxy}="{gc.value}"'.lower()
    if tag in ev.tags:
        raise Conflict(f"{gc.value} is already attached to event {ev.id}", field="cluster_id", hint="nothing to do")
    return ctx.update(ev, tags=(*ev.tags, tag))


@service.tool(
    intent="report a sighting of the indicator",
    write=True,
    example=first_example(Attribute, "attribute_id", source="Perimeter firewall"),
)
def add_sighting(
    ctx: Ctx,
    attribute_id: AttributeId,
    source: Title,
    reported_by: Email | None = None,
    type: SightingType = "sighting",
) -> Sighting:
    """Report that an attribute was seen in our network (or is a false positive, or expired).

    An expiration sighting turns the attribute's IDS flag off.

    Args:
        attribute_id: The attribute.
        source: Where it was seen.
        reported_by: The analyst (default: the event's creator).
        type: sighting, false_positive or expiration.
    """
    attr = ctx.get(Attribute, attribute_id, field="attribute_id")
    ev = ctx.get(Event, attr.event_id)
    who = reported_by or ev.creator_email
    require_employee(ctx, who, field="reported_by", hint="sightings are reported by our analysts")
    if type == "expiration" and not attr.to_ids:
        raise Conflict(f"attribute {attr.id} is already out of IDS", field="type", hint="nothing to expire")
    made = ctx.create(Sighting, attribute_id=attr.id, event_id=ev.id, type=type, source=source, reported_by=who)
    if type == "sighting":
        ctx.update(attr, sighting_count=attr.sighting_count + 1)
    elif type == "false_positive":
        ctx.update(attr, false_positive_count=attr.false_positive_count + 1)
    else:
        ctx.update(attr, to_ids=False)
    return made


@service.tool(intent="search the indicators", example=fixed_example(value="185.220.101.47"))
def search_indicators(ctx: Ctx, value: IndicatorValue, ids_only: bool = False) -> list[IndicatorHit]:
    """Find every attribute with this value (an IP, a domain, a hash), across events.

    Args:
        value: The value to look for (exact, case-insensitive).
        ids_only: Only attributes flagged for IDS.
    """
    want = value.strip().lower()
    out: list[IndicatorHit] = []
    for a in ctx.scan(Attribute):
        if a.value.lower() == want and (a.to_ids or not ids_only):
            ev = ctx.get(Event, a.event_id)
            out.append(
                IndicatorHit(
                    attribute_id=a.id,
                    event_id=ev.id,
                    event_info=ev.info,
                    threat_level=ev.threat_level,
                    type=a.type,
                    value=a.value,
                    to_ids=a.to_ids,
                )
            )
    return out


# -- seed -------------------------------------------------------------------------------------

TAGS: tuple[tuple[str, str], ...] = (
    ("tlp:white", "#ffffff"),
    ("tlp:green", "#33ff00"),
    ("tlp:amber", "#ffc000"),
    ("tlp:red", "#ff2b2b"),
    ("osint", "#0088cc"),
    ("phishing", "#aa3366"),
    ("ransomware", "#990000"),
)
CLUSTERS: tuple[tuple[Galaxy, str, str, tuple[str, ...]], ...] = (
    ("threat-actor", "APT29", "Russian state-sponsored espionage group.", ("Cozy Bear", "Midnight Blizzard")),
    ("threat-actor", "FIN7", "Financially motivated group targeting retail and hospitality.", ("Carbanak",)),
    ("ransomware", "LockBit", "Ransomware-as-a-service operation.", ("LockBit 3.0",)),
    ("ransomware", "BlackCat", "Rust-based ransomware family.", ("ALPHV",)),
    ("mitre-attack-pattern", "T1566 Phishing", "Adversaries send phishing messages to gain access.", ()),
    ("tool", "Cobalt Strike", "Commercial adversary simulation tool abused by many actors.", ()),
)
EVENTS: tuple[tuple[str, ThreatLevel, Analysis, str, tuple[tuple[AttrType, str], ...]], ...] = (
    (
        "Invoice-themed phishing wave delivering QakBot",
        "high",
        "completed",
        "tlp:amber",
        (
            ("email-src", "billing@invoice-docs-secure.com"),
            ("domain", "invoice-docs-secure.com"),
            ("url", "https://invoice-docs-secure.com/view/INV-20931"),
            ("sha256", "9f1c5b1e0f3e6c2d4a7b8e9d0c1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"),
        ),
    ),
    (
        "LockBit affiliate infrastructure",
        "high",
        "ongoing",
        "tlp:red",
        (("ip-dst", "185.220.101.47"), ("ip-dst", "45.153.160.140"), ("md5", "0f343b0931126a20f133d67c2b018a3b")),
    ),
    (
        "Tor exit nodes scanning VPN gateways",
        "medium",
        "completed",
        "tlp:green",
        (("ip-src", "185.220.101.47"), ("ip-src", "199.249.230.87")),
    ),
    ("Credential stuffing against customer portal", "medium", "initial", "", (("ip-src", "103.251.167.20"),)),
    ("Typosquatted domains of our brand", "low", "initial", "", ()),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Tags, galaxy clusters, a sharing group of partner companies, events with indicators and sightings."""
    pop = s.population
    analysts = pop.staff("Security", "IT", "Engineering", fallback=3)
    for name, colour in TAGS:
        s.create(Tag, name=name, colour=colour, exportable=name != "tlp:red", created_at=s.ago(days=500))
    for galaxy, value, desc, syn in CLUSTERS:
        s.create(Cluster, galaxy=galaxy, value=value, description=desc, synonyms=syn)
    partners = [c.name for c in pop.companies if not c.home][:4]
    group = s.create(
        SharingGroup,
        name="Regional ISAC partners",
        organisations=(pop.home.name, *partners),
        releasability="Members of the regional information sharing and analysis center.",
        created_at=s.ago(days=400),
        updated_at=s.ago(days=400),
    )
    s.create(
        SharingGroup,
        name="Financial sector trust group",
        organisations=(pop.home.name, *partners[2:]),
        releasability="Finance-sector members under NDA.",
        created_at=s.ago(days=300),
        updated_at=s.ago(days=300),
    )
    s.create(
        SharingGroup,
        name="Retired vendor exchange",
        organisations=(pop.home.name, *partners[:1]),
        active=False,
        created_at=s.ago(days=600),
        updated_at=s.ago(days=200),
    )
    dists: tuple[Distribution, ...] = (
        "sharing_group",
        "your_organisation_only",
        "all_communities",
        "this_community_only",
    )
    for k, (info, level, stage, tlp, attrs) in enumerate(EVENTS):
        dist = dists[k % len(dists)]
        published = bool(tlp) and stage == "completed"
        orgc = pop.home.name if k != 2 or not partners else partners[0]
        ev = s.create(
            Event,
            info=info,
            orgc=orgc,
            creator_email=analysts[k % len(analysts)].email,
            threat_level=level,
            analysis=stage,
            distribution=dist,
            sharing_group_id=group.id if dist == "sharing_group" else None,
            date=s.ago(days=40 - 7 * k).date(),
            published=published,
            published_at=s.ago(days=38 - 7 * k) if published else None,
            tags=tuple(t for t in (tlp, "ransomware" if "LockBit" in info else "") if t),
            attribute_count=len(attrs),
            created_at=s.ago(days=40 - 7 * k),
            updated_at=s.ago(days=38 - 7 * k),
        )
        for j, (atype, value) in enumerate(attrs):
            seen = (k + j) % 3
            a = s.create(
                Attribute,
                event_id=ev.id,
                type=atype,
                category="Payload delivery" if atype in ("md5", "sha256", "email-src") else "Network activity",
                value=value,
                to_ids=True,
                sighting_count=seen,
                created_at=s.ago(days=40 - 7 * k),
            )
            for n in range(seen):
                s.create(
                    Sighting,
                    attribute_id=a.id,
                    event_id=ev.id,
                    source=("Perimeter firewall", "Mail gateway", "EDR telemetry")[n],
                    reported_by=analysts[(k + n) % len(analysts)].email,
                    created_at=s.ago(days=30 - 7 * k + n),
                )
