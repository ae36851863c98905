"""Rankwell SEO: search rankings, backlinks and site audits of the company's websites.

Modeled on the Semrush Projects API (projects per domain, Position Tracking
keywords with positions per search engine location, Site Audit runs with
errors, warnings and notices per issue type) and the Ahrefs API v3
(backlinks with referring domain, anchor, dofollow and live/lost status,
Domain Rating, keyword metrics such as volume, difficulty and CPC). Keywords
are unique per project and capped by the plan's limit; rankings refresh at
most once a day; a project runs one audit at a time within its page budget;
disavowed backlinks stay disavowed until restored; issues are ignored with a
reason. Domain and keyword metrics are open-world lookups.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, DateTime, Domain, Email, IdOf, Text, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "seo",
    title="Rankwell SEO",
    category="seo",
    modeled_on="Semrush Projects API (Position Tracking, Site Audit) and Ahrefs API v3 (backlinks, "
    "Domain Rating, keyword metrics)",
    description="Search engine optimisation of the company's websites: projects per domain, tracked "
    "keywords and their Google positions, the backlinks pointing at the site, site audits and the "
    "issues they found; plus metrics of any domain or keyword on the web.",
)

ProjectId = Annotated[str, IdOf("seo.project")]
KeywordId = Annotated[str, IdOf("seo.keyword")]
BacklinkId = Annotated[str, IdOf("seo.backlink")]
AuditId = Annotated[str, IdOf("seo.audit")]
IssueId = Annotated[str, IdOf("seo.issue")]

Phrase = Annotated[str, StringConstraints(min_length=1, max_length=120, pattern=r"^[^\s].*$")]
"""A search phrase."""
Position = Annotated[int, Field(ge=1, le=100)]
"""A position in the top 100 results."""

Engine = Literal["google", "bing"]
Device = Literal["desktop", "mobile"]
BacklinkStatus = Literal["live", "lost", "disavowed"]
AuditStatus = Literal["running", "completed", "cancelled"]
Severity = Literal["error", "warning", "notice"]
IssueStatus = Literal["open", "ignored", "fixed"]
KEYWORD_LIMIT = 50
ISSUES: tuple[tuple[str, Severity], ...] = (
    ("broken_internal_link", "error"),
    ("missing_title", "error"),
    ("duplicate_meta_description", "warning"),
    ("slow_page", "warning"),
    ("missing_alt_text", "notice"),
    ("redirect_chain", "notice"),
)


class Project(Record):
    """A website whose search performance is tracked."""

    id: ProjectId
    name: Title
    """Its name."""
    domain: Domain
    """The site's domain (unique)."""
    owner_email: Email
    """The employee who owns it."""
    engine: Engine = "google"
    """The search engine tracked."""
    country: Country = "US"
    """The location rankings are checked from."""
    device: Device = "desktop"
    """The device rankings are checked on."""
    page_limit: Annotated[int, Field(ge=10, le=100000)] = 500
    """Pages a site audit may crawl."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Keyword(Record):
    """A tracked keyword and its latest position."""

    id: KeywordId
    project_id: ProjectId
    """The project."""
    phrase: Phrase
    """The search phrase (unique per project, case-insensitive)."""
    tags: tuple[Annotated[str, StringConstraints(min_length=1, max_length=40)], ...] = ()
    """Tags to group keywords."""
    position: Position | None = None
    """The site's best position (None: not in the top 100)."""
    previous_position: Position | None = None
    """The position before the last check."""
    ranking_url: Url | None = None
    """The page that ranks."""
    search_volume: int = 0
    """Monthly searches."""
    checked_at: DateTime | None = None
    """When the position was last checked."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Backlink(Record):
    """A link from another site to the project's domain."""

    id: BacklinkId
    project_id: ProjectId
    """The project."""
    source_url: Url
    """The linking page."""
    referring_domain: Domain
    """The linking site."""
    target_url: Url
    """The page linked to."""
    anchor: Text = ""
    """The link text."""
    dofollow: bool = True
    """Whether it passes authority."""
    domain_rating: Annotated[int, Field(ge=0, le=100)] = 0
    """The referring domain's rating."""
    status: BacklinkStatus = "live"
    """live, lost or disavowed."""
    first_seen: DateTime
    """When it was first found."""


class Audit(Record):
    """A site audit run over the project's pages."""

    id: AuditId
    project_id: ProjectId
    """The project."""
    status: AuditStatus = "running"
    """running, completed or cancelled."""
    pages_crawled: int = 0
    """Pages crawled."""
    health_score: Annotated[int, Field(ge=0, le=100)] | None = None
    """Site health, 0-100 (once completed)."""
    started_at: DateTime
    """When it started."""
    finished_at: DateTime | None = None
    """When it finished."""


