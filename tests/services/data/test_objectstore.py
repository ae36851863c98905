"""Strata Object Storage: bucket names, versions and delete markers, public access, lifecycle, presigned links."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.data.objectstore import MAX_PRESIGN_SECONDS
from tests.services.helpers import ServiceTools

OS = ServiceTools("objectstore")
WORLD = OS.world
ok, refused, every = OS.ok, OS.refused, OS.every
POP = WORLD.population
NOW = WORLD.epoch


def bucket(ep: Episode, suffix: str) -> dict[str, Any]:
    found = [b for b in every(ep, "list_buckets") if b["name"].endswith(f"-{suffix}")]
    assert len(found) == 1, suffix
    return found[0]


def versions(ep: Episode, b: dict[str, Any], key: str) -> list[dict[str, Any]]:
    return every(ep, "list_object_versions", bucket_id=b["id"], key=key)


def put(ep: Episode, b: dict[str, Any], key: str, size: int = 1000, **kw: Any) -> Any:
    return ok(
        ep,
        "put_object",
        bucket_id=b["id"],
        key=key,
        size=size,
        content_type=kw.pop("content_type", "application/pdf"),
        uploaded_by=b["owner_email"],
        **kw,
    )


def test_seeded_buckets_hold_the_customers_invoices_and_links_go_to_their_people(ep: Episode) -> None:
    base = POP.home.domain.split(".")[0].lower()
    names = [b["name"] for b in every(ep, "list_buckets")]
    assert all(n.startswith(f"{base}-") for n in names) and len(set(names)) == len(names)
    invoices = bucket(ep, "invoices")
    domains = {c.domain for c in POP.customers}
    keys = [o["key"] for o in every(ep, "list_object_versions", bucket_id=invoices["id"])]
    assert keys and all(k.split("/")[1] in domains for k in keys)
    staff = {p.email for p in POP.employees}
    assert all(o["uploaded_by"] in staff for o in every(ep, "list_object_versions"))
    by_domain = {c.domain: c for c in POP.customers}
    for link in every(ep, "list_presigned_urls"):
        company = by_domain[link["key"].split("/")[1]]
        assert link["issued_to_email"] in {p.email for p in POP.people_at(company)}
    # Every key has exactly one current version.
    latest: dict[tuple[str, str], int] = {}
    for o in every(ep, "list_object_versions", is_latest=True):
        latest[(o["bucket_id"], o["key"])] = latest.get((o["bucket_id"], o["key"]), 0) + 1
    assert set(latest.values()) == {1}


def test_bucket_names_follow_the_dns_rules_and_are_globally_unique(ep: Episode) -> None:
    owner = POP.employees[0].email
    made = ok(ep, "create_bucket", name="quarterly-reports-2026", region="eu-west-1", owner_email=owner)
    assert (made["versioning"], made["block_public_access"]) == ("Disabled", True)
    for bad in ("ab", "Quarterly-Reports", "reports..2026", "192.168.5.4", "xn--reports", "-reports", "a" * 64):
        refused(ep, "create_bucket", "rule_violation", "name", name=bad, region="eu-west-1", owner_email=owner)
    taken = bucket(ep, "invoices")["name"]
    msg = refused(ep, "create_bucket", "conflict", "name", name=taken, region="us-east-1", owner_email=owner)
    assert "BucketAlreadyExists" in msg


def test_a_bucket_with_objects_cannot_be_deleted_until_every_version_is_gone(ep: Episode) -> None:
    contracts = bucket(ep, "contracts")
    msg = refused(ep, "delete_bucket", "rule_violation", "bucket_id", bucket_id=contracts["id"])
    assert "BucketNotEmpty" in msg
    logs = bucket(ep, "app-logs")
    for o in every(ep, "list_object_versions", bucket_id=logs["id"]):
        ok(ep, "delete_object", bucket_id=logs["id"], key=o["key"])
    assert every(ep, "list_lifecycle_rules", bucket_id=logs["id"])
    ok(ep, "delete_bucket", bucket_id=logs["id"])
    assert all(r["bucket_id"] != logs["id"] for r in every(ep, "list_lifecycle_rules"))
    ok(ep, "delete_bucket", bucket_id=bucket(ep, "scratch")["id"])


def test_versioned_writes_keep_old_versions_and_a_delete_marker_hides_the_key_until_removed(ep: Episode) -> None:
    contracts = bucket(ep, "contracts")
    key = every(ep, "list_object_versions", bucket_id=contracts["id"], is_latest=True, is_delete_marker=False)[0]["key"]
    before = versions(ep, contracts, key)
    new = put(ep, contracts, key, size=130_000)
    after = versions(ep, contracts, key)
    assert len(after) == len(before) + 1 and new["version_id"] != "null"
    assert [v["id"] for v in after if v["is_latest"]] == [new["id"]]
    gone = ok(ep, "delete_object", bucket_id=contracts["id"], key=key)
    assert gone["delete_marker"] and gone["current"] is None
    refused(ep, "head_object", "not_found", "key", bucket_id=contracts["id"], key=key)
    refused(
        ep,
        "head_object",
        "rule_violation",
        "version_id",
        bucket_id=contracts["id"],
        key=key,
        version_id=gone["version_id"],
    )
    assert ok(ep, "head_object", bucket_id=contracts["id"], key=key, version_id=new["version_id"])["size"] == 130_000
    back = ok(ep, "delete_object", bucket_id=contracts["id"], key=key, version_id=gone["version_id"])
    assert back["current"]["id"] == new["id"]
    assert ok(ep, "head_object", bucket_id=contracts["id"], key=key)["etag"] == new["etag"]


def test_unversioned_and_suspended_buckets_replace_the_null_version(ep: Episode) -> None:
    invoices = bucket(ep, "invoices")
    key = every(ep, "list_object_versions", bucket_id=invoices["id"])[0]["key"]
    put(ep, invoices, key, size=7)
    assert [(v["version_id"], v["size"]) for v in versions(ep, invoices, key)] == [("null", 7)]
    contracts = bucket(ep, "contracts")
    key = every(ep, "list_object_versions", bucket_id=contracts["id"], is_delete_marker=False)[0]["key"]
    kept = len(versions(ep, contracts, key))
    ok(ep, "set_bucket_versioning", bucket_id=contracts["id"], status="Suspended")
    put(ep, contracts, key, size=1)
    put(ep, contracts, key, size=2)
    now = versions(ep, contracts, key)
    assert len(now) == kept + 1
    assert [(v["version_id"], v["size"]) for v in now if v["is_latest"]] == [("null", 2)]


def test_versioning_can_be_suspended_but_never_switched_off(ep: Episode) -> None:
    scratch = bucket(ep, "scratch")
    refused(ep, "set_bucket_versioning", "rule_violation", "status", bucket_id=scratch["id"], status="Suspended")
    refused(ep, "set_bucket_versioning", "invalid_arguments", "status", bucket_id=scratch["id"], status="Disabled")
    assert ok(ep, "set_bucket_versioning", bucket_id=scratch["id"], status="Enabled")["versioning"] == "Enabled"
    refused(ep, "set_bucket_versioning", "conflict", "status", bucket_id=scratch["id"], status="Enabled")
    assert ok(ep, "set_bucket_versioning", bucket_id=scratch["id"], status="Suspended")["versioning"] == "Suspended"


def test_block_public_access_refuses_public_acls_and_turning_it_on_makes_objects_private(ep: Episode) -> None:
    invoices = bucket(ep, "invoices")
    key = every(ep, "list_object_versions", bucket_id=invoices["id"])[0]["key"]
    refused(ep, "put_object_acl", "rule_violation", "acl", bucket_id=invoices["id"], key=key, acl="public-read")
    refused(
        ep,
        "put_object",
        "rule_violation",
        "acl",
        bucket_id=invoices["id"],
        key="x.pdf",
        size=1,
        content_type="application/pdf",
        uploaded_by=invoices["owner_email"],
        acl="public-read",
    )
    assets = bucket(ep, "web-assets")
    assert put(ep, assets, "img/banner.png", content_type="image/png", acl="public-read")["acl"] == "public-read"
    ok(ep, "put_public_access_block", bucket_id=assets["id"], block=True)
    assert {o["acl"] for o in every(ep, "list_object_versions", bucket_id=assets["id"])} == {"private"}
    refused(ep, "put_public_access_block", "conflict", "block", bucket_id=assets["id"], block=True)


def test_one_put_takes_at_most_five_gigabytes(ep: Episode) -> None:
    invoices = bucket(ep, "invoices")
    msg = refused(
        ep,
        "put_object",
        "rule_violation",
        "size",
        bucket_id=invoices["id"],
        key="big.bin",
        size=5 * 1024**3 + 1,
        content_type="application/octet-stream",
        uploaded_by=invoices["owner_email"],
    )
    assert "EntityTooLarge" in msg
    assert put(ep, invoices, "big.bin", size=5 * 1024**3)["size"] == 5 * 1024**3


def test_listing_rolls_keys_up_into_prefixes_and_pages(ep: Episode) -> None:
    invoices = bucket(ep, "invoices")
    top = ok(ep, "list_objects", bucket_id=invoices["id"], delimiter="/")
    assert top["contents"] == [] and set(top["common_prefixes"]) >= {"2026/"}
    year = ok(ep, "list_objects", bucket_id=invoices["id"], prefix="2026/", delimiter="/")
    assert all(p.startswith("2026/") and p.endswith("/") for p in year["common_prefixes"])
    first = ok(ep, "list_objects", bucket_id=invoices["id"], max_keys=2)
    assert first["is_truncated"] and first["key_count"] == 2
    rest = ok(ep, "list_objects", bucket_id=invoices["id"], start_after=first["next_start_after"])
    keys = [o["key"] for o in first["contents"] + rest["contents"]]
    assert keys == sorted(keys) and len(keys) == len(every(ep, "list_object_versions", bucket_id=invoices["id"]))
    contracts = bucket(ep, "contracts")
    listed = ok(ep, "list_objects", bucket_id=contracts["id"])["contents"]
    markers = every(ep, "list_object_versions", bucket_id=contracts["id"], is_latest=True, is_delete_marker=True)
    assert markers and not {m["key"] for m in markers} & {o["key"] for o in listed}


def test_presigned_links_expire_within_seven_days_and_cannot_read_archived_objects(ep: Episode) -> None:
    invoices = bucket(ep, "invoices")
    key = every(ep, "list_object_versions", bucket_id=invoices["id"])[0]["key"]
    who = POP.customers[0]
    link = ok(
        ep,
        "presign_url",
        bucket_id=invoices["id"],
        key=key,
        method="GET",
        expires_in_seconds=3600,
        issued_to_email=POP.people_at(who)[0].email,
    )
    issued = dt.datetime.fromisoformat(link["issued_at"])
    assert dt.datetime.fromisoformat(link["expires_at"]) == issued + dt.timedelta(hours=1)
    assert link["url"].startswith(f"https://{invoices['name']}.")
    refused(
        ep,
        "presign_url",
        "rule_violation",
        "expires_in_seconds",
        bucket_id=invoices["id"],
        key=key,
        method="GET",
        expires_in_seconds=MAX_PRESIGN_SECONDS + 1,
    )
    logs = bucket(ep, "app-logs")
    archived = every(ep, "list_object_versions", bucket_id=logs["id"], storage_class="GLACIER")[0]["key"]
    refused(
        ep,
        "presign_url",
        "rule_violation",
        "key",
        bucket_id=logs["id"],
        key=archived,
        method="GET",
        expires_in_seconds=60,
    )
    refused(
        ep,
        "presign_url",
        "not_found",
        "key",
        bucket_id=invoices["id"],
        key="missing.pdf",
        method="GET",
        expires_in_seconds=60,
    )
    assert (
        ok(
            ep,
            "presign_url",
            bucket_id=invoices["id"],
            key="upload/new.pdf",
            method="PUT",
            expires_in_seconds=MAX_PRESIGN_SECONDS,
        )["method"]
        == "PUT"
    )


def test_lifecycle_rules_are_checked_and_applying_them_archives_and_expires_by_age(ep: Episode) -> None:
    scratch = bucket(ep, "scratch")
    base = {"bucket_id": scratch["id"], "rule_name": "r1"}
    refused(ep, "put_lifecycle_rule", "rule_violation", "expiration_days", **base)
    refused(
        ep,
        "put_lifecycle_rule",
        "rule_violation",
        "transition_days",
        **base,
        transition_days=10,
        transition_storage_class="STANDARD_IA",
    )
    refused(
        ep,
        "put_lifecycle_rule",
        "rule_violation",
        "expiration_days",
        **base,
        transition_days=30,
        transition_storage_class="GLACIER",
        expiration_days=30,
    )
    ok(ep, "put_lifecycle_rule", **base, transition_days=30, transition_storage_class="STANDARD_IA")
    refused(ep, "put_lifecycle_rule", "conflict", "rule_name", **base, expiration_days=5)
    contracts = bucket(ep, "contracts")
    refused(ep, "apply_lifecycle", "rule_violation", "bucket_id", bucket_id=contracts["id"])

    logs = bucket(ep, "app-logs")
    ages = {
        o["key"]: (NOW - dt.datetime.fromisoformat(o["last_modified"])).days
        for o in every(ep, "list_object_versions", bucket_id=logs["id"])
    }
    run = ok(ep, "apply_lifecycle", bucket_id=logs["id"])
    assert set(run["expired"]) == {k for k, age in ages.items() if age >= 60}
    assert set(run["transitioned"]) == {k for k, age in ages.items() if 45 <= age < 60}
    left = every(ep, "list_object_versions", bucket_id=logs["id"])
    assert {o["key"] for o in left} == {k for k, age in ages.items() if age < 60}
    assert all(o["storage_class"] == "GLACIER" for o in left if ages[o["key"]] >= 45)
