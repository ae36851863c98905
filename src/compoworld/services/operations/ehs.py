"""Guardrail EHS: environment, health and safety incidents, investigations, corrective actions and the OSHA log.

Modeled on Intelex (Incident Management, Corrective and Preventive Action,
OSHA Recordkeeping apps) and Cority's EHS API: incidents of a type
(injury, illness, near_miss, property_damage, environmental_release, vehicle)
and a severity go reported → investigating → action_pending → closed; an
injury or illness names the employee involved. An investigation has one lead
(never the person injured) and completes only with a root-cause category and
a written root cause. Corrective actions hang from an incident or a safety
observation, have an owner and a due date at most 180 days out, and go open →
in_progress → completed → verified, verified by someone other than their
owner. An incident closes only when its investigation is complete, every
action is verified, and (if it is OSHA-recordable) its OSHA 300 log case is
recorded; a case is recorded once per incident, for injuries and illnesses
only, and the 300A summary totals a year's cases. Safety observations
(safe or at-risk behaviour and conditions) are logged by anyone on the staff,
an at-risk one can raise a corrective action, and a closed one takes none.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Date, DateTime, Email, IdOf, JobTitle, PersonName, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "ehs",
    title="Guardrail EHS",
    category="ehs",
    modeled_on="Intelex Incident Management / CAPA / OSHA Recordkeeping and Cority EHS API (incidents, "
    "investigations with root causes, corrective actions, OSHA 300 log and 300A summary, safety observations)",
    description="Environment, health and safety for the company's sites: incidents and near misses with "
    "their severity, investigations and root causes, corrective actions with owners and due dates, the "
    "OSHA 300 injury and illness log with its yearly 300A summary, and safety observations from the floor.",
)

IncidentId = Annotated[str, IdOf("ehs.incident")]
InvestigationId = Annotated[str, IdOf("ehs.investigation")]
ActionId = Annotated[str, IdOf("ehs.corrective_action")]
CaseId = Annotated[str, IdOf("ehs.osha_case")]
ObservationId = Annotated[str, IdOf("ehs.observation")]

IncidentType = Literal["injury", "illness", "near_miss", "property_damage", "environmental_release", "vehicle"]
Severity = Literal["low", "medium", "high", "critical"]
IncidentStatus = Literal["reported", "investigating", "action_pending", "closed"]
RootCause = Literal["equipment", "procedure", "training", "human_factors", "environment", "management_system"]
ActionStatus = Literal["open", "in_progress", "completed", "verified"]
Classification = Literal["death", "days_away", "job_transfer_restriction", "other_recordable"]
CaseType = Literal["injury", "skin_disorder", "respiratory", "poisoning", "hearing_loss", "other_illness"]
ObservationKind = Literal["safe", "at_risk"]
ObservationArea = Literal["ppe", "housekeeping", "ergonomics", "lockout_tagout", "chemical", "driving", "fire"]
Days = Annotated[int, Field(ge=0, le=180)]
"""Calendar days (OSHA caps day counts at 180)."""

PERSONAL: tuple[str, ...] = ("injury", "illness")
MAX_DUE = dt.timedelta(days=180)


class Incident(Timestamped):
    """Something that happened, or nearly did: an injury, illness, near miss, damage or release."""

    id: IncidentId
    number: Annotated[str, Generated("sequence", "INC-{n:05d}")]
    """The incident number."""
    title: Title
    """A short summary."""
    type: IncidentType
    """injury, illness, near_miss, property_damage, environmental_release or vehicle."""
    severity: Severity = "low"
    """low, medium, high or critical."""
    status: IncidentStatus = "reported"
    """reported, investigating, action_pending or closed."""
    occurred_at: DateTime
    """When it happened."""
    location: City
    """The site's city."""
    description: Text = ""
    """What happened."""
    reported_by: Email
    """The employee who reported it."""
    involved_email: Email | None = None
    """The employee injured or ill (injuries and illnesses)."""
    recordable: bool = False
    """Whether it is OSHA-recordable (needs a 300 log case to close)."""
    closed_at: DateTime | None = None
    """When it was closed."""


