"""Launchpad Pages: the marketing team's landing pages, A/B variants, domains and the leads their forms capture.

Modeled on the Unbounce API v0.4: domains (custom domains that must pass a DNS
CNAME check before pages publish on them), pages with a URL path on a domain,
a conversion goal (form submission or click-through) and a state of published
or unpublished, page variants (A, B, C …) that are the champion, challengers
or discarded, with traffic weights that add up to 100 over the live variants
and their visitors and conversions, and leads (form submissions) captured on
published pages, each tied to the variant that converted. A page publishes
only on a verified domain, at a path no other page there uses; the champion
cannot be discarded (promote another first), and a discarded variant's
traffic goes to the champion.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Domain, Email, IdOf, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "landingpages",
    title="Launchpad Pages",
    category="landing_pages",
    modeled_on="Unbounce API v0.4 (domains, pages with publish/unpublish, page variants with champion and "
    "challengers and traffic weights, leads from form submissions, conversion stats)",
    description="Landing pages for the company's campaigns: custom domains, pages and their A/B variants with "
    "traffic split, publishing, the leads their forms capture, and conversion rates per variant.",
)

DomainId = Annotated[str, IdOf("landingpages.domain")]
PageId = Annotated[str, IdOf("landingpages.page")]
VariantId = Annotated[str, IdOf("landingpages.variant")]
LeadId = Annotated[str, IdOf("landingpages.lead")]

UrlPath = Annotated[str, StringConstraints(pattern=r"^/[a-z0-9][a-z0-9-]{0,79}$")]
"""A page path such as /spring-sale."""
Goal = Literal["form_submit", "click_through"]
VariantState = Literal["champion", "challenger", "discarded"]
LETTERS = "abcdefghijklmnopqrstuvwxyz"


class PageDomain(Timestamped):
    """A custom domain pages are published on."""

    id: DomainId
    hostname: Domain
    """The host name (unique), e.g. go.example.com."""
    status: Literal["pending_dns", "verified"] = "pending_dns"
    """pending_dns until its CNAME points at us, then verified."""


class Page(Timestamped):
    """A landing page."""

    id: PageId
    name: Title
    """Internal name."""
    domain_id: DomainId
    """The domain."""
    path: UrlPath
    """Its path on the domain."""
    goal: Goal = "form_submit"
    """form_submit or click_through."""
    click_through_url: str = ""
    """Where the click-through goal leads."""
    owner_email: Email | None = None
    """The marketer responsible."""
    state: Literal["unpublished", "published"] = "unpublished"
    """unpublished or published."""
    published_at: DateTime | None = None
    """When it was last published."""


class Variant(Created):
    """An A/B variant of a page."""

    id: VariantId
    page_id: PageId
    """The page."""
    letter: Annotated[str, StringConstraints(pattern=r"^[a-z]$")]
    """a, b, c …"""
    headline: Title
    """Its headline."""
    state: VariantState = "challenger"
    """champion, challenger or discarded."""
    weight: Annotated[int, Field(ge=0, le=100)] = 0
    """Share of traffic, percent."""
    visitors: Annotated[int, Field(ge=0)] = 0
    """Unique visitors."""
    conversions: Annotated[int, Field(ge=0)] = 0
    """Conversions."""


class Lead(Created):
    """A form submission on a page."""

    id: LeadId
    page_id: PageId
    """The page."""
    variant_id: VariantId
    """The variant that converted."""
    email: Email
    """The visitor's e-mail."""
    name: PersonName
    """Their name."""
    company: str = ""
    """Their company."""
    consent: bool = False
    """Marketing consent given."""


class VariantStats(Value):
    """A variant's conversion rate."""

    variant_id: VariantId
    """The variant."""
    letter: str
    """Its letter."""
    state: VariantState
    """Its state."""
    weight: int
    """Traffic share."""
    visitors: int
    """Visitors."""
    conversions: int
    """Conversions."""
    conversion_rate: float
    """Conversions per visitor, percent (2 decimals)."""


# -- rules ------------------------------------------------------------------------------------


def _live(ctx: Ctx, page_id: str) -> list[Variant]:
    return [v for v in ctx.where(Variant, page_id=page_id) if v.state != "discarded"]


