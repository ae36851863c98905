"""A recipe prior: which transitions between services a real business automation would make.

Random walks over the dependency graph chain any two tools whose types match,
so a walk may go from a point-of-sale variation to an inventory item to a CRM
lead for no business reason. The prior says which hops are plausible, the way
integration platforms (Zapier, n8n, Make, native app integrations) wire them:
a *trigger* in one category of service causes a *reaction* in another (a won
deal is invoiced, an urgent ticket pages the on-call engineer, a new hire gets
an account).

The table lives in ``recipe_prior.json`` next to this module:

* ``recipes``: hand-written trigger → reaction transitions between service
  categories, optionally narrowed to the resources or tool kinds on either
  side, each with a ``why`` naming the integration pattern;
* ``lookups``: open-world, read-only services (weather, maps, exchange rates,
  web search …) any step may consult, modelled as one class rather than a pair
  per category;
* ``n8n_categories``: co-occurrence counts of apps in public n8n workflows,
  aggregated onto our categories by :func:`aggregate_n8n`. They carry no
  direction; they only scale how strongly a recipe is weighted.

:meth:`RecipePrior.inside` tells whether a transition is plausible (an audit
reports the share of a walk's transitions inside the prior) and
:meth:`RecipePrior.weight` gives a positive weight for drawing the next step:
high for recipes, small but never zero outside, so unusual chains stay possible.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from compoworld.engine.registration import registered, resolve

if TYPE_CHECKING:
    from compoworld.engine.catalog import Catalog
    from compoworld.engine.service import Service
    from compoworld.engine.tools import Tool

__all__ = [
    "EPSILON",
    "KINDS",
    "LOOKUP_WEIGHT",
    "RECIPE_WEIGHT",
    "SAME_SERVICE_WEIGHT",
    "Recipe",
    "RecipePrior",
    "aggregate_n8n",
    "inside_share",
    "prior_coverage",
    "usage_coverage",
]

KINDS = frozenset({"create", "get", "list", "update", "delete", "transition", "domain"})

# A recipe's weight before the co-occurrence boost; the boost at most doubles it.
RECIPE_WEIGHT = 1.0
# Chains inside one service (list contacts, then update one) are the backbone of any task.
SAME_SERVICE_WEIGHT = 1.0
# Lookups are plausible from anywhere but should season a walk, not dominate it.
LOOKUP_WEIGHT = 0.3
# Outside the prior: rare, never impossible, so the walk can still reach every tool.
EPSILON = 0.02

_PACKAGE = "compoworld.tasks"
# Where the built-in services are registered from: the table knows these, and only these.
BUILT_IN = "compoworld.services."
_RESOURCE = "recipe_prior.json"
_TOKEN = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Recipe:
    """One plausible trigger → reaction transition between service categories.

    Attributes:
        trigger: Category of the service where the event happens (``crm``).
        reaction: Category of the service that reacts (``accounting``).
        why: The real integration pattern, in a few words.
        trigger_resources: Qualified resources the source tool must act on
            (``dealflow.deal``, see :meth:`RecipePrior.subjects`); empty means
            any. A tool with no subject at all (a report, a free-slot search) passes.
        reaction_resources: Qualified resources the destination tool must act on; empty means any.
        trigger_kinds: Tool kinds the source tool must have; empty means any.
        reaction_kinds: Tool kinds the destination tool must have; empty means any.
    """

    trigger: str
    reaction: str
    why: str
    trigger_resources: tuple[str, ...] = ()
    reaction_resources: tuple[str, ...] = ()
    trigger_kinds: tuple[str, ...] = ()
    reaction_kinds: tuple[str, ...] = ()

    @property
    def specificity(self) -> int:
        """How many narrowing fields are set: a more specific recipe explains a transition better."""
        return sum(
            bool(f) for f in (self.trigger_resources, self.reaction_resources, self.trigger_kinds, self.reaction_kinds)
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Recipe:
        """Build a recipe from its JSON form.

        Args:
            data: One entry of the JSON's ``recipes`` list.

        Returns:
            The recipe.

        Raises:
            ValueError: for unknown keys or kinds.
        """
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"recipe {data.get('trigger')}→{data.get('reaction')}: unknown keys {sorted(unknown)}")
        recipe = cls(
            trigger=str(data["trigger"]),
            reaction=str(data["reaction"]),
            why=str(data["why"]),
            trigger_resources=tuple(data.get("trigger_resources", ())),
            reaction_resources=tuple(data.get("reaction_resources", ())),
            trigger_kinds=tuple(data.get("trigger_kinds", ())),
            reaction_kinds=tuple(data.get("reaction_kinds", ())),
        )
        bad = set(recipe.trigger_kinds + recipe.reaction_kinds) - KINDS
        if bad:
            raise ValueError(f"recipe {recipe.trigger}→{recipe.reaction}: unknown kinds {sorted(bad)}")
        return recipe

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, leaving out empty narrowing fields."""
        out: dict[str, Any] = {"trigger": self.trigger, "reaction": self.reaction, "why": self.why}
        for name in ("trigger_resources", "reaction_resources", "trigger_kinds", "reaction_kinds"):
            value = getattr(self, name)
            if value:
                out[name] = list(value)
        return out


