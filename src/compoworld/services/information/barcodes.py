"""Scanbase: product lookup by barcode, nutrition and allergens, and the cafeteria's diet policies and approvals.

Modeled on the Open Food Facts API v2 (``/api/v2/product/{barcode}`` with
``product_name``, ``brands``, ``quantity``, ``categories_tags``,
``allergens_tags``, ``nutriments`` per 100 g, ``nutriscore_grade`` and
``nova_group``; ``/api/v2/search``) and on UPCitemdb's ``/prod/trial/lookup``
for general merchandise (``title``, ``brand``, ``model``, ``weight``,
``category``). Codes are GTINs as GS1 defines them: GTIN-8, UPC-A (12),
EAN-13 and GTIN-14, whose last digit is a mod-10 check digit (weights 3 and 1
from the right); a code with a wrong check digit or length is refused, as is a
restricted in-store code (prefixes 02 and 20-29). The GS1 prefix tells the
country of the member organisation that issued it (``400``-``440`` Germany,
``000``-``019`` USA and Canada, ``978`` books …).

An open-world service: the product database is a deterministic model seeded by
the world seed: the home company's own products carry GTINs under its GS1
company prefix, with their SKU as model number; food brands sell products of
thirteen categories whose nutrition follows the category; any other valid
code is a product drawn from the code itself, or unknown (status 0), as in the
real database. The Nutri-Score is computed from the nutriments with the 2017
algorithm for general foods (negative points for energy, sugars, saturated fat
and sodium, positive for fibre, protein and fruit and vegetables; beverages use
their own energy and sugar scales).

Stored state is the company's diet policies (a cafeteria or vending policy:
allergens to avoid, the worst Nutri-Score allowed) and the products approved
under each: a product containing an avoided allergen or scoring worse than the
policy allows is refused; re-checking a policy after it tightens flags the
approvals it no longer allows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, Email, IdOf, SemanticType, Sku, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped

__all__ = ["gtin_of", "service"]

service = Service(
    "barcodes",
    title="Scanbase",
    category="product_data",
    modeled_on="Open Food Facts API v2 (product by barcode, search, nutriments, allergens_tags, nutriscore_grade, "
    "nova_group) with UPCitemdb lookup for general merchandise and GS1 GTIN check digits and prefixes",
    description="Product data by barcode: validate a GTIN, UPC or EAN and its check digit, look up a product's "
    "name, brand, quantity, ingredients, allergens, nutrition and Nutri-Score, search and compare products and "
    "find healthier alternatives, and keep the company's diet policies with the products approved under them.",
)

PolicyId = Annotated[str, IdOf("barcodes.policy")]
ApprovalId = Annotated[str, IdOf("barcodes.approval")]
Gtin = Annotated[str, SemanticType("product.gtin", kind="ref"), StringConstraints(pattern=r"^\s*\d[\d -]{6,16}\d\s*$")]
"""A barcode: GTIN-8, UPC-A (12 digits), EAN-13 or GTIN-14 (spaces and dashes are ignored)."""

Allergen = Literal["gluten", "milk", "eggs", "nuts", "peanuts", "soybeans", "fish", "crustaceans", "celery",
                   "mustard", "sesame-seeds", "sulphur-dioxide-and-sulphites", "lupin", "molluscs"]  # fmt: skip
Grade = Literal["a", "b", "c", "d", "e"]
ApprovalStatus = Literal["active", "flagged", "revoked"]
GRADES: tuple[Grade, ...] = ("a", "b", "c", "d", "e")
MAX_BULK = 20


@dataclass(frozen=True, slots=True)
class _Cat:
    tag: str
    names: tuple[str, ...]
    unit: str
    beverage: bool
    kcal: tuple[int, int]
    fat: tuple[float, float]
    sat: float
    carbs: tuple[float, float]
    sugars: float
    fiber: tuple[float, float]
    protein: tuple[float, float]
    salt: tuple[float, float]
    fruit: int
    allergens: tuple[str, ...]
    may: tuple[str, ...]
    ingredients: str


_CATS: tuple[_Cat, ...] = (
    _Cat("breakfast-cereals", ("Crunchy Oat Clusters", "Honey Corn Flakes", "Muesli with Fruit"), "g", False, (360, 450), (2, 15), 0.3, (60, 78), 0.4, (5, 10), (8, 12), (0.1, 0.9), 10, ("gluten",), ("nuts", "milk"), "oat flakes, wheat flour, sugar, honey, salt"),
    _Cat("chocolate-spreads", ("Hazelnut Cocoa Spread", "Dark Choc Spread"), "g", False, (520, 560), (28, 34), 0.35, (54, 60), 0.95, (2, 4), (5, 7), (0.05, 0.15), 0, ("nuts", "milk"), ("soybeans",), "sugar, palm oil, hazelnuts 13%, skimmed milk powder, cocoa, soy lecithin"),
    _Cat("biscuits", ("Butter Biscuits", "Oat Cookies", "Chocolate Chip Cookies"), "g", False, (440, 510), (16, 26), 0.5, (60, 70), 0.45, (2, 5), (5, 8), (0.4, 1.0), 0, ("gluten", "milk"), ("eggs", "nuts"), "wheat flour, sugar, butter, oat flakes, raising agent, salt"),
    _Cat("yogurts", ("Greek Style Yogurt", "Strawberry Yogurt", "Natural Yogurt"), "g", False, (55, 130), (0.1, 10), 0.65, (3, 16), 0.7, (0, 0.5), (3.5, 10), (0.1, 0.2), 8, ("milk",), (), "pasteurised milk, cream, live cultures, strawberries 8%"),
    _Cat("sodas", ("Cola", "Lemon Soda", "Orange Sparkling Drink"), "ml", True, (18, 45), (0, 0), 0.0, (4, 11), 1.0, (0, 0), (0, 0), (0, 0.05), 0, (), (), "carbonated water, sugar, acid, flavourings, caffeine"),
    _Cat("fruit-juices", ("Orange Juice", "Apple Juice", "Multivitamin Juice"), "ml", True, (40, 50), (0, 0.2), 0.0, (9, 11), 0.95, (0, 0.5), (0.3, 0.8), (0, 0.02), 100, (), (), "100% pressed fruit juice"),
    _Cat("crisps", ("Sea Salt Crisps", "Paprika Crisps", "Lentil Chips"), "g", False, (480, 540), (24, 34), 0.12, (48, 58), 0.06, (3, 6), (5, 9), (1.0, 1.8), 0, (), ("gluten", "milk"), "potatoes, sunflower oil, salt, paprika"),
    _Cat("pastas", ("Spaghetti", "Penne Rigate", "Wholewheat Fusilli"), "g", False, (340, 360), (1.2, 2.5), 0.2, (66, 72), 0.05, (3, 8), (12, 14), (0.0, 0.02), 0, ("gluten",), ("eggs",), "durum wheat semolina, water"),
    _Cat("cheeses", ("Mature Cheddar", "Gouda Slices", "Creamy Brie"), "g", False, (300, 410), (24, 35), 0.65, (0, 1), 0.5, (0, 0), (20, 26), (1.4, 1.9), 0, ("milk",), (), "pasteurised cow's milk, salt, rennet, cultures"),
    _Cat("plant-based-milks", ("Oat Drink", "Almond Drink", "Soy Drink"), "ml", True, (30, 60), (1, 3), 0.15, (1, 7), 0.6, (0.3, 1), (0.5, 3.5), (0.08, 0.12), 0, ("gluten",), ("nuts", "soybeans"), "water, oats 10%, rapeseed oil, calcium, salt"),
    _Cat("breads", ("Sourdough Loaf", "Wholegrain Bread", "Toast Bread"), "g", False, (220, 270), (1, 5), 0.2, (40, 50), 0.1, (3, 8), (7, 10), (0.9, 1.4), 0, ("gluten",), ("sesame-seeds", "soybeans"), "wheat flour, water, rye flour, yeast, salt"),
    _Cat("frozen-pizzas", ("Margherita Pizza", "Salami Pizza", "Vegetable Pizza"), "g", False, (220, 270), (8, 12), 0.45, (26, 32), 0.12, (1.5, 3), (9, 12), (1.0, 1.4), 20, ("gluten", "milk"), ("mustard",), "wheat flour, tomato, mozzarella, water, olive oil, yeast, salt"),
    _Cat("nuts", ("Roasted Almonds", "Mixed Nuts", "Salted Peanuts"), "g", False, (580, 640), (48, 56), 0.12, (8, 16), 0.3, (6, 12), (18, 26), (0.0, 1.2), 0, ("nuts",), ("peanuts", "sesame-seeds"), "almonds, cashews, hazelnuts, sunflower oil, sea salt"),
)  # fmt: skip
_BRANDS: tuple[tuple[str, str, str], ...] = (
    ("Nordhof", "400", "DE"), ("Sunvale", "030", "US"), ("Casa Lumi", "800", "IT"), ("Green Orchard", "501", "GB"),
    ("Alpenmilch", "900", "AT"), ("Crunchwell", "871", "NL"), ("Bonterre", "300", "FR"), ("Maple & Co", "754", "CA"),
)  # fmt: skip
_GS1: tuple[tuple[int, int, str, str], ...] = (
    (0, 19, "US", "GS1 US"), (30, 39, "US", "GS1 US"), (60, 139, "US", "GS1 US"), (300, 379, "FR", "GS1 France"),
    (400, 440, "DE", "GS1 Germany"), (450, 459, "JP", "GS1 Japan"), (490, 499, "JP", "GS1 Japan"),
    (500, 509, "GB", "GS1 UK"), (540, 549, "BE", "GS1 Belgium & Luxembourg"), (570, 579, "DK", "GS1 Denmark"),
    (690, 699, "CN", "GS1 China"), (730, 739, "SE", "GS1 Sweden"), (754, 755, "CA", "GS1 Canada"), (760, 769, "CH", "GS1 Switzerland"),
    (789, 790, "BR", "GS1 Brasil"), (800, 839, "IT", "GS1 Italy"), (840, 849, "ES", "GS1 Spain"),
    (870, 879, "NL", "GS1 Netherlands"), (880, 880, "KR", "GS1 Korea"), (900, 919, "AT", "GS1 Austria"),
    (930, 939, "AU", "GS1 Australia"), (940, 949, "NZ", "GS1 New Zealand"),
)  # fmt: skip
HOME_PREFIX = "0614141"
"""The home company's GS1 company prefix (its own products' GTINs start with it)."""


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(("barcodes", str(seed), *map(str, parts))))


# -- GTIN arithmetic ------------------------------------------------------------------------------------------


def check_digit(body: str) -> str:
    """The GS1 mod-10 check digit of the digits before it."""
    total = sum(int(d) * (3 if k % 2 == 0 else 1) for k, d in enumerate(reversed(body)))
    return str((10 - total % 10) % 10)


def gtin_of(body: str) -> str:
    """``body`` with its check digit appended."""
    return body + check_digit(body)


def _normal(raw: str, field: str = "code") -> str:
    """The code as an EAN-13 (GTIN-8 stays 8 digits; UPC-A gains a leading 0; GTIN-14 drops its indicator 0)."""
    code = raw.replace(" ", "").replace("-", "")
    if len(code) not in (8, 12, 13, 14):
        raise RuleViolation(f"{raw!r} has {len(code)} digits; a GTIN has 8, 12, 13 or 14", field=field,
                            hint="scan or copy the full barcode number")  # fmt: skip
    if code[-1] != check_digit(code[:-1]):
        raise RuleViolation(f"{code} fails its check digit (expected {check_digit(code[:-1])})", field=field,
                            hint="a digit is mistyped: compare with the printed number")  # fmt: skip
    if len(code) == 12:
        code = "0" + code
    elif len(code) == 14:
        if code[0] != "0":
            raise RuleViolation(f"{code} is a case-level GTIN-14 (indicator {code[0]})", field=field,
                                hint="look up the consumer unit's EAN-13 printed on the item itself")  # fmt: skip
        code = code[1:]
    if len(code) == 13 and (code[:2] == "02" or code[:2] == "04" or code[0] == "2"):
        raise RuleViolation(f"{code} is a restricted in-store code", field=field,
                            hint="in-store codes (prefix 02, 04, 2x) mean nothing outside the shop that printed them")  # fmt: skip
    return code


def _gs1(code: str) -> tuple[str | None, str]:
    if len(code) == 8:
        return None, "GTIN-8 (GS1 short code)"
    if code.startswith(("978", "979")):
        return None, "Bookland (ISBN)"
    if code.startswith("977"):
        return None, "ISSN (periodicals)"
    p = int(code[:3])
    for lo, hi, country, org in _GS1:
        if lo <= p <= hi:
            return country, org
    return None, "GS1 Global Office"


# -- the product database -----------------------------------------------------------------------------------


class Nutriments(BaseModel):
    """Nutrition per 100 g or 100 ml."""

    energy_kcal: float = Field(description="Energy, kcal.")
    fat: float = Field(description="Fat, g.")
    saturated_fat: float = Field(description="Saturated fat, g.")
    carbohydrates: float = Field(description="Carbohydrates, g.")
    sugars: float = Field(description="Sugars, g.")
    fiber: float = Field(description="Fibre, g.")
    proteins: float = Field(description="Protein, g.")
    salt: float = Field(description="Salt, g.")
    fruits_vegetables_nuts_pct: int = Field(description="Fruit, vegetables and nuts, percent.")


class ProductInfo(BaseModel):
    """A product as the database knows it."""

    code: Gtin = Field(description="The barcode, as EAN-13 (or GTIN-8).")
    product_name: Title = Field(description="The product's name.")
    brands: str = Field(description="Its brand.")
    quantity: str = Field(description="Net quantity (400 g, 1 l).")
    categories_tags: list[str] = Field(description="Category tags (en:breakfast-cereals); merchandise: its category.")
    is_food: bool = Field(description="Food or drink (with nutrition) rather than merchandise.")
    ingredients_text: str | None = Field(description="Ingredients, for food.")
    allergens_tags: list[Allergen] = Field(description="Allergens it contains.")
    traces_tags: list[Allergen] = Field(description="Allergens it may contain (traces).")
    nutriments: Nutriments | None = Field(description="Nutrition per 100 g/ml, for food.")
    nutriscore_grade: Grade | None = Field(description="Nutri-Score a (best) to e, for food.")
    nutriscore_score: int | None = Field(description="The Nutri-Score points (lower is better).")
    nova_group: int | None = Field(description="NOVA processing group 1 (unprocessed) to 4 (ultra-processed).")
    model: Sku | None = Field(description="Model number (the maker's SKU), for merchandise.")
    weight_grams: int | None = Field(description="Shipping weight, for merchandise.")
    gs1_country: Country | None = Field(description="Country of the GS1 organisation that issued the prefix.")


def _num(r: random.Random, lo: float, hi: float) -> float:
    return round(r.uniform(lo, hi), 1)


def _food(seed: int, code: str, brand: str, cat: _Cat, name: str) -> ProductInfo:
    r = _rng(seed, "food", code)
    fat = _num(r, *cat.fat)
    carbs = _num(r, *cat.carbs)
    n = Nutriments(energy_kcal=float(r.randint(*cat.kcal)), fat=fat, saturated_fat=round(fat * cat.sat, 1),
                   carbohydrates=carbs, sugars=round(carbs * cat.sugars * r.uniform(0.7, 1.0), 1),
                   fiber=_num(r, *cat.fiber), proteins=_num(r, *cat.protein), salt=round(r.uniform(*cat.salt), 2),
                   fruits_vegetables_nuts_pct=cat.fruit if cat.tag != "nuts" else 100)  # fmt: skip
    points, grade = nutri_score(n, cat.beverage)
    size = r.choice((250, 330, 500, 1000)) if cat.unit == "ml" else r.choice((150, 200, 250, 375, 400, 500, 750))
    traces = [a for a in cat.may if r.random() < 0.6]
    return ProductInfo(code=code, product_name=name, brands=brand, quantity=f"{size} {cat.unit}",
                       categories_tags=[f"en:{cat.tag}"], is_food=True, ingredients_text=cat.ingredients,
                       allergens_tags=list(cat.allergens), traces_tags=traces, nutriments=n,
                       nutriscore_grade=grade, nutriscore_score=points, nova_group=1 if cat.tag == "nuts" else r.choice((3, 4)),
                       model=None, weight_grams=None, gs1_country=_gs1(code)[0])  # fmt: skip


@lru_cache(maxsize=8)
def _catalog(seed: int) -> dict[str, ProductInfo]:
    out: dict[str, ProductInfo] = {}
    for brand, prefix, _ in _BRANDS:
        r = _rng(seed, "brand", brand)
        company = f"{prefix}{r.randrange(1000, 9999)}"
        for c, cat in enumerate(r.sample(_CATS, 5)):
            for k, name in enumerate(cat.names[: r.randint(1, 2)]):
                code = gtin_of(f"{company}{c:02d}{k:03d}"[:12])
                out[code] = _food(seed, code, brand, cat, f"{brand} {name}")
    return out


def _home_products(ctx: Ctx) -> dict[str, ProductInfo]:
    pop = ctx.population
    out = {}
    for k, p in enumerate(pop.products):
        code = gtin_of(f"{HOME_PREFIX}{k + 1:05d}")
        out[code] = ProductInfo(code=code, product_name=p.name, brands=pop.home.name, quantity="1 pc",
                                categories_tags=[p.category], is_food=False, ingredients_text=None, allergens_tags=[],
                                traces_tags=[], nutriments=None, nutriscore_grade=None, nutriscore_score=None,
                                nova_group=None, model=p.sku, weight_grams=p.weight_grams, gs1_country="US")  # fmt: skip
    return out


def _product(ctx: Ctx, raw: str, field: str = "code") -> ProductInfo:
    code = _normal(raw, field)
    seed = ctx.population.seed
    known = _home_products(ctx).get(code) or _catalog(seed).get(code)
    if known is not None:
        return known
    r = _rng(seed, "unknown", code)
    if code.startswith(("977", "978", "979")) or r.random() < 0.2:
        raise NotFound(f"product {code} is not in the database", field=field,
                       hint="the product has no entry yet: check the code or search by name")  # fmt: skip
    cat = _CATS[r.randrange(len(_CATS))]
    brand = r.choice(_BRANDS)[0]
    return _food(seed, code, brand, cat, f"{brand} {r.choice(cat.names)}")


def nutri_score(n: Nutriments, beverage: bool = False) -> tuple[int, Grade]:
    """The 2017 Nutri-Score points and grade of a food (or a beverage) from its nutriments per 100 g/ml."""
    kj = n.energy_kcal * 4.184
    sodium_mg = n.salt * 400

    def pts(value: float, steps: tuple[float, ...]) -> int:
        return sum(value > s for s in steps)

    if beverage:
        neg = pts(kj, (0, 30, 60, 90, 120, 150, 180, 210, 240, 270)) + pts(
            n.sugars, (0, 1.5, 3, 4.5, 6, 7.5, 9, 10.5, 12, 13.5)
        )
    else:
        neg = pts(kj, tuple(335.0 * i for i in range(1, 11))) + pts(n.sugars, tuple(4.5 * i for i in range(1, 11)))
    neg += pts(n.saturated_fat, tuple(float(i) for i in range(1, 11))) + pts(
        sodium_mg, tuple(90.0 * i for i in range(1, 11))
    )
    fruit = (
        10
        if n.fruits_vegetables_nuts_pct > 80
        else 2
        if n.fruits_vegetables_nuts_pct > 60
        else 1
        if n.fruits_vegetables_nuts_pct > 40
        else 0
    )
    fiber = pts(n.fiber, (0.9, 1.9, 2.8, 3.7, 4.7))
    protein = pts(n.proteins, (1.6, 3.2, 4.8, 6.4, 8.0))
    score = neg - fiber - fruit - (protein if neg < 11 or fruit >= 5 else 0)
    if beverage:
        grade: Grade = "b" if score <= 1 else "c" if score <= 5 else "d" if score <= 9 else "e"
        if n.fruits_vegetables_nuts_pct == 0 and n.sugars == 0 and n.energy_kcal == 0:
            grade = "a"
        return score, grade
    grade = "a" if score <= -1 else "b" if score <= 2 else "c" if score <= 10 else "d" if score <= 18 else "e"
    return score, grade


# -- result models ------------------------------------------------------------------------------------------


class CodeCheck(BaseModel):
    """What a barcode number is."""

    code: Gtin = Field(description="The code as given, without spaces and dashes.")
    normalized: Gtin = Field(description="As EAN-13 (GTIN-8 stays as it is).")
    format: Literal["GTIN-8", "UPC-A", "EAN-13", "GTIN-14"] = Field(description="The format given.")
    check_digit: str = Field(description="The check digit (valid).")
    gs1_prefix: str = Field(description="The GS1 prefix (first three digits of the EAN-13).")
    gs1_country: Country | None = Field(description="Country of the GS1 organisation that issued it.")
    issuer: str = Field(description="The issuing GS1 organisation or number space.")


class ProductPage(BaseModel):
    """Search results."""

    count: int = Field(description="Products found.")
    products: list[ProductInfo] = Field(description="The products, by code.")


class BulkProducts(BaseModel):
    """Several products looked up."""

    found: list[ProductInfo] = Field(description="Products found, in the order given.")
    not_found: list[Gtin] = Field(description="Valid codes not in the database.")


class Comparison(BaseModel):
    """Two products side by side."""

    first: ProductInfo = Field(description="The first product.")
    second: ProductInfo = Field(description="The second product.")
    better: Gtin | None = Field(description="The code with the better Nutri-Score (none when equal or not food).")
    differences: dict[str, float] = Field(description="first minus second per nutriment, per 100 g/ml.")


class Category(BaseModel):
    """A product category."""

    tag: str = Field(description="en:tag.")
    products: int = Field(description="Products of the category in the database's known catalogue.")
    beverage: bool = Field(description="Scored as a beverage.")


class PolicyCheck(BaseModel):
    """Whether a product fits a diet policy."""

    code: Gtin = Field(description="The product.")
    policy_id: PolicyId = Field(description="The policy.")
    allowed: bool = Field(description="Whether it fits.")
    reasons: list[str] = Field(description="What rules it breaks (empty when allowed).")


# -- lookups ------------------------------------------------------------------------------------------------


def _example_code(ctx: Ctx) -> dict[str, Any]:
    return {"code": next(iter(_catalog(ctx.population.seed)))}


@service.tool(intent="look up a product by barcode", open_world=True, example=_example_code)
def lookup_product(ctx: Ctx, code: Gtin) -> ProductInfo:
    """A product by its barcode: name, brand, quantity, ingredients, allergens, nutrition, Nutri-Score, NOVA.

    Args:
        code: The GTIN/UPC/EAN; its check digit must be right.
    """
    return _product(ctx, code)


def _example_codes(ctx: Ctx) -> dict[str, Any]:
    return {"codes": list(_catalog(ctx.population.seed))[:3]}


@service.tool(intent="look up several products by barcode", open_world=True, example=_example_codes)
def lookup_products(ctx: Ctx, codes: Annotated[list[Gtin], Field(min_length=1, max_length=MAX_BULK)]) -> BulkProducts:
    """Look up to 20 barcodes at once; unknown (but valid) codes are listed apart.

    Args:
        codes: The barcodes.
    """
    found, missing = [], []
    for i, c in enumerate(codes):
        try:
            found.append(_product(ctx, c, f"codes.{i}"))
        except NotFound:
            missing.append(_normal(c, f"codes.{i}"))
    return BulkProducts(found=found, not_found=missing)


@service.tool(intent="check a barcode number", open_world=True, example=fixed_example(code="4006381333931"))
def validate_code(ctx: Ctx, code: Gtin) -> CodeCheck:
    """Check a barcode's length and check digit and say which GS1 organisation issued it.

    Args:
        code: The number.
    """
    raw = code.replace(" ", "").replace("-", "")
    norm = _normal(code)
    country, issuer = _gs1(norm)
    fmt = {8: "GTIN-8", 12: "UPC-A", 13: "EAN-13", 14: "GTIN-14"}[len(raw)]
    return CodeCheck(code=raw, normalized=norm, format=fmt, check_digit=raw[-1], gs1_prefix=norm[:3],
                     gs1_country=country, issuer=issuer)  # fmt: skip


def _all(ctx: Ctx) -> list[ProductInfo]:
    return list(_home_products(ctx).values()) + list(_catalog(ctx.population.seed).values())


@service.tool(intent="search products", open_world=True, example=fixed_example(category="breakfast-cereals"))
def search_products(
    ctx: Ctx, query: str = "", brand: str | None = None, category: str | None = None,
    nutriscore_grade: Grade | None = None, without_allergen: Allergen | None = None,
) -> ProductPage:  # fmt: skip
    """Search the known catalogue by words of the name, brand, category, Nutri-Score or an allergen to avoid.

    Args:
        query: Words that must all appear in the name (case-insensitive).
        brand: Only this brand.
        category: Only this category tag (breakfast-cereals, with or without en:).
        nutriscore_grade: Only this grade.
        without_allergen: Only products that neither contain it nor may contain traces of it.
    """
    words = query.lower().split()
    tag = None if category is None else category.removeprefix("en:")
    found = [p for p in _all(ctx) if all(w in p.product_name.lower() for w in words)
             and (brand is None or p.brands.lower() == brand.lower())
             and (tag is None or tag in {t.removeprefix("en:") for t in p.categories_tags})
             and (nutriscore_grade is None or p.nutriscore_grade == nutriscore_grade)
             and (without_allergen is None or without_allergen not in p.allergens_tags + p.traces_tags)]  # fmt: skip
    return ProductPage(count=len(found), products=sorted(found, key=lambda p: p.code))


@service.tool(intent="list product categories", open_world=True)
def list_categories(ctx: Ctx) -> list[Category]:
    """The food categories with how many known products each has."""
    counts: dict[str, int] = {}
    for p in _all(ctx):
        for t in p.categories_tags:
            counts[t] = counts.get(t, 0) + 1
    return [Category(tag=f"en:{c.tag}", products=counts.get(f"en:{c.tag}", 0), beverage=c.beverage) for c in _CATS]


def _example_compare(ctx: Ctx) -> dict[str, Any]:
    codes = list(_catalog(ctx.population.seed))
    return {"first_code": codes[0], "second_code": codes[1]}


@service.tool(intent="compare two products", open_world=True, example=_example_compare)
def compare_products(ctx: Ctx, first_code: Gtin, second_code: Gtin) -> Comparison:
    """Two products side by side: nutriment differences per 100 g/ml and which scores better.

    Args:
        first_code: The first barcode.
        second_code: The second barcode.
    """
    a, b = _product(ctx, first_code, "first_code"), _product(ctx, second_code, "second_code")
    if a.code == b.code:
        raise RuleViolation("both codes are the same product", field="second_code", hint="compare two products")
    diff: dict[str, float] = {}
    if a.nutriments is not None and b.nutriments is not None:
        x, y = a.nutriments.model_dump(), b.nutriments.model_dump()
        diff = {k: round(x[k] - y[k], 2) for k in x}
    better = None
    if a.nutriscore_score is not None and b.nutriscore_score is not None and a.nutriscore_score != b.nutriscore_score:
        better = a.code if a.nutriscore_score < b.nutriscore_score else b.code
    return Comparison(first=a, second=b, better=better, differences=diff)


# -- diet policies ------------------------------------------------------------------------------------------


class Policy(Timestamped):
    """A diet policy: what products bought for a place (a cafeteria, a vending machine, an event) must meet."""

    id: PolicyId
    name: Title
    """Its name (unique)."""
    avoid_allergens: tuple[Allergen, ...] = ()
    """Allergens no approved product may contain."""
    avoid_traces: bool = False
    """Also refuse products that may contain traces of them."""
    worst_grade: Grade = "e"
    """The worst Nutri-Score allowed."""
    food_only: bool = True
    """Only food and drink may be approved."""
    owner_email: Email
    """The employee responsible."""
    notes: Text = ""
    """Free notes."""


class Approval(Timestamped):
    """A product approved under a policy."""

    id: ApprovalId
    policy_id: PolicyId
    """The policy."""
    code: Gtin
    """The product's barcode (EAN-13)."""
    product_name: Title
    """Its name when approved."""
    brands: str
    """Its brand."""
    nutriscore_grade: Grade | None = None
    """Its Nutri-Score."""
    approved_by: Email
    """The employee who approved it."""
    status: ApprovalStatus = "active"
    """active, flagged (the policy no longer allows it) or revoked."""
    flag_reason: Text = ""
    """Why it was flagged."""


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if len(set(new.avoid_allergens)) != len(new.avoid_allergens):
        raise RuleViolation("an allergen is listed twice", field="avoid_allergens", hint="list each once")


