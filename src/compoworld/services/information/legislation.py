"""Capitol Tracker Legislation: bills with actions, sponsors and cosponsors, committees, members and roll-call votes.

Modeled on the Congress.gov API v3 (``/bill/{congress}/{billType}/{billNumber}``
with ``/actions``, ``/cosponsors``, ``/committees``; ``latestAction``,
``policyArea``, bill types ``hr``, ``s``, ``hjres``, ``sjres``; ``/member/{bioguideId}``
with ``sponsored-legislation``, ``partyName`` and ``terms``; ``/committee/{chamber}/{systemCode}``
such as ``hsju00`` or ``ssfi00``) with the House Clerk's and Senate's roll-call
votes (``rollNumber``, ``question`` "On Passage", ``result``, yea/nay totals and
each member's ``votePosition`` Yea, Nay or Not Voting).

An open-world service drawn from the world seed for the 119th Congress (from
2025-01-03): members of both chambers, the real standing committees, and bills
whose actions run in order from introduction and referral through committee
report, passage in each chamber (each passage with its roll call, yeas above
nays), presentment and signature into public law; some bills touch the home
company's industry. Stored state is the tracked bills: a staff member tracks a
bill once with a stance (support, oppose, monitor) and a priority; checking a
tracked bill returns the actions since its last check, and a paused tracking is
not checked; a tracking is archived only once its bill became law.
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
from compoworld.engine.types import Date, DateTime, Email, IdOf, SemanticType, Text
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "legislation",
    title="Capitol Tracker Legislation",
    category="legislative_data",
    modeled_on="Congress.gov API v3 (bill, actions, cosponsors, committees, member, sponsored-legislation, "
    "committee) with House and Senate roll-call votes",
    description="US federal legislation: search bills of the 119th Congress by words, policy area, chamber, "
    "sponsor and status, read their actions, cosponsors and committees, look up members and committees, read "
    "roll-call votes with each member's position, and track bills with a stance so that new actions are reported.",
)

BillId = Annotated[
    str, SemanticType("legislation.bill", kind="ref"), StringConstraints(pattern=r"^119-(hr|s|hjres|sjres)-[0-9]{1,5}$")
]
MemberId = Annotated[str, SemanticType("legislation.member", kind="ref"), StringConstraints(pattern=r"^[A-Z][0-9]{6}$")]
CommitteeCode = Annotated[
    str, SemanticType("legislation.committee", kind="ref"), StringConstraints(pattern=r"^[hs][a-z]{3}00$")
]
VoteId = Annotated[str, SemanticType("legislation.vote", kind="ref"), StringConstraints(pattern=r"^(h|s)[0-9]{1,4}$")]
TrackingId = Annotated[str, IdOf("legislation.tracking")]
Query = Annotated[str, StringConstraints(min_length=2, max_length=200)]
Chamber = Literal["House", "Senate"]
Party = Literal["D", "R", "I"]
Stage = Literal["Introduced", "In Committee", "Reported", "Passed House", "Passed Senate", "To President", "Became Law"]
Stance = Literal["support", "oppose", "monitor"]
START = dt.date(2025, 1, 3)
MAX_TRACKED = 25

_COMMITTEES = {
    "hsju00": ("House", "Judiciary Committee"),
    "hsif00": ("House", "Energy and Commerce Committee"),
    "hswm00": ("House", "Ways and Means Committee"),
    "hssy00": ("House", "Science, Space, and Technology Committee"),
    "hsed00": ("House", "Education and Workforce Committee"),
    "hspw00": ("House", "Transportation and Infrastructure Committee"),
    "ssju00": ("Senate", "Judiciary Committee"),
    "ssfi00": ("Senate", "Finance Committee"),
    "sscm00": ("Senate", "Commerce, Science, and Transportation Committee"),
    "sshr00": ("Senate", "Health, Education, Labor, and Pensions Committee"),
    "sseg00": ("Senate", "Energy and Natural Resources Committee"),
}
# policy area, house committee, senate committee, title templates
_AREAS = (
    ("Taxation", "hswm00", "ssfi00", ("Small Business Tax Relief Act", "Research Credit Modernization Act")),
    ("Commerce", "hsif00", "sscm00", ("Consumer Data Privacy Act", "Online Marketplace Transparency Act")),
    (
        "Science, Technology, Communications",
        "hssy00",
        "sscm00",
        ("Artificial Intelligence Accountability Act", "Broadband Access Act"),
    ),
    ("Labor and Employment", "hsed00", "sshr00", ("Workforce Retraining Act", "Paid Leave Fairness Act")),
    ("Energy", "hsif00", "sseg00", ("Grid Resilience Act", "Clean Energy Manufacturing Act")),
    ("Transportation and Public Works", "hspw00", "sscm00", ("Freight Rail Safety Act", "Port Modernization Act")),
    ("Crime and Law Enforcement", "hsju00", "ssju00", ("Ransomware Reporting Act", "Identity Theft Prevention Act")),
    ("Health", "hsif00", "sshr00", ("Telehealth Expansion Act", "Drug Price Transparency Act")),
)
_STATES = ("CA", "TX", "NY", "FL", "IL", "PA", "OH", "WA", "MA", "GA", "NC", "MI", "AZ", "CO", "VA", "MN")
_FIRST = tuple(
    [
        "Alex",
        "Maria",
        "James",
        "Linda",
        "Robert",
        "Patricia",
        "Daniel",
        "Grace",
        "Thomas",
        "Elena",
        "Marcus",
        "Diane",
        "Kevin",
        "Rosa",
    ]
)
_LAST = tuple(
    [
        "Whitfield",
        "Navarro",
        "Brennan",
        "Okafor",
        "Lindqvist",
        "Castillo",
        "Hargrove",
        "Pruitt",
        "Sandoval",
        "Kimura",
        "Delacroix",
    ]
)


@dataclass(frozen=True, slots=True)
class _Member:
    id: str
    name: str
    party: str
    state: str
    chamber: str
    district: int | None
    since: int


@dataclass(frozen=True, slots=True)
class _Vote:
    id: str
    bill_id: str
    chamber: str
    date: dt.date
    question: str
    yeas: int
    nays: int
    not_voting: int
    majority: str


@dataclass(frozen=True, slots=True)
class _Bill:
    id: str
    type: str
    number: int
    title: str
    area: int
    sponsor: str
    cosponsors: tuple[tuple[str, dt.date], ...]
    introduced: dt.date
    stage: str
    actions: tuple[tuple[dt.date, str, str], ...]
    """(date, type, text), oldest first."""
    committees: tuple[str, ...]
    votes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Db:
    members: dict[str, _Member]
    bills: dict[str, _Bill]
    votes: dict[str, _Vote]


@per_population
def _build(pop: Population, today: dt.date) -> _Db:
    r = random.Random(f"legislation:{pop.seed}")
    members: dict[str, _Member] = {}
    for n in range(40):
        chamber = "Senate" if n % 5 == 0 else "House"
        last = r.choice(_LAST)
        mid = f"{last[0]}{100000 + 7919 * n % 900000:06d}"
        state = _STATES[n % len(_STATES)]
        party = "R" if n % 2 else "D" if n % 13 else "I"
        district = None if chamber == "Senate" else 1 + n % 12
        members[mid] = _Member(
            mid, f"{r.choice(_FIRST)} {last}", party, state, chamber, district, r.randint(2005, 2025)
        )
    house = [m for m in members.values() if m.chamber == "House"]
    senate = [m for m in members.values() if m.chamber == "Senate"]
    bills: dict[str, _Bill] = {}
    votes: dict[str, _Vote] = {}
    roll = {"House": 10, "Senate": 5}
    industry = pop.home.industry
    span = max(1, (today - START).days - 5)
    for n in range(48):
        area = n % len(_AREAS)
        _, hc, sc, titles = _AREAS[area]
        in_house = n % 3 != 2
        sponsor = r.choice(house if in_house else senate)
        btype = ("hr" if in_house else "s") if n % 9 else ("hjres" if in_house else "sjres")
        number = r.randint(100, 9000) if btype in ("hr", "s") else r.randint(1, 120)
        bid = f"119-{btype}-{number}"
        if bid in bills:
            continue
        title = titles[n // len(_AREAS) % 2] + (f" of {2025 + n % 2}" if n % 4 else "")
        if n in (3, 19, 35):
            title = f"{industry.capitalize()} {('Competitiveness', 'Supply Chain Security', 'Innovation')[n // 16]} Act"
        introduced = START + dt.timedelta(days=r.randint(0, span))
        first, second = (hc, sc) if in_house else (sc, hc)
        origin, other = ("House", "Senate") if in_house else ("Senate", "House")
        actions: list[tuple[dt.date, str, str]] = [
            (introduced, "IntroReferral", f"Introduced in {origin}"),
            (introduced, "IntroReferral", f"Referred to the {origin} {_COMMITTEES[first][1]}."),
        ]
        committees = [first]
        depth = r.choices(range(7), weights=(10, 30, 15, 15, 10, 5, 15))[0]
        day = introduced
        bill_votes: list[str] = []

        def step(d: dt.date, lo: int, hi: int) -> dt.date | None:
            nxt = d + dt.timedelta(days=r.randint(lo, hi))
            return nxt if nxt <= today else None

        stage = "Introduced" if depth == 0 else "In Committee"
        for k in range(2, depth + 1):
            nxt = step(day, 10, 90)
            if nxt is None:
                break
            day = nxt
            if k == 2:
                actions.append((day, "Committee", f"Reported by the {_COMMITTEES[first][1]}."))
                stage = "Reported"
            elif k in (3, 4):
                chamber = origin if k == 3 else other
                roll[chamber] += r.randint(1, 9)
                vid = f"{chamber[0].lower()}{roll[chamber]}"
                size = 435 if chamber == "House" else 100
                yeas = r.randint(size // 2 + 2, size - 5)
                nv = r.randint(0, 6)
                majority = sponsor.party if yeas < size * 0.8 else "both"
                votes[vid] = _Vote(vid, bid, chamber, day, "On Passage", yeas, size - yeas - nv, nv, majority)
                bill_votes.append(vid)
                label = "Roll no." if chamber == "House" else "Record Vote Number:"
                actions.append(
                    (
                        day,
                        "Floor",
                        f"Passed {chamber} by the Yeas and Nays: {yeas} - {size - yeas - nv} ({label} {roll[chamber]}).",
                    )
                )
                if k == 3:
                    actions.append(
                        (day, "IntroReferral", f"Received in the {other}; referred to the {_COMMITTEES[second][1]}.")
                    )
                    committees.append(second)
                stage = f"Passed {chamber}"
            elif k == 5:
                actions.append((day, "President", "Presented to President."))
                stage = "To President"
            else:
                actions.append((day, "President", "Signed by President."))
                actions.append((day, "BecameLaw", f"Became Public Law No: 119-{r.randint(5, 90)}."))
                stage = "Became Law"
        pool = [m for m in members.values() if m.id != sponsor.id and m.chamber == sponsor.chamber]
        cos = sorted(r.sample(pool, r.randint(0, 6)), key=lambda m: m.id)
        cosponsors = tuple((m.id, min(today, introduced + dt.timedelta(days=r.randint(0, 60)))) for m in cos)
        bills[bid] = _Bill(
            bid,
            btype,
            number,
            title,
            area,
            sponsor.id,
            cosponsors,
            introduced,
            stage,
            tuple(actions),
            tuple(committees),
            tuple(bill_votes),
        )
    return _Db(members, bills, votes)


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population, ctx.today())


# -- result models ----------------------------------------------------------------------------------------


class Member(BaseModel):
    """A member of Congress (/member/{bioguideId})."""

    bioguide_id: MemberId = Field(description="Bioguide id.")
    name: str = Field(description="Full name.")
    party: Party = Field(description="D, R or I.")
    state: str = Field(description="State.")
    chamber: Chamber = Field(description="House or Senate.")
    district: int | None = Field(description="House district; null for senators.")
    served_since: int = Field(description="First year in Congress.")
    sponsored_count: int = Field(description="Bills sponsored in the 119th Congress.")


class Action(BaseModel):
    """An action on a bill (/bill/.../actions)."""

    action_date: Date = Field(description="Date.")
    type: str = Field(description="IntroReferral, Committee, Floor, President or BecameLaw.")
    text: str = Field(description="Action text.")


class Bill(BaseModel):
    """A bill (/bill/{congress}/{type}/{number})."""

    bill_id: BillId = Field(description="Congress-type-number, e.g. 119-hr-1234.")
    congress: int = Field(description="Congress (119).")
    type: Literal["hr", "s", "hjres", "sjres"] = Field(description="Bill type.")
    number: int = Field(description="Bill number.")
    title: str = Field(description="Short title.")
    origin_chamber: Chamber = Field(description="Chamber of introduction.")
    policy_area: str = Field(description="Policy area.")
    sponsor_id: MemberId = Field(description="Sponsor's bioguide id.")
    sponsor_name: str = Field(description="Sponsor, as 'Name [P-ST]'.")
    introduced_date: Date = Field(description="Introduced.")
    status: Stage = Field(description="Furthest stage reached.")
    latest_action: Action = Field(description="The latest action.")
    cosponsor_count: int = Field(description="Cosponsors.")
    committee_codes: list[CommitteeCode] = Field(description="Committees it was referred to.")
    vote_ids: list[VoteId] = Field(description="Its roll-call votes.")


class Cosponsor(BaseModel):
    """A cosponsor of a bill."""

    bioguide_id: MemberId = Field(description="Member.")
    name: str = Field(description="Name [P-ST].")
    sponsorship_date: Date = Field(description="When they cosponsored.")


class Committee(BaseModel):
    """A standing committee (/committee/{chamber}/{systemCode})."""

    system_code: CommitteeCode = Field(description="System code (hsju00).")
    name: str = Field(description="Name.")
    chamber: Chamber = Field(description="House or Senate.")
    bills_referred: list[BillId] = Field(description="Bills referred to it.")


class MemberVote(BaseModel):
    """One member's position."""

    bioguide_id: MemberId = Field(description="Member.")
    name: str = Field(description="Name [P-ST].")
    position: Literal["Yea", "Nay", "Not Voting"] = Field(description="Vote position.")


