"""WorkWell Occupational Health: employer exam orders, drug screens with MRO review, fitness, fit tests, injuries.

Modeled on occupational health employer services (Concentra / WorkCare-style
employer portals with eScreen and Quest drug testing): employer accounts with
a designated employer representative (DER) and whether they are DOT
regulated; authorizations (exam orders) for a worker by reason
(pre-employment, random, post-accident, reasonable suspicion, return to duty,
annual) and services, valid 14 days; drug screens collected on a chain of
custody form (CCF) and resulted by the lab, a non-negative result going to
the medical review officer (MRO) who verifies it positive or, with a
legitimate prescription, negative; fit-for-duty determinations with
restrictions; respirator fit tests (qualitative or quantitative, fit factor
100 or more passes a half-face mask) valid a year; and work injuries whose
OSHA recordability follows 29 CFR 1904.7 (medical treatment beyond first aid,
days away or restricted duty), listed on the OSHA 300 log.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Domain, Email, IdOf, JobTitle, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "occhealth",
    title="WorkWell Occupational Health",
    category="occupational_health",
    modeled_on="Occupational health employer services (Concentra / WorkCare employer portal, eScreen/Quest drug "
    "testing): employer accounts and DERs, exam authorizations, CCF drug screens with MRO verification, fit-for-duty "
    "determinations, respirator fit tests, OSHA 300 recordable injuries",
    description="An occupational health clinic serving employers: client companies and their workers, exam orders by "
    "reason, drug screens through lab and medical review officer, fitness-for-duty results, respirator fit tests "
    "that expire, and work injuries classified for the OSHA log.",
)

EmployerId = Annotated[str, IdOf("occhealth.employer")]
WorkerId = Annotated[str, IdOf("occhealth.worker")]
OrderId = Annotated[str, IdOf("occhealth.order")]
ScreenId = Annotated[str, IdOf("occhealth.drug_screen")]
FitTestId = Annotated[str, IdOf("occhealth.fit_test")]
InjuryId = Annotated[str, IdOf("occhealth.injury")]

Ccf = Annotated[str, StringConstraints(pattern=r"^[0-9]{7,10}$")]
"""Chain of custody form number."""

Reason = Literal["pre_employment", "random", "post_accident", "reasonable_suspicion", "return_to_duty", "annual"]
Svc = Literal["drug_screen", "physical", "respirator_fit", "audiogram"]
OrderStatus = Literal["ordered", "completed", "cancelled", "expired"]
LabResult = Literal["negative", "non_negative", "dilute", "rejected"]
MroStatus = Literal["pending_collection", "at_lab", "mro_review", "verified_negative", "verified_positive", "cancelled"]
Determination = Literal["fit", "fit_with_restrictions", "not_fit"]
Method = Literal["qualitative", "quantitative"]
Treatment = Literal["first_aid", "medical_treatment"]

ORDER_DAYS = 14
PASS_FIT_FACTOR = 100


class Employer(Timestamped):
    """A client company."""

    id: EmployerId
    name: CompanyName
    """Company name."""
    domain: Domain
    """Its web domain."""
    der_email: Email
    """The designated employer representative, who receives results."""
    dot_regulated: bool = False
    """Whether its drivers fall under DOT testing rules."""


class Worker(Timestamped):
    """An employee or applicant of a client company."""

    id: WorkerId
    employer_id: EmployerId
    """The employer."""
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    job_title: JobTitle
    """Job."""
    birth_date: Date
    """Date of birth."""


class Order(Timestamped):
    """An employer's authorization for services for a worker."""

    id: OrderId
    employer_id: EmployerId
    """The employer."""
    worker_id: WorkerId
    """The worker."""
    reason: Reason
    """Why."""
    services: tuple[Svc, ...]
    """What to do."""
    dot: bool = False
    """A DOT-regulated test."""
    expires_on: Date
    """The last day the worker can come in."""
    status: OrderStatus = "ordered"
    """ordered, completed, cancelled or expired."""
    determination: Determination | None = None
    """Fit-for-duty result."""
    restrictions: Text = ""
    """Work restrictions."""


