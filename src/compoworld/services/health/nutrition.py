"""Sprout Nutrition: clients, dietitians, session packages, meal plans, food journals and goals.

Modeled on Healthie (clients assigned to a dietitian; offerings sold as
packages of sessions that clients purchase and draw down; sessions booked
as initial consults or follow-ups that are completed, cancelled or no-shows,
a no-show still using the credit; meal plans with a calorie target and a
macronutrient split that must add up to 100% and that are published to the
client, one at a time; food journal entries the client logs by meal, which the
dietitian comments on; goals for weight, habits or labs that are achieved or
abandoned): a follow-up needs a completed initial consult, a session draws on
an active package with sessions left, only the client's own dietitian books
them, and an archived client logs nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import utc_at
from compoworld.world.care import clinicians

__all__ = ["service"]

service = Service(
    "nutrition",
    title="Sprout Nutrition",
    category="nutrition_coaching",
    modeled_on="Healthie: clients and providers, offerings/packages and purchases, appointments (initial and "
    "follow-up), meal plans with macros, food journal entries with provider comments, goals",
    description="A nutrition coaching practice: clients and their dietitians, session packages clients buy, "
    "initial consults and follow-ups, meal plans with calorie and macro targets, food journals the dietitian "
    "reviews, and goals tracked to achievement.",
)

ClientId = Annotated[str, IdOf("nutrition.client")]
DietitianId = Annotated[str, IdOf("nutrition.dietitian")]
PackageId = Annotated[str, IdOf("nutrition.package")]
PurchaseId = Annotated[str, IdOf("nutrition.purchase")]
SessionId = Annotated[str, IdOf("nutrition.session")]
PlanId = Annotated[str, IdOf("nutrition.meal_plan")]
EntryId = Annotated[str, IdOf("nutrition.entry")]
GoalId = Annotated[str, IdOf("nutrition.goal")]

Kind = Literal["initial", "follow_up"]
SessionStatus = Literal["booked", "completed", "cancelled", "no_show"]
Meal = Literal["breakfast", "lunch", "dinner", "snack"]
GoalKind = Literal["weight", "habit", "lab"]
GoalStatus = Literal["active", "achieved", "abandoned"]
PlanStatus = Literal["draft", "published", "archived"]
Pct = Annotated[int, Field(ge=0, le=100)]


class Dietitian(Timestamped):
    """A registered dietitian."""

    id: DietitianId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    credential: Literal["rd", "rdn", "cde", "nutrition_coach"] = "rdn"
    """rd, rdn, cde or nutrition_coach."""


class Client(Timestamped):
    """A client of the practice."""

    id: ClientId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone | None = None
    """Phone."""
    birth_date: Date
    """Date of birth."""
    dietitian_id: DietitianId
    """Their dietitian."""
    status: Literal["active", "archived"] = "active"
    """active or archived."""


class Package(Timestamped):
    """An offering clients can buy."""

    id: PackageId
    name: Title
    """Its name."""
    sessions: Annotated[int, Field(ge=1, le=52)]
    """Sessions included."""
    price_cents: Cents
    """Price."""
    active: bool = True
    """Whether it is on sale."""


class Purchase(Timestamped):
    """A client's purchase of a package."""

    id: PurchaseId
    client_id: ClientId
    """The client."""
    package_id: PackageId
    """The package."""
    sessions_left: Annotated[int, Field(ge=0)]
    """Session credits left."""
    amount_cents: Cents
    """What was paid."""
    status: Literal["active", "used_up", "refunded"] = "active"
    """active, used_up or refunded."""


class Session(Timestamped):
    """A session with a dietitian."""

    id: SessionId
    client_id: ClientId
    """The client."""
    dietitian_id: DietitianId
    """The dietitian."""
    purchase_id: PurchaseId
    """The package credit it uses."""
    kind: Kind
    """initial or follow_up."""
    starts_at: DateTime
    """When."""
    status: SessionStatus = "booked"
    """booked, completed, cancelled or no_show."""
    note: Text = ""
    """Charting note."""