def _guard_policy_delete(ctx: Ctx, new: Any, old: Any) -> None:
    live = [a for a in ctx.where(Approval, policy_id=old.id) if a.status != "revoked"]
    if live:
        raise Conflict(f"policy {old.name} still has {len(live)} approved products", field="policy_id",
                       hint="revoke its approvals first (barcodes__revoke_approval)")  # fmt: skip
    for a in ctx.where(Approval, policy_id=old.id):
        ctx.delete(a)


policies = service.resource(
    Policy, name="policy", plural="policies", prefix="pol",
    create=("name", "avoid_allergens", "avoid_traces", "worst_grade", "food_only", "owner_email", "notes"),
    filters=("owner_email", "worst_grade"), search=("name", "notes"),
    update=("name", "avoid_allergens", "avoid_traces", "worst_grade", "owner_email", "notes"), unique=("name",),
    guard_create=_guard_policy, guard_update=_guard_policy, guard_delete=_guard_policy_delete, title="diet policy",
)  # fmt: skip
approvals = service.resource(
    Approval, name="approval", plural="approvals", prefix="apv", create=False, delete=False,
    filters=("policy_id", "code", "status", "approved_by", "nutriscore_grade"), search=("product_name", "brands"),
    transitions={"revoke": Transition("status", ("active", "flagged"), "revoked", "revoke the product approval")},
    title="product approval",
)  # fmt: skip


