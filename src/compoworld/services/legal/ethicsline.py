"""Speak Up Line: ethics hotline: anonymous reports with access keys, triage, investigation, reporter follow-up.

Modeled on NAVEX EthicsPoint (and its Incident Management case workflow):
reports made on the web or by phone, anonymously (no reporter identity kept)
or named, each given a report key the reporter uses to check status and
answer follow-up questions; intake triage that sets the category and severity
(critical reports escalate to the audit committee); assignment to an
investigator who may be neither the reporter nor the subject of the report;
investigation actions (interviews, document reviews, site visits) logged by
the investigator; questions to the reporter answered through the report key;
and closure with a finding (substantiated, unsubstantiated or inconclusive)
only after at least one investigative action, with the corrective action
required when substantiated.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "ethicsline",
    title="Speak Up Line",
    category="ethics_hotline",
    modeled_on="NAVEX EthicsPoint and EthicsPoint Incident Management: anonymous and named reports with report "
    "keys, intake triage, case assignment, investigations, follow-up questions to the reporter, closure findings",
    description="The company's ethics and compliance hotline: reports of fraud, harassment, conflicts of "
    "interest or safety issues, their triage and escalation, assigned investigators and their actions, "
    "questions to anonymous reporters through the report key, and findings at closure.",
)

ReportId = Annotated[str, IdOf("ethicsline.report")]
FollowUpId = Annotated[str, IdOf("ethicsline.follow_up")]
ActionId = Annotated[str, IdOf("ethicsline.action")]
ReportKey = Annotated[str, StringConstraints(pattern=r"^\d{10}$")]
"""The ten-digit report key the reporter was given."""

Category = Literal[
    "fraud", "harassment", "discrimination", "conflict_of_interest", "safety", "theft", "retaliation", "other"
]
Severity = Literal["low", "medium", "high", "critical"]
Status = Literal["new", "triaged", "assigned", "investigating", "closed"]
Finding = Literal["substantiated", "unsubstantiated", "inconclusive"]
ActionKind = Literal["interview", "document_review", "site_visit", "legal_consult"]


class Report(Timestamped):
    """A hotline report and its case."""

    id: ReportId
    report_key: ReportKey
    """The reporter's key (unique; the reporter's only link to the report)."""
    channel: Literal["web", "phone"]
    """web or phone (a hotline agent typed it)."""
    category: Category
    """fraud, harassment, discrimination, conflict_of_interest, safety, theft, retaliation or other."""
    location: Title
    """The site or department concerned."""
    description: Text
    """What happened."""
    anonymous: bool
    """Whether the reporter withheld their identity."""
    reporter_email: Email | None = None
    """The reporter (named reports only)."""
    subject_name: PersonName | None = None
    """The person the report is about."""
    severity: Severity | None = None
    """Set at triage: low, medium, high or critical."""
    escalated: bool = False
    """Whether the audit committee was notified (critical reports)."""
    investigator_email: Email | None = None
    """The assigned investigator."""
    status: Status = "new"
    """new, triaged, assigned, investigating or closed."""
    finding: Finding | None = None
    """substantiated, unsubstantiated or inconclusive."""
    resolution: Text = ""
    """The corrective action taken."""
    closed_on: Date | None = None
    """When it was closed."""


class FollowUp(Created):
    """A message between the case handler and the reporter."""

    id: FollowUpId
    report_id: ReportId
    """The report."""
    direction: Literal["to_reporter", "from_reporter"]
    """to_reporter (a question) or from_reporter (an answer)."""
    body: Text
    """The message."""
    answered: bool = False
    """Whether a question was answered."""


class Action(Created):
    """An investigative action."""

    id: ActionId
    report_id: ReportId
    """The report."""
    kind: ActionKind
    """interview, document_review, site_visit or legal_consult."""
    summary: Text
    """What was done and learned."""
    author_email: Email
    """The investigator."""


class ReporterView(Value):
    """What a reporter sees with their report key."""

    report_key: ReportKey
    """The key."""
    status: Status
    """The report's status."""
    open_questions: list[str]
    """Questions waiting for the reporter's answer."""
    closed: bool
    """Whether the case is closed."""


# -- rules ------------------------------------------------------------------------------------


def _by_key(ctx: Ctx, key: str) -> Report:
    r = ctx.first(Report, report_key=key)
    if r is None:
        raise RuleViolation("no report has that key", field="report_key", hint="check the ten digits you were given")
    return r


