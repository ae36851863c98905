"""The recipe prior: which transitions between services a real automation would make."""

from __future__ import annotations

import copy
import json
import os
import random
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from compoworld import Catalog, Tool
from compoworld.tasks.prior import (
    EPSILON,
    LOOKUP_WEIGHT,
    RECIPE_WEIGHT,
    SAME_SERVICE_WEIGHT,
    Recipe,
    RecipePrior,
    aggregate_n8n,
    inside_share,
    prior_coverage,
    usage_coverage,
)

LOOKUP_CATEGORIES = {
    "address_validation",
    "app_market_data",
    "book_data",
    "clinical_trials",
    "commodity_data",
    "company_data",
    "court_records",
    "crypto_market_data",
    "currency_exchange",
    "demographic_data",
    "dictionary_data",
    "document_ai",
    "domain_data",
    "drug_reference",
    "economic_data",
    "emissions_data",
    "event_discovery",
    "filings_data",
    "film_data",
    "hazard_data",
    "inspection_data",
    "ip_intelligence",
    "job_market_data",
    "knowledge",
    "legislative_data",
    "local_business_data",
    "maps",
    "marine_data",
    "market_data",
    "news",
    "nonprofit_data",
    "package_data",
    "patent_data",
    "podcast_data",
    "product_data",
    "property_data",
    "provider_directory",
    "public_transit",
    "recipe_data",
    "sanctions_screening",
    "scholarly_data",
    "sports_data",
    "tax_validation",
    "trademark_data",
    "translation",
    "vehicle_data",
    "vehicle_valuation",
    "weather",
    "web_search",
}
# Reference services whose writes (a garage, IP lists, watch lists, screening cases …) are reactions of recipes.
WRITABLE_LOOKUPS = {
    "address_validation",
    "app_market_data",
    "book_data",
    "clinical_trials",
    "commodity_data",
    "court_records",
    "crypto_market_data",
    "demographic_data",
    "dictionary_data",
    "document_ai",
    "domain_data",
    "drug_reference",
    "economic_data",
    "emissions_data",
    "event_discovery",
    "filings_data",
    "film_data",
    "hazard_data",
    "inspection_data",
    "ip_intelligence",
    "job_market_data",
    "legislative_data",
    "local_business_data",
    "marine_data",
    "nonprofit_data",
    "package_data",
    "patent_data",
    "podcast_data",
    "product_data",
    "property_data",
    "provider_directory",
    "public_transit",
    "recipe_data",
    "sanctions_screening",
    "scholarly_data",
    "sports_data",
    "tax_validation",
    "trademark_data",
    "vehicle_data",
    "vehicle_valuation",
}
# Categories that start chains but that no recipe leads to (restaurant reservations were one until a saved
# local business could lead to a table booked there).
SOURCE_ONLY: set[str] = set()


def _shared_file() -> Path | None:
    env = os.environ.get("COMPOWORLD_SHARED_DATA")
    root = Path(__file__).resolve().parents[2]
    candidates = [Path(env)] if env else []
    candidates += [root / "shared" / "data", root.parent / "shared" / "data"]
    for folder in candidates:
        path = folder / "n8n-app-cooccurrence.json"
        if path.is_file():
            return path
    return None


@pytest.fixture(scope="module")
def cat() -> Catalog:
    # Schemas are not needed here; rendering all of them would only slow the module down.
    return Catalog.load()


