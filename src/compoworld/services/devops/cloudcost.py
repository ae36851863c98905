"""Tallymeter: cloud cost management (costs, cost reports, budgets and alerts, anomalies, recommendations).

Modeled on the Vantage API: monthly costs per provider (aws, gcp, azure,
datadog, snowflake), service, region and team (the "team" virtual tag); cost
reports with filters over providers, services and teams and a grouping, owned by
a team; budgets on a cost report with a monthly amount and alert thresholds
whose evaluation fires each threshold once a month; cost anomalies (active,
acknowledged, archived, with ok/not_ok feedback); savings recommendations
(rightsizing, reserved instances, savings plans, unused resources) that are
assigned, dismissed with a reason or marked implemented; and teams of members.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "cloudcost",
    title="Tallymeter",
    category="cloud_cost",
    modeled_on="Vantage API: costs, cost_reports with filters, budgets and budget alerts, anomaly_alerts, "
    "recommendations, virtual tags, teams",
    description="Cloud cost management: monthly spend per provider, service, region and team, saved cost "
    "reports, budgets with alert thresholds, detected cost anomalies, savings recommendations and who owns "
    "them, and the teams that own reports.",
)

TeamId = Annotated[str, IdOf("cloudcost.team")]
CostId = Annotated[str, IdOf("cloudcost.cost")]
ReportId = Annotated[str, IdOf("cloudcost.cost_report")]
BudgetId = Annotated[str, IdOf("cloudcost.budget")]
AlertId = Annotated[str, IdOf("cloudcost.budget_alert")]
AnomalyId = Annotated[str, IdOf("cloudcost.anomaly")]
RecId = Annotated[str, IdOf("cloudcost.recommendation")]

Provider = Literal["aws", "gcp", "azure", "datadog", "snowflake"]
GroupBy = Literal["provider", "service", "region", "team"]
AnomalyStatus = Literal["active", "acknowledged", "archived"]
Feedback = Literal["none", "ok", "not_ok"]
RecCategory = Literal["rightsizing", "reserved_instances", "savings_plan", "unused_resource"]
RecStatus = Literal["open", "dismissed", "implemented"]
TeamName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]{1,39}$")]
"""A team slug (platform, data-eng)."""


class Team(Timestamped):
    """A team: the value of the team virtual tag, and owner of reports and budgets."""

    id: TeamId
    name: TeamName
    """Its slug (unique)."""
    member_emails: tuple[Email, ...] = ()
    """Its members."""


class Cost(Record):
    """One month of spend for a provider, service, region and team."""

    id: CostId
    month: Date
    """First day of the month."""
    provider: Provider
    """aws, gcp, azure, datadog or snowflake."""
    service: Title
    """The provider's service (Amazon EC2, BigQuery)."""
    region: Title
    """The region (global for SaaS)."""
    team: TeamName
    """The team virtual tag."""
    amount: Cents
    """Spend in cents (USD)."""


class CostReport(Timestamped):
    """A saved cost report: filters and a grouping."""

    id: ReportId
    title: Title
    """Its title."""
    providers: tuple[Provider, ...] = ()
    """Providers included (empty: all)."""
    services: tuple[Title, ...] = ()
    """Services included (empty: all)."""
    teams: tuple[TeamName, ...] = ()
    """Teams included (empty: all)."""
    group_by: GroupBy = "service"
    """provider, service, region or team."""
    owner_team_id: TeamId | None = None
    """The team that owns it."""


class Budget(Timestamped):
    """A monthly budget on a cost report."""

    id: BudgetId
    name: Title
    """Its name."""
    cost_report_id: ReportId
    """The report whose spend counts."""
    amount: Cents
    """Monthly budget in cents."""
    thresholds: tuple[Annotated[int, Field(ge=1, le=200)], ...] = (80, 100)
    """Percent of the amount at which alerts fire."""
    alert_emails: tuple[Email, ...]
    """Who is alerted."""


