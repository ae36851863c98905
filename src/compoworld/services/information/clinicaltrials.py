"""TrialFinder: the clinical trials registry, study eligibility and locations, with saved searches and studies.

Modeled on the ClinicalTrials.gov API v2 (``/studies`` with ``query.cond``,
``query.term``, ``query.locn``, ``filter.overallStatus`` and sort;
``/studies/{nctId}`` with the ``protocolSection`` modules: identification
(``nctId``, ``briefTitle``), status (``overallStatus`` RECRUITING,
NOT_YET_RECRUITING, ACTIVE_NOT_RECRUITING, COMPLETED, TERMINATED, WITHDRAWN;
``startDate``, ``primaryCompletionDate``, ``completionDate``,
``studyFirstPostDate``), sponsor (``leadSponsor`` with class INDUSTRY, NIH,
OTHER), conditions, design (``studyType``, ``phases`` EARLY_PHASE1 … PHASE4,
``enrollmentInfo``), interventions, eligibility (``sex``, ``minimumAge``,
``maximumAge``, ``healthyVolunteers``) and locations with their own status;
``/stats/size``), with the site's saved searches (e-mail updates) and saved
studies.

An open-world service: the registry is a deterministic draw from the world
seed: studies of ten conditions whose statuses agree with their dates, sited in
the world's cities, sponsored by firms, the NIH and universities. Stored state
is a staff member's saved searches, which report the studies first posted
since their last run (a paused search does not run), and saved studies with
notes, each study saved once per person.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Country, Date, Email, IdOf, SemanticType, Text, Title
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "clinicaltrials",
    title="TrialFinder",
    category="clinical_trials",
    modeled_on="ClinicalTrials.gov API v2 (studies search with query.cond/term/locn and filter.overallStatus, "
    "study records, stats) with saved searches and saved studies",
    description="Clinical trials registry: search studies by condition, words, location, status, phase and "
    "sponsor, read a study's design, eligibility and sites, check whether a person of a given age and sex "
    "qualifies, count studies, and keep saved searches that report newly posted studies and saved studies.",
)

NctId = Annotated[str, SemanticType("clinical_trial.nct_id", kind="ref"), StringConstraints(pattern=r"^NCT[0-9]{8}$")]
SavedSearchId = Annotated[str, IdOf("clinicaltrials.saved_search")]
SavedStudyId = Annotated[str, IdOf("clinicaltrials.saved_study")]
Words = Annotated[str, StringConstraints(min_length=2, max_length=120)]
Status = Literal["NOT_YET_RECRUITING", "RECRUITING", "ACTIVE_NOT_RECRUITING", "COMPLETED", "TERMINATED", "WITHDRAWN"]
Phase = Literal["EARLY_PHASE1", "PHASE1", "PHASE2", "PHASE3", "PHASE4", "NA"]
StudyType = Literal["INTERVENTIONAL", "OBSERVATIONAL"]
Sex = Literal["ALL", "FEMALE", "MALE"]
SponsorClass = Literal["INDUSTRY", "NIH", "OTHER"]
MAX_SAVED_SEARCHES = 10

_CONDITIONS: dict[str, tuple[str, ...]] = {
    "Type 2 Diabetes": ("Semaglutide", "Tirzepatide", "Metformin XR", "Digital coaching"),
    "Breast Cancer": ("Trastuzumab deruxtecan", "Palbociclib", "Hypofractionated radiotherapy"),
    "Hypertension": ("Zilebesiran", "Renal denervation", "Home blood pressure telemonitoring"),
    "Asthma": ("Tezepelumab", "Dupilumab", "Inhaler adherence app"),
    "Major Depressive Disorder": ("Esketamine", "Psilocybin", "Internet CBT"),
    "Alzheimer Disease": ("Lecanemab", "Donanemab", "Aerobic exercise"),
    "Rheumatoid Arthritis": ("Upadacitinib", "Abatacept", "Tapering of biologics"),
    "Chronic Kidney Disease": ("Finerenone", "Dapagliflozin", "Low-protein diet"),
    "Migraine": ("Atogepant", "Erenumab", "Mindfulness training"),
    "Long COVID": ("Nirmatrelvir", "Graded exercise", "Pacing education"),
}
_SPONSORS: tuple[tuple[str, str], ...] = (
    ("Novacure Pharmaceuticals", "INDUSTRY"),
    ("Bexley Biologics Inc.", "INDUSTRY"),
    ("Aurora Therapeutics", "INDUSTRY"),
    ("National Institutes of Health (NIH)", "NIH"),
    ("University Hospital Research Institute", "OTHER"),
    ("Northfield Medical College", "OTHER"),
)
_ORDER: tuple[str, ...] = ("EARLY_PHASE1", "PHASE1", "PHASE2", "PHASE3", "PHASE4", "NA")


@dataclass(frozen=True, slots=True)
class _Study:
    nct_id: str
    title: str
    condition: str
    intervention: str
    intervention_type: str
    study_type: str
    phase: str
    status: str
    sponsor: str
    sponsor_class: str
    posted: dt.date
    start: dt.date
    primary_completion: dt.date
    completion: dt.date
    enrollment: int
    sex: str
    min_age: int
    max_age: int | None
    healthy: bool
    sites: tuple[tuple[str, str, str, str], ...]
    """(facility, city, country, status)"""
    contact_email: str


def _db(ctx: Ctx) -> dict[str, _Study]:
    return _build(ctx.population, ctx.today())


def _status(r: random.Random, today: dt.date, start: dt.date, primary: dt.date, done: dt.date) -> str:
    if start > today:
        return "WITHDRAWN" if r.random() < 0.1 else "NOT_YET_RECRUITING"
    if done <= today:
        return "TERMINATED" if r.random() < 0.15 else "COMPLETED"
    return "RECRUITING" if primary > today + dt.timedelta(days=90) else "ACTIVE_NOT_RECRUITING"


@per_population
def _build(pop: Population, today: dt.date) -> dict[str, _Study]:
    r = random.Random(f"clinicaltrials:{pop.seed}")
    places = list(pop.places) or [c.place for c in pop.companies]
    out: dict[str, _Study] = {}
    conds = list(_CONDITIONS)
    for n in range(90):
        cond = conds[n % len(conds)]
        intervention = r.choice(_CONDITIONS[cond])
        drug = intervention[0].isupper() and " " not in intervention
        observational = r.random() < 0.15
        phase = "NA" if observational or not drug else r.choice(_ORDER[:5])
        posted = today - dt.timedelta(days=int(10 * 365 * (90 - n - r.random()) / 90))
        start = posted + dt.timedelta(days=r.randint(-30, 200))
        primary = start + dt.timedelta(days=r.randint(300, 1400))
        done = primary + dt.timedelta(days=r.randint(30, 400))
        status = _status(r, today, start, primary, done)
        sponsor, klass = r.choice(_SPONSORS)
        sites = []
        for place in r.sample(places, min(len(places), r.randint(1, 4))):
            site_status = status if status != "RECRUITING" or r.random() < 0.8 else "NOT_YET_RECRUITING"
            sites.append(
                (
                    f"{place.city} {r.choice(('Medical Center', 'Clinical Research Unit', 'University Hospital'))}",
                    place.city,
                    place.country,
                    site_status,
                )
            )
        nct = f"NCT0{5_000_000 + 7919 * n:07d}"
        verb = "in Adults With" if not observational else "Registry of People With"
        out[nct] = _Study(
            nct_id=nct,
            title=f"{intervention} {verb} {cond}" if not observational else f"{verb[12:]} {cond} ({intervention})",
            condition=cond,
            intervention=intervention,
            intervention_type="DRUG" if drug else r.choice(("BEHAVIORAL", "DEVICE", "PROCEDURE")),
            study_type="OBSERVATIONAL" if observational else "INTERVENTIONAL",
            phase=phase,
            status=status,
            sponsor=sponsor,
            sponsor_class=klass,
            posted=posted,
            start=start,
            primary_completion=primary,
            completion=done,
            enrollment=0 if status == "WITHDRAWN" else r.choice((24, 60, 120, 300, 800, 2400)),
            sex="FEMALE" if cond == "Breast Cancer" else r.choice(("ALL", "ALL", "ALL", "MALE", "FEMALE")),
            min_age=r.choice((18, 18, 40, 50, 65)),
            max_age=r.choice((None, 75, 85)),
            healthy=observational and r.random() < 0.5,
            sites=tuple(sites),
            contact_email=f"trials{n:03d}@{fold(sponsor).split()[0]}.example.org",
        )
    return out


# -- result models ----------------------------------------------------------------------------------------


class Location(BaseModel):
    """A study site (contactsLocationsModule.locations)."""

    facility: str = Field(description="Facility name.")
    city: City = Field(description="City.")
    country: Country = Field(description="Country.")
    status: Status = Field(description="The site's recruitment status.")


class Study(BaseModel):
    """A registered study (protocolSection, flattened)."""

    nct_id: NctId = Field(description="NCT number.")
    brief_title: str = Field(description="Brief title.")
    overall_status: Status = Field(description="Overall recruitment status.")
    conditions: list[str] = Field(description="Conditions studied.")
    study_type: StudyType = Field(description="INTERVENTIONAL or OBSERVATIONAL.")
    phase: Phase = Field(description="Phase (NA for observational and non-drug studies).")
    intervention: str = Field(description="Intervention name.")
    intervention_type: str = Field(description="DRUG, DEVICE, BEHAVIORAL or PROCEDURE.")
    lead_sponsor: str = Field(description="Lead sponsor.")
    sponsor_class: SponsorClass = Field(description="INDUSTRY, NIH or OTHER.")
    study_first_post_date: Date = Field(description="When the study was first posted.")
    start_date: Date = Field(description="Start date (actual or anticipated).")
    primary_completion_date: Date = Field(description="Primary completion date.")
    completion_date: Date = Field(description="Completion date.")
    enrollment: int = Field(description="Enrollment (actual or anticipated).")
    sex: Sex = Field(description="Sexes eligible.")
    minimum_age_years: int = Field(description="Minimum age in years.")
    maximum_age_years: int | None = Field(description="Maximum age in years; null for none.")
    healthy_volunteers: bool = Field(description="Whether healthy volunteers are accepted.")
    locations: list[Location] = Field(description="Sites.")
    central_contact_email: Email = Field(description="Central contact for enquiries.")
    has_results: bool = Field(description="Whether results are posted.")


class Eligibility(BaseModel):
    """Whether a person may take part in a study."""

    nct_id: NctId = Field(description="The study.")
    eligible: bool = Field(description="True when every criterion below is met and the study recruits.")
    reasons: list[str] = Field(description="Criteria not met (empty when eligible).")
    recruiting_sites: list[Location] = Field(description="Sites recruiting now, in the asked country if any.")


class StatusCount(BaseModel):
    """Studies in one status."""

    overall_status: Status = Field(description="The status.")
    count: int = Field(description="Studies.")


def _study(s: _Study, today: dt.date) -> Study:
    return Study(
        nct_id=s.nct_id,
        brief_title=s.title,
        overall_status=s.status,
        conditions=[s.condition],
        study_type=s.study_type,
        phase=s.phase,
        intervention=s.intervention,
        intervention_type=s.intervention_type,
        lead_sponsor=s.sponsor,
        sponsor_class=s.sponsor_class,
        study_first_post_date=s.posted,
        start_date=s.start,
        primary_completion_date=s.primary_completion,
        completion_date=s.completion,
        enrollment=s.enrollment,
        sex=s.sex,
        minimum_age_years=s.min_age,
        maximum_age_years=s.max_age,
        healthy_volunteers=s.healthy,
        locations=[Location(facility=f, city=c, country=k, status=st) for f, c, k, st in s.sites],
        central_contact_email=s.contact_email,
        has_results=s.status in ("COMPLETED", "TERMINATED") and s.completion < today - dt.timedelta(days=365),
    )


def _get(ctx: Ctx, nct_id: str, field: str = "nct_id") -> _Study:
    s = _db(ctx).get(nct_id)
    if s is None:
        raise NotFound(f"no study {nct_id}", field=field, hint="search with clinicaltrials__search_studies")
    return s


def _check_condition(cond: str | None, field: str = "condition") -> None:
    if cond is not None and not any(all(w in fold(c).split() for w in fold(cond).split()) for c in _CONDITIONS):
        raise NotFound(
            f"no studies of {cond!r} in the registry",
            field=field,
            hint=f"one of {', '.join(_CONDITIONS)}; see clinicaltrials__count_studies",
        )


def _filter(
    db: dict[str, _Study],
    condition: str | None = None,
    term: str | None = None,
    city: str | None = None,
    country: str | None = None,
    status: str | None = None,
    phase: str | None = None,
    sponsor: str | None = None,
) -> list[_Study]:
    cw, tw, sw = (fold(x or "").split() for x in (condition, term, sponsor))
    return [
        s
        for s in db.values()
        if all(w in fold(s.condition).split() for w in cw)
        and all(w in fold(f"{s.title} {s.intervention} {s.condition}").split() for w in tw)
        and all(w in fold(s.sponsor).split() for w in sw)
        and (city is None or any(fold(c) == fold(city) for _, c, _, _ in s.sites))
        and (country is None or any(k == country for _, _, k, _ in s.sites))
        and status in (None, s.status)
        and phase in (None, s.phase)
    ]


# -- open-world tools -------------------------------------------------------------------------------------


@service.tool(intent="search clinical trials", open_world=True, example=fixed_example(condition="Asthma"))
def search_studies(
    ctx: Ctx,
    condition: Words | None = None,
    term: Words | None = None,
    city: City | None = None,
    country: Country | None = None,
    overall_status: Status | None = None,
    phase: Phase | None = None,
    sponsor: Words | None = None,
    sort: Literal["StudyFirstPostDate:desc", "EnrollmentCount:desc"] = "StudyFirstPostDate:desc",
    limit: Annotated[int, Field(ge=1, le=100)] = 20,
) -> list[Study]:
    """Search studies (/studies) by condition (query.cond), words (query.term), site location and filters.

    Args:
        condition: Words of the condition (Type 2 Diabetes, Asthma).
        term: Words in the title, intervention or condition.
        city: Only studies with a site in this city.
        country: Only studies with a site in this country.
        overall_status: Only this status (RECRUITING ...).
        phase: Only this phase.
        sponsor: Words of the lead sponsor's name.
        sort: Newest first (default) or largest enrollment first.
        limit: Most results.
    """
    _check_condition(condition)
    found = _filter(_db(ctx), condition, term, city, country, overall_status, phase, sponsor)
    if sort == "StudyFirstPostDate:desc":
        found.sort(key=lambda s: (s.posted, s.nct_id), reverse=True)
    else:
        found.sort(key=lambda s: (-s.enrollment, s.nct_id))
    return [_study(s, ctx.today()) for s in found[:limit]]


def _example_study(ctx: Ctx) -> dict[str, Any]:
    return {"nct_id": next(s.nct_id for s in _db(ctx).values() if s.status == "RECRUITING")}


@service.tool(intent="get the study", open_world=True, example=_example_study)
def get_study(ctx: Ctx, nct_id: NctId) -> Study:
    """Get a study's record: status and dates, sponsor, design, eligibility, sites and contact.

    Args:
        nct_id: The NCT number.
    """
    return _study(_get(ctx, nct_id), ctx.today())


@service.tool(intent="list the study's sites", open_world=True, example=_example_study)
def list_study_locations(
    ctx: Ctx, nct_id: NctId, country: Country | None = None, recruiting_only: bool = False
) -> list[Location]:
    """List a study's sites with their own recruitment status.

    Args:
        nct_id: The NCT number.
        country: Only sites in this country.
        recruiting_only: Only sites recruiting now.
    """
    s = _get(ctx, nct_id)
    return [
        Location(facility=f, city=c, country=k, status=st)
        for f, c, k, st in s.sites
        if country in (None, k) and (not recruiting_only or st == "RECRUITING")
    ]


def _example_eligibility(ctx: Ctx) -> dict[str, Any]:
    return _example_study(ctx) | {"age_years": 55, "sex": "FEMALE"}


@service.tool(intent="check whether a person qualifies for a study", open_world=True, example=_example_eligibility)
def check_eligibility(
    ctx: Ctx,
    nct_id: NctId,
    age_years: Annotated[int, Field(ge=0, le=120)],
    sex: Literal["FEMALE", "MALE"],
    healthy_volunteer: bool = False,
    country: Country | None = None,
) -> Eligibility:
    """Check a person against a study's eligibility (sex, age range, healthy volunteers) and recruitment.

    Args:
        nct_id: The NCT number.
        age_years: The person's age in years.
        sex: FEMALE or MALE.
        healthy_volunteer: True when the person does not have the condition.
        country: The person's country, to list recruiting sites near them.
    """
    s = _get(ctx, nct_id)
    reasons = []
    if s.status != "RECRUITING":
        reasons.append(f"the study is {s.status}, not RECRUITING")
    if s.sex not in ("ALL", sex):
        reasons.append(f"the study enrolls {s.sex} participants only")
    if age_years < s.min_age:
        reasons.append(f"minimum age is {s.min_age} years")
    if s.max_age is not None and age_years > s.max_age:
        reasons.append(f"maximum age is {s.max_age} years")
    if healthy_volunteer and not s.healthy:
        reasons.append(f"participants must have {s.condition}; no healthy volunteers")
    sites = [x for x in s.sites if x[3] == "RECRUITING"]
    near = [x for x in sites if x[2] == country] or sites
    if s.status == "RECRUITING" and not sites:
        reasons.append("no site is recruiting yet")
    return Eligibility(
        nct_id=s.nct_id,
        eligible=not reasons,
        reasons=reasons,
        recruiting_sites=[Location(facility=f, city=c, country=k, status=st) for f, c, k, st in near],
    )


@service.tool(
    intent="find recruiting studies a person qualifies for",
    open_world=True,
    example=fixed_example(condition="Asthma", age_years=40, sex="FEMALE"),
)
def match_studies(
    ctx: Ctx,
    condition: Words,
    age_years: Annotated[int, Field(ge=0, le=120)],
    sex: Literal["FEMALE", "MALE"],
    country: Country | None = None,
) -> list[Study]:
    """Find the recruiting studies of a condition whose sex and age criteria a person meets, newest first.

    Args:
        condition: Words of the person's condition.
        age_years: The person's age in years.
        sex: FEMALE or MALE.
        country: Only studies recruiting at a site in this country.
    """
    _check_condition(condition)
    found = [
        x
        for x in _filter(_db(ctx), condition, status="RECRUITING")
        if x.sex in ("ALL", sex)
        and x.min_age <= age_years
        and (x.max_age is None or age_years <= x.max_age)
        and any(st == "RECRUITING" and country in (None, k) for _, _, k, st in x.sites)
    ]
    found.sort(key=lambda x: (x.posted, x.nct_id), reverse=True)
    return [_study(x, ctx.today()) for x in found]


@service.tool(intent="count studies by status", open_world=True, example=fixed_example(condition="Migraine"))
def count_studies(ctx: Ctx, condition: Words | None = None, country: Country | None = None) -> list[StatusCount]:
    """Count studies per overall status (/stats/size), for a condition and/or a country.

    Args:
        condition: Words of the condition.
        country: Only studies with a site in this country.
    """
    _check_condition(condition)
    counts = Counter(s.status for s in _filter(_db(ctx), condition, country=country))
    return [StatusCount(overall_status=k, count=v) for k, v in sorted(counts.items())]


@service.tool(intent="list the conditions in the registry", open_world=True)
def list_conditions(ctx: Ctx) -> list[str]:
    """List the conditions studies in the registry are about (field values of conditions)."""
    return sorted(_CONDITIONS)


# -- stored state ---------------------------------------------------------------------------------------------


class SavedSearch(Timestamped):
    """A saved study search with e-mail updates."""

    id: SavedSearchId
    name: Title
    """Its name."""
    owner_email: Email
    """The staff member it belongs to."""
    condition: Words | None = None
    """query.cond."""
    term: Words | None = None
    """query.term."""
    country: Country | None = None
    """Only studies sited in this country."""
    overall_status: Status | None = None
    """Only studies in this status."""
    status: Literal["active", "paused"] = "active"
    """active, or paused (does not run)."""
    last_run_on: Date
    """Studies first posted after this date are new at the next run."""
    studies_reported: int = 0
    """Studies reported so far."""


class SavedStudy(Timestamped):
    """A study a staff member saved, with notes."""

    id: SavedStudyId
    nct_id: NctId
    """The study."""
    brief_title: str
    """Its title."""
    owner_email: Email
    """Who saved it."""
    label: Literal["to_review", "shortlisted", "referred", "not_suitable"] = "to_review"
    """to_review, shortlisted, referred (a patient was referred) or not_suitable."""
    notes: Text = ""
    """Notes."""


def _staff(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _guard_search(ctx: Ctx, new: SavedSearch, old: SavedSearch | None) -> None:
    if new.owner_email not in _staff(ctx):
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="staff save searches")
    _check_condition(new.condition)
    if old is None and len(ctx.where(SavedSearch, owner_email=new.owner_email)) > MAX_SAVED_SEARCHES:
        raise RuleViolation(
            f"{new.owner_email} already has {MAX_SAVED_SEARCHES} saved searches",
            field="owner_email",
            hint="delete one first",
        )
    if not (new.condition or new.term):
        raise RuleViolation("a saved search needs a condition or a term", field="condition", hint="name a condition")


saved_searches = service.resource(
    SavedSearch,
    name="saved_search",
    plural="saved_searches",
    prefix="cts",
    create=False,
    filters=("owner_email", "status", "condition"),
    search=("name", "condition", "term"),
    update=("name", "condition", "term", "country", "overall_status"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the saved search's updates"),
        "resume": Transition("status", ("paused",), "active", "resume the saved search's updates"),
    },
    guard_update=_guard_search,
    title="saved search",
)


def _guard_saved_study(ctx: Ctx, new: SavedStudy, old: SavedStudy | None) -> None:
    if new.label == "referred" and _get(ctx, new.nct_id).status != "RECRUITING":
        raise RuleViolation(
            f"study {new.nct_id} is not recruiting", field="label", hint="only recruiting studies take referrals"
        )


saved_studies = service.resource(
    SavedStudy,
    name="saved_study",
    plural="saved_studies",
    prefix="ctv",
    create=False,
    filters=("owner_email", "nct_id", "label"),
    search=("brief_title", "notes"),
    update=("label", "notes"),
    guard_update=_guard_saved_study,
    title="saved study",
)


def _example_saved_search(ctx: Ctx) -> dict[str, Any]:
    return {"name": "Migraine trials", "owner_email": ctx.population.employees[-1].email, "condition": "Migraine"}


@service.tool(intent="save a study search", write=True, example=_example_saved_search)
def create_saved_search(
    ctx: Ctx,
    name: Title,
    owner_email: Email,
    condition: Words | None = None,
    term: Words | None = None,
    country: Country | None = None,
    overall_status: Status | None = None,
) -> SavedSearch:
    """Save a search whose updates report studies first posted from today on.

    Args:
        name: The search's name.
        owner_email: The employee it belongs to (at most 10 searches each).
        condition: Words of the condition.
        term: Words in the title or intervention.
        country: Only studies sited in this country.
        overall_status: Only this status.
    """
    if ctx.first(SavedSearch, owner_email=owner_email, name=name) is not None:
        raise Conflict(f"{owner_email} already has a search named {name!r}", field="name", hint="choose another")
    rec = ctx.create(
        SavedSearch,
        name=name,
        owner_email=owner_email,
        condition=condition,
        term=term,
        country=country,
        overall_status=overall_status,
        last_run_on=ctx.today(),
    )
    _guard_search(ctx, rec, None)
    return rec


@service.tool(
    intent="run the saved search for new studies",
    write=True,
    example=first_example(SavedSearch, "saved_search_id", where={"status": "active"}),
)
def run_saved_search(ctx: Ctx, saved_search_id: SavedSearchId) -> list[Study]:
    """Return the studies matching the search first posted since its last run, oldest first; moves the run date.

    Args:
        saved_search_id: The search (active).
    """
    s = ctx.get(SavedSearch, saved_search_id, field="saved_search_id")
    if s.status != "active":
        raise RuleViolation(f"saved search {s.id} is paused", field="saved_search_id", hint="resume it first")
    found = [
        x for x in _filter(_db(ctx), s.condition, s.term, None, s.country, s.overall_status) if x.posted > s.last_run_on
    ]
    found.sort(key=lambda x: (x.posted, x.nct_id))
    ctx.update(s, last_run_on=ctx.today(), studies_reported=s.studies_reported + len(found))
    return [_study(x, ctx.today()) for x in found]


def _example_save(ctx: Ctx) -> dict[str, Any]:
    have = {v.nct_id for v in ctx.where(SavedStudy, owner_email=ctx.population.employees[0].email)}
    free = next(n for n in _db(ctx) if n not in have)
    return {"nct_id": free, "owner_email": ctx.population.employees[0].email}


@service.tool(intent="save a study", write=True, example=_example_save)
def save_study(ctx: Ctx, nct_id: NctId, owner_email: Email, notes: Text = "") -> SavedStudy:
    """Save a study to a staff member's list (once each), labelled to_review.

    Args:
        nct_id: The NCT number.
        owner_email: The employee saving it.
        notes: Why it matters.
    """
    s = _get(ctx, nct_id)
    if owner_email not in _staff(ctx):
        raise RuleViolation(f"{owner_email} is not an employee", field="owner_email", hint="staff save studies")
    other = ctx.first(SavedStudy, owner_email=owner_email, nct_id=nct_id)
    if other is not None:
        raise Conflict(f"{nct_id} is already saved as {other.id}", field="nct_id", hint="update that one")
    return ctx.create(SavedStudy, nct_id=nct_id, brief_title=s.title, owner_email=owner_email, notes=notes)


# -- seed -------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """The research team's saved searches (one paused) and saved studies in every label."""
    pop = s.population
    today = s.now.date()
    db = _build(pop, today)
    team = pop.staff("Research", "Operations", "Product", fallback=3)
    since = today - dt.timedelta(days=240)
    fresh = sorted((x for x in db.values() if x.posted > since), key=lambda x: x.posted)
    first = fresh[-1].condition if fresh else "Asthma"
    plans = (
        (f"{first} studies", first, None, "active"),
        ("Recruiting diabetes trials", "Type 2 Diabetes", "RECRUITING", "active"),
        ("Migraine (paused)", "Migraine", None, "paused"),
    )
    for k, (name, cond, status, state) in enumerate(plans):
        s.create(
            SavedSearch,
            name=name,
            owner_email=team[k % len(team)].email,
            condition=cond,
            overall_status=status,
            status=state,
            last_run_on=since,
            created_at=s.ago(days=400),
            updated_at=s.ago(days=240),
        )
    recruiting = [x for x in db.values() if x.status == "RECRUITING"]
    others = [x for x in db.values() if x.status != "RECRUITING"]
    picks = [(x, lab) for x, lab in zip(recruiting[:3], ("shortlisted", "referred", "to_review"), strict=False)]
    picks += [(x, "not_suitable") for x in others[:2]]
    for k, (x, label) in enumerate(picks):
        s.create(
            SavedStudy,
            nct_id=x.nct_id,
            brief_title=x.title,
            owner_email=team[k % len(team)].email,
            label=label,
            notes=f"{x.condition}: {label.replace('_', ' ')}.",
            created_at=s.ago(days=90 - 10 * k),
            updated_at=s.ago(days=30 - k),
        )