def aggregate_n8n(cooccurrence: Mapping[str, Any], mapping: Mapping[str, str | None]) -> dict[tuple[str, str], int]:
    """Aggregate n8n app co-occurrence counts onto our service categories.

    Each app of the shared file carries a suggested n8n category; ``mapping``
    sends it to one of our categories, or to None where no real counterpart
    exists (SQL databases, music …). A pair of apps adds its count to
    the unordered pair of their categories, so a workflow with Slack, Mattermost
    and Gmail adds to (chat, email) twice: the figures are sums over app pairs,
    not numbers of workflows. Pairs of two apps of one category count on the
    diagonal.

    Args:
        cooccurrence: The parsed ``n8n-app-cooccurrence.json`` (``apps`` and ``pairs``).
        mapping: n8n category → our category or None.

    Returns:
        ``{(a, b): count}`` with ``a <= b``, zero counts left out.

    Raises:
        ValueError: if an app's n8n category is missing from ``mapping`` (a new
            category must be decided on, not silently dropped), or a pair names an unknown app.
    """
    app_category: dict[str, str | None] = {}
    for app in cooccurrence["apps"]:
        n8n = app["category"]
        if n8n not in mapping:
            raise ValueError(f"n8n category {n8n!r} (app {app['app']!r}) is not in the mapping")
        app_category[app["app"]] = mapping[n8n]
    totals: dict[tuple[str, str], int] = defaultdict(int)
    for pair in cooccurrence["pairs"]:
        try:
            a, b = app_category[pair["a"]], app_category[pair["b"]]
        except KeyError as exc:
            raise ValueError(f"pair names an app not listed in 'apps': {exc}") from None
        if a is None or b is None or not pair["workflows"]:
            continue
        key = (a, b) if a <= b else (b, a)
        totals[key] += int(pair["workflows"])
    return dict(totals)


def _tokens(name: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(name))


