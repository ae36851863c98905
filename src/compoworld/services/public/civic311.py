"""City Fix 311: residents' service requests to the city, routed to departments and worked to closure.

Modeled on the Open311 GeoReport v2 API as SeeClickFix implements it
(``GET /services.json`` with service codes, groups and keywords,
``POST /requests.json`` with ``service_code``, ``description``,
``address_string``, ``lat``/``long`` and the reporter's e-mail, ``GET
/requests.json`` with ``status`` open or closed and ``status_notes``,
``agency_responsible`` and ``expected_datetime``) and SeeClickFix's issue
workflow (issues go Open → Acknowledged → Closed and may be reopened,
assignment to a department and an agent, public and internal comments,
"I have this issue too" votes, and merging a duplicate into the original).

A request is accepted only for an active service, and one reporter cannot file
a second open request of the same service at the same address. Its expected
time is its service's SLA after it was filed. A request is acknowledged only
once a department is responsible for it; it is assigned only to an agent of
that department, and never while closed. Closing needs status notes; a closed
request is reopened within 30 days, unless it was merged as a duplicate. A
duplicate is merged only into an open request of the same service, never into
itself or into another duplicate, and carries its votes over. Residents vote
once per request, never on their own, and never on a closed one.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Latitude, Longitude, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "civic311",
    title="City Fix 311",
    category="civic_requests",
    modeled_on="Open311 GeoReport v2 as implemented by SeeClickFix (services with service codes and groups, "
    "service requests with status open/acknowledged/closed, status notes, agency responsible and expected "
    "datetime, assignment, comments, votes, duplicate merging)",
    description="The city's 311 non-emergency request desk: the catalogue of services residents can report "
    "(potholes, graffiti, missed pickups), their requests with location and reporter, routing to departments "
    "and agents, acknowledgement and closure with status notes, comments, votes and duplicate merging.",
)

DepartmentId = Annotated[str, IdOf("civic311.department")]
ServiceTypeId = Annotated[str, IdOf("civic311.service_type")]
RequestId = Annotated[str, IdOf("civic311.request")]
CommentId = Annotated[str, IdOf("civic311.comment")]

ServiceCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,6}-[0-9]{2}$")]
"""An Open311 service code, e.g. STR-01."""
AddressString = Annotated[str, StringConstraints(min_length=3, max_length=240, strip_whitespace=True)]
"""A street address as residents type it."""
RequestStatus = Literal["open", "acknowledged", "closed"]
CloseReason = Literal["resolved", "duplicate", "not_actionable", "referred"]
ServiceGroup = Literal["streets", "sanitation", "parks", "water", "code_enforcement", "traffic"]

REOPEN_WINDOW = dt.timedelta(days=30)
LIVE: tuple[RequestStatus, ...] = ("open", "acknowledged")


class Department(Created):
    """A city department (the Open311 agency responsible) and its agents."""

    id: DepartmentId
    name: Title
    """Its name, e.g. Public Works."""
    email: Email
    """Its shared inbox."""
    agent_emails: tuple[Email, ...] = ()
    """The agents who work its requests."""
    active: bool = True
    """Whether it takes requests."""


class ServiceType(Created):
    """A kind of request residents can report (an Open311 service)."""

    id: ServiceTypeId
    service_code: ServiceCode
    """The Open311 service code (unique)."""
    service_name: Title
    """What residents see, e.g. Pothole."""
    group: ServiceGroup
    """streets, sanitation, parks, water, code_enforcement or traffic."""
    keywords: tuple[str, ...] = ()
    """Words residents search by."""
    department_id: DepartmentId
    """The department requests are routed to."""
    sla_days: Annotated[int, Field(ge=1, le=90)] = 5
    """Days the city commits to close a request."""
    active: bool = True
    """Whether residents can report it."""


class Request(Timestamped):
    """A service request (a SeeClickFix issue)."""

    id: RequestId
    service_type_id: ServiceTypeId
    """The service reported."""
    service_code: ServiceCode
    """Its code."""
    description: Text
    """What the resident saw."""
    address_string: AddressString
    """Where."""
    lat: Latitude
    """Latitude."""
    long: Longitude
    """Longitude."""
    reporter_email: Email
    """The resident who reported it."""
    reporter_name: PersonName
    """Their name."""
    status: RequestStatus = "open"
    """open, acknowledged or closed."""
    status_notes: Text = ""
    """What the city says about it (required to close)."""
    close_reason: CloseReason | None = None
    """resolved, duplicate, not_actionable or referred."""
    department_id: DepartmentId | None = None
    """The agency responsible."""
    assignee_email: Email | None = None
    """The agent working it."""
    expected_datetime: DateTime
    """When the city expects to close it (filed time plus the service's SLA)."""
    acknowledged_at: DateTime | None = None
    """When it was acknowledged."""
    closed_at: DateTime | None = None
    """When it was closed."""
    duplicate_of: RequestId | None = None
    """The original it was merged into."""
    voter_emails: tuple[Email, ...] = ()
    """Residents who have the issue too."""
    vote_count: int = 0
    """Votes, including those merged in from duplicates."""


class Comment(Created):
    """A comment on a request: public (residents see it) or internal to the city."""

    id: CommentId
    request_id: RequestId
    """The request."""
    author_email: Email
    """Who wrote it."""
    body: Annotated[str, StringConstraints(min_length=1, max_length=4000, strip_whitespace=True)]
    """The text."""
    internal: bool = False
    """Whether only city staff see it."""


class Backlog(Value):
    """A department's open workload."""

    department_id: DepartmentId
    """The department."""
    open: int
    """Open requests."""
    acknowledged: int
    """Acknowledged requests."""
    overdue: int
    """Live requests past their expected time."""
    unassigned: int
    """Live requests without an agent."""


# -- rules ------------------------------------------------------------------------------------


def _agents(ctx: Ctx) -> set[str]:
    return {e for d in ctx.scan(Department) for e in d.agent_emails}


def _guard_department(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Department, name=new.name):
        if other.id != new.id:
            raise Conflict(f"department {new.name!r} exists ({other.id})", field="name", hint="use that one")
    live = any(r.status in LIVE for r in ctx.where(Request, department_id=new.id))
    if old is not None and old.active and not new.active and live:
        raise RuleViolation(
            f"{new.name} still has live requests", field="active", hint="reassign or close its requests first"
        )


def _guard_service_type(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(ServiceType, service_code=new.service_code):
        if other.id != new.id:
            raise Conflict(
                f"service code {new.service_code} is taken by {other.service_name}",
                field="service_code",
                hint="pick another code",
            )
    dept = ctx.get(Department, new.department_id, field="department_id")
    if not dept.active:
        raise RuleViolation(f"{dept.name} is inactive", field="department_id", hint="route to an active department")


def _guard_comment(ctx: Ctx, new: Any, old: Any) -> None:
    req = ctx.get(Request, new.request_id, field="request_id")
    if req.duplicate_of is not None:
        raise RuleViolation(
            f"{req.id} was merged into {req.duplicate_of}",
            field="request_id",
            hint="comment on the original request",
        )
    if new.internal and new.author_email not in _agents(ctx):
        raise RuleViolation(
            "only city agents write internal comments", field="internal", hint="post it as a public comment"
        )


departments = service.resource(
    Department,
    name="department",
    plural="departments",
    prefix="dept",
    create=("name", "email", "agent_emails"),
    filters=("active", "email"),
    search=("name",),
    update=("email", "agent_emails", "active"),
    delete=False,
    guard_create=_guard_department,
    guard_update=_guard_department,
)
service_types = service.resource(
    ServiceType,
    name="service_type",
    plural="service_types",
    prefix="svc",
    create=False,
    filters=("group", "department_id", "active", "service_code"),
    search=("service_name",),
    update=("service_name", "keywords", "department_id", "sla_days", "active"),
    delete=False,
    guard_update=_guard_service_type,
    title="311 service",
)
requests = service.resource(
    Request,
    name="request",
    plural="requests",
    prefix="req",
    create=False,
    filters=(
        "status",
        "service_type_id",
        "service_code",
        "department_id",
        "assignee_email",
        "reporter_email",
        "duplicate_of",
        "close_reason",
    ),
    search=("description", "address_string"),
    update=("description",),
    delete=False,
    title="service request",
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=("request_id", "author_email", "body", "internal"),
    get=False,
    filters=("request_id", "author_email", "internal"),
    search=("body",),
    delete=False,
    guard_create=_guard_comment,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_service_type(ctx: Ctx) -> dict[str, Any] | None:
    dept = ctx.first(Department, active=True)
    return (
        None
        if dept is None
        else {
            "service_code": "STR-09",
            "service_name": "Sidewalk trip hazard",
            "group": "streets",
            "department_id": dept.id,
            "sla_days": 10,
            "keywords": ["sidewalk", "curb"],
        }
    )


@service.tool(intent="add the 311 service", write=True, example=_example_service_type)
def create_service_type(
    ctx: Ctx,
    service_code: ServiceCode,
    service_name: Title,
    group: ServiceGroup,
    department_id: DepartmentId,
    sla_days: Annotated[int, Field(ge=1, le=90)] = 5,
    keywords: list[str] | None = None,
) -> ServiceType:
    """Add a service residents can report; its code is unique and it routes to an active department.

    Args:
        service_code: The Open311 code, e.g. STR-09 (two to six capitals, a dash, two digits).
        service_name: What residents see.
        group: streets, sanitation, parks, water, code_enforcement or traffic.
        department_id: The department its requests go to.
        sla_days: Days the city commits to close a request, 1-90.
        keywords: Words residents search by.
    """
    st = ctx.create(
        ServiceType,
        service_code=service_code,
        service_name=service_name,
        group=group,
        department_id=department_id,
        sla_days=sla_days,
        keywords=tuple(keywords or ()),
    )
    _guard_service_type(ctx, st, None)
    return st


def _live(req: Request, field: str = "request_id") -> None:
    if req.status == "closed":
        raise RuleViolation(
            f"request {req.id} is closed",
            field=field,
            hint="reopen it with civic311__reopen_request first",
        )


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    st = ctx.first(ServiceType, active=True)
    p = ctx.population.consumers[-1]
    if st is None:
        return None
    return {
        "service_code": st.service_code,
        "description": "Deep pothole in the right lane, cars swerving around it.",
        "address_string": "400 Harbor Road",
        "lat": 40.7101,
        "long": -74.0102,
        "reporter_email": p.email,
        "reporter_name": p.name,
    }


@service.tool(intent="report the issue to the city", write=True, example=_example_submit)
def submit_request(
    ctx: Ctx,
    service_code: ServiceCode,
    description: Text,
    address_string: AddressString,
    lat: Latitude,
    long: Longitude,
    reporter_email: Email,
    reporter_name: PersonName,
) -> Request:
    """File a service request (POST /requests): routed to the service's department, due after its SLA.

    Args:
        service_code: The Open311 service code, e.g. STR-01 (see civic311__list_service_types).
        description: What was seen.
        address_string: The street address.
        lat: Latitude.
        long: Longitude.
        reporter_email: The resident's e-mail.
        reporter_name: The resident's name.
    """
    st = ctx.first(ServiceType, service_code=service_code)
    if st is None:
        raise RuleViolation(
            f"no service has code {service_code}", field="service_code", hint="list the services for their codes"
        )
    if not st.active:
        raise RuleViolation(
            f"{st.service_name} is not accepting requests", field="service_code", hint="pick an active service"
        )
    if not description.strip():
        raise RuleViolation("a request needs a description", field="description", hint="say what you saw")
    for other in ctx.where(Request, reporter_email=reporter_email, service_type_id=st.id):
        if other.status in LIVE and other.address_string.lower() == address_string.lower():
            raise Conflict(
                f"you already reported this at {address_string} ({other.id})",
                field="address_string",
                hint="add a comment to the open request instead",
            )
    now = ctx.now()
    return ctx.create(
        Request,
        service_type_id=st.id,
        service_code=st.service_code,
        description=description.strip(),
        address_string=address_string,
        lat=lat,
        long=long,
        reporter_email=reporter_email,
        reporter_name=reporter_name,
        department_id=st.department_id,
        expected_datetime=now + dt.timedelta(days=st.sla_days),
    )


def _assignable(ctx: Ctx, req: Request) -> bool:
    return req.status in LIVE and req.department_id is not None


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.where(Request, status="open"):
        if req.department_id is not None:
            dept = ctx.get(Department, req.department_id)
            if dept.agent_emails:
                return {"request_id": req.id, "department_id": dept.id, "assignee_email": dept.agent_emails[-1]}
    return None


@service.tool(intent="assign the request", write=True, example=_example_assign)
def assign_request(
    ctx: Ctx, request_id: RequestId, department_id: DepartmentId, assignee_email: Email | None = None
) -> Request:
    """Route a live request to a department and, optionally, one of its agents.

    Args:
        request_id: The request.
        department_id: The department responsible.
        assignee_email: An agent of that department.
    """
    req = ctx.get(Request, request_id, field="request_id")
    _live(req)
    dept = ctx.get(Department, department_id, field="department_id")
    if not dept.active:
        raise RuleViolation(f"{dept.name} is inactive", field="department_id", hint="pick an active department")
    if assignee_email is not None and assignee_email not in dept.agent_emails:
        raise RuleViolation(
            f"{assignee_email} is not an agent of {dept.name}",
            field="assignee_email",
            hint="pick one of the department's agent_emails",
        )
    return ctx.update(req, department_id=dept.id, assignee_email=assignee_email)


@service.tool(
    intent="acknowledge the request",
    write=True,
    example=first_example(Request, "request_id", where={"status": "open"}, match=_assignable),
)
def acknowledge_request(ctx: Ctx, request_id: RequestId, status_notes: Text = "") -> Request:
    """Acknowledge an open request: the city has seen it and a department owns it.

    Args:
        request_id: The request.
        status_notes: A public note to the reporter.
    """
    req = ctx.get(Request, request_id, field="request_id")
    if req.status != "open":
        raise RuleViolation(f"request {req.id} is {req.status}", field="request_id", hint="only open requests")
    if req.department_id is None:
        raise RuleViolation(
            f"request {req.id} has no department",
            field="request_id",
            hint="assign it with civic311__assign_request first",
        )
    notes = status_notes.strip() or req.status_notes
    return ctx.update(req, status="acknowledged", acknowledged_at=ctx.now(), status_notes=notes)


@service.tool(
    intent="close the request",
    write=True,
    example=first_example(
        Request, "request_id", where={"status": "acknowledged"}, status_notes="Crew filled the pothole."
    ),
)
def close_request(
    ctx: Ctx, request_id: RequestId, status_notes: Text, close_reason: CloseReason = "resolved"
) -> Request:
    """Close a live request with status notes for the reporter.

    Args:
        request_id: The request.
        status_notes: What was done (required).
        close_reason: resolved, not_actionable or referred (duplicates close by merging).
    """
    req = ctx.get(Request, request_id, field="request_id")
    _live(req)
    if not status_notes.strip():
        raise RuleViolation("closing needs status notes", field="status_notes", hint="say what the city did")
    if close_reason == "duplicate":
        raise RuleViolation(
            "duplicates are closed by merging", field="close_reason", hint="use civic311__merge_duplicate"
        )
    return ctx.update(
        req, status="closed", status_notes=status_notes.strip(), close_reason=close_reason, closed_at=ctx.now()
    )


def _reopenable(ctx: Ctx, req: Request) -> bool:
    return req.duplicate_of is None and req.closed_at is not None and ctx.now() - req.closed_at <= REOPEN_WINDOW


@service.tool(
    intent="reopen the request",
    write=True,
    example=first_example(Request, "request_id", where={"status": "closed"}, match=_reopenable),
)
def reopen_request(ctx: Ctx, request_id: RequestId, reason: Text) -> Request:
    """Reopen a request closed within the last 30 days (not a merged duplicate).

    Args:
        request_id: The request.
        reason: Why it is not fixed.
    """
    req = ctx.get(Request, request_id, field="request_id")
    if req.status != "closed":
        raise RuleViolation(f"request {req.id} is {req.status}", field="request_id", hint="it is still open")
    if req.duplicate_of is not None:
        raise RuleViolation(
            f"request {req.id} was merged into {req.duplicate_of}",
            field="request_id",
            hint="reopen the original instead",
        )
    assert req.closed_at is not None
    if ctx.now() - req.closed_at > REOPEN_WINDOW:
        raise RuleViolation(
            f"request {req.id} was closed more than 30 days ago",
            field="request_id",
            hint="submit a new request",
        )
    if not reason.strip():
        raise RuleViolation("reopening needs a reason", field="reason", hint="say why it is not fixed")
    return ctx.update(
        req, status="open", close_reason=None, closed_at=None, acknowledged_at=None, status_notes=reason.strip()
    )


def _example_merge(ctx: Ctx) -> dict[str, Any] | None:
    live = [r for r in ctx.scan(Request) if r.status in LIVE]
    for a in live:
        for b in live:
            if a.id < b.id and a.service_type_id == b.service_type_id:
                return {"request_id": b.id, "duplicate_of": a.id}
    return None


@service.tool(intent="merge the duplicate request", write=True, destructive=True, example=_example_merge)
def merge_duplicate(ctx: Ctx, request_id: RequestId, duplicate_of: RequestId) -> Request:
    """Close a request as a duplicate of a live original of the same service; its votes move over.

    Args:
        request_id: The duplicate.
        duplicate_of: The original it is merged into.
    """
    dup = ctx.get(Request, request_id, field="request_id")
    orig = ctx.get(Request, duplicate_of, field="duplicate_of")
    if dup.id == orig.id:
        raise RuleViolation("a request cannot duplicate itself", field="duplicate_of", hint="pick another request")
    _live(dup)
    if orig.status not in LIVE or orig.duplicate_of is not None:
        raise RuleViolation(
            f"request {orig.id} is {orig.status}", field="duplicate_of", hint="merge into a live original"
        )
    if orig.service_type_id != dup.service_type_id:
        raise RuleViolation(
            f"{dup.id} is {dup.service_code} but {orig.id} is {orig.service_code}",
            field="duplicate_of",
            hint="merge only requests of the same service",
        )
    voters = tuple(dict.fromkeys((*orig.voter_emails, *dup.voter_emails)))
    ctx.update(orig, voter_emails=voters, vote_count=orig.vote_count + dup.vote_count + 1)
    return ctx.update(
        dup,
        status="closed",
        close_reason="duplicate",
        duplicate_of=orig.id,
        closed_at=ctx.now(),
        status_notes=f"Merged into {orig.id}.",
    )


def _example_vote(ctx: Ctx) -> dict[str, Any] | None:
    req = ctx.first(Request, status="open")
    if req is None:
        return None
    for p in ctx.population.consumers:
        if p.email != req.reporter_email and p.email not in req.voter_emails:
            return {"request_id": req.id, "voter_email": p.email}
    return None


@service.tool(intent="vote for the request", write=True, example=_example_vote)
def vote_request(ctx: Ctx, request_id: RequestId, voter_email: Email) -> Request:
    """Say "I have this issue too" on a live request: once per resident, never on one's own.

    Args:
        request_id: The request.
        voter_email: The resident's e-mail.
    """
    req = ctx.get(Request, request_id, field="request_id")
    _live(req)
    if voter_email == req.reporter_email:
        raise RuleViolation("reporters cannot vote on their own request", field="voter_email", hint="nothing to do")
    if voter_email in req.voter_emails:
        raise Conflict(f"{voter_email} already voted on {req.id}", field="voter_email", hint="nothing to do")
    return ctx.update(req, voter_emails=(*req.voter_emails, voter_email), vote_count=req.vote_count + 1)


@service.tool(intent="list the overdue requests", example=first_example(Department, "department_id"))
def overdue_requests(ctx: Ctx, department_id: DepartmentId | None = None) -> list[Request]:
    """Live requests past their expected time, oldest first.

    Args:
        department_id: Only this department's.
    """
    if department_id is not None:
        ctx.get(Department, department_id, field="department_id")
    now = ctx.now()
    late = [
        r
        for r in ctx.scan(Request)
        if r.status in LIVE
        and r.expected_datetime < now
        and (department_id is None or r.department_id == department_id)
    ]
    return sorted(late, key=lambda r: r.expected_datetime)


@service.tool(intent="show the department's backlog", example=first_example(Department, "department_id"))
def department_backlog(ctx: Ctx, department_id: DepartmentId) -> Backlog:
    """A department's open and acknowledged requests, how many are overdue and unassigned.

    Args:
        department_id: The department.
    """
    dept = ctx.get(Department, department_id, field="department_id")
    live = [r for r in ctx.where(Request, department_id=dept.id) if r.status in LIVE]
    now = ctx.now()
    return Backlog(
        department_id=dept.id,
        open=sum(r.status == "open" for r in live),
        acknowledged=sum(r.status == "acknowledged" for r in live),
        overdue=sum(r.expected_datetime < now for r in live),
        unassigned=sum(r.assignee_email is None for r in live),
    )


# -- seed -------------------------------------------------------------------------------------

DEPARTMENTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Public Works", "publicworks", ("Luis Ortega", "Kim Novak", "Sam Adeyemi")),
    ("Sanitation", "sanitation", ("Rita Moreno", "Owen Park")),
    ("Parks and Recreation", "parks", ("Nadia Haddad", "Tom Becker")),
    ("Water Department", "water", ("Grace Liu",)),
    ("Code Enforcement", "code", ("Ivan Petrov", "Mia Santos")),
)
SERVICES: tuple[tuple[str, str, ServiceGroup, tuple[str, ...], int, int], ...] = (
    ("STR-01", "Pothole", "streets", ("road", "hole", "asphalt"), 0, 5),
    ("STR-02", "Streetlight out", "streets", ("light", "lamp", "dark"), 0, 10),
    ("TRF-01", "Damaged traffic sign", "traffic", ("sign", "stop"), 0, 3),
    ("SAN-01", "Missed trash pickup", "sanitation", ("garbage", "bin", "trash"), 1, 2),
    ("SAN-02", "Illegal dumping", "sanitation", ("dumping", "mattress", "debris"), 1, 7),
    ("PRK-01", "Park maintenance", "parks", ("playground", "bench", "grass"), 2, 14),
    ("WAT-01", "Water main leak", "water", ("leak", "hydrant", "flooding"), 3, 1),
    ("COD-01", "Graffiti", "code_enforcement", ("graffiti", "tag", "paint"), 4, 10),
    ("COD-02", "Overgrown lot", "code_enforcement", ("weeds", "lot", "vacant"), 4, 21),
)
STORIES: tuple[tuple[int, str], ...] = (
    (0, "Large pothole at the crosswalk, a cyclist almost fell."),
    (1, "Streetlight has been out for a week, the corner is pitch dark."),
    (3, "Our bins were not emptied on Tuesday."),
    (7, "Fresh graffiti on the underpass wall."),
    (6, "Water bubbling up through the pavement near the hydrant."),
    (4, "Someone dumped two mattresses in the alley."),
    (0, "Pothole getting bigger after the rain."),
    (5, "Broken swing in the playground."),
    (2, "Stop sign bent over after a crash."),
    (8, "Vacant lot with waist-high weeds and rats."),
    (3, "Recycling missed for the second week running."),
    (7, "Tag on the library's back door."),
    (0, "Pothole by the bus stop, it blew a tire."),
)
CITY_DOMAIN = "311.city.gov"


@service.seeder
def seed(s: SeedContext) -> None:
    """City departments and services; residents' requests in every state, with comments, votes and a merge."""
    pop = s.population
    depts: list[Department] = []
    for k, (name, handle, agents) in enumerate(DEPARTMENTS):
        emails = tuple(f"{a.split()[0][0].lower()}{a.split()[1].lower()}@{CITY_DOMAIN}" for a in agents)
        depts.append(
            s.create(
                Department,
                name=name,
                email=f"{handle}@{CITY_DOMAIN}",
                agent_emails=emails,
                created_at=s.ago(days=900 - k),
            )
        )
    types: list[ServiceType] = []
    for code, name, group, words, d, sla in SERVICES:
        types.append(
            s.create(
                ServiceType,
                service_code=code,
                service_name=name,
                group=group,
                keywords=words,
                department_id=depts[d].id,
                sla_days=sla,
                created_at=s.ago(days=800),
            )
        )
    s.create(
        ServiceType,
        service_code="SAN-03",
        service_name="Christmas tree pickup",
        group="sanitation",
        keywords=("tree",),
        department_id=depts[1].id,
        sla_days=7,
        active=False,
        created_at=s.ago(days=700),
    )
    residents = list(pop.consumers[:12]) + list(pop.contacts[:4])
    made: list[Request] = []
    for k, (t, text) in enumerate(STORIES):
        st = types[t]
        who = residents[k % len(residents)]
        filed = s.ago(days=2 + 3 * k)
        status: RequestStatus = ("open", "acknowledged", "closed")[k % 3]
        dept = next(d for d in depts if d.id == st.department_id)
        agent = dept.agent_emails[k % len(dept.agent_emails)] if status != "open" or k % 2 else None
        closed = filed + dt.timedelta(days=1 + k % 4) if status == "closed" else None
        voters = tuple(p.email for p in residents[k + 1 : k + 1 + k % 3] if p.email != who.email)
        made.append(
            s.create(
                Request,
                service_type_id=st.id,
                service_code=st.service_code,
                description=text,
                address_string=who.address.street,
                lat=round(who.place.latitude + 0.001 * k, 6),
                long=round(who.place.longitude - 0.001 * k, 6),
                reporter_email=who.email,
                reporter_name=who.name,
                status=status,
                status_notes="Crew dispatched." if status == "acknowledged" else ("Fixed." if closed else ""),
                close_reason="resolved" if closed else None,
                department_id=dept.id,
                assignee_email=agent,
                expected_datetime=filed + dt.timedelta(days=st.sla_days),
                acknowledged_at=filed + dt.timedelta(hours=6) if status != "open" else None,
                closed_at=closed,
                voter_emails=voters,
                vote_count=len(voters),
                created_at=filed,
                updated_at=closed or filed,
            )
        )
        if status != "open":
            s.create(
                Comment,
                request_id=made[-1].id,
                author_email=agent or dept.email,
                body="Work order created for the crew.",
                internal=True,
                created_at=filed + dt.timedelta(hours=6),
            )
        s.create(
            Comment,
            request_id=made[-1].id,
            author_email=who.email,
            body="Thanks, this has been a problem for a while.",
            created_at=filed + dt.timedelta(hours=2),
        )
    # the second pothole report was merged into the first
    orig, dup = made[0], made[6]
    s.update(
        dup,
        status="closed",
        close_reason="duplicate",
        duplicate_of=orig.id,
        status_notes=f"Merged into {orig.id}.",
        closed_at=dup.created_at + dt.timedelta(days=1),
    )
    voters = tuple(dict.fromkeys((*orig.voter_emails, *dup.voter_emails)))
    s.update(orig, voter_emails=voters, vote_count=orig.vote_count + dup.vote_count + 1)
