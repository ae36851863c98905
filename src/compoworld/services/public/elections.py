"""County Votes: election administration: voter rolls, precincts, mail ballots and poll workers.

Modeled on VR Systems VoterFocus and EViD (the voter registration system and
electronic poll book that Florida supervisors of elections run): voters with a
voter number, party and status (pending → active ↔ inactive, or removed),
precincts with their polling places, elections with a calendar computed from
election day (book closing 29 days before, the vote-by-mail request deadline
12 days before, early voting, canvass and certification), vote-by-mail
requests (requested → sent → returned as accepted, or rejected for a signature
mismatch and cured by affidavit until two days after election day), and poll
worker recruitment: applicants complete training before they can be assigned,
one assignment per worker and election, one clerk per precinct. A voter must
be active to request a mail ballot, once per election, before the request
deadline; registrations after book closing still enrol but wait as pending.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Date, Email, FirstName, IdOf, LastName, Phone, PostalCode, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import age_on

__all__ = ["service"]

service = Service(
    "elections",
    title="County Votes",
    category="election_administration",
    modeled_on="VR Systems VoterFocus and EViD: voter registration and status, precincts and polling places, "
    "election calendar, vote-by-mail requests with signature cure, poll worker recruitment and assignments",
    description="The county supervisor of elections' office: the voter roll by precinct, upcoming and past "
    "elections with their deadlines, vote-by-mail ballot requests and returns, and the poll workers trained "
    "and assigned to precincts for each election.",
)

VoterId = Annotated[str, IdOf("elections.voter")]
PrecinctId = Annotated[str, IdOf("elections.precinct")]
ElectionId = Annotated[str, IdOf("elections.election")]
BallotId = Annotated[str, IdOf("elections.ballot_request")]
WorkerId = Annotated[str, IdOf("elections.poll_worker")]
AssignmentId = Annotated[str, IdOf("elections.assignment")]

VoterNumber = Annotated[str, StringConstraints(pattern=r"^\d{9}$")]
"""The nine-digit voter registration number."""
Street = Annotated[str, StringConstraints(min_length=1, max_length=200)]

Party = Literal["DEM", "REP", "NPA", "LPF", "GRE"]
VoterStatus = Literal["pending", "active", "inactive", "removed"]
ElectionKind = Literal["general", "primary", "municipal", "special"]
ElectionStatus = Literal["upcoming", "early_voting", "closed", "certified"]
BallotStatus = Literal["requested", "sent", "accepted", "rejected", "cancelled"]
Delivery = Literal["mail", "email", "pickup"]
Position = Literal["clerk", "inspector", "deputy"]

BOOK_CLOSING = dt.timedelta(days=29)
VBM_DEADLINE = dt.timedelta(days=12)
CURE_AFTER = dt.timedelta(days=2)
VOTING_AGE = 18


class Voter(Timestamped):
    """A registered voter."""

    id: VoterId
    voter_number: VoterNumber
    """The voter registration number (unique)."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    birth_date: Date
    """Date of birth."""
    email: Email | None = None
    """E-mail for ballot notices."""
    phone: Phone | None = None
    """Phone."""
    street: Street
    """Residence street address."""
    city: City
    """Residence city."""
    postal_code: PostalCode
    """Residence ZIP code."""
    precinct_id: PrecinctId
    """The precinct of the residence."""
    party: Party = "NPA"
    """Party affiliation: DEM, REP, NPA (no party), LPF or GRE."""
    status: VoterStatus = "pending"
    """pending (awaiting verification), active, inactive (returned mail) or removed."""
    registered_on: Date
    """Registration date."""


class Precinct(Timestamped):
    """A precinct and its election-day polling place."""

    id: PrecinctId
    code: Annotated[str, StringConstraints(pattern=r"^P-\d{3}$")]
    """Precinct code, e.g. P-104."""
    polling_place: Title
    """Where its voters vote on election day."""
    polling_address: Street
    """The polling place's street address."""
    city: City
    """Its city."""
    voter_count: int = 0
    """Active and inactive voters registered in it."""


