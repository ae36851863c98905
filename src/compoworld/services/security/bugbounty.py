"""Bountyline: the company's bug bounty and vulnerability disclosure programs and the reports hackers send.

Modeled on the HackerOne API v1 (``/programs`` with ``structured_scopes``
(asset type and identifier, eligible for submission or bounty, max severity)
and a bounty table per severity; ``/reports`` with ``state`` new,
needs-more-info, triaged, resolved, duplicate, informative, not-applicable and
spam, a ``severity`` rating with a CVSS 3 score, an assignee, ``POST
/reports/{id}/state_changes``, ``/bounties`` awards with bonus, and disclosure
requests; hacker profiles with reputation).

Reports are submitted to a program that is not paused, against an asset of its
scope eligible for submission. States move new → needs-more-info or triaged,
then to resolved, or are closed as duplicate (of an earlier report of the same
program), informative, not-applicable or spam; a closed report can be reopened
to triaged. A severity must agree with its CVSS score (low 0.1-3.9, medium
4.0-6.9, high 7.0-8.9, critical 9.0-10.0) and cannot exceed the asset's maximum
severity. Bounties go to triaged or resolved reports of programs that offer
them, on assets eligible for bounty, within the program's bounty table for the
report's severity (the bonus on top is free). Disclosure is requested by the
reporter or the program for a resolved or informative report, and the report
is disclosed once the other party agrees.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "bugbounty",
    title="Bountyline",
    category="bug_bounty",
    modeled_on="HackerOne API v1: programs, structured scopes, reports (state changes, severity with CVSS, "
    "assignee, duplicates), bounties, disclosure requests, hackers",
    description="Bug bounty and vulnerability disclosure for the company: programs with their scope and bounty "
    "table, the reports hackers submit with their severity and triage state, duplicates, bounties awarded, "
    "and public disclosure of fixed reports.",
)

ProgramId = Annotated[str, IdOf("bugbounty.program")]
ScopeId = Annotated[str, IdOf("bugbounty.scope")]
HackerId = Annotated[str, IdOf("bugbounty.hacker")]
ReportId = Annotated[str, IdOf("bugbounty.report")]
BountyId = Annotated[str, IdOf("bugbounty.bounty")]

Handle = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{2,39}$")]
"""A program handle or hacker username."""
Cvss = Annotated[float, Field(ge=0, le=10)]
"""A CVSS 3 base score."""

ProgramState = Literal["private", "public", "paused"]
AssetType = Literal["URL", "WILDCARD", "CIDR", "SOURCE_CODE", "APPLE_STORE_APP_ID", "GOOGLE_PLAY_APP_ID"]
Severity = Literal["none", "low", "medium", "high", "critical"]
ReportState = Literal[
    "new", "needs-more-info", "triaged", "resolved", "duplicate", "informative", "not-applicable", "spam"
]
Party = Literal["reporter", "program"]
DisclosureState = Literal["none", "requested", "disclosed"]

SEVERITIES: tuple[Severity, ...] = ("none", "low", "medium", "high", "critical")
CLOSED: tuple[ReportState, ...] = ("resolved", "duplicate", "informative", "not-applicable", "spam")
MOVES: dict[str, tuple[ReportState, ...]] = {
    "new": ("needs-more-info", "triaged", "duplicate", "informative", "not-applicable", "spam"),
    "needs-more-info": ("new", "triaged", "duplicate", "informative", "not-applicable", "spam"),
    "triaged": ("resolved", "duplicate", "informative", "not-applicable"),
    **{s: ("triaged",) for s in CLOSED},
}


class BountyRange(Value):
    """The bounty range a program pays for one severity."""

    severity: Severity
    """The severity."""
    min_cents: Cents
    """The least it pays."""
    max_cents: Cents
    """The most it pays."""


class Program(Record):
    """A bug bounty or vulnerability disclosure program."""

    id: ProgramId
    handle: Handle
    """Its handle (unique)."""
    name: Title
    """Its name."""
    state: ProgramState = "private"
    """private (invited hackers), public or paused (no new reports)."""
    offers_bounties: bool = True
    """Whether it pays bounties (false: a vulnerability disclosure program)."""
    bounty_table: tuple[BountyRange, ...] = ()
    """What it pays per severity."""
    policy: Text = ""
    """Its rules of engagement."""
    manager_email: Email
    """The employee who runs it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was launched."""


class Scope(Record):
    """An asset in a program's structured scope."""

    id: ScopeId
    program_id: ProgramId
    """The program."""
    asset_type: AssetType
    """URL, WILDCARD, CIDR, SOURCE_CODE, APPLE_STORE_APP_ID or GOOGLE_PLAY_APP_ID."""
    asset_identifier: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The asset (a domain, *.domain, a range, a repository, an app id)."""
    eligible_for_submission: bool = True
    """Whether reports on it are accepted (false: out of scope)."""
    eligible_for_bounty: bool = True
    """Whether reports on it earn bounties."""
    max_severity: Severity = "critical"
    """The highest severity a report on it can have."""
    instruction: Text = ""
    """Testing notes."""


class Hacker(Record):
    """A hacker who reports vulnerabilities."""

    id: HackerId
    username: Handle
    """Their username (unique)."""
    name: PersonName
    """Their name."""
    email: Email
    """Their e-mail."""
    reputation: int = 0
    """Reputation points."""
    signal: Annotated[float, Field(ge=-10, le=7)] = 0.0
    """Average reputation per report."""


class Report(Record):
    """A vulnerability report."""

    id: ReportId
    program_id: ProgramId
    """The program."""
    scope_id: ScopeId | None = None
    """The affected asset."""
    hacker_id: HackerId
    """The reporter."""
    title: Title
    """Its title."""
    vulnerability_information: Text = ""
    """Steps to reproduce and impact."""
    weakness: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The weakness (CWE name)."""
    severity: Severity = "none"
    """none, low, medium, high or critical."""
    cvss_score: Cvss = 0.0
    """CVSS 3 base score."""
    state: ReportState = "new"
    """new, needs-more-info, triaged, resolved, duplicate, informative, not-applicable or spam."""
    assignee_email: Email | None = None
    """The employee handling it."""
    original_report_id: ReportId | None = None
    """For a duplicate: the report it duplicates."""
    bounty_cents: Cents = 0
    """Bounties and bonuses awarded in all."""
    disclosure: DisclosureState = "none"
    """none, requested or disclosed."""
    disclosure_requested_by: Party | None = None
    """Who asked for disclosure."""
    submitted_at: DateTime
    """When it was submitted."""
    triaged_at: DateTime | None = None
    """When it was first triaged."""
    closed_at: DateTime | None = None
    """When it was closed."""
    disclosed_at: DateTime | None = None
    """When it was disclosed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Bounty(Record):
    """A bounty awarded on a report."""

    id: BountyId
    report_id: ReportId
    """The report."""
    amount_cents: Cents
    """The bounty."""
    bonus_cents: Cents = 0
    """A bonus on top."""
    awarded_by: Email
    """The employee awarding it."""
    message: Text = ""
    """A note to the hacker."""
    created_at: Annotated[DateTime, CREATED]
    """When it was awarded."""


class ProgramMetrics(Value):
    """A program's report workload and payouts."""

    program_id: ProgramId
    """The program."""
    reports_by_state: dict[ReportState, int]
    """Reports per state."""
    open_reports: int
    """Reports not yet closed."""
    paid_cents: int
    """Bounties and bonuses paid in all."""
    median_hours_to_triage: float | None
    """Median hours from submission to triage (none: no triaged report)."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a member of the program team", field=field, hint="use an employee")


def _band(score: float) -> Severity:
    return (
        "none" if score == 0 else "low" if score < 4 else "medium" if score < 7 else "high" if score < 9 else "critical"
    )


def _guard_report(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.assignee_email, "assignee_email")


def _guard_scope(ctx: Ctx, new: Any, old: Any) -> None:
    for s in ctx.where(Scope, program_id=new.program_id, asset_identifier=new.asset_identifier):
        if s.id != new.id:
            raise Conflict(f"{new.asset_identifier} is already in scope", field="asset_identifier", hint="update it")


def _guard_scope_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Report, scope_id=old.id) is not None:
        raise Conflict(
            f"reports reference {old.asset_identifier}",
            field="scope_id",
            hint="set eligible_for_submission to false instead",
        )


def _guard_table(ctx: Ctx, new: Any, old: Any) -> None:
    seen = set()
    for r in new.bounty_table:
        if r.min_cents > r.max_cents or r.severity in seen:
            raise RuleViolation(
                f"bad bounty range for {r.severity}", field="bounty_table", hint="one range per severity, min ≤ max"
            )
        seen.add(r.severity)


programs = service.resource(
    Program,
    name="program",
    plural="programs",
    prefix="prog",
    create=False,
    filters=("handle", "state", "offers_bounties", "manager_email"),
    search=("name", "policy"),
    update=("name", "policy", "bounty_table", "offers_bounties", "manager_email"),
    delete=False,
    transitions={
        "pause": Transition("state", ("private", "public"), "paused", "pause the program"),
        "resume": Transition("state", ("paused",), "private", "resume the program as private"),
        "publish": Transition("state", ("private",), "public", "make the program public"),
    },
    guard_update=_guard_table,
)
scopes = service.resource(
    Scope,
    name="scope",
    plural="scopes",
    prefix="scope",
    create=(
        "program_id",
        "asset_type",
        "asset_identifier",
        "eligible_for_submission",
        "eligible_for_bounty",
        "max_severity",
        "instruction",
    ),
    get=False,
    filters=("program_id", "asset_type", "eligible_for_bounty", "eligible_for_submission"),
    search=("asset_identifier",),
    update=("eligible_for_submission", "eligible_for_bounty", "max_severity", "instruction"),
    guard_create=_guard_scope,
    guard_delete=_guard_scope_delete,
    title="structured scope",
)
hackers = service.resource(
    Hacker,
    name="hacker",
    plural="hackers",
    prefix="hkr",
    create=False,
    filters=("username", "email"),
    search=("username", "name"),
    delete=False,
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rep",
    create=False,
    filters=("program_id", "state", "severity", "hacker_id", "assignee_email", "scope_id", "disclosure"),
    search=("title", "weakness"),
    update=("assignee_email",),
    delete=False,
    guard_update=_guard_report,
)
bounties = service.resource(
    Bounty,
    name="bounty",
    plural="bounties",
    prefix="bty",
    create=False,
    filters=("report_id", "awarded_by"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for scope in ctx.where(Scope, eligible_for_submission=True):
        if ctx.get(Program, scope.program_id).state != "paused":
            h = next(iter(ctx.scan(Hacker)), None)
            if h is not None:
                return {
                    "program_id": scope.program_id,
                    "scope_id": scope.id,
                    "hacker_id": h.id,
                    "title": "Stored XSS in profile bio",
                    "weakness": "Cross-site Scripting (XSS) - Stored",
                    "vulnerability_information": "1. Set bio to <svg onload=alert(1)> 2. Visit profile.",
                }
    return None


@service.tool(intent="submit a vulnerability report", write=True, example=_example_submit)
def submit_report(
    ctx: Ctx,
    program_id: ProgramId,
    hacker_id: HackerId,
    title: Title,
    weakness: Annotated[str, StringConstraints(min_length=1, max_length=120)],
    scope_id: ScopeId | None = None,
    vulnerability_information: Text = "",
) -> Report:
    """A hacker submits a report to a program that is not paused, on an asset of its scope open to submissions.

    Args:
        program_id: The program.
        hacker_id: The reporter.
        title: Its title.
        weakness: The weakness (CWE name).
        scope_id: The affected asset of the program's scope.
        vulnerability_information: Steps to reproduce and impact.
    """
    program = ctx.get(Program, program_id, field="program_id")
    ctx.get(Hacker, hacker_id, field="hacker_id")
    if program.state == "paused":
        raise RuleViolation(
            f"program {program.handle} is paused", field="program_id", hint="submit when it accepts reports again"
        )
    if scope_id is not None:
        scope = ctx.get(Scope, scope_id, field="scope_id")
        if scope.program_id != program.id or not scope.eligible_for_submission:
            raise RuleViolation(
                f"{scope.asset_identifier} is not in scope of {program.handle}",
                field="scope_id",
                hint="pick an asset from bugbounty__list_scopes eligible for submission",
            )
    return ctx.create(
        Report,
        program_id=program.id,
        hacker_id=hacker_id,
        scope_id=scope_id,
        title=title,
        weakness=weakness,
        vulnerability_information=vulnerability_information,
        submitted_at=ctx.now(),
    )


@service.tool(
    intent="rate the report's severity",
    write=True,
    example=first_example(Report, "report_id", where={"state": "new"}, severity="medium", cvss_score=5.4),
)
def set_report_severity(ctx: Ctx, report_id: ReportId, severity: Severity, cvss_score: Cvss) -> Report:
    """Rate a report's severity with its CVSS 3 score; the two must agree and not exceed the asset's maximum.

    Args:
        report_id: The report.
        severity: none, low, medium, high or critical.
        cvss_score: The CVSS 3 base score (low 0.1-3.9, medium 4.0-6.9, high 7.0-8.9, critical 9.0-10.0).
    """
    report = ctx.get(Report, report_id, field="report_id")
    if _band(cvss_score) != severity:
        raise RuleViolation(
            f"a CVSS score of {cvss_score} is {_band(cvss_score)}, not {severity}",
            field="severity",
            hint=f"rate it {_band(cvss_score)} or fix the score",
        )
    if report.scope_id is not None:
        cap = ctx.get(Scope, report.scope_id).max_severity
        if SEVERITIES.index(severity) > SEVERITIES.index(cap):
            raise RuleViolation(
                f"the asset's maximum severity is {cap}", field="severity", hint=f"rate it {cap} or lower"
            )
    return ctx.update(report, severity=severity, cvss_score=cvss_score)


def _example_state(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Report, state="new")
    return None if r is None else {"report_id": r.id, "state": "triaged", "message": "Reproduced, thanks!"}


@service.tool(intent="change the report's state", write=True, example=_example_state)
def change_report_state(
    ctx: Ctx, report_id: ReportId, state: ReportState, message: Text = "", original_report_id: ReportId | None = None
) -> Report:
    """Move a report along its workflow (triage, ask for information, resolve, close, reopen).

    Args:
        report_id: The report.
        state: The new state; a closed report can only be reopened to triaged.
        message: The note to the hacker.
        original_report_id: For duplicate: the earlier report of the same program it duplicates.
    """
    report = ctx.get(Report, report_id, field="report_id")
    allowed = MOVES[report.state]
    if state not in allowed:
        raise RuleViolation(
            f"a {report.state} report cannot move to {state}", field="state", hint="move it to " + ", ".join(allowed)
        )
    changes: dict[str, Any] = {"state": state, "original_report_id": None}
    now = ctx.now()
    if state == "duplicate":
        if original_report_id is None:
            raise RuleViolation("a duplicate needs the original report", field="original_report_id", hint="name it")
        original = ctx.get(Report, original_report_id, field="original_report_id")
        if original.id == report.id or original.program_id != report.program_id or original.state == "duplicate":
            raise RuleViolation(
                "the original must be another, non-duplicate report of the same program",
                field="original_report_id",
                hint="search the program's reports with bugbounty__list_reports",
            )
        if original.submitted_at > report.submitted_at:
            raise RuleViolation(
                "the original was submitted later", field="original_report_id", hint="close the later report instead"
            )
        changes["original_report_id"] = original.id
    if state == "triaged" and report.triaged_at is None:
        changes["triaged_at"] = now
    changes["closed_at"] = now if state in CLOSED else None
    return ctx.update(report, **changes)


def _example_award(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Report, state="triaged"):
        p = ctx.get(Program, r.program_id)
        band = next((b for b in p.bounty_table if b.severity == r.severity), None)
        scope = ctx.find(Scope, r.scope_id) if r.scope_id else None
        if p.offers_bounties and band is not None and (scope is None or scope.eligible_for_bounty):
            return {"report_id": r.id, "amount_cents": band.min_cents, "awarded_by": p.manager_email}
    return None


@service.tool(intent="award a bounty for the report", write=True, example=_example_award)
def award_bounty(
    ctx: Ctx, report_id: ReportId, amount_cents: Cents, awarded_by: Email, bonus_cents: Cents = 0, message: Text = ""
) -> Bounty:
    """Award a bounty on a triaged or resolved report, within the program's range for its severity.

    Args:
        report_id: The report.
        amount_cents: The bounty, within the bounty table's range for the report's severity.
        awarded_by: The employee awarding it.
        bonus_cents: A bonus on top (any amount).
        message: A note to the hacker.
    """
    report = ctx.get(Report, report_id, field="report_id")
    _staff(ctx, awarded_by, "awarded_by")
    program = ctx.get(Program, report.program_id)
    if report.state not in ("triaged", "resolved"):
        raise RuleViolation(
            f"a {report.state} report earns no bounty", field="report_id", hint="triage or resolve it first"
        )
    if not program.offers_bounties:
        raise RuleViolation(
            f"{program.handle} does not offer bounties", field="report_id", hint="thank the hacker instead"
        )
    if report.scope_id is not None and not ctx.get(Scope, report.scope_id).eligible_for_bounty:
        raise RuleViolation("the asset is not eligible for bounty", field="report_id", hint="award no bounty")
    band = next((b for b in program.bounty_table if b.severity == report.severity), None)
    if band is None:
        raise RuleViolation(
            f"the bounty table has no range for {report.severity}",
            field="report_id",
            hint="rate the report's severity with bugbounty__set_report_severity first",
        )
    if not band.min_cents <= amount_cents <= band.max_cents:
        raise RuleViolation(
            f"a {report.severity} bounty is {band.min_cents}-{band.max_cents} cents",
            field="amount_cents",
            hint="pay within the table and put anything more in bonus_cents",
        )
    ctx.update(report, bounty_cents=report.bounty_cents + amount_cents + bonus_cents)
    hacker = ctx.get(Hacker, report.hacker_id)
    ctx.update(hacker, reputation=hacker.reputation + 7)
    return ctx.create(
        Bounty,
        report_id=report.id,
        amount_cents=amount_cents,
        bonus_cents=bonus_cents,
        awarded_by=awarded_by,
        message=message,
    )


@service.tool(
    intent="request disclosure of the report",
    write=True,
    example=first_example(Report, "report_id", where={"state": "resolved", "disclosure": "none"}, party="reporter"),
)
def request_disclosure(ctx: Ctx, report_id: ReportId, party: Party) -> Report:
    """Ask to disclose a resolved or informative report publicly; the other party must agree.

    Args:
        report_id: The report.
        party: Who asks: reporter or program.
    """
    report = ctx.get(Report, report_id, field="report_id")
    if report.state not in ("resolved", "informative"):
        raise RuleViolation(
            f"a {report.state} report cannot be disclosed", field="report_id", hint="resolve the report first"
        )
    if report.disclosure != "none":
        raise Conflict(f"disclosure is already {report.disclosure}", field="report_id", hint="nothing to do")
    return ctx.update(report, disclosure="requested", disclosure_requested_by=party)


@service.tool(
    intent="agree to disclose the report",
    write=True,
    example=first_example(Report, "report_id", where={"disclosure": "requested"}, party="program"),
)
def agree_to_disclosure(ctx: Ctx, report_id: ReportId, party: Party) -> Report:
    """The other party agrees to a disclosure request: the report becomes public.

    Args:
        report_id: The report.
        party: Who agrees: reporter or program (not the one who asked).
    """
    report = ctx.get(Report, report_id, field="report_id")
    if report.disclosure != "requested":
        raise Conflict(
            f"disclosure of {report.id} is {report.disclosure}",
            field="report_id",
            hint="request it first with bugbounty__request_disclosure",
        )
    if party == report.disclosure_requested_by:
        raise RuleViolation(f"the {party} asked for this disclosure", field="party", hint="the other party must agree")
    return ctx.update(report, disclosure="disclosed", disclosed_at=ctx.now())


def _example_program(ctx: Ctx) -> dict[str, Any] | None:
    return {"handle": "acme-labs", "name": "Acme Labs", "manager_email": ctx.population.employees[0].email}


@service.tool(intent="launch a program", write=True, example=_example_program)
def create_program(
    ctx: Ctx, handle: Handle, name: Title, manager_email: Email, offers_bounties: bool = False, policy: Text = ""
) -> Program:
    """Launch a private program (a vulnerability disclosure program unless it offers bounties).

    Args:
        handle: Its handle (unique).
        name: Its name.
        manager_email: The employee who runs it.
        offers_bounties: Whether it pays bounties (set the bounty table with bugbounty__update_program).
        policy: Its rules of engagement.
    """
    if ctx.first(Program, handle=handle) is not None:
        raise Conflict(f"handle {handle} is taken", field="handle", hint="pick another handle")
    _staff(ctx, manager_email, "manager_email")
    return ctx.create(
        Program, handle=handle, name=name, manager_email=manager_email, offers_bounties=offers_bounties, policy=policy
    )


@service.tool(intent="show the program's metrics", example=first_example(Program, "program_id"))
def program_metrics(ctx: Ctx, program_id: ProgramId) -> ProgramMetrics:
    """A program's reports per state, open reports, bounties paid and median time to triage.

    Args:
        program_id: The program.
    """
    program = ctx.get(Program, program_id, field="program_id")
    found = ctx.where(Report, program_id=program.id)
    counts: dict[ReportState, int] = {}
    for r in found:
        counts[r.state] = counts.get(r.state, 0) + 1
    hours = sorted((r.triaged_at - r.submitted_at).total_seconds() / 3600 for r in found if r.triaged_at is not None)
    median = None if not hours else round((hours[(len(hours) - 1) // 2] + hours[len(hours) // 2]) / 2, 1)
    return ProgramMetrics(
        program_id=program.id,
        reports_by_state=counts,
        open_reports=sum(r.state not in CLOSED for r in found),
        paid_cents=sum(r.bounty_cents for r in found),
        median_hours_to_triage=median,
    )


# -- seed -------------------------------------------------------------------------------------

TABLE = (("low", 10000, 50000), ("medium", 50000, 150000), ("high", 150000, 500000), ("critical", 500000, 1500000))
FINDINGS: tuple[tuple[str, str, Severity, float, ReportState], ...] = (
    (
        "IDOR on /api/v2/invoices exposes other customers' invoices",
        "Insecure Direct Object Reference (IDOR)",
        "high",
        7.5,
        "resolved",
    ),
    ("Stored XSS in support ticket subject", "Cross-site Scripting (XSS) - Stored", "medium", 5.4, "triaged"),
    (
        "SSRF via PDF export URL fetches internal metadata",
        "Server-Side Request Forgery (SSRF)",
        "critical",
        9.1,
        "triaged",
    ),
    ("Open redirect on /logout?next=", "Open Redirect", "low", 3.1, "informative"),
    ("Missing SPF record on marketing domain", "Improper Authentication - Generic", "none", 0.0, "not-applicable"),
    ("IDOR on invoice download endpoint", "Insecure Direct Object Reference (IDOR)", "high", 7.5, "duplicate"),
    (
        "Account takeover through password reset token reuse",
        "Improper Authentication - Generic",
        "critical",
        9.8,
        "resolved",
    ),
    ("Rate limit missing on login", "Improper Restriction of Authentication Attempts", "none", 0.0, "new"),
    ("Reflected XSS in search parameter", "Cross-site Scripting (XSS) - Reflected", "none", 0.0, "new"),
    ("Verbose stack traces on 500 errors", "Information Disclosure", "low", 2.7, "needs-more-info"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three programs with scopes, hackers from the public, reports in every state, bounties and a disclosure."""
    pop = s.population
    org = pop.home.domain.split(".")[0]
    sec = pop.staff("Engineering", "IT", fallback=3)
    table = tuple(BountyRange(severity=sv, min_cents=lo, max_cents=hi) for sv, lo, hi in TABLE)
    main = s.create(
        Program,
        handle=org[:30],
        name=f"{pop.home.name} Bug Bounty",
        state="public",
        bounty_table=table,
        policy="No social engineering or denial of service. Test only your own accounts.",
        manager_email=sec[0].email,
        created_at=s.ago(days=700),
    )
    vdp = s.create(
        Program,
        handle=f"{org[:30]}-vdp",
        name=f"{pop.home.name} Vulnerability Disclosure",
        state="public",
        offers_bounties=False,
        manager_email=sec[0].email,
        created_at=s.ago(days=900),
    )
    mobile = s.create(
        Program,
        handle=f"{org[:30]}-mobile",
        name=f"{pop.home.name} Mobile (private)",
        state="private",
        bounty_table=table,
        manager_email=sec[1 % len(sec)].email,
        created_at=s.ago(days=200),
    )
    s.create(
        Program,
        handle=f"{org[:30]}-legacy",
        name="Legacy acquisitions",
        state="paused",
        bounty_table=table,
        manager_email=sec[0].email,
        policy="Paused while the acquired apps migrate.",
        created_at=s.ago(days=400),
    )
    domain = pop.home.domain
    scopes = [
        s.create(Scope, program_id=main.id, asset_type="URL", asset_identifier=f"app.{domain}"),
        s.create(Scope, program_id=main.id, asset_type="URL", asset_identifier=f"api.{domain}"),
        s.create(
            Scope,
            program_id=main.id,
            asset_type="WILDCARD",
            asset_identifier=f"*.{domain}",
            max_severity="high",
            eligible_for_bounty=False,
        ),
        s.create(
            Scope,
            program_id=main.id,
            asset_type="URL",
            asset_identifier=f"blog.{domain}",
            eligible_for_submission=False,
            eligible_for_bounty=False,
            instruction="Third-party hosted.",
        ),
        s.create(
            Scope, program_id=vdp.id, asset_type="WILDCARD", asset_identifier=f"*.{domain}", eligible_for_bounty=False
        ),
        s.create(Scope, program_id=mobile.id, asset_type="GOOGLE_PLAY_APP_ID", asset_identifier=f"com.{org}.app"),
    ]
    hackers = []
    for k, p in enumerate((pop.consumers or pop.contacts)[:6]):
        handle = "".join(ch for ch in fold(f"{p.first_name}{p.last_name}").replace(" ", "") if ch.isalnum())
        hackers.append(
            s.create(
                Hacker,
                username=f"{handle[:24] or 'hacker'}{k}",
                name=f"{p.first_name} {p.last_name}",
                email=p.email,
                reputation=50 + 300 * (k % 4),
                signal=round(2.0 + k * 0.7, 1),
            )
        )
    made: list[Report] = []
    for k, (title, weakness, sev, score, state) in enumerate(FINDINGS):
        submitted = s.ago(days=120 - 11 * k)
        scope = scopes[(0, 1, 1, 0, 4, 0, 0, 1, 0, 2)[k]]
        triaged = submitted + dt.timedelta(hours=6 + 5 * k) if state in ("triaged", "resolved", "duplicate") else None
        closed = submitted + dt.timedelta(days=3 + k) if state in CLOSED else None
        made.append(
            s.create(
                Report,
                program_id=scope.program_id,
                scope_id=scope.id,
                hacker_id=hackers[k % len(hackers)].id,
                title=title,
                weakness=weakness,
                severity=sev,
                cvss_score=score,
                state=state,
                assignee_email=sec[k % len(sec)].email if state != "new" else None,
                original_report_id=made[0].id if state == "duplicate" else None,
                submitted_at=submitted,
                triaged_at=triaged,
                closed_at=closed,
                disclosure="disclosed" if k == 0 else "requested" if k == 6 else "none",
                disclosure_requested_by="reporter" if k == 0 else "program" if k == 6 else None,
                disclosed_at=closed + dt.timedelta(days=30) if k == 0 and closed else None,
                updated_at=closed or triaged or submitted,
            )
        )
    for r in made:
        if r.state in ("resolved", "triaged") and r.program_id == main.id and r.scope_id != scopes[2].id:
            band = next(b for b in table if b.severity == r.severity)
            bonus = 25000 if r.severity == "critical" else 0
            s.create(
                Bounty,
                report_id=r.id,
                amount_cents=band.min_cents,
                bonus_cents=bonus,
                awarded_by=sec[0].email,
                message="Thanks for the great report!",
                created_at=(r.triaged_at or r.submitted_at),
            )
            s.update(r, bounty_cents=band.min_cents + bonus)
