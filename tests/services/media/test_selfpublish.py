"""Inkwell Press: formats and ISBNs, publishing, store distribution, promotions, sales and royalties."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from tests.services.helpers import ServiceTools

PUB = ServiceTools("selfpublish")
WORLD = PUB.world
ok, refused, every = PUB.ok, PUB.refused, PUB.every
TODAY = WORLD.epoch.date()
EMAILS = {p.email for p in WORLD.population.people}


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def isbn(stem: str) -> str:
    body = stem[:12]
    total = sum(int(c) * (1 if k % 2 == 0 else 3) for k, c in enumerate(body))
    return body + str((10 - total % 10) % 10)


def test_seeded_authors_are_people_of_the_world_and_books_cover_every_state(ep: Episode) -> None:
    authors = every(ep, "list_authors")
    assert authors and all(a["email"] in EMAILS for a in authors)
    assert {b["status"] for b in every(ep, "list_books")} == {"draft", "published", "unpublished"}
    for b in every(ep, "list_books", status="unpublished"):
        assert {d["status"] for d in every(ep, "list_distributions", book_id=b["id"])} == {"removed"}


def test_a_format_needs_a_valid_unique_isbn_and_one_per_kind(ep: Episode) -> None:
    draft = every(ep, "list_books", status="draft")[0]
    used = every(ep, "list_formats")[0]["isbn"]
    good = isbn("979888000001")
    bad = good[:-1] + str((int(good[-1]) + 1) % 10)
    args = {"book_id": draft["id"], "kind": "hardcover", "list_price": 2999}
    refused(ep, "add_format", "rule_violation", "isbn", isbn=bad, **args)
    refused(ep, "add_format", "conflict", "isbn", isbn=used, **args)
    refused(ep, "add_format", "rule_violation", "list_price", isbn=good, **(args | {"list_price": 199}))
    made = ok(ep, "add_format", isbn=good, **args)
    assert made["kind"] == "hardcover"
    refused(ep, "add_format", "conflict", "kind", isbn=isbn("979888000002"), **args)


def test_publishing_needs_a_format_and_deleting_needs_a_draft(ep: Episode) -> None:
    author = every(ep, "list_authors")[0]
    book = ok(ep, "create_book", title="Blank Pages", author_id=author["id"], genre="fiction")
    refused(ep, "publish_book", "rule_violation", "book_id", book_id=book["id"])
    ok(ep, "add_format", book_id=book["id"], kind="ebook", isbn=isbn("979888000011"), list_price=299)
    published = ok(ep, "publish_book", book_id=book["id"])
    assert (published["status"], published["published_on"]) == ("published", TODAY.isoformat())
    refused(ep, "publish_book", "conflict", "book_id", book_id=book["id"])
    refused(ep, "delete_book", "rule_violation", "book_id", book_id=book["id"])
    draft = every(ep, "list_books", status="draft")[0]
    ok(ep, "delete_book", book_id=draft["id"])
    assert all(f["book_id"] != draft["id"] for f in every(ep, "list_formats"))


def test_distribution_goes_to_published_books_once_per_store_with_print_only_where_sold(ep: Episode) -> None:
    draft = every(ep, "list_books", status="draft")[0]
    refused(ep, "distribute_book", "rule_violation", "book_id", book_id=draft["id"], store="kobo")
    book = next(
        b
        for b in every(ep, "list_books", status="published")
        if {f["kind"] for f in every(ep, "list_formats", book_id=b["id"])} == {"ebook", "paperback"}
        and not every(ep, "list_distributions", book_id=b["id"], store="tolino")
    )
    live = every(ep, "list_distributions", book_id=book["id"], status="live")[0]
    refused(ep, "distribute_book", "conflict", "store", book_id=book["id"], store=live["store"])
    made = ok(ep, "distribute_book", book_id=book["id"], store="tolino")
    assert (made["status"], made["format_kinds"]) == ("pending", ["ebook"])
    assert ok(ep, "confirm_live", distribution_id=made["id"])["status"] == "live"
    refused(ep, "confirm_live", "rule_violation", "distribution_id", distribution_id=made["id"])


def test_takedown_needs_a_reason_and_unpublishing_removes_every_store(ep: Episode) -> None:
    live = every(ep, "list_distributions", status="live")[0]
    refused(ep, "remove_from_store", "rule_violation", "reason", distribution_id=live["id"], reason="  ")
    assert ok(ep, "remove_from_store", distribution_id=live["id"], reason="Rights reverted")["status"] == "removed"
    refused(ep, "remove_from_store", "rule_violation", "distribution_id", distribution_id=live["id"], reason="again")
    book = every(ep, "list_books", status="published")[0]
    ok(ep, "unpublish_book", book_id=book["id"])
    left = {d["status"] for d in every(ep, "list_distributions", book_id=book["id"])}
    assert left <= {"removed", "rejected"}


def test_promotions_are_below_list_price_and_never_overlap(ep: Episode) -> None:
    active = every(ep, "list_promotions", status="active")[0]
    fmt = ok(ep, "get_format", format_id=active["format_id"])
    base = {"format_id": fmt["id"]}
    refused(
        ep,
        "schedule_promotion",
        "rule_violation",
        "price",
        price=fmt["list_price"],
        starts_on=day(30),
        ends_on=day(35),
        **base,
    )
    refused(
        ep, "schedule_promotion", "rule_violation", "starts_on", price=99, starts_on=day(-1), ends_on=day(3), **base
    )
    refused(
        ep, "schedule_promotion", "rule_violation", "ends_on", price=99, starts_on=day(30), ends_on=day(200), **base
    )
    refused(
        ep,
        "schedule_promotion",
        "conflict",
        "starts_on",
        price=99,
        starts_on=active["ends_on"],
        ends_on=day(40),
        **base,
    )
    made = ok(ep, "schedule_promotion", price=99, starts_on=day(60), ends_on=day(65), **base)
    assert made["status"] == "scheduled"
    refused(ep, "update_format", "rule_violation", "list_price", format_id=fmt["id"], list_price=50)
    assert ok(ep, "cancel_promotion", promotion_id=made["id"])["status"] == "cancelled"


def test_book_sales_add_up_the_report_lines(ep: Episode) -> None:
    book = every(ep, "list_books", status="published")[0]
    lines = every(ep, "list_sales", book_id=book["id"])
    total = ok(ep, "book_sales", book_id=book["id"])
    assert total["units"] == sum(x["units"] for x in lines) > 0
    assert total["royalty"] == sum(x["royalty"] for x in lines)
    assert total["unpaid_royalty"] == sum(x["royalty"] for x in lines if x["payment_id"] is None)
    assert sum(total["by_store"].values()) == total["units"]


def test_paying_royalties_sweeps_unpaid_sales_at_the_author_share(ep: Episode) -> None:
    refused(ep, "pay_royalties", "rule_violation", "author_email", author_email="nobody@nowhere.io")
    author = every(ep, "list_authors")[1]
    unpaid = [x for x in every(ep, "list_sales", author_id=author["id"]) if x["payment_id"] is None]
    pay = ok(ep, "pay_royalties", author_email=author["email"], method="paypal")
    assert pay["amount"] == round(sum(x["royalty"] for x in unpaid) * author["royalty_share"])
    assert pay["sale_count"] == len(unpaid) and pay["status"] == "pending"
    assert len(every(ep, "list_sales", payment_id=pay["id"])) == len(unpaid)
    refused(ep, "pay_royalties", "rule_violation", "author_email", author_email=author["email"])
    assert ok(ep, "mark_paid", payment_id=pay["id"])["paid_on"] == TODAY.isoformat()
    refused(ep, "mark_paid", "conflict", "payment_id", payment_id=pay["id"])


def test_author_emails_are_unique(ep: Episode) -> None:
    first, second = every(ep, "list_authors")[:2]
    refused(ep, "create_author", "conflict", "email", name="Copy Cat", email=first["email"])
    refused(ep, "update_author", "conflict", "email", author_id=second["id"], email=first["email"])
    assert ok(ep, "create_author", name="New Voice", email="new.voice@example.org")["royalty_share"] == 1.0