class Investigation(Timestamped):
    """The investigation of an incident, led by one employee, ending with a root cause."""

    id: InvestigationId
    incident_id: IncidentId
    """The incident."""
    lead_email: Email
    """The investigation lead."""
    status: Literal["open", "completed"] = "open"
    """open or completed."""
    root_cause_category: RootCause | None = None
    """equipment, procedure, training, human_factors, environment or management_system."""
    root_cause: Text = ""
    """The root cause, in words (5 whys)."""
    findings: Text = ""
    """What the investigation found."""
    completed_at: DateTime | None = None
    """When it was completed."""


class CorrectiveAction(Timestamped):
    """An action to remove a hazard, from an incident or a safety observation."""

    id: ActionId
    title: Title
    """What to do."""
    incident_id: IncidentId | None = None
    """The incident it corrects."""
    observation_id: ObservationId | None = None
    """The observation it answers."""
    owner_email: Email
    """The employee who must do it."""
    due_on: Date
    """When it is due."""
    priority: Severity = "medium"
    """low, medium, high or critical."""
    status: ActionStatus = "open"
    """open, in_progress, completed or verified."""
    completion_note: Text = ""
    """What was done."""
    verified_by: Email | None = None
    """Who verified it worked (not the owner)."""
    completed_on: Date | None = None
    """When it was completed."""


class OshaCase(Record):
    """A case on the OSHA Form 300 log of work-related injuries and illnesses."""

    id: CaseId
    case_number: Annotated[str, Generated("sequence", "OSHA-{n:04d}")]
    """The log's case number."""
    incident_id: IncidentId
    """The incident it records."""
    employee_email: Email
    """The employee injured or ill."""
    employee_name: PersonName
    """Their name ("Privacy Case" on a privacy case)."""
    job_title: JobTitle
    """Their job title."""
    date_of_injury: Date
    """The date of injury or onset of illness."""
    where: City
    """Where the event occurred."""
    case_type: CaseType
    """injury, skin_disorder, respiratory, poisoning, hearing_loss or other_illness."""
    classification: Classification
    """death, days_away, job_transfer_restriction or other_recordable."""
    days_away: Days = 0
    """Days away from work."""
    days_restricted: Days = 0
    """Days on job transfer or restriction."""
    privacy_case: bool = False
    """Whether the name is withheld on the log."""


class Observation(Timestamped):
    """A safety observation: a safe or at-risk behaviour or condition someone saw."""

    id: ObservationId
    kind: ObservationKind
    """safe or at_risk."""
    area: ObservationArea
    """ppe, housekeeping, ergonomics, lockout_tagout, chemical, driving or fire."""
    description: Text
    """What was seen."""
    location: City
    """The site's city."""
    observer_email: Email
    """The employee who saw it."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""


class OshaSummary(Value):
    """The OSHA Form 300A summary of a year's log."""

    year: int
    """The calendar year."""
    total_cases: int
    """Cases on the log."""
    by_classification: dict[Classification, int]
    """Cases per classification."""
    by_case_type: dict[CaseType, int]
    """Cases per injury or illness type."""
    total_days_away: int
    """Days away from work, all cases."""
    total_days_restricted: int
    """Days of job transfer or restriction, all cases."""


# -- rules ------------------------------------------------------------------------------------