@pytest.fixture(scope="module")
def prior() -> RecipePrior:
    return RecipePrior.default()


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    text = resources.files("compoworld.tasks").joinpath("recipe_prior.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def tool(cat: Catalog, name: str) -> Tool:
    return cat.tools[name]


def test_a_won_deal_then_an_invoice_is_inside(cat: Catalog, prior: RecipePrior) -> None:
    for won in ("dealflow__mark_deal_won", "crm__advance_opportunity"):
        src, dst = tool(cat, won), tool(cat, "invoicing__create_invoice")
        assert prior.inside(src, dst)
        recipe = prior.recipe_for(src, dst)
        assert recipe is not None
        assert (recipe.trigger, recipe.reaction) == ("crm", "accounting")
        assert "invoice" in recipe.why.lower()
        assert prior.weight(src, dst) >= RECIPE_WEIGHT


def test_a_pos_variation_then_a_crm_lead_is_outside(cat: Catalog, prior: RecipePrior) -> None:
    src, dst = tool(cat, "pos__create_variation"), tool(cat, "crm__create_lead")
    assert not prior.inside(src, dst)
    assert prior.recipe_for(src, dst) is None
    assert 0 < prior.weight(src, dst) <= 2 * EPSILON
    # The rest of the brief's aimless chain is outside too.
    assert not prior.inside(tool(cat, "inventory__create_item"), dst)


@pytest.mark.parametrize(
    ("src", "dst", "trigger", "reaction"),
    [
        ("helpdesk__create_ticket", "oncall__trigger_incident", "helpdesk", "incident_management"),
        ("helpdesk__create_ticket", "chat__post_message", "helpdesk", "chat"),
        ("hr__hire_employee", "identity__create_user", "hr", "identity_access"),
        ("hr__hire_employee", "mail__send_message", "hr", "email"),
        ("hr__hire_employee", "calendar__create_event", "hr", "calendar"),
        ("payments__create_charge", "mail__send_message", "payments", "email"),
        ("payments__create_charge", "crm__create_activity", "payments", "crm"),
        ("forms__submit_response", "crm__create_lead", "forms_surveys", "crm"),
        ("shop__create_order", "shipping__buy_label", "ecommerce", "shipping"),
        ("shipping__buy_label", "mail__send_message", "shipping", "email"),
        ("recruiting__hire_candidate", "hr__hire_employee", "recruiting", "hr"),
        ("monitoring__create_event", "oncall__trigger_incident", "monitoring", "incident_management"),
        ("errortracking__ingest_event", "tracker__create_issue", "monitoring", "project_tracking"),
        ("storage__share_file", "mail__send_message", "file_storage", "email"),
        ("calendar__create_event", "meetings__create_meeting", "calendar", "video_meetings"),
        ("expenses__approve_report", "ledger__create_journal_entry", "expenses", "accounting"),
        ("booking__book_event", "calendar__create_event", "calendar", "calendar"),
        ("hr__hire_employee", "benefits__enroll", "hr", "hr"),
    ],
)
def test_integration_patterns_of_the_brief_are_recipes(
    cat: Catalog, prior: RecipePrior, src: str, dst: str, trigger: str, reaction: str
) -> None:
    recipe = prior.recipe_for(tool(cat, src), tool(cat, dst))
    assert recipe is not None, (src, dst)
    assert (recipe.trigger, recipe.reaction) == (trigger, reaction)
    assert prior.inside(tool(cat, src), tool(cat, dst))


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        # Narrowed to deals: a fresh lead is not invoiced.
        ("crm__create_lead", "invoicing__create_invoice"),
        # Recipes have a direction: the HRIS does not hire in the ATS, the directory does not hire at all.
        ("hr__hire_employee", "recruiting__hire_candidate"),
        ("identity__create_user", "hr__hire_employee"),
        # Two CRMs of one company are not synced by default.
        ("crm__create_lead", "dealflow__create_deal"),
        # An HR recipe within the category is narrowed to employees, not to any HR record.
        ("benefits__create_plan", "perfreviews__create_goal"),
    ],
)
def test_transitions_without_a_pattern_are_outside(cat: Catalog, prior: RecipePrior, src: str, dst: str) -> None:
    assert not prior.inside(tool(cat, src), tool(cat, dst))
    assert prior.recipe_for(tool(cat, src), tool(cat, dst)) is None
    assert prior.weight(tool(cat, src), tool(cat, dst)) < LOOKUP_WEIGHT


def test_read_only_open_world_tools_are_lookups_from_anywhere(cat: Catalog, prior: RecipePrior) -> None:
    src = tool(cat, "pos__create_variation")
    for name in (
        "weather__current_weather",
        "maps__geocode",
        "fx__convert",
        "websearch__search_web",
        "companyinfo__find_company",
    ):
        dst = tool(cat, name)
        assert prior.is_lookup(dst) and prior.inside(src, dst)
        assert prior.weight(src, dst) == LOOKUP_WEIGHT
    # Lookup services of other categories count by service, not by category.
    assert prior.inside(tool(cat, "timeoff__request_leave"), tool(cat, "holidays__is_public_holiday"))
    assert not prior.is_lookup(tool(cat, "calendar__list_agenda"))
    # Writes to a lookup service are real actions, not lookups.
    for name in ("encyclopedia__add_to_reading_list", "holidays__create_company_day", "flightstatus__create_alert"):
        assert not prior.is_lookup(tool(cat, name))
        assert not prior.inside(tool(cat, "crm__create_lead"), tool(cat, name))


