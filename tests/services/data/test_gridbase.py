"""Gridwell Database: members, typed values by field name or id, filters, views, type conversion, history, trash."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

GB = ServiceTools("gridbase")
WORLD = GB.world
ok, refused, every = GB.ok, GB.refused, GB.every
POP = WORLD.population


def table(ep: Episode, name: str) -> dict[str, Any]:
    return next(t for t in every(ep, "list_tables") if t["name"] == name)


def field(ep: Episode, table_name: str, name: str) -> dict[str, Any]:
    live = every(ep, "list_fields", table_id=table(ep, table_name)["id"], trashed=False)
    return next(f for f in live if f["name"] == name)


def view(ep: Episode, table_name: str, name: str) -> dict[str, Any]:
    return next(v for v in every(ep, "list_views", table_id=table(ep, table_name)["id"]) if v["name"] == name)


def rows(ep: Episode, table_name: str, **args: Any) -> list[dict[str, Any]]:
    return list(ok(ep, "list_rows", table_id=table(ep, table_name)["id"], size=200, **args)["results"])


def workspace_of(ep: Episode, table_name: str) -> str:
    db = table(ep, table_name)["database_id"]
    return str(next(d["workspace_id"] for d in every(ep, "list_databases") if d["id"] == db))


def member(ep: Episode, table_name: str, permissions: str = "MEMBER") -> dict[str, Any]:
    return every(ep, "list_workspace_users", workspace_id=workspace_of(ep, table_name), permissions=permissions)[0]


def admin(ep: Episode, table_name: str) -> str:
    return str(member(ep, table_name, "ADMIN")["email"])


def option(ep: Episode, table_name: str, fname: str, value: str) -> int:
    return int(next(o["id"] for o in field(ep, table_name, fname)["select_options"] if o["value"] == value))


# -- the world --------------------------------------------------------------------------------


def test_seeded_rows_are_people_of_the_population_and_members_are_staff() -> None:
    ep = Episode(WORLD)
    by_email = {p.email: p for p in POP.people}
    leads = rows(ep, "Leads")
    assert len(leads) >= 6
    for row in leads:
        v = row["values"]
        person = by_email[v["Email"]]
        assert (person.name, person.phone, person.role) == (v["Name"], v["Phone"], "contact")
        assert v["Company"][0]["value"] == POP.company_of(person).name  # type: ignore[union-attr]
        company = ok(ep, "get_row", table_id=table(ep, "Companies")["id"], row_id=v["Company"][0]["id"])
        assert row["id"] in [x["id"] for x in company["values"]["Leads"]]
    for row in rows(ep, "Candidates"):
        person = by_email[row["values"]["Email"]]
        assert (person.name, person.role) == (row["values"]["Name"], "consumer")
    staff = {p.email for p in POP.employees}
    assert {u["email"] for u in every(ep, "list_workspace_users")} <= staff
    for inv in every(ep, "list_workspace_invitations"):
        assert inv["email"] in staff and inv["invited_by_email"] in staff
    history = ok(ep, "list_row_history", table_id=table(ep, "Leads")["id"], row_id=leads[0]["id"])
    assert history and history[0]["before"]["Status"] != history[0]["after"]["Status"]
    assert history[0]["after"]["Status"] == leads[0]["values"]["Status"]["value"]


# -- values -----------------------------------------------------------------------------------


def test_values_go_by_field_name_or_by_field_id(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    who = admin(ep, "Leads")
    email = field(ep, "Leads", "Email")["id"]
    person = POP.contacts[-1]
    made = ok(ep, "create_row", table_id=leads, user_email=who, values={"Name": person.name, "Email": person.email})
    assert made["values"]["Email"] == person.email
    refused(ep, "create_row", "not_found", f"values.{email}", table_id=leads, user_email=who, values={email: "a@b.co"})
    by_id = ok(ep, "create_row", table_id=leads, user_email=who, user_field_names=False, values={email: "a@b.co"})
    assert by_id["values"][email] == "a@b.co"
    refused(
        ep,
        "create_row",
        "not_found",
        "values.Email",
        table_id=leads,
        user_email=who,
        user_field_names=False,
        values={"Email": "a@b.co"},
    )
    got = ok(ep, "get_row", table_id=leads, row_id=made["id"], user_field_names=False)
    assert got["values"][email] == person.email


def test_a_select_takes_only_its_options_by_id_or_value(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    who = admin(ep, "Leads")
    won = option(ep, "Leads", "Status", "Won")
    a = ok(ep, "create_row", table_id=leads, user_email=who, values={"Name": "A", "Status": won})
    b = ok(ep, "create_row", table_id=leads, user_email=who, values={"Name": "B", "Status": "Won"})
    assert a["values"]["Status"]["id"] == b["values"]["Status"]["id"] == won
    msg = refused(
        ep,
        "create_row",
        "rule_violation",
        "values.Status",
        table_id=leads,
        user_email=who,
        values={"Name": "C", "Status": "Negotiation"},
    )
    assert "Negotiation" in msg
    assert [o["value"] for o in field(ep, "Leads", "Status")["select_options"]] == [
        "New",
        "Contacted",
        "Qualified",
        "Proposal",
        "Won",
        "Lost",
    ]
    refused(
        ep,
        "create_row",
        "rule_violation",
        "values.Status",
        table_id=leads,
        user_email=who,
        values={"Name": "C", "Status": 99},
    )


def test_numbers_keep_their_decimal_places_and_sign(ep: Episode) -> None:
    products = table(ep, "Products")["id"]
    who = admin(ep, "Products")
    refused(
        ep,
        "create_row",
        "rule_violation",
        "values.Price",
        table_id=products,
        user_email=who,
        values={"Name": "X", "Price": "12.505"},
    )
    refused(
        ep,
        "create_row",
        "rule_violation",
        "values.Stock",
        table_id=products,
        user_email=who,
        values={"Name": "X", "Stock": -3},
    )
    refused(
        ep,
        "create_row",
        "rule_violation",
        "values.Stock",
        table_id=products,
        user_email=who,
        values={"Name": "X", "Stock": 2.5},
    )
    made = ok(ep, "create_row", table_id=products, user_email=who, values={"Name": "X", "Price": 12.5, "Stock": "40"})
    assert (made["values"]["Price"], made["values"]["Stock"]) == ("12.50", "40")
    ok(ep, "update_field", field_id=field(ep, "Products", "Price")["id"], number_decimal_places=3)
    again = ok(ep, "create_row", table_id=products, user_email=who, values={"Name": "Y", "Price": "12.505"})
    assert again["values"]["Price"] == "12.505"
    assert ok(ep, "get_row", table_id=products, row_id=made["id"])["values"]["Price"] == "12.500"


def test_read_only_fields_take_nothing_and_autonumbers_count_on(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    who = admin(ep, "Leads")
    for name in ("Lead no.", "Created"):
        refused(
            ep,
            "create_row",
            "rule_violation",
            f"values.{name}",
            table_id=leads,
            user_email=who,
            values={"Name": "X", name: 1},
        )
    top = max(r["values"]["Lead no."] for r in rows(ep, "Leads"))
    made = ok(ep, "create_row", table_id=leads, user_email=who, values={"Name": "X"})
    assert made["values"]["Lead no."] > top and made["values"]["Created"].endswith("Z")


def test_a_link_takes_live_rows_of_the_linked_table_and_shows_on_both_sides(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    who = admin(ep, "Leads")
    company = rows(ep, "Companies")[-1]
    product = rows(ep, "Products")[0]["id"]
    refused(
        ep,
        "create_row",
        "not_found",
        "values.Company.0",
        table_id=leads,
        user_email=who,
        values={"Name": "X", "Company": [product]},
    )
    trashed = next(
        i
        for i in ok(ep, "list_trash", workspace_id=workspace_of(ep, "Leads"))["items"]
        if i["trash_item_type"] == "row"
    )
    refused(
        ep,
        "update_row",
        "not_found",
        "values.Leads.0",
        table_id=table(ep, "Companies")["id"],
        row_id=company["id"],
        user_email=who,
        values={"Leads": [trashed["trash_item_id"]]},
    )
    made = ok(
        ep, "create_row", table_id=leads, user_email=who, values={"Name": "X", "Company": [company["values"]["Name"]]}
    )
    assert made["values"]["Company"] == [{"id": company["id"], "value": company["values"]["Name"]}]
    back = ok(ep, "get_row", table_id=table(ep, "Companies")["id"], row_id=company["id"])
    assert made["id"] in [x["id"] for x in back["values"]["Leads"]]


def test_a_batch_takes_up_to_two_hundred_rows_all_or_none(ep: Episode) -> None:
    suppliers = table(ep, "Suppliers")["id"]
    who = admin(ep, "Suppliers")
    refused(
        ep,
        "batch_create_rows",
        "rule_violation",
        "items",
        table_id=suppliers,
        user_email=who,
        items=[{"Name": f"S{k}"} for k in range(201)],
    )
    refused(
        ep,
        "batch_create_rows",
        "rule_violation",
        "items.1.Email",
        table_id=suppliers,
        user_email=who,
        items=[{"Name": "Good"}, {"Name": "Bad", "Email": "nope"}],
    )
    made = ok(
        ep, "batch_create_rows", table_id=suppliers, user_email=who, items=[{"Name": f"S{k}"} for k in range(200)]
    )
    assert len(made) == 200 and ok(ep, "list_rows", table_id=suppliers)["count"] == 206


def test_only_workspace_members_write_rows(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    outsider = next(p for p in POP.employees if p.department == "Engineering")
    refused(
        ep,
        "create_row",
        "rule_violation",
        "user_email",
        table_id=leads,
        user_email=outsider.email,
        values={"Name": "X"},
    )
    refused(
        ep,
        "create_row",
        "rule_violation",
        "user_email",
        table_id=leads,
        user_email=POP.contacts[0].email,
        values={"Name": "X"},
    )


def test_updates_go_into_the_row_history(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    row = rows(ep, "Leads")[2]
    who = member(ep, "Leads")
    seen = len(ok(ep, "list_row_history", table_id=leads, row_id=row["id"]))
    ok(
        ep,
        "update_row",
        table_id=leads,
        row_id=row["id"],
        user_email=who["email"],
        values={"Status": "Lost", "Notes": "Went with a competitor."},
    )
    ok(ep, "update_row", table_id=leads, row_id=row["id"], user_email=who["email"], values={"Status": "Lost"})
    history = ok(ep, "list_row_history", table_id=leads, row_id=row["id"])
    latest = history[0]
    assert (latest["user_email"], latest["user_name"]) == (who["email"], who["name"])
    assert latest["before"] == {"Status": row["values"]["Status"]["value"], "Notes": row["values"]["Notes"]}
    assert latest["after"] == {"Status": "Lost", "Notes": "Went with a competitor."}
    assert len(history) == seen + 1  # the second update changed nothing and left no entry


# -- listing, filters and views ---------------------------------------------------------------


def test_filters_join_with_and_or_or_and_must_suit_the_field(ep: Episode) -> None:
    leads = rows(ep, "Leads")
    qualified = option(ep, "Leads", "Status", "Qualified")
    both = [
        {"field": "Status", "type": "single_select_equal", "value": str(qualified)},
        {"field": "Value", "type": "higher_than", "value": "20000"},
    ]

    def value(r: dict[str, Any]) -> float:
        return float(r["values"]["Value"] or 0)

    def qual(r: dict[str, Any]) -> bool:
        return (r["values"]["Status"] or {}).get("value") == "Qualified"

    got_and = {r["id"] for r in rows(ep, "Leads", filters=both)}
    got_or = {r["id"] for r in rows(ep, "Leads", filters=both, filter_type="OR")}
    assert got_and == {r["id"] for r in leads if qual(r) and value(r) > 20000}
    assert got_or == {r["id"] for r in leads if qual(r) or value(r) > 20000} and got_or > got_and
    tid = table(ep, "Leads")["id"]
    refused(
        ep,
        "list_rows",
        "rule_violation",
        "filters.0.type",
        table_id=tid,
        filters=[{"field": "Email", "type": "higher_than", "value": "3"}],
    )
    refused(
        ep,
        "list_rows",
        "rule_violation",
        "filters.0.value",
        table_id=tid,
        filters=[{"field": "Status", "type": "single_select_equal", "value": "Qualified"}],
    )
    unapplied = [{"field": "Name", "type": "contains", "value": ""}]
    assert len(rows(ep, "Leads", filters=unapplied)) == len(leads)


def test_search_order_by_and_pages(ep: Episode) -> None:
    tid = table(ep, "Leads")["id"]
    page1 = ok(ep, "list_rows", table_id=tid, order_by="-Value,Name", size=3)
    page2 = ok(ep, "list_rows", table_id=tid, order_by="-Value,Name", size=3, page=2)
    assert (page1["next"], page2["previous"]) == (2, 1)
    values = [float(r["values"]["Value"]) for r in page1["results"] + page2["results"] if r["values"]["Value"]]
    assert values == sorted(values, reverse=True)
    refused(ep, "list_rows", "rule_violation", "order_by", table_id=tid, order_by="Company")
    refused(ep, "list_rows", "not_found", "page", table_id=tid, page=50)
    person = rows(ep, "Leads")[1]["values"]["Email"]
    assert [r["values"]["Email"] for r in rows(ep, "Leads", search=person.upper())] == [person]


def test_view_filters_and_sortings_decide_what_a_view_lists(ep: Episode) -> None:
    grid = view(ep, "Products", "By category")
    stock = field(ep, "Products", "Stock")["id"]
    refused(
        ep,
        "create_view_filter",
        "rule_violation",
        "type",
        view_id=grid["id"],
        field_id=stock,
        type="contains_not",
        value="3",
    )
    refused(
        ep,
        "create_view_filter",
        "rule_violation",
        "value",
        view_id=grid["id"],
        field_id=stock,
        type="lower_than",
        value="few",
    )
    refused(
        ep,
        "create_view_filter",
        "not_found",
        "field_id",
        view_id=grid["id"],
        field_id=field(ep, "Suppliers", "Name")["id"],
        type="empty",
    )
    f = ok(ep, "create_view_filter", view_id=grid["id"], field_id=stock, type="lower_than", value="50")
    shown = rows(ep, "Products", view_id=grid["id"])
    assert shown and all(float(r["values"]["Stock"]) < 50 for r in shown)
    categories = [r["values"]["Category"]["value"] for r in shown]
    assert categories == sorted(categories, key=str.casefold)
    refused(
        ep,
        "create_view_sort",
        "conflict",
        "field_id",
        view_id=grid["id"],
        field_id=field(ep, "Products", "Category")["id"],
    )
    refused(
        ep,
        "create_view_sort",
        "rule_violation",
        "field_id",
        view_id=grid["id"],
        field_id=field(ep, "Products", "Supplier")["id"],
    )
    ok(ep, "update_view", view_id=grid["id"], filters_disabled=True)
    assert len(rows(ep, "Products", view_id=grid["id"])) == len(rows(ep, "Products"))
    ok(ep, "delete_view_filter", view_filter_id=f["id"])
    assert ok(ep, "get_view", view_id=grid["id"])["filters"] == []


def test_kanban_views_stack_by_a_single_select_and_a_table_keeps_one_view(ep: Episode) -> None:
    openings = table(ep, "Openings")["id"]
    refused(
        ep,
        "create_view",
        "rule_violation",
        "single_select_field_id",
        table_id=openings,
        name="Board",
        type="kanban",
        single_select_field_id=field(ep, "Openings", "Seats")["id"],
    )
    board = ok(
        ep,
        "create_view",
        table_id=openings,
        name="Board",
        type="kanban",
        single_select_field_id=field(ep, "Openings", "Department")["id"],
    )
    refused(
        ep,
        "delete_field",
        "rule_violation",
        "field_id",
        field_id=board["single_select_field_id"],
        user_email=admin(ep, "Openings"),
    )
    ok(ep, "delete_view", view_id=view(ep, "Openings", "Grid")["id"])
    refused(ep, "delete_view", "rule_violation", "view_id", view_id=board["id"])


# -- fields -----------------------------------------------------------------------------------


def test_field_names_are_unique_and_id_and_order_are_reserved(ep: Episode) -> None:
    tid = table(ep, "Suppliers")["id"]
    refused(ep, "create_field", "rule_violation", "name", table_id=tid, name="Order", type="number")
    refused(ep, "create_field", "conflict", "name", table_id=tid, name="Email", type="email")
    refused(
        ep,
        "create_field",
        "rule_violation",
        "link_row_table_id",
        table_id=tid,
        name="Leads",
        type="link_row",
        link_row_table_id=table(ep, "Leads")["id"],
    )
    made = ok(
        ep,
        "create_field",
        table_id=tid,
        name="Products bought",
        type="link_row",
        link_row_table_id=table(ep, "Products")["id"],
    )
    assert field(ep, "Products", "Suppliers")["link_row_related_field_id"] == made["id"]
    primary = field(ep, "Suppliers", "Name")
    refused(ep, "delete_field", "rule_violation", "field_id", field_id=primary["id"], user_email=admin(ep, "Suppliers"))
    refused(
        ep,
        "update_field",
        "rule_violation",
        "type",
        field_id=primary["id"],
        type="link_row",
        link_row_table_id=table(ep, "Products")["id"],
    )


def test_changing_a_field_type_converts_the_values(ep: Episode) -> None:
    contact = field(ep, "Suppliers", "Contact")
    before = [r["values"]["Contact"] for r in rows(ep, "Suppliers")]
    made = ok(ep, "update_field", field_id=contact["id"], type="single_select")
    assert [o["value"] for o in made["select_options"]] == list(dict.fromkeys(before))
    assert [r["values"]["Contact"]["value"] for r in rows(ep, "Suppliers")] == before
    stock = field(ep, "Products", "Stock")
    stocks = [r["values"]["Stock"] for r in rows(ep, "Products")]
    ok(ep, "update_field", field_id=stock["id"], type="text")
    assert [r["values"]["Stock"] for r in rows(ep, "Products")] == stocks
    ok(ep, "update_field", field_id=field(ep, "Products", "SKU")["id"], type="number")
    assert all(r["values"]["SKU"] is None for r in rows(ep, "Products"))  # SKUs are not numbers
    kept = [o for o in made["select_options"]][:1]
    ok(ep, "update_field", field_id=contact["id"], select_options=kept)
    assert sum(1 for r in rows(ep, "Suppliers") if r["values"]["Contact"]) == before.count(kept[0]["value"])


# -- trash ------------------------------------------------------------------------------------


def test_deleted_rows_wait_in_the_trash_until_restored(ep: Episode) -> None:
    tid = table(ep, "Leads")["id"]
    row = rows(ep, "Leads")[0]
    who = admin(ep, "Leads")
    item = ok(ep, "delete_row", table_id=tid, row_id=row["id"], user_email=who)
    assert item["trash_item_type"] == "row" and row["id"] not in [r["id"] for r in rows(ep, "Leads")]
    refused(ep, "get_row", "not_found", "row_id", table_id=tid, row_id=row["id"])
    company = ok(ep, "get_row", table_id=table(ep, "Companies")["id"], row_id=row["values"]["Company"][0]["id"])
    assert row["id"] not in [x["id"] for x in company["values"]["Leads"]]
    trash = ok(ep, "list_trash", workspace_id=workspace_of(ep, "Leads"))["items"]
    assert trash[0]["trash_item_id"] == row["id"] and trash[0]["name"] == row["values"]["Name"]
    ok(ep, "restore_from_trash", trash_item_type="row", trash_item_id=row["id"], user_email=who)
    assert ok(ep, "get_row", table_id=tid, row_id=row["id"])["values"] == row["values"]
    refused(
        ep,
        "restore_from_trash",
        "not_found",
        "trash_item_id",
        trash_item_type="row",
        trash_item_id=row["id"],
        user_email=who,
    )


def test_a_trashed_tables_rows_and_fields_wait_for_the_table(ep: Episode) -> None:
    who = admin(ep, "Products")
    products = table(ep, "Products")
    row = rows(ep, "Products")[0]
    ok(ep, "delete_row", table_id=products["id"], row_id=row["id"], user_email=who)
    ok(ep, "delete_table", table_id=products["id"], user_email=who)
    assert "Products" not in [
        f["name"] for f in every(ep, "list_fields", table_id=table(ep, "Suppliers")["id"], trashed=False)
    ]
    refused(
        ep,
        "restore_from_trash",
        "rule_violation",
        "trash_item_id",
        trash_item_type="row",
        trash_item_id=row["id"],
        user_email=who,
    )
    refused(ep, "list_rows", "not_found", "table_id", table_id=products["id"])
    ok(ep, "restore_from_trash", trash_item_type="table", trash_item_id=products["id"], user_email=who)
    assert "Products" in [
        f["name"] for f in every(ep, "list_fields", table_id=table(ep, "Suppliers")["id"], trashed=False)
    ]
    ok(ep, "restore_from_trash", trash_item_type="row", trash_item_id=row["id"], user_email=who)


def test_a_restored_field_needs_its_name_free(ep: Episode) -> None:
    who = admin(ep, "Products")
    legacy = next(f for f in every(ep, "list_fields", table_id=table(ep, "Products")["id"], trashed=True))
    ok(ep, "create_field", table_id=table(ep, "Products")["id"], name=legacy["name"], type="text")
    refused(
        ep,
        "restore_from_trash",
        "conflict",
        "trash_item_id",
        trash_item_type="field",
        trash_item_id=legacy["id"],
        user_email=who,
    )
    ok(ep, "update_field", field_id=field(ep, "Products", legacy["name"])["id"], name="New code")
    ok(ep, "restore_from_trash", trash_item_type="field", trash_item_id=legacy["id"], user_email=who)
    assert all(r["values"]["Legacy code"].startswith("OLD-") for r in rows(ep, "Products"))


def test_emptying_the_trash_deletes_for_good_and_old_items_expire(ep: Episode) -> None:
    ws = workspace_of(ep, "Candidates")
    who = admin(ep, "Candidates")
    items = ok(ep, "list_trash", workspace_id=ws)["items"]
    assert {i["trash_item_type"] for i in items} == {"row", "field"}
    out = ok(ep, "empty_trash", workspace_id=ws, user_email=who)
    assert out["deleted"]["rows"] == 1 and out["deleted"]["fields"] == 1
    assert ok(ep, "list_trash", workspace_id=ws)["items"] == []
    gone = next(i for i in items if i["trash_item_type"] == "row")
    refused(
        ep,
        "restore_from_trash",
        "not_found",
        "trash_item_id",
        trash_item_type="row",
        trash_item_id=gone["trash_item_id"],
        user_email=who,
    )
    other = workspace_of(ep, "Leads")
    before = ok(ep, "list_trash", workspace_id=other)["items"]
    ep.tick += 48 * 60  # 48 hours of one-minute ticks: the item trashed 26 hours ago passes its 72
    after = ok(ep, "list_trash", workspace_id=other)["items"]
    assert len(after) == len(before) - 1 and before[-1] not in after


# -- workspaces -------------------------------------------------------------------------------


def test_only_admins_invite_and_an_invitation_is_answered_once(ep: Episode) -> None:
    ws = workspace_of(ep, "Leads")
    plain = member(ep, "Leads")["email"]
    boss = admin(ep, "Leads")
    newcomer = next(p for p in POP.employees if p.department == "Engineering")
    refused(
        ep,
        "create_workspace_invitation",
        "rule_violation",
        "invited_by_email",
        workspace_id=ws,
        email=newcomer.email,
        permissions="MEMBER",
        invited_by_email=plain,
    )
    refused(
        ep,
        "create_workspace_invitation",
        "conflict",
        "email",
        workspace_id=ws,
        email=plain,
        permissions="MEMBER",
        invited_by_email=boss,
    )
    inv = ok(
        ep,
        "create_workspace_invitation",
        workspace_id=ws,
        email=newcomer.email,
        permissions="MEMBER",
        invited_by_email=boss,
    )
    refused(
        ep,
        "create_workspace_invitation",
        "conflict",
        "email",
        workspace_id=ws,
        email=newcomer.email,
        permissions="ADMIN",
        invited_by_email=boss,
    )
    joined = ok(ep, "accept_workspace_invitation", invitation_id=inv["id"])
    assert (joined["email"], joined["name"], joined["permissions"]) == (newcomer.email, newcomer.name, "MEMBER")
    refused(ep, "accept_workspace_invitation", "rule_violation", "invitation_id", invitation_id=inv["id"])
    refused(
        ep,
        "reject_workspace_invitation",
        "rule_violation",
        "workspace_invitation_id",
        workspace_invitation_id=inv["id"],
    )
    ok(ep, "create_row", table_id=table(ep, "Leads")["id"], user_email=newcomer.email, values={"Name": "Mine"})
    pending = every(ep, "list_workspace_invitations", workspace_id=ws, status="pending")[0]
    assert ok(ep, "reject_workspace_invitation", workspace_invitation_id=pending["id"])["status"] == "rejected"
    refused(ep, "accept_workspace_invitation", "rule_violation", "invitation_id", invitation_id=pending["id"])


def test_the_last_admin_stays(ep: Episode) -> None:
    ws = workspace_of(ep, "Leads")
    admins = every(ep, "list_workspace_users", workspace_id=ws, permissions="ADMIN")
    plain = member(ep, "Leads")
    refused(
        ep,
        "update_workspace_user",
        "rule_violation",
        "user_email",
        workspace_user_id=admins[0]["id"],
        permissions="MEMBER",
        user_email=plain["email"],
    )
    ok(
        ep,
        "update_workspace_user",
        workspace_user_id=admins[1]["id"],
        permissions="MEMBER",
        user_email=admins[0]["email"],
    )
    refused(
        ep,
        "update_workspace_user",
        "rule_violation",
        "permissions",
        workspace_user_id=admins[0]["id"],
        permissions="MEMBER",
        user_email=admins[0]["email"],
    )
    refused(
        ep,
        "delete_workspace_user",
        "rule_violation",
        "workspace_user_id",
        workspace_user_id=admins[0]["id"],
        user_email=admins[0]["email"],
    )
    ok(ep, "delete_workspace_user", workspace_user_id=plain["id"], user_email=plain["email"])
    refused(
        ep,
        "create_row",
        "rule_violation",
        "user_email",
        table_id=table(ep, "Leads")["id"],
        user_email=plain["email"],
        values={"Name": "X"},
    )


def test_a_new_table_comes_with_default_fields_rows_and_a_grid(ep: Episode) -> None:
    db = table(ep, "Leads")["database_id"]
    out = ok(ep, "create_table", database_id=db, name="Partners", user_email=admin(ep, "Leads"))
    assert [(f["name"], f["type"], f["primary"]) for f in out["fields"]] == [
        ("Name", "text", True),
        ("Notes", "long_text", False),
        ("Active", "boolean", False),
    ]
    assert out["view"]["name"] == "Grid"
    listed = ok(ep, "list_rows", table_id=out["table"]["id"])
    assert listed["count"] == 2 and listed["results"][0]["values"] == {"Name": None, "Notes": None, "Active": False}
