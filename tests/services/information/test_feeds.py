"""Skimline Reader: world feeds, subscriptions and folders, streams, markers, boards, notes and OPML."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from typing import Any

from compoworld import Episode
from compoworld.services.information.feeds import AUTO_READ_DAYS, account_holder
from tests.services.helpers import ServiceTools

FEEDS = ServiceTools("feeds")
WORLD = FEEDS.world
ok, refused, every = FEEDS.ok, FEEDS.refused, FEEDS.every
POP = WORLD.population
NOW = WORLD.epoch


def iso(when: dt.datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def feed_of(ep: Episode, **filters: Any) -> dict[str, Any]:
    return every(ep, "list_feeds", **filters)[0]


def followed(ep: Episode) -> dict[str, dict[str, Any]]:
    return {s["feed_id"]: s for s in every(ep, "list_subscriptions")}


def stream(ep: Episode, **args: Any) -> list[dict[str, Any]]:
    return list(ok(ep, "get_stream_contents", count=1000, **args)["items"])


def category(ep: Episode, label: str) -> dict[str, Any]:
    return every(ep, "list_categories", label=label)[0]


def unread_feed(ep: Episode) -> tuple[str, list[dict[str, Any]]]:
    """A followed feed with unread entries, and those entries, newest first."""
    for feed_id in followed(ep):
        items = stream(ep, feed_id=feed_id, unread_only=True)
        if len(items) >= 2:
            return feed_id, items
    raise AssertionError("no followed feed with two unread entries")


def opml(*outlines: str, folder: str | None = "Imported") -> str:
    body = "".join(outlines)
    if folder is not None:
        body = f'<outline text="{folder}">{body}</outline>'
    return f'<?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>{body}</body></opml>'


def outline(url: str, title: str = "A feed") -> str:
    return f'<outline type="rss" text="{title}" xmlUrl="{url}"/>'


# -- the world --------------------------------------------------------------------------------


def test_feeds_are_the_worlds_companies_industries_and_products() -> None:
    ep = Episode(WORLD)
    newsrooms = every(ep, "list_feeds", kind="newsroom")
    assert sorted(f["company"] for f in newsrooms) == sorted(c.name for c in POP.customers)
    for company in POP.customers:
        feed = feed_of(ep, company=company.name)
        assert company.domain in feed["feed_url"] and feed["industry"] == company.industry
    industries = {f["industry"] for f in every(ep, "list_feeds", kind="industry")}
    assert industries == {c.industry for c in POP.customers}
    blog = feed_of(ep, kind="blog")
    assert blog["company"] == POP.home.name
    writers = {p.name for p in POP.staff("Marketing", fallback=2)}
    assert {e["author"] for e in stream(ep, feed_id=blog["id"])} <= writers
    entries = FEEDS.seeded("entries")
    assert len({e["url"] for e in entries}) == len(entries)
    by_company = {c.name: c for c in POP.customers}
    for e in entries:
        feed = ok(ep, "get_feed", feed_id=e["feed_id"])
        if feed["kind"] == "newsroom" and "appoints" in e["title"]:
            people = POP.people_at(by_company[feed["company"]])
            assert any(f"appoints {p.name} as {p.job_title}" in e["title"] for p in people)


def test_the_account_is_a_marketers_and_boards_belong_to_staff() -> None:
    ep = Episode(WORLD)
    profile = ok(ep, "get_profile")
    owner = account_holder(POP)
    assert (profile["owner_email"], profile["owner_name"]) == (owner.email, owner.name)
    assert owner.department == "Marketing" and profile["sources"] == len(followed(ep))
    staff = {p.email for p in POP.employees}
    for board in every(ep, "list_boards"):
        assert {board["owner_email"], *board["editor_emails"]} <= staff
    for note in every(ep, "list_annotations"):
        assert note["author_email"] in staff


def test_entries_older_than_31_days_are_read_for_good(ep: Episode) -> None:
    start = NOW - dt.timedelta(days=AUTO_READ_DAYS)
    old = [e for e in FEEDS.seeded("entries") if dt.datetime.fromisoformat(e["published"]) < start]
    assert old and all(not e["unread"] for e in old)
    refused(ep, "keep_entries_unread", "rule_violation", "entry_ids", entry_ids=[old[0]["id"]])
    counts = ok(ep, "get_unread_counts")
    assert counts["total"] == sum(f["count"] for f in counts["feeds"]) == ok(ep, "get_profile")["unread"]
    for feed in counts["feeds"]:
        assert feed["count"] == len(stream(ep, feed_id=feed["id"], unread_only=True))


# -- subscriptions and folders ----------------------------------------------------------------


def test_following_a_feed_refuses_dead_ones_and_repeats_and_makes_missing_folders(ep: Episode) -> None:
    dead = feed_of(ep, state="dead")
    refused(ep, "create_subscription", "rule_violation", "feed_id", feed_id=dead["id"])
    mine = next(iter(followed(ep)))
    refused(ep, "create_subscription", "conflict", "feed_id", feed_id=mine)
    fresh = next(f for f in every(ep, "list_feeds", state="active") if f["id"] not in followed(ep))
    refused(ep, "create_subscription", "not_found", "category_ids", feed_id=fresh["id"], category_ids=["cat_999999"])
    refused(ep, "create_subscription", "rule_violation", "label", feed_id=fresh["id"], category_labels=["a/b"])
    before = ok(ep, "get_unread_counts")["total"]
    sub = ok(
        ep, "create_subscription", feed_id=fresh["id"], category_labels=["customers", "Watchlist"], title="To watch"
    )
    assert sub["category_ids"][0] == category(ep, "Customers")["id"] and sub["title"] == "To watch"
    assert [c["label"] for c in every(ep, "list_categories", label="Watchlist")] == ["Watchlist"]
    gained = len(stream(ep, feed_id=fresh["id"], unread_only=True))
    assert ok(ep, "get_unread_counts")["total"] == before + gained
    ok(ep, "delete_subscription", subscription_id=sub["id"])
    assert ok(ep, "get_unread_counts")["total"] == before


def test_folders_are_unique_case_aside_and_deleting_one_keeps_its_feeds(ep: Episode) -> None:
    refused(ep, "create_category", "conflict", "label", label="customers")
    refused(ep, "create_category", "rule_violation", "label", label="global.must")
    cust = category(ep, "Customers")
    refused(ep, "update_category", "conflict", "label", category_id=cust["id"], label="INDUSTRY")
    members = [s for s in followed(ep).values() if cust["id"] in s["category_ids"]]
    assert members
    ok(ep, "delete_category", category_id=cust["id"])
    for sub in members:
        assert cust["id"] not in ok(ep, "get_subscription", subscription_id=sub["id"])["category_ids"]
    assert len(followed(ep)) == ok(ep, "get_profile")["sources"]


def test_a_subscription_is_renamed_and_refiled(ep: Episode) -> None:
    sub = next(s for s in followed(ep).values() if len(s["category_ids"]) == 2)
    refused(ep, "update_subscription", "rule_violation", "title", subscription_id=sub["id"])
    moved = ok(ep, "update_subscription", subscription_id=sub["id"], category_ids=[category(ep, "Reviews")["id"]])
    assert moved["category_ids"] == [category(ep, "Reviews")["id"]] and moved["title"] == sub["title"]
    loose = ok(ep, "update_subscription", subscription_id=sub["id"], category_ids=[])
    assert loose["category_ids"] == []
    body = ET.fromstring(ok(ep, "export_opml")).find("body")
    assert body is not None
    loose_urls = {o.get("xmlUrl") for o in body.findall("outline") if o.get("xmlUrl")}
    assert ok(ep, "get_feed", feed_id=sub["feed_id"])["feed_url"] in loose_urls


# -- streams and search -----------------------------------------------------------------------


def test_streams_rank_and_page_with_a_continuation(ep: Episode) -> None:
    everything = stream(ep)
    published = [e["published"] for e in everything]
    assert published == sorted(published, reverse=True)
    assert {e["feed_id"] for e in everything} <= set(followed(ep))
    first = ok(ep, "get_stream_contents", count=5)
    second = ok(ep, "get_stream_contents", count=5, continuation=first["continuation"])
    assert [e["id"] for e in first["items"] + second["items"]] == [e["id"] for e in everything[:10]]
    oldest = ok(ep, "get_stream_contents", count=3, ranked="oldest")["items"]
    assert [e["id"] for e in oldest] == [e["id"] for e in everything[::-1][:3]]
    cut = everything[4]["published"]
    newer = stream(ep, newer_than=cut)
    assert [e["id"] for e in newer] == [e["id"] for e in everything[:4]]
    cat = category(ep, "Industry")
    refused(
        ep, "get_stream_contents", "rule_violation", "feed_id", feed_id=everything[0]["feed_id"], category_id=cat["id"]
    )
    alien = next(e for e in FEEDS.seeded("entries") if e["feed_id"] not in followed(ep))
    refused(ep, "get_stream_contents", "rule_violation", "continuation", continuation=alien["id"])
    saved = stream(ep, saved=True)
    assert saved and all(e["saved"] for e in saved)


def test_search_finds_entries_by_words_of_the_company(ep: Episode) -> None:
    feed_id = next(iter(followed(ep)))
    target = stream(ep, feed_id=feed_id)[0]
    hits = ok(ep, "search_entries", query=target["title"].lower())
    assert target["id"] in [h["id"] for h in hits]
    company = ok(ep, "get_feed", feed_id=feed_id)["company"]
    for hit in ok(ep, "search_entries", query=company, feed_id=feed_id):
        assert hit["feed_id"] == feed_id
    refused(ep, "search_entries", "rule_violation", "query", query="--")


# -- markers ----------------------------------------------------------------------------------


def test_marking_entries_read_and_keeping_them_unread(ep: Episode) -> None:
    _, items = unread_feed(ep)
    ids = [items[0]["id"], items[1]["id"]]
    refused(ep, "mark_entries_as_read", "rule_violation", "entry_ids", entry_ids=[ids[0], ids[0]])
    done = ok(ep, "mark_entries_as_read", entry_ids=ids)
    assert done["entry_ids"] == ids and done["unchanged"] == 0 and done["operation_id"]
    again = ok(ep, "mark_entries_as_read", entry_ids=ids)
    assert again["entry_ids"] == [] and again["unchanged"] == 2 and again["operation_id"] is None
    kept = ok(ep, "keep_entries_unread", entry_ids=[ids[0]])
    assert kept["entry_ids"] == [ids[0]]
    entry = ok(ep, "get_entry", entry_id=ids[0])
    assert entry["unread"] and entry["read_at"] is None


def test_marking_a_feed_read_as_of_a_time_leaves_newer_entries_unread(ep: Episode) -> None:
    feed_id, items = unread_feed(ep)
    as_of = items[1]["published"]
    refused(ep, "mark_feed_as_read", "rule_violation", "as_of", feed_id=feed_id)
    refused(
        ep,
        "mark_feed_as_read",
        "rule_violation",
        "as_of",
        feed_id=feed_id,
        as_of=as_of,
        last_read_entry_id=items[1]["id"],
    )
    refused(ep, "mark_feed_as_read", "rule_violation", "as_of", feed_id=feed_id, as_of=iso(NOW + dt.timedelta(days=1)))
    other = next(e for e in FEEDS.seeded("entries") if e["feed_id"] != feed_id)
    refused(
        ep, "mark_feed_as_read", "rule_violation", "last_read_entry_id", feed_id=feed_id, last_read_entry_id=other["id"]
    )
    unfollowed = next(f for f in every(ep, "list_feeds", state="active") if f["id"] not in followed(ep))
    refused(ep, "mark_feed_as_read", "rule_violation", "feed_id", feed_id=unfollowed["id"], as_of=iso(NOW))
    done = ok(ep, "mark_feed_as_read", feed_id=feed_id, as_of=as_of)
    assert items[0]["id"] not in done["entry_ids"] and {e["id"] for e in items[1:]} <= set(done["entry_ids"])
    assert [e["id"] for e in stream(ep, feed_id=feed_id, unread_only=True)] == [items[0]["id"]]


def test_a_folder_is_marked_read_up_to_an_entry_and_undone_once(ep: Episode) -> None:
    cat = category(ep, "Customers")
    unread = stream(ep, category_id=cat["id"], unread_only=True)
    middle = unread[len(unread) // 2]
    done = ok(ep, "mark_category_as_read", category_id=cat["id"], last_read_entry_id=middle["id"])
    later = [e["id"] for e in unread if e["published"] > middle["published"]]
    assert [e["id"] for e in stream(ep, category_id=cat["id"], unread_only=True)] == later
    assert middle["id"] in done["entry_ids"]
    undone = ok(ep, "undo_mark_as_read", category_id=cat["id"])
    assert sorted(undone["entry_ids"]) == sorted(done["entry_ids"])
    assert len(stream(ep, category_id=cat["id"], unread_only=True)) == len(unread)
    refused(ep, "undo_mark_as_read", "rule_violation", "category_id", category_id=cat["id"])
    refused(ep, "undo_mark_as_read", "not_found", "category_id", category_id=category(ep, "Reviews")["id"])
    refused(ep, "undo_mark_as_read", "rule_violation", "feed_id", feed_id=unread[0]["feed_id"], category_id=cat["id"])
    empty = ok(ep, "create_category", label="Empty")
    refused(ep, "mark_category_as_read", "rule_violation", "category_id", category_id=empty["id"], as_of=iso(NOW))


def test_undo_restores_only_the_entries_it_marked_that_are_still_read(ep: Episode) -> None:
    feed_id, items = unread_feed(ep)
    done = ok(ep, "mark_feed_as_read", feed_id=feed_id, as_of=iso(NOW))
    ok(ep, "keep_entries_unread", entry_ids=[done["entry_ids"][0]])
    undone = ok(ep, "undo_mark_as_read", feed_id=feed_id)
    assert undone["entry_ids"] == done["entry_ids"][1:] and undone["unchanged"] == 1
    assert {e["id"] for e in stream(ep, feed_id=feed_id, unread_only=True)} == {e["id"] for e in items}


def test_saving_is_a_state_of_its_own(ep: Episode) -> None:
    entry = next(e for e in FEEDS.seeded("entries") if not e["saved"])
    saved = ok(ep, "save_entry", entry_id=entry["id"])
    assert saved["saved"] and saved["saved_at"] == iso(NOW)
    assert saved["unread"] == entry["unread"]
    refused(ep, "save_entry", "rule_violation", "entry_id", entry_id=entry["id"])
    assert not ok(ep, "unsave_entry", entry_id=entry["id"])["saved_at"]
    refused(ep, "unsave_entry", "rule_violation", "entry_id", entry_id=entry["id"])


# -- boards and notes -------------------------------------------------------------------------


def test_boards_are_shared_with_staff_and_curate_entries(ep: Episode) -> None:
    staff = POP.employees
    refused(ep, "create_board", "rule_violation", "owner_email", label="Press", owner_email=POP.consumers[0].email)
    refused(
        ep,
        "create_board",
        "rule_violation",
        "editor_emails",
        label="Press",
        owner_email=staff[0].email,
        editor_emails=[staff[0].email],
    )
    refused(ep, "create_board", "conflict", "label", label="competitive INTEL", owner_email=staff[0].email)
    board = ok(ep, "create_board", label="Press", owner_email=staff[0].email, editor_emails=[staff[1].email])
    some = [e["id"] for e in FEEDS.seeded("entries")[:3]]
    refused(ep, "untag_entries", "rule_violation", "entry_ids", board_id=board["id"], entry_ids=some)
    tagged = ok(ep, "tag_entries", board_id=board["id"], entry_ids=some)
    assert tagged["changed"] == some
    assert ok(ep, "tag_entries", board_id=board["id"], entry_ids=some[:1])["unchanged"] == some[:1]
    assert [e["id"] for e in stream(ep, board_id=board["id"], ranked="oldest")] == sorted(
        some, key=lambda i: ok(ep, "get_entry", entry_id=i)["published"]
    )
    ok(ep, "untag_entries", board_id=board["id"], entry_ids=some[:1])
    ok(ep, "delete_board", board_id=board["id"])
    assert all(board["id"] not in ok(ep, "get_entry", entry_id=i)["board_ids"] for i in some)


def test_a_note_needs_words_and_a_highlight_must_quote_the_entry(ep: Episode) -> None:
    entry = FEEDS.seeded("entries")[0]
    me = POP.employees[0].email
    refused(ep, "create_annotation", "rule_violation", "comment", entry_id=entry["id"], author_email=me)
    refused(
        ep,
        "create_annotation",
        "rule_violation",
        "highlight",
        entry_id=entry["id"],
        author_email=me,
        highlight="words that are nowhere",
    )
    refused(
        ep,
        "create_annotation",
        "rule_violation",
        "author_email",
        entry_id=entry["id"],
        author_email=POP.consumers[0].email,
        comment="Hi",
    )
    quote = " ".join(entry["title"].split()[1:3]).upper()
    note = ok(ep, "create_annotation", entry_id=entry["id"], author_email=me, highlight=quote, comment="See this")
    assert every(ep, "list_annotations", entry_id=entry["id"])[-1]["id"] == note["id"]


# -- OPML -------------------------------------------------------------------------------------


def test_opml_files_are_checked_feed_by_feed(ep: Episode) -> None:
    mine = ok(ep, "get_feed", feed_id=next(iter(followed(ep))))
    dead = feed_of(ep, state="dead")
    fresh = next(f for f in every(ep, "list_feeds", state="active") if f["id"] not in followed(ep))
    report = ok(
        ep,
        "validate_opml",
        opml=opml(
            outline(fresh["feed_url"]),
            outline(fresh["feed_url"]),
            outline(mine["feed_url"]),
            outline(dead["feed_url"]),
            outline("https://unknown.example/rss"),
            outline("ftp://old.example/rss"),
        ),
    )
    assert [o["status"] for o in report["outlines"]] == [
        "new",
        "duplicate",
        "already_followed",
        "dead_feed",
        "unknown_feed",
        "invalid_url",
    ]
    assert report["new_feeds"] == 1 and report["new_categories"] == ["Imported"] and report["title"] == "Mine"
    for bad in (
        "<opml version='2.0'><body>",
        "<rss version='2.0'><channel/></rss>",
        "<opml version='3.0'><body/></opml>",
        "<opml version='2.0'><head/></opml>",
        opml(folder="Empty"),
        '<!DOCTYPE opml [<!ENTITY x "y">]><opml version="2.0"><body/></opml>',
    ):
        refused(ep, "validate_opml", "rule_violation", "opml", opml=bad)


def test_importing_opml_follows_the_new_feeds_in_their_folders_and_export_round_trips(ep: Episode) -> None:
    new = [f for f in every(ep, "list_feeds", state="active") if f["id"] not in followed(ep)][:2]
    doc = opml(outline(new[0]["feed_url"], "First"), folder="industry")
    doc = doc.replace("</body>", outline(new[1]["feed_url"], "Second") + "</body>")
    done = ok(ep, "import_opml", opml=doc)
    subs = {s["feed_id"]: s for s in done["subscriptions"]}
    assert subs[new[0]["id"]]["category_ids"] == [category(ep, "Industry")["id"]]
    assert subs[new[1]["id"]]["category_ids"] == [] and subs[new[1]["id"]]["title"] == "Second"
    refused(ep, "import_opml", "rule_violation", "opml", opml=doc)
    exported = ok(ep, "export_opml")
    report = ok(ep, "validate_opml", opml=exported)
    subs_now = followed(ep).values()
    assert len(report["outlines"]) == sum(max(1, len(s["category_ids"])) for s in subs_now)
    assert {o["feed_id"] for o in report["outlines"] if o["status"] == "already_followed"} == set(followed(ep))
    assert {o["status"] for o in report["outlines"]} == {"already_followed", "duplicate"}