def test_steps_inside_one_service_are_inside(cat: Catalog, prior: RecipePrior) -> None:
    src, dst = tool(cat, "crm__list_leads"), tool(cat, "crm__convert_lead")
    assert prior.inside(src, dst)
    assert prior.weight(src, dst) == SAME_SERVICE_WEIGHT


def test_weights_are_positive_and_ordered(cat: Catalog, prior: RecipePrior) -> None:
    rng = random.Random(0)
    names = sorted(cat.tools)
    seen = {"recipe": 0, "same": 0, "lookup": 0, "outside": 0}
    for _ in range(3000):
        src, dst = cat.tools[rng.choice(names)], cat.tools[rng.choice(names)]
        w = prior.weight(src, dst)
        assert w > 0
        if prior.recipe_for(src, dst) is not None:
            seen["recipe"] += 1
            assert RECIPE_WEIGHT <= w <= 2 * RECIPE_WEIGHT
        elif src.service == dst.service:
            seen["same"] += 1
            assert w == SAME_SERVICE_WEIGHT
        elif prior.is_lookup(dst):
            seen["lookup"] += 1
            assert w == LOOKUP_WEIGHT
        else:
            seen["outside"] += 1
            assert not prior.inside(src, dst)
            assert EPSILON <= w <= 2 * EPSILON < LOOKUP_WEIGHT < RECIPE_WEIGHT
    assert all(seen.values()), seen


def test_n8n_co_occurrence_raises_a_recipe_s_weight(cat: Catalog, prior: RecipePrior) -> None:
    # Drive and Gmail share many n8n workflows; QuickBooks barely appears with CRMs.
    common = prior.weight(tool(cat, "storage__share_file"), tool(cat, "mail__send_message"))
    rare = prior.weight(tool(cat, "dealflow__mark_deal_won"), tool(cat, "invoicing__create_invoice"))
    assert prior.boost("email", "file_storage") > 0.5 > prior.boost("accounting", "crm")
    assert common > rare >= RECIPE_WEIGHT
    assert prior.boost("email", "file_storage") == prior.boost("file_storage", "email")


def test_the_most_specific_recipe_explains_a_transition(cat: Catalog) -> None:
    loose = Recipe("crm", "accounting", "any CRM record → accounting")
    narrow = Recipe("crm", "accounting", "won deal → invoice", trigger_resources=("dealflow.deal",))
    by_kind = Recipe("crm", "accounting", "deal event → invoice", trigger_kinds=("transition",))
    prior = RecipePrior(recipes=(loose, narrow, by_kind)).with_catalog(cat)
    won, invoice = tool(cat, "dealflow__mark_deal_won"), tool(cat, "invoicing__create_invoice")
    assert prior.recipe_for(won, invoice) is narrow
    assert prior.recipe_for(tool(cat, "crm__create_lead"), invoice) is loose
    kinds_only = RecipePrior(recipes=(by_kind,)).with_catalog(cat)
    assert won.kind == "domain" and kinds_only.recipe_for(won, invoice) is None
    transition = next(t for t in cat.tools.values() if t.service == "crm" and t.kind == "transition")
    assert kinds_only.recipe_for(transition, invoice) is by_kind


def test_domain_tools_get_subjects_from_their_names_or_parameters(cat: Catalog, prior: RecipePrior) -> None:
    assert prior.subjects(tool(cat, "dealflow__mark_deal_won")) == {"dealflow.deal"}
    assert prior.subjects(tool(cat, "invoicing__create_invoice")) == {"invoicing.invoice"}
    assert prior.subjects(tool(cat, "shipping__buy_label")) == {"shipping.rate"}
    assert prior.subjects(tool(cat, "flightstatus__watch_flight")) == {"flightstatus.watched_flight"}
    assert prior.subjects(tool(cat, "crm__create_lead")) == {"crm.lead"}
    assert prior.subjects(tool(cat, "booking__book_event")) == {"booking.scheduled_event"}
    assert prior.subjects(tool(cat, "weather__current_weather")) == frozenset()