def _open(ctx: Ctx, report_id: str) -> Report:
    r = ctx.get(Report, report_id, field="report_id")
    if r.status == "closed":
        raise RuleViolation(f"report {r.id} is closed", field="report_id", hint="open a new report")
    return r


def _check_investigator(ctx: Ctx, r: Any, email: str) -> None:
    person = require_employee(ctx, email, field="investigator_email", hint="investigators are compliance staff")
    if r.reporter_email is not None and email == r.reporter_email:
        raise RuleViolation("the reporter cannot investigate", field="investigator_email", hint="pick someone else")
    if r.subject_name is not None and fold(r.subject_name) == fold(f"{person.first_name} {person.last_name}"):
        raise RuleViolation(
            "the subject of the report cannot investigate it", field="investigator_email", hint="pick someone else"
        )


def _guard_report(ctx: Ctx, new: Any, old: Any) -> None:
    if new.investigator_email != old.investigator_email:
        if new.investigator_email is None or old.status == "closed":
            raise RuleViolation("reassign only a live case", field="investigator_email", hint="name an investigator")
        _check_investigator(ctx, new, new.investigator_email)
    if new.status == "investigating" and old.status != "investigating" and new.investigator_email is None:
        raise RuleViolation("no investigator is assigned", field="report_id", hint="assign one first")


reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rpt",
    create=False,
    filters=("report_key", "category", "severity", "status", "investigator_email", "reporter_email", "escalated"),
    search=("description", "location", "subject_name"),
    update=("investigator_email", "location"),
    delete=False,
    transitions={
        "start_investigation": Transition("status", ("assigned",), "investigating", "start the investigation"),
    },
    guard_update=_guard_report,
)
follow_ups = service.resource(
    FollowUp,
    name="follow_up",
    plural="follow_ups",
    prefix="fu",
    create=False,
    filters=("report_id", "direction", "answered"),
    delete=False,
    title="follow-up message",
)
actions = service.resource(
    Action,
    name="action",
    plural="actions",
    prefix="act",
    create=False,
    filters=("report_id", "kind", "author_email"),
    search=("summary",),
    delete=False,
    title="investigative action",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="submit an ethics report",
    write=True,
    example=fixed_example(
        category="conflict_of_interest",
        location="Purchasing",
        description="A buyer steers orders to a supplier owned by a relative.",
        anonymous=True,
    ),
)
def submit_report(
    ctx: Ctx,
    category: Category,
    location: Title,
    description: Text,
    anonymous: bool,
    reporter_email: Email | None = None,
    subject_name: PersonName | None = None,
    channel: Literal["web", "phone"] = "web",
) -> Report:
    """File a report; the reporter gets a report key. Anonymous reports keep no identity; named ones need an e-mail.

    Args:
        category: fraud, harassment, discrimination, conflict_of_interest, safety, theft, retaliation or other.
        location: The site or department.
        description: What happened (required).
        anonymous: Whether the reporter withholds their identity.
        reporter_email: The reporter's e-mail (named reports only).
        subject_name: Who the report is about.
        channel: web or phone.
    """
    if anonymous and reporter_email is not None:
        raise RuleViolation("an anonymous report keeps no e-mail", field="reporter_email", hint="leave it out")
    if not anonymous and reporter_email is None:
        raise RuleViolation("a named report needs the reporter's e-mail", field="reporter_email", hint="give it")
    if not description.strip():
        raise RuleViolation("describe what happened", field="description", hint="who, what, when, where")
    n = ctx.next_number(Report, "key")
    return ctx.create(
        Report,
        report_key=f"{(4100000000 + n * 7919) % 10**10:010d}",
        channel=channel,
        category=category,
        location=location,
        description=description.strip(),
        anonymous=anonymous,
        reporter_email=reporter_email,
        subject_name=subject_name,
    )