class Election(Timestamped):
    """An election and its calendar."""

    id: ElectionId
    name: Title
    """The election's name."""
    kind: ElectionKind
    """general, primary, municipal or special."""
    election_date: Date
    """Election day."""
    registration_deadline: Date
    """Book closing: 29 days before election day."""
    mail_request_deadline: Date
    """Last day to request a vote-by-mail ballot: 12 days before."""
    status: ElectionStatus = "upcoming"
    """upcoming, early_voting, closed (polls closed, canvass) or certified."""
    certified_on: Date | None = None
    """When the canvassing board certified the results."""


class BallotRequest(Timestamped):
    """A voter's vote-by-mail ballot request for one election."""

    id: BallotId
    voter_id: VoterId
    """The voter."""
    voter_number: VoterNumber
    """The voter's number."""
    voter_email: Email | None = None
    """The voter's e-mail for ballot tracking notices."""
    election_id: ElectionId
    """The election."""
    delivery: Delivery = "mail"
    """mail, email (overseas and military) or pickup."""
    status: BallotStatus = "requested"
    """requested, sent, accepted (counted), rejected (signature) or cancelled."""
    sent_on: Date | None = None
    """When the ballot went out."""
    returned_on: Date | None = None
    """When the voted ballot came back."""
    reject_reason: str | None = None
    """Why the returned ballot was rejected."""


class PollWorker(Timestamped):
    """A poll worker applicant or trained poll worker."""

    id: WorkerId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone | None = None
    """Phone."""
    position: Position = "clerk"
    """The position trained for: clerk, inspector or deputy."""
    status: Literal["applicant", "trained", "inactive"] = "applicant"
    """applicant, trained (assignable) or inactive."""
    trained_on: Date | None = None
    """When the training class was completed."""


class Assignment(Timestamped):
    """A poll worker's assignment to a precinct for an election."""

    id: AssignmentId
    poll_worker_id: WorkerId
    """The poll worker."""
    worker_email: Email
    """The poll worker's e-mail."""
    election_id: ElectionId
    """The election."""
    precinct_id: PrecinctId
    """The precinct."""
    position: Position
    """clerk (runs the precinct), inspector or deputy."""
    status: Literal["assigned", "confirmed", "declined"] = "assigned"
    """assigned, confirmed by the worker, or declined."""


class Calendar(Value):
    """An election's deadlines."""

    election_id: ElectionId
    """The election."""
    name: str
    """Its name."""
    registration_deadline: str
    """Book closing (ISO date)."""
    mail_request_deadline: str
    """Vote-by-mail request deadline (ISO date)."""
    early_voting_starts: str
    """First day of early voting (ISO date)."""
    election_day: str
    """Election day (ISO date)."""
    cure_deadline: str
    """Last day to cure a rejected mail ballot (ISO date)."""
    days_to_election: int
    """Days from today to election day (negative: past)."""


# -- rules ------------------------------------------------------------------------------------


def _open_election(ctx: Ctx, election_id: str) -> Election:
    election = ctx.get(Election, election_id, field="election_id")
    if election.status in ("closed", "certified"):
        raise RuleViolation(
            f"election {election.name!r} is {election.status}",
            field="election_id",
            hint="pick an upcoming election from elections__list_elections",
        )
    return election


