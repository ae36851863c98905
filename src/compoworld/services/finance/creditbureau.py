"""Trade Ledger Credit: business credit files, report pulls, monitoring alerts, trade references and disputes.

Modeled on Experian Business (BusinessIQ: Intelliscore Plus, days beyond
terms, tradelines, monitoring alerts) and Dun & Bradstreet (D-U-N-S numbers,
PAYDEX, credit recommendations, trade references): every company of the world
has a credit file with its D-U-N-S number, PAYDEX (1-100), Intelliscore
(1-100), risk class (1 lowest risk to 5 highest), days beyond terms and
recommended credit limit; a report is pulled only for a permissible purpose
and is reused if the same employee pulled it today; monitors watch a file for
score drops, late payments, liens or bankruptcies and raise alerts that are
acknowledged or dismissed; the company reports its own trade experience as
tradelines, which move the file's days beyond terms and scores; and disputes
of a file's data go open → investigating → resolved or rejected.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, CompanyName, Date, Domain, Email, IdOf, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "creditbureau",
    title="Trade Ledger Credit",
    category="business_credit",
    modeled_on="Experian Business BusinessIQ / Dun & Bradstreet: business credit files (D-U-N-S, PAYDEX, "
    "Intelliscore), report pulls, monitoring alerts, trade references, disputes",
    description="Business credit on customers and suppliers: each company's credit file with its D-U-N-S "
    "number, PAYDEX and Intelliscore scores, risk class and recommended limit, credit reports pulled for a "
    "permissible purpose, monitors and their alerts, the trade experience the company reports, and disputes.",
)

FileId = Annotated[str, IdOf("creditbureau.credit_file")]
ReportId = Annotated[str, IdOf("creditbureau.report")]
MonitorId = Annotated[str, IdOf("creditbureau.monitor")]
AlertId = Annotated[str, IdOf("creditbureau.alert")]
TradelineId = Annotated[str, IdOf("creditbureau.tradeline")]
DisputeId = Annotated[str, IdOf("creditbureau.dispute")]

Score = Annotated[int, Field(ge=1, le=100)]
"""A score from 1 (worst) to 100 (best)."""
Duns = Annotated[str, StringConstraints(pattern=r"^[0-9]{9}$")]
"""A nine-digit D-U-N-S number."""
ReportType = Literal["business_profile", "credit_advantage", "comprehensive"]
Purpose = Literal["new_account", "credit_review", "collections", "supplier_vetting"]
AlertKind = Literal["score_drop", "late_payment", "new_lien", "bankruptcy"]
REPORT_PRICES: dict[str, int] = {"business_profile": 3_995, "credit_advantage": 5_995, "comprehensive": 12_995}


class CreditFile(Timestamped):
    """A company's business credit file."""

    id: FileId
    company_name: CompanyName
    """The company (unique)."""
    domain: Domain
    """Its web domain."""
    duns_number: Duns
    """D-U-N-S number (unique)."""
    industry: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """Industry."""
    city: City
    """Headquarters city."""
    paydex: Score
    """PAYDEX: how promptly it pays suppliers (80 = on time)."""
    intelliscore: Score
    """Intelliscore Plus: likelihood of serious delinquency (higher is safer)."""
    risk_class: Annotated[int, Field(ge=1, le=5)]
    """1 (low risk) to 5 (high risk)."""
    days_beyond_terms: Annotated[int, Field(ge=0, le=365)]
    """Average days it pays past terms."""
    recommended_limit: Cents
    """Recommended credit limit in cents."""
    liens: int = 0
    """Open liens and judgments."""
    bankrupt: bool = False
    """Whether it filed for bankruptcy."""


