"""Pantrywise Recipes: recipe search, recipe information, ingredients, nutrition, substitutes and meal plans.

Modeled on the Spoonacular Food API: ``/recipes/complexSearch`` (``query``, ``cuisine``,
``diet``, ``intolerances``, ``type``, ``maxReadyTime``, ``sort=popularity|healthiness|time``),
``/recipes/{id}/information``, ``/recipes/findByIngredients`` (``usedIngredientCount``,
``missedIngredientCount``, ``ranking=1|2``), ``/food/ingredients/search``,
``/food/ingredients/{id}/information`` (any amount and unit), ``/food/ingredients/substitutes``
and a connected user's meal planner (``/mealplanner/{username}/items`` with ``date`` and
``slot``; ``/mealplanner/{username}/shopping-list``).

An open-world service: the ingredient table (per 100 g: calories, protein, fat, carbohydrates,
price, aisle, what it contains) and the recipe book are fixed; each recipe's nutrition, price per
serving, diets (vegetarian, vegan, gluten free, dairy free) and intolerances are computed from its
ingredients, so all tools agree; likes vary with the world seed. Stored state is the team's meal
plans: a plan belongs to an employee, covers one to seven days and may keep a diet every recipe
added must meet; it goes ``draft`` → ``active`` (only with meals in it) → ``archived`` (frozen);
an active plan's shopping list is generated from its meals and each item is bought in turn.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, Email, IdOf, SemanticType, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "recipes",
    title="Pantrywise Recipes",
    category="recipe_data",
    modeled_on="Spoonacular Food API (recipes/complexSearch, recipe information with nutrition, "
    "findByIngredients, ingredient search and information, substitutes) with the connected user's meal planner "
    "and shopping list",
    description="Recipes and nutrition: search recipes by cuisine, diet, intolerances and time, get a recipe's "
    "ingredients, nutrition and cost, find recipes from what is in the pantry, look up ingredients in any "
    "unit and their substitutes, and keep the team's meal plans with their shopping lists.",
)

RecipeId = Annotated[int, SemanticType("recipes.recipe", kind="ref"), Field(ge=600000, le=799999)]
IngredientId = Annotated[int, SemanticType("recipes.ingredient", kind="ref"), Field(ge=1000, le=9999999)]
MealPlanId = Annotated[str, IdOf("recipes.meal_plan")]
PlanItemId = Annotated[str, IdOf("recipes.plan_item")]
ShoppingItemId = Annotated[str, IdOf("recipes.shopping_item")]
Search = Annotated[str, StringConstraints(min_length=2, max_length=80)]
Servings = Annotated[int, Field(ge=1, le=50)]

Diet = Literal["vegetarian", "vegan", "gluten free", "dairy free"]
Intolerance = Literal["dairy", "egg", "gluten", "seafood", "peanut", "tree nut"]
DishType = Literal["breakfast", "main course", "side dish", "soup", "salad", "dessert"]
Slot = Literal["breakfast", "lunch", "dinner", "snack"]
Unit = Literal["g", "kg", "oz", "lb", "ml", "cup", "tbsp", "tsp", "piece"]
MAX_PLAN_DAYS = 7
MAX_SLOT_ITEMS = 3
IMAGES = "https://img.spoonacular.com"

# name | aisle | kcal, protein, fat, carbs per 100 g | price cents per 100 g | grams per cup | grams per piece | contains
_ING_ROWS = """\
1001|butter|Milk, Eggs, Other Dairy|717,0.9,81,0.1|180|227|14|dairy
1123|egg|Milk, Eggs, Other Dairy|143,12.6,9.5,0.7|55|243|50|egg
1077|milk|Milk, Eggs, Other Dairy|61,3.2,3.3,4.8|20|244|0|dairy
1041009|cheddar|Cheese|403,25,33,1.3|140|113|0|dairy
1033|parmesan|Cheese|431,38,29,4.1|320|100|0|dairy
1116|greek yogurt|Milk, Eggs, Other Dairy|59,10,0.4,3.6|60|245|0|dairy
20081|flour|Baking|364,10,1,76|12|125|0|gluten
19335|sugar|Baking|387,0,0,100|15|200|0|
20444|rice|Pasta and Rice|130,2.7,0.3,28|25|185|0|
20420|spaghetti|Pasta and Rice|371,13,1.5,75|30|100|0|gluten
18064|bread|Bakery/Bread|265,9,3.2,49|45|30|30|gluten
8120|rolled oats|Cereal|389,17,7,66|40|80|0|gluten
16015|black beans|Canned and Jarred|132,8.9,0.5,24|35|172|0|
16069|lentils|Pasta and Rice|116,9,0.4,20|40|198|0|
16124|soy sauce|Ethnic Foods|53,8,0.6,5|60|255|0|gluten
16213|tofu|Produce|76,8,4.8,1.9|70|250|0|
16098|peanut butter|Nut butters, Jams, and Honey|588,25,50,20|90|258|0|peanut
12061|almonds|Nuts|579,21,50,22|250|143|0|tree nut
5062|chicken breast|Meat|165,31,3.6,0|110|140|170|
23572|ground beef|Meat|250,26,15,0|130|225|0|
10123|bacon|Meat|541,37,42,1.4|180|0|12|
15076|salmon|Seafood|208,20,13,0|300|0|150|seafood
15270|shrimp|Seafood|99,24,0.3,0.2|280|145|0|seafood
11529|tomato|Produce|18,0.9,0.2,3.9|40|180|120|
11282|onion|Produce|40,1.1,0.1,9.3|20|160|110|
11215|garlic|Produce|149,6.4,0.5,33|60|136|3|
11457|spinach|Produce|23,2.9,0.4,3.6|90|30|0|
11124|carrot|Produce|41,0.9,0.2,9.6|15|128|60|
11333|bell pepper|Produce|31,1,0.3,6|45|150|120|
9003|apple|Produce|52,0.3,0.2,14|35|125|180|
9040|banana|Produce|89,1.1,0.3,23|25|150|120|
9037|avocado|Produce|160,2,15,9|120|150|150|
9152|lemon juice|Produce|22,0.4,0.2,6.9|60|244|0|
4053|olive oil|Oil, Vinegar, Salad Dressing|884,0,100,0|90|216|0|
2047|salt|Spices and Seasonings|0,0,0,0|5|292|0|
1002030|black pepper|Spices and Seasonings|251,10,3.3,64|300|115|0|
19296|honey|Nut butters, Jams, and Honey|304,0.3,0,82|110|340|0|
6172|vegetable broth|Canned and Jarred|6,0.2,0.1,1|15|240|0|
11260|mushrooms|Produce|22,3.1,0.3,3.3|80|70|18|
93607|coconut milk|Ethnic Foods|197,2.2,21,2.8|50|240|0|"""

# id | title | cuisine | dish type | minutes | servings | ingredient id:grams ...
_RECIPE_ROWS = """\
715001|Classic Spaghetti Bolognese|Italian|main course|45|4|20420:400 23572:500 11529:400 11282:110 11215:9 4053:27 1033:40 2047:5
715002|Garlic Butter Shrimp Pasta|Italian|main course|25|4|20420:400 15270:450 1001:56 11215:12 9152:30 1033:30 2047:4
715003|Spinach and Mushroom Risotto|Italian|main course|40|4|20444:370 11260:250 11457:120 11282:110 6172:960 1033:60 1001:28
715004|Margherita Bruschetta|Italian|side dish|15|6|18064:240 11529:360 11215:6 4053:40 2047:3
715005|Chicken Tikka Masala|Indian|main course|50|4|5062:680 1116:245 11529:400 11282:160 11215:9 93607:240 20444:370 2047:6
715006|Red Lentil Dal|Indian|main course|35|4|16069:400 11282:110 11529:240 11215:9 93607:240 6172:480 2047:5
715007|Coconut Vegetable Curry|Thai|main course|30|4|93607:400 11333:300 11124:120 16213:250 11282:110 20444:370 16124:30
715008|Pad Thai with Shrimp|Thai|main course|30|3|20444:300 15270:340 1123:100 16098:64 16124:45 9152:30 11282:60
715009|Peanut Tofu Stir Fry|Chinese|main course|25|4|16213:400 16098:96 16124:60 11333:300 11124:120 11215:6 20444:370
715010|Egg Fried Rice|Chinese|main course|20|4|20444:550 1123:150 11124:120 11282:110 16124:45 4053:14
715011|Beef and Broccoli Bowl|Chinese|main course|30|4|23572:450 16124:60 11215:9 11124:120 20444:370 19296:42
715012|Black Bean Tacos|Mexican|main course|20|4|16015:430 9037:300 11529:240 11282:110 9152:30 18064:240 2047:3
715013|Chicken Burrito Bowl|Mexican|main course|35|4|5062:560 20444:370 16015:430 9037:150 11529:180 1041009:110
715014|Guacamole|Mexican|side dish|10|6|9037:450 11529:120 11282:55 9152:30 2047:3
715015|Greek Salad|Greek|salad|15|4|11529:480 11333:150 11282:55 4053:40 9152:30 2047:3
715016|Lemon Herb Salmon|Mediterranean|main course|25|4|15076:600 9152:60 4053:27 11215:6 11457:120 2047:4
715017|Hummus-Style White Bean Dip|Mediterranean|side dish|10|6|16015:430 9152:45 4053:40 11215:6 2047:3
715018|Shakshuka|Middle Eastern|breakfast|30|4|1123:300 11529:720 11333:150 11282:110 11215:6 4053:27
715019|Fluffy Pancakes|American|breakfast|20|4|20081:190 1077:300 1123:100 19335:25 1001:42 2047:2
715020|Overnight Oats with Banana|American|breakfast|5|2|8120:160 1077:245 9040:120 19296:21 12061:36
715021|Bacon and Egg Breakfast Sandwich|American|breakfast|15|2|18064:120 1123:100 10123:48 1041009:56 1001:14
715022|Avocado Toast|American|breakfast|10|2|18064:120 9037:150 9152:15 2047:2 1002030:1
715023|Classic Cheeseburger|American|main course|25|4|23572:600 18064:240 1041009:112 11529:120 11282:55
715024|Creamy Tomato Soup|American|soup|30|4|11529:800 11282:110 6172:480 1001:28 1077:122 2047:5
715025|Lentil Vegetable Soup|Mediterranean|soup|45|6|16069:400 11124:240 11282:160 11529:400 6172:1440 11457:60 4053:27
715026|Chicken Noodle Soup|American|soup|40|6|5062:450 20420:200 11124:240 11282:160 6172:1920 2047:6
715027|Apple Crumble|British|dessert|50|6|9003:720 20081:125 1001:113 19335:150 8120:80
715028|Banana Bread|American|dessert|70|8|9040:360 20081:250 19335:150 1123:100 1001:113 2047:3
715029|Chocolate-Free Peanut Butter Cookies|American|dessert|20|12|16098:258 19335:200 1123:50
715030|Roasted Vegetable Salad|Mediterranean|salad|35|4|11333:300 11124:240 11457:90 4053:40 9152:30 12061:36 2047:3
715031|Mushroom Omelette|French|breakfast|15|1|1123:150 11260:70 1001:14 1041009:28 2047:1
715032|Teriyaki Salmon Bowl|Japanese|main course|30|2|15076:300 16124:45 19296:42 20444:185 9037:150 11124:60"""

_SUBSTITUTES: dict[str, tuple[str, ...]] = {
    "butter": ("1 cup = 7/8 cup olive oil", "1 cup = 1 cup coconut oil", "1 cup = 1/2 cup applesauce (baking)"),
    "egg": ("1 egg = 1 tbsp ground flaxseed + 3 tbsp water", "1 egg = 1/2 mashed banana (baking)"),
    "milk": ("1 cup = 1 cup oat milk", "1 cup = 1/2 cup coconut milk + 1/2 cup water"),
    "flour": ("1 cup = 1 cup gluten-free flour blend", "1 cup = 1 1/4 cups rolled oats, ground"),
    "sugar": ("1 cup = 3/4 cup honey (reduce liquid by 1/4 cup)", "1 cup = 1 cup coconut sugar"),
    "soy sauce": ("1 tbsp = 1 tbsp tamari (gluten free)", "1 tbsp = 1 tbsp coconut aminos"),
    "greek yogurt": ("1 cup = 1 cup sour cream", "1 cup = 1 cup coconut yogurt"),
    "ground beef": ("1 lb = 1 lb ground turkey", "1 lb = 2 cups cooked lentils"),
    "honey": ("1 cup = 1 cup maple syrup", "1 cup = 1 1/4 cups sugar + 1/4 cup water"),
    "parmesan": ("1 cup = 1 cup pecorino romano", "1 cup = 1/2 cup nutritional yeast"),
    "lemon juice": ("1 tbsp = 1 tbsp lime juice", "1 tbsp = 1/2 tbsp white vinegar"),
}
_ANIMAL = {"dairy", "egg", "seafood", "meat"}


@dataclass(frozen=True, slots=True)
class _Ing:
    id: int
    name: str
    aisle: str
    kcal: float
    protein: float
    fat: float
    carbs: float
    price: int
    cup: int
    piece: int
    contains: str


@dataclass(frozen=True, slots=True)
class _Recipe:
    id: int
    title: str
    cuisine: str
    dish_type: str
    minutes: int
    servings: int
    parts: tuple[tuple[int, int], ...]


def _parse() -> tuple[dict[int, _Ing], dict[int, _Recipe]]:
    ings: dict[int, _Ing] = {}
    for row in _ING_ROWS.splitlines():
        i, name, aisle, nut, price, cup, piece, contains = row.split("|")
        kcal, prot, fat, carbs = (float(x) for x in nut.split(","))
        meat = "meat" if aisle == "Meat" else contains
        ings[int(i)] = _Ing(int(i), name, aisle, kcal, prot, fat, carbs, int(price), int(cup), int(piece), meat)
    recipes: dict[int, _Recipe] = {}
    for row in _RECIPE_ROWS.splitlines():
        i, title, cuisine, dish, minutes, servings, parts = row.split("|")
        pairs = tuple((int(a), int(b)) for a, b in (p.split(":") for p in parts.split()))
        recipes[int(i)] = _Recipe(int(i), title, cuisine, dish, int(minutes), int(servings), pairs)
    return ings, recipes


_INGS, _RECIPES = _parse()
_BY_NAME = {i.name: i for i in _INGS.values()}
_CUISINES = sorted({r.cuisine for r in _RECIPES.values()})


# -- result models -----------------------------------------------------------------------------------------


class Nutrients(BaseModel):
    """Nutrition of a quantity of food."""

    calories: int = Field(description="Energy in kcal.")
    protein_g: float = Field(description="Protein in grams.")
    fat_g: float = Field(description="Fat in grams.")
    carbs_g: float = Field(description="Carbohydrates in grams.")


class RecipeIngredient(BaseModel):
    """An ingredient of a recipe (extendedIngredients)."""

    id: IngredientId = Field(description="Ingredient id.")
    name: str = Field(description="Ingredient name.")
    grams: int = Field(description="Amount for the whole recipe, in grams.")
    aisle: str = Field(description="Supermarket aisle.")


class RecipeSummary(BaseModel):
    """A recipe in search results."""

    id: RecipeId = Field(description="Recipe id.")
    title: Title = Field(description="Title.")
    cuisine: str = Field(description="Cuisine.")
    dish_type: DishType = Field(description="Dish type.")
    ready_in_minutes: int = Field(description="Total time in minutes.")
    servings: int = Field(description="Servings the recipe makes.")
    calories_per_serving: int = Field(description="kcal per serving.")
    health_score: int = Field(description="0-100; higher is healthier (protein, fat and sugar balance).")
    aggregate_likes: int = Field(description="Likes by users.")
    diets: list[Diet] = Field(description="Diets the recipe meets.")
    image: Url = Field(description="Image link.")


class RecipeInfo(RecipeSummary):
    """A recipe with its ingredients, nutrition and cost."""

    ingredients: list[RecipeIngredient] = Field(description="Ingredients in order.")
    contains: list[Intolerance] = Field(description="Intolerances it triggers.")
    price_per_serving: Cents = Field(description="Estimated cost per serving in US cents.")
    nutrition_per_serving: Nutrients = Field(description="Nutrition of one serving.")
    source_url: Url = Field(description="Recipe page.")


class PantryMatch(BaseModel):
    """A recipe found from ingredients at hand."""

    id: RecipeId = Field(description="Recipe id.")
    title: Title = Field(description="Title.")
    used_ingredient_count: int = Field(description="Ingredients at hand it uses.")
    missed_ingredient_count: int = Field(description="Ingredients it needs that are not at hand.")
    missed_ingredients: list[str] = Field(description="Names of those missing.")


class Ingredient(BaseModel):
    """An ingredient with nutrition for an amount."""

    id: IngredientId = Field(description="Ingredient id.")
    name: str = Field(description="Name.")
    aisle: str = Field(description="Supermarket aisle.")
    grams: int = Field(description="The amount the figures are for, in grams.")
    nutrition: Nutrients = Field(description="Nutrition of that amount.")
    estimated_cost: Cents = Field(description="Cost of that amount in US cents.")
    contains: list[str] = Field(description="Allergen or animal groups it belongs to.")


class Substitutes(BaseModel):
    """Substitutes of an ingredient."""

    ingredient: str = Field(description="The ingredient.")
    substitutes: list[str] = Field(description="Substitutes with their ratio.")


# -- helpers -----------------------------------------------------------------------------------------------


def _nut(parts: tuple[tuple[int, int], ...], divide: float = 1.0) -> Nutrients:
    k, p, f, c = (
        sum(getattr(_INGS[i], x) * g / 100 for i, g in parts) / divide for x in ("kcal", "protein", "fat", "carbs")
    )
    return Nutrients(calories=round(k), protein_g=round(p, 1), fat_g=round(f, 1), carbs_g=round(c, 1))


def _cost(r: _Recipe) -> int:
    return round(sum(_INGS[i].price * g / 100 for i, g in r.parts))


def _contains(r: _Recipe) -> set[str]:
    return {_INGS[i].contains for i, _ in r.parts} - {""}


def _diets(r: _Recipe) -> list[Diet]:
    has = _contains(r)
    out: list[Diet] = []
    if not has & {"meat", "seafood"}:
        out.append("vegetarian")
    if not has & _ANIMAL and not any(_INGS[i].name == "honey" for i, _ in r.parts):
        out.append("vegan")
    if "gluten" not in has:
        out.append("gluten free")
    if "dairy" not in has:
        out.append("dairy free")
    return out


def _health(r: _Recipe) -> int:
    n = _nut(r.parts, r.servings)
    sugar = sum(g for i, g in r.parts if _INGS[i].name in {"sugar", "honey"}) / r.servings
    score = 50 + n.protein_g * 1.2 - max(0.0, n.fat_g - 15) * 1.5 - sugar * 0.8 - max(0, n.calories - 650) / 10
    return max(1, min(100, round(score)))


def _likes(seed: int, r: _Recipe) -> int:
    return random.Random(f"recipes:{seed}:{r.id}").randint(3, 2400)


def _summary(seed: int, r: _Recipe) -> RecipeSummary:
    return RecipeSummary(
        id=r.id,
        title=r.title,
        cuisine=r.cuisine,
        dish_type=r.dish_type,
        ready_in_minutes=r.minutes,
        servings=r.servings,
        calories_per_serving=_nut(r.parts, r.servings).calories,
        health_score=_health(r),
        aggregate_likes=_likes(seed, r),
        diets=_diets(r),
        image=f"{IMAGES}/recipes/{r.id}-556x370.jpg",
    )


def _info(seed: int, r: _Recipe) -> RecipeInfo:
    return RecipeInfo(
        **_summary(seed, r).model_dump(),
        ingredients=[RecipeIngredient(id=i, name=_INGS[i].name, grams=g, aisle=_INGS[i].aisle) for i, g in r.parts],
        contains=sorted(_contains(r) - {"meat"}),
        price_per_serving=round(_cost(r) / r.servings),
        nutrition_per_serving=_nut(r.parts, r.servings),
        source_url=f"https://spoonacular.com/recipes/{fold(r.title).replace(' ', '-')}-{r.id}",
    )


def _recipe(recipe_id: int, field: str = "recipe_id") -> _Recipe:
    r = _RECIPES.get(recipe_id)
    if r is None:
        raise NotFound(f"no recipe {recipe_id}", field=field, hint="find recipes with recipes__search_recipes")
    return r


def _ingredient(name: str, field: str = "ingredient") -> _Ing:
    i = _BY_NAME.get(fold(name))
    if i is None:
        close = [n for n in _BY_NAME if any(w in n.split() for w in fold(name).split())]
        raise NotFound(
            f"no ingredient named {name!r}",
            field=field,
            hint=f"did you mean {', '.join(close[:3])}?" if close else "search with recipes__search_ingredients",
        )
    return i


def _grams(i: _Ing, amount: float, unit: str, field: str) -> float:
    fixed = {"g": 1.0, "kg": 1000.0, "oz": 28.3495, "lb": 453.592, "ml": i.cup / 236.588}
    per = {"cup": i.cup, "tbsp": i.cup / 16, "tsp": i.cup / 48, "piece": i.piece}
    factor = fixed.get(unit, per.get(unit, 0))
    if not factor:
        raise RuleViolation(
            f"{i.name} is not measured by the {unit}", field=field, hint="use a weight unit (g, oz, lb) instead"
        )
    return amount * factor


def _seed_of(ctx: Ctx) -> int:
    return ctx.population.seed


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search recipes", open_world=True, example=fixed_example(query="soup"))
def search_recipes(
    ctx: Ctx,
    query: Search | None = None,
    cuisine: Search | None = None,
    diet: Diet | None = None,
    intolerances: list[Intolerance] | None = None,
    dish_type: DishType | None = None,
    max_ready_time: Annotated[int, Field(ge=1, le=600)] | None = None,
    max_calories: Annotated[int, Field(ge=50, le=5000)] | None = None,
    sort: Literal["popularity", "healthiness", "time"] = "popularity",
    number: Annotated[int, Field(ge=1, le=50)] = 10,
) -> list[RecipeSummary]:
    """Search recipes (complexSearch) by title words, cuisine, diet, intolerances, dish type, time and calories.

    Args:
        query: Words that must all appear in the title.
        cuisine: Cuisine (Italian, Indian, Thai, Mexican, American, ...).
        diet: Only recipes meeting this diet.
        intolerances: Leave out recipes containing any of these.
        dish_type: Only this type of dish.
        max_ready_time: Longest total time in minutes.
        max_calories: Most kcal per serving.
        sort: popularity (most liked first), healthiness (health score) or time (quickest first).
        number: Most results.
    """
    if cuisine is not None and fold(cuisine) not in {fold(c) for c in _CUISINES}:
        raise NotFound(f"no cuisine {cuisine!r}", field="cuisine", hint=f"use one of {', '.join(_CUISINES)}")
    seed, words, avoid = _seed_of(ctx), fold(query or "").split(), set(intolerances or ())
    found = [
        x
        for x in (_summary(seed, r) for r in _RECIPES.values() if not _contains(r) & avoid)
        if all(w in fold(x.title).split() for w in words)
        and (cuisine is None or fold(cuisine) == fold(x.cuisine))
        and (diet is None or diet in x.diets)
        and (dish_type is None or x.dish_type == dish_type)
        and (max_ready_time is None or x.ready_in_minutes <= max_ready_time)
        and (max_calories is None or x.calories_per_serving <= max_calories)
    ]
    keys = {"popularity": ("aggregate_likes", -1), "healthiness": ("health_score", -1), "time": ("ready_in_minutes", 1)}
    name, sign = keys[sort]
    return sorted(found, key=lambda x: (sign * getattr(x, name), x.id))[:number]


_EX_RECIPE = fixed_example(recipe_id=715005)


@service.tool(intent="get the recipe's information", open_world=True, example=_EX_RECIPE)
def get_recipe(ctx: Ctx, recipe_id: RecipeId) -> RecipeInfo:
    """Get a recipe with its ingredients, diets, intolerances, nutrition per serving and price per serving.

    Args:
        recipe_id: The recipe id.
    """
    return _info(_seed_of(ctx), _recipe(recipe_id))


@service.tool(
    intent="find recipes from ingredients at hand",
    open_world=True,
    example=fixed_example(ingredients=["egg", "spinach", "rice"]),
)
def find_by_ingredients(
    ctx: Ctx,
    ingredients: Annotated[list[Search], Field(min_length=1, max_length=20)],
    ranking: Literal[1, 2] = 1,
    number: Annotated[int, Field(ge=1, le=30)] = 10,
) -> list[PantryMatch]:
    """Find recipes that use ingredients at hand (findByIngredients); recipes using none are left out.

    Args:
        ingredients: Names of the ingredients at hand.
        ranking: 1 to maximise the ingredients used, 2 to minimise those missing.
        number: Most results.
    """
    have = {_ingredient(n, f"ingredients.{k}").id for k, n in enumerate(ingredients)}
    out = []
    for r in _RECIPES.values():
        ids = [i for i, _ in r.parts]
        used = [i for i in ids if i in have]
        if used:
            missed = [_INGS[i].name for i in ids if i not in have]
            out.append(
                PantryMatch(
                    id=r.id,
                    title=r.title,
                    used_ingredient_count=len(used),
                    missed_ingredient_count=len(missed),
                    missed_ingredients=missed,
                )
            )

    def rank(m: PantryMatch) -> tuple[int, int, int]:  # 1: most used first; 2: fewest missing first
        used, missed = -m.used_ingredient_count, m.missed_ingredient_count
        return (used, missed, m.id) if ranking == 1 else (missed, used, m.id)

    return sorted(out, key=rank)[:number]


def _ingredient_out(i: _Ing, grams: float) -> Ingredient:
    return Ingredient(
        id=i.id,
        name=i.name,
        aisle=i.aisle,
        grams=round(grams),
        nutrition=_nut(((i.id, round(grams)),)),
        estimated_cost=round(i.price * grams / 100),
        contains=[i.contains] if i.contains else [],
    )


@service.tool(intent="search ingredients", open_world=True, example=fixed_example(query="beans"))
def search_ingredients(ctx: Ctx, query: Search, aisle: Search | None = None) -> list[Ingredient]:
    """Search ingredients by name words (figures per 100 g).

    Args:
        query: Words of the ingredient's name.
        aisle: Only ingredients in this supermarket aisle.
    """
    words = fold(query).split()
    return [
        _ingredient_out(i, 100)
        for i in sorted(_INGS.values(), key=lambda i: i.name)
        if any(w in fold(i.name).split() or fold(i.name).startswith(w) for w in words)
        and (aisle is None or fold(aisle) in fold(i.aisle))
    ]


@service.tool(
    intent="get an ingredient's nutrition for an amount",
    open_world=True,
    example=fixed_example(ingredient_id=1123, amount=2, unit="piece"),
)
def get_ingredient(ctx: Ctx, ingredient_id: IngredientId, amount: float = 100, unit: Unit = "g") -> Ingredient:
    """Get an ingredient's nutrition and cost for an amount in any unit it is measured in.

    Args:
        ingredient_id: The ingredient id.
        amount: The amount (more than 0).
        unit: Its unit; piece only for countable ingredients.
    """
    i = _INGS.get(ingredient_id)
    if i is None:
        raise NotFound(f"no ingredient {ingredient_id}", field="ingredient_id", hint="find it with search_ingredients")
    if not 0 < amount <= 100000:
        raise RuleViolation(f"amount {amount} is out of range", field="amount", hint="give an amount above 0")
    return _ingredient_out(i, _grams(i, amount, unit, "unit"))


@service.tool(intent="find substitutes for an ingredient", open_world=True, example=fixed_example(ingredient="butter"))
def get_ingredient_substitutes(ctx: Ctx, ingredient: Search) -> Substitutes:
    """Get substitutes for an ingredient with their ratios (food/ingredients/substitutes).

    Args:
        ingredient: The ingredient's name.
    """
    i = _ingredient(ingredient)
    subs = _SUBSTITUTES.get(i.name)
    if subs is None:
        raise NotFound(
            f"no substitutes known for {i.name}",
            field="ingredient",
            hint=f"substitutes are known for {', '.join(sorted(_SUBSTITUTES))}",
        )
    return Substitutes(ingredient=i.name, substitutes=list(subs))


@service.tool(intent="list the cuisines", open_world=True)
def list_cuisines(ctx: Ctx) -> list[str]:
    """List the cuisines recipes can be searched by."""
    return list(_CUISINES)


# -- meal plans --------------------------------------------------------------------------------------------


class MealPlan(Timestamped):
    """An employee's meal plan over one to seven days (the meal planner of a connected user)."""

    id: MealPlanId
    name: Title
    """Its name (unique per owner)."""
    owner_email: Email
    """The employee who keeps it."""
    start_date: Date
    """Its first day."""
    days: Annotated[int, Field(ge=1, le=MAX_PLAN_DAYS)] = 7
    """How many days it covers (1 to 7)."""
    diet: Diet | None = None
    """A diet every recipe in it must meet."""
    target_calories: Annotated[int, Field(ge=800, le=5000)] | None = None
    """Daily kcal aimed at per person."""
    status: Literal["draft", "active", "archived"] = "draft"
    """draft, active (being cooked from) or archived (frozen)."""


