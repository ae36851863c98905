"""Safeplate Inspections: restaurant inspections, scores, grades and violations from city open data.

Modeled on NYC DOHMH's "Restaurant Inspection Results" dataset on the Socrata
SODA API (``43nn-pn8j``: ``camis``, ``dba``, ``boro``, ``building``,
``street``, ``zipcode``, ``cuisine_description``, ``inspection_date``,
``inspection_type`` such as "Cycle Inspection / Initial Inspection" and
"Cycle Inspection / Re-inspection", ``action``, ``violation_code`` such as
``02B`` or ``04L``, ``critical_flag`` Critical / Not Critical, ``score``,
``grade`` A, B, C with ``grade_date``), where a lower score is better
(A: 0-13, B: 14-27, C: 28 or more) and an initial inspection scoring 14 or more
is followed by a re-inspection that sets the grade.

An open-world service drawn from the world seed: establishments in the five
boroughs, among them cafeterias at the world companies' sites, each with a
history of inspections whose scores are the sums of their violations' points;
a score of 28 or more with a public-health hazard closes the establishment
until a re-inspection reopens it. Stored state is the monitored
establishments: a staff member monitors an establishment (a caterer, a
tenant, the company's own cafeteria) once; checking a monitor reports the
inspections since its last check, and a paused monitor is not checked.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, SemanticType, Text
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "inspections",
    title="Safeplate Inspections",
    category="inspection_data",
    modeled_on="NYC DOHMH Restaurant Inspection Results on the Socrata SODA API (camis, dba, boro, "
    "inspection_type, action, violation_code, critical_flag, score, grade)",
    description="Food safety inspections of restaurants: search establishments by name, borough, cuisine, zip "
    "code and grade, read their inspections with scores, grades and violations, find closures, see grade "
    "statistics by borough and cuisine, and monitor establishments so that new inspections are reported.",
)

Camis = Annotated[str, SemanticType("inspection.establishment", kind="ref"), StringConstraints(pattern=r"^[0-9]{8}$")]
InspectionId = Annotated[
    str, SemanticType("inspection.id", kind="ref"), StringConstraints(pattern=r"^[0-9]{8}-[0-9]{2}$")
]
MonitorId = Annotated[str, IdOf("inspections.monitor")]
Boro = Literal["Manhattan", "Brooklyn", "Queens", "Bronx", "Staten Island"]
Grade = Literal["A", "B", "C"]
Name = Annotated[str, StringConstraints(min_length=2, max_length=120)]
MAX_MONITORS = 20

_BOROS: tuple[tuple[str, str], ...] = (
    ("Manhattan", "100"),
    ("Brooklyn", "112"),
    ("Queens", "113"),
    ("Bronx", "104"),
    ("Staten Island", "103"),
)
_CUISINES = ("American", "Italian", "Chinese", "Mexican", "Japanese", "Café/Coffee/Tea", "Pizza", "Indian")
_NAMES = ("Golden", "Corner", "Harbor", "Little", "Blue", "Royal", "Urban", "Olive", "Lucky", "Garden")
_KINDS = ("Kitchen", "Bistro", "Deli", "Grill", "Noodle House", "Taqueria", "Pizzeria", "Café")
_STREETS = ("BROADWAY", "5 AVENUE", "ATLANTIC AVENUE", "QUEENS BOULEVARD", "GRAND CONCOURSE", "VICTORY BOULEVARD")
# code, description, critical, points
_VIOLATIONS: tuple[tuple[str, str, bool, int], ...] = (
    ("02B", "Hot TCS food item not held at or above 140 °F.", True, 7),
    ("02G", "Cold TCS food item held above 41 °F.", True, 7),
    ("04L", "Evidence of mice or live mice in establishment's food or non-food areas.", True, 5),
    ("04N", "Filth flies or food/refuse/sewage associated with flies present.", True, 5),
    ("06C", "Food, supplies, or equipment not protected from potential source of contamination.", True, 5),
    ("06D", "Food contact surface not properly washed, rinsed and sanitized after each use.", True, 5),
    ("08A", "Establishment is not free of harborage or conditions conducive to rodents or insects.", False, 5),
    ("09C", "Food contact surface not properly maintained.", False, 4),
    ("10B", "Plumbing not properly installed or maintained; anti-siphonage or backflow prevention missing.", False, 3),
    ("10F", "Non-food contact surface or equipment made of unacceptable material or not kept clean.", False, 2),
)
_BY_CODE = {v[0]: v for v in _VIOLATIONS}
INITIAL, REINSPECTION = "Cycle Inspection / Initial Inspection", "Cycle Inspection / Re-inspection"
CLOSED = "Establishment Closed by DOHMH. Violations were cited and those conditions were found to be hazardous."
REOPENED = "Establishment re-opened by DOHMH."
CITED = "Violations were cited in the following area(s)."
CLEAN = "No violations were recorded at the time of this inspection."


@dataclass(frozen=True, slots=True)
class _Insp:
    id: str
    camis: str
    date: dt.date
    type: str
    codes: tuple[str, ...]
    score: int
    grade: str | None
    action: str


@dataclass(frozen=True, slots=True)
class _Est:
    camis: str
    dba: str
    boro: str
    building: str
    street: str
    zipcode: str
    cuisine: str
    inspections: tuple[_Insp, ...]
    """Oldest first."""


def _grade(score: int) -> str:
    return "A" if score <= 13 else "B" if score <= 27 else "C"


@per_population
def _build(pop: Population, today: dt.date) -> dict[str, _Est]:
    r = random.Random(f"inspections:{pop.seed}")
    out: dict[str, _Est] = {}
    sites = [f"{c.name} Cafeteria" for c in [pop.home, *pop.customers[:3]]]
    for n in range(40):
        camis = f"{40_000_000 + 131_071 * n:08d}"
        boro, zprefix = _BOROS[n % len(_BOROS)]
        dba = sites[n] if n < len(sites) else f"{r.choice(_NAMES)} {r.choice(_KINDS)}"
        cuisine = "American" if n < len(sites) else r.choice(_CUISINES)
        quality = r.random()
        day = today - dt.timedelta(days=r.randint(900, 1200))
        insps: list[_Insp] = []
        while True:
            day += dt.timedelta(days=r.randint(150, 400))
            if day > today:
                break
            k = len(insps)
            codes = tuple(
                sorted(r.sample([v[0] for v in _VIOLATIONS], min(8, max(0, int(r.gauss(6 * (1 - quality), 2.0))))))
            )
            score = sum(_BY_CODE[c][3] for c in codes)
            hazard = score >= 28 and ("04L" in codes or "04N" in codes)
            action = CLOSED if hazard else CITED if codes else CLEAN
            grade = _grade(score) if score <= 13 else None
            insps.append(_Insp(f"{camis}-{k + 1:02d}", camis, day, INITIAL, codes, score, grade, action))
            if score > 13:
                day += dt.timedelta(days=r.randint(7, 30))
                if day > today:
                    break
                re_codes = codes[: max(0, len(codes) - r.randint(0, 3))]
                re_score = sum(_BY_CODE[c][3] for c in re_codes)
                re_action = REOPENED if hazard else CITED if re_codes else CLEAN
                insps.append(
                    _Insp(
                        f"{camis}-{k + 2:02d}",
                        camis,
                        day,
                        REINSPECTION,
                        re_codes,
                        re_score,
                        _grade(re_score),
                        re_action,
                    )
                )
        street = r.choice(_STREETS)
        zipcode = f"{zprefix}{r.randint(1, 40):02d}"
        out[camis] = _Est(camis, dba, boro, str(r.randint(1, 2400)), street, zipcode, cuisine, tuple(insps))
    return out


def _db(ctx: Ctx) -> dict[str, _Est]:
    return _build(ctx.population, ctx.today())


def _current_grade(e: _Est) -> tuple[str | None, dt.date | None]:
    graded = [i for i in e.inspections if i.grade is not None]
    return (graded[-1].grade, graded[-1].date) if graded else (None, None)


def _is_closed(e: _Est) -> bool:
    return bool(e.inspections) and e.inspections[-1].action == CLOSED


# -- result models ----------------------------------------------------------------------------------------


class Establishment(BaseModel):
    """An establishment."""

    camis: Camis = Field(description="Record id.")
    dba: str = Field(description="Doing-business-as name.")
    boro: Boro = Field(description="Borough.")
    building: str = Field(description="Building number.")
    street: str = Field(description="Street.")
    zipcode: str = Field(description="Zip code.")
    cuisine_description: str = Field(description="Cuisine.")
    grade: Grade | None = Field(description="Current letter grade; null if never graded.")
    grade_date: Date | None = Field(description="When the current grade was given.")
    last_inspection_date: Date | None = Field(description="Latest inspection.")
    closed: bool = Field(description="Whether DOHMH closed it at the latest inspection.")


class Violation(BaseModel):
    """A violation cited at an inspection."""

    violation_code: str = Field(description="Code (02B, 04L).")
    violation_description: str = Field(description="Description.")
    critical_flag: Literal["Critical", "Not Critical"] = Field(description="Critical or Not Critical.")
    points: int = Field(description="Points added to the score.")


class Inspection(BaseModel):
    """An inspection."""

    inspection_id: InspectionId = Field(description="camis-sequence.")
    camis: Camis = Field(description="Establishment.")
    dba: str = Field(description="Its name.")
    inspection_date: Date = Field(description="Date.")
    inspection_type: str = Field(description="Initial Inspection or Re-inspection.")
    action: str = Field(description="Action taken.")
    score: int = Field(description="Sum of violation points (lower is better).")
    grade: Grade | None = Field(description="Grade given; null when a re-inspection is pending.")
    violations: list[Violation] = Field(description="Violations cited.")


class GradeStats(BaseModel):
    """Current grade counts of a group."""

    group: str = Field(description="Borough or cuisine.")
    establishments: int = Field(description="Establishments in the group.")
    grade_a: int = Field(description="Graded A.")
    grade_b: int = Field(description="Graded B.")
    grade_c: int = Field(description="Graded C.")
    closed: int = Field(description="Closed by DOHMH.")


def _violation(code: str) -> Violation:
    c, desc, crit, pts = _BY_CODE[code]
    return Violation(
        violation_code=c,
        violation_description=desc,
        critical_flag="Critical" if crit else "Not Critical",
        points=pts,
    )


def _est(e: _Est) -> Establishment:
    grade, when = _current_grade(e)
    return Establishment(
        camis=e.camis,
        dba=e.dba,
        boro=e.boro,
        building=e.building,
        street=e.street,
        zipcode=e.zipcode,
        cuisine_description=e.cuisine,
        grade=grade,
        grade_date=when,
        last_inspection_date=e.inspections[-1].date if e.inspections else None,
        closed=_is_closed(e),
    )


def _insp(e: _Est, i: _Insp) -> Inspection:
    return Inspection(
        inspection_id=i.id,
        camis=e.camis,
        dba=e.dba,
        inspection_date=i.date,
        inspection_type=i.type,
        action=i.action,
        score=i.score,
        grade=i.grade,
        violations=[_violation(c) for c in i.codes],
    )


def _get(ctx: Ctx, camis: str, field: str = "camis") -> _Est:
    e = _db(ctx).get(camis)
    if e is None:
        raise NotFound(f"no establishment {camis}", field=field, hint="find it with inspections__search_establishments")
    return e


def _example_camis(ctx: Ctx) -> dict[str, Any]:
    return {"camis": max(_db(ctx).values(), key=lambda e: (len(e.inspections), e.camis)).camis}


# -- open-world tools -------------------------------------------------------------------------------------


@service.tool(intent="search establishments", open_world=True, example=fixed_example(boro="Brooklyn"))
def search_establishments(
    ctx: Ctx,
    dba: Name | None = None,
    boro: Boro | None = None,
    cuisine: str | None = None,
    zipcode: Annotated[str, StringConstraints(pattern=r"^[0-9]{5}$")] | None = None,
    grade: Grade | None = None,
) -> list[Establishment]:
    """Search establishments by name words, borough, cuisine, zip code and current grade.

    Args:
        dba: Words of the name.
        boro: Borough.
        cuisine: Cuisine description (exact, case-insensitive).
        zipcode: Zip code.
        grade: Current grade.
    """
    words = fold(dba or "").split()
    found = [
        e
        for e in _db(ctx).values()
        if all(w in fold(e.dba).split() for w in words)
        and boro in (None, e.boro)
        and (cuisine is None or fold(cuisine) == fold(e.cuisine))
        and zipcode in (None, e.zipcode)
        and grade in (None, _current_grade(e)[0])
    ]
    return [_est(e) for e in found]


@service.tool(intent="get the establishment", open_world=True, example=_example_camis)
def get_establishment(ctx: Ctx, camis: Camis) -> Establishment:
    """Get an establishment: address, cuisine, current grade and whether it is closed.

    Args:
        camis: The record id.
    """
    return _est(_get(ctx, camis))


@service.tool(intent="list the establishment's inspections", open_world=True, example=_example_camis)
def list_inspections(ctx: Ctx, camis: Camis, since: Date | None = None) -> list[Inspection]:
    """List an establishment's inspections with scores, grades and violations, newest first.

    Args:
        camis: The record id.
        since: Only inspections after this date.
    """
    e = _get(ctx, camis)
    return [_insp(e, i) for i in reversed(e.inspections) if since is None or i.date > since]


def _example_inspection(ctx: Ctx) -> dict[str, Any]:
    e = max(_db(ctx).values(), key=lambda e: (len(e.inspections), e.camis))
    return {"inspection_id": e.inspections[0].id}


@service.tool(intent="get the inspection", open_world=True, example=_example_inspection)
def get_inspection(ctx: Ctx, inspection_id: InspectionId) -> Inspection:
    """Get one inspection: type, action, score, grade and violations.

    Args:
        inspection_id: camis-sequence (40000000-01).
    """
    e = _get(ctx, inspection_id[:8], "inspection_id")
    i = next((x for x in e.inspections if x.id == inspection_id), None)
    if i is None:
        raise NotFound(f"no inspection {inspection_id}", field="inspection_id", hint="list the establishment's")
    return _insp(e, i)


@service.tool(intent="list the violation codes", open_world=True)
def list_violation_codes(ctx: Ctx, critical_only: bool = False) -> list[Violation]:
    """List the violation codes with descriptions, critical flags and points.

    Args:
        critical_only: Only critical violations.
    """
    return [_violation(v[0]) for v in _VIOLATIONS if v[2] or not critical_only]


def _example_period(ctx: Ctx) -> dict[str, Any]:
    return {"start_date": (ctx.today() - dt.timedelta(days=180)).isoformat(), "end_date": ctx.today().isoformat()}


@service.tool(intent="search inspections", open_world=True, example=_example_period)
def search_inspections(
    ctx: Ctx,
    start_date: Date,
    end_date: Date,
    boro: Boro | None = None,
    violation_code: Annotated[str, StringConstraints(pattern=r"^[0-9]{2}[A-Z]$")] | None = None,
    min_score: Annotated[int, Field(ge=0, le=200)] | None = None,
) -> list[Inspection]:
    """Search inspections in a period by borough, violation cited and minimum score, newest first.

    Args:
        start_date: First day.
        end_date: Last day (at most 366 days later).
        boro: Borough.
        violation_code: Only inspections citing this code.
        min_score: Only scores at or above this.
    """
    if end_date < start_date:
        raise RuleViolation("end_date is before start_date", field="end_date", hint="swap the dates")
    if (end_date - start_date).days > 366:
        raise RuleViolation("at most 366 days", field="end_date", hint="ask for a shorter period")
    if violation_code is not None and violation_code not in _BY_CODE:
        raise NotFound(f"no violation {violation_code}", field="violation_code", hint="see list_violation_codes")
    out = [
        (i, e)
        for e in _db(ctx).values()
        for i in e.inspections
        if start_date <= i.date <= end_date
        and boro in (None, e.boro)
        and (violation_code is None or violation_code in i.codes)
        and (min_score is None or i.score >= min_score)
    ]
    out.sort(key=lambda x: (x[0].date, x[0].id), reverse=True)
    return [_insp(e, i) for i, e in out]


@service.tool(intent="list the closures", open_world=True, example=_example_period)
def list_closures(ctx: Ctx, start_date: Date, end_date: Date) -> list[Inspection]:
    """List the inspections that closed an establishment in a period, newest first.

    Args:
        start_date: First day.
        end_date: Last day.
    """
    if end_date < start_date:
        raise RuleViolation("end_date is before start_date", field="end_date", hint="swap the dates")
    found = [(i, e) for e in _db(ctx).values() for i in e.inspections if i.action == CLOSED]
    found = [x for x in found if start_date <= x[0].date <= end_date]
    return [_insp(e, i) for i, e in sorted(found, key=lambda x: (x[0].date, x[0].id), reverse=True)]


@service.tool(intent="get grade statistics", open_world=True)
def get_grade_stats(ctx: Ctx, by: Literal["boro", "cuisine"] = "boro") -> list[GradeStats]:
    """Count establishments by current grade and closures, per borough or per cuisine.

    Args:
        by: boro or cuisine.
    """
    groups: dict[str, list[_Est]] = {}
    for e in _db(ctx).values():
        groups.setdefault(e.boro if by == "boro" else e.cuisine, []).append(e)
    out = []
    for g, es in sorted(groups.items()):
        grades = [_current_grade(e)[0] for e in es]
        out.append(
            GradeStats(
                group=g,
                establishments=len(es),
                grade_a=grades.count("A"),
                grade_b=grades.count("B"),
                grade_c=grades.count("C"),
                closed=sum(_is_closed(e) for e in es),
            )
        )
    return out


class GradeEntry(BaseModel):
    """A grade given."""

    grade: Grade = Field(description="Grade.")
    grade_date: Date = Field(description="When it was given.")
    score: int = Field(description="Score of that inspection.")


@service.tool(intent="get the grade history", open_world=True, example=_example_camis)
def get_grade_history(ctx: Ctx, camis: Camis) -> list[GradeEntry]:
    """List the grades an establishment was given, oldest first.

    Args:
        camis: The record id.
    """
    e = _get(ctx, camis)
    return [GradeEntry(grade=i.grade, grade_date=i.date, score=i.score) for i in e.inspections if i.grade]


class ViolationCount(Violation):
    """A violation with how often it was cited."""

    times_cited: int = Field(description="Inspections citing it.")
    last_cited: Date = Field(description="Latest inspection citing it.")


@service.tool(intent="list the establishment's recurring violations", open_world=True, example=_example_camis)
def list_violation_history(ctx: Ctx, camis: Camis) -> list[ViolationCount]:
    """List every violation an establishment was cited for, most often first.

    Args:
        camis: The record id.
    """
    e = _get(ctx, camis)
    seen: dict[str, list[dt.date]] = {}
    for i in e.inspections:
        for c in i.codes:
            seen.setdefault(c, []).append(i.date)
    rows = sorted(seen.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return [ViolationCount(**_violation(c).model_dump(), times_cited=len(d), last_cited=max(d)) for c, d in rows]


@service.tool(intent="list the establishments with a grade pending", open_world=True)
def list_grade_pending(ctx: Ctx, boro: Boro | None = None) -> list[Inspection]:
    """List establishments whose latest inspection scored 14 or more and awaits its re-inspection (Grade Pending).

    Args:
        boro: Borough.
    """
    out = []
    for e in _db(ctx).values():
        if e.inspections and e.inspections[-1].grade is None and boro in (None, e.boro):
            out.append(_insp(e, e.inspections[-1]))
    return out


class CodeCount(BaseModel):
    """How often a violation was cited in a period."""

    violation_code: str = Field(description="Code.")
    critical_flag: Literal["Critical", "Not Critical"] = Field(description="Flag.")
    count: int = Field(description="Inspections citing it.")


@service.tool(intent="count violations by code", open_world=True, example=_example_period)
def get_violation_frequency(ctx: Ctx, start_date: Date, end_date: Date) -> list[CodeCount]:
    """Count how many inspections in a period cited each violation code, most frequent first.

    Args:
        start_date: First day.
        end_date: Last day.
    """
    if end_date < start_date:
        raise RuleViolation("end_date is before start_date", field="end_date", hint="swap the dates")
    counts: dict[str, int] = {}
    for e in _db(ctx).values():
        for i in e.inspections:
            if start_date <= i.date <= end_date:
                for c in i.codes:
                    counts[c] = counts.get(c, 0) + 1
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [
        CodeCount(violation_code=c, critical_flag="Critical" if _BY_CODE[c][2] else "Not Critical", count=n)
        for c, n in rows
    ]


# -- monitors ---------------------------------------------------------------------------------------------


class Monitor(Timestamped):
    """An establishment a staff member monitors."""

    id: MonitorId
    camis: Camis
    """The establishment."""
    dba: str
    """Its name."""
    owner_email: Email
    """The staff member alerted."""
    reason: Literal["own_site", "caterer", "tenant", "other"] = "other"
    """Why it is monitored."""
    note: Text = ""
    """Free note."""
    status: Literal["active", "paused"] = "active"
    """active or paused (not checked)."""
    last_seen_date: Date
    """Inspections after this date are new at the next check."""
    last_grade: Grade | None = None
    """The grade at the last check."""


class MonitorReport(BaseModel):
    """What a monitor check found."""

    monitor_id: MonitorId = Field(description="The monitor.")
    new_inspections: list[Inspection] = Field(description="Inspections since the last check, oldest first.")
    grade: Grade | None = Field(description="Current grade.")
    grade_changed: bool = Field(description="Whether the grade differs from the last check.")
    closed: bool = Field(description="Whether the establishment is closed now.")


monitors = service.resource(
    Monitor,
    name="monitor",
    plural="monitors",
    prefix="imo",
    create=False,
    filters=("camis", "owner_email", "reason", "status"),
    search=("dba", "note"),
    update=("reason", "note"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the establishment monitor"),
        "resume": Transition("status", ("paused",), "active", "resume the establishment monitor"),
    },
    title="establishment monitor",
)


def _example_monitor(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.population.employees:
        if len(ctx.where(Monitor, owner_email=p.email)) < MAX_MONITORS:
            for camis in _db(ctx):
                if ctx.first(Monitor, camis=camis, owner_email=p.email) is None:
                    return {"camis": camis, "owner_email": p.email}
    return None


@service.tool(intent="monitor an establishment", write=True, example=_example_monitor)
def monitor_establishment(
    ctx: Ctx,
    camis: Camis,
    owner_email: Email,
    reason: Literal["own_site", "caterer", "tenant", "other"] = "other",
    note: Text = "",
) -> Monitor:
    """Monitor an establishment for a staff member; inspections from now on are reported at each check.

    Args:
        camis: The establishment.
        owner_email: The employee alerted (at most 20 monitors each).
        reason: own_site, caterer, tenant or other.
        note: Free note.
    """
    e = _get(ctx, camis)
    if owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{owner_email} is not an employee", field="owner_email", hint="monitors are for staff")
    same = ctx.first(Monitor, camis=camis, owner_email=owner_email)
    if same is not None:
        raise Conflict(f"{owner_email} already monitors {e.dba} as {same.id}", field="camis", hint="update it")
    if len(ctx.where(Monitor, owner_email=owner_email)) >= MAX_MONITORS:
        raise RuleViolation(f"{owner_email} has {MAX_MONITORS} monitors", field="owner_email", hint="delete one")
    return ctx.create(
        Monitor,
        camis=camis,
        dba=e.dba,
        owner_email=owner_email,
        reason=reason,
        note=note,
        last_seen_date=ctx.today(),
        last_grade=_current_grade(e)[0],
    )


@service.tool(
    intent="check the establishment monitor",
    write=True,
    example=first_example(Monitor, "monitor_id", where={"status": "active"}),
)
def check_monitor(ctx: Ctx, monitor_id: MonitorId) -> MonitorReport:
    """Report the inspections since the monitor's last check and whether the grade changed; mark them seen.

    Args:
        monitor_id: The monitor (active).
    """
    m = ctx.get(Monitor, monitor_id, field="monitor_id")
    if m.status != "active":
        raise RuleViolation(
            f"monitor {m.id} is paused", field="monitor_id", hint="resume it with inspections__resume_monitor"
        )
    e = _get(ctx, m.camis, "monitor_id")
    new = [_insp(e, i) for i in e.inspections if i.date > m.last_seen_date]
    grade = _current_grade(e)[0]
    ctx.update(m, last_seen_date=ctx.today(), last_grade=grade)
    return MonitorReport(
        monitor_id=m.id,
        new_inspections=new,
        grade=grade,
        grade_changed=grade != m.last_grade,
        closed=_is_closed(e),
    )


# -- seed -------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Facilities staff monitoring the company's cafeteria, its caterers and tenants."""
    pop = s.population
    db = _build(pop, s.now.date())
    staff = pop.staff("Facilities", "Operations", fallback=3)
    ests = list(db.values())
    for k, e in enumerate(ests[:7]):
        seen = e.inspections[max(0, len(e.inspections) - 2)] if e.inspections else None
        s.create(
            Monitor,
            camis=e.camis,
            dba=e.dba,
            owner_email=staff[k % len(staff)].email,
            reason=("own_site", "caterer", "tenant", "other")[min(k, 3)] if k else "own_site",
            note=f"Catering for {pop.home.name}" if k == 1 else "",
            status="paused" if k == 5 else "active",
            last_seen_date=seen.date if seen else s.now.date() - dt.timedelta(days=400),
            last_grade=None if k % 3 == 2 else _current_grade(e)[0],
            created_at=s.ago(days=500 - 20 * k),
            updated_at=s.ago(days=30 + k),
        )