@service.tool(
    intent="triage the report",
    write=True,
    example=first_example(Report, "report_id", where={"status": "new"}, severity="medium"),
)
def triage_report(ctx: Ctx, report_id: ReportId, severity: Severity, category: Category | None = None) -> Report:
    """Intake review of a new report: set its severity (and correct its category); critical ones escalate.

    Args:
        report_id: The new report.
        severity: low, medium, high or critical (critical notifies the audit committee).
        category: The corrected category, if the reporter picked the wrong one.
    """
    r = ctx.get(Report, report_id, field="report_id")
    if r.status != "new":
        raise Conflict(f"report {r.id} is already {r.status}", field="report_id", hint="it was triaged")
    return ctx.update(
        r, status="triaged", severity=severity, category=category or r.category, escalated=severity == "critical"
    )


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Report, status="triaged")
    if r is None:
        return None
    for p in ctx.population.employees:
        if p.email != r.reporter_email and (r.subject_name is None or fold(r.subject_name) != fold(p.name)):
            return {"report_id": r.id, "investigator_email": p.email}
    return None


@service.tool(intent="assign an investigator to the report", write=True, example=_example_assign)
def assign_investigator(ctx: Ctx, report_id: ReportId, investigator_email: Email) -> Report:
    """Assign a triaged report to an investigator on the staff who is neither its reporter nor its subject.

    Args:
        report_id: The triaged report.
        investigator_email: The investigator.
    """
    r = ctx.get(Report, report_id, field="report_id")
    if r.status != "triaged":
        raise RuleViolation(f"report {r.id} is {r.status}", field="report_id", hint="triage it first")
    _check_investigator(ctx, r, investigator_email)
    return ctx.update(r, status="assigned", investigator_email=investigator_email)


@service.tool(
    intent="log an investigative action",
    write=True,
    example=first_example(
        Report,
        "report_id",
        where={"status": "investigating"},
        fields={"author_email": "investigator_email"},
        kind="interview",
        summary="Interviewed the buyer's manager.",
    ),
)
def log_action(ctx: Ctx, report_id: ReportId, kind: ActionKind, summary: Text, author_email: Email) -> Action:
    """Log an action of an investigation under way; only its investigator logs.

    Args:
        report_id: The report being investigated.
        kind: interview, document_review, site_visit or legal_consult.
        summary: What was done and learned (required).
        author_email: The investigator.
    """
    r = _open(ctx, report_id)
    if r.status != "investigating":
        raise RuleViolation(f"report {r.id} is {r.status}", field="report_id", hint="start the investigation first")
    if author_email != r.investigator_email:
        raise RuleViolation("only the assigned investigator logs actions", field="author_email", hint="reassign first")
    if not summary.strip():
        raise RuleViolation("an action needs a summary", field="summary", hint="say what was learned")
    return ctx.create(Action, report_id=r.id, kind=kind, summary=summary.strip(), author_email=author_email)


@service.tool(
    intent="ask the reporter a follow-up question",
    write=True,
    example=first_example(Report, "report_id", where={"status": "investigating"}, question="When did this start?"),
)
def ask_reporter(ctx: Ctx, report_id: ReportId, question: Text) -> FollowUp:
    """Post a question the reporter sees with their report key; one unanswered question at a time.

    Args:
        report_id: The open report.
        question: The question.
    """
    r = _open(ctx, report_id)
    if not question.strip():
        raise RuleViolation("ask something", field="question", hint="write the question")
    pending = ctx.where(FollowUp, report_id=r.id, direction="to_reporter", answered=False)
    if pending:
        raise Conflict("a question is still unanswered", field="report_id", hint="wait for the reporter's answer")
    return ctx.create(FollowUp, report_id=r.id, direction="to_reporter", body=question.strip())


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    q = ctx.first(FollowUp, direction="to_reporter", answered=False)
    if q is None:
        return None
    return {"report_key": ctx.get(Report, q.report_id).report_key, "answer": "It started last March."}


@service.tool(intent="answer the hotline's question as the reporter", write=True, example=_example_reply)
def reporter_reply(ctx: Ctx, report_key: ReportKey, answer: Text) -> FollowUp:
    """The reporter answers the open question of their report, identified only by the report key.

    Args:
        report_key: The report key.
        answer: The answer.
    """
    r = _by_key(ctx, report_key)
    pending = ctx.where(FollowUp, report_id=r.id, direction="to_reporter", answered=False)
    if not pending:
        raise RuleViolation("there is no open question", field="report_key", hint="check back later")
    if r.status == "closed":
        raise RuleViolation("the report is closed", field="report_key", hint="file a new report")
    ctx.update(pending[0], answered=True)
    return ctx.create(FollowUp, report_id=r.id, direction="from_reporter", body=answer.strip() or "(no answer)")