class Issue(Record):
    """A problem an audit found on a page."""

    id: IssueId
    audit_id: AuditId
    """The audit."""
    project_id: ProjectId
    """The project."""
    issue_type: str
    """What is wrong, e.g. broken_internal_link."""
    severity: Severity
    """error, warning or notice."""
    url: Url
    """The page."""
    status: IssueStatus = "open"
    """open, ignored or fixed."""
    ignore_reason: Text = ""
    """Why it is ignored."""


class DomainMetrics(Value):
    """Ahrefs-style metrics of a domain."""

    domain: str
    """The domain."""
    domain_rating: int
    """Domain Rating, 0-100."""
    referring_domains: int
    """Sites linking to it."""
    backlinks: int
    """Links to it."""
    organic_keywords: int
    """Keywords it ranks for."""
    organic_traffic: int
    """Estimated monthly organic visits."""


class KeywordMetrics(Value):
    """Metrics of a search phrase in a country."""

    phrase: str
    """The phrase."""
    country: str
    """The country."""
    search_volume: int
    """Monthly searches."""
    difficulty: int
    """Keyword difficulty, 0-100."""
    cpc_cents: int
    """Average cost per click, in cents (USD)."""


# -- rules ------------------------------------------------------------------------------------


def _num(*parts: str) -> int:
    return int(hashlib.sha256("|".join(parts).encode()).hexdigest()[:12], 16)


def _guard_project_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Audit, project_id=old.id, status="running") is not None:
        raise Conflict("an audit of the project is running", field="project_id", hint="cancel it first")


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="sp",
    create=False,
    filters=("domain", "owner_email", "engine"),
    search=("name", "domain"),
    update=("name", "country", "device", "page_limit"),
    guard_delete=_guard_project_delete,
)
keywords = service.resource(
    Keyword,
    name="keyword",
    plural="keywords",
    prefix="kw",
    create=False,
    filters=("project_id", "position"),
    search=("phrase",),
    update=("tags",),
)
backlinks = service.resource(
    Backlink,
    name="backlink",
    plural="backlinks",
    prefix="bl",
    create=False,
    get=False,
    filters=("project_id", "status", "referring_domain", "dofollow"),
    search=("anchor", "source_url"),
    delete=False,
    transitions={
        "disavow": Transition("status", ("live", "lost"), "disavowed", "disavow the backlink"),
        "restore": Transition("status", ("disavowed",), "live", "restore the disavowed backlink"),
    },
)
audits = service.resource(
    Audit,
    name="audit",
    plural="audits",
    prefix="au",
    create=False,
    filters=("project_id", "status"),
    delete=False,
    transitions={"cancel": Transition("status", ("running",), "cancelled", "cancel the site audit")},
)
issues = service.resource(
    Issue,
    name="issue",
    plural="issues",
    prefix="iss",
    create=False,
    get=False,
    filters=("audit_id", "project_id", "severity", "status", "issue_type"),
    delete=False,
    transitions={"reopen": Transition("status", ("ignored",), "open", "reopen the ignored issue")},
)


# -- domain tools -----------------------------------------------------------------------------


def _example_project(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Careers site",
        "domain": f"careers-{ctx.population.home.domain}",
        "owner_email": ctx.population.employees[0].email,
    }


@service.tool(intent="create the SEO project", write=True, example=_example_project)
def create_project(
    ctx: Ctx, name: Title, domain: Domain, owner_email: Email, country: Country = "US", device: Device = "desktop"
) -> Project:
    """Create a project for a domain; each domain has one project.

    Args:
        name: Its name.
        domain: The site's domain.
        owner_email: The employee who owns it.
        country: Where rankings are checked from.
        device: desktop or mobile.
    """
    if ctx.first(Project, domain=domain) is not None:
        raise Conflict(f"{domain} already has a project", field="domain", hint="use that project")
    if owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{owner_email} is not a user", field="owner_email", hint="use an employee's e-mail")
    return ctx.create(Project, name=name, domain=domain, owner_email=owner_email, country=country, device=device)


