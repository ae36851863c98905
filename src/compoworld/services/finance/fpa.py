"""Ledgerline Planning: planning models, budget versions with approval, actuals, variances, scenarios, reforecasts.

Modeled on Cube and Workday Adaptive Planning APIs (models with levels and
accounts, versions such as a working budget, a locked plan and forecasts,
exportData / importData of plan and actuals per period): a planning model
covers one fiscal year over the company's departments and a chart of plan
accounts; a version goes draft → submitted → approved → locked (a submitted
version can be sent back to draft); only drafts can be edited; a submitter
cannot approve their own version; a model has at most one approved or locked
budget; actuals are imported per closed month (a month is imported once unless
replaced); variance analysis compares a version with actuals (revenue above
plan and expense below plan are favourable); a reforecast copies a version and
replaces the closed months with actuals; a scenario copies a version with
revenue or expenses scaled by a percentage.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Currency, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "fpa",
    title="Ledgerline Planning",
    category="fp_and_a",
    modeled_on="Cube and Workday Adaptive Planning APIs (models, dimensions and levels, plan accounts, "
    "versions with approval and locking, importData of actuals, variance reports)",
    description="Financial planning and analysis: yearly planning models over the company's departments and "
    "plan accounts, budget and forecast versions that are submitted, approved and locked, monthly actuals "
    "imported from the ledger, variance analysis of plan against actuals, scenarios and reforecasts.",
)

ModelId = Annotated[str, IdOf("fpa.planning_model")]
VersionId = Annotated[str, IdOf("fpa.version")]
LineId = Annotated[str, IdOf("fpa.plan_line")]
ActualId = Annotated[str, IdOf("fpa.actual")]
ImportId = Annotated[str, IdOf("fpa.actuals_import")]

Period = Annotated[str, StringConstraints(pattern=r"^20\d\d-(0[1-9]|1[0-2])$")]
"""A month, YYYY-MM."""
AccountCode = Literal["4000", "4100", "5000", "6000", "6100", "6200", "6300", "6400"]
Department = Literal["Engineering", "Finance", "Marketing", "Operations", "People", "Sales", "Support"]
VersionKind = Literal["budget", "forecast", "scenario"]
VersionStatus = Literal["draft", "submitted", "approved", "locked"]
Amount = Annotated[int, Field(ge=0, le=10**12)]

ACCOUNTS: dict[str, tuple[str, Literal["revenue", "expense"]]] = {
    "4000": ("Subscription revenue", "revenue"),
    "4100": ("Services revenue", "revenue"),
    "5000": ("Cost of revenue", "expense"),
    "6000": ("Salaries and wages", "expense"),
    "6100": ("Benefits and payroll taxes", "expense"),
    "6200": ("Software and subscriptions", "expense"),
    "6300": ("Travel and entertainment", "expense"),
    "6400": ("Marketing programs", "expense"),
}
"""The plan accounts: code → (name, revenue or expense)."""


class PlanningModel(Timestamped):
    """A planning model: one fiscal year over departments and plan accounts."""

    id: ModelId
    name: Title
    """Display name."""
    fiscal_year: Annotated[int, Field(ge=2000, le=2100)]
    """The fiscal year it plans (January to December)."""
    currency: Currency = "USD"
    """The reporting currency."""
    departments: tuple[Department, ...]
    """The department dimension's members."""
    owner_email: Email
    """The FP&A lead who owns it."""
    status: Literal["active", "archived"] = "active"
    """active or archived."""


class Version(Timestamped):
    """A version of the plan: a budget, a forecast or a scenario."""

    id: VersionId
    model_id: ModelId
    """The planning model."""
    name: Title
    """Display name."""
    kind: VersionKind
    """budget, forecast or scenario."""
    status: VersionStatus = "draft"
    """draft, submitted, approved or locked."""
    based_on_id: VersionId | None = None
    """The version it was copied from."""
    actuals_through: Period | None = None
    """A reforecast's last month taken from actuals."""
    submitted_by: Email | None = None
    """Who submitted it for approval."""
    approved_by: Email | None = None
    """Who approved it."""
    review_comment: Text = ""
    """The reviewer's comment when sent back."""