class PlanItem(Timestamped):
    """A recipe planned for a meal slot on a day."""

    id: PlanItemId
    plan_id: MealPlanId
    """The plan."""
    date: Date
    """The day."""
    slot: Slot
    """breakfast, lunch, dinner or snack."""
    recipe_id: RecipeId
    """The recipe."""
    title: Title
    """The recipe's title."""
    servings: Servings = 1
    """Servings to cook."""
    calories_per_serving: int
    """kcal per serving of the recipe."""


class ShoppingItem(Timestamped):
    """An ingredient to buy for a plan's meals."""

    id: ShoppingItemId
    plan_id: MealPlanId
    """The plan."""
    ingredient_id: IngredientId
    """The ingredient."""
    name: str
    """Its name."""
    aisle: str
    """Supermarket aisle."""
    grams: int
    """Amount needed in grams, over all the plan's meals."""
    cost: Cents
    """Estimated cost in US cents."""
    status: Literal["to_buy", "bought"] = "to_buy"
    """to_buy or bought."""


def _end(plan: MealPlan) -> dt.date:
    return plan.start_date + dt.timedelta(days=plan.days - 1)


def _guard_plan(ctx: Ctx, new: MealPlan, old: MealPlan | None) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"meal plan {old.id} is archived", field="meal_plan_id", hint="archived plans are frozen")
    if new.owner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{new.owner_email} is not an employee", field="owner_email", hint="meal plans are kept by staff"
        )
    for other in ctx.where(MealPlan, owner_email=new.owner_email, name=new.name):
        if other.id != new.id:
            raise Conflict(
                f"{new.owner_email} already has a meal plan named {new.name!r}: {other.id}",
                field="name",
                hint="pick another name or update that plan",
            )
    if old is None:
        return
    items = ctx.where(PlanItem, plan_id=new.id)
    if new.status == "active" and old.status == "draft" and not items:
        raise RuleViolation(
            f"meal plan {new.id} has no meals yet", field="meal_plan_id", hint="add recipes with add_to_meal_plan first"
        )
    outside = [i for i in items if not new.start_date <= i.date <= _end(new)]
    if outside:
        raise RuleViolation(
            f"{len(outside)} planned meals would fall outside {new.start_date}..{_end(new)}",
            field="days",
            hint="remove those meals first or keep the plan's dates",
        )
    if new.diet is not None:
        bad = [i for i in items if new.diet not in _diets(_RECIPES[i.recipe_id])]
        if bad:
            raise RuleViolation(
                f"{bad[0].title} in the plan is not {new.diet}",
                field="diet",
                hint="remove the meals that do not meet the diet first",
            )


