"""Quillstack CMS: version-locked edits, typed localized fields, publish rules, snapshots and fallbacks."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CMS = ServiceTools("cms")
WORLD = CMS.world
ok, refused, every = CMS.ok, CMS.refused, CMS.every
POP = WORLD.population


def ctype(ep: Episode, api_id: str) -> dict[str, Any]:
    return CMS.first(ep, "content_types", api_id=api_id)


def value(entry: dict[str, Any], field: str, locale: str = "en", snapshot: bool = False) -> dict[str, Any] | None:
    values = entry["published_fields"] if snapshot else entry["fields"]
    return next((v for v in values if v["field"] == field and v["locale"] == locale), None)


def new_post(ep: Episode, **fields: Any) -> dict[str, Any]:
    author = every(ep, "list_entries", content_type_id=ctype(ep, "author")["id"], status="published")[0]
    return dict(
        ok(
            ep,
            "create_entry",
            content_type_id=ctype(ep, "blog_post")["id"],
            slug="launch-news",
            author_email=author["author_email"],
            fields=[
                {"field": "title", "locale": "en", "text": "Launch news"},
                {"field": "author", "locale": "en", "entry_id": author["id"]},
                *[{"field": k, "locale": "en", **v} for k, v in fields.items()],
            ],
        )
    )


# -- the world ------------------------------------------------------------------------------------


def test_product_pages_carry_the_catalogs_skus_and_prices_and_authors_are_staff() -> None:
    ep = Episode(WORLD)
    products = {p.sku: p for p in POP.products}
    pages = every(ep, "list_entries", content_type_id=ctype(ep, "product_page")["id"])
    assert pages
    for page in pages:
        sku = value(page, "sku")
        assert sku is not None and sku["sku"] in products
        product = products[sku["sku"]]
        assert value(page, "name")["text"] == page["title"] == product.name
        if page["status"] == "published":
            assert value(page, "price", snapshot=True)["number"] == product.price_cents / 100
    staff = {p.email: p for p in POP.employees}
    for author in every(ep, "list_entries", content_type_id=ctype(ep, "author")["id"]):
        assert value(author, "email")["email"] in staff


def test_published_entries_link_only_to_published_things() -> None:
    ep = Episode(WORLD)
    for entry in every(ep, "list_entries"):
        if entry["status"] not in ("published", "changed"):
            continue
        assert entry["published_version"] < entry["version"]
        for v in entry["published_fields"]:
            if v["asset_id"]:
                assert ok(ep, "get_asset", asset_id=v["asset_id"])["status"] == "published"
            if v["entry_id"]:
                assert ok(ep, "get_entry", entry_id=v["entry_id"])["status"] in ("published", "changed")


# -- editing --------------------------------------------------------------------------------------


def test_edits_name_the_current_version(ep: Episode) -> None:
    post = new_post(ep, body={"text": "Draft body"})
    assert post["version"] == 1 and post["title"] == "Launch news"
    args = {"entry_id": post["id"], "field": "title", "locale": "en", "text": "Big launch"}
    edited = ok(ep, "set_entry_field", version=1, **args)
    assert (edited["version"], edited["title"]) == (2, "Big launch")
    msg = refused(ep, "set_entry_field", "conflict", "version", version=1, **{**args, "text": "Stale"})
    assert "version 2" in msg


def test_values_match_their_field_type_and_localization(ep: Episode) -> None:
    post = new_post(ep)
    base = {"entry_id": post["id"], "version": post["version"]}
    refused(ep, "set_entry_field", "rule_violation", "number", **base, field="title", locale="en", number=3)
    refused(ep, "set_entry_field", "rule_violation", "field", **base, field="subtitle", locale="en", text="x")
    refused(
        ep, "set_entry_field", "rule_violation", "locale", **base, field="publish_date", locale="de", date="2026-03-01"
    )
    refused(ep, "set_entry_field", "rule_violation", "locale", **base, field="title", locale="it", text="Ciao")
    refused(
        ep,
        "set_entry_field",
        "rule_violation",
        "linked_entry_id",
        **base,
        field="author",
        locale="en",
        linked_entry_id=post["id"],
    )
    de = ok(ep, "set_entry_field", **base, field="title", locale="de", text="Neuigkeiten")
    assert value(de, "title", "de")["text"] == "Neuigkeiten"
    cleared = ok(ep, "set_entry_field", entry_id=post["id"], version=de["version"], field="title", locale="de")
    assert value(cleared, "title", "de") is None


# -- publishing -----------------------------------------------------------------------------------


def test_publishing_needs_required_fields_and_published_links(ep: Episode) -> None:
    draft_image = next(a for a in every(ep, "list_assets", status="draft"))
    post = new_post(ep, hero_image={"asset_id": draft_image["id"]})
    msg = refused(ep, "publish_entry", "rule_violation", "entry_id", entry_id=post["id"], version=post["version"])
    assert "body" in msg
    post = ok(
        ep, "set_entry_field", entry_id=post["id"], version=post["version"], field="body", locale="en", text="Hello"
    )
    msg = refused(ep, "publish_entry", "rule_violation", "entry_id", entry_id=post["id"], version=post["version"])
    assert "asset" in msg
    ok(ep, "publish_asset", asset_id=draft_image["id"])
    refused(ep, "publish_entry", "conflict", "version", entry_id=post["id"], version=post["version"] - 1)
    published = ok(ep, "publish_entry", entry_id=post["id"], version=post["version"])
    assert published["status"] == "published" and published["published_version"] == post["version"]
    assert published["version"] == post["version"] + 1 and published["first_published_at"] is not None
    refused(ep, "publish_entry", "rule_violation", "entry_id", entry_id=post["id"], version=published["version"])


def test_a_changed_entry_keeps_serving_its_published_snapshot(ep: Episode) -> None:
    page = every(ep, "list_entries", content_type_id=ctype(ep, "product_page")["id"], status="published")[0]
    old_price = value(page, "price")["number"]
    edited = ok(
        ep, "set_entry_field", entry_id=page["id"], version=page["version"], field="price", locale="en", number=1.5
    )
    assert edited["status"] == "changed"
    live = {f["field"]: f for f in ok(ep, "render_entry", entry_id=page["id"], locale="en")["fields"]}
    assert live["price"]["number"] == old_price
    draft = {f["field"]: f for f in ok(ep, "render_entry", entry_id=page["id"], locale="en", preview=True)["fields"]}
    assert draft["price"]["number"] == 1.5
    ok(ep, "publish_entry", entry_id=page["id"], version=edited["version"])
    live = {f["field"]: f for f in ok(ep, "render_entry", entry_id=page["id"], locale="en")["fields"]}
    assert live["price"]["number"] == 1.5


def test_delivery_follows_the_locale_fallback_chain(ep: Episode) -> None:
    locales = {loc["code"]: loc for loc in every(ep, "list_locales")}
    assert locales["es"]["fallback_code"] == "fr" and locales["fr"]["fallback_code"] == "en"
    page = next(
        p
        for p in every(ep, "list_entries", content_type_id=ctype(ep, "product_page")["id"], status="published")
        if value(p, "name", "fr", snapshot=True)
    )
    for code, source in (("es", "fr"), ("fr", "fr"), ("de", "en")):
        names = [f for f in ok(ep, "render_entry", entry_id=page["id"], locale=code)["fields"] if f["field"] == "name"]
        expected = "de" if code == "de" and value(page, "name", "de", snapshot=True) else source
        assert names[0]["locale"] == expected and names[0]["requested_locale"] == code
    draft = every(ep, "list_entries", status="draft")[0]
    refused(ep, "render_entry", "not_found", "entry_id", entry_id=draft["id"], locale="en")
    refused(ep, "render_entry", "not_found", "locale", entry_id=page["id"], locale="it")


def test_a_linked_entry_cannot_be_unpublished_and_only_drafts_archive(ep: Episode) -> None:
    post = next(
        p for p in every(ep, "list_entries", content_type_id=ctype(ep, "blog_post")["id"]) if p["status"] == "published"
    )
    author_id = value(post, "author", snapshot=True)["entry_id"]
    msg = refused(ep, "unpublish_entry", "rule_violation", "entry_id", entry_id=author_id)
    assert post["id"] in msg
    refused(ep, "archive_entry", "rule_violation", "entry_id", entry_id=post["id"])
    refused(ep, "delete_entry", "rule_violation", "entry_id", entry_id=post["id"])
    back = ok(ep, "unpublish_entry", entry_id=post["id"])
    assert back["status"] == "draft" and back["published_fields"] == []
    archived = ok(ep, "archive_entry", entry_id=post["id"])
    refused(
        ep,
        "set_entry_field",
        "rule_violation",
        "entry_id",
        entry_id=post["id"],
        version=archived["version"],
        field="title",
        locale="en",
        text="x",
    )
    ok(ep, "unarchive_entry", entry_id=post["id"])
    ok(ep, "delete_entry", entry_id=post["id"])


# -- locales, types and assets --------------------------------------------------------------------


def test_locale_rules(ep: Episode) -> None:
    default = every(ep, "list_locales", default=True)[0]
    refused(ep, "delete_locale", "rule_violation", "locale_id", locale_id=default["id"])
    fr = next(loc for loc in every(ep, "list_locales") if loc["code"] == "fr")
    refused(ep, "delete_locale", "rule_violation", "locale_id", locale_id=fr["id"])
    refused(ep, "create_locale", "conflict", "code", code="de", name="German again")
    refused(ep, "create_locale", "rule_violation", "fallback_code", code="it", name="Italian", fallback_code="pt")
    refused(ep, "update_locale", "rule_violation", "fallback_code", locale_id=fr["id"], fallback_code="es")
    it = ok(ep, "create_locale", code="it", name="Italian", fallback_code="fr")
    ok(ep, "delete_locale", locale_id=it["id"])


def test_content_types_and_assets_in_use_stay(ep: Episode) -> None:
    refused(ep, "delete_content_type", "rule_violation", "content_type_id", content_type_id=ctype(ep, "author")["id"])
    refused(
        ep,
        "create_content_type",
        "rule_violation",
        "display_field",
        name="Event",
        api_id="event",
        fields=[{"name": "when", "type": "date"}],
        display_field="when",
    )
    refused(
        ep,
        "create_content_type",
        "conflict",
        "api_id",
        name="Authors 2",
        api_id="author",
        fields=[{"name": "name", "type": "text"}],
        display_field="name",
    )
    unused = ctype(ep, "landingPage")
    ok(ep, "delete_content_type", content_type_id=unused["id"])
    published = every(ep, "list_assets", status="published")[0]
    refused(ep, "delete_asset", "rule_violation", "asset_id", asset_id=published["id"])
    linked_draft = next(
        a
        for a in every(ep, "list_assets", status="draft")
        if any(v["asset_id"] == a["id"] for e in every(ep, "list_entries") for v in e["fields"])
    )
    refused(ep, "delete_asset", "rule_violation", "asset_id", asset_id=linked_draft["id"])