def _breaks(policy: Policy, p: ProductInfo) -> list[str]:
    out = []
    if policy.food_only and not p.is_food:
        out.append("not a food or drink")
    hit = sorted(set(policy.avoid_allergens) & set(p.allergens_tags))
    if hit:
        out.append(f"contains {', '.join(hit)}")
    traces = sorted(set(policy.avoid_allergens) & set(p.traces_tags))
    if policy.avoid_traces and traces:
        out.append(f"may contain traces of {', '.join(traces)}")
    if p.nutriscore_grade is not None and GRADES.index(p.nutriscore_grade) > GRADES.index(policy.worst_grade):
        out.append(f"Nutri-Score {p.nutriscore_grade.upper()} is worse than {policy.worst_grade.upper()}")
    return out


def _example_check(ctx: Ctx) -> dict[str, Any] | None:
    pol = ctx.first(Policy)
    return None if pol is None else {"policy_id": pol.id, **_example_code(ctx)}


@service.tool(intent="check a product against a diet policy", example=_example_check)
def check_product(ctx: Ctx, policy_id: PolicyId, code: Gtin) -> PolicyCheck:
    """Whether a product fits a policy, and which rules it breaks.

    Args:
        policy_id: The policy.
        code: The product's barcode.
    """
    pol = ctx.get(Policy, policy_id, field="policy_id")
    p = _product(ctx, code)
    reasons = _breaks(pol, p)
    return PolicyCheck(code=p.code, policy_id=pol.id, allowed=not reasons, reasons=reasons)


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for pol in ctx.scan(Policy):
        for p in _catalog(ctx.population.seed).values():
            if not _breaks(pol, p) and ctx.first(Approval, policy_id=pol.id, code=p.code) is None:
                return {"policy_id": pol.id, "code": p.code, "approved_by": pol.owner_email}
    return None