class Vote(BaseModel):
    """A roll-call vote."""

    vote_id: VoteId = Field(description="h or s and the roll number.")
    bill_id: BillId = Field(description="The bill.")
    chamber: Chamber = Field(description="Chamber.")
    date: Date = Field(description="Date.")
    question: str = Field(description="Question voted on.")
    result: Literal["Passed", "Failed"] = Field(description="Result.")
    yeas: int = Field(description="Yea votes.")
    nays: int = Field(description="Nay votes.")
    not_voting: int = Field(description="Not voting.")
    positions: list[MemberVote] = Field(description="Positions of the chamber's members in the database.")


# -- helpers ----------------------------------------------------------------------------------------------


def _label(m: _Member) -> str:
    return f"{m.name} [{m.party}-{m.state}{'' if m.district is None else f'-{m.district}'}]"


def _bill(db: _Db, b: _Bill) -> Bill:
    d, t, text = b.actions[-1]
    return Bill(
        bill_id=b.id,
        congress=119,
        type=b.type,
        number=b.number,
        title=b.title,
        origin_chamber="House" if b.type in ("hr", "hjres") else "Senate",
        policy_area=_AREAS[b.area][0],
        sponsor_id=b.sponsor,
        sponsor_name=_label(db.members[b.sponsor]),
        introduced_date=b.introduced,
        status=b.stage,
        latest_action=Action(action_date=d, type=t, text=text),
        cosponsor_count=len(b.cosponsors),
        committee_codes=list(b.committees),
        vote_ids=list(b.votes),
    )


