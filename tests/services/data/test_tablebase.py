"""Tessera Bases: typed cells, select choices and typecast, two-way links, batches, views, formulas, comments."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TB = ServiceTools("tablebase")
WORLD = TB.world
ok, refused, every = TB.ok, TB.refused, TB.every
POP = WORLD.population


def table(ep: Episode, name: str) -> dict[str, Any]:
    return next(t for t in every(ep, "list_tables") if t["name"] == name)


def field(ep: Episode, table_name: str, name: str) -> dict[str, Any]:
    return next(f for f in every(ep, "list_fields", table_id=table(ep, table_name)["id"]) if f["name"] == name)


def view(ep: Episode, table_name: str, name: str) -> dict[str, Any]:
    return next(v for v in every(ep, "list_views", table_id=table(ep, table_name)["id"]) if v["name"] == name)


def records(ep: Episode, table_name: str, **args: Any) -> list[dict[str, Any]]:
    return list(ok(ep, "list_records", table_id=table(ep, table_name)["id"], **args)["records"])


def owner_of(ep: Episode, table_name: str) -> str:
    return str(ok(ep, "get_base", base_id=table(ep, table_name)["base_id"])["owner_email"])


def collaborator(ep: Episode, table_name: str, level: str) -> dict[str, Any]:
    base = table(ep, table_name)["base_id"]
    return every(ep, "list_collaborators", base_id=base, permission_level=level)[0]


# -- the world --------------------------------------------------------------------------------


def test_seeded_leads_and_applicants_are_people_of_the_population() -> None:
    ep = Episode(WORLD)
    by_email = {p.email: p for p in POP.people}
    leads = records(ep, "Leads")
    assert len(leads) >= 10
    for rec in leads:
        person = by_email[rec["fields"]["Email"]]
        assert (person.name, person.phone, person.role) == (rec["fields"]["Name"], rec["fields"]["Phone"], "contact")
        company = ok(ep, "get_record", record_id=rec["fields"]["Company"][0])
        assert company["fields"]["Company"] == POP.company_of(person).name  # type: ignore[union-attr]
        assert rec["id"] in company["fields"]["Leads"]  # the inverse link
    for rec in records(ep, "Applicants"):
        person = by_email[rec["fields"]["Email"]]
        assert (person.name, person.phone, person.role) == (rec["fields"]["Name"], rec["fields"]["Phone"], "consumer")
    staff = {p.email for p in POP.employees}
    for base in every(ep, "list_bases"):
        assert base["owner_email"] in staff
        members = {c["email"] for c in every(ep, "list_collaborators", base_id=base["id"])}
        assert members <= staff and base["owner_email"] in members
        for t in every(ep, "list_tables", base_id=base["id"]):
            people = [f["name"] for f in every(ep, "list_fields", table_id=t["id"], type="singleCollaborator")]
            for rec in records(ep, t["name"]):
                assert all(rec["fields"].get(n) in members | {None} for n in people)
    for rec in records(ep, "Posts") + records(ep, "Leads"):
        assert rec["comment_count"] == len(every(ep, "list_comments", record_id=rec["id"]))


# -- cells ------------------------------------------------------------------------------------


def test_a_select_value_must_be_a_choice_unless_typecast_adds_it(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    person = POP.contacts[-1]
    new = {"Name": person.name, "Email": person.email, "Stage": "Negotiation"}
    msg = refused(
        ep, "create_records", "rule_violation", "records.0.fields.Stage", table_id=leads, records=[{"fields": new}]
    )
    assert "Qualified" in msg or "choices" in msg
    made = ok(ep, "create_records", table_id=leads, records=[{"fields": new}], typecast=True)[0]
    assert made["fields"]["Stage"] == "Negotiation"
    choices = [c["name"] for c in field(ep, "Leads", "Stage")["choices"]]
    assert choices[-1] == "Negotiation" and "Qualified" in choices
    ok(ep, "create_records", table_id=leads, records=[{"fields": {"Name": "Second", "Stage": "Negotiation"}}])


def test_values_must_fit_their_field_types(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]

    def bad(name: str, value: Any) -> None:
        refused(
            ep,
            "create_records",
            "rule_violation",
            f"records.0.fields.{name}",
            table_id=leads,
            records=[{"fields": {"Name": "X", name: value}}],
        )

    bad("Email", "not-an-address")
    bad("Deal size", "12,000")
    bad("Next follow-up", "03/04/2026")
    bad("Do not contact", "yes")
    bad("Name", "two\nlines")
    bad("Created", "2026-01-01T00:00:00Z")
    bad("Owner", POP.consumers[0].email)
    refused(
        ep,
        "create_records",
        "not_found",
        "records.0.fields.stage",
        table_id=leads,
        records=[{"fields": {"Name": "X", "stage": "New"}}],
    )
    made = ok(
        ep,
        "create_records",
        table_id=leads,
        typecast=True,
        records=[
            {"fields": {"Name": "X", "Deal size": "12,000", "Next follow-up": "03/04/2026", "Do not contact": "yes"}}
        ],
    )[0]
    assert made["fields"]["Deal size"] == 12000 and made["fields"]["Next follow-up"] == "2026-03-04"
    assert made["fields"]["Do not contact"] is True and made["fields"]["Created"].endswith("Z")


def test_a_linked_record_must_exist_in_the_linked_table_and_links_go_both_ways(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    company = records(ep, "Companies")[3]
    post = records(ep, "Posts")[0]["id"]
    refused(
        ep,
        "create_records",
        "not_found",
        "records.0.fields.Company",
        table_id=leads,
        records=[{"fields": {"Name": "X", "Company": [post]}}],
    )
    refused(
        ep,
        "create_records",
        "not_found",
        "records.0.fields.Company",
        table_id=leads,
        records=[{"fields": {"Name": "X", "Company": ["rec_999999"]}}],
    )
    made = ok(ep, "create_records", table_id=leads, records=[{"fields": {"Name": "X", "Company": [company["id"]]}}])[0]
    assert made["id"] in ok(ep, "get_record", record_id=company["id"])["fields"]["Leads"]
    by_name = ok(
        ep,
        "create_records",
        table_id=leads,
        typecast=True,
        records=[{"fields": {"Name": "Y", "Company": company["fields"]["Company"].upper()}}],
    )[0]
    assert by_name["fields"]["Company"] == [company["id"]]
    ok(ep, "update_records", table_id=leads, records=[{"id": made["id"], "fields": {"Company": None}}])
    assert made["id"] not in ok(ep, "get_record", record_id=company["id"])["fields"]["Leads"]


def test_at_most_ten_records_go_in_one_request(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    eleven = [{"fields": {"Name": f"Lead {k}"}} for k in range(11)]
    refused(ep, "create_records", "rule_violation", "records", table_id=leads, records=eleven)
    ids = [r["id"] for r in records(ep, "Leads")][:11]
    refused(ep, "delete_records", "rule_violation", "record_ids", table_id=leads, record_ids=ids)
    changes = [{"id": rid, "fields": {"Job title": "Buyer"}} for rid in ids]
    refused(ep, "update_records", "rule_violation", "records", table_id=leads, records=changes)
    assert len(ok(ep, "create_records", table_id=leads, records=eleven[:10])) == 10
    assert len(ok(ep, "update_records", table_id=leads, records=changes[:10])) == 10


def test_patch_keeps_other_cells_and_destructive_update_clears_them(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    rec = next(r for r in records(ep, "Leads") if "Deal size" in r["fields"])
    patched = ok(ep, "update_records", table_id=leads, records=[{"id": rec["id"], "fields": {"Stage": "Won"}}])[0]
    assert patched["fields"]["Stage"] == "Won" and patched["fields"]["Email"] == rec["fields"]["Email"]
    put = ok(
        ep,
        "update_records",
        table_id=leads,
        destructive=True,
        records=[{"id": rec["id"], "fields": {"Name": rec["fields"]["Name"]}}],
    )[0]
    assert set(put["fields"]) == {"Name", "Created"}  # the computed created time stays
    company = ok(ep, "get_record", record_id=rec["fields"]["Company"][0])
    assert rec["id"] not in company["fields"].get("Leads", [])


def test_computed_fields_number_and_stamp_new_records(ep: Episode) -> None:
    posts = table(ep, "Posts")["id"]
    top = max(r["fields"]["Post ID"] for r in records(ep, "Posts"))
    made = ok(ep, "create_records", table_id=posts, records=[{"fields": {"Title": "A"}}, {"fields": {"Title": "B"}}])
    assert [m["fields"]["Post ID"] for m in made] == [top + 1, top + 2]
    col = ok(ep, "create_field", table_id=table(ep, "Suppliers")["id"], name="Supplier no.", type="autoNumber")
    numbers = [r["fields"]["Supplier no."] for r in records(ep, "Suppliers")]
    assert col["type"] == "autoNumber" and numbers == list(range(1, len(numbers) + 1))


def test_upsert_updates_the_one_match_and_creates_the_rest(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    known = records(ep, "Leads")[0]
    fresh = POP.contacts[-2]
    out = ok(
        ep,
        "upsert_records",
        table_id=leads,
        fields_to_merge_on=["Email"],
        records=[
            {"fields": {"Email": known["fields"]["Email"].upper(), "Name": known["fields"]["Name"], "Stage": "Won"}},
            {"fields": {"Email": fresh.email, "Name": fresh.name, "Phone": fresh.phone}},
        ],
    )
    assert out["updated_records"] == [known["id"]] and len(out["created_records"]) == 1
    assert ok(ep, "get_record", record_id=known["id"])["fields"]["Stage"] == "Won"
    refused(
        ep,
        "upsert_records",
        "rule_violation",
        "records.0.fields",
        table_id=leads,
        fields_to_merge_on=["Email"],
        records=[{"fields": {"Name": "No e-mail"}}],
    )
    ok(ep, "create_records", table_id=leads, records=[{"fields": {"Name": "Copy", "Email": fresh.email}}])
    refused(
        ep,
        "upsert_records",
        "conflict",
        "records.0",
        table_id=leads,
        fields_to_merge_on=["Email"],
        records=[{"fields": {"Email": fresh.email, "Stage": "Lost"}}],
    )
    refused(
        ep,
        "upsert_records",
        "rule_violation",
        "fields_to_merge_on",
        table_id=leads,
        fields_to_merge_on=["Company"],
        records=[{"fields": {"Name": "X"}}],
    )


def test_deleting_records_removes_their_links_and_comments(ep: Episode) -> None:
    rec = next(r for r in records(ep, "Posts") if r["comment_count"] and r["fields"].get("Campaign"))
    campaign = rec["fields"]["Campaign"][0]
    assert rec["id"] in ok(ep, "get_record", record_id=campaign)["fields"]["Posts"]
    ok(ep, "delete_records", table_id=table(ep, "Posts")["id"], record_ids=[rec["id"]])
    assert rec["id"] not in ok(ep, "get_record", record_id=campaign)["fields"].get("Posts", [])
    assert all(c["record_id"] != rec["id"] for c in every(ep, "list_comments"))
    refused(ep, "get_record", "not_found", "record_id", record_id=rec["id"])
    refused(
        ep,
        "delete_records",
        "not_found",
        "record_ids.0",
        table_id=table(ep, "Leads")["id"],
        record_ids=[records(ep, "Posts")[0]["id"]],
    )


# -- schema -----------------------------------------------------------------------------------


def test_a_field_a_view_filters_on_is_not_deleted(ep: Episode) -> None:
    stage = field(ep, "Leads", "Stage")
    refused(ep, "delete_field", "rule_violation", "field_id", field_id=stage["id"])  # kanban and filters use it
    size = field(ep, "Leads", "Deal size")
    msg = refused(ep, "delete_field", "rule_violation", "field_id", field_id=size["id"])
    assert "Big deals" in msg
    ok(ep, "unlock_view", view_id=view(ep, "Leads", "Big deals")["id"])
    ok(ep, "set_view_filters", view_id=view(ep, "Leads", "Big deals")["id"], filters=[])
    ok(ep, "delete_field", field_id=size["id"])
    assert all("Deal size" not in r["fields"] for r in records(ep, "Leads"))
    assert view(ep, "Leads", "Qualified and up")["sorts"] == []  # its sort on the field went with it
    primary = table(ep, "Leads")["primary_field_id"]
    refused(ep, "delete_field", "rule_violation", "field_id", field_id=primary)


def test_deleting_a_link_field_takes_its_inverse(ep: Episode) -> None:
    link = field(ep, "Products", "Supplier")
    ok(ep, "delete_field", field_id=link["id"])
    names = [f["name"] for f in every(ep, "list_fields", table_id=table(ep, "Suppliers")["id"])]
    assert "Products" not in names and all("Products" not in r["fields"] for r in records(ep, "Suppliers"))


def test_renaming_a_field_renames_it_in_every_record(ep: Episode) -> None:
    col = field(ep, "Products", "In stock")
    refused(ep, "update_field", "conflict", "name", field_id=col["id"], name="sku")
    ok(ep, "update_field", field_id=col["id"], name="On hand")
    recs = records(ep, "Products")
    assert all("In stock" not in r["fields"] for r in recs) and any("On hand" in r["fields"] for r in recs)
    assert len(records(ep, "Products", view_id=view(ep, "Products", "Low stock")["id"])) > 0


def test_tables_link_within_their_base_with_a_text_like_primary_field(ep: Episode) -> None:
    base = table(ep, "Leads")["base_id"]
    other_base = table(ep, "Products")["id"]
    refused(
        ep,
        "create_table",
        "rule_violation",
        "fields.1.linked_table_id",
        base_id=base,
        name="Deals",
        fields=[
            {"name": "Deal", "type": "singleLineText"},
            {"name": "Products", "type": "multipleRecordLinks", "linked_table_id": other_base},
        ],
    )
    refused(
        ep,
        "create_table",
        "rule_violation",
        "fields.0.type",
        base_id=base,
        name="Deals",
        fields=[{"name": "Done", "type": "checkbox"}],
    )
    refused(ep, "create_table", "conflict", "name", base_id=base, name="leads", fields=[{"name": "A", "type": "email"}])
    made = ok(
        ep,
        "create_table",
        base_id=base,
        name="Deals",
        fields=[
            {"name": "Deal", "type": "singleLineText"},
            {"name": "Lead", "type": "multipleRecordLinks", "linked_table_id": table(ep, "Leads")["id"]},
            {"name": "Size", "type": "singleSelect", "choices": ["S", "M", "L"]},
        ],
    )
    assert [v["name"] for v in made["views"]] == ["Grid view"]
    assert field(ep, "Leads", "Deals")["inverse_link_field_id"] == made["fields"][1]["id"]


# -- views and formulas -----------------------------------------------------------------------


def test_view_filters_fit_the_field_and_decide_what_the_view_lists(ep: Episode) -> None:
    grid = view(ep, "Leads", "Grid view")["id"]
    stage, email = field(ep, "Leads", "Stage")["id"], field(ep, "Leads", "Email")["id"]
    refused(
        ep,
        "set_view_filters",
        "rule_violation",
        "filters.0.operator",
        view_id=grid,
        filters=[{"field_id": email, "operator": ">", "value": 3}],
    )
    refused(
        ep,
        "set_view_filters",
        "rule_violation",
        "filters.0.value",
        view_id=grid,
        filters=[{"field_id": stage, "operator": "=", "value": "Closed"}],
    )
    refused(
        ep,
        "set_view_filters",
        "not_found",
        "filters.0.field_id",
        view_id=grid,
        filters=[{"field_id": field(ep, "Posts", "Status")["id"], "operator": "isEmpty"}],
    )
    ok(
        ep,
        "set_view_filters",
        view_id=grid,
        conjunction="or",
        filters=[
            {"field_id": stage, "operator": "=", "value": "Won"},
            {"field_id": stage, "operator": "=", "value": "Lost"},
        ],
    )
    shown = records(ep, "Leads", view_id=grid)
    assert shown and {r["fields"]["Stage"] for r in shown} == {"Won", "Lost"}
    ok(ep, "set_view_sorts", view_id=grid, sorts=[{"field_id": email, "direction": "desc"}])
    emails = [r["fields"]["Email"] for r in records(ep, "Leads", view_id=grid)]
    assert emails == sorted(emails, reverse=True)


def test_a_locked_view_keeps_its_filters_until_unlocked(ep: Episode) -> None:
    locked = view(ep, "Posts", "Ready to publish")
    assert locked["locked"]
    refused(ep, "set_view_filters", "rule_violation", "view_id", view_id=locked["id"], filters=[])
    refused(ep, "set_view_sorts", "rule_violation", "view_id", view_id=locked["id"], sorts=[])
    refused(ep, "delete_view", "rule_violation", "view_id", view_id=locked["id"])
    refused(ep, "lock_view", "rule_violation", "view_id", view_id=locked["id"])
    assert ok(ep, "unlock_view", view_id=locked["id"])["locked"] is False
    refused(ep, "unlock_view", "rule_violation", "view_id", view_id=locked["id"])
    ok(ep, "set_view_filters", view_id=locked["id"], filters=[])
    assert len(records(ep, "Posts", view_id=locked["id"])) == len(records(ep, "Posts"))


def test_a_table_keeps_one_view_and_kanban_stacks_by_a_single_select(ep: Episode) -> None:
    suppliers = table(ep, "Suppliers")["id"]
    refused(
        ep,
        "create_view",
        "rule_violation",
        "group_field_id",
        table_id=suppliers,
        name="Board",
        type="kanban",
        group_field_id=field(ep, "Suppliers", "Supplier")["id"],
    )
    board = ok(
        ep,
        "create_view",
        table_id=suppliers,
        name="Board",
        type="kanban",
        group_field_id=field(ep, "Suppliers", "Payment terms")["id"],
    )
    refused(ep, "create_view", "conflict", "name", table_id=suppliers, name="board")
    for v in every(ep, "list_views", table_id=suppliers):
        if v["id"] != board["id"]:
            ok(ep, "delete_view", view_id=v["id"])
    refused(ep, "delete_view", "rule_violation", "view_id", view_id=board["id"])


def test_filter_by_formula_keeps_the_records_it_makes_true(ep: Episode) -> None:
    leads = records(ep, "Leads")
    got = records(ep, "Leads", filter_by_formula="AND({Stage} = 'Qualified', {Deal size} > 10000)")
    want = [r["id"] for r in leads if r["fields"]["Stage"] == "Qualified" and r["fields"].get("Deal size", 0) > 10000]
    assert [r["id"] for r in got] == want and want
    company = ok(ep, "get_record", record_id=leads[0]["fields"]["Company"][0])["fields"]["Company"]
    found = records(ep, "Leads", filter_by_formula=f"SEARCH('{company.lower()}', {{Company}})")
    assert leads[0]["id"] in [r["id"] for r in found]
    blank = records(ep, "Leads", filter_by_formula="OR({Deal size} = BLANK(), NOT({Next follow-up}))")
    assert {r["id"] for r in blank} == {
        r["id"] for r in leads if "Deal size" not in r["fields"] or "Next follow-up" not in r["fields"]
    }
    refused(
        ep,
        "list_records",
        "rule_violation",
        "filter_by_formula",
        table_id=table(ep, "Leads")["id"],
        filter_by_formula="{Stage = 'Won'",
    )
    refused(
        ep,
        "list_records",
        "rule_violation",
        "filter_by_formula",
        table_id=table(ep, "Leads")["id"],
        filter_by_formula="{Status} = 'Won'",
    )


def test_records_page_by_offset_and_sort(ep: Episode) -> None:
    leads = table(ep, "Leads")["id"]
    first = ok(ep, "list_records", table_id=leads, page_size=5, sort=[{"field": "Name"}])
    second = ok(ep, "list_records", table_id=leads, page_size=5, sort=[{"field": "Name"}], offset=first["offset"])
    names = [r["fields"]["Name"] for r in first["records"] + second["records"]]
    assert names == sorted(names, key=str.casefold) and len(names) == 10
    assert len(ok(ep, "list_records", table_id=leads, max_records=3)["records"]) == 3
    refused(ep, "list_records", "not_found", "sort.0.field", table_id=leads, sort=[{"field": "Nope"}])


# -- comments and collaborators ---------------------------------------------------------------


def test_comments_need_comment_permission_and_mention_collaborators(ep: Episode) -> None:
    rec = records(ep, "Leads")[0]
    reader = collaborator(ep, "Leads", "read")["email"]
    commenter = collaborator(ep, "Leads", "comment")["email"]
    refused(ep, "create_comment", "rule_violation", "author_email", record_id=rec["id"], author_email=reader, text="Hi")
    refused(
        ep,
        "create_comment",
        "rule_violation",
        "text",
        record_id=rec["id"],
        author_email=commenter,
        text=f"@[{POP.consumers[0].email}] look",
    )
    made = ok(ep, "create_comment", record_id=rec["id"], author_email=commenter, text=f"Ping @[{reader}]")
    assert made["mentioned_emails"] == [reader]
    assert ok(ep, "get_record", record_id=rec["id"])["comment_count"] == rec["comment_count"] + 1
    refused(
        ep,
        "update_comment",
        "rule_violation",
        "author_email",
        comment_id=made["id"],
        author_email=reader,
        text="Mine now",
    )
    assert ok(ep, "update_comment", comment_id=made["id"], author_email=commenter, text="Edited")["last_updated_time"]
    ok(ep, "delete_comment", comment_id=made["id"], author_email=owner_of(ep, "Leads"))
    assert ok(ep, "get_record", record_id=rec["id"])["comment_count"] == rec["comment_count"]


def test_only_the_owner_and_creators_share_a_base(ep: Episode) -> None:
    base = table(ep, "Leads")["base_id"]
    editor = collaborator(ep, "Leads", "edit")
    outsider = next(p for p in POP.employees if not every(ep, "list_collaborators", base_id=base, email=p.email))
    refused(
        ep,
        "add_base_collaborator",
        "rule_violation",
        "invited_by_email",
        base_id=base,
        email=outsider.email,
        permission_level="read",
        invited_by_email=editor["email"],
    )
    owner = owner_of(ep, "Leads")
    refused(
        ep,
        "add_base_collaborator",
        "conflict",
        "email",
        base_id=base,
        email=editor["email"],
        permission_level="read",
        invited_by_email=owner,
    )
    added = ok(
        ep,
        "add_base_collaborator",
        base_id=base,
        email=outsider.email,
        permission_level="create",
        invited_by_email=owner,
    )
    assert added["name"] == outsider.name
    ok(
        ep,
        "update_collaborator_permission",
        collaborator_id=editor["id"],
        permission_level="read",
        changed_by_email=outsider.email,
    )
    me = collaborator(ep, "Leads", "owner")
    refused(
        ep,
        "update_collaborator_permission",
        "rule_violation",
        "collaborator_id",
        collaborator_id=me["id"],
        permission_level="edit",
        changed_by_email=outsider.email,
    )
    refused(
        ep,
        "remove_base_collaborator",
        "rule_violation",
        "collaborator_id",
        collaborator_id=me["id"],
        removed_by_email=owner,
    )
    ok(ep, "remove_base_collaborator", collaborator_id=editor["id"], removed_by_email=editor["email"])
    leads = table(ep, "Leads")["id"]
    refused(
        ep,
        "create_records",
        "rule_violation",
        "records.0.fields.Owner",
        table_id=leads,
        records=[{"fields": {"Name": "X", "Owner": editor["email"]}}],
    )
    made = ok(ep, "create_records", table_id=leads, records=[{"fields": {"Name": "X", "Owner": outsider.email}}])
    assert made[0]["fields"]["Owner"] == outsider.email