@service.tool(intent="approve a product under a diet policy", write=True, example=_example_approve)
def approve_product(ctx: Ctx, policy_id: PolicyId, code: Gtin, approved_by: Email) -> Approval:
    """Approve a product for a policy; refused when it breaks the policy or is already approved there.

    Args:
        policy_id: The policy.
        code: The product's barcode.
        approved_by: The employee approving.
    """
    pol = ctx.get(Policy, policy_id, field="policy_id")
    p = _product(ctx, code)
    _staff(ctx, approved_by, "approved_by")
    reasons = _breaks(pol, p)
    if reasons:
        raise RuleViolation(f"{p.product_name} does not fit {pol.name}: {'; '.join(reasons)}", field="code",
                            hint="pick another product (barcodes__suggest_alternatives finds ones that fit)")  # fmt: skip
    for a in ctx.where(Approval, policy_id=pol.id, code=p.code):
        if a.status != "revoked":
            raise Conflict(f"{p.product_name} is already approved under {pol.name} ({a.id})", field="code",
                           hint="nothing to do")  # fmt: skip
    return ctx.create(Approval, policy_id=pol.id, code=p.code, product_name=p.product_name, brands=p.brands,
                      nutriscore_grade=p.nutriscore_grade, approved_by=approved_by)  # fmt: skip


