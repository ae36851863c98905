"""Wayfinder Help Center: drafts and publishing, outdated translations, votes, attachments, search."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

KB = ServiceTools("knowledgebase")
WORLD = KB.world
ok, refused, every = KB.ok, KB.refused, KB.every
POP = WORLD.population
WRITER = next(p.email for p in POP.employees if p.department == "Support")
READER = POP.consumers[0].email


def section(ep: Episode, name: str) -> dict[str, Any]:
    return next(s for s in every(ep, "list_sections") if s["name"] == name)


def draft(ep: Episode, body: str = "Hold the button for five seconds.", title: str = "Pair a device") -> dict[str, Any]:
    sec = section(ep, "Your account")["id"]
    return dict(ok(ep, "create_article", section_id=sec, title=title, author_email=WRITER, body=body))


def published(ep: Episode) -> dict[str, Any]:
    art = draft(ep, title="Pair a headset")
    return dict(ok(ep, "publish_article", article_id=art["id"]))


# -- the world --------------------------------------------------------------------------------


def test_product_articles_are_about_the_worlds_products_and_votes_add_up() -> None:
    ep = Episode(WORLD)
    products = {p.sku: p for p in POP.products}
    support = {p.email for p in POP.employees if p.department == "Support"}
    arts = every(ep, "list_articles")
    assert all(a["author_email"] in support for a in arts)
    about = [a for a in arts if a["product_skus"]]
    assert about
    for art in about:
        assert all(products[sku].name in art["title"] for sku in art["product_skus"])
    for art in arts:
        votes = every(ep, "list_votes", article_id=art["id"])
        assert (art["vote_count"], art["vote_sum"]) == (len(votes), sum(v["value"] for v in votes))
        assert art["html_url"].startswith("https://help.wayfinder.example/hc/en-us/articles/")


# -- articles ---------------------------------------------------------------------------------


def test_articles_are_written_by_staff_as_drafts_under_unique_titles(ep: Episode) -> None:
    sec = section(ep, "Your account")["id"]
    refused(ep, "create_article", "rule_violation", "author_email", section_id=sec, title="Hi", author_email=READER)
    refused(ep, "create_article", "conflict", "title", section_id=sec, title="reset your password", author_email=WRITER)
    art = draft(ep)
    assert art["draft"] and art["published_at"] is None
    assert art["html_url"].endswith(f"{art['id'].split('_')[-1]}-pair-a-device")


def test_only_an_article_with_a_body_is_published(ep: Episode) -> None:
    empty = draft(ep, body="")
    refused(ep, "publish_article", "rule_violation", "article_id", article_id=empty["id"])
    ok(ep, "update_article", article_id=empty["id"], body="Hold the button.")
    live = ok(ep, "publish_article", article_id=empty["id"])
    assert live["draft"] is False and live["published_at"] is not None
    refused(ep, "publish_article", "conflict", "article_id", article_id=empty["id"])


def test_moving_an_article_keeps_titles_unique(ep: Episode) -> None:
    art = draft(ep)
    delivery = section(ep, "Delivery")["id"]
    ok(ep, "create_article", section_id=delivery, title="Pair a device", author_email=WRITER)
    refused(ep, "move_article", "conflict", "section_id", article_id=art["id"], section_id=delivery)
    refused(ep, "move_article", "rule_violation", "section_id", article_id=art["id"], section_id=art["section_id"])
    assert (
        ok(ep, "move_article", article_id=art["id"], section_id=section(ep, "Payments")["id"])["section_id"]
        != art["section_id"]
    )


# -- translations -----------------------------------------------------------------------------


def test_translations_use_enabled_languages_once_each(ep: Episode) -> None:
    art = draft(ep)
    args = dict(article_id=art["id"], title="Gerät koppeln", body="Taste fünf Sekunden halten.")
    refused(ep, "add_translation", "rule_violation", "locale", locale="en", **args)
    refused(ep, "add_translation", "rule_violation", "locale", locale="zh", **args)
    tr = ok(ep, "add_translation", locale="de", **args)
    refused(ep, "add_translation", "conflict", "locale", locale="de", **args)
    refused(ep, "publish_translation", "rule_violation", "translation_id", translation_id=tr["id"])
    ok(ep, "publish_article", article_id=art["id"])
    assert ok(ep, "publish_translation", translation_id=tr["id"])["draft"] is False


def test_editing_the_source_outdates_its_translations(ep: Episode) -> None:
    art = published(ep)
    tr = ok(ep, "add_translation", article_id=art["id"], locale="fr", title="Associer", body="Maintenez le bouton.")
    ok(ep, "update_article", article_id=art["id"], body="Press and hold the button for ten seconds.")
    assert every(ep, "list_translations", article_id=art["id"])[0]["outdated"] is True
    msg = refused(ep, "publish_translation", "rule_violation", "translation_id", translation_id=tr["id"])
    assert "outdated" in msg
    fixed = ok(ep, "update_translation", translation_id=tr["id"], body="Maintenez le bouton dix secondes.")
    assert fixed["outdated"] is False
    ok(ep, "publish_translation", translation_id=tr["id"])
    ok(ep, "unpublish_article", article_id=art["id"])
    assert every(ep, "list_translations", article_id=art["id"])[0]["draft"] is True


# -- votes and files --------------------------------------------------------------------------


def test_one_vote_per_person_and_only_on_published_articles(ep: Episode) -> None:
    refused(ep, "vote_article", "rule_violation", "article_id", article_id=draft(ep)["id"], user_email=READER, up=True)
    art = published(ep)
    up = ok(ep, "vote_article", article_id=art["id"], user_email=READER, up=True)
    assert (up["vote_sum"], up["vote_count"]) == (1, 1)
    assert ok(ep, "vote_article", article_id=art["id"], user_email=READER, up=True)["vote_sum"] == 1
    down = ok(ep, "vote_article", article_id=art["id"], user_email=READER, up=False)
    assert (down["vote_sum"], down["vote_count"]) == (-1, 1)
    other = ok(ep, "vote_article", article_id=art["id"], user_email=POP.consumers[1].email, up=True)
    assert (other["vote_sum"], other["vote_count"]) == (0, 2)


def test_attachment_limits(ep: Episode) -> None:
    art = draft(ep)
    base = dict(article_id=art["id"], content_url="https://files.wayfinder.example/att/x.pdf")
    refused(
        ep,
        "add_attachment",
        "rule_violation",
        "size",
        file_name="big.mp4",
        content_type="video/mp4",
        size=30_000_000,
        **base,
    )
    refused(
        ep,
        "add_attachment",
        "rule_violation",
        "inline",
        file_name="guide.pdf",
        content_type="application/pdf",
        size=1000,
        inline=True,
        **base,
    )
    ok(ep, "add_attachment", file_name="guide.pdf", content_type="application/pdf", size=1000, **base)
    refused(
        ep,
        "add_attachment",
        "conflict",
        "file_name",
        file_name="guide.pdf",
        content_type="application/pdf",
        size=2000,
        **base,
    )
    shown = next(
        a
        for a in every(ep, "list_attachments", inline=True)
        if not ok(ep, "get_article", article_id=a["article_id"])["draft"]
    )
    refused(ep, "delete_attachment", "rule_violation", "attachment_id", attachment_id=shown["id"])


# -- sections ---------------------------------------------------------------------------------


def test_sections_nest_once_within_their_category_and_are_deleted_only_empty(ep: Episode) -> None:
    delivery = section(ep, "Delivery")
    refused(ep, "delete_section", "rule_violation", "section_id", section_id=delivery["id"])
    trouble = section(ep, "Troubleshooting")
    refused(
        ep,
        "create_section",
        "rule_violation",
        "parent_section_id",
        category_id=trouble["category_id"],
        parent_section_id=trouble["id"],
        name="Deep",
    )
    refused(
        ep,
        "create_section",
        "rule_violation",
        "parent_section_id",
        category_id=delivery["category_id"],
        parent_section_id=trouble["parent_section_id"],
        name="Elsewhere",
    )
    refused(ep, "create_section", "conflict", "name", category_id=delivery["category_id"], name="delivery")
    empty = section(ep, "Discontinued products")
    ok(ep, "delete_section", section_id=empty["id"])
    assert all(s["id"] != empty["id"] for s in every(ep, "list_sections"))


# -- search -----------------------------------------------------------------------------------


def test_search_finds_published_articles_by_words_product_and_language() -> None:
    ep = Episode(WORLD)
    refused(ep, "search_articles", "rule_violation", "query")
    live = {a["id"]: a for a in every(ep, "list_articles", draft=False)}
    hits = ok(ep, "search_articles", query="days")
    expected = {a["id"] for a in live.values() if "days" in f"{a['title']} {a['body']}".casefold()}
    assert hits and {h["article_id"] for h in hits} == expected
    promoted = [h for h in hits if live[h["article_id"]]["promoted"]]
    assert hits[: len(promoted)] == promoted
    sku_article = next(a for a in live.values() if a["product_skus"])
    sku = sku_article["product_skus"][0]
    by_sku = ok(ep, "search_articles", sku=sku)
    assert sku_article["id"] in {h["article_id"] for h in by_sku} and all(sku in h["product_skus"] for h in by_sku)
    german = ok(ep, "search_articles", query="Anleitung", locale="de")
    published_de = {t["article_id"]: t for t in every(ep, "list_translations", locale="de", draft=False)}
    assert {h["article_id"] for h in german} == {a for a in published_de if a in live}
    assert all(h["title"] == published_de[h["article_id"]]["title"] for h in german)
    drafts = {a["id"] for a in every(ep, "list_articles", draft=True)}
    assert not drafts & {h["article_id"] for h in ok(ep, "search_articles", label="setup")}
