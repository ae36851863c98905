"""Civic Code Enforcement: complaints, code cases, inspections, violations, notices, fines and abatements.

Modeled on Accela Civic Platform Code Enforcement and Comcate Code Enforcement:
complaints from residents (received, then opened as a case or dismissed), code
cases at a property with an officer (open → violation → compliance or
abatement → closed), inspections (initial and re-inspections) whose results
record violations of municipal code sections, an escalating notice ladder
(courtesy letter, notice of violation, final notice) that each give the owner
7 to 30 days to comply, fines that double for each repeat on the same case
and may only be assessed once a notice's deadline has passed with violations
still open, and abatement: after a final notice's deadline the city's
contractor corrects the violation and the cost is billed to the owner. A case
closes only when no violation is open and no fine is unpaid.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, CompanyName, Date, Email, IdOf, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "codeenforce",
    title="Civic Code Enforcement",
    category="code_enforcement",
    modeled_on="Accela Civic Platform Code Enforcement and Comcate Code Enforcement: complaints, cases, "
    "inspections, violations, notices of violation with compliance deadlines, fines, abatements",
    description="The city's code compliance division: residents' complaints about overgrown lots, junk "
    "vehicles, trash and unsafe buildings, the cases officers open, inspections and the violations found, "
    "notices with deadlines to comply, fines and city abatements billed to owners.",
)

ComplaintId = Annotated[str, IdOf("codeenforce.complaint")]
CaseId = Annotated[str, IdOf("codeenforce.case")]
InspectionId = Annotated[str, IdOf("codeenforce.inspection")]
ViolationId = Annotated[str, IdOf("codeenforce.violation")]
NoticeId = Annotated[str, IdOf("codeenforce.notice")]
FineId = Annotated[str, IdOf("codeenforce.fine")]
Street = Annotated[str, Field(min_length=1, max_length=200)]

Category = Literal["vegetation", "junk_vehicle", "trash", "unsafe_structure", "zoning", "signage"]
CodeSection = Literal["8-14", "8-22", "10-5", "10-9", "12-3", "12-40", "21-7", "21-30"]
CaseStatus = Literal["open", "violation", "compliance", "abatement", "closed"]
Outcome = Literal["violation_found", "no_violation", "corrected", "not_corrected"]
NoticeKind = Literal["courtesy", "nov", "final"]

CODES: dict[str, tuple[str, str, int]] = {
    "8-14": ("vegetation", "Grass or weeds over 12 inches", 10000),
    "8-22": ("trash", "Accumulation of trash or debris", 15000),
    "10-5": ("junk_vehicle", "Inoperable or unregistered vehicle in view", 12500),
    "10-9": ("junk_vehicle", "Vehicle parked on unpaved surface", 5000),
    "12-3": ("unsafe_structure", "Structure unfit for occupancy", 50000),
    "12-40": ("unsafe_structure", "Broken windows or open to entry", 25000),
    "21-7": ("zoning", "Prohibited use in residential district", 30000),
    "21-30": ("signage", "Sign without permit", 7500),
}
"""Code section: category, title, base fine."""
LADDER: tuple[NoticeKind, ...] = ("courtesy", "nov", "final")
MIN_DAYS, MAX_DAYS = 7, 30


class Complaint(Timestamped):
    """A resident's complaint about a property."""

    id: ComplaintId
    street: Street
    """The property's street address."""
    city: City
    """Its city."""
    category: Category
    """vegetation, junk_vehicle, trash, unsafe_structure, zoning or signage."""
    description: Text
    """What was reported."""
    complainant_email: Email | None = None
    """Who reported it (none: anonymous)."""
    status: Literal["received", "case_opened", "dismissed"] = "received"
    """received, case_opened or dismissed."""
    case_id: CaseId | None = None
    """The case it became."""