@service.tool(intent="re-check a policy's approved products", write=True,
              example=first_example(Policy, "policy_id"))  # fmt: skip
def recheck_policy(ctx: Ctx, policy_id: PolicyId) -> list[Approval]:
    """Re-check every active approval of a policy against its current rules; flags (and returns) those that fail.

    Args:
        policy_id: The policy.
    """
    pol = ctx.get(Policy, policy_id, field="policy_id")
    flagged = []
    for a in ctx.where(Approval, policy_id=pol.id, status="active"):
        reasons = _breaks(pol, _product(ctx, a.code))
        if reasons:
            flagged.append(ctx.update(a, status="flagged", flag_reason="; ".join(reasons)))
    return flagged


@service.tool(intent="find healthier alternatives that fit a policy", example=_example_check)
def suggest_alternatives(ctx: Ctx, policy_id: PolicyId, code: Gtin) -> ProductPage:
    """Products of the same category that fit the policy and score at least as well, best first.

    Args:
        policy_id: The policy.
        code: The product to replace.
    """
    pol = ctx.get(Policy, policy_id, field="policy_id")
    p = _product(ctx, code)
    if not p.is_food or p.nutriscore_score is None:
        raise RuleViolation(f"{p.product_name} is not food", field="code", hint="alternatives exist for food only")
    score = p.nutriscore_score
    found = [q for q in _all(ctx) if q.code != p.code and q.categories_tags == p.categories_tags
             and q.nutriscore_score is not None and q.nutriscore_score <= score and not _breaks(pol, q)]  # fmt: skip
    found.sort(key=lambda q: (q.nutriscore_score or 0, q.code))
    return ProductPage(count=len(found), products=found)