def _get_bill(ctx: Ctx, bill_id: str, field: str = "bill_id") -> _Bill:
    b = _db(ctx).bills.get(bill_id)
    if b is None:
        raise NotFound(f"no bill {bill_id}", field=field, hint="find it with legislation__search_bills")
    return b


def _get_member(ctx: Ctx, bioguide_id: str, field: str = "bioguide_id") -> _Member:
    m = _db(ctx).members.get(bioguide_id)
    if m is None:
        raise NotFound(f"no member {bioguide_id}", field=field, hint="find one with legislation__search_members")
    return m


def _member(db: _Db, m: _Member) -> Member:
    return Member(
        bioguide_id=m.id,
        name=m.name,
        party=m.party,
        state=m.state,
        chamber=m.chamber,
        district=m.district,
        served_since=m.since,
        sponsored_count=sum(b.sponsor == m.id for b in db.bills.values()),
    )


def _example_bill(ctx: Ctx) -> dict[str, Any]:
    db = _db(ctx)
    return {"bill_id": max(db.bills.values(), key=lambda b: (len(b.actions), b.id)).id}


def _example_member(ctx: Ctx) -> dict[str, Any]:
    return {"bioguide_id": next(iter(_db(ctx).members))}


# -- open-world tools -------------------------------------------------------------------------------------