class Case(Timestamped):
    """A code case at a property."""

    id: CaseId
    case_number: Annotated[str, Field(pattern=r"^CE\d{2}-\d{5}$")]
    """The case number, e.g. CE26-00042."""
    street: Street
    """The property."""
    city: City
    """Its city."""
    category: Category
    """The kind of problem."""
    owner_name: PersonName
    """The property owner."""
    owner_email: Email | None = None
    """Where notices go."""
    officer_email: Email
    """The code officer."""
    status: CaseStatus = "open"
    """open, violation, compliance, abatement or closed."""
    opened_on: Date
    """When it was opened."""
    closed_on: Date | None = None
    """When it was closed."""


class Inspection(Timestamped):
    """A site inspection of a case."""

    id: InspectionId
    case_id: CaseId
    """The case."""
    kind: Literal["initial", "reinspection"]
    """initial or reinspection."""
    scheduled_on: Date
    """The day."""
    inspector_email: Email
    """The inspecting officer."""
    status: Literal["scheduled", "completed", "cancelled"] = "scheduled"
    """scheduled, completed or cancelled."""
    outcome: Outcome | None = None
    """violation_found, no_violation, corrected or not_corrected."""
    notes: Text = ""
    """Field notes."""


class Violation(Timestamped):
    """A violation of a code section found at the property."""

    id: ViolationId
    case_id: CaseId
    """The case."""
    code_section: CodeSection
    """The municipal code section."""
    title: str
    """What the section prohibits."""
    status: Literal["open", "corrected", "abated"] = "open"
    """open, corrected by the owner, or abated by the city."""
    found_on: Date
    """When it was found."""
    resolved_on: Date | None = None
    """When it was corrected or abated."""


class Notice(Timestamped):
    """A notice sent to the owner."""

    id: NoticeId
    case_id: CaseId
    """The case."""
    kind: NoticeKind
    """courtesy, nov (notice of violation) or final."""
    owner_email: Email | None = None
    """Where it went."""
    issued_on: Date
    """When it was issued."""
    comply_by: Date
    """The deadline to correct."""


class Fine(Timestamped):
    """A fine or an abatement charge on a case."""

    id: FineId
    case_id: CaseId
    """The case."""
    kind: Literal["fine", "abatement"]
    """fine, or the cost of a city abatement."""
    amount_cents: Cents
    """Amount."""
    status: Literal["unpaid", "paid", "waived"] = "unpaid"
    """unpaid, paid or waived."""
    issued_on: Date
    """When it was assessed."""
    contractor: CompanyName | None = None
    """The abatement contractor."""


# -- rules ------------------------------------------------------------------------------------


def _live_case(ctx: Ctx, case_id: str) -> Case:
    case = ctx.get(Case, case_id, field="case_id")
    if case.status == "closed":
        raise RuleViolation(f"case {case.case_number} is closed", field="case_id", hint="open a new complaint")
    return case


def _open_violations(ctx: Ctx, case_id: str) -> list[Violation]:
    return ctx.where(Violation, case_id=case_id, status="open")


def _last_notice(ctx: Ctx, case_id: str) -> Notice | None:
    found = ctx.where(Notice, case_id=case_id)
    return max(found, key=lambda n: (n.issued_on, n.id)) if found else None


def _guard_case(ctx: Ctx, new: Any, old: Any) -> None:
    if new.officer_email != old.officer_email:
        require_employee(ctx, new.officer_email, field="officer_email", hint="assign a code officer")