def _example_reinstate(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Approval, status="flagged"):
        pol = ctx.get(Policy, a.policy_id)
        if not _breaks(pol, _product(ctx, a.code)):
            return {"approval_id": a.id}
    return None


@service.tool(intent="reinstate a flagged product approval", write=True, example=_example_reinstate)
def reinstate_approval(ctx: Ctx, approval_id: ApprovalId) -> Approval:
    """Make a flagged approval active again, once the product fits its policy again (the policy was relaxed).

    Args:
        approval_id: The flagged approval.
    """
    a = ctx.get(Approval, approval_id, field="approval_id")
    if a.status != "flagged":
        raise RuleViolation(f"approval {a.id} is {a.status}, not flagged", field="approval_id",
                            hint="only flagged approvals are reinstated; approve the product again instead")  # fmt: skip
    reasons = _breaks(ctx.get(Policy, a.policy_id), _product(ctx, a.code))
    if reasons:
        raise RuleViolation(f"{a.product_name} still does not fit: {'; '.join(reasons)}", field="approval_id",
                            hint="change the policy first, or revoke the approval")  # fmt: skip
    return ctx.update(a, status="active", flag_reason="")


class Score(BaseModel):
    """A computed Nutri-Score."""

    nutriscore_score: int = Field(description="Points (lower is better).")
    nutriscore_grade: Grade = Field(description="a (best) to e.")