class Report(Created):
    """A credit report pulled on a file, with the scores at that moment."""

    id: ReportId
    file_id: FileId
    """The credit file."""
    company_name: CompanyName
    """The company."""
    report_type: ReportType
    """business_profile, credit_advantage or comprehensive."""
    purpose: Purpose
    """The permissible purpose."""
    pulled_by: Email
    """The employee who pulled it."""
    pulled_on: Date
    """When."""
    price: Cents
    """What it cost in cents."""
    paydex: Score
    """PAYDEX then."""
    intelliscore: Score
    """Intelliscore then."""
    risk_class: Annotated[int, Field(ge=1, le=5)]
    """Risk class then."""
    recommended_limit: Cents
    """Recommended limit then, in cents."""


class Monitor(Timestamped):
    """A watch on a credit file that raises alerts."""

    id: MonitorId
    file_id: FileId
    """The credit file."""
    company_name: CompanyName | None = None
    """The company (filled in from the file)."""
    owner_email: Email
    """The employee alerted."""
    alert_on: list[AlertKind] = Field(min_length=1, max_length=4)
    """What raises an alert."""
    score_drop_points: Annotated[int, Field(ge=1, le=50)] = 10
    """Intelliscore drop that raises a score_drop alert."""
    status: Literal["active", "paused"] = "active"
    """active or paused."""


class Alert(Created):
    """Something a monitor noticed."""

    id: AlertId
    monitor_id: MonitorId
    """The monitor."""
    file_id: FileId
    """The credit file."""
    company_name: CompanyName
    """The company."""
    kind: AlertKind
    """score_drop, late_payment, new_lien or bankruptcy."""
    detail: Text
    """What happened."""
    status: Literal["new", "acknowledged", "dismissed"] = "new"
    """new, acknowledged or dismissed."""


class Tradeline(Created):
    """The company's own trade experience with another company, reported to the bureau."""

    id: TradelineId
    file_id: FileId
    """The credit file."""
    company_name: CompanyName
    """The company."""
    reported_by: Email
    """The employee who reported it."""
    credit_limit: Cents
    """Credit extended in cents."""
    balance: Cents
    """Balance owed in cents."""
    days_beyond_terms: Annotated[int, Field(ge=0, le=365)]
    """How late it pays us."""


class Dispute(Timestamped):
    """A challenge of data on a credit file."""

    id: DisputeId
    file_id: FileId
    """The credit file."""
    company_name: CompanyName | None = None
    """The company (filled in from the file)."""
    topic: Literal["paydex", "tradeline", "lien", "company_details"]
    """What is disputed."""
    description: Text
    """What is wrong."""
    filed_by: Email
    """The employee who filed it."""
    status: Literal["open", "investigating", "resolved", "rejected"] = "open"
    """open, investigating, resolved or rejected."""
    resolution: Text = ""
    """The bureau's answer."""


# -- rules ------------------------------------------------------------------------------------


def risk_of(intelliscore: int, bankrupt: bool) -> int:
    """Risk class from the Intelliscore (a bankrupt company is class 5)."""
    if bankrupt:
        return 5
    return (
        1
        if intelliscore >= 76
        else 2
        if intelliscore >= 51
        else 3
        if intelliscore >= 26
        else 4
        if intelliscore >= 11
        else 5
    )