class PlanLine(Record):
    """A planned amount: one version, department, account and month."""

    id: LineId
    version_id: VersionId
    """The version."""
    department: Department
    """The department."""
    account_code: AccountCode
    """The plan account."""
    period: Period
    """The month."""
    amount: Amount
    """Planned amount in cents."""


class Actual(Record):
    """An actual amount from the ledger: one model, department, account and month."""

    id: ActualId
    model_id: ModelId
    """The planning model."""
    department: Department
    """The department."""
    account_code: AccountCode
    """The plan account."""
    period: Period
    """The month."""
    amount: Amount
    """Actual amount in cents."""
    import_id: ImportId
    """The import that loaded it."""


class ActualsImport(Created):
    """One load of a month's actuals from the ledger."""

    id: ImportId
    model_id: ModelId
    """The planning model."""
    period: Period
    """The month loaded."""
    source: Literal["netsuite", "quickbooks", "xero", "csv"] = "netsuite"
    """Where the actuals came from."""
    rows: int
    """How many amounts were loaded."""
    imported_by: Email
    """Who ran it."""
    status: Literal["loaded", "replaced"] = "loaded"
    """loaded, or replaced by a later import of the same month."""


class ActualRow(Value):
    """One amount to import."""

    department: Department
    """The department."""
    account_code: AccountCode
    """The plan account."""
    amount: Amount
    """Amount in cents."""


class VarianceLine(Value):
    """Plan against actuals for one account."""

    account_code: str
    """The plan account."""
    account_name: str
    """Its name."""
    plan: int
    """Planned, in cents."""
    actual: int
    """Actual, in cents."""
    variance: int
    """Actual less plan, in cents."""
    variance_pct: float | None
    """Variance as a percentage of plan (None when nothing was planned)."""
    favorable: bool
    """Revenue at or above plan, or expense at or below plan."""