@service.tool(
    intent="track the keywords",
    write=True,
    example=first_example(Project, "project_id", phrases=["best running shoes 2026"], tags=["new"]),
)
def add_keywords(
    ctx: Ctx, project_id: ProjectId, phrases: list[Phrase], tags: list[str] | None = None
) -> list[Keyword]:
    """Start tracking phrases in a project (at most 50 keywords per project; duplicates are refused).

    Args:
        project_id: The project.
        phrases: The search phrases.
        tags: Tags for all of them.
    """
    project = ctx.get(Project, project_id, field="project_id")
    known = {k.phrase.lower() for k in ctx.where(Keyword, project_id=project_id)}
    seen: set[str] = set()
    for p in phrases:
        if p.lower() in known or p.lower() in seen:
            raise Conflict(f"{p!r} is already tracked", field="phrases", hint="leave it out")
        seen.add(p.lower())
    if len(known) + len(phrases) > KEYWORD_LIMIT:
        raise RuleViolation(
            f"the plan tracks at most {KEYWORD_LIMIT} keywords per project ({len(known)} tracked)",
            field="phrases",
            hint="delete keywords you no longer need",
        )
    return [
        ctx.create(
            Keyword,
            project_id=project_id,
            phrase=p,
            tags=tuple(tags or ()),
            search_volume=_metrics(p, project.country).search_volume,
        )
        for p in phrases
    ]


@service.tool(
    intent="refresh the keyword rankings",
    write=True,
    example=first_example(Project, "project_id"),
)
def refresh_rankings(ctx: Ctx, project_id: ProjectId) -> list[Keyword]:
    """Check the positions of a project's keywords now; each is checked at most once a day.

    Args:
        project_id: The project.
    """
    project = ctx.get(Project, project_id, field="project_id")
    due = [
        k
        for k in ctx.where(Keyword, project_id=project_id)
        if k.checked_at is None or ctx.now() - k.checked_at >= dt.timedelta(days=1)
    ]
    if not due:
        raise RuleViolation(
            "every keyword was checked in the last 24 hours", field="project_id", hint="try again tomorrow"
        )
    day = ctx.today().isoformat()
    out = []
    for k in due:
        roll = _num(project.domain, k.phrase, day) % 120
        pos = None if roll >= 100 else roll + 1
        url = f"https://{project.domain}/{'-'.join(k.phrase.lower().split())[:60]}" if pos else None
        out.append(ctx.update(k, previous_position=k.position, position=pos, ranking_url=url, checked_at=ctx.now()))
    return out


@service.tool(
    intent="start a site audit",
    write=True,
    example=first_example(
        Project, "project_id", match=lambda ctx, p: ctx.first(Audit, project_id=p.id, status="running") is None
    ),
)
def start_audit(ctx: Ctx, project_id: ProjectId) -> Audit:
    """Crawl the project's site within its page budget and record the issues found.

    Args:
        project_id: The project (with no audit running).
    """
    project = ctx.get(Project, project_id, field="project_id")
    if ctx.first(Audit, project_id=project_id, status="running") is not None:
        raise Conflict("an audit is already running", field="project_id", hint="wait for it or cancel it")
    runs = len(ctx.where(Audit, project_id=project_id))
    pages = min(project.page_limit, 40 + _num(project.domain, "pages") % 400)
    audit = ctx.create(Audit, project_id=project_id, started_at=ctx.now(), pages_crawled=pages)
    errors = 0
    for kind, sev in ISSUES:
        count = _num(project.domain, kind, str(runs)) % 4
        for n in range(count):
            errors += sev == "error"
            ctx.create(
                Issue,
                audit_id=audit.id,
                project_id=project_id,
                issue_type=kind,
                severity=sev,
                url=f"https://{project.domain}/page-{_num(kind, str(n)) % 900}",
            )
    health = max(0, 100 - errors * 6)
    return ctx.update(audit, status="completed", finished_at=ctx.now(), health_score=health)


@service.tool(
    intent="ignore the audit issue",
    write=True,
    example=first_example(Issue, "issue_id", where={"status": "open"}, reason="Intentional redirect."),
)
def ignore_issue(ctx: Ctx, issue_id: IssueId, reason: Text) -> Issue:
    """Ignore an open issue with a reason (it stays out of the health score's to-do list).

    Args:
        issue_id: The issue.
        reason: Why it is not a problem (required).
    """
    issue = ctx.get(Issue, issue_id, field="issue_id")
    if issue.status != "open":
        raise Conflict(f"issue is {issue.status}", field="issue_id", hint="only open issues can be ignored")
    if not reason.strip():
        raise RuleViolation("ignoring needs a reason", field="reason", hint="say why it is not a problem")
    return ctx.update(issue, status="ignored", ignore_reason=reason.strip())