def test_narrowing_is_by_subject_and_a_tool_without_one_passes(cat: Catalog, prior: RecipePrior) -> None:
    lead = tool(cat, "crm__create_lead")
    # CRM → calendar is narrowed to events: a meeting, not a company holiday.
    assert prior.inside(lead, tool(cat, "calendar__create_event"))
    assert prior.inside(lead, tool(cat, "booking__book_event"))
    assert not prior.inside(lead, tool(cat, "calendar__create_calendar"))
    assert prior.subjects(tool(cat, "calendar__find_free_slot")) == frozenset()
    assert prior.inside(lead, tool(cat, "calendar__find_free_slot"))


def test_every_name_in_the_json_exists_in_the_catalog(cat: Catalog, prior: RecipePrior, raw: dict[str, Any]) -> None:
    assert prior.problems(cat) == []
    categories = {svc.category for svc in cat.services.values()}
    named = {r["trigger"] for r in raw["recipes"]} | {r["reaction"] for r in raw["recipes"]}
    assert named <= categories
    # A renamed category must be caught.
    renamed = copy.deepcopy(raw)
    renamed["recipes"][0]["reaction"] = "bookkeeping"
    renamed["lookups"]["categories"].append("horoscopes")
    renamed["n8n_categories"]["mapping"]["crm"] = "sales"
    problems = RecipePrior.from_dict(renamed).problems(cat)
    assert any("'bookkeeping'" in p for p in problems)
    assert any("'horoscopes'" in p for p in problems)
    assert any("'sales'" in p for p in problems)


def test_recipes_are_explained_and_not_repeated(prior: RecipePrior) -> None:
    seen = set()
    for r in prior.recipes:
        assert len(r.why) > 20 and ("→" in r.why or "↔" in r.why), r
        key = (r.trigger, r.reaction, r.trigger_resources, r.reaction_resources, r.trigger_kinds, r.reaction_kinds)
        assert key not in seen, r
        seen.add(key)
        assert Recipe.from_dict(r.to_dict()) == r


def test_a_malformed_recipe_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown keys"):
        Recipe.from_dict({"trigger": "crm", "reaction": "email", "why": "x", "trigger_resource": ["crm.lead"]})
    with pytest.raises(ValueError, match="unknown kinds"):
        Recipe.from_dict({"trigger": "crm", "reaction": "email", "why": "x", "trigger_kinds": ["won"]})


def test_the_source_block_names_licence_snapshot_and_meaning(raw: dict[str, Any]) -> None:
    n8n = raw["source"]["n8n"]
    assert n8n["licence"] == "MIT" and n8n["snapshot"] == "94007c14"
    assert "Zie619/n8n-workflows" in n8n["repository"]
    assert "not direction" in n8n["meaning"]


def test_aggregation_sums_app_pairs_onto_unordered_category_pairs() -> None:
    data = {
        "apps": [
            {"app": "gmail", "workflows": 9, "category": "email"},
            {"app": "slack", "workflows": 9, "category": "chat"},
            {"app": "mattermost", "workflows": 9, "category": "chat"},
            {"app": "sheets", "workflows": 9, "category": "spreadsheets"},
        ],
        "pairs": [
            {"a": "slack", "b": "gmail", "workflows": 5},
            {"a": "gmail", "b": "mattermost", "workflows": 2},
            {"a": "slack", "b": "mattermost", "workflows": 1},
            {"a": "gmail", "b": "sheets", "workflows": 7},
        ],
    }
    mapping = {"email": "email", "chat": "chat", "spreadsheets": None}
    assert aggregate_n8n(data, mapping) == {("chat", "email"): 7, ("chat", "chat"): 1}
    with pytest.raises(ValueError, match="spreadsheets"):
        aggregate_n8n(data, {"email": "email", "chat": "chat"})