class BudgetAlert(Created):
    """A threshold of a budget crossed in a month."""

    id: AlertId
    budget_id: BudgetId
    """The budget."""
    month: Date
    """The month."""
    threshold: int
    """The percent crossed."""
    spend: Cents
    """Spend when it fired."""
    recipients: tuple[Email, ...]
    """Who was alerted."""


class Anomaly(Timestamped):
    """A detected cost spike."""

    id: AnomalyId
    provider: Provider
    """The provider."""
    service: Title
    """The service."""
    team: TeamName
    """The team."""
    detected_on: Date
    """When it was detected."""
    expected: Cents
    """Expected daily spend."""
    actual: Cents
    """Actual daily spend."""
    status: AnomalyStatus = "active"
    """active, acknowledged or archived."""
    feedback: Feedback = "none"
    """ok (expected) or not_ok (a real problem)."""
    note: Text = ""
    """Notes."""


class Recommendation(Timestamped):
    """A savings recommendation."""

    id: RecId
    provider: Provider
    """The provider."""
    category: RecCategory
    """rightsizing, reserved_instances, savings_plan or unused_resource."""
    resource: Title
    """The resource concerned (i-0abc…, a database, a commitment)."""
    description: Text
    """What to do."""
    monthly_savings: Cents
    """Estimated savings per month."""
    team: TeamName
    """The team that owns the resource."""
    status: RecStatus = "open"
    """open, dismissed or implemented."""
    assignee: Email | None = None
    """Who acts on it."""
    reason: Text = ""
    """Why it was dismissed."""


class CostLine(Value):
    """Spend of one group."""

    key: str
    """The group's value (a service, a team…)."""
    amount: int
    """Spend in cents."""


class ReportResult(Value):
    """A cost report's spend for a month."""

    cost_report_id: ReportId
    """The report."""
    month: str
    """The month (YYYY-MM-01)."""
    total: int
    """Total in cents."""
    lines: list[CostLine]
    """Spend per group, largest first."""


# -- rules ------------------------------------------------------------------------------------


def _team_names(ctx: Ctx) -> set[str]:
    return {t.name for t in ctx.scan(Team)}


def _guard_team(ctx: Ctx, new: Any, old: Any) -> None:
    for t in ctx.where(Team, name=new.name):
        if t.id != new.id:
            raise Conflict(f"team {new.name} exists", field="name", hint="pick another name")
    for email in new.member_emails:
        require_employee(ctx, email, field="member_emails", hint="teams are made of staff")


def _guard_report(ctx: Ctx, new: Any, old: Any) -> None:
    known = _team_names(ctx)
    for t in new.teams:
        if t not in known:
            raise RuleViolation(f"no team {t}", field="teams", hint="see list_teams")
    if new.owner_team_id is not None:
        ctx.get(Team, new.owner_team_id, field="owner_team_id")


def _delete_report(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Budget, cost_report_id=old.id) is not None:
        raise Conflict(f"report {old.title!r} has a budget", field="cost_report_id", hint="delete the budget first")