def _guard_plan_delete(ctx: Ctx, new: None, old: MealPlan) -> None:
    if old.status == "active":
        raise RuleViolation(
            f"meal plan {old.id} is active", field="meal_plan_id", hint="archive it first (recipes__archive_meal_plan)"
        )
    for rec in [*ctx.where(PlanItem, plan_id=old.id), *ctx.where(ShoppingItem, plan_id=old.id)]:
        ctx.delete(rec)


def _open_plan(ctx: Ctx, plan_id: str, field: str = "meal_plan_id") -> MealPlan:
    plan = ctx.get(MealPlan, plan_id, field=field)
    if plan.status == "archived":
        raise RuleViolation(f"meal plan {plan.id} is archived", field=field, hint="archived plans are frozen")
    return plan


def _guard_child(ctx: Ctx, new: PlanItem | ShoppingItem | None, old: PlanItem | ShoppingItem | None) -> None:
    rec = new or old
    plan = None if rec is None else ctx.find(MealPlan, rec.plan_id)
    if plan is not None and plan.status == "archived":
        field = "plan_item_id" if isinstance(rec, PlanItem) else "shopping_item_id"
        raise RuleViolation(f"meal plan {plan.id} is archived", field=field, hint="archived plans are frozen")


meal_plans = service.resource(
    MealPlan,
    name="meal_plan",
    plural="meal_plans",
    prefix="mp",
    create=("name", "owner_email", "start_date", "days", "diet", "target_calories"),
    filters=("owner_email", "status", "diet"),
    search=("name",),
    update=("name", "start_date", "days", "diet", "target_calories"),
    transitions={
        "activate": Transition("status", ("draft",), "active", "start cooking from the meal plan"),
        "archive": Transition("status", ("draft", "active"), "archived", "archive the meal plan"),
    },
    guard_create=_guard_plan,
    guard_update=_guard_plan,
    guard_delete=_guard_plan_delete,
    title="meal plan",
)
plan_items = service.resource(
    PlanItem,
    name="plan_item",
    plural="plan_items",
    prefix="mpi",
    create=False,
    filters=("plan_id", "date", "slot", "recipe_id"),
    search=("title",),
    update=("servings",),
    guard_update=_guard_child,
    guard_delete=_guard_child,
    title="planned meal",
)
shopping_items = service.resource(
    ShoppingItem,
    name="shopping_item",
    plural="shopping_items",
    prefix="shi",
    create=False,
    filters=("plan_id", "aisle", "status", "ingredient_id"),
    search=("name",),
    transitions={"buy": Transition("status", ("to_buy",), "bought", "mark the ingredient as bought")},
    guard_update=_guard_child,
    guard_delete=_guard_child,
    title="shopping list item",
)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    plan = ctx.first(MealPlan, status="draft")
    if plan is None:
        return None
    recipe = next(r for r in _RECIPES.values() if plan.diet is None or plan.diet in _diets(r))
    return {"meal_plan_id": plan.id, "date": _end(plan).isoformat(), "slot": "snack", "recipe_id": recipe.id}