@service.tool(
    intent="compute a Nutri-Score",
    example=fixed_example(nutriments={"energy_kcal": 450, "fat": 20, "saturated_fat": 9, "carbohydrates": 60,
                                      "sugars": 30, "fiber": 2, "proteins": 6, "salt": 0.5,
                                      "fruits_vegetables_nuts_pct": 0}),
)  # fmt: skip
def compute_nutriscore(ctx: Ctx, nutriments: Nutriments, beverage: bool = False) -> Score:
    """Compute the Nutri-Score (2017 algorithm) of any food from its nutriments per 100 g or 100 ml.

    Args:
        nutriments: Energy, fat, saturated fat, carbohydrates, sugars, fibre, protein, salt, fruit and vegetables.
        beverage: Score it as a drink.
    """
    for name, value in nutriments.model_dump().items():
        if value < 0:
            raise RuleViolation(f"{name} is negative", field=f"nutriments.{name}", hint="give amounts of 0 or more")
    if nutriments.saturated_fat > nutriments.fat or nutriments.sugars > nutriments.carbohydrates:
        raise RuleViolation("saturated fat exceeds fat or sugars exceed carbohydrates", field="nutriments",
                            hint="saturated fat is part of fat and sugars part of carbohydrates")  # fmt: skip
    points, grade = nutri_score(nutriments, beverage)
    return Score(nutriscore_score=points, nutriscore_grade=grade)