def _guard_budget(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(CostReport, new.cost_report_id, field="cost_report_id")
    if new.amount <= 0:
        raise RuleViolation("a budget needs a positive amount", field="amount", hint="cents per month")
    if not new.thresholds or list(new.thresholds) != sorted(set(new.thresholds)):
        raise RuleViolation("thresholds must rise, each once", field="thresholds", hint="e.g. [50, 80, 100]")
    if not new.alert_emails:
        raise RuleViolation("a budget alerts someone", field="alert_emails", hint="list staff e-mails")
    for email in new.alert_emails:
        require_employee(ctx, email, field="alert_emails", hint="budget alerts go to staff")


def _delete_budget(ctx: Ctx, new: Any, old: Any) -> None:
    for a in ctx.where(BudgetAlert, budget_id=old.id):
        ctx.delete(a)


teams = service.resource(
    Team,
    name="team",
    plural="teams",
    prefix="team",
    create=False,
    get=False,
    filters=("name",),
    update=("member_emails",),
    delete=False,
    guard_create=_guard_team,
    guard_update=_guard_team,
)
costs = service.resource(
    Cost,
    name="cost",
    plural="costs",
    prefix="cost",
    create=False,
    get=False,
    filters=("month", "provider", "service", "region", "team"),
    delete=False,
)
reports = service.resource(
    CostReport,
    name="cost_report",
    plural="cost_reports",
    prefix="rprt",
    guard_delete=_delete_report,
    guard_create=_guard_report,
    guard_update=_guard_report,
    create=("title", "providers", "services", "teams", "group_by", "owner_team_id"),
    update=("title", "providers", "services", "teams", "group_by", "owner_team_id"),
    filters=("group_by", "owner_team_id"),
    search=("title",),
)
budgets = service.resource(
    Budget,
    name="budget",
    plural="budgets",
    prefix="bdgt",
    create=("name", "cost_report_id", "amount", "thresholds", "alert_emails"),
    filters=("cost_report_id",),
    search=("name",),
    update=("name", "amount", "thresholds", "alert_emails"),
    guard_create=_guard_budget,
    guard_update=_guard_budget,
    guard_delete=_delete_budget,
)
alerts = service.resource(
    BudgetAlert,
    name="budget_alert",
    plural="budget_alerts",
    prefix="balrt",
    create=False,
    get=False,
    filters=("budget_id", "month", "threshold"),
    delete=False,
)
anomalies = service.resource(
    Anomaly,
    name="anomaly",
    plural="anomalies",
    prefix="anom",
    create=False,
    filters=("provider", "service", "team", "status", "feedback"),
    delete=False,
)
recommendations = service.resource(
    Recommendation,
    name="recommendation",
    plural="recommendations",
    prefix="rec",
    create=False,
    filters=("provider", "category", "team", "status", "assignee"),
    search=("resource", "description"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_team(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "mobile", "member_emails": [ctx.population.employees[0].email]}


@service.tool(intent="create the team", write=True, example=_example_team)
def create_team(ctx: Ctx, name: TeamName, member_emails: list[Email]) -> Team:
    """Create a team; its slug becomes a value of the team virtual tag.

    Args:
        name: Lower-case slug (mobile, data-eng).
        member_emails: Its members (staff).
    """
    if ctx.first(Team, name=name) is not None:
        raise Conflict(f"team {name} exists", field="name", hint="pick another name")
    for email in member_emails:
        require_employee(ctx, email, field="member_emails", hint="teams are made of staff")
    return ctx.create(Team, name=name, member_emails=tuple(member_emails))


def _month(day: dt.date) -> dt.date:
    return day.replace(day=1)


def _spend(ctx: Ctx, rep: CostReport, month: dt.date) -> list[Cost]:
    return [
        c
        for c in ctx.where(Cost, month=month)
        if (not rep.providers or c.provider in rep.providers)
        and (not rep.services or c.service in rep.services)
        and (not rep.teams or c.team in rep.teams)
    ]


@service.tool(intent="show the cost report's spend", example=first_example(CostReport, "cost_report_id"))
def report_costs(ctx: Ctx, cost_report_id: ReportId, month: Date | None = None) -> ReportResult:
    """A cost report's spend for a month, grouped as the report says, largest group first.

    Args:
        cost_report_id: The report.
        month: Any day of the month (default: the current month).
    """
    rep = ctx.get(CostReport, cost_report_id, field="cost_report_id")
    first = _month(month or ctx.today())
    groups: dict[str, int] = {}
    for c in _spend(ctx, rep, first):
        key = str(getattr(c, rep.group_by))
        groups[key] = groups.get(key, 0) + c.amount
    lines = [CostLine(key=k, amount=v) for k, v in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))]
    return ReportResult(cost_report_id=rep.id, month=first.isoformat(), total=sum(groups.values()), lines=lines)


@service.tool(intent="evaluate the budget", write=True, example=first_example(Budget, "budget_id"))
def evaluate_budget(ctx: Ctx, budget_id: BudgetId) -> list[BudgetAlert]:
    """Compare this month's spend of a budget's report with its amount; fire each newly crossed threshold.

    A threshold fires once a month; the alerts fired now are returned (none: nothing new crossed).

    Args:
        budget_id: The budget.
    """
    bud = ctx.get(Budget, budget_id, field="budget_id")
    month = _month(ctx.today())
    spend = sum(c.amount for c in _spend(ctx, ctx.get(CostReport, bud.cost_report_id), month))
    fired = {a.threshold for a in ctx.where(BudgetAlert, budget_id=bud.id, month=month)}
    out: list[BudgetAlert] = []
    for t in bud.thresholds:
        if spend * 100 >= bud.amount * t and t not in fired:
            out.append(
                ctx.create(
                    BudgetAlert, budget_id=bud.id, month=month, threshold=t, spend=spend, recipients=bud.alert_emails
                )
            )
    return out


@service.tool(
    intent="acknowledge the anomaly",
    write=True,
    example=first_example(Anomaly, "anomaly_id", where={"status": "active"}, feedback="not_ok"),
)
def acknowledge_anomaly(ctx: Ctx, anomaly_id: AnomalyId, feedback: Feedback, note: Text = "") -> Anomaly:
    """Acknowledge an active anomaly with feedback: ok (expected spend) or not_ok (a real problem).

    Args:
        anomaly_id: The anomaly.
        feedback: ok or not_ok.
        note: What caused it.
    """
    an = ctx.get(Anomaly, anomaly_id, field="anomaly_id")
    if an.status != "active":
        raise Conflict(f"anomaly {an.id} is {an.status}", field="anomaly_id", hint="only active anomalies")
    if feedback == "none":
        raise RuleViolation("say ok or not_ok", field="feedback", hint="ok: expected; not_ok: a problem")
    return ctx.update(an, status="acknowledged", feedback=feedback, note=note)


@service.tool(
    intent="archive the anomaly",
    write=True,
    example=first_example(Anomaly, "anomaly_id", where={"status": "acknowledged"}),
)
def archive_anomaly(ctx: Ctx, anomaly_id: AnomalyId) -> Anomaly:
    """Archive an acknowledged anomaly (an ok one at once; a not_ok one once its note says what was done).

    Args:
        anomaly_id: The anomaly.
    """
    an = ctx.get(Anomaly, anomaly_id, field="anomaly_id")
    if an.status != "acknowledged":
        raise RuleViolation(f"anomaly {an.id} is {an.status}", field="anomaly_id", hint="acknowledge it first")
    if an.feedback == "not_ok" and not an.note.strip():
        raise RuleViolation("a real problem needs a note before archiving", field="anomaly_id", hint="update_anomaly")
    return ctx.update(an, status="archived")


def _open_rec(ctx: Ctx, rec_id: str) -> Recommendation:
    rec = ctx.get(Recommendation, rec_id, field="recommendation_id")
    if rec.status != "open":
        raise Conflict(f"recommendation {rec.id} is {rec.status}", field="recommendation_id", hint="only open ones")
    return rec


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Recommendation, status="open")
    return None if r is None else {"recommendation_id": r.id, "assignee": ctx.population.employees[0].email}