@service.tool(intent="add a recipe to the meal plan", write=True, example=_example_add)
def add_to_meal_plan(
    ctx: Ctx, meal_plan_id: MealPlanId, date: Date, slot: Slot, recipe_id: RecipeId, servings: Servings = 1
) -> PlanItem:
    """Plan a recipe for a meal slot on a day of a plan; the recipe must meet the plan's diet.

    Args:
        meal_plan_id: The plan (draft or active).
        date: A day within the plan.
        slot: breakfast, lunch, dinner or snack.
        recipe_id: The recipe.
        servings: Servings to cook.
    """
    plan = _open_plan(ctx, meal_plan_id)
    r = _recipe(recipe_id)
    if not plan.start_date <= date <= _end(plan):
        raise RuleViolation(
            f"{date} is outside the plan ({plan.start_date}..{_end(plan)})",
            field="date",
            hint="pick a day within the plan or extend its days",
        )
    if plan.diet is not None and plan.diet not in _diets(r):
        raise RuleViolation(
            f"{r.title} is not {plan.diet}",
            field="recipe_id",
            hint=f"search recipes with diet={plan.diet!r}",
        )
    same = ctx.where(PlanItem, plan_id=plan.id, date=date, slot=slot)
    if any(i.recipe_id == r.id for i in same):
        raise Conflict(
            f"{r.title} is already planned for {slot} on {date}", field="recipe_id", hint="change its servings"
        )
    if len(same) >= MAX_SLOT_ITEMS:
        raise RuleViolation(
            f"{slot} on {date} already has {MAX_SLOT_ITEMS} recipes", field="slot", hint="use another slot or day"
        )
    return ctx.create(
        PlanItem,
        plan_id=plan.id,
        date=date,
        slot=slot,
        recipe_id=r.id,
        title=r.title,
        servings=servings,
        calories_per_serving=_nut(r.parts, r.servings).calories,
    )