complaints = service.resource(
    Complaint,
    name="complaint",
    plural="complaints",
    prefix="cmp",
    create=("street", "city", "category", "description", "complainant_email"),
    filters=("status", "category", "complainant_email", "street", "case_id"),
    search=("street", "description"),
    delete=False,
    transitions={"dismiss": Transition("status", ("received",), "dismissed", "dismiss the complaint")},
)
cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="cas",
    create=False,
    filters=("case_number", "status", "category", "officer_email", "owner_email", "street"),
    search=("street", "owner_name"),
    update=("officer_email", "owner_email"),
    delete=False,
    guard_update=_guard_case,
)
inspections = service.resource(
    Inspection,
    name="inspection",
    plural="inspections",
    prefix="ins",
    create=False,
    filters=("case_id", "status", "inspector_email", "scheduled_on", "kind"),
    delete=False,
    transitions={"cancel": Transition("status", ("scheduled",), "cancelled", "cancel the inspection")},
)
violations = service.resource(
    Violation,
    name="violation",
    plural="violations",
    prefix="vio",
    create=False,
    filters=("case_id", "code_section", "status"),
    delete=False,
)
notices = service.resource(
    Notice,
    name="notice",
    plural="notices",
    prefix="nov",
    create=False,
    filters=("case_id", "kind", "owner_email"),
    delete=False,
)
fines = service.resource(
    Fine,
    name="fine",
    plural="fines",
    prefix="fin",
    create=False,
    filters=("case_id", "status", "kind"),
    delete=False,
    transitions={
        "pay": Transition("status", ("unpaid",), "paid", "record the fine as paid"),
        "waive": Transition("status", ("unpaid",), "waived", "waive the fine"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Complaint, status="received")
    return (
        None
        if c is None
        else {
            "complaint_id": c.id,
            "owner_name": "Harold Jennings",
            "officer_email": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="open a code case from the complaint", write=True, example=_example_open)
def open_case(
    ctx: Ctx,
    complaint_id: ComplaintId,
    owner_name: PersonName,
    officer_email: Email,
    owner_email: Email | None = None,
) -> Case:
    """Validate a received complaint into a code case; one live case per address and category.

    Args:
        complaint_id: The complaint.
        owner_name: The property owner of record.
        officer_email: The code officer who takes the case.
        owner_email: Where notices go.
    """
    comp = ctx.get(Complaint, complaint_id, field="complaint_id")
    if comp.status != "received":
        raise Conflict(f"complaint {comp.id} is {comp.status}", field="complaint_id", hint="it was handled")
    require_employee(ctx, officer_email, field="officer_email", hint="assign a code officer")
    for other in ctx.where(Case, street=comp.street, category=comp.category):
        if other.status != "closed":
            raise Conflict(
                f"case {other.case_number} is already open for {comp.street}",
                field="complaint_id",
                hint="dismiss the complaint as a duplicate",
            )
    today = ctx.today()
    case = ctx.create(
        Case,
        case_number=f"CE{today:%y}-{ctx.next_number(Case, 'number') + 500:05d}",
        street=comp.street,
        city=comp.city,
        category=comp.category,
        owner_name=owner_name,
        owner_email=owner_email,
        officer_email=officer_email,
        opened_on=today,
    )
    ctx.update(comp, status="case_opened", case_id=case.id)
    return case


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for case in ctx.scan(Case):
        if case.status != "closed" and not ctx.where(Inspection, case_id=case.id, status="scheduled"):
            return {"case_id": case.id, "scheduled_on": (ctx.today() + dt.timedelta(days=3)).isoformat()}
    return None


@service.tool(intent="schedule an inspection of the case", write=True, example=_example_schedule)
def schedule_inspection(
    ctx: Ctx, case_id: CaseId, scheduled_on: Date, inspector_email: Email | None = None
) -> Inspection:
    """Schedule a site inspection; the first is the initial one, later ones re-inspections.

    Args:
        case_id: The case (not closed).
        scheduled_on: The day (today or later).
        inspector_email: The inspecting officer (default: the case officer).
    """
    case = _live_case(ctx, case_id)
    if scheduled_on < ctx.today():
        raise RuleViolation("inspections are scheduled ahead", field="scheduled_on", hint="pick today or later")
    who = inspector_email or case.officer_email
    require_employee(ctx, who, field="inspector_email", hint="inspections are done by code officers")
    if ctx.where(Inspection, case_id=case.id, status="scheduled"):
        raise Conflict("an inspection is already scheduled", field="case_id", hint="complete or cancel it first")
    done = ctx.where(Inspection, case_id=case.id, status="completed")
    return ctx.create(
        Inspection,
        case_id=case.id,
        kind="reinspection" if done else "initial",
        scheduled_on=scheduled_on,
        inspector_email=who,
    )


@service.tool(
    intent="record the inspection result",
    write=True,
    example=first_example(
        Inspection, "inspection_id", where={"status": "scheduled", "kind": "initial"}, outcome="no_violation"
    ),
)
def record_inspection(
    ctx: Ctx,
    inspection_id: InspectionId,
    outcome: Outcome,
    code_sections: list[CodeSection] | None = None,
    notes: Text = "",
) -> Inspection:
    """Complete an inspection: new violations are recorded; corrected clears them; the case status follows.

    Args:
        inspection_id: The scheduled inspection.
        outcome: violation_found (give code_sections), no_violation (initial only), corrected or not_corrected
            (re-inspections).
        code_sections: The sections violated (violation_found).
        notes: Field notes.
    """
    ins = ctx.get(Inspection, inspection_id, field="inspection_id")
    if ins.status != "scheduled":
        raise Conflict(f"inspection {ins.id} is {ins.status}", field="inspection_id", hint="schedule a new one")
    case = _live_case(ctx, ins.case_id)
    today = ctx.today()
    open_now = _open_violations(ctx, case.id)
    if outcome == "violation_found":
        if not code_sections:
            raise RuleViolation("name the code sections violated", field="code_sections", hint="e.g. ['8-14']")
        for section in dict.fromkeys(code_sections):
            if any(v.code_section == section for v in open_now):
                continue
            ctx.create(Violation, case_id=case.id, code_section=section, title=CODES[section][1], found_on=today)
        ctx.update(case, status="violation")
    elif outcome in ("corrected", "not_corrected"):
        if ins.kind != "reinspection" or not open_now:
            raise RuleViolation(
                f"{outcome} applies to a re-inspection of open violations",
                field="outcome",
                hint="use violation_found or no_violation",
            )
        if outcome == "corrected":
            for v in open_now:
                ctx.update(v, status="corrected", resolved_on=today)
            ctx.update(case, status="compliance")
    else:
        if open_now:
            raise RuleViolation(
                f"{len(open_now)} violations are open", field="outcome", hint="use corrected or not_corrected"
            )
        ctx.update(case, status="compliance")
    return ctx.update(ins, status="completed", outcome=outcome, notes=notes)


@service.tool(
    intent="issue a notice to the property owner",
    write=True,
    example=first_example(Case, "case_id", where={"status": "violation"}, days_to_comply=14),
)
def issue_notice(ctx: Ctx, case_id: CaseId, days_to_comply: int) -> Notice:
    """Send the next notice of the ladder (courtesy, notice of violation, final) for open violations.

    Args:
        case_id: The case; it needs open violations, and the previous notice's deadline must have passed.
        days_to_comply: Days the owner has to correct: 7 to 30.
    """
    case = _live_case(ctx, case_id)
    if not _open_violations(ctx, case.id):
        raise RuleViolation("the case has no open violation", field="case_id", hint="record an inspection first")
    if not MIN_DAYS <= days_to_comply <= MAX_DAYS:
        raise RuleViolation("owners get 7 to 30 days", field="days_to_comply", hint="pick 7 to 30 days")
    last = _last_notice(ctx, case.id)
    today = ctx.today()
    if last is not None:
        if last.kind == "final":
            raise RuleViolation("a final notice was issued", field="case_id", hint="fine or abate instead")
        if today <= last.comply_by:
            raise RuleViolation(
                f"the {last.kind} notice gives until {last.comply_by}", field="case_id", hint="wait for it to pass"
            )
    kind = LADDER[0] if last is None else LADDER[LADDER.index(last.kind) + 1]
    return ctx.create(
        Notice,
        case_id=case.id,
        kind=kind,
        owner_email=case.owner_email,
        issued_on=today,
        comply_by=today + dt.timedelta(days=days_to_comply),
    )


def _overdue(ctx: Ctx, case: Case, needs_final: bool) -> list[Violation]:
    open_now = _open_violations(ctx, case.id)
    last = _last_notice(ctx, case.id)
    if not open_now or last is None or ctx.today() <= last.comply_by or (needs_final and last.kind != "final"):
        raise RuleViolation(
            "a notice's deadline must have passed with violations still open"
            + (" after a final notice" if needs_final else ""),
            field="case_id",
            hint="issue the next notice and wait for its deadline",
        )
    return open_now


def _example_fine(ctx: Ctx) -> dict[str, Any] | None:
    for case in ctx.where(Case, status="violation"):
        last = _last_notice(ctx, case.id)
        if last is not None and last.comply_by < ctx.today():
            return {"case_id": case.id}
    return None


@service.tool(intent="assess a fine on the case", write=True, example=_example_fine)
def assess_fine(ctx: Ctx, case_id: CaseId) -> Fine:
    """Fine the owner for violations still open after a notice's deadline; each repeat fine doubles.

    Args:
        case_id: The case.
    """
    case = _live_case(ctx, case_id)
    open_now = _overdue(ctx, case, needs_final=False)
    prior = len(ctx.where(Fine, case_id=case.id, kind="fine"))
    base = sum(CODES[v.code_section][2] for v in open_now)
    return ctx.create(Fine, case_id=case.id, kind="fine", amount_cents=base * 2**prior, issued_on=ctx.today())


def _example_abate(ctx: Ctx) -> dict[str, Any] | None:
    for case in ctx.where(Case, status="violation"):
        last = _last_notice(ctx, case.id)
        if last is not None and last.kind == "final" and last.comply_by < ctx.today():
            return {"case_id": case.id, "contractor": "Green Acres Lot Clearing", "cost_cents": 42000}
    return None


@service.tool(intent="abate the violations", write=True, example=_example_abate)
def abate(ctx: Ctx, case_id: CaseId, contractor: CompanyName, cost_cents: Cents) -> Fine:
    """Have the city's contractor correct what the owner did not after a final notice; the cost is billed.

    Args:
        case_id: The case.
        contractor: The abatement contractor.
        cost_cents: What the work cost (billed to the owner).
    """
    case = _live_case(ctx, case_id)
    for v in _overdue(ctx, case, needs_final=True):
        ctx.update(v, status="abated", resolved_on=ctx.today())
    ctx.update(case, status="abatement")
    return ctx.create(
        Fine, case_id=case.id, kind="abatement", amount_cents=cost_cents, issued_on=ctx.today(), contractor=contractor
    )


@service.tool(
    intent="close the code case",
    write=True,
    example=first_example(
        Case,
        "case_id",
        where={"status": "compliance"},
        match=lambda ctx, c: not ctx.where(Fine, case_id=c.id, status="unpaid"),
    ),
)
def close_case(ctx: Ctx, case_id: CaseId) -> Case:
    """Close a case once no violation is open and no fine or abatement charge is unpaid.

    Args:
        case_id: The case.
    """
    case = _live_case(ctx, case_id)
    if _open_violations(ctx, case.id):
        raise RuleViolation("violations are still open", field="case_id", hint="re-inspect once corrected")
    unpaid = ctx.where(Fine, case_id=case.id, status="unpaid")
    if unpaid:
        owed = sum(f.amount_cents for f in unpaid)
        raise RuleViolation(f"{owed / 100:.2f} is unpaid", field="case_id", hint="collect or waive the fines first")
    for ins in ctx.where(Inspection, case_id=case.id, status="scheduled"):
        ctx.update(ins, status="cancelled")
    return ctx.update(case, status="closed", closed_on=ctx.today())


# -- seed -------------------------------------------------------------------------------------

STORIES: tuple[tuple[Category, tuple[CodeSection, ...], str, int], ...] = (
    # category, sections, stage, days since opened
    ("vegetation", ("8-14",), "new", 0),
    ("junk_vehicle", ("10-5",), "inspection", 3),
    ("trash", ("8-22",), "courtesy", 20),
    ("vegetation", ("8-14", "8-22"), "final", 75),
    ("unsafe_structure", ("12-40",), "compliance", 40),
    ("signage", ("21-30",), "fined", 50),
    ("zoning", ("21-7",), "closed", 120),
)

STAGE_STATUS: dict[str, CaseStatus] = {"inspection": "open", "compliance": "compliance", "closed": "closed"}


@service.seeder
def seed(s: SeedContext) -> None:
    """Complaints from residents about residents' properties, cases at every stage of the notice ladder."""
    pop = s.population
    today = s.now.date()
    officers = pop.staff("Operations", "Support", fallback=3)
    people = list(pop.consumers)
    for k, (cat, sections, stage, age) in enumerate(STORIES):
        owner, by = people[k], people[-1 - k]
        opened = today - dt.timedelta(days=age)
        officer = officers[k % len(officers)].email
        comp = s.create(
            Complaint,
            street=owner.address.street,
            city=owner.address.city,
            category=cat,
            description=f"Neighbor reports: {CODES[sections[0]][1].lower()}.",
            complainant_email=by.email if k % 3 else None,
            created_at=s.ago(days=age + 2),
            updated_at=s.ago(days=age),
        )
        if stage == "new":
            continue
        status = STAGE_STATUS.get(stage, "violation")
        case = s.create(
            Case,
            case_number=f"CE{opened:%y}-{100 + 7 * k:05d}",
            street=owner.address.street,
            city=owner.address.city,
            category=cat,
            owner_name=owner.name,
            owner_email=owner.email,
            officer_email=officer,
            status=status,
            opened_on=opened,
            closed_on=today - dt.timedelta(days=10) if stage == "closed" else None,
            created_at=s.ago(days=age),
            updated_at=s.ago(days=1),
        )
        s.update(comp, status="case_opened", case_id=case.id)
        s.create(
            Inspection,
            case_id=case.id,
            kind="initial",
            scheduled_on=opened + dt.timedelta(days=2),
            inspector_email=officer,
            status="scheduled" if stage == "inspection" else "completed",
            outcome=None if stage == "inspection" else "violation_found",
            created_at=s.ago(days=age),
            updated_at=s.ago(days=max(0, age - 2)),
        )
        if stage == "inspection":
            continue
        resolved = stage in ("compliance", "closed")
        for sec in sections:
            s.create(
                Violation,
                case_id=case.id,
                code_section=sec,
                title=CODES[sec][1],
                status="corrected" if resolved else "open",
                found_on=opened + dt.timedelta(days=2),
                resolved_on=today - dt.timedelta(days=12) if resolved else None,
                created_at=s.ago(days=age - 2),
                updated_at=s.ago(days=12 if resolved else age - 2),
            )
        ladder = {"courtesy": 1, "final": 3, "fined": 2}.get(stage, 1)
        for n in range(ladder):
            issued = opened + dt.timedelta(days=3 + 21 * n)
            s.create(
                Notice,
                case_id=case.id,
                kind=LADDER[n],
                owner_email=owner.email,
                issued_on=issued,
                comply_by=issued + dt.timedelta(days=14),
                created_at=s.ago(days=(today - issued).days),
                updated_at=s.ago(days=(today - issued).days),
            )
        if stage in ("fined", "closed"):
            s.create(
                Fine,
                case_id=case.id,
                kind="fine",
                amount_cents=CODES[sections[0]][2],
                status="unpaid" if stage == "fined" else "paid",
                issued_on=opened + dt.timedelta(days=40),
                created_at=s.ago(days=age - 40),
                updated_at=s.ago(days=5),
            )