@service.tool(intent="compute the check digit of a barcode", example=fixed_example(digits="400638133393"))
def check_digit_for(ctx: Ctx, digits: Annotated[str, StringConstraints(pattern=r"^\d{7}$|^\d{11,13}$")]) -> CodeCheck:
    """Complete a barcode: append the GS1 check digit to 7, 11, 12 or 13 digits and describe the result.

    Args:
        digits: The digits without their check digit.
    """
    return validate_code(ctx, gtin_of(digits))


# -- seed ----------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Cafeteria, vending and event policies with approved products, one approval flagged after a policy change."""
    pop = s.population
    ops = pop.staff("Operations", "People", fallback=3)
    catalog = list(_catalog(pop.seed).values())
    made = [
        s.create(Policy, name="Staff cafeteria", avoid_allergens=("nuts", "peanuts"), avoid_traces=True, worst_grade="c",
                 owner_email=ops[0].email, notes="Nut-free site since 2024.", created_at=s.ago(days=200), updated_at=s.ago(days=3)),
        s.create(Policy, name="Vending machines", avoid_allergens=(), worst_grade="d", owner_email=ops[1 % len(ops)].email,
                 created_at=s.ago(days=150), updated_at=s.ago(days=40)),
        s.create(Policy, name="Client events", avoid_allergens=("gluten", "milk"), worst_grade="e",
                 owner_email=ops[2 % len(ops)].email, notes="Gluten- and dairy-free catering.",
                 created_at=s.ago(days=90), updated_at=s.ago(days=90)),
        s.create(Policy, name="Summer party 2025", avoid_allergens=("peanuts",), worst_grade="d",
                 owner_email=ops[0].email, notes="Done; kept for the record.", created_at=s.ago(days=250),
                 updated_at=s.ago(days=180)),
    ]  # fmt: skip
    for k, pol in enumerate(made):
        fits = [p for p in catalog if not _breaks(pol, p)][:4]
        for j, p in enumerate(fits):
            s.create(Approval, policy_id=pol.id, code=p.code, product_name=p.product_name, brands=p.brands,
                     nutriscore_grade=p.nutriscore_grade, approved_by=pol.owner_email,
                     status="revoked" if (k, j) == (1, 3) or k == 3 else "active", created_at=s.ago(days=30 + j),
                     updated_at=s.ago(days=30 + j))  # fmt: skip
    # The cafeteria policy was tightened from D to C three days ago: a D product approved before is flagged.
    older = next((p for p in catalog if p.nutriscore_grade == "d" and not _breaks(made[1], p)
                  and set(p.allergens_tags + p.traces_tags).isdisjoint({"nuts", "peanuts"})), None)  # fmt: skip
    if older is not None:
        s.create(Approval, policy_id=made[0].id, code=older.code, product_name=older.product_name, brands=older.brands,
                 nutriscore_grade=older.nutriscore_grade, approved_by=made[0].owner_email, status="flagged",
                 flag_reason="Nutri-Score D is worse than C", created_at=s.ago(days=60), updated_at=s.ago(days=3))  # fmt: skip
    # Vending went from C to D forty days ago: the approval flagged under C can be reinstated.
    relaxed = next((p for p in catalog if p.nutriscore_grade == "d" and p != older and not _breaks(made[1], p)), None)
    if relaxed is not None:
        s.create(Approval, policy_id=made[1].id, code=relaxed.code, product_name=relaxed.product_name,
                 brands=relaxed.brands, nutriscore_grade="d", approved_by=made[1].owner_email, status="flagged",
                 flag_reason="Nutri-Score D is worse than C", created_at=s.ago(days=80), updated_at=s.ago(days=50))  # fmt: skip