def _needs(items: list[PlanItem]) -> dict[int, float]:
    """Grams of each ingredient the planned meals need, scaled to their servings."""
    need: dict[int, float] = {}
    for i in items:
        r = _RECIPES[i.recipe_id]
        for iid, g in r.parts:
            need[iid] = need.get(iid, 0.0) + g * i.servings / r.servings
    return dict(sorted(need.items(), key=lambda kv: (_INGS[kv[0]].aisle, _INGS[kv[0]].name)))


def _shop(iid: int, grams: int) -> dict[str, Any]:
    ing = _INGS[iid]
    return {
        "ingredient_id": iid,
        "name": ing.name,
        "aisle": ing.aisle,
        "grams": grams,
        "cost": round(ing.price * grams / 100),
    }


@service.tool(
    intent="generate the meal plan's shopping list",
    write=True,
    example=first_example(MealPlan, "meal_plan_id", where={"status": "active"}),
)
def generate_shopping_list(ctx: Ctx, meal_plan_id: MealPlanId) -> list[ShoppingItem]:
    """Build an active plan's shopping list from its meals, ingredient by ingredient, scaled to the servings.

    Items still to buy are replaced; what was already bought is kept and only the rest is listed.

    Args:
        meal_plan_id: The plan (active).
    """
    plan = _open_plan(ctx, meal_plan_id)
    if plan.status != "active":
        raise RuleViolation(f"meal plan {plan.id} is {plan.status}", field="meal_plan_id", hint="activate it first")
    bought: dict[int, int] = {}
    for old in ctx.where(ShoppingItem, plan_id=plan.id):
        if old.status == "bought":
            bought[old.ingredient_id] = bought.get(old.ingredient_id, 0) + old.grams
        else:
            ctx.delete(old)
    need = _needs(ctx.where(PlanItem, plan_id=plan.id))
    left = {iid: round(g) - bought.get(iid, 0) for iid, g in need.items()}
    return [ctx.create(ShoppingItem, plan_id=plan.id, **_shop(iid, g)) for iid, g in left.items() if g > 0]