class MealPlan(Timestamped):
    """A meal plan for a client."""

    id: PlanId
    client_id: ClientId
    """The client."""
    name: Title
    """Its name."""
    calories: Annotated[int, Field(ge=800, le=5000)]
    """Daily calorie target."""
    protein_pct: Pct
    """Share of calories from protein."""
    carbs_pct: Pct
    """Share from carbohydrate."""
    fat_pct: Pct
    """Share from fat."""
    status: PlanStatus = "draft"
    """draft, published or archived."""


class Entry(Timestamped):
    """A food journal entry."""

    id: EntryId
    client_id: ClientId
    """The client."""
    logged_on: Date
    """The day."""
    meal: Meal
    """breakfast, lunch, dinner or snack."""
    description: Text
    """What was eaten."""
    calories: Annotated[int, Field(ge=0, le=5000)]
    """Calories."""
    comment: Text = ""
    """The dietitian's comment."""


class Goal(Timestamped):
    """A client's goal."""

    id: GoalId
    client_id: ClientId
    """The client."""
    kind: GoalKind
    """weight, habit or lab."""
    description: Text
    """The goal."""
    due_on: Date
    """Target date."""
    status: GoalStatus = "active"
    """active, achieved or abandoned."""


# -- rules ------------------------------------------------------------------------------------


def _active_client(ctx: Ctx, client_id: str) -> Client:
    c = ctx.get(Client, client_id, field="client_id")
    if c.status != "active":
        raise RuleViolation(f"{c.name} is archived", field="client_id", hint="reactivate the client first")
    return c


