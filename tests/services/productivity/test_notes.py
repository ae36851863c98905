"""Cairn Notes: typed database rows, queries, nested blocks, archive cascades and page moves."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

NT = ServiceTools("notes")
WORLD = NT.world
ok, refused, every = NT.ok, NT.refused, NT.every
POP = WORLD.population
ME = POP.employees[0].email


def db_named(ep: Episode, title: str) -> dict[str, Any]:
    return next(d for d in every(ep, "list_databases") if d["title"] == title)


def home(ep: Episode, dept: str = "Engineering") -> dict[str, Any]:
    return next(p for p in every(ep, "list_pages", parent_type="workspace") if p["title"] == f"{dept} home")


def task(ep: Episode, **props: Any) -> dict[str, Any]:
    db = db_named(ep, "Team tasks")
    values = {"Task": "Write release notes", **props}
    return dict(ok(ep, "create_row", database_id=db["id"], properties=values, created_by=ME))


# -- the world --------------------------------------------------------------------------------


def test_members_are_staff_and_account_rows_describe_the_worlds_customers() -> None:
    ep = Episode(WORLD)
    people = [m for m in every(ep, "list_members", type="person")]
    assert {m["email"] for m in people} == {p.email for p in POP.employees}
    companies = {c.name: c for c in POP.customers}
    rows = every(ep, "list_pages", database_id=db_named(ep, "Customer accounts")["id"])
    assert rows
    for row in rows:
        company = companies[row["title"]]
        props = row["properties"]
        assert props["Website"] == f"https://{company.domain}" and props["Phone"] == company.phone
        contacts = POP.people_at(company)
        if contacts:
            assert (props["Contact"], props["Contact email"]) == (contacts[0].name, contacts[0].email)


def test_seeded_task_rows_fit_their_schema() -> None:
    ep = Episode(WORLD)
    db = db_named(ep, "Team tasks")
    schema = {p["name"]: p for p in db["properties"]}
    members = {m["email"] for m in every(ep, "list_members")}
    for row in every(ep, "list_pages", database_id=db["id"]):
        assert row["title"] == row["properties"]["Task"]
        assert row["properties"]["Status"] in schema["Status"]["options"]
        assert set(row["properties"]["Assignee"]) <= members


# -- databases and rows -----------------------------------------------------------------------


def test_a_database_schema_has_one_title_and_unique_names(ep: Episode) -> None:
    parent = home(ep)["id"]
    base = dict(title="Bugs", parent_page_id=parent, created_by=ME)
    refused(
        ep,
        "create_database",
        "rule_violation",
        "properties",
        properties=[{"name": "Notes", "type": "rich_text"}],
        **base,
    )
    refused(
        ep,
        "create_database",
        "rule_violation",
        "properties",
        properties=[{"name": "A", "type": "title"}, {"name": "B", "type": "title"}],
        **base,
    )
    refused(
        ep,
        "create_database",
        "rule_violation",
        "properties",
        properties=[{"name": "Bug", "type": "title"}, {"name": "bug", "type": "number"}],
        **base,
    )
    refused(
        ep,
        "create_database",
        "rule_violation",
        "properties.1.options",
        properties=[{"name": "Bug", "type": "title"}, {"name": "Size", "type": "number", "options": ["S"]}],
        **base,
    )
    made = ok(ep, "create_database", properties=[{"name": "Bug", "type": "title"}], **base)
    assert made["parent_page_id"] == parent


def test_row_values_must_match_their_property_types(ep: Episode) -> None:
    db = db_named(ep, "Team tasks")["id"]

    def bad(field: str, **props: Any) -> None:
        refused(
            ep, "create_row", "rule_violation", field, database_id=db, properties={"Task": "X", **props}, created_by=ME
        )

    bad("properties.Owner", Owner="me")
    bad("properties.Status", Status="Blocked")
    bad("properties.Points", Points="five")
    bad("properties.Points", Points=True)
    bad("properties.Assignee", Assignee=["stranger@nowhere.example"])
    bad("properties.Due", Due="next week")
    bad("properties.Tags", Tags=["urgent"])
    refused(
        ep,
        "create_row",
        "rule_violation",
        "properties.Task",
        database_id=db,
        properties={"Status": "Done"},
        created_by=ME,
    )
    row = task(ep, Status="In progress", Points=3, Assignee=[ME, ME], Due="2026-03-10", Tags=["docs"])
    assert row["title"] == "Write release notes" and row["properties"]["Assignee"] == [ME]
    accounts = db_named(ep, "Customer accounts")["id"]
    refused(
        ep,
        "create_row",
        "rule_violation",
        "properties.Contact email",
        database_id=accounts,
        properties={"Company": "Acme", "Contact email": "not-an-email"},
        created_by=ME,
    )


def test_updating_a_row_renames_it_through_its_title_property(ep: Episode) -> None:
    row = task(ep, Points=2)
    refused(ep, "update_page", "rule_violation", "title", page_id=row["id"], title="Other")
    out = ok(
        ep, "update_row", page_id=row["id"], properties={"Task": "Write the notes", "Points": None}, editor_email=ME
    )
    assert out["title"] == "Write the notes" and out["properties"]["Points"] is None
    refused(
        ep,
        "update_row",
        "rule_violation",
        "properties.Task",
        page_id=row["id"],
        properties={"Task": None},
        editor_email=ME,
    )
    refused(
        ep, "update_row", "rule_violation", "page_id", page_id=home(ep)["id"], properties={"Task": "x"}, editor_email=ME
    )


# -- queries ----------------------------------------------------------------------------------


def test_queries_filter_by_typed_conditions_and_sort(ep: Episode) -> None:
    db = db_named(ep, "Team tasks")["id"]
    done = ok(
        ep, "query_database", database_id=db, where=[{"property": "Status", "operator": "equals", "value": "Done"}]
    )
    assert done and all(r["properties"]["Status"] == "Done" for r in done)
    big = ok(
        ep,
        "query_database",
        database_id=db,
        where=[{"property": "Points", "operator": "greater_than", "value": 2}],
        sorts=[{"property": "Points", "direction": "descending"}],
    )
    points = [r["properties"]["Points"] for r in big]
    assert points and points == sorted(points, reverse=True) and min(points) > 2
    mine = ok(
        ep, "query_database", database_id=db, where=[{"property": "Assignee", "operator": "contains", "value": ME}]
    )
    assert all(ME in r["properties"]["Assignee"] for r in mine)
    refused(
        ep,
        "query_database",
        "rule_violation",
        "where.0.operator",
        database_id=db,
        where=[{"property": "Status", "operator": "greater_than", "value": "Done"}],
    )
    refused(
        ep,
        "query_database",
        "rule_violation",
        "where.0.operator",
        database_id=db,
        where=[{"property": "Points", "operator": "contains", "value": 1}],
    )
    refused(
        ep,
        "query_database",
        "rule_violation",
        "where.0.value",
        database_id=db,
        where=[{"property": "Status", "operator": "equals", "value": "Blocked"}],
    )
    refused(
        ep,
        "query_database",
        "rule_violation",
        "where.0.property",
        database_id=db,
        where=[{"property": "Owner", "operator": "is_empty"}],
    )
    everything = ok(ep, "query_database", database_id=db, sorts=[{"property": "Points"}])
    assert [r["properties"]["Points"] for r in everything][-1] is None  # rows without a value come last


def test_a_new_property_starts_empty_on_every_row(ep: Episode) -> None:
    db = db_named(ep, "Team tasks")
    refused(
        ep,
        "add_database_property",
        "rule_violation",
        "property",
        database_id=db["id"],
        property={"name": "Name", "type": "title"},
        editor_email=ME,
    )
    refused(
        ep,
        "add_database_property",
        "rule_violation",
        "property",
        database_id=db["id"],
        property={"name": "status", "type": "checkbox"},
        editor_email=ME,
    )
    ok(
        ep,
        "add_database_property",
        database_id=db["id"],
        property={"name": "Reviewed", "type": "checkbox"},
        editor_email=ME,
    )
    empty = ok(ep, "query_database", database_id=db["id"], where=[{"property": "Reviewed", "operator": "is_empty"}])
    assert len(empty) == len(ok(ep, "query_database", database_id=db["id"]))


# -- blocks -----------------------------------------------------------------------------------


def test_blocks_nest_only_under_blocks_that_take_children(ep: Episode) -> None:
    page = ok(ep, "create_page", title="Retro", created_by=ME, parent_page_id=home(ep)["id"])
    made = ok(
        ep,
        "append_blocks",
        page_id=page["id"],
        editor_email=ME,
        blocks=[{"type": "heading_2", "text": "Went well"}, {"type": "toggle", "text": "Details"}],
    )
    heading, toggle = made
    refused(
        ep,
        "append_blocks",
        "rule_violation",
        "parent_block_id",
        page_id=page["id"],
        editor_email=ME,
        blocks=[{"type": "paragraph", "text": "x"}],
        parent_block_id=heading["id"],
    )
    refused(
        ep,
        "append_blocks",
        "rule_violation",
        "blocks.0.checked",
        page_id=page["id"],
        editor_email=ME,
        blocks=[{"type": "paragraph", "text": "x", "checked": True}],
    )
    refused(
        ep,
        "append_blocks",
        "rule_violation",
        "blocks.0.text",
        page_id=page["id"],
        editor_email=ME,
        blocks=[{"type": "divider", "text": "x"}],
    )
    kids = ok(
        ep,
        "append_blocks",
        page_id=page["id"],
        editor_email=ME,
        blocks=[{"type": "to_do", "text": "Share notes"}, {"type": "paragraph", "text": "Ship it"}],
        parent_block_id=toggle["id"],
    )
    assert [k["position"] for k in kids] == [1, 2] and kids[0]["checked"] is False
    tree = ok(ep, "get_page_content", page_id=page["id"])
    assert [b["block"]["id"] for b in tree["blocks"]] == [heading["id"], toggle["id"]]
    assert [c["block"]["id"] for c in tree["blocks"][1]["children"]] == [k["id"] for k in kids]
    refused(ep, "update_block", "rule_violation", "checked", block_id=heading["id"], editor_email=ME, checked=True)
    assert ok(ep, "update_block", block_id=kids[0]["id"], editor_email=ME, checked=True)["checked"] is True
    gone = ok(ep, "delete_block", block_id=toggle["id"], editor_email=ME)
    assert set(gone) == {toggle["id"], *(k["id"] for k in kids)}
    refused(ep, "update_block", "rule_violation", "block_id", block_id=kids[1]["id"], editor_email=ME, text="again")


# -- archive and move -------------------------------------------------------------------------


def test_archiving_a_page_archives_everything_below_it(ep: Episode) -> None:
    sales = home(ep, "Sales")
    accounts = db_named(ep, "Customer accounts")
    rows = every(ep, "list_pages", database_id=accounts["id"])
    out = ok(ep, "archive_page", page_id=sales["id"], editor_email=ME)
    assert accounts["id"] in out["database_ids"]
    assert {r["id"] for r in rows} <= set(out["page_ids"])
    refused(
        ep,
        "append_blocks",
        "rule_violation",
        "page_id",
        page_id=sales["id"],
        editor_email=ME,
        blocks=[{"type": "paragraph", "text": "x"}],
    )
    refused(ep, "update_page", "rule_violation", "page_id", page_id=sales["id"], title="Renamed")
    refused(
        ep,
        "create_row",
        "rule_violation",
        "database_id",
        database_id=accounts["id"],
        properties={"Company": "New Co"},
        created_by=ME,
    )
    refused(ep, "restore_page", "rule_violation", "page_id", page_id=rows[0]["id"], editor_email=ME)
    back = ok(ep, "restore_page", page_id=sales["id"], editor_email=ME)
    assert set(back["page_ids"]) == set(out["page_ids"]) and back["page"]["archived"] is False


def test_a_page_cannot_move_under_itself_and_rows_stay_in_their_database(ep: Episode) -> None:
    eng = home(ep)
    child = every(ep, "list_pages", parent_page_id=eng["id"])[0]
    refused(
        ep,
        "move_page",
        "rule_violation",
        "new_parent_page_id",
        page_id=eng["id"],
        editor_email=ME,
        new_parent_page_id=child["id"],
    )
    refused(
        ep,
        "move_page",
        "rule_violation",
        "new_parent_page_id",
        page_id=eng["id"],
        editor_email=ME,
        new_parent_page_id=eng["id"],
    )
    row = task(ep)
    refused(
        ep, "move_page", "rule_violation", "page_id", page_id=row["id"], editor_email=ME, new_parent_page_id=eng["id"]
    )
    moved = ok(ep, "move_page", page_id=child["id"], editor_email=ME, new_parent_page_id=home(ep, "Sales")["id"])
    assert moved["parent_page_id"] == home(ep, "Sales")["id"]
    top = ok(ep, "move_page", page_id=child["id"], editor_email=ME)
    assert (top["parent_type"], top["parent_page_id"]) == ("workspace", None)
    refused(ep, "create_page", "not_found", "created_by", title="X", created_by="ghost@nowhere.example")


def test_a_page_has_a_link_of_its_own_and_only_archived_pages_are_restored(ep: Episode) -> None:
    page = ok(ep, "create_page", title="Q2 Plan: Draft", created_by=ME, icon="🗺")
    assert page["url"] == f"https://cairn.example/q2-plan-draft-{page['id'].replace('_', '')}"
    assert [p["id"] for p in every(ep, "list_pages", url=page["url"])] == [page["id"]]
    refused(ep, "restore_page", "rule_violation", "page_id", page_id=page["id"], editor_email=ME)
    ok(ep, "archive_page", page_id=page["id"], editor_email=ME)
    refused(
        ep, "create_page", "rule_violation", "parent_page_id", title="Child", created_by=ME, parent_page_id=page["id"]
    )