def test_stored_n8n_aggregates_recompute_from_the_shared_file(prior: RecipePrior, raw: dict[str, Any]) -> None:
    path = _shared_file()
    if path is None:
        pytest.skip("shared/data/n8n-app-cooccurrence.json is not present (set COMPOWORLD_SHARED_DATA to its folder)")
    shared = json.loads(path.read_text(encoding="utf-8"))
    assert {a["category"] for a in shared["apps"]} == set(prior.n8n_mapping)
    assert aggregate_n8n(shared, prior.n8n_mapping) == dict(prior.cooccurrence)
    assert raw["source"]["n8n"]["workflows"] == shared["workflows"]
    # Every unmapped n8n category says why.
    notes = raw["n8n_categories"]["notes"]
    assert all(n8n in notes for n8n, ours in prior.n8n_mapping.items() if ours is None)
    usage: dict[str, int] = {}
    for app in shared["apps"]:
        usage[app["category"]] = usage.get(app["category"], 0) + app["workflows"]
    assert dict(prior.n8n_usage) == usage


def test_usage_coverage_weighs_each_kind_of_app_by_its_workflows(cat: Catalog, prior: RecipePrior) -> None:
    # Every app kind counts with its uses; one the catalog serves adds them, one mapped nowhere does not.
    cov = usage_coverage(prior, cat)
    assert cov["workflows"] == sum(prior.n8n_usage.values()) > 2000
    served = sum(v["workflows"] for v in cov["served"].values())
    assert cov["coverage"] == round(served / cov["workflows"], 4)
    assert cov["served"]["spreadsheets"] == {"workflows": prior.n8n_usage["spreadsheets"], "category": "spreadsheets"}
    assert all(
        v["category"] is None or v["category"] not in {s.category for s in cat.services.values()}
        for v in cov["unserved"].values()
    )
    assert all(kind in cov["unserved"] for kind, ours in prior.n8n_mapping.items() if ours is None)
    # Without the sheets service, its app kind drops out of the served share by exactly its uses.
    smaller = Catalog.load([n for n in cat.services if cat.services[n].category != "spreadsheets"])
    less = usage_coverage(prior.with_catalog(smaller), smaller)
    assert "spreadsheets" in less["unserved"]
    lost = cov["coverage"] * cov["workflows"] - less["coverage"] * less["workflows"]
    assert abs(lost - prior.n8n_usage["spreadsheets"]) < 1


def test_coverage_reaches_every_category(cat: Catalog, prior: RecipePrior) -> None:
    cov = prior_coverage(prior, cat)
    categories = {svc.category for svc in cat.services.values()}
    assert cov["categories"] == len(categories) == 405
    assert cov["recipes"] == len(prior.recipes) >= 300
    assert cov["without_recipes"] == [] and cov["uncovered"] == []
    assert set(cov["lookups"]) == LOOKUP_CATEGORIES
    assert set(cov["with_outgoing"]) == categories
    assert categories - set(cov["with_incoming"]) == (LOOKUP_CATEGORIES - WRITABLE_LOOKUPS) | SOURCE_ONLY
    assert sum(v["out"] for v in cov["per_category"].values()) == cov["recipes"]
    assert cov["per_category"]["crm"]["out"] >= 10


def test_inside_share_counts_explained_transitions(cat: Catalog, prior: RecipePrior) -> None:
    pairs = [
        (tool(cat, "dealflow__mark_deal_won"), tool(cat, "invoicing__create_invoice")),
        (tool(cat, "pos__create_variation"), tool(cat, "crm__create_lead")),
        (tool(cat, "crm__list_leads"), tool(cat, "crm__convert_lead")),
        (tool(cat, "inventory__create_item"), tool(cat, "crm__create_lead")),
    ]
    assert inside_share(prior, pairs) == 0.5
    assert inside_share(prior, []) == 1.0


def test_the_default_prior_is_loaded_once_and_binds_to_small_catalogs(prior: RecipePrior) -> None:
    assert RecipePrior.default() is prior
    small = Catalog.load(["dealflow", "invoicing", "pos", "crm"])
    bound = prior.with_catalog(small)
    assert bound.recipes == prior.recipes
    assert bound.inside(small.tools["dealflow__mark_deal_won"], small.tools["invoicing__create_invoice"])
    assert not bound.inside(small.tools["pos__create_variation"], small.tools["crm__create_lead"])