class VarianceReport(Value):
    """A version against actuals over some months."""

    version_id: str
    """The version."""
    periods: list[str]
    """The months compared (those with actuals)."""
    department: str | None
    """Only this department, if given."""
    lines: list[VarianceLine]
    """Per account."""
    net_income_plan: int
    """Revenue less expense planned, in cents."""
    net_income_actual: int
    """Revenue less expense actual, in cents."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _draft(ctx: Ctx, version_id: str, field: str = "version_id") -> Version:
    v = ctx.get(Version, version_id, field=field)
    if v.status != "draft":
        raise RuleViolation(f"version {v.name!r} is {v.status}", field=field, hint="only drafts can change")
    return v


def _closed(ctx: Ctx, period: str) -> bool:
    return period < ctx.today().strftime("%Y-%m")


def _in_year(model: PlanningModel, period: str, field: str) -> None:
    if not period.startswith(f"{model.fiscal_year}-"):
        raise RuleViolation(f"{period} is outside FY{model.fiscal_year}", field=field, hint="pick a month of the year")


def _guard_model(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if not new.departments or len(set(new.departments)) != len(new.departments):
        raise RuleViolation("list each department once, at least one", field="departments", hint="fix the list")
    if old is not None and old.departments != new.departments:
        for dept in set(old.departments) - set(new.departments):
            for v in ctx.where(Version, model_id=new.id):
                if ctx.first(PlanLine, version_id=v.id, department=dept):
                    raise RuleViolation(f"{dept} has plan lines", field="departments", hint="keep it in the list")


def _guard_version_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(f"version is {old.status}", field="version_id", hint="only drafts can be deleted")
    for line in ctx.where(PlanLine, version_id=old.id):
        ctx.delete(line)


models = service.resource(
    PlanningModel,
    name="planning_model",
    plural="planning_models",
    prefix="mdl",
    create=("name", "fiscal_year", "currency", "departments", "owner_email"),
    filters=("fiscal_year", "status", "owner_email"),
    search=("name",),
    update=("name", "departments", "owner_email"),
    delete=False,
    transitions={"archive": Transition("status", ("active",), "archived", "archive the planning model")},
    guard_create=_guard_model,
    guard_update=_guard_model,
    title="planning model",
)
versions = service.resource(
    Version,
    name="version",
    plural="versions",
    prefix="ver",
    create=False,
    filters=("model_id", "kind", "status", "based_on_id"),
    search=("name",),
    update=("name",),
    guard_delete=_guard_version_delete,
    title="plan version",
)
lines = service.resource(
    PlanLine,
    name="plan_line",
    plural="plan_lines",
    prefix="pl",
    create=False,
    get=False,
    filters=("version_id", "department", "account_code", "period"),
    delete=False,
    title="plan line",
)
actuals = service.resource(
    Actual,
    name="actual",
    plural="actuals",
    prefix="act",
    create=False,
    get=False,
    filters=("model_id", "department", "account_code", "period", "import_id"),
    delete=False,
    title="actual amount",
)
imports = service.resource(
    ActualsImport,
    name="actuals_import",
    plural="actuals_imports",
    prefix="imp",
    create=False,
    filters=("model_id", "period", "status", "source"),
    delete=False,
    title="actuals import",
)


# -- versions ---------------------------------------------------------------------------------


def _active_model(ctx: Ctx, model_id: str) -> PlanningModel:
    model = ctx.get(PlanningModel, model_id, field="model_id")
    if model.status != "active":
        raise RuleViolation(f"model {model.name!r} is archived", field="model_id", hint="use an active model")
    return model


@service.tool(
    intent="create a plan version",
    write=True,
    example=first_example(PlanningModel, "model_id", where={"status": "active"}, name="FY budget v3", kind="budget"),
)
def create_version(ctx: Ctx, model_id: ModelId, name: Title, kind: VersionKind = "budget") -> Version:
    """Start an empty draft version of a model; names are unique within the model.

    Args:
        model_id: The planning model.
        name: Its name.
        kind: budget, forecast or scenario.
    """
    _active_model(ctx, model_id)
    if ctx.first(Version, model_id=model_id, name=name):
        raise Conflict(f"the model has a version named {name!r}", field="name", hint="pick another name")
    return ctx.create(Version, model_id=model_id, name=name, kind=kind)


def _copy(ctx: Ctx, src: Version, name: str, kind: VersionKind, **fields: Any) -> Version:
    if ctx.first(Version, model_id=src.model_id, name=name):
        raise Conflict(f"the model has a version named {name!r}", field="name", hint="pick another name")
    return ctx.create(Version, model_id=src.model_id, name=name, kind=kind, based_on_id=src.id, **fields)


def _example_line(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Version, status="draft")
    if v is None:
        return None
    model = ctx.get(PlanningModel, v.model_id)
    period = f"{model.fiscal_year}-11"
    args = {"department": model.departments[0], "account_code": "6300", "period": period, "amount": 12_500_00}
    return {"version_id": v.id, **args}


@service.tool(intent="set a planned amount", write=True, example=_example_line)
def set_plan_amount(
    ctx: Ctx, version_id: VersionId, department: Department, account_code: AccountCode, period: Period, amount: Amount
) -> PlanLine:
    """Write the planned amount of a department, account and month in a draft version (replacing any).

    Args:
        version_id: The draft version.
        department: A department of the model.
        account_code: The plan account.
        period: A month of the model's fiscal year, YYYY-MM.
        amount: The amount in cents.
    """
    v = _draft(ctx, version_id)
    model = ctx.get(PlanningModel, v.model_id)
    if department not in model.departments:
        raise RuleViolation(f"{department} is not in the model", field="department", hint="add it to the model first")
    _in_year(model, period, "period")
    keys = {"version_id": v.id, "department": department, "account_code": account_code, "period": period}
    line = ctx.first(PlanLine, **keys)
    if line is None:
        return ctx.create(PlanLine, amount=amount, **keys)
    return ctx.update(line, amount=amount)


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.where(Version, status="draft"):
        if ctx.first(PlanLine, version_id=v.id) is not None:
            return {"version_id": v.id, "submitted_by": ctx.population.staff("Finance", fallback=1)[0].email}
    return None


@service.tool(intent="submit the version for approval", write=True, example=_example_submit)
def submit_version(ctx: Ctx, version_id: VersionId, submitted_by: Email) -> Version:
    """Submit a draft with plan lines for approval; it can no longer be edited.

    Args:
        version_id: The draft version.
        submitted_by: The employee submitting it.
    """
    v = _draft(ctx, version_id)
    _staff(ctx, submitted_by, "submitted_by")
    if ctx.first(PlanLine, version_id=v.id) is None:
        raise RuleViolation("the version has no plan lines", field="version_id", hint="plan some amounts first")
    return ctx.update(v, status="submitted", submitted_by=submitted_by, review_comment="")


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.where(Version, status="submitted"):
        if v.kind == "budget" and _approved_budget(ctx, v.model_id) is not None:
            continue
        for p in ctx.population.staff("Finance", fallback=3):
            if p.email != v.submitted_by:
                return {"version_id": v.id, "approved_by": p.email}
    return None


def _approved_budget(ctx: Ctx, model_id: str) -> Version | None:
    for v in ctx.where(Version, model_id=model_id, kind="budget"):
        if v.status in ("approved", "locked"):
            return v
    return None


@service.tool(intent="approve the plan version", write=True, example=_example_approve)
def approve_version(ctx: Ctx, version_id: VersionId, approved_by: Email) -> Version:
    """Approve a submitted version; not by its submitter, and one approved or locked budget per model.

    Args:
        version_id: The submitted version.
        approved_by: The approving employee (not the submitter).
    """
    v = ctx.get(Version, version_id, field="version_id")
    if v.status != "submitted":
        raise RuleViolation(f"version is {v.status}", field="version_id", hint="submit it first")
    _staff(ctx, approved_by, "approved_by")
    if approved_by == v.submitted_by:
        raise RuleViolation("the submitter cannot approve", field="approved_by", hint="ask another reviewer")
    other = _approved_budget(ctx, v.model_id) if v.kind == "budget" else None
    if other is not None:
        raise Conflict(
            f"budget {other.name!r} is already {other.status}",
            field="version_id",
            hint="the model keeps one budget; plan changes as a forecast instead",
        )
    return ctx.update(v, status="approved", approved_by=approved_by)


@service.tool(
    intent="send the version back to draft",
    write=True,
    example=first_example(Version, "version_id", where={"status": "submitted"}, comment="Travel is too high."),
)
def send_back_version(ctx: Ctx, version_id: VersionId, comment: Text) -> Version:
    """Return a submitted version to draft with the reviewer's comment.

    Args:
        version_id: The submitted version.
        comment: What to change (required).
    """
    v = ctx.get(Version, version_id, field="version_id")
    if v.status != "submitted":
        raise RuleViolation(f"version is {v.status}", field="version_id", hint="only submitted versions go back")
    if not comment.strip():
        raise RuleViolation("say what to change", field="comment", hint="give a comment")
    return ctx.update(v, status="draft", review_comment=comment.strip(), submitted_by=None)


@service.tool(
    intent="lock the plan version",
    write=True,
    destructive=True,
    example=first_example(Version, "version_id", where={"status": "approved"}),
)
def lock_version(ctx: Ctx, version_id: VersionId) -> Version:
    """Lock an approved version: it becomes the plan of record and never changes again.

    Args:
        version_id: The approved version.
    """
    v = ctx.get(Version, version_id, field="version_id")
    if v.status != "approved":
        raise RuleViolation(f"version is {v.status}", field="version_id", hint="only approved versions are locked")
    return ctx.update(v, status="locked")


def _example_copy(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Version, status="locked")
    return None if v is None else {"version_id": v.id, "name": "Copy for review"}


@service.tool(intent="copy the plan version", write=True, example=_example_copy)
def copy_version(ctx: Ctx, version_id: VersionId, name: Title, kind: VersionKind = "forecast") -> Version:
    """Copy a version with all its plan lines into a new draft.

    Args:
        version_id: The version to copy.
        name: The new version's name (unique in the model).
        kind: budget, forecast or scenario.
    """
    src = ctx.get(Version, version_id, field="version_id")
    _active_model(ctx, src.model_id)
    new = _copy(ctx, src, name, kind)
    for line in ctx.where(PlanLine, version_id=src.id):
        ctx.create(
            PlanLine,
            version_id=new.id,
            department=line.department,
            account_code=line.account_code,
            period=line.period,
            amount=line.amount,
        )
    return new


def _example_scenario(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Version, status="locked")
    return (
        None
        if v is None
        else {"version_id": v.id, "name": "Downside -15%", "applies_to": "revenue", "change_percent": -15.0}
    )


@service.tool(intent="create a scenario from the version", write=True, example=_example_scenario)
def create_scenario(
    ctx: Ctx,
    version_id: VersionId,
    name: Title,
    applies_to: Literal["revenue", "expense"],
    change_percent: Annotated[float, Field(ge=-90, le=200)],
) -> Version:
    """Copy a version as a draft scenario with revenue or expense lines scaled by a percentage.

    Args:
        version_id: The version to start from.
        name: The scenario's name (unique in the model).
        applies_to: revenue or expense: which lines change.
        change_percent: The change, -90 to +200 percent (e.g. -15 for a downside); must not be 0.
    """
    src = ctx.get(Version, version_id, field="version_id")
    _active_model(ctx, src.model_id)
    if change_percent == 0:
        raise RuleViolation("a scenario must change something", field="change_percent", hint="give a non-zero change")
    new = _copy(ctx, src, name, "scenario")
    for line in ctx.where(PlanLine, version_id=src.id):
        scaled = ACCOUNTS[line.account_code][1] == applies_to
        amount = round(line.amount * (100 + change_percent) / 100) if scaled else line.amount
        ctx.create(
            PlanLine,
            version_id=new.id,
            department=line.department,
            account_code=line.account_code,
            period=line.period,
            amount=amount,
        )
    return new


def _example_reforecast(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Version, status="locked")
    if v is None:
        return None
    done = sorted({i.period for i in ctx.where(ActualsImport, model_id=v.model_id, status="loaded")})
    return None if not done else {"version_id": v.id, "name": "Reforecast 2+10", "actuals_through": done[-1]}


@service.tool(intent="reforecast from the version with actuals", write=True, example=_example_reforecast)
def create_reforecast(ctx: Ctx, version_id: VersionId, name: Title, actuals_through: Period) -> Version:
    """Copy a version as a draft forecast whose months up to ``actuals_through`` hold the actuals.

    Every month up to then must be closed and imported.

    Args:
        version_id: The version to start from.
        name: The forecast's name (unique in the model).
        actuals_through: The last month taken from actuals, YYYY-MM.
    """
    src = ctx.get(Version, version_id, field="version_id")
    model = _active_model(ctx, src.model_id)
    _in_year(model, actuals_through, "actuals_through")
    months = [f"{model.fiscal_year}-{m:02d}" for m in range(1, 13)]
    closed = [p for p in months if p <= actuals_through]
    for p in closed:
        if ctx.first(ActualsImport, model_id=model.id, period=p, status="loaded") is None:
            raise RuleViolation(f"no actuals for {p}", field="actuals_through", hint="import them first")
    new = _copy(ctx, src, name, "forecast", actuals_through=actuals_through)
    for line in ctx.where(PlanLine, version_id=src.id):
        if line.period not in closed:
            ctx.create(
                PlanLine,
                version_id=new.id,
                department=line.department,
                account_code=line.account_code,
                period=line.period,
                amount=line.amount,
            )
    for p in closed:
        for a in ctx.where(Actual, model_id=model.id, period=p):
            ctx.create(
                PlanLine,
                version_id=new.id,
                department=a.department,
                account_code=a.account_code,
                period=p,
                amount=a.amount,
            )
    return new


# -- actuals and variances --------------------------------------------------------------------


def _example_import(ctx: Ctx) -> dict[str, Any] | None:
    done = ctx.first(ActualsImport, status="loaded")
    if done is None:
        return None
    model = ctx.get(PlanningModel, done.model_id)
    rows = [{"department": model.departments[0], "account_code": "6000", "amount": 98_000_00}]
    who = ctx.population.staff("Finance", fallback=1)[0].email
    return {"model_id": model.id, "period": done.period, "rows": rows, "imported_by": who, "replace": True}


@service.tool(intent="import the month's actuals", write=True, example=_example_import)
def import_actuals(
    ctx: Ctx,
    model_id: ModelId,
    period: Period,
    rows: Annotated[list[ActualRow], Field(min_length=1, max_length=500)],
    imported_by: Email,
    source: Literal["netsuite", "quickbooks", "xero", "csv"] = "netsuite",
    replace: bool = False,
) -> ActualsImport:
    """Load a closed month's actuals by department and account; a month loads once unless replaced.

    Args:
        model_id: The planning model.
        period: A closed month of the model's year, YYYY-MM.
        rows: The amounts, one per department and account.
        imported_by: The employee running it.
        source: netsuite, quickbooks, xero or csv.
        replace: Replace the month's earlier import.
    """
    model = _active_model(ctx, model_id)
    _in_year(model, period, "period")
    if not _closed(ctx, period):
        raise RuleViolation(f"{period} is not closed yet", field="period", hint="import months before this one")
    _staff(ctx, imported_by, "imported_by")
    seen: set[tuple[str, str]] = set()
    for row in rows:
        if row.department not in model.departments:
            raise RuleViolation(f"{row.department} is not in the model", field="rows", hint="use its departments")
        if (row.department, row.account_code) in seen:
            raise RuleViolation(f"{row.department}/{row.account_code} twice", field="rows", hint="sum them first")
        seen.add((row.department, row.account_code))
    earlier = ctx.first(ActualsImport, model_id=model.id, period=period, status="loaded")
    if earlier is not None:
        if not replace:
            raise Conflict(f"{period} was imported by {earlier.id}", field="period", hint="pass replace=true")
        ctx.update(earlier, status="replaced")
        for a in ctx.where(Actual, model_id=model.id, period=period):
            ctx.delete(a)
    imp = ctx.create(
        ActualsImport, model_id=model.id, period=period, source=source, rows=len(rows), imported_by=imported_by
    )
    for row in rows:
        ctx.create(
            Actual,
            model_id=model.id,
            department=row.department,
            account_code=row.account_code,
            period=period,
            amount=row.amount,
            import_id=imp.id,
        )
    return imp


def _example_variance(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Version, status="locked")
    return None if v is None else {"version_id": v.id}


@service.tool(intent="analyse the version's variance to actuals", example=_example_variance)
def variance_report(ctx: Ctx, version_id: VersionId, department: Department | None = None) -> VarianceReport:
    """Compare a version with actuals over every month that has actuals, per account.

    Args:
        version_id: The version.
        department: Only this department.
    """
    v = ctx.get(Version, version_id, field="version_id")
    periods = sorted({i.period for i in ctx.where(ActualsImport, model_id=v.model_id, status="loaded")})
    plan: dict[str, int] = dict.fromkeys(ACCOUNTS, 0)
    actual: dict[str, int] = dict.fromkeys(ACCOUNTS, 0)
    for p in periods:
        for line in ctx.where(PlanLine, version_id=v.id, period=p):
            if department is None or line.department == department:
                plan[line.account_code] += line.amount
        for a in ctx.where(Actual, model_id=v.model_id, period=p):
            if department is None or a.department == department:
                actual[a.account_code] += a.amount
    out: list[VarianceLine] = []
    net = [0, 0]
    for code, (name, kind) in ACCOUNTS.items():
        sign = 1 if kind == "revenue" else -1
        net[0] += sign * plan[code]
        net[1] += sign * actual[code]
        diff = actual[code] - plan[code]
        pct = round(100 * diff / plan[code], 1) if plan[code] else None
        out.append(
            VarianceLine(
                account_code=code,
                account_name=name,
                plan=plan[code],
                actual=actual[code],
                variance=diff,
                variance_pct=pct,
                favorable=sign * diff >= 0,
            )
        )
    return VarianceReport(
        version_id=v.id,
        periods=periods,
        department=department,
        lines=out,
        net_income_plan=net[0],
        net_income_actual=net[1],
    )


# -- seed -------------------------------------------------------------------------------------

BASE: dict[str, dict[str, int]] = {
    "Sales": {"4000": 620_000_00, "4100": 85_000_00, "6000": 180_000_00, "6300": 22_000_00},
    "Marketing": {"6000": 95_000_00, "6400": 140_000_00, "6200": 18_000_00},
    "Engineering": {"5000": 90_000_00, "6000": 410_000_00, "6100": 82_000_00, "6200": 55_000_00},
    "Support": {"5000": 40_000_00, "6000": 120_000_00},
    "Finance": {"6000": 70_000_00, "6200": 9_000_00},
}
"""Monthly plan amounts (cents) per department and account."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Last year's archived model; this year's with a locked budget, a submitted forecast, a draft scenario, actuals."""
    pop = s.population
    fin = pop.staff("Finance", fallback=3)
    owner = fin[0].email
    year = s.now.year
    depts = tuple(d for d in BASE if any(p.department == d for p in pop.employees)) or ("Sales", "Engineering")
    s.create(
        PlanningModel,
        name=f"FY{year - 1} Operating Plan",
        fiscal_year=year - 1,
        departments=depts,
        owner_email=owner,
        status="archived",
        created_at=s.ago(days=500),
        updated_at=s.ago(days=70),
    )
    model = s.create(
        PlanningModel,
        name=f"FY{year} Operating Plan",
        fiscal_year=year,
        departments=depts,
        owner_email=owner,
        created_at=s.ago(days=130),
        updated_at=s.ago(days=60),
    )
    plans: tuple[tuple[str, VersionKind, VersionStatus, float], ...] = (
        (f"FY{year} Budget", "budget", "locked", 1.0),
        (f"FY{year} Forecast 1+11", "forecast", "submitted", 1.04),
        (f"FY{year} Hiring freeze", "scenario", "draft", 0.93),
        (f"FY{year} Board forecast", "forecast", "approved", 1.02),
    )
    approver = fin[1 % len(fin)].email
    for name, kind, status, factor in plans:
        v = s.create(
            Version,
            model_id=model.id,
            name=name,
            kind=kind,
            status=status,
            submitted_by=owner if status != "draft" else None,
            approved_by=approver if status in ("approved", "locked") else None,
            created_at=s.ago(days=100),
            updated_at=s.ago(days=20),
        )
        for dept in depts:
            for code, monthly in BASE.get(dept, {}).items():
                for m in range(1, 13):
                    grow = 1 + 0.01 * m if ACCOUNTS[code][1] == "revenue" else 1.0
                    s.create(
                        PlanLine,
                        version_id=v.id,
                        department=dept,
                        account_code=code,
                        period=f"{year}-{m:02d}",
                        amount=round(monthly * factor * grow),
                    )
    for m in range(1, s.now.month):
        period = f"{year}-{m:02d}"
        n = sum(len(BASE.get(d, {})) for d in depts)
        imp = s.create(
            ActualsImport,
            model_id=model.id,
            period=period,
            rows=n,
            imported_by=owner,
            created_at=s.ago(days=30 * (s.now.month - m) - 5),
        )
        for dept in depts:
            for code, monthly in BASE.get(dept, {}).items():
                drift = 1 + s.rng.randint(-12, 12) / 100
                s.create(
                    Actual,
                    model_id=model.id,
                    department=dept,
                    account_code=code,
                    period=period,
                    amount=round(monthly * drift),
                    import_id=imp.id,
                )