@service.tool(intent="assign the recommendation", write=True, example=_example_assign)
def assign_recommendation(ctx: Ctx, recommendation_id: RecId, assignee: Email) -> Recommendation:
    """Assign an open recommendation to an engineer.

    Args:
        recommendation_id: The recommendation.
        assignee: The engineer (staff).
    """
    rec = _open_rec(ctx, recommendation_id)
    require_employee(ctx, assignee, field="assignee", hint="recommendations are assigned to staff")
    return ctx.update(rec, assignee=assignee)


@service.tool(
    intent="dismiss the recommendation",
    write=True,
    example=first_example(Recommendation, "recommendation_id", where={"status": "open"}, reason="Needed for DR"),
)
def dismiss_recommendation(ctx: Ctx, recommendation_id: RecId, reason: Text) -> Recommendation:
    """Dismiss an open recommendation with a reason.

    Args:
        recommendation_id: The recommendation.
        reason: Why it does not apply.
    """
    rec = _open_rec(ctx, recommendation_id)
    if not reason.strip():
        raise RuleViolation("dismissing needs a reason", field="reason", hint="say why it does not apply")
    return ctx.update(rec, status="dismissed", reason=reason.strip())


@service.tool(
    intent="mark the recommendation implemented",
    write=True,
    example=first_example(Recommendation, "recommendation_id", match=lambda c, r: r.assignee is not None),
)
def implement_recommendation(ctx: Ctx, recommendation_id: RecId) -> Recommendation:
    """Mark an open, assigned recommendation implemented.

    Args:
        recommendation_id: The recommendation.
    """
    rec = _open_rec(ctx, recommendation_id)
    if rec.assignee is None:
        raise RuleViolation("assign the recommendation first", field="recommendation_id", hint="assign_recommendation")
    return ctx.update(rec, status="implemented")