# -- seed --------------------------------------------------------------------------------------------------

_SEED_PLANS = (
    ("Team lunch week", 0, 5, None, 2200, "active", ("main course", "soup", "salad"), 6),
    ("Vegetarian challenge", 7, 7, "vegetarian", 1800, "draft", ("breakfast", "main course"), 1),
    ("Offsite menu", -35, 2, None, None, "archived", ("breakfast", "main course", "dessert"), 20),
)
"""Name, start (days from this Monday), days, diet, target kcal, status, dish types, age in days."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff meal plans: an active team-lunch week with a half-bought list, a vegetarian draft, an archived menu."""
    owners = s.population.staff("Operations", "People", "Engineering", fallback=3)
    monday = s.now.date() - dt.timedelta(days=s.now.date().weekday())
    slots: tuple[Slot, ...] = ("breakfast", "lunch", "dinner")
    for k, (name, offset, days, diet, target, status, types, age) in enumerate(_SEED_PLANS):
        start = monday + dt.timedelta(days=offset)
        stamps = {"created_at": s.ago(days=age + 3), "updated_at": s.ago(days=age)}
        plan = s.create(
            MealPlan,
            name=name,
            owner_email=owners[k % len(owners)].email,
            start_date=start,
            days=days,
            diet=diet,
            target_calories=target,
            status=status,
            **stamps,
        )
        pool = [r for r in _RECIPES.values() if r.dish_type in types and (diet is None or diet in _diets(r))]
        rng = random.Random(f"recipes-seed:{s.population.seed}:{k}")
        items = []
        for d in range(min(days, 3)):
            for slot in slots[1:] if status == "active" else slots:
                r = rng.choice([r for r in pool if (r.dish_type == "breakfast") == (slot == "breakfast")] or pool)
                items.append(
                    s.create(
                        PlanItem,
                        plan_id=plan.id,
                        date=start + dt.timedelta(days=d),
                        slot=slot,
                        recipe_id=r.id,
                        title=r.title,
                        servings=8 if status == "active" else 4,
                        calories_per_serving=_nut(r.parts, r.servings).calories,
                        **stamps,
                    )
                )
        for j, (iid, grams) in enumerate(_needs(items).items() if status == "active" else ()):
            s.create(
                ShoppingItem,
                plan_id=plan.id,
                status="bought" if j % 3 == 0 else "to_buy",
                **_shop(iid, round(grams)),
                **stamps,
            )