@service.tool(
    intent="check the report's status as the reporter",
    example=first_example(Report, None, fields={"report_key": "report_key"}),
)
def check_status(ctx: Ctx, report_key: ReportKey) -> ReporterView:
    """What the reporter sees with their key: the status and questions waiting for them (nothing internal).

    Args:
        report_key: The report key.
    """
    r = _by_key(ctx, report_key)
    pending = ctx.where(FollowUp, report_id=r.id, direction="to_reporter", answered=False)
    return ReporterView(
        report_key=r.report_key, status=r.status, open_questions=[q.body for q in pending], closed=r.status == "closed"
    )


@service.tool(
    intent="close the report with a finding",
    write=True,
    example=first_example(
        Report,
        "report_id",
        where={"status": "investigating"},
        match=lambda ctx, r: bool(ctx.where(Action, report_id=r.id)),
        finding="unsubstantiated",
    ),
)
def close_report(ctx: Ctx, report_id: ReportId, finding: Finding, resolution: Text = "") -> Report:
    """Close an investigation with its finding; it needs at least one action, and a substantiated one a resolution.

    Args:
        report_id: The report being investigated.
        finding: substantiated, unsubstantiated or inconclusive.
        resolution: The corrective action (required when substantiated).
    """
    r = _open(ctx, report_id)
    if r.status != "investigating":
        raise RuleViolation(f"report {r.id} is {r.status}", field="report_id", hint="investigate it first")
    if not ctx.where(Action, report_id=r.id):
        raise RuleViolation("no investigative action is logged", field="report_id", hint="log what was done first")
    if finding == "substantiated" and not resolution.strip():
        raise RuleViolation("a substantiated finding needs the corrective action", field="resolution", hint="state it")
    for q in ctx.where(FollowUp, report_id=r.id, direction="to_reporter", answered=False):
        ctx.update(q, answered=True)
    return ctx.update(r, status="closed", finding=finding, resolution=resolution.strip(), closed_on=ctx.today())


@service.tool(
    intent="escalate the report to the audit committee",
    write=True,
    example=first_example(Report, "report_id", where={"status": "triaged", "escalated": False}),
)
def escalate_report(ctx: Ctx, report_id: ReportId) -> Report:
    """Escalate a live, triaged report to the audit committee: it becomes critical.

    Args:
        report_id: The report.
    """
    r = _open(ctx, report_id)
    if r.status == "new":
        raise RuleViolation("triage the report first", field="report_id", hint="set its severity")
    if r.escalated:
        raise Conflict(f"report {r.id} is already escalated", field="report_id", hint="nothing to do")
    return ctx.update(r, severity="critical", escalated=True)


@service.tool(
    intent="reopen the closed report",
    write=True,
    example=first_example(Report, "report_id", where={"status": "closed"}, reason="New evidence from a witness."),
)
def reopen_report(ctx: Ctx, report_id: ReportId, reason: Text) -> Report:
    """Reopen a report closed in the last 90 days for new evidence; its finding is cleared.

    Args:
        report_id: The closed report.
        reason: The new evidence (required).
    """
    r = ctx.get(Report, report_id, field="report_id")
    if r.status != "closed" or r.closed_on is None:
        raise Conflict(f"report {r.id} is {r.status}", field="report_id", hint="only closed reports reopen")
    if (ctx.today() - r.closed_on).days > 90:
        raise RuleViolation("closed more than 90 days ago", field="report_id", hint="file a new report")
    if not reason.strip():
        raise RuleViolation("say what is new", field="reason", hint="describe the new evidence")
    return ctx.update(r, status="investigating", finding=None, closed_on=None, resolution=f"Reopened: {reason.strip()}")


class Stats(Value):
    """The hotline's numbers."""

    by_status: dict[str, int]
    """Reports per status."""
    by_category: dict[str, int]
    """Reports per category."""
    anonymous_share: float
    """Share of anonymous reports (0-1)."""
    substantiated_share: float
    """Share of closed reports substantiated (0-1)."""


