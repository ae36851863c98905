"""Pantrywise Recipes: nutrition, diets and cost follow from ingredients; meal plans keep their diet and dates."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

RC = ServiceTools("recipes")
WORLD = RC.world
ok, refused, every = RC.ok, RC.refused, RC.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def test_a_recipes_nutrition_and_cost_add_up_from_its_ingredients(ep: Episode) -> None:
    recipe = ok(ep, "get_recipe", recipe_id=715005)
    kcal = protein = cost = 0.0
    for part in recipe["ingredients"]:
        ing = ok(ep, "get_ingredient", ingredient_id=part["id"], amount=part["grams"], unit="g")
        kcal += ing["nutrition"]["calories"]
        protein += ing["nutrition"]["protein_g"]
        cost += ing["estimated_cost"]
    n = recipe["servings"]
    assert abs(recipe["nutrition_per_serving"]["calories"] - kcal / n) <= len(recipe["ingredients"])
    assert abs(recipe["nutrition_per_serving"]["protein_g"] - protein / n) < 1
    assert abs(recipe["price_per_serving"] - cost / n) <= len(recipe["ingredients"])
    summary = next(r for r in ok(ep, "search_recipes", query="tikka") if r["id"] == 715005)
    assert summary["calories_per_serving"] == recipe["nutrition_per_serving"]["calories"]
    refused(ep, "get_recipe", "not_found", "recipe_id", recipe_id=799999)


def test_diets_and_intolerances_follow_the_ingredients(ep: Episode) -> None:
    for r in ok(ep, "search_recipes", diet="vegan", number=50):
        info = ok(ep, "get_recipe", recipe_id=r["id"])
        assert not {"dairy", "egg", "seafood"} & set(info["contains"])
        assert "vegetarian" in info["diets"]
    no_gluten = ok(ep, "search_recipes", intolerances=["gluten", "dairy"], number=50)
    assert no_gluten
    for r in no_gluten:
        assert {"gluten free", "dairy free"} <= set(r["diets"])
    shrimp = ok(ep, "get_recipe", recipe_id=715002)
    assert "seafood" in shrimp["contains"] and "vegetarian" not in shrimp["diets"]


def test_search_filters_and_sorts(ep: Episode) -> None:
    quick = ok(ep, "search_recipes", max_ready_time=20, sort="time", number=50)
    times = [r["ready_in_minutes"] for r in quick]
    assert quick and max(times) <= 20 and times == sorted(times)
    liked = ok(ep, "search_recipes", number=50)
    likes = [r["aggregate_likes"] for r in liked]
    assert likes == sorted(likes, reverse=True)
    soups = ok(ep, "search_recipes", dish_type="soup", max_calories=300, number=50)
    assert soups and all(r["dish_type"] == "soup" and r["calories_per_serving"] <= 300 for r in soups)
    assert {r["cuisine"] for r in ok(ep, "search_recipes", cuisine="italian")} == {"Italian"}
    refused(ep, "search_recipes", "not_found", "cuisine", cuisine="Martian")


def test_pantry_search_counts_used_and_missed_ingredients(ep: Episode) -> None:
    found = ok(ep, "find_by_ingredients", ingredients=["egg", "rice", "onion"], number=30)
    assert found[0]["title"] == "Egg Fried Rice"
    for m in found:
        recipe = ok(ep, "get_recipe", recipe_id=m["id"])
        names = [i["name"] for i in recipe["ingredients"]]
        assert m["used_ingredient_count"] + m["missed_ingredient_count"] == len(names)
        assert set(m["missed_ingredients"]) == set(names) - {"egg", "rice", "onion"}
    fewest = ok(ep, "find_by_ingredients", ingredients=["egg", "rice", "onion"], ranking=2, number=30)
    assert [m["missed_ingredient_count"] for m in fewest] == sorted(m["missed_ingredient_count"] for m in fewest)
    refused(ep, "find_by_ingredients", "not_found", "ingredients.1", ingredients=["egg", "unobtainium"])


def test_ingredients_convert_units_and_have_substitutes(ep: Episode) -> None:
    flour = ok(ep, "search_ingredients", query="flour")[0]
    cup = ok(ep, "get_ingredient", ingredient_id=flour["id"], amount=1, unit="cup")
    assert cup["grams"] == 125
    assert ok(ep, "get_ingredient", ingredient_id=1123, amount=2, unit="piece")["grams"] == 100
    refused(ep, "get_ingredient", "rule_violation", "unit", ingredient_id=2047, amount=2, unit="piece")
    subs = ok(ep, "get_ingredient_substitutes", ingredient="Butter")
    assert subs["ingredient"] == "butter" and subs["substitutes"]
    refused(ep, "get_ingredient_substitutes", "not_found", "ingredient", ingredient="salt")


def test_seeded_plans_belong_to_staff_and_meet_their_diets(ep: Episode) -> None:
    plans = every(ep, "list_meal_plans")
    assert {p["status"] for p in plans} == {"draft", "active", "archived"}
    assert all(p["owner_email"] in STAFF for p in plans)
    for p in plans:
        for item in every(ep, "list_plan_items", plan_id=p["id"]):
            assert p["start_date"] <= item["date"]
            if p["diet"]:
                assert p["diet"] in ok(ep, "get_recipe", recipe_id=item["recipe_id"])["diets"]
    active = next(p for p in plans if p["status"] == "active")
    assert {i["status"] for i in every(ep, "list_shopping_items", plan_id=active["id"])} == {"bought", "to_buy"}


def test_a_diet_plan_refuses_recipes_that_break_it(ep: Episode) -> None:
    plan = RC.first(ep, "meal_plans", diet="vegetarian")
    day = plan["start_date"]
    refused(
        ep,
        "add_to_meal_plan",
        "rule_violation",
        "recipe_id",
        meal_plan_id=plan["id"],
        date=day,
        slot="snack",
        recipe_id=715001,
    )
    item = ok(ep, "add_to_meal_plan", meal_plan_id=plan["id"], date=day, slot="snack", recipe_id=715014, servings=2)
    assert (item["title"], item["servings"]) == ("Guacamole", 2)
    refused(
        ep,
        "add_to_meal_plan",
        "conflict",
        "recipe_id",
        meal_plan_id=plan["id"],
        date=day,
        slot="snack",
        recipe_id=715014,
    )
    refused(
        ep,
        "add_to_meal_plan",
        "rule_violation",
        "date",
        meal_plan_id=plan["id"],
        date="2020-01-01",
        slot="snack",
        recipe_id=715014,
    )
    open_plan = RC.first(ep, "meal_plans", status="active")
    refused(ep, "update_meal_plan", "rule_violation", "diet", meal_plan_id=open_plan["id"], diet="vegan")


def test_a_plan_is_activated_with_meals_and_its_shopping_list_keeps_what_was_bought(ep: Episode) -> None:
    owner = POP.employees[0].email
    plan = ok(ep, "create_meal_plan", name="Sprint week", owner_email=owner, start_date="2026-03-16", days=2)
    refused(ep, "activate_meal_plan", "rule_violation", "meal_plan_id", meal_plan_id=plan["id"])
    ok(ep, "add_to_meal_plan", meal_plan_id=plan["id"], date="2026-03-16", slot="dinner", recipe_id=715010, servings=8)
    refused(ep, "generate_shopping_list", "rule_violation", "meal_plan_id", meal_plan_id=plan["id"])
    ok(ep, "activate_meal_plan", meal_plan_id=plan["id"])
    items = ok(ep, "generate_shopping_list", meal_plan_id=plan["id"])
    rice = next(i for i in items if i["name"] == "rice")
    assert rice["grams"] == 1100  # 550 g for 4 servings, cooked for 8
    ok(ep, "buy_shopping_item", shopping_item_id=rice["id"])
    again = ok(ep, "generate_shopping_list", meal_plan_id=plan["id"])
    assert "rice" not in {i["name"] for i in again} and len(again) == len(items) - 1
    assert len(every(ep, "list_shopping_items", plan_id=plan["id"])) == len(items)


def test_archived_plans_are_frozen_and_active_ones_cannot_be_deleted(ep: Episode) -> None:
    active = RC.first(ep, "meal_plans", status="active")
    refused(ep, "delete_meal_plan", "rule_violation", "meal_plan_id", meal_plan_id=active["id"])
    ok(ep, "archive_meal_plan", meal_plan_id=active["id"])
    refused(ep, "update_meal_plan", "rule_violation", "meal_plan_id", meal_plan_id=active["id"], name="Later")
    item = RC.first(ep, "plan_items", plan_id=active["id"])
    refused(ep, "update_plan_item", "rule_violation", "plan_item_id", plan_item_id=item["id"], servings=2)
    refused(ep, "generate_shopping_list", "rule_violation", "meal_plan_id", meal_plan_id=active["id"])
    ok(ep, "delete_meal_plan", meal_plan_id=active["id"])
    refused(ep, "get_plan_item", "not_found", "plan_item_id", plan_item_id=item["id"])


def test_plan_names_are_unique_per_owner_and_dates_hold_the_meals(ep: Episode) -> None:
    owner = POP.employees[0].email
    ok(ep, "create_meal_plan", name="Batch cooking", owner_email=owner, start_date="2026-03-16", days=3)
    refused(
        ep, "create_meal_plan", "conflict", "name", name="Batch cooking", owner_email=owner, start_date="2026-03-16"
    )
    refused(
        ep,
        "create_meal_plan",
        "rule_violation",
        "owner_email",
        name="X",
        owner_email=POP.contacts[0].email,
        start_date="2026-03-16",
    )
    plan = RC.first(ep, "meal_plans", status="active")
    refused(ep, "update_meal_plan", "rule_violation", "days", meal_plan_id=plan["id"], days=1)
