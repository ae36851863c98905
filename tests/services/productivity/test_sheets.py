"""Gridbook Sheets (Google Sheets-style): typed columns under a header row, row tools, A1 ranges and sharing."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from typing import Any

from compoworld import Episode
from compoworld.world.finance import suppliers
from tests.services.helpers import ServiceTools

SHEETS = ServiceTools("sheets")
WORLD = SHEETS.world
ok, refused, every, items, first = SHEETS.ok, SHEETS.refused, SHEETS.every, SHEETS.items, SHEETS.first
POP = WORLD.population
STAFF = {p.email: p for p in POP.employees}
PEOPLE = {p.email: p for p in POP.people}
REGIONS = {"US": "North America", "CA": "North America", "BR": "LATAM", "JP": "APAC", "SG": "APAC", "AU": "APAC"}
EMAIL = re.compile(r"^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$")


def tab(ep: Episode, title: str) -> dict[str, Any]:
    return first(ep, "sheets", title=title)


def book(ep: Episode, sheet: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = ok(ep, "get_spreadsheet", spreadsheet_id=sheet["spreadsheet_id"])
    return view["spreadsheet"]


def owner_of(ep: Episode, sheet: dict[str, Any]) -> str:
    return str(book(ep, sheet)["owner_email"])


def table(ep: Episode, title: str) -> list[dict[str, Any]]:
    """The rows of a seeded sheet as {column: value} dicts, top to bottom."""
    return [r["cells"] for r in ok(ep, "list_rows", sheet_id=tab(ep, title)["id"], limit=500)]


def values(ep: Episode, sheet: dict[str, Any], a1: str) -> list[list[Any]]:
    return list(ok(ep, "get_values", spreadsheet_id=sheet["spreadsheet_id"], range=a1)["values"])


def outsider(ep: Episode, sheet: dict[str, Any]) -> str:
    ss = book(ep, sheet)
    inside = {ss["owner_email"], *ss["editors"], *ss["viewers"]}
    return next(p.email for p in POP.employees if p.email not in inside)


# -- the seeded world -----------------------------------------------------------------------


def test_spreadsheets_belong_to_staff_and_are_shared_by_e_mail() -> None:
    ep = Episode(WORLD)
    books = every(ep, "list_spreadsheets")
    assert {b["title"] for b in books} == {"Support operations", "Finance policies", "Key accounts", "Hiring tracker"}
    for b in books:
        assert b["owner_email"] in STAFF
        assert set(b["editors"]) <= set(STAFF) and b["editors"]
        assert b["owner_email"] not in {*b["editors"], *b["viewers"]}
        assert not set(b["editors"]) & set(b["viewers"])
        assert b["link"].endswith(f"/{b['id']}/edit")
        tabs = ok(ep, "get_spreadsheet", spreadsheet_id=b["id"])["sheets"]
        assert [t["index"] for t in tabs] == list(range(len(tabs)))


def test_every_row_fits_the_header_and_the_types_of_its_sheet() -> None:
    ep = Episode(WORLD)
    for sheet in every(ep, "list_sheets"):
        cols = every(ep, "list_columns", sheet_id=sheet["id"])
        assert [c["position"] for c in cols] == list(range(1, len(cols) + 1))
        assert [c["letter"] for c in cols] == [chr(64 + k) for k in range(1, len(cols) + 1)]
        by_name = {c["name"]: c for c in cols}
        rows = ok(ep, "list_rows", sheet_id=sheet["id"], limit=500)
        assert [r["row_number"] for r in rows] == list(range(2, len(rows) + 2))
        grid = values(ep, sheet, f"'{sheet['title']}'")
        assert grid[0] == [c["name"] for c in cols]
        for row, line in zip(rows, grid[1:], strict=True):
            assert set(row["cells"]) <= set(by_name)
            assert [row["cells"].get(c["name"], "") for c in cols][: len(line)] == line
            for name, value in row["cells"].items():
                kind = by_name[name]["type"]
                if kind == "select":
                    assert value in by_name[name]["options"]
                elif kind == "email":
                    assert EMAIL.match(value)
                elif kind == "date":
                    dt.date.fromisoformat(value)
                elif kind in ("number", "currency"):
                    assert isinstance(value, int | float) and not isinstance(value, bool)
                elif kind == "checkbox":
                    assert isinstance(value, bool)


def test_key_accounts_are_customers_with_their_own_contacts_and_regions() -> None:
    ep = Episode(WORLD)
    companies = {c.name: c for c in POP.customers}
    vendors = {link.company.name for link in suppliers(POP)}
    accounts = table(ep, "Key accounts")
    assert len(accounts) >= 6
    assert {a["Status"] for a in accounts} == {"Active", "On hold", "Churned"}
    for a in accounts:
        company = companies[a["Company"]]
        assert a["Company"] not in vendors
        person = PEOPLE[a["Contact email"]]
        assert person.company_key == company.key and person.name == a["Contact name"]
        assert a["Account manager email"] in STAFF and STAFF[a["Account manager email"]].department == "Sales"
        assert a["Region"] == REGIONS.get(company.address.country, "EMEA")


def test_the_vendor_list_is_procurements_suppliers_with_their_terms() -> None:
    ep = Episode(WORLD)
    rows = table(ep, "Vendor list")
    links = suppliers(POP)
    assert [r["Vendor"] for r in rows] == [link.company.name for link in links]
    for r, link in zip(rows, links, strict=True):
        assert (r["Contact name"], r["Contact email"]) == (link.contact.name, link.contact.email)
        assert r["Payment terms"] == link.terms.replace("net_", "Net ")
        assert r["Status"] == ("Active" if link.active else "Inactive")


def test_routing_approval_and_hiring_tables_name_people_of_the_world() -> None:
    ep = Episode(WORLD)
    for r in table(ep, "Escalation routing"):
        assert STAFF[r["On-call email"]].name == r["On-call"]
    bands = table(ep, "Spend approval matrix")
    cur = POP.home.place.currency
    assert bands[0][f"Above ({cur})"] == 0 and f"Up to ({cur})" not in bands[-1]
    for lower, upper in itertools.pairwise(bands):
        assert lower[f"Up to ({cur})"] == upper[f"Above ({cur})"]
    for r in bands:
        assert STAFF[r["Approver email"]].name == r["Approver"]
    consumers = {p.email: p for p in POP.consumers}
    for r in table(ep, "Pipeline"):
        person = consumers[r["Email"]]
        assert (person.name, person.phone) == (r["Candidate"], r["Phone"])
        assert STAFF[r["Recruiter email"]].department == "People"


# -- typed values ---------------------------------------------------------------------------


def test_values_must_fit_their_column_type(ep: Episode) -> None:
    sheet = tab(ep, "Key accounts")
    actor = owner_of(ep, sheet)

    def bad(values: dict[str, Any], field: str) -> str:
        return refused(
            ep, "append_row", "rule_violation", field, sheet_id=sheet["id"], actor_email=actor, values=values
        )

    cur = POP.home.place.currency
    assert "currency" in bad({"Company": "Acme", f"ARR ({cur})": "abc"}, f"values.ARR ({cur})")
    bad({"Company": "Acme", "Contact email": "not-an-address"}, "values.Contact email")
    bad({"Company": "Acme", "Renewal date": "03/02/2026"}, "values.Renewal date")
    bad({"Company": "Acme", "Status": "Paused"}, "values.Status")
    res = ep.call("sheets__append_row", {"sheet_id": sheet["id"], "actor_email": actor, "values": {"Tier": "Gold"}})
    assert res.error is not None and "Strategic" in res.error.hint
    row = ok(
        ep,
        "append_row",
        sheet_id=sheet["id"],
        actor_email=actor,
        values={"Company": "Acme", f"ARR ({cur})": "$12,500.50", "Status": "on hold", "Contact email": "A@Acme.IO"},
    )
    assert row["cells"] == {
        "Company": "Acme",
        "Contact email": "a@acme.io",
        "Status": "On hold",
        f"ARR ({cur})": 12500.5,
    }
    pipeline = tab(ep, "Pipeline")
    recruiter = owner_of(ep, pipeline)
    for wrong in ("yes", 1):
        refused(
            ep,
            "append_row",
            "rule_violation",
            "values.Referral",
            sheet_id=pipeline["id"],
            actor_email=recruiter,
            values={"Candidate": "Ana Lee", "Referral": wrong},
        )
    refused(
        ep,
        "append_row",
        "rule_violation",
        "values.Phone",
        sheet_id=pipeline["id"],
        actor_email=recruiter,
        values={"Candidate": "Ana Lee", "Phone": "555-0100"},
    )
    added = ok(
        ep,
        "append_row",
        sheet_id=pipeline["id"],
        actor_email=recruiter,
        values={"Candidate": "Ana Lee", "Referral": True, "Applied on": "2026-03-01"},
    )
    assert added["cells"] == {"Candidate": "Ana Lee", "Applied on": "2026-03-01", "Referral": True}


def test_unknown_columns_are_refused_naming_the_columns_there_are(ep: Episode) -> None:
    sheet = tab(ep, "Regional queues")
    actor = owner_of(ep, sheet)
    res = ep.call(
        "sheets__append_row",
        {"sheet_id": sheet["id"], "actor_email": actor, "values": {"Region": "EMEA", "Queue name": "x"}},
    )
    assert res.error is not None and res.error.type == "not_found" and res.error.field == "values.Queue name"
    assert "Region, Queue, Queue lead email, Hours" in res.error.hint
    refused(ep, "lookup_rows", "not_found", "column", sheet_id=sheet["id"], column="Country", value="EMEA")
    # Column names match case aside.
    assert ok(ep, "lookup_rows", sheet_id=sheet["id"], column="region", value="emea")[0]["cells"]["Region"] == "EMEA"


# -- permissions ----------------------------------------------------------------------------


def test_writes_need_the_owner_or_a_writer(ep: Episode) -> None:
    sheet = tab(ep, "Escalation routing")
    ss = book(ep, sheet)
    reader, stranger = ss["viewers"][0], outsider(ep, sheet)
    change = {"sheet_id": sheet["id"], "values": {"Tier": "Tier 1", "Team": "Night shift"}}
    for who in (reader, stranger):
        msg = refused(ep, "append_row", "rule_violation", "actor_email", actor_email=who, **change)
        assert who in msg
        refused(ep, "rename_sheet", "rule_violation", "actor_email", sheet_id=sheet["id"], actor_email=who, title="X")
        refused(
            ep,
            "update_values",
            "rule_violation",
            "actor_email",
            spreadsheet_id=ss["id"],
            actor_email=who,
            range="'Escalation routing'!B2",
            values=[["Night shift"]],
        )
    # Readers read.
    assert values(ep, sheet, "'Escalation routing'!A1:A1") == [["Tier"]]
    ok(ep, "append_row", actor_email=ss["editors"][0], **change)
    ok(ep, "share_spreadsheet", spreadsheet_id=ss["id"], actor_email=ss["editors"][0], email=stranger, role="writer")
    assert ok(ep, "append_row", actor_email=stranger, **change)["updated_by"] == stranger


def test_sharing_changes_roles_and_keeps_the_owner(ep: Episode) -> None:
    ss = book(ep, tab(ep, "Pipeline"))
    sid, owner = ss["id"], ss["owner_email"]
    reader = ss["viewers"][0]
    refused(
        ep, "share_spreadsheet", "conflict", "email", spreadsheet_id=sid, actor_email=owner, email=reader, role="reader"
    )
    promoted = ok(ep, "share_spreadsheet", spreadsheet_id=sid, actor_email=owner, email=reader, role="writer")
    assert reader in promoted["editors"] and reader not in promoted["viewers"]
    refused(
        ep,
        "share_spreadsheet",
        "rule_violation",
        "email",
        spreadsheet_id=sid,
        actor_email=owner,
        email=owner,
        role="reader",
    )
    guest = POP.contacts[0].email
    refused(
        ep,
        "share_spreadsheet",
        "rule_violation",
        "role",
        spreadsheet_id=sid,
        actor_email=owner,
        email=guest,
        role="writer",
    )
    assert (
        guest
        in ok(ep, "share_spreadsheet", spreadsheet_id=sid, actor_email=owner, email=guest, role="reader")["viewers"]
    )
    # A reader may leave on their own, not remove others.
    refused(
        ep, "unshare_spreadsheet", "rule_violation", "actor_email", spreadsheet_id=sid, actor_email=guest, email=reader
    )
    ok(ep, "unshare_spreadsheet", spreadsheet_id=sid, actor_email=guest, email=guest)
    refused(ep, "unshare_spreadsheet", "not_found", "email", spreadsheet_id=sid, actor_email=owner, email=guest)
    refused(ep, "unshare_spreadsheet", "rule_violation", "email", spreadsheet_id=sid, actor_email=reader, email=owner)


def test_only_employees_create_spreadsheets_which_start_with_one_sheet(ep: Episode) -> None:
    refused(
        ep, "create_spreadsheet", "rule_violation", "owner_email", title="Budget", owner_email=POP.contacts[0].email
    )
    owner = POP.employees[3].email
    made = ok(ep, "create_spreadsheet", title="Budget", owner_email=owner)
    assert [(s["title"], s["index"], s["hidden"]) for s in made["sheets"]] == [("Sheet1", 0, False)]
    assert made["spreadsheet"]["link"].endswith(f"/{made['spreadsheet']['id']}/edit")
    assert values(ep, made["sheets"][0], "Sheet1") == []


# -- sheets ---------------------------------------------------------------------------------


def test_sheet_titles_are_unique_in_their_spreadsheet_case_aside(ep: Episode) -> None:
    sheet = tab(ep, "Regional queues")
    ss = book(ep, sheet)
    actor = ss["owner_email"]
    refused(
        ep, "add_sheet", "conflict", "title", spreadsheet_id=ss["id"], actor_email=actor, title="ESCALATION routing"
    )
    refused(
        ep, "rename_sheet", "conflict", "title", sheet_id=sheet["id"], actor_email=actor, title="escalation routing"
    )
    # Another spreadsheet may use the title.
    other = book(ep, tab(ep, "Pipeline"))
    ok(ep, "add_sheet", spreadsheet_id=other["id"], actor_email=other["owner_email"], title="Escalation routing")
    added = ok(ep, "add_sheet", spreadsheet_id=ss["id"], actor_email=actor, title="Holidays", index=0)
    titles = [t["title"] for t in ok(ep, "get_spreadsheet", spreadsheet_id=ss["id"])["sheets"]]
    assert titles == ["Holidays", "Escalation routing", "Regional queues"] and added["index"] == 0
    renamed = ok(ep, "rename_sheet", sheet_id=sheet["id"], actor_email=actor, title="Queues by region")
    assert values(ep, renamed, "'Queues by region'!A1")[0] == ["Region"]
    refused(ep, "get_values", "not_found", "range", spreadsheet_id=ss["id"], range="'Regional queues'!A1")


def test_a_hidden_sheet_is_still_read(ep: Episode) -> None:
    hidden = first(ep, "sheets", hidden=True)
    assert hidden["title"] == "Tier rules"
    rows = ok(ep, "lookup_rows", sheet_id=hidden["id"], column="Tier", value="strategic")
    assert rows[0]["cells"]["Discount (%)"] == 15
    assert values(ep, hidden, "'Tier rules'!A1:B2") == [["Tier", "Discount (%)"], ["Strategic", 15]]
    # A range without a sheet reads the first visible sheet.
    assert values(ep, hidden, "A1:A1") == [["Company"]]


def test_the_last_sheet_is_not_deleted_nor_the_last_visible_one_hidden(ep: Episode) -> None:
    pipeline = tab(ep, "Pipeline")
    actor = owner_of(ep, pipeline)
    refused(ep, "delete_sheet", "rule_violation", "sheet_id", sheet_id=pipeline["id"], actor_email=actor)
    refused(ep, "hide_sheet", "rule_violation", "sheet_id", sheet_id=pipeline["id"], actor_email=actor)
    accounts, hidden = tab(ep, "Key accounts"), tab(ep, "Tier rules")
    sales = owner_of(ep, accounts)
    refused(ep, "hide_sheet", "rule_violation", "sheet_id", sheet_id=accounts["id"], actor_email=sales)
    refused(ep, "delete_sheet", "rule_violation", "sheet_id", sheet_id=accounts["id"], actor_email=sales)
    ok(ep, "hide_sheet", sheet_id=hidden["id"], actor_email=sales, hidden=False)
    assert ok(ep, "hide_sheet", sheet_id=accounts["id"], actor_email=sales)["hidden"]


def test_deleting_a_sheet_takes_its_rows_and_columns_and_closes_the_gap(ep: Episode) -> None:
    routing = tab(ep, "Escalation routing")
    actor = owner_of(ep, routing)
    gone = ok(ep, "delete_sheet", sheet_id=routing["id"], actor_email=actor)
    assert gone["deleted_rows"] == 3
    assert all(c["sheet_id"] != routing["id"] for c in every(ep, "list_columns"))
    assert tab(ep, "Regional queues")["index"] == 0
    refused(ep, "get_sheet", "not_found", "sheet_id", sheet_id=routing["id"])


# -- columns --------------------------------------------------------------------------------


def test_add_column_checks_the_name_and_the_select_options(ep: Episode) -> None:
    sheet = tab(ep, "Regional queues")
    actor = owner_of(ep, sheet)
    args = {"sheet_id": sheet["id"], "actor_email": actor}
    refused(ep, "add_column", "conflict", "name", name="queue", **args)
    refused(ep, "add_column", "rule_violation", "options", name="Channel", type="select", **args)
    refused(ep, "add_column", "rule_violation", "options", name="Seats", type="number", options=["1"], **args)
    col = ok(ep, "add_column", name="Channel", type="select", options=["Email", "Phone", "Chat"], **args)
    assert (col["position"], col["letter"]) == (5, "E")
    assert values(ep, sheet, "'Regional queues'!A1:E1") == [["Region", "Queue", "Queue lead email", "Hours", "Channel"]]
    row = ok(ep, "update_row", key_column="Region", values={"Region": "APAC", "Channel": "chat"}, **args)
    assert row["cells"]["Channel"] == "Chat"


# -- rows -----------------------------------------------------------------------------------


def test_lookup_matches_whole_cells_case_aside(ep: Episode) -> None:
    sheet = tab(ep, "Key accounts")
    company = table(ep, "Key accounts")[0]["Company"]
    found = ok(ep, "lookup_rows", sheet_id=sheet["id"], column="Company", value=company.upper())
    assert [r["cells"]["Company"] for r in found] == [company]
    assert ok(ep, "lookup_rows", sheet_id=sheet["id"], column="Company", value=company[:4]) == []
    active = ok(ep, "lookup_rows", sheet_id=sheet["id"], column="Status", value="ACTIVE")
    assert len(active) > 1 and all(r["cells"]["Status"] == "Active" for r in active)
    assert ok(ep, "lookup_rows", sheet_id=sheet["id"], column="Status", value="active", first_only=True) == active[:1]
    # list_rows filters by the value as the column stores it, text exactly.
    assert ok(ep, "list_rows", sheet_id=sheet["id"], column="Status", value="Active") == active
    assert ok(ep, "list_rows", sheet_id=sheet["id"], column="Company", value=company.upper()) == []
    hired = ok(ep, "list_rows", sheet_id=tab(ep, "Pipeline")["id"], column="Referral", value=True, limit=2)
    assert len(hired) == 2 and all(r["cells"]["Referral"] is True for r in hired)


def test_append_or_update_updates_the_row_with_the_key_else_appends(ep: Episode) -> None:
    sheet = tab(ep, "Key accounts")
    actor = owner_of(ep, sheet)
    before = table(ep, "Key accounts")
    target = before[1]
    args = {"sheet_id": sheet["id"], "actor_email": actor, "key_column": "Contact email"}
    res = ok(
        ep,
        "append_or_update_row",
        values={"Contact email": target["Contact email"].upper(), "Status": "Churned"},
        **args,
    )
    assert res["action"] == "updated" and res["row"]["row_number"] == 3
    assert res["row"]["cells"] == {**target, "Status": "Churned"}
    new = ok(
        ep,
        "append_or_update_row",
        values={"Contact email": "new.buyer@example.com", "Company": "Example Co", "Status": "Active"},
        **args,
    )
    assert new["action"] == "appended" and new["row"]["row_number"] == len(before) + 2
    assert len(table(ep, "Key accounts")) == len(before) + 1
    refused(ep, "append_or_update_row", "rule_violation", "values", values={"Company": "No key"}, **args)
    # Two rows holding the key: nothing is written.
    ok(ep, "append_row", sheet_id=sheet["id"], actor_email=actor, values={"Contact email": "new.buyer@example.com"})
    refused(
        ep, "append_or_update_row", "conflict", "key_column", values={"Contact email": "new.buyer@example.com"}, **args
    )


def test_update_row_by_id_or_by_key_column(ep: Episode) -> None:
    sheet = tab(ep, "Regional queues")
    actor = owner_of(ep, sheet)
    args = {"sheet_id": sheet["id"], "actor_email": actor}
    rows = ok(ep, "list_rows", sheet_id=sheet["id"])
    refused(ep, "update_row", "rule_violation", "row_id", values={"Hours": "24/7"}, **args)
    refused(
        ep,
        "update_row",
        "rule_violation",
        "row_id",
        values={"Hours": "24/7"},
        row_id=rows[0]["id"],
        key_column="Region",
        **args,
    )
    other = ok(ep, "list_rows", sheet_id=tab(ep, "Escalation routing")["id"])[0]
    refused(ep, "update_row", "rule_violation", "row_id", values={"Hours": "24/7"}, row_id=other["id"], **args)
    refused(
        ep,
        "update_row",
        "not_found",
        "key_column",
        values={"Queue": "Support Mars", "Hours": "24/7"},
        key_column="Queue",
        **args,
    )
    by_id = ok(ep, "update_row", values={"Hours": "24/7", "Queue lead email": ""}, row_id=rows[0]["id"], **args)
    assert by_id["cells"] == {"Region": "EMEA", "Queue": "Support EMEA", "Hours": "24/7"}
    by_key = ok(ep, "update_row", values={"Region": "latam", "Hours": "closed"}, key_column="Region", **args)
    assert (by_key["id"], by_key["cells"]["Hours"]) == (rows[3]["id"], "closed")


def test_the_header_row_is_neither_cleared_nor_deleted_by_row_tools(ep: Episode) -> None:
    sheet = tab(ep, "Pipeline")
    args = {"sheet_id": sheet["id"], "actor_email": owner_of(ep, sheet)}
    refused(ep, "clear_row", "rule_violation", "row_number", row_number=1, **args)
    refused(ep, "delete_rows", "rule_violation", "row_number", row_number=1, count=3, **args)
    refused(ep, "clear_row", "rule_violation", "row_number", row_number=1001, **args)
    refused(ep, "delete_rows", "rule_violation", "count", row_number=999, count=5, **args)
    refused(ep, "clear_row", "not_found", "row_number", row_number=500, **args)


def test_clearing_a_row_empties_its_cells_and_keeps_it_in_place(ep: Episode) -> None:
    sheet = tab(ep, "Regional queues")
    args = {"sheet_id": sheet["id"], "actor_email": owner_of(ep, sheet)}
    before = ok(ep, "list_rows", sheet_id=sheet["id"])
    cleared = ok(ep, "clear_row", row_number=3, **args)
    assert (cleared["id"], cleared["row_number"], cleared["cells"]) == (before[1]["id"], 3, {})
    after = ok(ep, "list_rows", sheet_id=sheet["id"])
    assert [r["id"] for r in after] == [r["id"] for r in before]
    grid = values(ep, sheet, "'Regional queues'!A1:D5")
    assert grid[2] == [] and grid[3][0] == "APAC"
    appended = ok(ep, "append_row", values={"Region": "EMEA", "Queue": "Overflow"}, **args)
    assert appended["row_number"] == 6


def test_deleting_rows_moves_the_rows_below_up(ep: Episode) -> None:
    sheet = tab(ep, "Pipeline")
    args = {"sheet_id": sheet["id"], "actor_email": owner_of(ep, sheet)}
    before = ok(ep, "list_rows", sheet_id=sheet["id"], limit=500)
    res = ok(ep, "delete_rows", row_number=3, count=2, **args)
    assert res["deleted_row_ids"] == [before[1]["id"], before[2]["id"]]
    assert res["moved_up"] == len(before) - 3
    after = ok(ep, "list_rows", sheet_id=sheet["id"], limit=500)
    assert [r["id"] for r in after] == [before[0]["id"], *[r["id"] for r in before[3:]]]
    assert [r["row_number"] for r in after] == list(range(2, len(after) + 2))
    assert ok(ep, "get_sheet", sheet_id=sheet["id"])["row_count"] == 998


# -- A1 ranges ------------------------------------------------------------------------------


def test_a_range_read_and_written_back_round_trips(ep: Episode) -> None:
    sheet = tab(ep, "Spend approval matrix")
    ss = book(ep, sheet)
    a1 = "'Spend approval matrix'!A1:F5"
    grid = values(ep, sheet, a1)
    assert grid[0][0] == "Band" and len(grid) == 5
    snap = ep.snapshot()
    res = ok(ep, "update_values", spreadsheet_id=ss["id"], actor_email=ss["owner_email"], range=a1, values=grid)
    assert res["updated_range"] == "'Spend approval matrix'!A1:F5" and res["updated_rows"] == 5
    assert ep.diff(snap).is_empty
    edited = [list(line) for line in grid]
    edited[2][2] = "12,000"
    ok(ep, "update_values", spreadsheet_id=ss["id"], actor_email=ss["owner_email"], range=a1, values=edited)
    assert values(ep, sheet, "'Spend approval matrix'!C3")[0] == [12000]
    # A single cell takes a block of any size from there; null leaves a cell as it is.
    res = ok(
        ep,
        "update_values",
        spreadsheet_id=ss["id"],
        actor_email=ss["owner_email"],
        range="'Spend approval matrix'!A7",
        values=[["Board", 250000, None, POP.employees[0].name]],
    )
    assert res["updated_cells"] == 3 and res["updated_range"] == "'Spend approval matrix'!A7:D7"
    assert values(ep, sheet, "'Spend approval matrix'!A6:D7") == [[], ["Board", 250000, "", POP.employees[0].name]]
    row = ok(ep, "lookup_rows", sheet_id=sheet["id"], column="Band", value="board")[0]
    assert row["row_number"] == 7


def test_range_writes_keep_the_header_and_the_types(ep: Episode) -> None:
    sheet = tab(ep, "Regional queues")
    ss = book(ep, sheet)
    args = {"spreadsheet_id": ss["id"], "actor_email": ss["owner_email"]}
    refused(
        ep, "update_values", "rule_violation", "values", range="'Regional queues'!B1", values=[["Queue name"]], **args
    )
    refused(ep, "update_values", "rule_violation", "values", range="'Regional queues'!E2", values=[["extra"]], **args)
    refused(ep, "update_values", "rule_violation", "values", range="'Regional queues'!C2", values=[["nobody"]], **args)
    refused(
        ep,
        "update_values",
        "rule_violation",
        "values",
        range="'Regional queues'!A2:B2",
        values=[["EMEA", "x", "y"]],
        **args,
    )
    refused(ep, "update_values", "rule_violation", "values", range="'Regional queues'!A2", values=[[]], **args)


def test_ranges_must_parse_and_lie_within_the_grid(ep: Episode) -> None:
    sheet = tab(ep, "Pipeline")
    sid = sheet["spreadsheet_id"]
    for bad in ("Pipeline!A0", "Pipeline!A1:B2:C3", "Pipeline!A", "Pipeline!1A"):
        refused(ep, "get_values", "rule_violation", "range", spreadsheet_id=sid, range=bad)
    msg = refused(ep, "get_values", "rule_violation", "range", spreadsheet_id=sid, range="Pipeline!A1:AA5")
    assert "grid" in msg
    refused(ep, "get_values", "rule_violation", "range", spreadsheet_id=sid, range="Pipeline!A1001")
    refused(ep, "get_values", "not_found", "range", spreadsheet_id=sid, range="'Key accounts'!A1")
    # Whole columns, whole rows, a reversed range and lower case all read.
    assert values(ep, sheet, "Pipeline!A:B")[0] == ["Candidate", "Email"]
    assert values(ep, sheet, "pipeline!1:1")[0][:2] == ["Candidate", "Email"]
    assert values(ep, sheet, "Pipeline!b2:a1") == values(ep, sheet, "Pipeline!A1:B2")
    assert ok(ep, "get_values", spreadsheet_id=sid, range="Pipeline!C:A")["range"] == "Pipeline!A1:C1000"