@service.tool(intent="search bills", open_world=True, example=fixed_example(q="act"))
def search_bills(
    ctx: Ctx,
    q: Query | None = None,
    policy_area: str | None = None,
    chamber: Chamber | None = None,
    status: Stage | None = None,
    sponsor_id: MemberId | None = None,
    introduced_after: Date | None = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 20,
) -> list[Bill]:
    """Search bills of the 119th Congress by title words, policy area, chamber, status and sponsor, latest action first.

    Args:
        q: Words that must all appear in the title.
        policy_area: Policy area (Taxation, Health, Energy ...).
        chamber: Chamber of origin.
        status: Furthest stage reached.
        sponsor_id: Sponsor's bioguide id.
        introduced_after: Introduced on or after this date.
        limit: Most results.
    """
    db = _db(ctx)
    words = fold(q or "").split()
    found = [
        b
        for b in db.bills.values()
        if all(w in fold(b.title).split() for w in words)
        and (policy_area is None or fold(policy_area) == fold(_AREAS[b.area][0]))
        and (chamber is None or (chamber == "House") == (b.type in ("hr", "hjres")))
        and status in (None, b.stage)
        and sponsor_id in (None, b.sponsor)
        and (introduced_after is None or b.introduced >= introduced_after)
    ]
    found.sort(key=lambda b: (b.actions[-1][0], b.id), reverse=True)
    return [_bill(db, b) for b in found[:limit]]