def paydex_of(days_beyond: int) -> int:
    """The PAYDEX for an average days-beyond-terms (80: on time; lower the later)."""
    return max(1, min(100, 80 - days_beyond if days_beyond <= 30 else 50 - (days_beyond - 30) // 2))


def _guard_monitor(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="monitors alert staff")
    if len(set(new.alert_on)) != len(new.alert_on):
        raise RuleViolation("an alert kind is listed twice", field="alert_on", hint="list each kind once")
    if old is None:
        found = ctx.get(CreditFile, new.file_id, field="file_id")
        for other in ctx.where(Monitor, file_id=found.id, owner_email=new.owner_email):
            if other.id != new.id:
                raise Conflict(
                    f"{new.owner_email} already monitors {found.company_name}",
                    field="file_id",
                    hint="update that monitor instead",
                )
        ctx.update(new, company_name=found.company_name)


def _guard_dispute(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.filed_by, field="filed_by", hint="disputes are filed by staff")
    found = ctx.get(CreditFile, new.file_id, field="file_id")
    if not new.description.strip():
        raise RuleViolation("a dispute needs a description", field="description", hint="say what is wrong")
    for other in ctx.where(Dispute, file_id=found.id, topic=new.topic):
        if other.id != new.id and other.status in ("open", "investigating"):
            raise Conflict(
                f"dispute {other.id} on {new.topic} is still {other.status}", field="topic", hint="wait for it"
            )
    ctx.update(new, company_name=found.company_name)


files = service.resource(
    CreditFile,
    name="credit_file",
    plural="credit_files",
    prefix="cf",
    create=False,
    filters=("company_name", "duns_number", "domain", "risk_class", "city"),
    search=("company_name", "industry"),
    delete=False,
    title="credit file",
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rpt",
    create=False,
    filters=("file_id", "company_name", "pulled_by", "purpose", "report_type"),
    delete=False,
    title="credit report",
)
monitors = service.resource(
    Monitor,
    name="monitor",
    plural="monitors",
    prefix="mon",
    create=("file_id", "owner_email", "alert_on", "score_drop_points"),
    filters=("file_id", "company_name", "owner_email", "status"),
    update=("alert_on", "score_drop_points", "owner_email"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the monitor"),
        "resume": Transition("status", ("paused",), "active", "resume the monitor"),
    },
    guard_create=_guard_monitor,
    guard_update=_guard_monitor,
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="alr",
    transitions={
        "acknowledge": Transition("status", ("new",), "acknowledged", "acknowledge the alert"),
        "dismiss": Transition("status", ("new", "acknowledged"), "dismissed", "dismiss the alert"),
    },
    create=False,
    delete=False,
    filters=("monitor_id", "file_id", "company_name", "kind", "status"),
)
tradelines = service.resource(
    Tradeline,
    name="tradeline",
    plural="tradelines",
    prefix="trd",
    create=False,
    get=False,
    filters=("file_id", "company_name", "reported_by"),
    delete=False,
    title="trade reference",
)
disputes = service.resource(
    Dispute,
    name="dispute",
    plural="disputes",
    prefix="dsp",
    create=("file_id", "topic", "description", "filed_by"),
    filters=("file_id", "company_name", "status", "topic", "filed_by"),
    delete=False,
    transitions={"investigate": Transition("status", ("open",), "investigating", "start investigating the dispute")},
    guard_create=_guard_dispute,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_pull(ctx: Ctx) -> dict[str, Any] | None:
    found = ctx.first(CreditFile)
    who = ctx.population.employees[-1].email
    return (
        None
        if found is None
        else {
            "company_name": found.company_name,
            "report_type": "credit_advantage",
            "purpose": "new_account",
            "pulled_by": who,
        }
    )


@service.tool(intent="pull a credit report on the company", write=True, example=_example_pull)
def pull_report(
    ctx: Ctx, company_name: CompanyName, report_type: ReportType, purpose: Purpose, pulled_by: Email
) -> Report:
    """Pull a credit report on a company for a permissible purpose; one pulled by the same person today is reused.

    Args:
        company_name: The company.
        report_type: business_profile, credit_advantage or comprehensive.
        purpose: new_account, credit_review, collections or supplier_vetting.
        pulled_by: The employee pulling it.
    """
    found = ctx.first(CreditFile, company_name=company_name)
    if found is None:
        raise RuleViolation(
            f"no credit file for {company_name}",
            field="company_name",
            hint="search files with creditbureau__list_credit_files",
        )
    require_employee(ctx, pulled_by, field="pulled_by", hint="only subscribers' staff pull reports")
    for old in ctx.where(Report, file_id=found.id, pulled_by=pulled_by, pulled_on=ctx.today()):
        if old.report_type == report_type:
            raise Conflict(
                f"{pulled_by} already pulled this report today ({old.id})",
                field="company_name",
                hint="read it with creditbureau__get_report",
            )
    return ctx.create(
        Report,
        file_id=found.id,
        company_name=found.company_name,
        report_type=report_type,
        purpose=purpose,
        pulled_by=pulled_by,
        pulled_on=ctx.today(),
        price=REPORT_PRICES[report_type],
        paydex=found.paydex,
        intelliscore=found.intelliscore,
        risk_class=found.risk_class,
        recommended_limit=found.recommended_limit,
    )


def _alert(ctx: Ctx, found: CreditFile, kind: AlertKind, detail: str, drop: int = 0) -> None:
    for mon in ctx.where(Monitor, file_id=found.id, status="active"):
        if kind in mon.alert_on and (kind != "score_drop" or drop >= mon.score_drop_points):
            ctx.create(
                Alert, monitor_id=mon.id, file_id=found.id, company_name=found.company_name, kind=kind, detail=detail
            )


def _example_tradeline(ctx: Ctx) -> dict[str, Any] | None:
    found = ctx.first(CreditFile, bankrupt=False)
    who = ctx.population.employees[0].email
    return (
        None
        if found is None
        else {
            "company_name": found.company_name,
            "credit_limit": 5_000_000,
            "balance": 1_200_000,
            "days_beyond_terms": 45,
            "reported_by": who,
        }
    )


@service.tool(intent="report our trade experience with the company", write=True, example=_example_tradeline)
def report_tradeline(
    ctx: Ctx,
    company_name: CompanyName,
    credit_limit: Cents,
    balance: Cents,
    days_beyond_terms: Annotated[int, Field(ge=0, le=365)],
    reported_by: Email,
) -> Tradeline:
    """Report how a company pays us: its days beyond terms and scores move, and monitors are alerted.

    Late payment (over 30 days) and Intelliscore drops raise alerts on the monitors that watch for them.

    Args:
        company_name: The company.
        credit_limit: Credit we extend to it, in cents.
        balance: What it owes us now, in cents (at most the limit).
        days_beyond_terms: How many days past terms it pays us.
        reported_by: The employee reporting.
    """
    found = ctx.first(CreditFile, company_name=company_name)
    if found is None:
        raise RuleViolation(f"no credit file for {company_name}", field="company_name", hint="check the name")
    require_employee(ctx, reported_by, field="reported_by", hint="tradelines are reported by staff")
    if balance > credit_limit:
        raise RuleViolation("the balance is over the credit limit", field="balance", hint="report the real limit")
    made = ctx.create(
        Tradeline,
        file_id=found.id,
        company_name=found.company_name,
        reported_by=reported_by,
        credit_limit=credit_limit,
        balance=balance,
        days_beyond_terms=days_beyond_terms,
    )
    lines = ctx.where(Tradeline, file_id=found.id)
    dbt = round(sum(t.days_beyond_terms for t in lines) / len(lines))
    score = max(1, min(100, found.intelliscore - (days_beyond_terms - found.days_beyond_terms) // 2))
    drop = found.intelliscore - score
    found = ctx.update(
        found,
        days_beyond_terms=dbt,
        paydex=paydex_of(dbt),
        intelliscore=score,
        risk_class=risk_of(score, found.bankrupt),
    )
    if days_beyond_terms > 30:
        _alert(ctx, found, "late_payment", f"Reported {days_beyond_terms} days beyond terms by a supplier")
    if drop > 0:
        _alert(ctx, found, "score_drop", f"Intelliscore fell {drop} points to {score}", drop)
    return made


@service.tool(
    intent="resolve the credit dispute",
    write=True,
    example=first_example(
        Dispute,
        "dispute_id",
        where={"status": "investigating"},
        upheld=True,
        resolution="Tradeline corrected by the reporting supplier.",
    ),
)
def resolve_dispute(ctx: Ctx, dispute_id: DisputeId, upheld: bool, resolution: Text) -> Dispute:
    """Close a dispute under investigation: upheld (resolved) or not (rejected), with the bureau's answer.

    An upheld PAYDEX or tradeline dispute clears the late trade experience: days beyond terms return to 0.

    Args:
        dispute_id: The dispute.
        upheld: Whether the data was wrong.
        resolution: The answer.
    """
    dispute = ctx.get(Dispute, dispute_id, field="dispute_id")
    if dispute.status != "investigating":
        raise RuleViolation(
            f"the dispute is {dispute.status}",
            field="dispute_id",
            hint="only disputes under investigation are resolved",
        )
    if not resolution.strip():
        raise RuleViolation("a resolution is needed", field="resolution", hint="give the bureau's answer")
    if upheld and dispute.topic in ("paydex", "tradeline"):
        found = ctx.get(CreditFile, dispute.file_id)
        ctx.update(found, days_beyond_terms=0, paydex=paydex_of(0))
    return ctx.update(dispute, status="resolved" if upheld else "rejected", resolution=resolution.strip())


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """A credit file for every company of the world but ours, reports, monitors with alerts, tradelines, disputes."""
    pop = s.population
    staff = pop.staff("Finance", "Sales", fallback=3)
    made: list[CreditFile] = []
    for k, company in enumerate(pop.customers):
        dbt = (k * 7) % 40
        score = max(5, 92 - (k * 13) % 80)
        bankrupt = k % 17 == 16
        made.append(
            s.create(
                CreditFile,
                company_name=company.name,
                domain=company.domain,
                duns_number=f"{(104_000_000 + k * 7_919_113) % 1_000_000_000:09d}",
                industry=company.industry,
                city=company.place.city,
                paydex=paydex_of(dbt),
                intelliscore=score,
                risk_class=risk_of(score, bankrupt),
                days_beyond_terms=dbt,
                recommended_limit=max(500_000, company.employees * 250_000 * score // 100),
                liens=int(k % 5 == 4),
                bankrupt=bankrupt,
                created_at=s.ago(days=900),
                updated_at=s.ago(days=1 + k % 30),
            )
        )
    for k, found in enumerate(made[:6]):
        who = staff[k % len(staff)].email
        s.create(
            Report,
            file_id=found.id,
            company_name=found.company_name,
            report_type="credit_advantage",
            purpose="new_account" if k % 2 else "credit_review",
            pulled_by=who,
            pulled_on=s.ago(days=10 + k).date(),
            price=REPORT_PRICES["credit_advantage"],
            paydex=found.paydex,
            intelliscore=found.intelliscore,
            risk_class=found.risk_class,
            recommended_limit=found.recommended_limit,
            created_at=s.ago(days=10 + k),
        )
        mon = s.create(
            Monitor,
            file_id=found.id,
            company_name=found.company_name,
            owner_email=who,
            alert_on=["score_drop", "late_payment", "new_lien", "bankruptcy"][: 2 + k % 3],
            status="paused" if k == 5 else "active",
            created_at=s.ago(days=9 + k),
            updated_at=s.ago(days=9 + k),
        )
        if k < 3:
            s.create(
                Alert,
                monitor_id=mon.id,
                file_id=found.id,
                company_name=found.company_name,
                kind="late_payment",
                detail=f"Reported {30 + 5 * k} days beyond terms by a supplier",
                status=("new", "acknowledged", "new")[k],
                created_at=s.ago(days=2 + k),
            )
        s.create(
            Tradeline,
            file_id=found.id,
            company_name=found.company_name,
            reported_by=staff[0].email,
            credit_limit=2_500_000,
            balance=400_000 * (k + 1),
            days_beyond_terms=found.days_beyond_terms,
            created_at=s.ago(days=20 + k),
        )
    for k, (topic, status) in enumerate((("tradeline", "investigating"), ("paydex", "open"), ("lien", "rejected"))):
        found = made[k + 1]
        s.create(
            Dispute,
            file_id=found.id,
            company_name=found.company_name,
            topic=topic,
            description="The reported late payments were a billing error on the supplier's side.",
            filed_by=staff[0].email,
            status=status,
            resolution="The lien was confirmed by the county recorder." if status == "rejected" else "",
            created_at=s.ago(days=15 - k),
            updated_at=s.ago(days=5 - k),
        )