def _guard_goal(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _active_client(ctx, new.client_id)
        if not new.description.strip():
            raise RuleViolation("describe the goal", field="description", hint="say what the client aims for")
        if new.due_on <= ctx.today():
            raise RuleViolation("the target date has passed", field="due_on", hint="pick a future date")


def _guard_publish(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "published" and old.status != "published":
        for other in ctx.where(MealPlan, client_id=new.client_id, status="published"):
            if other.id != new.id:
                ctx.update(other, status="archived")


dietitians = service.resource(
    Dietitian,
    name="dietitian",
    plural="dietitians",
    prefix="rd",
    create=False,
    filters=("email", "credential"),
    search=("name",),
    delete=False,
)
clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    create=("name", "email", "phone", "birth_date", "dietitian_id"),
    filters=("email", "dietitian_id", "status"),
    search=("name",),
    update=("email", "phone", "dietitian_id"),
    delete=False,
    unique=("email",),
    transitions={
        "archive": Transition("status", ("active",), "archived", "archive the client"),
        "reactivate": Transition("status", ("archived",), "active", "reactivate the client"),
    },
)
packages = service.resource(
    Package,
    name="package",
    plural="packages",
    prefix="pkg",
    create=False,
    filters=("active",),
    search=("name",),
    delete=False,
)
purchases = service.resource(
    Purchase,
    name="purchase",
    plural="purchases",
    prefix="pur",
    create=False,
    filters=("client_id", "package_id", "status"),
    delete=False,
    title="package purchase",
)
sessions = service.resource(
    Session,
    name="session",
    plural="sessions",
    prefix="ses",
    create=False,
    filters=("client_id", "dietitian_id", "status", "kind"),
    delete=False,
)
meal_plans = service.resource(
    MealPlan,
    name="meal_plan",
    plural="meal_plans",
    prefix="mp",
    create=False,
    filters=("client_id", "status"),
    delete=False,
    transitions={"publish": Transition("status", ("draft",), "published", "publish the meal plan to the client")},
    guard_update=_guard_publish,
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="fj",
    create=False,
    filters=("client_id", "logged_on", "meal"),
    update=("comment",),
    delete=False,
    title="food journal entry",
)
goals = service.resource(
    Goal,
    name="goal",
    plural="goals",
    prefix="goal",
    create=("client_id", "kind", "description", "due_on"),
    filters=("client_id", "status", "kind"),
    delete=False,
    transitions={
        "achieve": Transition("status", ("active",), "achieved", "mark the goal achieved"),
        "abandon": Transition("status", ("active",), "abandoned", "abandon the goal"),
    },
    guard_create=_guard_goal,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="sell the package to the client",
    write=True,
    example=lambda ctx: (
        None
        if (c := ctx.first(Client, status="active")) is None or (p := ctx.first(Package, active=True)) is None
        else {"client_id": c.id, "package_id": p.id}
    ),
)
def purchase_package(ctx: Ctx, client_id: ClientId, package_id: PackageId) -> Purchase:
    """Sell an on-sale package to an active client: they get its session credits.

    Args:
        client_id: The client.
        package_id: A package on sale.
    """
    c = _active_client(ctx, client_id)
    pkg = ctx.get(Package, package_id, field="package_id")
    if not pkg.active:
        raise RuleViolation(f"{pkg.name} is not on sale", field="package_id", hint="pick an active package")
    return ctx.create(
        Purchase, client_id=c.id, package_id=pkg.id, sessions_left=pkg.sessions, amount_cents=pkg.price_cents
    )


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    for pur in ctx.where(Purchase, status="active"):
        c = ctx.get(Client, pur.client_id)
        done = any(s.kind == "initial" and s.status == "completed" for s in ctx.where(Session, client_id=c.id))
        if c.status == "active" and done:
            return {
                "client_id": c.id,
                "kind": "follow_up",
                "starts_at": utc_at(ctx.today() + dt.timedelta(days=6), 17).isoformat(),
            }
    return None


@service.tool(intent="book a session with the client's dietitian", write=True, example=_example_book)
def book_session(ctx: Ctx, client_id: ClientId, kind: Kind, starts_at: DateTime) -> Session:
    """Book a session with the client's own dietitian on a package credit (the oldest active purchase).

    A follow-up needs a completed initial consult; the dietitian must be free then.

    Args:
        client_id: An active client.
        kind: initial or follow_up.
        starts_at: When (in the future).
    """
    c = _active_client(ctx, client_id)
    if starts_at <= ctx.now():
        raise RuleViolation("the time has passed", field="starts_at", hint="pick a future time")
    mine = ctx.where(Session, client_id=c.id)
    if kind == "follow_up" and not any(s.kind == "initial" and s.status == "completed" for s in mine):
        raise RuleViolation(f"{c.name} has had no initial consult", field="kind", hint="book an initial session")
    pur = next((p for p in ctx.where(Purchase, client_id=c.id, status="active") if p.sessions_left > 0), None)
    if pur is None:
        raise RuleViolation(f"{c.name} has no session credit", field="client_id", hint="sell them a package")
    for other in ctx.where(Session, dietitian_id=c.dietitian_id, status="booked"):
        if abs((other.starts_at - starts_at).total_seconds()) < 3600:
            raise Conflict(f"the dietitian has session {other.id} then", field="starts_at", hint="pick another time")
    left = pur.sessions_left - 1
    ctx.update(pur, sessions_left=left, status="used_up" if left == 0 else "active")
    return ctx.create(
        Session, client_id=c.id, dietitian_id=c.dietitian_id, purchase_id=pur.id, kind=kind, starts_at=starts_at
    )


@service.tool(
    intent="complete the nutrition session",
    write=True,
    example=first_example(
        Session,
        "session_id",
        where={"status": "booked"},
        match=lambda c, s: s.starts_at <= c.now(),
        note="Reviewed journal; add a protein at breakfast.",
    ),
)
def complete_session(ctx: Ctx, session_id: SessionId, note: Text) -> Session:
    """Chart a booked session that has begun as completed.

    Args:
        session_id: A booked session.
        note: The charting note (required).
    """
    s = ctx.get(Session, session_id, field="session_id")
    if s.status != "booked" or s.starts_at > ctx.now():
        raise RuleViolation(
            f"session {s.id} is {s.status} at {s.starts_at:%Y-%m-%d %H:%M}",
            field="session_id",
            hint="complete a booked session once it has begun",
        )
    if not note.strip():
        raise RuleViolation("chart the session", field="note", hint="write the note")
    return ctx.update(s, status="completed", note=note.strip())


@service.tool(
    intent="cancel the nutrition session",
    write=True,
    example=first_example(Session, "session_id", where={"status": "booked"}, match=lambda c, s: s.starts_at > c.now()),
)
def cancel_session(ctx: Ctx, session_id: SessionId) -> Session:
    """Cancel a future booked session; its credit goes back to the package.

    Args:
        session_id: A booked future session.
    """
    s = ctx.get(Session, session_id, field="session_id")
    if s.status != "booked" or s.starts_at <= ctx.now():
        raise RuleViolation(
            f"session {s.id} cannot be cancelled",
            field="session_id",
            hint="cancel future booked sessions; mark a missed one as a no-show",
        )
    pur = ctx.get(Purchase, s.purchase_id)
    if pur.status != "refunded":
        ctx.update(pur, sessions_left=pur.sessions_left + 1, status="active")
    return ctx.update(s, status="cancelled")


@service.tool(
    intent="mark the client a no-show",
    write=True,
    example=first_example(Session, "session_id", where={"status": "booked"}, match=lambda c, s: s.starts_at <= c.now()),
)
def mark_no_show(ctx: Ctx, session_id: SessionId) -> Session:
    """Record a booked session the client missed; the credit stays used.

    Args:
        session_id: A booked session that has begun.
    """
    s = ctx.get(Session, session_id, field="session_id")
    if s.status != "booked" or s.starts_at > ctx.now():
        raise RuleViolation(f"session {s.id} is {s.status}", field="session_id", hint="only sessions that began")
    return ctx.update(s, status="no_show")


@service.tool(
    intent="write a meal plan for the client",
    write=True,
    example=first_example(
        Client,
        "client_id",
        where={"status": "active"},
        name="Mediterranean 1,800 kcal",
        calories=1800,
        protein_pct=25,
        carbs_pct=45,
        fat_pct=30,
    ),
)
def create_meal_plan(
    ctx: Ctx,
    client_id: ClientId,
    name: Title,
    calories: Annotated[int, Field(ge=800, le=5000)],
    protein_pct: Pct,
    carbs_pct: Pct,
    fat_pct: Pct,
) -> MealPlan:
    """Draft a meal plan; protein, carbohydrate and fat shares must add up to 100%.

    Args:
        client_id: An active client.
        name: Its name.
        calories: Daily target (800-5000).
        protein_pct: Protein share.
        carbs_pct: Carbohydrate share.
        fat_pct: Fat share.
    """
    c = _active_client(ctx, client_id)
    if protein_pct + carbs_pct + fat_pct != 100:
        raise RuleViolation(
            f"the macros add up to {protein_pct + carbs_pct + fat_pct}%", field="fat_pct", hint="make them add to 100"
        )
    return ctx.create(
        MealPlan,
        client_id=c.id,
        name=name,
        calories=calories,
        protein_pct=protein_pct,
        carbs_pct=carbs_pct,
        fat_pct=fat_pct,
    )


@service.tool(
    intent="log a food journal entry for the client",
    write=True,
    example=first_example(
        Client,
        "client_id",
        where={"status": "active"},
        meal="lunch",
        description="Quinoa bowl with chickpeas and feta",
        calories=620,
    ),
)
def log_food(
    ctx: Ctx, client_id: ClientId, meal: Meal, description: Text, calories: Annotated[int, Field(ge=0, le=5000)]
) -> Entry:
    """Log what an active client ate today at a meal.

    Args:
        client_id: The client.
        meal: breakfast, lunch, dinner or snack.
        description: What was eaten (required).
        calories: Calories.
    """
    c = _active_client(ctx, client_id)
    if not description.strip():
        raise RuleViolation("say what was eaten", field="description", hint="describe the meal")
    return ctx.create(
        Entry, client_id=c.id, logged_on=ctx.today(), meal=meal, description=description.strip(), calories=calories
    )


@service.tool(
    intent="total the client's calories for a day",
    example=first_example(Entry, None, fields={"client_id": "client_id", "day": "logged_on"}),
)
def daily_intake(ctx: Ctx, client_id: ClientId, day: Date) -> dict[str, int]:
    """Calories logged per meal on a day, with the total and the published plan's target (0 when none).

    Args:
        client_id: The client.
        day: The day.
    """
    c = ctx.get(Client, client_id, field="client_id")
    out = {m: 0 for m in ("breakfast", "lunch", "dinner", "snack")}
    for e in ctx.where(Entry, client_id=c.id, logged_on=day):
        out[e.meal] += e.calories
    plan = ctx.first(MealPlan, client_id=c.id, status="published")
    return out | {"total": sum(out.values()), "target": plan.calories if plan else 0}


# -- seed -------------------------------------------------------------------------------------

PACKAGES = (
    ("Initial consult", 1, 15000),
    ("Foundations: 4 sessions", 4, 44000),
    ("Transform: 12 sessions", 12, 114000),
)
FOODS = (
    ("breakfast", "Greek yogurt, berries, granola", 380),
    ("lunch", "Turkey wrap and apple", 540),
    ("dinner", "Salmon, rice, broccoli", 690),
    ("snack", "Almonds", 170),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Dietitians from the practice, packages, consumer clients with purchases, sessions, plans, journals, goals."""
    pop = s.population
    docs = clinicians(pop)
    rds = [
        s.create(Dietitian, name=p.name, email=p.email, credential=("rdn", "rd", "cde")[i])
        for i, (p, _) in enumerate(docs[2:5])
    ]
    pkgs = [s.create(Package, name=n, sessions=k, price_cents=c, active=True) for n, k, c in PACKAGES]
    s.create(Package, name="Holiday reset (retired)", sessions=3, price_cents=27000, active=False)
    keys = {p.key for p, _ in docs}
    people = [p for p in pop.consumers if p.key not in keys][24:34]
    today = s.now.date()
    for k, p in enumerate(people):
        rd = rds[k % len(rds)]
        c = s.create(
            Client,
            name=p.name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            dietitian_id=rd.id,
            status="archived" if k == 9 else "active",
        )
        pkg = pkgs[1 + k % 2]
        used = 2 if k != 4 else pkg.sessions
        pur = s.create(
            Purchase,
            client_id=c.id,
            package_id=pkg.id,
            sessions_left=pkg.sessions - used,
            amount_cents=pkg.price_cents,
            status="used_up" if k == 4 else "active",
        )
        for n in range(used if k != 4 else 2):
            s.create(
                Session,
                client_id=c.id,
                dietitian_id=rd.id,
                purchase_id=pur.id,
                kind="initial" if n == 0 else "follow_up",
                starts_at=utc_at(today - dt.timedelta(days=21 - 10 * n), 15 + k % 4),
                status="completed",
                note="Reviewed history and labs; set goals.",
            )
        if k in (1, 2):
            s.update(pur, sessions_left=pur.sessions_left - 1)
            s.create(
                Session,
                client_id=c.id,
                dietitian_id=rd.id,
                purchase_id=pur.id,
                kind="follow_up",
                starts_at=s.ago(minutes=15) if k == 1 else utc_at(today + dt.timedelta(days=3), 16),
            )
        s.create(
            MealPlan,
            client_id=c.id,
            name=f"{1600 + 100 * (k % 5)} kcal balanced",
            calories=1600 + 100 * (k % 5),
            protein_pct=25,
            carbs_pct=45,
            fat_pct=30,
            status="published" if k % 3 else "draft",
        )
        for meal, text, cal in FOODS[: 2 + k % 3]:
            s.create(
                Entry,
                client_id=c.id,
                logged_on=today - dt.timedelta(days=1),
                meal=meal,
                description=text,
                calories=cal,
                comment="Nice balance!" if meal == "lunch" and k % 2 else "",
            )
        s.create(
            Goal,
            client_id=c.id,
            kind=("weight", "habit", "lab")[k % 3],
            description=("Lose 5 kg", "Eat vegetables at two meals a day", "Bring A1c under 6.5%")[k % 3],
            due_on=today + dt.timedelta(days=60 + 5 * k),
            status="achieved" if k == 3 else "active",
        )