@service.tool(intent="get the bill", open_world=True, example=_example_bill)
def get_bill(ctx: Ctx, bill_id: BillId) -> Bill:
    """Get a bill: title, sponsor, policy area, status, latest action, committees and votes.

    Args:
        bill_id: Congress-type-number (119-hr-1234).
    """
    return _bill(_db(ctx), _get_bill(ctx, bill_id))


@service.tool(intent="list the bill's actions", open_world=True, example=_example_bill)
def list_bill_actions(ctx: Ctx, bill_id: BillId, since: Date | None = None) -> list[Action]:
    """List a bill's actions in date order, optionally only those after a date.

    Args:
        bill_id: The bill.
        since: Only actions after this date.
    """
    b = _get_bill(ctx, bill_id)
    return [Action(action_date=d, type=t, text=x) for d, t, x in b.actions if since is None or d > since]


@service.tool(intent="list the bill's cosponsors", open_world=True, example=_example_bill)
def list_bill_cosponsors(ctx: Ctx, bill_id: BillId) -> list[Cosponsor]:
    """List a bill's cosponsors with the dates they signed on.

    Args:
        bill_id: The bill.
    """
    db, b = _db(ctx), _get_bill(ctx, bill_id)
    return [Cosponsor(bioguide_id=m, name=_label(db.members[m]), sponsorship_date=d) for m, d in b.cosponsors]