def _contains(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    n = len(needle)
    return n > 0 and any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


@dataclass(eq=False)
class RecipePrior:
    """The recipe table, ready to judge and weigh transitions between tools.

    Use :meth:`default` for the packaged table. A tool's category is its
    service's; services are looked up in the catalog given to
    :meth:`with_catalog`, or else in the service registry.

    Attributes:
        recipes: The recipes, in the JSON's order.
        lookup_categories: Categories whose read-only tools any step may consult.
        lookup_services: Further services (of other categories) whose read-only tools are lookups.
        cooccurrence: Aggregated n8n counts by unordered category pair.
        n8n_mapping: n8n category → our category or None.
        n8n_usage: Public n8n workflows per n8n category (an app counts once per workflow).
        source: The JSON's ``source`` block.
        services: Services by name to resolve tools' categories in; None uses the registry.
    """

    recipes: tuple[Recipe, ...]
    lookup_categories: frozenset[str] = frozenset()
    lookup_services: frozenset[str] = frozenset()
    cooccurrence: Mapping[tuple[str, str], int] = field(default_factory=dict)
    n8n_mapping: Mapping[str, str | None] = field(default_factory=dict)
    n8n_usage: Mapping[str, int] = field(default_factory=dict)
    source: Mapping[str, Any] = field(default_factory=dict)
    services: Mapping[str, Service] | None = None
    _by_pair: dict[tuple[str, str], list[Recipe]] = field(init=False, repr=False)
    _boost: dict[tuple[str, str], float] = field(init=False, repr=False)
    _service_cache: dict[str, Service] = field(init=False, repr=False)
    _subject_cache: dict[str, frozenset[str]] = field(init=False, repr=False)
    _category_cache: dict[str, str] = field(init=False, repr=False)
    _recipe_cache: dict[tuple[str, str], Recipe | None] = field(init=False, repr=False)
    _reaches: dict[str, frozenset[str]] = field(init=False, repr=False)
    _outside: dict[str, bool] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        by_pair: dict[tuple[str, str], list[Recipe]] = defaultdict(list)
        for recipe in self.recipes:
            by_pair[(recipe.trigger, recipe.reaction)].append(recipe)
        # Most specific first, so recipe_for names the narrowest pattern that explains a hop.
        self._by_pair = {k: sorted(v, key=lambda r: -r.specificity) for k, v in by_pair.items()}
        # Log scale: the top pair (e-mail, file storage) sums to 34, most pairs to 1 or 2; both should count.
        top = max(self.cooccurrence.values(), default=0)
        self._boost = {k: math.log1p(n) / math.log1p(top) for k, n in self.cooccurrence.items() if top > 0}
        self._service_cache = dict(self.services or {})
        self._subject_cache = {}
        self._category_cache = {}
        # Walks ask the same pairs again and again (every start against every reaction): answers are kept.
        self._recipe_cache = {}
        reaches: dict[str, set[str]] = defaultdict(set)
        for trigger, reaction in self._by_pair:
            reaches[trigger].add(reaction)
        self._reaches = {k: frozenset(v) for k, v in reaches.items()}
        self._outside = {}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecipePrior:
        """Build a prior from the JSON form.

        Args:
            data: The parsed ``recipe_prior.json``.

        Returns:
            The prior, bound to no catalog.
        """
        n8n = data.get("n8n_categories", {})
        cooc = {
            (p["a"], p["b"]) if p["a"] <= p["b"] else (p["b"], p["a"]): int(p["workflows"])
            for p in n8n.get("pairs", ())
        }
        lookups = data.get("lookups", {})
        return cls(
            recipes=tuple(Recipe.from_dict(r) for r in data["recipes"]),
            lookup_categories=frozenset(lookups.get("categories", ())),
            lookup_services=frozenset(lookups.get("services", ())),
            cooccurrence=cooc,
            n8n_mapping=dict(n8n.get("mapping", {})),
            n8n_usage={k: int(v) for k, v in n8n.get("usage", {}).items()},
            source=dict(data.get("source", {})),
        )

    @classmethod
    def default(cls) -> RecipePrior:
        """The packaged prior (``compoworld/tasks/recipe_prior.json``), loaded once.

        Returns:
            The shared prior; it resolves services through the registry.
        """
        return _default()

    def with_catalog(self, catalog: Catalog) -> RecipePrior:
        """The same table, resolving services in ``catalog`` (for catalogs with unregistered services).

        Args:
            catalog: The catalog whose tools will be judged.

        Returns:
            A new prior.
        """
        return RecipePrior(
            recipes=self.recipes,
            lookup_categories=self.lookup_categories,
            lookup_services=self.lookup_services,
            cooccurrence=self.cooccurrence,
            n8n_mapping=self.n8n_mapping,
            n8n_usage=self.n8n_usage,
            source=self.source,
            services=dict(catalog.services),
        )

    def _service(self, name: str) -> Service:
        svc = self._service_cache.get(name)
        if svc is None:
            svc = resolve(name)
            self._service_cache[name] = svc
        return svc

    def category(self, tool: Tool) -> str:
        """The category of a tool's service.

        Args:
            tool: Any catalog tool.

        Returns:
            The category, e.g. ``crm``.

        Raises:
            CatalogError: if the service is neither in the bound catalog nor registered.
        """
        category = self._category_cache.get(tool.service)
        if category is None:
            category = self._category_cache[tool.service] = self._service(tool.service).category
        return category

    def subjects(self, tool: Tool) -> frozenset[str]:
        """The qualified resources a tool acts on, for narrowing recipes.

        A standard tool names its resource. A domain tool does not, so its
        subject is the service's resource its name mentions (``mark_deal_won``
        acts on ``dealflow.deal``, ``create_invoice`` on ``invoicing.invoice``),
        else a resource whose head noun its name mentions (``watch_flight``:
        ``flightstatus.watched_flight``), else the records its parameters
        identify (``buy_label`` takes a ``shipping.rate``). Reports and
        open-world tools often have no subject.

        Args:
            tool: Any catalog tool.

        Returns:
            Qualified resource names, possibly empty.
        """
        cached = self._subject_cache.get(tool.name)
        if cached is not None:
            return cached
        if tool.resource is not None:
            found = frozenset({tool.resource})
        else:
            words = _tokens(tool.short_name)
            specs = self._service(tool.service).resources
            named = {
                spec.qualified
                for spec in specs
                if _contains(words, _tokens(spec.name)) or _contains(words, _tokens(spec.plural))
            }
            if not named:
                # The head noun: watch_flight acts on a watched_flight, book_event on a scheduled_event.
                named = {spec.qualified for spec in specs if _tokens(spec.name)[-1] in words}
            found = frozenset(named or {resource for _, resource, _ in tool.id_params})
        self._subject_cache[tool.name] = found
        return found

    def is_lookup(self, tool: Tool) -> bool:
        """True for a read-only tool of an open-world lookup service (weather, maps, fx …).

        Args:
            tool: Any catalog tool.

        Returns:
            Whether any step may consult it.
        """
        if tool.writes:
            # Writing to a lookup service (a reading list, a flight alert) is a real action, not a lookup.
            return False
        return tool.service in self.lookup_services or self.category(tool) in self.lookup_categories

    def _fits(self, tool: Tool, wanted: tuple[str, ...]) -> bool:
        if not wanted:
            return True
        subjects = self.subjects(tool)
        # A tool without a subject (find_free_slot, trial_balance) serves its whole service: it cannot be ruled out.
        if not subjects or not subjects.isdisjoint(wanted):
            return True
        # The table names the package's own resources: a team's service (registered from outside the package,
        # as `service check` and entry points do) is unknown to it, so it fits by its category alone.
        outside = self._outside.get(tool.service)
        if outside is None:
            outside = self._outside[tool.service] = not registered().get(tool.service, BUILT_IN).startswith(BUILT_IN)
        return outside

    def _matches(self, recipe: Recipe, src: Tool, dst: Tool) -> bool:
        if recipe.trigger_kinds and src.kind not in recipe.trigger_kinds:
            return False
        if recipe.reaction_kinds and dst.kind not in recipe.reaction_kinds:
            return False
        return self._fits(src, recipe.trigger_resources) and self._fits(dst, recipe.reaction_resources)

    def recipe_for(self, src: Tool, dst: Tool) -> Recipe | None:
        """The recipe that explains going from ``src`` to ``dst``, if any.

        Args:
            src: The earlier tool (the trigger side).
            dst: The next tool (the reaction side).

        Returns:
            The most specific matching recipe, or None.
        """
        key = (src.name, dst.name)
        if key in self._recipe_cache:
            return self._recipe_cache[key]
        found = None
        for recipe in self._by_pair.get((self.category(src), self.category(dst)), ()):
            if self._matches(recipe, src, dst):
                found = recipe
                break
        self._recipe_cache[key] = found
        return found

    def reaches(self, category: str) -> frozenset[str]:
        """The categories some recipe goes to from ``category``: where a reaction to it can be.

        Args:
            category: A trigger category.

        Returns:
            The reaction categories (empty when no recipe starts there).
        """
        return self._reaches.get(category, frozenset())

    def inside(self, src: Tool, dst: Tool) -> bool:
        """Whether a transition is plausible: same service, a recipe, or a lookup.

        Args:
            src: The earlier tool.
            dst: The next tool.

        Returns:
            True when the prior explains the transition.
        """
        return src.service == dst.service or self.recipe_for(src, dst) is not None or self.is_lookup(dst)

    def boost(self, a: str, b: str) -> float:
        """How often two categories' apps share an n8n workflow, scaled to [0, 1] on a log scale.

        Args:
            a: A category.
            b: Another (or the same) category.

        Returns:
            0 where no co-occurrence is known, 1 for the most frequent pair.
        """
        return self._boost.get((a, b) if a <= b else (b, a), 0.0)

    def weight(self, src: Tool, dst: Tool) -> float:
        """A positive weight for choosing ``dst`` after ``src`` in a walk.

        A recipe weighs :data:`RECIPE_WEIGHT`, raised by up to as much again
        where n8n workflows combine the two categories often; a hop inside one
        service weighs :data:`SAME_SERVICE_WEIGHT`; a lookup :data:`LOOKUP_WEIGHT`;
        anything else :data:`EPSILON` (at most doubled by co-occurrence), so
        such hops are rare but never impossible.

        Args:
            src: The earlier tool.
            dst: The next tool.

        Returns:
            The weight, always > 0.
        """
        a, b = self.category(src), self.category(dst)
        boost = self.boost(a, b)
        if self.recipe_for(src, dst) is not None:
            return RECIPE_WEIGHT * (1.0 + boost)
        if src.service == dst.service:
            return SAME_SERVICE_WEIGHT
        if self.is_lookup(dst):
            return LOOKUP_WEIGHT
        return EPSILON * (1.0 + boost)

    def problems(self, catalog: Catalog) -> list[str]:
        """Names in the table that the catalog does not know (renamed categories, services or resources).

        Args:
            catalog: The catalog the prior will be used with.

        Returns:
            One message per unknown name; empty when the table is consistent.
        """
        categories = {svc.category for svc in catalog.services.values()}
        out: list[str] = []
        for i, r in enumerate(self.recipes):
            for side, cat in (("trigger", r.trigger), ("reaction", r.reaction)):
                if cat not in categories:
                    out.append(f"recipe {i}: unknown {side} category {cat!r}")
            for side, names, cat in (
                ("trigger", r.trigger_resources, r.trigger),
                ("reaction", r.reaction_resources, r.reaction),
            ):
                for res in names:
                    spec = catalog.resources.get(res)
                    if spec is None:
                        out.append(f"recipe {i}: unknown {side} resource {res!r}")
                    elif catalog.services[spec.service].category != cat:
                        out.append(f"recipe {i}: {side} resource {res!r} is not in category {cat!r}")
        out += [f"unknown lookup category {c!r}" for c in sorted(self.lookup_categories - categories)]
        out += [f"unknown lookup service {s!r}" for s in sorted(self.lookup_services - set(catalog.services))]
        for n8n, ours in sorted(self.n8n_mapping.items()):
            if ours is not None and ours not in categories:
                out.append(f"n8n category {n8n!r} maps to unknown category {ours!r}")
        for a, b in sorted(self.cooccurrence):
            out += [f"co-occurrence names unknown category {c!r}" for c in (a, b) if c not in categories]
        return out


@cache
def _default() -> RecipePrior:
    text = resources.files(_PACKAGE).joinpath(_RESOURCE).read_text(encoding="utf-8")
    return RecipePrior.from_dict(json.loads(text))


def prior_coverage(prior: RecipePrior, catalog: Catalog) -> dict[str, Any]:
    """How much of the catalog the recipes reach.

    Args:
        prior: The prior.
        catalog: The catalog whose categories count.

    Returns:
        ``recipes`` (how many), ``categories`` (how many the catalog has),
        ``with_outgoing`` / ``with_incoming`` (categories that trigger / react in
        some recipe), ``without_recipes`` (in no recipe at all), ``lookups``
        (lookup categories of the catalog), ``uncovered`` (in no recipe and not a
        lookup) and ``per_category`` (``{"out": n, "in": n}``), lists sorted.
    """
    categories = sorted({svc.category for svc in catalog.services.values()})
    per: dict[str, dict[str, int]] = {c: {"out": 0, "in": 0} for c in categories}
    for r in prior.recipes:
        if r.trigger in per:
            per[r.trigger]["out"] += 1
        if r.reaction in per:
            per[r.reaction]["in"] += 1
    # Lookup services of other categories (holidays in calendar) do not make their whole category a lookup.
    lookups = {c for c in prior.lookup_categories if c in per}
    without = [c for c in categories if not per[c]["out"] and not per[c]["in"]]
    return {
        "recipes": len(prior.recipes),
        "categories": len(categories),
        "with_outgoing": [c for c in categories if per[c]["out"]],
        "with_incoming": [c for c in categories if per[c]["in"]],
        "without_recipes": without,
        "lookups": sorted(lookups),
        "uncovered": [c for c in without if c not in lookups],
        "per_category": per,
    }


def usage_coverage(prior: RecipePrior, catalog: Catalog) -> dict[str, Any]:
    """The share of real automation usage whose kind of app the catalog serves.

    Each n8n category counts with the public workflows that use its apps
    (:attr:`RecipePrior.n8n_usage`); it is served when the prior maps it onto a
    category of one of the catalog's services. Categories mapped to None (no
    counterpart decided on) and categories the catalog lacks are unserved.

    Args:
        prior: The prior (its n8n mapping and usage counts).
        catalog: The catalog whose categories count.

    Returns:
        ``coverage`` (served workflows over all, in [0, 1]), ``workflows`` (the
        total), ``served`` and ``unserved`` (``{n8n category: {"workflows": n,
        "category": ours or None}}``, most used first).
    """
    ours = {svc.category for svc in catalog.services.values()}
    served: dict[str, dict[str, Any]] = {}
    unserved: dict[str, dict[str, Any]] = {}
    for n8n, count in sorted(prior.n8n_usage.items(), key=lambda kv: (-kv[1], kv[0])):
        category = prior.n8n_mapping.get(n8n)
        (served if category in ours else unserved)[n8n] = {"workflows": count, "category": category}
    total = sum(prior.n8n_usage.values())
    hit = sum(v["workflows"] for v in served.values())
    return {
        "coverage": round(hit / total, 4) if total else 0.0,
        "workflows": total,
        "served": served,
        "unserved": unserved,
    }


def inside_share(prior: RecipePrior, transitions: Iterable[tuple[Tool, Tool]]) -> float:
    """The share of transitions the prior explains, for audits of drawn walks.

    Args:
        prior: The prior.
        transitions: ``(src, dst)`` pairs, e.g. consecutive steps of walks.

    Returns:
        The share in [0, 1]; 1.0 when there are no transitions.
    """
    total = hits = 0
    for src, dst in transitions:
        total += 1
        hits += prior.inside(src, dst)
    return hits / total if total else 1.0