def _guard_worker(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.email != old.email:
        other = ctx.first(PollWorker, email=new.email)
        if other is not None and other.id != new.id:
            raise Conflict(f"poll worker {other.id} already has {new.email}", field="email", hint="update that one")
    if new.status == "trained" and (old is None or old.status != "trained"):
        ctx.update(new, trained_on=ctx.today())


def _guard_certify(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "certified" and old.status != "certified":
        pending = [b for b in ctx.where(BallotRequest, election_id=new.id, status="rejected")]
        if pending and ctx.today() <= new.election_date + CURE_AFTER:
            raise RuleViolation(
                f"{len(pending)} rejected mail ballots can still be cured until {new.election_date + CURE_AFTER}",
                field="election_id",
                hint="wait for the cure deadline to pass",
            )
        ctx.update(new, certified_on=ctx.today())
    if new.status == "early_voting" and old.status == "upcoming" and ctx.today() < new.election_date - VBM_DEADLINE:
        raise RuleViolation(
            "early voting starts at most 12 days before election day",
            field="election_id",
            hint=f"open it on or after {new.election_date - VBM_DEADLINE}",
        )


voters = service.resource(
    Voter,
    name="voter",
    plural="voters",
    prefix="vtr",
    create=False,
    filters=("voter_number", "email", "last_name", "precinct_id", "party", "status", "birth_date"),
    search=("first_name", "last_name", "street"),
    update=("email", "phone", "party"),
    delete=False,
    transitions={
        "verify": Transition("status", ("pending",), "active", "verify the voter's registration"),
        "inactivate": Transition(
            "status",
            ("active",),
            "inactive",
            "mark the voter inactive",
            description="Mark an active voter inactive (mail to the residence came back undeliverable).",
        ),
        "reactivate": Transition("status", ("inactive",), "active", "reactivate the voter"),
        "remove": Transition("status", ("inactive", "pending"), "removed", "remove the voter", destructive=True),
    },
)
precincts = service.resource(
    Precinct,
    name="precinct",
    plural="precincts",
    prefix="pct",
    create=False,
    filters=("code", "city"),
    search=("polling_place", "polling_address"),
    update=("polling_place", "polling_address"),
    delete=False,
)
elections = service.resource(
    Election,
    name="election",
    plural="elections",
    prefix="elc",
    create=False,
    filters=("kind", "status", "election_date"),
    search=("name",),
    delete=False,
    transitions={
        "start_early_voting": Transition("status", ("upcoming",), "early_voting", "start early voting"),
        "close": Transition("status", ("upcoming", "early_voting"), "closed", "close the polls", destructive=True),
        "certify": Transition("status", ("closed",), "certified", "certify the election", destructive=True),
    },
    guard_update=_guard_certify,
)
ballots = service.resource(
    BallotRequest,
    name="ballot_request",
    plural="ballot_requests",
    prefix="vbm",
    create=False,
    filters=("voter_id", "voter_number", "voter_email", "election_id", "status", "delivery"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("requested", "sent"), "cancelled", "cancel the mail ballot request"),
    },
    title="vote-by-mail request",
)
workers = service.resource(
    PollWorker,
    name="poll_worker",
    plural="poll_workers",
    prefix="pw",
    create=("first_name", "last_name", "email", "phone", "position"),
    filters=("email", "last_name", "status", "position"),
    search=("first_name", "last_name"),
    update=("phone", "position"),
    delete=False,
    transitions={
        "complete_training": Transition("status", ("applicant",), "trained", "record the poll worker's training"),
    },
    guard_create=_guard_worker,
    guard_update=_guard_worker,
    title="poll worker",
)
assignments = service.resource(
    Assignment,
    name="assignment",
    plural="assignments",
    prefix="asg",
    create=False,
    filters=("poll_worker_id", "worker_email", "election_id", "precinct_id", "status", "position"),
    delete=False,
    transitions={
        "confirm": Transition("status", ("assigned",), "confirmed", "confirm the poll worker assignment"),
        "decline": Transition("status", ("assigned", "confirmed"), "declined", "decline the poll worker assignment"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Precinct)
    return (
        None
        if p is None
        else {
            "first_name": "Marisol",
            "last_name": "Quintero",
            "birth_date": "1990-05-14",
            "street": "418 Palmetto Ave",
            "city": p.city,
            "postal_code": "32801",
            "precinct_id": p.id,
            "party": "NPA",
            "email": "marisol.quintero@example.org",
        }
    )


@service.tool(intent="register the voter", write=True, example=_example_register)
def register_voter(
    ctx: Ctx,
    first_name: FirstName,
    last_name: LastName,
    birth_date: Date,
    street: Street,
    city: City,
    postal_code: PostalCode,
    precinct_id: PrecinctId,
    party: Party = "NPA",
    email: Email | None = None,
    phone: Phone | None = None,
) -> Voter:
    """Register a voter (pending until verified); one registration per person and birth date.

    Args:
        first_name: First name.
        last_name: Last name.
        birth_date: Date of birth; voters pre-register from 16 and vote from 18.
        street: Residence street address.
        city: Residence city.
        postal_code: Residence ZIP code.
        precinct_id: The residence's precinct.
        party: DEM, REP, NPA, LPF or GRE.
        email: E-mail for notices.
        phone: Phone.
    """
    pct = ctx.get(Precinct, precinct_id, field="precinct_id")
    if age_on(birth_date, ctx.today()) < 16:
        raise RuleViolation("applicants pre-register from age 16", field="birth_date", hint="check the birth date")
    for v in ctx.where(Voter, last_name=last_name, birth_date=birth_date):
        if v.first_name.lower() == first_name.lower() and v.status != "removed":
            raise Conflict(
                f"{first_name} {last_name} is already registered as voter {v.voter_number}",
                field="last_name",
                hint="update the existing registration instead",
            )
    number = f"{120000000 + ctx.next_number(Voter, 'voter_number'):09d}"
    voter = ctx.create(
        Voter,
        voter_number=number,
        first_name=first_name,
        last_name=last_name,
        birth_date=birth_date,
        email=email,
        phone=phone,
        street=street,
        city=city,
        postal_code=postal_code,
        precinct_id=pct.id,
        party=party,
        registered_on=ctx.today(),
    )
    ctx.update(pct, voter_count=pct.voter_count + 1)
    return voter


@service.tool(
    intent="schedule the election",
    write=True,
    example=fixed_example(name="Special Election - County Charter Amendment", kind="special", days_ahead=60),
)
def schedule_election(ctx: Ctx, name: Title, kind: ElectionKind, days_ahead: int) -> Election:
    """Put an election on the calendar; its deadlines follow from election day.

    Args:
        name: The election's name (unique among upcoming elections).
        kind: general, primary, municipal or special.
        days_ahead: Days from today to election day; at least 30 so that book closing is still ahead.
    """
    if days_ahead < 30 or days_ahead > 730:
        raise RuleViolation(
            "election day must be 30 to 730 days ahead", field="days_ahead", hint="pick a later election day"
        )
    for e in ctx.where(Election, name=name):
        if e.status != "certified":
            raise Conflict(f"election {e.id} is already named {name!r}", field="name", hint="use another name")
    day = ctx.today() + dt.timedelta(days=days_ahead)
    return ctx.create(
        Election,
        name=name,
        kind=kind,
        election_date=day,
        registration_deadline=day - BOOK_CLOSING,
        mail_request_deadline=day - VBM_DEADLINE,
    )


@service.tool(intent="show the election calendar", example=first_example(Election, "election_id"))
def election_calendar(ctx: Ctx, election_id: ElectionId) -> Calendar:
    """An election's deadlines: book closing, mail ballot requests, early voting, election day and cure.

    Args:
        election_id: The election.
    """
    e = ctx.get(Election, election_id, field="election_id")
    return Calendar(
        election_id=e.id,
        name=e.name,
        registration_deadline=e.registration_deadline.isoformat(),
        mail_request_deadline=e.mail_request_deadline.isoformat(),
        early_voting_starts=(e.election_date - dt.timedelta(days=10)).isoformat(),
        election_day=e.election_date.isoformat(),
        cure_deadline=(e.election_date + CURE_AFTER).isoformat(),
        days_to_election=(e.election_date - ctx.today()).days,
    )


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    for e in ctx.where(Election, status="upcoming"):
        if ctx.today() <= e.mail_request_deadline:
            for v in ctx.where(Voter, status="active"):
                if ctx.first(BallotRequest, voter_id=v.id, election_id=e.id) is None:
                    return {"voter_number": v.voter_number, "election_id": e.id, "delivery": "mail"}
    return None


@service.tool(intent="request a mail ballot for the voter", write=True, example=_example_request)
def request_mail_ballot(
    ctx: Ctx, voter_number: VoterNumber, election_id: ElectionId, delivery: Delivery = "mail"
) -> BallotRequest:
    """Request a vote-by-mail ballot for an active voter, once per election, by the request deadline.

    Args:
        voter_number: The voter's registration number.
        election_id: The election.
        delivery: mail, email (overseas and military voters) or pickup.
    """
    voter = ctx.first(Voter, voter_number=voter_number)
    if voter is None:
        raise RuleViolation(
            f"no voter {voter_number}", field="voter_number", hint="find the voter with elections__list_voters"
        )
    if voter.status != "active":
        raise RuleViolation(
            f"voter {voter_number} is {voter.status}",
            field="voter_number",
            hint="only active voters get mail ballots; verify or reactivate the registration first",
        )
    election = _open_election(ctx, election_id)
    if ctx.today() > election.mail_request_deadline:
        raise RuleViolation(
            f"the vote-by-mail request deadline was {election.mail_request_deadline}",
            field="election_id",
            hint="the voter can vote early or at the polls",
        )
    for b in ctx.where(BallotRequest, voter_id=voter.id, election_id=election.id):
        if b.status != "cancelled":
            raise Conflict(
                f"voter {voter_number} already has request {b.id} ({b.status})",
                field="voter_number",
                hint="cancel it first to change the delivery",
            )
    return ctx.create(
        BallotRequest,
        voter_id=voter.id,
        voter_number=voter.voter_number,
        voter_email=voter.email,
        election_id=election.id,
        delivery=delivery,
    )


@service.tool(
    intent="send the mail ballot",
    write=True,
    example=first_example(BallotRequest, "ballot_request_id", where={"status": "requested"}),
)
def send_ballot(ctx: Ctx, ballot_request_id: BallotId) -> BallotRequest:
    """Send the ballot of a request; the voter must still be active and the election open.

    Args:
        ballot_request_id: The request.
    """
    b = ctx.get(BallotRequest, ballot_request_id, field="ballot_request_id")
    if b.status != "requested":
        raise Conflict(f"request {b.id} is {b.status}", field="ballot_request_id", hint="only requested ballots go out")
    _open_election(ctx, b.election_id)
    if ctx.get(Voter, b.voter_id).status != "active":
        raise RuleViolation(
            f"voter {b.voter_number} is no longer active", field="ballot_request_id", hint="cancel the request"
        )
    return ctx.update(b, status="sent", sent_on=ctx.today())


@service.tool(
    intent="record the returned mail ballot",
    write=True,
    example=first_example(BallotRequest, "ballot_request_id", where={"status": "sent"}, signature_matches=True),
)
def record_return(ctx: Ctx, ballot_request_id: BallotId, signature_matches: bool) -> BallotRequest:
    """Log a voted ballot that came back: accepted when the signature matches the record, rejected otherwise.

    Args:
        ballot_request_id: The request whose ballot came back.
        signature_matches: Whether the envelope signature matches the voter's signature on file.
    """
    b = ctx.get(BallotRequest, ballot_request_id, field="ballot_request_id")
    if b.status != "sent":
        raise Conflict(f"request {b.id} is {b.status}", field="ballot_request_id", hint="only sent ballots come back")
    election = ctx.get(Election, b.election_id)
    if election.status == "certified" or ctx.today() > election.election_date:
        raise RuleViolation(
            "mail ballots must arrive by 7 pm on election day",
            field="ballot_request_id",
            hint="a late ballot is not counted",
        )
    if signature_matches:
        return ctx.update(b, status="accepted", returned_on=ctx.today())
    return ctx.update(b, status="rejected", returned_on=ctx.today(), reject_reason="signature does not match")


@service.tool(
    intent="cure the rejected mail ballot",
    write=True,
    example=first_example(BallotRequest, "ballot_request_id", where={"status": "rejected"}),
)
def cure_ballot(ctx: Ctx, ballot_request_id: BallotId) -> BallotRequest:
    """Accept a rejected ballot after the voter's cure affidavit, until two days after election day.

    Args:
        ballot_request_id: The rejected request.
    """
    b = ctx.get(BallotRequest, ballot_request_id, field="ballot_request_id")
    if b.status != "rejected":
        raise Conflict(f"request {b.id} is {b.status}", field="ballot_request_id", hint="only rejected ballots cure")
    election = ctx.get(Election, b.election_id)
    if election.status == "certified" or ctx.today() > election.election_date + CURE_AFTER:
        raise RuleViolation(
            f"the cure deadline was {election.election_date + CURE_AFTER}",
            field="ballot_request_id",
            hint="the ballot stays rejected",
        )
    return ctx.update(b, status="accepted", reject_reason=None)


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    election = ctx.first(Election, status="upcoming")
    if election is None:
        return None
    for w in ctx.where(PollWorker, status="trained"):
        if ctx.first(Assignment, poll_worker_id=w.id, election_id=election.id) is None:
            for p in ctx.where(Precinct):
                taken = ctx.where(Assignment, election_id=election.id, precinct_id=p.id, position="clerk")
                if w.position != "clerk" or not [a for a in taken if a.status != "declined"]:
                    return {"worker_email": w.email, "election_id": election.id, "precinct_id": p.id}
    return None


@service.tool(intent="assign the poll worker to a precinct", write=True, example=_example_assign)
def assign_poll_worker(
    ctx: Ctx,
    worker_email: Email,
    election_id: ElectionId,
    precinct_id: PrecinctId,
    position: Position | None = None,
) -> Assignment:
    """Assign a trained poll worker to a precinct for an election; one assignment per election, one clerk each.

    Args:
        worker_email: The poll worker's e-mail.
        election_id: The election.
        precinct_id: The precinct.
        position: clerk, inspector or deputy (default: the position trained for).
    """
    worker = ctx.first(PollWorker, email=worker_email)
    if worker is None:
        raise RuleViolation(
            f"no poll worker {worker_email}", field="worker_email", hint="add them with elections__create_poll_worker"
        )
    if worker.status != "trained":
        raise RuleViolation(
            f"poll worker {worker_email} is {worker.status}",
            field="worker_email",
            hint="only trained poll workers are assigned; record their training first",
        )
    election = _open_election(ctx, election_id)
    pct = ctx.get(Precinct, precinct_id, field="precinct_id")
    for a in ctx.where(Assignment, poll_worker_id=worker.id, election_id=election.id):
        if a.status != "declined":
            raise Conflict(
                f"{worker_email} is already assigned ({a.id})", field="worker_email", hint="decline that one first"
            )
    role = position or worker.position
    if role == "clerk":
        for a in ctx.where(Assignment, election_id=election.id, precinct_id=pct.id, position="clerk"):
            if a.status != "declined":
                raise Conflict(
                    f"precinct {pct.code} already has clerk {a.worker_email}",
                    field="precinct_id",
                    hint="assign this worker as inspector or deputy",
                )
    return ctx.create(
        Assignment,
        poll_worker_id=worker.id,
        worker_email=worker.email,
        election_id=election.id,
        precinct_id=pct.id,
        position=role,
    )


# -- seed -------------------------------------------------------------------------------------

PLACES: tuple[tuple[str, str], ...] = (
    ("Lakeview Public Library", "1200 Lakeview Dr"),
    ("First Baptist Fellowship Hall", "310 Church St"),
    ("Oak Ridge Community Center", "88 Oak Ridge Blvd"),
    ("Westside Fire Station 7", "4501 W Colonial Dr"),
    ("Pine Hills Elementary School", "1006 Pine Hills Rd"),
)
PARTIES: tuple[Party, ...] = ("DEM", "REP", "NPA", "DEM", "REP", "NPA", "LPF")


@service.seeder
def seed(s: SeedContext) -> None:
    """Precincts, the voter roll from the world's residents, four elections, mail ballots and poll workers."""
    pop = s.population
    city = pop.home.address.city
    today = s.now.date()
    pcts = [
        s.create(
            Precinct,
            code=f"P-{101 + k}",
            polling_place=name,
            polling_address=street,
            city=city,
            created_at=s.ago(days=2000),
            updated_at=s.ago(days=300 - k),
        )
        for k, (name, street) in enumerate(PLACES)
    ]
    people = [p for p in list(pop.consumers) + list(pop.employees) if age_on(p.birth_date, today) >= VOTING_AGE]
    roll: list[Voter] = []
    counts = [0] * len(pcts)
    for k, p in enumerate(people[:45]):
        status: VoterStatus = "active" if k % 9 not in (4, 8) else ("pending" if k % 9 == 4 else "inactive")
        roll.append(
            s.create(
                Voter,
                voter_number=f"{110000000 + 7919 * (k + 1):09d}",
                first_name=p.first_name,
                last_name=p.last_name,
                birth_date=p.birth_date,
                email=p.email,
                phone=p.phone,
                street=p.address.street,
                city=p.address.city,
                postal_code=p.address.postal_code,
                precinct_id=pcts[k % len(pcts)].id,
                party=PARTIES[k % len(PARTIES)],
                status=status,
                registered_on=today - dt.timedelta(days=60 + 97 * k),
                created_at=s.ago(days=60 + 97 * k),
                updated_at=s.ago(days=20 + k),
            )
        )
        counts[k % len(pcts)] += 1
    for pct, n in zip(pcts, counts, strict=True):
        s.update(pct, voter_count=n)
    made = []
    for name, kind, days, estatus in (
        ("Presidential Preference Primary", "primary", -90, "certified"),
        ("Library District Referendum", "special", -5, "closed"),
        ("Municipal Runoff Election", "municipal", 8, "early_voting"),
        ("Community Development District Election", "special", 11, "upcoming"),
        ("General Election", "general", 45, "upcoming"),
        ("Special Election - School Board District 3", "special", 120, "upcoming"),
    ):
        day = today + dt.timedelta(days=days)
        made.append(
            s.create(
                Election,
                name=name,
                kind=kind,
                election_date=day,
                registration_deadline=day - BOOK_CLOSING,
                mail_request_deadline=day - VBM_DEADLINE,
                status=estatus,
                certified_on=day + dt.timedelta(days=10) if estatus == "certified" else None,
                created_at=s.ago(days=400 - days),
                updated_at=s.ago(days=max(1, -days)),
            )
        )
    active = [v for v in roll if v.status == "active"]
    plan: tuple[tuple[int, BallotStatus], ...] = (
        (0, "accepted"),
        (1, "accepted"),
        (1, "rejected"),
        (2, "sent"),
        (2, "accepted"),
        (2, "rejected"),
        (2, "requested"),
        (4, "requested"),
        (4, "requested"),
        (4, "cancelled"),
    )
    for k, (e_idx, bstatus) in enumerate(plan):
        v = active[k]
        e = made[e_idx]
        s.create(
            BallotRequest,
            voter_id=v.id,
            voter_number=v.voter_number,
            voter_email=v.email,
            election_id=e.id,
            delivery="email" if k == 8 else "mail",
            status=bstatus,
            sent_on=e.election_date - dt.timedelta(days=30) if bstatus in ("sent", "accepted", "rejected") else None,
            returned_on=min(today, e.election_date) - dt.timedelta(days=2)
            if bstatus in ("accepted", "rejected")
            else None,
            reject_reason="signature does not match" if bstatus == "rejected" else None,
            created_at=s.ago(days=40),
            updated_at=s.ago(days=2),
        )
    positions: tuple[Position, ...] = ("clerk", "inspector", "inspector", "deputy")
    crew = []
    for k, p in enumerate(list(pop.consumers)[-10:] + list(pop.employees)[-4:]):
        trained = k % 4 != 3
        crew.append(
            s.create(
                PollWorker,
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                position=positions[k % 4],
                status="trained" if trained else "applicant",
                trained_on=today - dt.timedelta(days=30 + k) if trained else None,
                created_at=s.ago(days=90 + k),
                updated_at=s.ago(days=10),
            )
        )
    runoff = made[2]
    for k, w in enumerate([w for w in crew if w.status == "trained"][:6]):
        s.create(
            Assignment,
            poll_worker_id=w.id,
            worker_email=w.email,
            election_id=runoff.id,
            precinct_id=pcts[k % len(pcts)].id,
            position=w.position,
            status="confirmed" if k % 2 == 0 else "assigned",
            created_at=s.ago(days=20),
            updated_at=s.ago(days=5),
        )