@service.tool(intent="total the savings by team")
def savings_by_team(ctx: Ctx, status: RecStatus = "open") -> list[CostLine]:
    """Monthly savings of recommendations in a status, per team, largest first.

    Args:
        status: open, dismissed or implemented.
    """
    out: dict[str, int] = {}
    for r in ctx.where(Recommendation, status=status):
        out[r.team] = out.get(r.team, 0) + r.monthly_savings
    return [CostLine(key=k, amount=v) for k, v in sorted(out.items(), key=lambda kv: (-kv[1], kv[0]))]


# -- seed -------------------------------------------------------------------------------------

LINES: tuple[tuple[Provider, str, str, str, int], ...] = (
    ("aws", "Amazon EC2", "us-east-1", "platform", 4_200_000),
    ("aws", "Amazon RDS", "us-east-1", "platform", 1_850_000),
    ("aws", "Amazon S3", "us-east-1", "data-eng", 640_000),
    ("aws", "AWS Lambda", "eu-west-1", "checkout", 210_000),
    ("gcp", "BigQuery", "us", "data-eng", 1_300_000),
    ("gcp", "Compute Engine", "europe-west1", "checkout", 520_000),
    ("datadog", "Infrastructure Monitoring", "global", "platform", 780_000),
    ("snowflake", "Warehouse compute", "global", "data-eng", 1_100_000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Teams of engineers, six months of costs, reports, budgets with an alert, anomalies, recommendations."""
    pop = s.population
    eng = pop.staff("Engineering", "IT", "Data", fallback=6)
    made: dict[str, Team] = {}
    for k, name in enumerate(("platform", "data-eng", "checkout")):
        made[name] = s.create(
            Team,
            name=name,
            member_emails=tuple(p.email for p in eng[k::3][:3]),
            created_at=s.ago(days=400),
            updated_at=s.ago(days=100),
        )
    this = _month(s.now.date())
    months = [this]
    for _ in range(5):
        months.append(_month(months[-1] - dt.timedelta(days=1)))
    for back, month in enumerate(months):
        for j, (prov, svc, region, team, base) in enumerate(LINES):
            grow = 1 + 0.03 * (5 - back) + 0.01 * j
            part = 0.45 if back == 0 else 1.0
            s.create(
                Cost, month=month, provider=prov, service=svc, region=region, team=team, amount=int(base * grow * part)
            )
    aws = s.create(
        CostReport,
        title="AWS by service",
        providers=("aws",),
        group_by="service",
        owner_team_id=made["platform"].id,
        created_at=s.ago(days=300),
        updated_at=s.ago(days=30),
    )
    data = s.create(
        CostReport,
        title="Data platform spend",
        teams=("data-eng",),
        group_by="provider",
        owner_team_id=made["data-eng"].id,
        created_at=s.ago(days=200),
        updated_at=s.ago(days=20),
    )
    s.create(
        CostReport, title="All cloud by team", group_by="team", created_at=s.ago(days=150), updated_at=s.ago(days=150)
    )
    b1 = s.create(
        Budget,
        name="AWS monthly",
        cost_report_id=aws.id,
        amount=7_000_000,
        thresholds=(50, 80, 100),
        alert_emails=(eng[0].email,),
        created_at=s.ago(days=250),
        updated_at=s.ago(days=250),
    )
    s.create(
        Budget,
        name="Data platform monthly",
        cost_report_id=data.id,
        amount=3_200_000,
        thresholds=(80, 100),
        alert_emails=(eng[1 % len(eng)].email,),
        created_at=s.ago(days=150),
        updated_at=s.ago(days=150),
    )
    s.create(
        BudgetAlert,
        budget_id=b1.id,
        month=this,
        threshold=50,
        spend=3_600_000,
        recipients=b1.alert_emails,
        created_at=s.ago(days=3),
    )
    anoms: tuple[tuple[Provider, str, str, int, int, AnomalyStatus, Feedback], ...] = (
        ("aws", "AWS Lambda", "checkout", 7_000, 31_000, "active", "none"),
        ("gcp", "BigQuery", "data-eng", 43_000, 120_000, "active", "none"),
        ("aws", "Amazon S3", "data-eng", 21_000, 48_000, "acknowledged", "ok"),
        ("datadog", "Infrastructure Monitoring", "platform", 26_000, 39_000, "archived", "ok"),
    )
    for k, (prov, svc, team, exp, act, st, fb) in enumerate(anoms):
        s.create(
            Anomaly,
            provider=prov,
            service=svc,
            team=team,
            detected_on=(s.now - dt.timedelta(days=1 + 4 * k)).date(),
            expected=exp,
            actual=act,
            status=st,
            feedback=fb,
            note="Backfill job" if fb == "ok" else "",
            created_at=s.ago(days=1 + 4 * k),
            updated_at=s.ago(days=4 * k),
        )
    recs: tuple[tuple[Provider, RecCategory, str, str, int, str, RecStatus], ...] = (
        (
            "aws",
            "rightsizing",
            "i-0a1b2c3d4e5f60718",
            "Downsize m5.4xlarge to m5.2xlarge (CPU p95 18%).",
            41_000,
            "platform",
            "open",
        ),
        (
            "aws",
            "unused_resource",
            "vol-0f9e8d7c6b5a43210",
            "Delete unattached 2 TB gp2 volume.",
            20_000,
            "data-eng",
            "open",
        ),
        (
            "aws",
            "savings_plan",
            "Compute Savings Plan 1yr",
            "Commit $12/h compute for 1 year.",
            185_000,
            "platform",
            "open",
        ),
        (
            "gcp",
            "reserved_instances",
            "n2-standard-8 x4",
            "Buy 1-year committed use discount.",
            66_000,
            "checkout",
            "implemented",
        ),
        (
            "aws",
            "rightsizing",
            "db-orders-prod",
            "Move RDS db.r5.2xlarge to db.r6g.xlarge.",
            52_000,
            "checkout",
            "dismissed",
        ),
    )
    for k, (prov, cat, res, desc, save, team, rst) in enumerate(recs):
        s.create(
            Recommendation,
            provider=prov,
            category=cat,
            resource=res,
            description=desc,
            monthly_savings=save,
            team=team,
            status=rst,
            assignee=eng[k % len(eng)].email if rst != "open" or k == 0 else None,
            reason="Needed for peak season." if rst == "dismissed" else "",
            created_at=s.ago(days=20 + k),
            updated_at=s.ago(days=5 + k),
        )