def _metrics(phrase: str, country: str) -> KeywordMetrics:
    n = _num(phrase.lower(), country)
    return KeywordMetrics(
        phrase=phrase,
        country=country,
        search_volume=10 * (1 + n % 9000),
        difficulty=n % 101,
        cpc_cents=5 + n % 900,
    )


@service.tool(
    intent="look up the domain's SEO metrics",
    open_world=True,
    example=fixed_example(domain="wikipedia.org"),
)
def domain_overview(ctx: Ctx, domain: Domain) -> DomainMetrics:
    """Domain Rating, referring domains, backlinks, organic keywords and traffic of any domain.

    Args:
        domain: The domain, e.g. example.com.
    """
    n = _num(domain.lower())
    dr = 5 + n % 90
    return DomainMetrics(
        domain=domain.lower(),
        domain_rating=dr,
        referring_domains=dr * (10 + n % 50),
        backlinks=dr * (200 + n % 5000),
        organic_keywords=dr * (30 + n % 800),
        organic_traffic=dr * dr * (5 + n % 40),
    )


@service.tool(
    intent="look up the keyword's search metrics",
    open_world=True,
    example=fixed_example(phrase="project management software", country="US"),
)
def keyword_overview(ctx: Ctx, phrase: Phrase, country: Country = "US") -> KeywordMetrics:
    """Monthly search volume, keyword difficulty and cost per click of a phrase in a country.

    Args:
        phrase: The search phrase.
        country: ISO country code of the market.
    """
    return _metrics(phrase, country)


# -- seed -------------------------------------------------------------------------------------

PHRASES = (
    "{name}",
    "{name} reviews",
    "{industry} software",
    "best {industry} tools",
    "{industry} pricing",
    "how to choose a {industry} provider",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Projects for the home site and its blog, ranked keywords, backlinks from the world's companies, audits."""
    pop = s.population
    home = pop.home
    team = pop.staff("Marketing", fallback=2)
    made = [
        s.create(
            Project,
            name=f"{home.name} website",
            domain=home.domain,
            owner_email=team[0].email,
            country=home.place.country,
            created_at=s.ago(days=500),
        ),
        s.create(
            Project,
            name=f"{home.name} blog",
            domain=f"blog.{home.domain}",
            owner_email=team[-1].email,
            country=home.place.country,
            device="mobile",
            page_limit=200,
            created_at=s.ago(days=300),
        ),
    ]
    industry = home.industry.lower()
    for k, tpl in enumerate(PHRASES):
        phrase = tpl.format(name=home.name.lower(), industry=industry)
        for j, proj in enumerate(made):
            pos = None if (k + j) % 5 == 4 else 1 + (k * 7 + j * 3) % 40
            s.create(
                Keyword,
                project_id=proj.id,
                phrase=phrase,
                position=pos,
                previous_position=None if pos is None else min(100, pos + (k % 3) - 1) or 1,
                ranking_url=f"https://{proj.domain}/{k}" if pos else None,
                search_volume=_metrics(phrase, proj.country).search_volume,
                checked_at=s.ago(hours=30) if j == 0 else s.ago(hours=3),
                tags=("brand",) if k < 2 else ("generic",),
            )
    for k, comp in enumerate(pop.customers[:12]):
        s.create(
            Backlink,
            project_id=made[k % 2].id,
            source_url=f"https://{comp.domain}/partners",
            referring_domain=comp.domain,
            target_url=f"https://{made[k % 2].domain}/",
            anchor=home.name if k % 2 else f"{industry} partner",
            dofollow=k % 4 != 3,
            domain_rating=5 + _num(comp.domain) % 90,
            status="lost" if k % 5 == 4 else ("disavowed" if k == 11 else "live"),
            first_seen=s.ago(days=30 + 20 * k),
        )
    done = s.create(
        Audit,
        project_id=made[0].id,
        status="completed",
        pages_crawled=412,
        health_score=82,
        started_at=s.ago(days=7),
        finished_at=s.ago(days=7, hours=-1),
    )
    for n, (kind, sev) in enumerate(ISSUES):
        s.create(
            Issue,
            audit_id=done.id,
            project_id=made[0].id,
            issue_type=kind,
            severity=sev,
            url=f"https://{home.domain}/page-{n * 37}",
            status="ignored" if n == 5 else "open",
            ignore_reason="Campaign redirects are intended." if n == 5 else "",
        )
    s.create(Audit, project_id=made[1].id, pages_crawled=57, started_at=s.ago(hours=1))