@service.tool(intent="search members of Congress", open_world=True, example=fixed_example(state="CA"))
def search_members(
    ctx: Ctx,
    name: Query | None = None,
    state: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")] | None = None,
    party: Party | None = None,
    chamber: Chamber | None = None,
) -> list[Member]:
    """Search members of the 119th Congress by name, state, party and chamber.

    Args:
        name: Words of the name.
        state: Two-letter state.
        party: D, R or I.
        chamber: House or Senate.
    """
    db = _db(ctx)
    words = fold(name or "").split()
    return [
        _member(db, m)
        for m in db.members.values()
        if all(w in fold(m.name).split() for w in words)
        and state in (None, m.state)
        and party in (None, m.party)
        and chamber in (None, m.chamber)
    ]


@service.tool(intent="get the member", open_world=True, example=_example_member)
def get_member(ctx: Ctx, bioguide_id: MemberId) -> Member:
    """Get a member: party, state, district, chamber, first year and bills sponsored.

    Args:
        bioguide_id: The member's bioguide id.
    """
    return _member(_db(ctx), _get_member(ctx, bioguide_id))


@service.tool(intent="list the member's sponsored bills", open_world=True, example=_example_member)
def list_sponsored_legislation(ctx: Ctx, bioguide_id: MemberId) -> list[Bill]:
    """List the bills a member sponsored (/member/{id}/sponsored-legislation), newest first.

    Args:
        bioguide_id: The member.
    """
    db = _db(ctx)
    _get_member(ctx, bioguide_id)
    mine = [b for b in db.bills.values() if b.sponsor == bioguide_id]
    return [_bill(db, b) for b in sorted(mine, key=lambda b: (b.introduced, b.id), reverse=True)]


@service.tool(intent="list the committees", open_world=True)
def list_committees(ctx: Ctx, chamber: Chamber | None = None) -> list[Committee]:
    """List the standing committees with the bills referred to each.

    Args:
        chamber: House or Senate.
    """
    db = _db(ctx)
    return [_committee(db, code) for code, (ch, _) in _COMMITTEES.items() if chamber in (None, ch)]


def _committee(db: _Db, code: str) -> Committee:
    ch, name = _COMMITTEES[code]
    referred = sorted(b.id for b in db.bills.values() if code in b.committees)
    return Committee(system_code=code, name=name, chamber=ch, bills_referred=referred)


@service.tool(intent="get the committee", open_world=True, example=fixed_example(system_code="ssfi00"))
def get_committee(ctx: Ctx, system_code: CommitteeCode) -> Committee:
    """Get a committee with the bills referred to it.

    Args:
        system_code: The committee's system code (hsju00, ssfi00).
    """
    if system_code not in _COMMITTEES:
        raise NotFound(f"no committee {system_code}", field="system_code", hint="list legislation__list_committees")
    return _committee(_db(ctx), system_code)


def _position(seed: int, v: _Vote, m: _Member) -> str:
    r = random.Random(f"legislation-vote:{seed}:{v.id}:{m.id}")
    with_party = v.majority in ("both", m.party) or (m.party == "I" and v.majority == "D")
    return "Not Voting" if r.random() < 0.03 else "Yea" if with_party or r.random() < 0.1 else "Nay"