@service.tool(intent="show the hotline statistics", example=fixed_example())
def hotline_stats(ctx: Ctx) -> Stats:
    """Reports per status and category, the anonymous share and the substantiation rate of closed reports."""
    all_reports = list(ctx.scan(Report))
    closed = [r for r in all_reports if r.status == "closed"]
    by_status: dict[str, int] = {}
    by_category: dict[str, int] = {}
    for r in all_reports:
        by_status[r.status] = by_status.get(r.status, 0) + 1
        by_category[r.category] = by_category.get(r.category, 0) + 1
    return Stats(
        by_status=by_status,
        by_category=by_category,
        anonymous_share=round(sum(r.anonymous for r in all_reports) / len(all_reports), 3) if all_reports else 0.0,
        substantiated_share=round(sum(r.finding == "substantiated" for r in closed) / len(closed), 3)
        if closed
        else 0.0,
    )


@service.tool(
    intent="list the investigator's open cases",
    example=first_example(
        Report, None, where={"status": "investigating"}, fields={"investigator_email": "investigator_email"}
    ),
)
def caseload(ctx: Ctx, investigator_email: Email) -> list[Report]:
    """An investigator's open reports (assigned or investigating), most severe first.

    Args:
        investigator_email: The investigator.
    """
    require_employee(ctx, investigator_email, field="investigator_email", hint="investigators are staff")
    rank = {"critical": 0, "high": 1, "medium": 2, "low": 3}
    live = [
        r for r in ctx.where(Report, investigator_email=investigator_email) if r.status in ("assigned", "investigating")
    ]
    return sorted(live, key=lambda r: (rank.get(r.severity or "low", 3), r.id))


# -- seed -------------------------------------------------------------------------------------

STORIES: tuple[tuple[Category, str, str, Severity | None, Status, bool], ...] = (
    (
        "conflict_of_interest",
        "Purchasing",
        "A buyer steers orders to a supplier owned by a relative.",
        None,
        "new",
        True,
    ),
    (
        "harassment",
        "Warehouse",
        "A shift lead makes repeated demeaning comments to new hires.",
        "high",
        "investigating",
        True,
    ),
    (
        "fraud",
        "Finance",
        "Expense reports with duplicated receipts are being approved.",
        "critical",
        "investigating",
        False,
    ),
    ("safety", "Plant 2", "Forklift alarms are disabled to speed up loading.", "medium", "assigned", False),
    ("theft", "Retail store", "Inventory counts keep coming up short after closing shifts.", "medium", "triaged", True),
    ("discrimination", "Sales", "Promotions go only to one group despite results.", "high", "closed", True),
    ("other", "IT", "Shared admin passwords are posted on a whiteboard.", None, "new", False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Reports at every stage from the company's employees, investigators from compliance, follow-ups, actions."""
    pop = s.population
    staff = list(pop.employees)
    investigators = pop.staff("Legal", "People", "Finance", fallback=3)
    for k, (cat, where, text, sev, status, anon) in enumerate(STORIES):
        reporter = staff[-1 - k]
        subject = staff[k + 5]
        inv = next(
            p
            for p in investigators[k % len(investigators) :] + investigators
            if p.email != reporter.email and p.email != subject.email
        )
        assigned = status in ("assigned", "investigating", "closed")
        r = s.create(
            Report,
            report_key=f"{(3100000000 + 104729 * (k + 1)) % 10**10:010d}",
            channel="phone" if k % 3 == 2 else "web",
            category=cat,
            location=where,
            description=text,
            anonymous=anon,
            reporter_email=None if anon else reporter.email,
            subject_name=subject.name if k % 2 == 1 else None,
            severity=sev,
            escalated=sev == "critical",
            investigator_email=inv.email if assigned else None,
            status=status,
            finding="unsubstantiated" if status == "closed" else None,
            closed_on=(s.now.date() if status == "closed" else None),
            created_at=s.ago(days=40 - 5 * k),
            updated_at=s.ago(days=max(1, 20 - 3 * k)),
        )
        if status in ("investigating", "closed"):
            s.create(
                Action,
                report_id=r.id,
                kind="interview",
                summary="Interviewed two witnesses from the team.",
                author_email=inv.email,
                created_at=s.ago(days=10),
            )
            s.create(
                FollowUp,
                report_id=r.id,
                direction="to_reporter",
                body="Were there other witnesses?",
                answered=status == "closed" or k == 2,
                created_at=s.ago(days=8),
            )
            if status == "closed" or k == 2:
                s.create(
                    FollowUp,
                    report_id=r.id,
                    direction="from_reporter",
                    body="Yes, two colleagues on my shift.",
                    created_at=s.ago(days=6),
                )