def _guard_domain(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(PageDomain, hostname=new.hostname):
        if other.id != new.id:
            raise Conflict(f"{new.hostname} is already added", field="hostname", hint="use that domain")


def _guard_domain_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.where(Page, domain_id=old.id):
        raise RuleViolation(f"{old.hostname} still has pages", field="domain_id", hint="move or delete them first")


def _guard_page(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(PageDomain, new.domain_id, field="domain_id")
    for other in ctx.where(Page, domain_id=new.domain_id, path=new.path):
        if other.id != new.id:
            raise Conflict(f"{new.path} is taken on that domain by {other.name!r}", field="path", hint="pick a path")
    if new.goal == "click_through" and not new.click_through_url.startswith("https://"):
        raise RuleViolation(
            "a click-through goal needs an https:// target",
            field="click_through_url",
            hint="give the URL the button leads to",
        )
    if old is None:
        ctx.create(Variant, page_id=new.id, letter="a", headline=new.name, state="champion", weight=100)


def _guard_page_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.state == "published":
        raise RuleViolation(f"{old.name!r} is published", field="page_id", hint="unpublish it first")
    for v in ctx.where(Variant, page_id=old.id):
        ctx.delete(v)


domains = service.resource(
    PageDomain,
    name="domain",
    plural="domains",
    prefix="dom",
    create=("hostname",),
    filters=("status", "hostname"),
    guard_create=_guard_domain,
    guard_delete=_guard_domain_delete,
)
pages = service.resource(
    Page,
    name="page",
    plural="pages",
    prefix="page",
    create=False,
    filters=("domain_id", "state", "goal", "owner_email", "path"),
    search=("name",),
    update=("name", "path", "goal", "click_through_url", "owner_email"),
    guard_update=_guard_page,
    guard_delete=_guard_page_delete,
    title="landing page",
)
variants = service.resource(
    Variant,
    name="variant",
    plural="variants",
    prefix="var",
    create=False,
    filters=("page_id", "state"),
    update=("headline",),
    delete=False,
    title="page variant",
)
leads = service.resource(
    Lead,
    name="lead",
    plural="leads",
    prefix="lead",
    create=False,
    filters=("page_id", "variant_id", "email"),
    search=("name", "company"),
)


# -- domain tools -----------------------------------------------------------------------------


def _example_page(ctx: Ctx) -> dict[str, Any] | None:
    dom = ctx.first(PageDomain, status="verified")
    return None if dom is None else {"name": "Holiday offer", "domain_id": dom.id, "path": "/holiday-offer"}


@service.tool(intent="create a landing page", write=True, example=_example_page)
def create_page(
    ctx: Ctx,
    name: Title,
    domain_id: DomainId,
    path: UrlPath,
    goal: Goal = "form_submit",
    click_through_url: str = "",
    owner_email: Email | None = None,
) -> Page:
    """Create an unpublished page at a free path of a domain, with its champion variant A.

    Args:
        name: Internal name (variant A's headline too).
        domain_id: The domain.
        path: Its path, e.g. /spring-sale (unique on the domain).
        goal: form_submit or click_through.
        click_through_url: The https:// target of a click-through goal.
        owner_email: The marketer responsible.
    """
    page = ctx.create(
        Page,
        name=name,
        domain_id=domain_id,
        path=path,
        goal=goal,
        click_through_url=click_through_url,
        owner_email=owner_email,
    )
    _guard_page(ctx, page, None)
    return page


@service.tool(
    intent="verify the domain",
    write=True,
    example=first_example(PageDomain, "domain_id", where={"status": "pending_dns"}),
)
def verify_domain(ctx: Ctx, domain_id: DomainId) -> PageDomain:
    """Check a pending domain's CNAME record; it becomes verified.

    Args:
        domain_id: The domain.
    """
    dom = ctx.get(PageDomain, domain_id, field="domain_id")
    if dom.status == "verified":
        raise Conflict(f"{dom.hostname} is already verified", field="domain_id", hint="nothing to do")
    return ctx.update(dom, status="verified")


@service.tool(
    intent="publish the landing page",
    write=True,
    example=first_example(
        Page,
        "page_id",
        where={"state": "unpublished"},
        match=lambda c, p: c.get(PageDomain, p.domain_id).status == "verified",
    ),
)
def publish_page(ctx: Ctx, page_id: PageId) -> Page:
    """Publish an unpublished page on its verified domain.

    Args:
        page_id: The page.
    """
    page = ctx.get(Page, page_id, field="page_id")
    if page.state == "published":
        raise Conflict(f"{page.name!r} is already published", field="page_id", hint="nothing to do")
    dom = ctx.get(PageDomain, page.domain_id)
    if dom.status != "verified":
        raise RuleViolation(
            f"{dom.hostname} is not verified",
            field="page_id",
            hint="verify the domain with landingpages__verify_domain",
        )
    if sum(v.weight for v in _live(ctx, page.id)) != 100:
        raise RuleViolation("traffic weights do not add up to 100", field="page_id", hint="set the traffic weights")
    return ctx.update(page, state="published", published_at=ctx.now())


@service.tool(
    intent="unpublish the landing page",
    write=True,
    example=first_example(Page, "page_id", where={"state": "published"}),
)
def unpublish_page(ctx: Ctx, page_id: PageId) -> Page:
    """Take a published page offline; its leads stay.

    Args:
        page_id: The page.
    """
    page = ctx.get(Page, page_id, field="page_id")
    if page.state != "published":
        raise RuleViolation(f"{page.name!r} is not published", field="page_id", hint="nothing to unpublish")
    return ctx.update(page, state="unpublished")


@service.tool(
    intent="add a variant to the page",
    write=True,
    example=first_example(Page, "page_id", headline="Start your free trial today"),
)
def add_variant(ctx: Ctx, page_id: PageId, headline: Title) -> Variant:
    """Add a challenger variant (next letter) with no traffic yet; at most 10 live variants.

    Args:
        page_id: The page.
        headline: The variant's headline.
    """
    page = ctx.get(Page, page_id, field="page_id")
    every = ctx.where(Variant, page_id=page.id)
    if len(_live(ctx, page.id)) >= 10 or len(every) >= len(LETTERS):
        raise RuleViolation("a page has at most 10 live variants", field="page_id", hint="discard one first")
    return ctx.create(Variant, page_id=page.id, letter=LETTERS[len(every)], headline=headline)


def _example_weights(ctx: Ctx) -> dict[str, Any] | None:
    for page in ctx.scan(Page):
        live = _live(ctx, page.id)
        if len(live) == 2:
            return {"page_id": page.id, "weights": {live[0].letter: 60, live[1].letter: 40}}
    return None


@service.tool(intent="split the page's traffic", write=True, example=_example_weights)
def set_traffic_weights(
    ctx: Ctx, page_id: PageId, weights: dict[str, Annotated[int, Field(ge=0, le=100)]]
) -> list[Variant]:
    """Set the traffic share of every live variant by letter; shares add up to 100.

    Args:
        page_id: The page.
        weights: Percent per variant letter, e.g. {"a": 50, "b": 50}, naming every live variant.
    """
    page = ctx.get(Page, page_id, field="page_id")
    live = {v.letter: v for v in _live(ctx, page.id)}
    if set(weights) != set(live):
        raise RuleViolation(
            f"name every live variant: {', '.join(sorted(live))}",
            field="weights",
            hint="discarded variants take no traffic",
        )
    if sum(weights.values()) != 100:
        raise RuleViolation(
            f"weights add up to {sum(weights.values())}, not 100", field="weights", hint="make them add up to 100"
        )
    return [ctx.update(live[k], weight=w) for k, w in sorted(weights.items())]


@service.tool(
    intent="promote the variant to champion",
    write=True,
    example=first_example(Variant, "variant_id", where={"state": "challenger"}),
)
def promote_variant(ctx: Ctx, variant_id: VariantId) -> Variant:
    """Make a challenger the champion; the old champion becomes a challenger (weights unchanged).

    Args:
        variant_id: The challenger.
    """
    var = ctx.get(Variant, variant_id, field="variant_id")
    if var.state != "challenger":
        raise RuleViolation(f"variant {var.letter} is {var.state}", field="variant_id", hint="promote a challenger")
    for v in ctx.where(Variant, page_id=var.page_id, state="champion"):
        ctx.update(v, state="challenger")
    return ctx.update(var, state="champion")


@service.tool(
    intent="discard the variant",
    write=True,
    example=first_example(Variant, "variant_id", where={"state": "challenger"}),
)
def discard_variant(ctx: Ctx, variant_id: VariantId) -> Variant:
    """Stop a challenger; its traffic share goes to the champion.

    Args:
        variant_id: The challenger.
    """
    var = ctx.get(Variant, variant_id, field="variant_id")
    if var.state != "challenger":
        raise RuleViolation(
            f"variant {var.letter} is {var.state}",
            field="variant_id",
            hint="promote another variant before discarding the champion",
        )
    champ = ctx.first(Variant, page_id=var.page_id, state="champion")
    if champ is not None:
        ctx.update(champ, weight=champ.weight + var.weight)
    return ctx.update(var, state="discarded", weight=0)


def _example_lead(ctx: Ctx) -> dict[str, Any] | None:
    page = ctx.first(Page, state="published", goal="form_submit")
    person = ctx.population.contacts[-1]
    return None if page is None else {"page_id": page.id, "email": person.email, "name": person.name, "consent": True}


@service.tool(intent="capture a lead from the page's form", write=True, example=_example_lead)
def submit_lead(
    ctx: Ctx, page_id: PageId, email: Email, name: PersonName, company: str = "", consent: bool = False
) -> Lead:
    """Record a form submission on a published page; it converts on the champion variant.

    Args:
        page_id: A published page with a form goal.
        email: The visitor's e-mail.
        name: Their name.
        company: Their company.
        consent: Whether they agreed to marketing.
    """
    page = ctx.get(Page, page_id, field="page_id")
    if page.state != "published" or page.goal != "form_submit":
        raise RuleViolation(
            f"{page.name!r} takes no form submissions ({page.state}, {page.goal})",
            field="page_id",
            hint="use a published page with a form goal",
        )
    champ = ctx.first(Variant, page_id=page.id, state="champion")
    if champ is None:
        raise RuleViolation("the page has no champion variant", field="page_id", hint="promote a variant")
    ctx.update(champ, visitors=champ.visitors + 1, conversions=champ.conversions + 1)
    return ctx.create(
        Lead, page_id=page.id, variant_id=champ.id, email=email, name=name, company=company, consent=consent
    )


@service.tool(intent="show the page's conversion stats", example=first_example(Page, "page_id"))
def page_stats(ctx: Ctx, page_id: PageId) -> list[VariantStats]:
    """Visitors, conversions and conversion rate of each of a page's variants.

    Args:
        page_id: The page.
    """
    page = ctx.get(Page, page_id, field="page_id")
    return [
        VariantStats(
            variant_id=v.id,
            letter=v.letter,
            state=v.state,
            weight=v.weight,
            visitors=v.visitors,
            conversions=v.conversions,
            conversion_rate=round(100 * v.conversions / v.visitors, 2) if v.visitors else 0.0,
        )
        for v in ctx.where(Variant, page_id=page.id)
    ]


# -- seed -------------------------------------------------------------------------------------

PAGES: tuple[tuple[str, str, Goal, str], ...] = (
    ("Spring sale", "/spring-sale", "form_submit", "published"),
    ("Free trial", "/free-trial", "form_submit", "published"),
    ("Webinar signup", "/webinar", "form_submit", "unpublished"),
    ("Product tour", "/tour", "click_through", "published"),
    ("Partner program", "/partners", "form_submit", "unpublished"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two domains (one pending), pages with A/B variants in every state, leads from the world's contacts."""
    pop = s.population
    staff = pop.staff("Marketing", fallback=3)
    host = pop.home.domain
    live_dom = s.create(
        PageDomain, hostname=f"go.{host}", status="verified", created_at=s.ago(days=400), updated_at=s.ago(days=399)
    )
    s.create(PageDomain, hostname=f"promo.{host}", created_at=s.ago(days=3), updated_at=s.ago(days=3))
    people = list(pop.contacts[:12])
    n = 0
    for k, (name, path, goal, state) in enumerate(PAGES):
        page = s.create(
            Page,
            name=name,
            domain_id=live_dom.id,
            path=path,
            goal=goal,
            click_through_url=f"https://{host}/signup" if goal == "click_through" else "",
            owner_email=staff[k % len(staff)].email,
            state=state,
            published_at=s.ago(days=60 - 10 * k) if state == "published" else None,
            created_at=s.ago(days=90 - 10 * k),
            updated_at=s.ago(days=5),
        )
        plan: list[tuple[VariantState, int]] = [("champion", 100)]
        if k < 3:
            plan = [("champion", 50), ("challenger", 50)]
        if k == 0:
            plan = [("champion", 70), ("challenger", 30), ("discarded", 0)]
        for j, (vstate, weight) in enumerate(plan):
            visitors = 0 if state == "unpublished" and k > 2 else 400 + 137 * (k + j)
            var = s.create(
                Variant,
                page_id=page.id,
                letter=LETTERS[j],
                headline=f"{name}: take {j + 1}",
                state=vstate,
                weight=weight,
                visitors=visitors,
                conversions=visitors // (8 + 3 * j),
                created_at=s.ago(days=80 - 10 * k),
            )
            if goal == "form_submit" and state == "published" and vstate == "champion":
                for _ in range(3):
                    p = people[n % len(people)]
                    n += 1
                    company = pop.company_of(p)
                    s.create(
                        Lead,
                        page_id=page.id,
                        variant_id=var.id,
                        email=p.email,
                        name=p.name,
                        company=company.name if company else "",
                        consent=n % 2 == 0,
                        created_at=s.ago(days=n, hours=3),
                    )