def _guard_incident(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        require_employee(ctx, new.reported_by, field="reported_by", hint="incidents are reported by staff")
        if new.occurred_at > ctx.now():
            raise RuleViolation("an incident cannot occur in the future", field="occurred_at", hint="give a past time")
    if new.type in PERSONAL and new.involved_email is None:
        raise RuleViolation(
            f"an {new.type} names the employee involved", field="involved_email", hint="give their e-mail"
        )
    if new.involved_email is not None:
        require_employee(ctx, new.involved_email, field="involved_email", hint="name an employee")
    if new.recordable and new.type not in PERSONAL:
        raise RuleViolation(
            "only injuries and illnesses are OSHA-recordable", field="recordable", hint="leave recordable false"
        )
    if old is not None and old.status == "closed":
        raise RuleViolation(f"incident {old.number} is closed", field="incident_id", hint="report a new incident")


def _guard_observation(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.observer_email, field="observer_email", hint="observations come from staff")


def _guard_action(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "verified":
        raise RuleViolation(f"action {old.id} is verified", field="action_id", hint="raise a new corrective action")
    require_employee(ctx, new.owner_email, field="owner_email", hint="actions are owned by staff")


incidents = service.resource(
    Incident,
    name="incident",
    plural="incidents",
    prefix="inc",
    create=False,
    filters=("number", "type", "severity", "status", "reported_by", "involved_email", "location", "recordable"),
    search=("title", "description"),
    update=("title", "description", "severity", "location", "recordable"),
    delete=False,
    guard_update=_guard_incident,
)
investigations = service.resource(
    Investigation,
    name="investigation",
    plural="investigations",
    prefix="inv",
    create=False,
    filters=("incident_id", "lead_email", "status", "root_cause_category"),
    search=("root_cause", "findings"),
    update=("findings",),
    delete=False,
)
actions = service.resource(
    CorrectiveAction,
    name="corrective_action",
    plural="corrective_actions",
    prefix="cact",
    create=False,
    filters=("incident_id", "observation_id", "owner_email", "status", "priority", "due_on"),
    search=("title",),
    update=("title", "owner_email", "due_on", "priority"),
    delete=False,
    transitions={"start": Transition("status", ("open",), "in_progress", "start the corrective action")},
    guard_update=_guard_action,
    title="corrective action",
)
cases = service.resource(
    OshaCase,
    name="osha_case",
    plural="osha_cases",
    prefix="osha",
    create=False,
    filters=("incident_id", "employee_email", "classification", "case_type", "case_number"),
    delete=False,
    title="OSHA 300 log case",
)
observations = service.resource(
    Observation,
    name="observation",
    plural="observations",
    prefix="obs",
    create=("kind", "area", "description", "location", "observer_email"),
    filters=("kind", "area", "status", "observer_email", "location"),
    search=("description",),
    delete=False,
    transitions={"close": Transition("status", ("open",), "closed", "close the observation")},
    guard_create=_guard_observation,
    title="safety observation",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    staff = ctx.population.employees
    return {
        "title": "Slipped on wet floor in loading bay",
        "type": "injury",
        "severity": "medium",
        "occurred_at": (ctx.now() - dt.timedelta(hours=3)).isoformat(),
        "location": staff[1].place.city,
        "reported_by": staff[0].email,
        "involved_email": staff[1].email,
        "description": "Wet floor near dock door 3; sprained wrist.",
    }


@service.tool(intent="report the incident", write=True, example=_example_report)
def report_incident(
    ctx: Ctx,
    title: Title,
    type: IncidentType,
    occurred_at: DateTime,
    location: City,
    reported_by: Email,
    severity: Severity = "low",
    involved_email: Email | None = None,
    description: Text = "",
    recordable: bool = False,
) -> Incident:
    """Report an incident or near miss; injuries and illnesses name the employee involved.

    Args:
        title: A short summary.
        type: injury, illness, near_miss, property_damage, environmental_release or vehicle.
        occurred_at: When it happened (not in the future).
        location: The site's city.
        reported_by: The employee reporting it.
        severity: low, medium, high or critical.
        involved_email: The employee injured or ill.
        description: What happened.
        recordable: Whether it is OSHA-recordable (injuries and illnesses only).
    """
    fields: dict[str, Any] = {
        "title": title,
        "type": type,
        "occurred_at": occurred_at,
        "location": location,
        "reported_by": reported_by,
        "severity": severity,
        "involved_email": involved_email,
        "description": description,
        "recordable": recordable,
    }
    _guard_incident(ctx, Incident.model_construct(**fields), None)
    return ctx.create(Incident, **fields)


def _open_incident(ctx: Ctx, incident_id: str) -> Incident:
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if inc.status == "closed":
        raise RuleViolation(f"incident {inc.number} is closed", field="incident_id", hint="report a new incident")
    return inc


def _lead_example(ctx: Ctx) -> dict[str, Any] | None:
    for inc in ctx.where(Incident, status="reported"):
        lead = next(p for p in ctx.population.employees if p.email not in (inc.involved_email, inc.reported_by))
        return {"incident_id": inc.id, "lead_email": lead.email}
    return None


@service.tool(intent="start the investigation of the incident", write=True, example=_lead_example)
def start_investigation(ctx: Ctx, incident_id: IncidentId, lead_email: Email) -> Investigation:
    """Open the investigation of a reported incident; the lead is an employee other than the person involved.

    Args:
        incident_id: The incident.
        lead_email: The employee leading the investigation.
    """
    inc = _open_incident(ctx, incident_id)
    if ctx.first(Investigation, incident_id=inc.id) is not None:
        raise Conflict(
            f"incident {inc.number} is already under investigation",
            field="incident_id",
            hint="find it with ehs__list_investigations",
        )
    require_employee(ctx, lead_email, field="lead_email", hint="an investigation is led by staff")
    if lead_email == inc.involved_email:
        raise RuleViolation(
            "the person involved cannot lead the investigation", field="lead_email", hint="pick another employee"
        )
    ctx.update(inc, status="investigating")
    return ctx.create(Investigation, incident_id=inc.id, lead_email=lead_email)


@service.tool(
    intent="complete the investigation",
    write=True,
    example=first_example(
        Investigation,
        "investigation_id",
        where={"status": "open"},
        root_cause_category="procedure",
        root_cause="No spill clean-up step in the dock shift checklist.",
    ),
)
def complete_investigation(
    ctx: Ctx, investigation_id: InvestigationId, root_cause_category: RootCause, root_cause: Text, findings: Text = ""
) -> Investigation:
    """Complete an open investigation with its root cause; the incident then waits on its actions.

    Args:
        investigation_id: The investigation.
        root_cause_category: equipment, procedure, training, human_factors, environment or management_system.
        root_cause: The root cause in words (required).
        findings: What the investigation found.
    """
    inv = ctx.get(Investigation, investigation_id, field="investigation_id")
    if inv.status == "completed":
        raise Conflict(f"investigation {inv.id} is already completed", field="investigation_id", hint="nothing to do")
    if not root_cause.strip():
        raise RuleViolation("a root cause is required", field="root_cause", hint="state the root cause")
    inc = ctx.get(Incident, inv.incident_id)
    if inc.status == "investigating":
        ctx.update(inc, status="action_pending")
    return ctx.update(
        inv,
        status="completed",
        root_cause_category=root_cause_category,
        root_cause=root_cause.strip(),
        findings=findings or inv.findings,
        completed_at=ctx.now(),
    )


def _check_due(ctx: Ctx, due_on: dt.date) -> None:
    today = ctx.today()
    if due_on < today or due_on > today + MAX_DUE:
        raise RuleViolation(
            f"due_on must be between {today} and {today + MAX_DUE}", field="due_on", hint="pick a date within 180 days"
        )


def _example_action(ctx: Ctx) -> dict[str, Any] | None:
    inc = ctx.first(Incident, status="action_pending")
    if inc is None:
        return None
    return {
        "incident_id": inc.id,
        "title": "Add spill kit and clean-up step at dock 3",
        "owner_email": ctx.population.employees[2].email,
        "due_on": (ctx.today() + dt.timedelta(days=30)).isoformat(),
        "priority": "high",
    }


@service.tool(intent="assign a corrective action for the incident", write=True, example=_example_action)
def assign_corrective_action(
    ctx: Ctx,
    incident_id: IncidentId,
    title: Title,
    owner_email: Email,
    due_on: Date,
    priority: Severity = "medium",
) -> CorrectiveAction:
    """Assign a corrective action on an open incident to an employee, due within 180 days.

    Args:
        incident_id: The incident.
        title: What to do.
        owner_email: The employee who must do it.
        due_on: When it is due (today to 180 days ahead).
        priority: low, medium, high or critical.
    """
    inc = _open_incident(ctx, incident_id)
    require_employee(ctx, owner_email, field="owner_email", hint="actions are owned by staff")
    _check_due(ctx, due_on)
    return ctx.create(
        CorrectiveAction, title=title, incident_id=inc.id, owner_email=owner_email, due_on=due_on, priority=priority
    )


def _example_raise(ctx: Ctx) -> dict[str, Any] | None:
    obs = ctx.first(Observation, kind="at_risk", status="open")
    if obs is None:
        return None
    return {
        "observation_id": obs.id,
        "title": "Replace worn guard rail",
        "owner_email": obs.observer_email,
        "due_on": (ctx.today() + dt.timedelta(days=14)).isoformat(),
    }


@service.tool(intent="raise a corrective action from the observation", write=True, example=_example_raise)
def raise_action_from_observation(
    ctx: Ctx, observation_id: ObservationId, title: Title, owner_email: Email, due_on: Date, priority: Severity = "low"
) -> CorrectiveAction:
    """Raise a corrective action from an open at-risk observation.

    Args:
        observation_id: The observation.
        title: What to do.
        owner_email: The employee who must do it.
        due_on: When it is due (today to 180 days ahead).
        priority: low, medium, high or critical.
    """
    obs = ctx.get(Observation, observation_id, field="observation_id")
    if obs.kind != "at_risk":
        raise RuleViolation(
            "a safe observation needs no action", field="observation_id", hint="pick an at-risk observation"
        )
    if obs.status == "closed":
        raise RuleViolation(f"observation {obs.id} is closed", field="observation_id", hint="log a new observation")
    require_employee(ctx, owner_email, field="owner_email", hint="actions are owned by staff")
    _check_due(ctx, due_on)
    return ctx.create(
        CorrectiveAction,
        title=title,
        observation_id=obs.id,
        owner_email=owner_email,
        due_on=due_on,
        priority=priority,
    )


@service.tool(
    intent="complete the corrective action",
    write=True,
    example=first_example(
        CorrectiveAction, "action_id", where={"status": "in_progress"}, note="Done and photographed."
    ),
)
def complete_corrective_action(ctx: Ctx, action_id: ActionId, note: Text) -> CorrectiveAction:
    """Mark an open or in-progress action completed, saying what was done.

    Args:
        action_id: The action.
        note: What was done (required).
    """
    act = ctx.get(CorrectiveAction, action_id, field="action_id")
    if act.status not in ("open", "in_progress"):
        raise Conflict(f"action {act.id} is already {act.status}", field="action_id", hint="nothing to do")
    if not note.strip():
        raise RuleViolation("say what was done", field="note", hint="describe the fix")
    return ctx.update(act, status="completed", completion_note=note.strip(), completed_on=ctx.today())


def _example_verify(ctx: Ctx) -> dict[str, Any] | None:
    for act in ctx.where(CorrectiveAction, status="completed"):
        source = None if act.incident_id is None else ctx.get(Incident, act.incident_id)
        if source is not None and source.reported_by != act.owner_email:
            # The person who reported the hazard checks that the fix works.
            return {"action_id": act.id, "verifier_email": source.reported_by}
    return None


@service.tool(intent="verify the corrective action", write=True, example=_example_verify)
def verify_corrective_action(ctx: Ctx, action_id: ActionId, verifier_email: Email) -> CorrectiveAction:
    """Verify a completed action is effective; the verifier is an employee other than its owner.

    Args:
        action_id: The action.
        verifier_email: The employee verifying it.
    """
    act = ctx.get(CorrectiveAction, action_id, field="action_id")
    if act.status != "completed":
        raise RuleViolation(
            f"action {act.id} is {act.status}, not completed", field="action_id", hint="complete it first"
        )
    require_employee(ctx, verifier_email, field="verifier_email", hint="verification is done by staff")
    if verifier_email == act.owner_email:
        raise RuleViolation(
            "the owner cannot verify their own action", field="verifier_email", hint="ask another employee"
        )
    return ctx.update(act, status="verified", verified_by=verifier_email)


@service.tool(intent="list overdue corrective actions", example=fixed_example())
def overdue_actions(ctx: Ctx, owner_email: Email | None = None) -> list[CorrectiveAction]:
    """Corrective actions past their due date and not yet completed, oldest due first.

    Args:
        owner_email: Only this owner's actions.
    """
    today = ctx.today()
    late = [
        a
        for a in ctx.scan(CorrectiveAction)
        if a.status in ("open", "in_progress") and a.due_on < today and owner_email in (None, a.owner_email)
    ]
    return sorted(late, key=lambda a: (a.due_on, a.id))


def _example_case(ctx: Ctx) -> dict[str, Any] | None:
    for inc in ctx.scan(Incident):
        if inc.recordable and inc.status != "closed" and ctx.first(OshaCase, incident_id=inc.id) is None:
            return {"incident_id": inc.id, "case_type": "injury", "classification": "days_away", "days_away": 3}
    return None


@service.tool(intent="record the OSHA 300 log case", write=True, example=_example_case)
def record_osha_case(
    ctx: Ctx,
    incident_id: IncidentId,
    case_type: CaseType,
    classification: Classification,
    days_away: Days = 0,
    days_restricted: Days = 0,
    privacy_case: bool = False,
) -> OshaCase:
    """Enter an injury or illness on the OSHA 300 log (once per incident); the incident becomes recordable.

    Args:
        incident_id: The injury or illness incident.
        case_type: injury, skin_disorder, respiratory, poisoning, hearing_loss or other_illness.
        classification: death, days_away, job_transfer_restriction or other_recordable.
        days_away: Days away from work (required for days_away).
        days_restricted: Days on restriction or transfer (required for job_transfer_restriction).
        privacy_case: Withhold the employee's name on the log.
    """
    inc = _open_incident(ctx, incident_id)
    if inc.type not in PERSONAL or inc.involved_email is None:
        raise RuleViolation(
            f"a {inc.type} is not an injury or illness", field="incident_id", hint="only injuries go on the 300 log"
        )
    done = ctx.first(OshaCase, incident_id=inc.id)
    if done is not None:
        raise Conflict(f"incident {inc.number} is case {done.case_number}", field="incident_id", hint="update nothing")
    if classification == "days_away" and days_away == 0:
        raise RuleViolation("a days-away case counts its days", field="days_away", hint="give the days away")
    if classification == "job_transfer_restriction" and days_restricted == 0:
        raise RuleViolation("a restriction case counts its days", field="days_restricted", hint="give the days")
    person = require_employee(ctx, inc.involved_email, field="incident_id")
    ctx.update(inc, recordable=True)
    return ctx.create(
        OshaCase,
        incident_id=inc.id,
        employee_email=person.email,
        employee_name="Privacy Case" if privacy_case else person.name,
        job_title=person.job_title,
        date_of_injury=inc.occurred_at.date(),
        where=inc.location,
        case_type=case_type,
        classification=classification,
        days_away=days_away,
        days_restricted=days_restricted,
        privacy_case=privacy_case,
    )


@service.tool(intent="summarize the OSHA log for the year", example=lambda ctx: {"year": ctx.today().year})
def osha_300a_summary(ctx: Ctx, year: Annotated[int, Field(ge=2000, le=2100)]) -> OshaSummary:
    """The OSHA 300A summary of a calendar year's log: cases by classification and type, days.

    Args:
        year: The calendar year.
    """
    rows = [c for c in ctx.scan(OshaCase) if c.date_of_injury.year == year]
    by_class: dict[Classification, int] = {}
    by_type: dict[CaseType, int] = {}
    for c in rows:
        by_class[c.classification] = by_class.get(c.classification, 0) + 1
        by_type[c.case_type] = by_type.get(c.case_type, 0) + 1
    return OshaSummary(
        year=year,
        total_cases=len(rows),
        by_classification=by_class,
        by_case_type=by_type,
        total_days_away=sum(c.days_away for c in rows),
        total_days_restricted=sum(c.days_restricted for c in rows),
    )


def _closable(ctx: Ctx, inc: Incident) -> None:
    inv = ctx.first(Investigation, incident_id=inc.id)
    if inv is None or inv.status != "completed":
        raise RuleViolation(
            f"incident {inc.number} has no completed investigation",
            field="incident_id",
            hint="complete it with ehs__complete_investigation",
        )
    pending = [a.id for a in ctx.where(CorrectiveAction, incident_id=inc.id) if a.status != "verified"]
    if pending:
        raise RuleViolation(
            f"corrective actions not verified: {', '.join(pending)}",
            field="incident_id",
            hint="verify them with ehs__verify_corrective_action",
        )
    if inc.recordable and ctx.first(OshaCase, incident_id=inc.id) is None:
        raise RuleViolation(
            f"recordable incident {inc.number} is not on the OSHA log",
            field="incident_id",
            hint="record it with ehs__record_osha_case",
        )


def _closable_example(ctx: Ctx) -> dict[str, Any] | None:
    for inc in ctx.where(Incident, status="action_pending"):
        try:
            _closable(ctx, inc)
        except RuleViolation:
            continue
        return {"incident_id": inc.id}
    return None


@service.tool(intent="close the incident", write=True, example=_closable_example)
def close_incident(ctx: Ctx, incident_id: IncidentId) -> Incident:
    """Close an incident whose investigation is complete, actions verified and OSHA case (if recordable) logged.

    Args:
        incident_id: The incident.
    """
    inc = _open_incident(ctx, incident_id)
    _closable(ctx, inc)
    return ctx.update(inc, status="closed", closed_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

EVENTS: tuple[tuple[str, IncidentType, Severity, bool], ...] = (
    ("Forklift clipped racking in aisle 4", "property_damage", "medium", False),
    ("Hand laceration on box cutter", "injury", "medium", True),
    ("Pallet fell from mezzanine, nobody hurt", "near_miss", "high", False),
    ("Hydraulic oil leak to storm drain", "environmental_release", "high", False),
    ("Back strain lifting carton", "injury", "low", True),
    ("Contact dermatitis from cleaning agent", "illness", "low", True),
    ("Company van rear-ended at junction", "vehicle", "low", False),
    ("Trip over trailing cable in office", "injury", "low", False),
)
STAGES: tuple[IncidentStatus, ...] = (
    "closed",
    "action_pending",
    "action_pending",
    "investigating",
    "reported",
    "closed",
    "action_pending",
    "reported",
)
PENDING_ACTIONS: dict[int, tuple[ActionStatus, ...]] = {1: ("completed",), 2: ("verified",), 6: ("open", "in_progress")}


@service.seeder
def seed(s: SeedContext) -> None:
    """Incidents at every stage with investigations, actions, OSHA cases, and observations from the staff."""
    staff = s.population.employees
    ops = s.population.staff("Operations", fallback=6)
    for k, (title, kind, sev, recordable) in enumerate(EVENTS):
        stage = STAGES[k]
        reporter, hurt, lead = ops[k % len(ops)], staff[(3 * k + 5) % len(staff)], ops[(k + 1) % len(ops)]
        when = s.ago(days=10 + 9 * k)
        inc = s.create(
            Incident,
            title=title,
            type=kind,
            severity=sev,
            status=stage,
            occurred_at=when,
            location=hurt.place.city,
            description=f"{title}. Reported by {reporter.name}.",
            reported_by=reporter.email,
            involved_email=hurt.email if kind in PERSONAL else None,
            recordable=recordable,
            closed_at=when + dt.timedelta(days=8) if stage == "closed" else None,
            created_at=when,
            updated_at=when,
        )
        if stage == "reported":
            continue
        done = stage != "investigating"
        s.create(
            Investigation,
            incident_id=inc.id,
            lead_email=lead.email if lead.email != hurt.email else reporter.email,
            status="completed" if done else "open",
            root_cause_category=("procedure", "training", "equipment")[k % 3] if done else None,
            root_cause="Task started without the required checklist step." if done else "",
            completed_at=when + dt.timedelta(days=4) if done else None,
            created_at=when,
            updated_at=when,
        )
        if not done:
            continue
        for n, act_status in enumerate(PENDING_ACTIONS.get(k, ("verified",))):
            owner = ops[(k + 2 + n) % len(ops)]
            finished = act_status in ("completed", "verified")
            s.create(
                CorrectiveAction,
                title=("Fix root cause of ", "Retrain crew after ")[n] + inc.number,
                incident_id=inc.id,
                owner_email=owner.email,
                due_on=(s.now + dt.timedelta(days=-5 if act_status == "open" else 20)).date(),
                priority=sev,
                status=act_status,
                completion_note="Done." if finished else "",
                verified_by=reporter.email if act_status == "verified" else None,
                completed_on=(when + dt.timedelta(days=7)).date() if finished else None,
                created_at=when,
                updated_at=when,
            )
        if recordable and stage == "closed":
            s.create(
                OshaCase,
                incident_id=inc.id,
                employee_email=hurt.email,
                employee_name=hurt.name,
                job_title=hurt.job_title,
                date_of_injury=when.date(),
                where=inc.location,
                case_type="injury" if kind == "injury" else "skin_disorder",
                classification="days_away",
                days_away=2 + k,
            )
    areas: tuple[ObservationArea, ...] = ("ppe", "housekeeping", "ergonomics", "lockout_tagout", "chemical", "fire")
    for k, person in enumerate(staff[:10]):
        s.create(
            Observation,
            kind="at_risk" if k % 3 else "safe",
            area=areas[k % len(areas)],
            description=("Worker without safety glasses at grinder" if k % 3 else "Spill cleaned up promptly"),
            location=person.place.city,
            observer_email=person.email,
            status="closed" if k % 4 == 3 else "open",
            created_at=s.ago(days=k + 1),
            updated_at=s.ago(days=k + 1),
        )