def _example_vote(ctx: Ctx) -> dict[str, Any]:
    return {"vote_id": next(iter(_db(ctx).votes))}


@service.tool(intent="get the roll-call vote", open_world=True, example=_example_vote)
def get_vote(ctx: Ctx, vote_id: VoteId) -> Vote:
    """Get a roll-call vote: question, result, totals and the positions of the chamber's members.

    Args:
        vote_id: h or s and the roll number (h123).
    """
    db = _db(ctx)
    v = db.votes.get(vote_id)
    if v is None:
        raise NotFound(f"no vote {vote_id}", field="vote_id", hint="find votes in a bill's vote_ids")
    positions = [
        MemberVote(bioguide_id=m.id, name=_label(m), position=_position(ctx.population.seed, v, m))
        for m in db.members.values()
        if m.chamber == v.chamber
    ]
    return Vote(
        vote_id=v.id,
        bill_id=v.bill_id,
        chamber=v.chamber,
        date=v.date,
        question=v.question,
        result="Passed" if v.yeas > v.nays else "Failed",
        yeas=v.yeas,
        nays=v.nays,
        not_voting=v.not_voting,
        positions=positions,
    )


class VotePosition(BaseModel):
    """A member's position on one roll call."""

    vote_id: VoteId = Field(description="The vote.")
    bill_id: BillId = Field(description="The bill voted on.")
    date: Date = Field(description="Date.")
    position: Literal["Yea", "Nay", "Not Voting"] = Field(description="The member's position.")


@service.tool(intent="list the member's votes", open_world=True, example=_example_member)
def list_member_votes(ctx: Ctx, bioguide_id: MemberId) -> list[VotePosition]:
    """List a member's positions on the roll calls of their chamber, newest first.

    Args:
        bioguide_id: The member.
    """
    db, m = _db(ctx), _get_member(ctx, bioguide_id)
    votes = sorted((v for v in db.votes.values() if v.chamber == m.chamber), key=lambda v: (v.date, v.id), reverse=True)
    return [
        VotePosition(vote_id=v.id, bill_id=v.bill_id, date=v.date, position=_position(ctx.population.seed, v, m))
        for v in votes
    ]


# -- tracked bills ----------------------------------------------------------------------------------------


class Tracking(Timestamped):
    """A bill the company tracks."""

    id: TrackingId
    bill_id: BillId
    """The bill."""
    title: str
    """Its title."""
    owner_email: Email
    """The staff member following it."""
    stance: Stance = "monitor"
    """support, oppose or monitor."""
    priority: Literal["high", "medium", "low"] = "medium"
    """How much it matters."""
    notes: Text = ""
    """Position notes."""
    status: Literal["active", "paused", "archived"] = "active"
    """active, paused (not checked) or archived (the bill became law)."""
    actions_seen: int = 0
    """Actions already reported."""
    last_checked_at: DateTime | None = None
    """When it was last checked."""


def _guard_archive(ctx: Ctx, new: Tracking, old: Tracking | None) -> None:
    if old is not None and new.status == "archived" and old.status != "archived":
        b = _get_bill(ctx, new.bill_id, "tracking_id")
        if b.stage != "Became Law":
            raise RuleViolation(
                f"bill {b.id} is at '{b.stage}', not law yet",
                field="tracking_id",
                hint="pause the tracking instead; archive it once the bill became law",
            )


trackings = service.resource(
    Tracking,
    name="tracking",
    plural="trackings",
    prefix="ltr",
    create=False,
    filters=("bill_id", "owner_email", "stance", "priority", "status"),
    search=("title", "notes"),
    update=("stance", "priority", "notes"),
    guard_update=_guard_archive,
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause tracking the bill"),
        "resume": Transition("status", ("paused",), "active", "resume tracking the bill"),
        "archive": Transition("status", ("active", "paused"), "archived", "archive the tracked bill", destructive=True),
    },
    title="tracked bill",
)


