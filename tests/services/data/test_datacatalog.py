"""Ledgerline Catalog: certification rules, glossary links, lineage without cycles, owner-decided access requests."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CAT = ServiceTools("datacatalog")
WORLD = CAT.world
ok, refused, every = CAT.ok, CAT.refused, CAT.every
STAFF = [p.email for p in WORLD.population.employees]


def asset(ep: Episode, qualified_name: str) -> dict[str, Any]:
    return every(ep, "list_assets", qualified_name=qualified_name)[0]


def test_seeded_assets_are_owned_by_staff_and_columns_hang_from_tables(ep: Episode) -> None:
    found = every(ep, "list_assets")
    assert {a["owner_email"] for a in found} <= set(STAFF)
    customers = asset(ep, "default/snowflake/analytics/customers")
    columns = every(ep, "list_assets", parent_id=customers["id"])
    assert len(columns) == 4 and all(c["asset_type"] == "Column" for c in columns)
    assert {a["certificate_status"] for a in found} == {"DRAFT", "VERIFIED", "DEPRECATED"}


def test_registering_needs_a_unique_name_and_a_table_for_columns(ep: Episode) -> None:
    orders = asset(ep, "default/snowflake/analytics/orders")
    base = {"name": "orders", "asset_type": "Table", "connector": "snowflake"}
    refused(ep, "register_asset", "conflict", "qualified_name", qualified_name=orders["qualified_name"], **base)
    col = {"name": "amount", "asset_type": "Column", "connector": "snowflake"}
    refused(ep, "register_asset", "rule_violation", "parent_id", qualified_name="default/snowflake/x/amount", **col)
    dash = asset(ep, "default/tableau/revenue-overview")
    refused(
        ep,
        "register_asset",
        "rule_violation",
        "parent_id",
        qualified_name="default/snowflake/x/a",
        parent_id=dash["id"],
        **col,
    )
    made = ok(
        ep, "register_asset", qualified_name="default/snowflake/analytics/orders/amount", parent_id=orders["id"], **col
    )
    assert made["parent_id"] == orders["id"] and made["certificate_status"] == "DRAFT"


def test_verification_needs_owner_description_and_the_owner_to_certify(ep: Episode) -> None:
    dash = asset(ep, "default/looker/pipeline-forecast")
    owner = dash["owner_email"]
    other = next(e for e in STAFF if e != owner)
    refused(
        ep,
        "certify_asset",
        "rule_violation",
        "certified_by",
        asset_id=dash["id"],
        certificate_status="VERIFIED",
        certified_by=other,
    )
    refused(
        ep,
        "certify_asset",
        "rule_violation",
        "asset_id",
        asset_id=dash["id"],
        certificate_status="VERIFIED",
        certified_by=owner,
    )
    ok(ep, "update_asset", asset_id=dash["id"], description="Weighted pipeline by close month.")
    done = ok(ep, "certify_asset", asset_id=dash["id"], certificate_status="VERIFIED", certified_by=owner)
    assert (done["certificate_status"], done["certified_by"]) == ("VERIFIED", owner)
    refused(
        ep,
        "certify_asset",
        "rule_violation",
        "message",
        asset_id=dash["id"],
        certificate_status="DEPRECATED",
        certified_by=owner,
    )


def test_a_deprecated_upstream_blocks_verification_downstream(ep: Episode) -> None:
    stg = asset(ep, "default/snowflake/staging/stg_payments")
    owner = stg["owner_email"]
    assert ok(ep, "certify_asset", asset_id=stg["id"], certificate_status="VERIFIED", certified_by=owner)
    raw = asset(ep, "default/snowflake/raw/stripe_charges")
    ok(
        ep,
        "certify_asset",
        asset_id=raw["id"],
        certificate_status="DEPRECATED",
        certified_by=raw["owner_email"],
        message="Use the payments feed",
    )
    ok(ep, "certify_asset", asset_id=stg["id"], certificate_status="DRAFT", certified_by=owner)
    refused(
        ep,
        "certify_asset",
        "rule_violation",
        "asset_id",
        asset_id=stg["id"],
        certificate_status="VERIFIED",
        certified_by=owner,
    )


def test_lineage_refuses_loops_duplicates_and_cycles(ep: Episode) -> None:
    orders = asset(ep, "default/snowflake/analytics/orders")
    raw = asset(ep, "default/snowflake/raw/stripe_charges")
    refused(
        ep,
        "add_lineage",
        "rule_violation",
        "target_id",
        source_id=orders["id"],
        target_id=orders["id"],
        process_name="x",
    )
    refused(
        ep, "add_lineage", "rule_violation", "target_id", source_id=orders["id"], target_id=raw["id"], process_name="x"
    )
    stg = asset(ep, "default/snowflake/staging/stg_payments")
    refused(ep, "add_lineage", "conflict", "target_id", source_id=raw["id"], target_id=stg["id"], process_name="x")
    down = ok(ep, "asset_lineage", asset_id=raw["id"], direction="downstream")["nodes"]
    names = {n["qualified_name"]: n["hops"] for n in down}
    assert names["default/snowflake/staging/stg_payments"] == 1
    assert names["default/snowflake/analytics/revenue_monthly"] == 3
    assert "default/tableau/revenue-overview" in names


def test_archived_assets_take_no_new_lineage_until_restored(ep: Episode) -> None:
    legacy = asset(ep, "default/snowflake/analytics/churn_legacy")
    dash = asset(ep, "default/looker/pipeline-forecast")
    assert legacy["status"] == "ARCHIVED"
    refused(
        ep, "add_lineage", "rule_violation", "source_id", source_id=legacy["id"], target_id=dash["id"], process_name="x"
    )
    ok(ep, "restore_asset", asset_id=legacy["id"])
    assert (
        ok(ep, "add_lineage", source_id=legacy["id"], target_id=dash["id"], process_name="x")["target_id"] == dash["id"]
    )


def test_terms_are_unique_and_deprecated_ones_cannot_be_linked(ep: Episode) -> None:
    steward = STAFF[0]
    refused(ep, "create_term", "conflict", "name", name="churn", definition="dup", owner_email=steward)
    refused(
        ep, "create_term", "rule_violation", "owner_email", name="Net Revenue", definition="x", owner_email="a@b.io"
    )
    orders = asset(ep, "default/snowflake/analytics/orders")
    old = every(ep, "list_terms", status="deprecated")[0]
    refused(ep, "link_term", "rule_violation", "term_id", asset_id=orders["id"], term_id=old["id"])
    term = ok(ep, "create_term", name="Net Revenue", definition="Revenue after refunds.", owner_email=steward)
    linked = ok(ep, "link_term", asset_id=orders["id"], term_id=term["id"])
    assert term["id"] in linked["term_ids"]
    refused(ep, "link_term", "conflict", "term_id", asset_id=orders["id"], term_id=term["id"])
    refused(ep, "delete_term", "conflict", "term_id", term_id=term["id"])
    ok(ep, "unlink_term", asset_id=orders["id"], term_id=term["id"])
    ok(ep, "delete_term", term_id=term["id"])


def test_only_the_owner_decides_access_and_one_request_is_pending_at_a_time(ep: Episode) -> None:
    orders = asset(ep, "default/snowflake/analytics/orders")
    owner = orders["owner_email"]
    asker = next(e for e in STAFF if e != owner and not every(ep, "list_access_requests", requester_email=e))
    refused(
        ep,
        "request_access",
        "rule_violation",
        "requester_email",
        asset_id=orders["id"],
        requester_email=owner,
        reason="x",
    )
    req = ok(ep, "request_access", asset_id=orders["id"], requester_email=asker, reason="Board deck")
    refused(
        ep,
        "request_access",
        "conflict",
        "requester_email",
        asset_id=orders["id"],
        requester_email=asker,
        reason="again",
    )
    refused(
        ep, "approve_access_request", "rule_violation", "reviewer_email", request_id=req["id"], reviewer_email=asker
    )
    done = ok(ep, "approve_access_request", request_id=req["id"], reviewer_email=owner)
    assert (done["status"], done["reviewer_email"]) == ("approved", owner) and done["decided_at"]
    refused(
        ep, "reject_access_request", "conflict", "request_id", request_id=req["id"], reviewer_email=owner, note="no"
    )
    assert ok(ep, "revoke_access", request_id=req["id"], reviewer_email=owner)["status"] == "revoked"


def test_deprecated_assets_take_no_access_requests(ep: Episode) -> None:
    dep = every(ep, "list_assets", certificate_status="DEPRECATED", status="ACTIVE")
    legacy = asset(ep, "default/snowflake/analytics/churn_legacy")
    ok(ep, "restore_asset", asset_id=legacy["id"])
    target = dep[0] if dep else legacy
    asker = next(e for e in STAFF if e != target["owner_email"])
    refused(
        ep, "request_access", "rule_violation", "asset_id", asset_id=target["id"], requester_email=asker, reason="x"
    )