class DrugScreen(Timestamped):
    """A drug test on a chain of custody form."""

    id: ScreenId
    order_id: OrderId
    """The order."""
    worker_id: WorkerId
    """The donor."""
    ccf_number: Ccf | None = None
    """Chain of custody form number."""
    panel: Literal["5_panel_dot", "10_panel", "hair_5_panel"] = "10_panel"
    """The test panel."""
    collected_at: DateTime | None = None
    """When the specimen was collected."""
    lab_result: LabResult | None = None
    """The lab's result."""
    status: MroStatus = "pending_collection"
    """pending_collection, at_lab, mro_review, verified_negative, verified_positive or cancelled."""
    mro_note: Text = ""
    """The MRO's note."""


class FitTest(Timestamped):
    """A respirator fit test."""

    id: FitTestId
    worker_id: WorkerId
    """The worker."""
    respirator: Annotated[str, StringConstraints(min_length=2, max_length=80)]
    """Make, model and size."""
    method: Method
    """qualitative or quantitative."""
    fit_factor: Annotated[int, Field(ge=0, le=10000)] | None = None
    """Quantitative fit factor."""
    passed: bool
    """Pass or fail."""
    tested_on: Date
    """When."""
    expires_on: Date
    """A year later."""


class Injury(Timestamped):
    """A work injury or illness case."""

    id: InjuryId
    employer_id: EmployerId
    """The employer."""
    worker_id: WorkerId
    """The worker."""
    occurred_on: Date
    """When."""
    description: Text
    """What happened."""
    body_part: Annotated[str, StringConstraints(min_length=2, max_length=40)]
    """Body part affected."""
    treatment: Treatment = "first_aid"
    """first_aid or medical_treatment."""
    days_away: Annotated[int, Field(ge=0, le=180)] = 0
    """Days away from work."""
    restricted_days: Annotated[int, Field(ge=0, le=180)] = 0
    """Days on restricted duty."""
    recordable: bool = False
    """OSHA recordable (computed)."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""


class LogLine(Value):
    """A line of the OSHA 300 log."""

    injury_id: InjuryId
    """The case."""
    worker_name: PersonName
    """The worker."""
    occurred_on: Date
    """When."""
    description: Text
    """What happened."""
    days_away: int
    """Days away."""
    restricted_days: int
    """Days restricted."""


# -- rules ------------------------------------------------------------------------------------


def _recordable(treatment: str, days_away: int, restricted: int) -> bool:
    return treatment == "medical_treatment" or days_away > 0 or restricted > 0


def _guard_injury(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "closed":
        raise RuleViolation(f"case {old.id} is closed", field="injury_id", hint="closed cases are final")
    flag = _recordable(new.treatment, new.days_away, new.restricted_days)
    if flag != new.recordable:
        ctx.update(new, recordable=flag)


employers = service.resource(
    Employer,
    name="employer",
    plural="employers",
    prefix="emp",
    create=False,
    filters=("domain", "der_email", "dot_regulated"),
    search=("name",),
    update=("der_email",),
    delete=False,
)
workers = service.resource(
    Worker,
    name="worker",
    plural="workers",
    prefix="wkr",
    create=("employer_id", "name", "email", "job_title", "birth_date"),
    filters=("employer_id", "email"),
    search=("name",),
    update=("job_title",),
    delete=False,
    unique=("email",),
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="auth",
    create=False,
    filters=("employer_id", "worker_id", "status", "reason"),
    delete=False,
    transitions={"cancel": Transition("status", ("ordered",), "cancelled", "cancel the exam order")},
    title="exam order",
)
screens = service.resource(
    DrugScreen,
    name="drug_screen",
    plural="drug_screens",
    prefix="dt",
    create=False,
    filters=("order_id", "worker_id", "status", "ccf_number"),
    delete=False,
)
fit_tests = service.resource(
    FitTest,
    name="fit_test",
    plural="fit_tests",
    prefix="fit",
    create=False,
    filters=("worker_id", "passed"),
    delete=False,
    title="respirator fit test",
)
injuries = service.resource(
    Injury,
    name="injury",
    plural="injuries",
    prefix="case",
    create=False,
    filters=("employer_id", "worker_id", "recordable", "status"),
    update=("treatment", "days_away", "restricted_days", "description"),
    delete=False,
    transitions={"close": Transition("status", ("open",), "closed", "close the injury case")},
    guard_update=_guard_injury,
)


# -- domain tools -----------------------------------------------------------------------------


def _open_order(ctx: Ctx, order_id: str, service_name: str) -> Order:
    o = ctx.get(Order, order_id, field="order_id")
    if o.status != "ordered" or o.expires_on < ctx.today():
        raise RuleViolation(
            f"order {o.id} is {o.status}, valid to {o.expires_on}",
            field="order_id",
            hint="the employer must authorize a new visit",
        )
    if service_name not in o.services:
        raise RuleViolation(
            f"order {o.id} does not authorize a {service_name}",
            field="order_id",
            hint="ask the employer to add the service",
        )
    return o


@service.tool(
    intent="order an exam for the worker",
    write=True,
    example=lambda ctx: (
        None
        if (w := ctx.first(Worker)) is None
        else {"worker_id": w.id, "reason": "pre_employment", "services": ["drug_screen", "physical"]}
    ),
)
def create_order(ctx: Ctx, worker_id: WorkerId, reason: Reason, services: list[Svc], dot: bool = False) -> Order:
    """Authorize services for a worker on the employer's account, valid 14 days; a drug screen order opens a screen.

    Args:
        worker_id: The worker.
        reason: pre_employment, random, post_accident, reasonable_suspicion, return_to_duty or annual.
        services: drug_screen, physical, respirator_fit, audiogram.
        dot: A DOT-regulated test (only for DOT-regulated employers).
    """
    w = ctx.get(Worker, worker_id, field="worker_id")
    emp = ctx.get(Employer, w.employer_id)
    if not services or len(set(services)) != len(services):
        raise RuleViolation("list each service once", field="services", hint="name what to do")
    if dot and not emp.dot_regulated:
        raise RuleViolation(f"{emp.name} is not DOT regulated", field="dot", hint="order a non-DOT test")
    for other in ctx.where(Order, worker_id=w.id, status="ordered"):
        if other.reason == reason and other.expires_on >= ctx.today():
            raise Conflict(f"order {other.id} for {reason} is open", field="reason", hint="use the open order")
    order = ctx.create(
        Order,
        employer_id=emp.id,
        worker_id=w.id,
        reason=reason,
        services=tuple(services),
        dot=dot,
        expires_on=ctx.today() + dt.timedelta(days=ORDER_DAYS),
    )
    if "drug_screen" in services:
        ctx.create(DrugScreen, order_id=order.id, worker_id=w.id, panel="5_panel_dot" if dot else "10_panel")
    return order


def _example_collect(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(DrugScreen, status="pending_collection")
    return None if s is None else {"drug_screen_id": s.id, "ccf_number": "8812345"}


@service.tool(intent="record the specimen collection", write=True, example=_example_collect)
def record_collection(ctx: Ctx, drug_screen_id: ScreenId, ccf_number: Ccf) -> DrugScreen:
    """Collect the specimen of a pending screen on a chain of custody form (each CCF is used once); it goes to the lab.

    Args:
        drug_screen_id: A screen pending collection.
        ccf_number: The CCF number.
    """
    s = ctx.get(DrugScreen, drug_screen_id, field="drug_screen_id")
    if s.status != "pending_collection":
        raise RuleViolation(f"screen {s.id} is {s.status}", field="drug_screen_id", hint="already collected")
    _open_order(ctx, s.order_id, "drug_screen")
    if ctx.first(DrugScreen, ccf_number=ccf_number) is not None:
        raise Conflict(f"CCF {ccf_number} is already used", field="ccf_number", hint="use a new form")
    return ctx.update(s, ccf_number=ccf_number, collected_at=ctx.now(), status="at_lab")


@service.tool(
    intent="record the lab result of the drug screen",
    write=True,
    example=first_example(DrugScreen, "drug_screen_id", where={"status": "at_lab"}, result="negative"),
)
def record_lab_result(ctx: Ctx, drug_screen_id: ScreenId, result: LabResult) -> DrugScreen:
    """Record the lab's result: negative is verified negative and non-negative goes to MRO review.

    Dilute and rejected specimens are cancelled (recollect on a new order).

    Args:
        drug_screen_id: A screen at the lab.
        result: negative, non_negative, dilute or rejected.
    """
    s = ctx.get(DrugScreen, drug_screen_id, field="drug_screen_id")
    if s.status != "at_lab":
        raise RuleViolation(f"screen {s.id} is {s.status}", field="drug_screen_id", hint="only screens at the lab")
    outcome: dict[str, MroStatus] = {"negative": "verified_negative", "non_negative": "mro_review"}
    status = outcome.get(result, "cancelled")
    if status == "verified_negative":
        _complete(ctx, s.order_id)
    return ctx.update(s, lab_result=result, status=status)


def _complete(ctx: Ctx, order_id: str) -> None:
    o = ctx.get(Order, order_id)
    if o.status == "ordered":
        ctx.update(o, status="completed")


@service.tool(
    intent="verify the drug screen as the MRO",
    write=True,
    example=first_example(
        DrugScreen,
        "drug_screen_id",
        where={"status": "mro_review"},
        positive=False,
        note="Valid prescription for the detected drug confirmed with the pharmacy.",
    ),
)
def mro_verify(ctx: Ctx, drug_screen_id: ScreenId, positive: bool, note: Text) -> DrugScreen:
    """The MRO verifies a non-negative screen after the donor interview, with a required note.

    It is verified positive, or negative when there is a legitimate medical explanation.

    Args:
        drug_screen_id: A screen in MRO review.
        positive: Whether it is verified positive.
        note: The MRO's note.
    """
    s = ctx.get(DrugScreen, drug_screen_id, field="drug_screen_id")
    if s.status != "mro_review":
        raise RuleViolation(f"screen {s.id} is {s.status}", field="drug_screen_id", hint="only screens under review")
    if not note.strip():
        raise RuleViolation("the MRO documents the interview", field="note", hint="write the note")
    _complete(ctx, s.order_id)
    return ctx.update(s, status="verified_positive" if positive else "verified_negative", mro_note=note.strip())


@service.tool(
    intent="record the fitness-for-duty determination",
    write=True,
    example=first_example(
        Order, "order_id", where={"status": "ordered"}, match=lambda c, o: "physical" in o.services, determination="fit"
    ),
)
def record_fitness(ctx: Ctx, order_id: OrderId, determination: Determination, restrictions: Text = "") -> Order:
    """Record the physical's fit-for-duty result; fit with restrictions must state them.

    Args:
        order_id: An open order that authorizes a physical.
        determination: fit, fit_with_restrictions or not_fit.
        restrictions: The restrictions (for fit_with_restrictions).
    """
    o = _open_order(ctx, order_id, "physical")
    if determination == "fit_with_restrictions" and not restrictions.strip():
        raise RuleViolation("state the restrictions", field="restrictions", hint="e.g. no lifting over 20 lb")
    pending = [
        s for s in ctx.where(DrugScreen, order_id=o.id) if s.status in ("pending_collection", "at_lab", "mro_review")
    ]
    return ctx.update(
        o, determination=determination, restrictions=restrictions.strip(), status="ordered" if pending else "completed"
    )


@service.tool(
    intent="record a respirator fit test",
    write=True,
    example=lambda ctx: (
        None
        if (w := ctx.first(Worker)) is None
        else {
            "worker_id": w.id,
            "respirator": "3M 6200 half facepiece, medium",
            "method": "quantitative",
            "fit_factor": 180,
        }
    ),
)
def record_fit_test(
    ctx: Ctx,
    worker_id: WorkerId,
    respirator: Annotated[str, StringConstraints(min_length=2, max_length=80)],
    method: Method,
    fit_factor: Annotated[int, Field(ge=0, le=10000)] | None = None,
    passed: bool | None = None,
) -> FitTest:
    """Record a fit test valid a year: quantitative tests give a fit factor (100+ passes), qualitative ones pass/fail.

    Args:
        worker_id: The worker.
        respirator: Make, model and size.
        method: qualitative or quantitative.
        fit_factor: The fit factor (quantitative).
        passed: The result (qualitative).
    """
    w = ctx.get(Worker, worker_id, field="worker_id")
    if method == "quantitative":
        if fit_factor is None:
            raise RuleViolation("a quantitative test gives a fit factor", field="fit_factor", hint="record it")
        ok = fit_factor >= PASS_FIT_FACTOR
    else:
        if passed is None:
            raise RuleViolation("a qualitative test passes or fails", field="passed", hint="record the result")
        ok = passed
    today = ctx.today()
    return ctx.create(
        FitTest,
        worker_id=w.id,
        respirator=respirator,
        method=method,
        fit_factor=fit_factor if method == "quantitative" else None,
        passed=ok,
        tested_on=today,
        expires_on=today + dt.timedelta(days=365),
    )


@service.tool(
    intent="report a work injury",
    write=True,
    example=lambda ctx: (
        None
        if (w := ctx.first(Worker)) is None
        else {
            "worker_id": w.id,
            "occurred_on": ctx.today().isoformat(),
            "description": "Cut hand on box cutter.",
            "body_part": "left hand",
            "treatment": "first_aid",
        }
    ),
)
def report_injury(
    ctx: Ctx,
    worker_id: WorkerId,
    occurred_on: Date,
    description: Text,
    body_part: Annotated[str, StringConstraints(min_length=2, max_length=40)],
    treatment: Treatment = "first_aid",
    days_away: Annotated[int, Field(ge=0, le=180)] = 0,
    restricted_days: Annotated[int, Field(ge=0, le=180)] = 0,
) -> Injury:
    """Open an injury case for a worker; it is OSHA recordable with medical treatment, days away or restriction.

    Args:
        worker_id: The worker.
        occurred_on: When (not in the future).
        description: What happened (required).
        body_part: Body part affected.
        treatment: first_aid or medical_treatment.
        days_away: Days away from work.
        restricted_days: Days of restricted duty.
    """
    w = ctx.get(Worker, worker_id, field="worker_id")
    if occurred_on > ctx.today():
        raise RuleViolation("the injury is dated in the future", field="occurred_on", hint="give when it happened")
    if not description.strip():
        raise RuleViolation("describe the injury", field="description", hint="say what happened")
    return ctx.create(
        Injury,
        employer_id=w.employer_id,
        worker_id=w.id,
        occurred_on=occurred_on,
        description=description.strip(),
        body_part=body_part,
        treatment=treatment,
        days_away=days_away,
        restricted_days=restricted_days,
        recordable=_recordable(treatment, days_away, restricted_days),
    )


@service.tool(intent="show the employer's OSHA 300 log", example=first_example(Employer, "employer_id", year=2026))
def osha_log(ctx: Ctx, employer_id: EmployerId, year: Annotated[int, Field(ge=2000, le=2100)]) -> list[LogLine]:
    """The recordable cases of an employer in a calendar year, oldest first (the OSHA 300 log).

    Args:
        employer_id: The employer.
        year: The calendar year.
    """
    emp = ctx.get(Employer, employer_id, field="employer_id")
    cases = [i for i in ctx.where(Injury, employer_id=emp.id, recordable=True) if i.occurred_on.year == year]
    return [
        LogLine(
            injury_id=i.id,
            worker_name=ctx.get(Worker, i.worker_id).name,
            occurred_on=i.occurred_on,
            description=i.description,
            days_away=i.days_away,
            restricted_days=i.restricted_days,
        )
        for i in sorted(cases, key=lambda i: (i.occurred_on, i.id))
    ]


# -- seed -------------------------------------------------------------------------------------

REASONS: tuple[Reason, ...] = ("pre_employment", "random", "post_accident", "annual", "return_to_duty")


@service.seeder
def seed(s: SeedContext) -> None:
    """Customer companies as employers with their contacts as workers, orders, screens in every state, injuries."""
    pop = s.population
    today = s.now.date()
    made: list[tuple[Employer, list[Worker]]] = []
    for i, company in enumerate(pop.customers[:4]):
        people = list(pop.people_at(company))
        if not people:
            continue
        emp = s.create(
            Employer,
            name=company.name,
            domain=company.domain,
            der_email=people[0].email,
            dot_regulated=company.industry in ("logistics", "transportation") or i == 1,
        )
        ws = [
            s.create(
                Worker, employer_id=emp.id, name=p.name, email=p.email, job_title=p.job_title, birth_date=p.birth_date
            )
            for p in people[:4]
        ]
        made.append((emp, ws))
    states: tuple[MroStatus, ...] = (
        "pending_collection",
        "at_lab",
        "mro_review",
        "verified_negative",
        "verified_positive",
    )
    n = 0
    for emp, ws in made:
        for w in ws:
            reason = REASONS[n % len(REASONS)]
            st = states[n % len(states)]
            done = st in ("verified_negative", "verified_positive")
            o = s.create(
                Order,
                employer_id=emp.id,
                worker_id=w.id,
                reason=reason,
                services=("drug_screen", "physical") if n % 2 else ("drug_screen",),
                dot=emp.dot_regulated and n % 3 == 0,
                expires_on=today + dt.timedelta(days=10 - n % 4),
                status="completed" if done else "ordered",
            )
            s.create(
                DrugScreen,
                order_id=o.id,
                worker_id=w.id,
                status=st,
                ccf_number=None if st == "pending_collection" else f"{7700100 + 13 * n}",
                collected_at=None if st == "pending_collection" else s.ago(days=1 + n % 3),
                lab_result=None
                if st in ("pending_collection", "at_lab")
                else ("negative" if st == "verified_negative" else "non_negative"),
                mro_note="Donor interview: no medical explanation." if st == "verified_positive" else "",
            )
            if n % 3 == 0:
                s.create(
                    FitTest,
                    worker_id=w.id,
                    respirator="3M 8210 N95",
                    method="qualitative",
                    passed=n % 2 == 0,
                    tested_on=today - dt.timedelta(days=300 + 20 * n),
                    expires_on=today + dt.timedelta(days=65 - 20 * n),
                )
            n += 1
        for k, (treat, away, restr) in enumerate((("first_aid", 0, 0), ("medical_treatment", 3, 5))):
            s.create(
                Injury,
                employer_id=emp.id,
                worker_id=ws[k % len(ws)].id,
                occurred_on=today - dt.timedelta(days=30 + 11 * k),
                description=("Strained back lifting a carton.", "Laceration needing sutures.")[k],
                body_part=("lower back", "right hand")[k],
                treatment=treat,
                days_away=away,
                restricted_days=restr,
                recordable=_recordable(treat, away, restr),
                status="closed" if k == 0 and emp is made[0][0] else "open",
            )