def _example_track(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.population.employees:
        if len(ctx.where(Tracking, owner_email=p.email)) >= MAX_TRACKED:
            continue
        for b in _db(ctx).bills.values():
            if ctx.first(Tracking, bill_id=b.id, owner_email=p.email) is None:
                return {"bill_id": b.id, "owner_email": p.email, "stance": "monitor"}
    return None


@service.tool(intent="track a bill", write=True, example=_example_track)
def track_bill(
    ctx: Ctx,
    bill_id: BillId,
    owner_email: Email,
    stance: Stance = "monitor",
    priority: Literal["high", "medium", "low"] = "medium",
    notes: Text = "",
) -> Tracking:
    """Track a bill for a staff member; actions from now on are reported at each check.

    Args:
        bill_id: The bill.
        owner_email: The employee following it (at most 25 tracked bills each).
        stance: support, oppose or monitor.
        priority: high, medium or low.
        notes: Position notes.
    """
    b = _get_bill(ctx, bill_id)
    require_employee(ctx, owner_email, field="owner_email", hint="tracking is for staff")
    same = ctx.first(Tracking, bill_id=bill_id, owner_email=owner_email)
    if same is not None:
        raise Conflict(f"{owner_email} already tracks {bill_id} as {same.id}", field="bill_id", hint="update it")
    if len(ctx.where(Tracking, owner_email=owner_email)) >= MAX_TRACKED:
        raise RuleViolation(f"{owner_email} tracks {MAX_TRACKED} bills", field="owner_email", hint="archive one")
    return ctx.create(
        Tracking,
        bill_id=b.id,
        title=b.title,
        owner_email=owner_email,
        stance=stance,
        priority=priority,
        notes=notes,
        actions_seen=len(b.actions),
        last_checked_at=ctx.now(),
    )


@service.tool(
    intent="check the tracked bill for new actions",
    write=True,
    example=first_example(Tracking, "tracking_id", where={"status": "active"}),
)
def check_tracked_bill(ctx: Ctx, tracking_id: TrackingId) -> list[Action]:
    """Return the bill's actions since the last check, oldest first, and mark them seen.

    Args:
        tracking_id: The tracking (active).
    """
    t = ctx.get(Tracking, tracking_id, field="tracking_id")
    if t.status != "active":
        raise RuleViolation(
            f"tracking {t.id} is {t.status}", field="tracking_id", hint="resume it with legislation__resume_tracking"
        )
    b = _get_bill(ctx, t.bill_id, "tracking_id")
    new = [Action(action_date=d, type=k, text=x) for d, k, x in b.actions[t.actions_seen :]]
    ctx.update(t, actions_seen=len(b.actions), last_checked_at=ctx.now())
    return new


# -- seed -------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Government affairs and legal staff tracking the bills in the company's fields."""
    pop = s.population
    db = _build(pop, s.now.date())
    staff = pop.staff("Legal", "Executive", "Finance", fallback=3)
    ranked = sorted(
        db.bills.values(), key=lambda b: (pop.home.industry.capitalize() not in b.title, -len(b.actions), b.id)
    )
    law = next((b for b in ranked if b.stage == "Became Law"), None)
    picks = [b for b in ranked if b is not law][:7] + ([law] if law else [])
    for k, b in enumerate(picks):
        s.create(
            Tracking,
            bill_id=b.id,
            title=b.title,
            owner_email=staff[k % len(staff)].email,
            stance=("support", "oppose", "monitor")[k % 3],
            priority=("high", "medium", "low")[k % 3],
            notes=f"Affects {pop.home.name}'s {pop.home.industry} business." if k % 2 == 0 else "",
            status="paused" if k == 3 else "active",
            actions_seen=max(1, len(b.actions) - 1 - k % 3),
            last_checked_at=s.ago(days=30 + k),
            created_at=s.ago(days=200 - 10 * k),
            updated_at=s.ago(days=30 + k),
        )
