"""Lambdaworks: configuration rules, versions and aliases, invocation outcomes, concurrency, event sources."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FN = ServiceTools("functions")
WORLD = FN.world
ok, refused, every = FN.ok, FN.refused, FN.every
POP = WORLD.population
ME = POP.employees[0].email


def fn(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_functions", name=name)[0]


def test_seeded_functions_are_owned_by_staff_and_aliases_point_at_versions(ep: Episode) -> None:
    for f in every(ep, "list_functions"):
        assert f["owner_email"] in {p.email for p in POP.employees}
    for a in every(ep, "list_aliases"):
        have = {v["version"] for v in every(ep, "list_versions", function_id=a["function_id"])}
        assert a["function_version"] in have and (a["additional_version"] in have | {None})


def test_create_refuses_duplicates_deprecated_runtimes_and_outsiders(ep: Episode) -> None:
    base = {"runtime": "python3.12", "handler": "app.handler", "owner_email": ME}
    refused(ep, "create_function", "conflict", "name", name="image-resizer", **base)
    refused(ep, "create_function", "rule_violation", "runtime", name="x", **(base | {"runtime": "python3.7"}))
    refused(ep, "create_function", "rule_violation", "owner_email", name="x", **(base | {"owner_email": "a@b.io"}))
    refused(ep, "create_function", "rule_violation", "environment", name="x", environment={"1BAD": "v"}, **base)
    made = ok(ep, "create_function", name="pdf-maker", memory_mb=512, **base)
    assert (made["state"], made["timeout_s"], made["reserved_concurrency"]) == ("Active", 3, None)


def test_a_deprecated_runtime_may_stay_but_not_be_chosen_again(ep: Episode) -> None:
    legacy = fn(ep, "legacy-export")
    ok(ep, "update_function", function_id=legacy["id"], memory_mb=256)
    ok(ep, "update_function", function_id=legacy["id"], runtime="python3.12")
    refused(ep, "update_function", "rule_violation", "runtime", function_id=legacy["id"], runtime="python3.7")


def test_versions_publish_only_new_code(ep: Episode) -> None:
    orders = fn(ep, "orders-webhook")
    refused(ep, "publish_version", "conflict", "function_id", function_id=orders["id"])
    ok(ep, "update_function_code", function_id=orders["id"])
    v = ok(ep, "publish_version", function_id=orders["id"], description="Retry on 5xx")
    assert v["version"] == len(every(ep, "list_versions", function_id=orders["id"]))
    refused(ep, "publish_version", "conflict", "function_id", function_id=orders["id"])


def test_aliases_need_published_distinct_versions(ep: Episode) -> None:
    img = fn(ep, "image-resizer")
    refused(
        ep, "create_alias", "rule_violation", "function_version", function_id=img["id"], name="live", function_version=7
    )
    live = ok(ep, "create_alias", function_id=img["id"], name="live", function_version=1)
    refused(ep, "create_alias", "conflict", "name", function_id=img["id"], name="live", function_version=1)
    refused(
        ep,
        "update_alias",
        "rule_violation",
        "additional_version",
        alias_id=live["id"],
        additional_version=1,
        additional_weight=0.2,
    )
    refused(ep, "update_alias", "rule_violation", "additional_weight", alias_id=live["id"], additional_weight=0.2)


def test_invocations_succeed_error_or_throttle(ep: Episode) -> None:
    img = fn(ep, "image-resizer")
    good = ok(ep, "invoke", function_id=img["id"], payload='{"key": "a.png"}')
    assert good["outcome"] == "Success" and good["billed_ms"] >= 1
    bad = ok(ep, "invoke", function_id=img["id"], payload="not json")
    assert bad["outcome"] == "Error" and "not an object" in bad["error"]
    legacy = fn(ep, "legacy-export")
    assert ok(ep, "invoke", function_id=legacy["id"])["outcome"] == "Throttled"
    refused(ep, "invoke", "rule_violation", "function_id", function_id=fn(ep, "label-printer")["id"])
    refused(ep, "invoke", "rule_violation", "qualifier", function_id=img["id"], qualifier="prod")


def test_invoking_wakes_an_inactive_function_and_aliases_resolve_to_versions(ep: Episode) -> None:
    nightly = fn(ep, "nightly-report")
    refused(ep, "update_function_code", "rule_violation", "function_id", function_id=nightly["id"])
    ok(ep, "invoke", function_id=nightly["id"])
    assert ok(ep, "get_function", function_id=nightly["id"])["state"] == "Active"
    orders = fn(ep, "orders-webhook")
    got = ok(ep, "invoke", function_id=orders["id"], qualifier="live")
    assert got["version"] in ("2", "3") and got["qualifier"] == "live"


def test_reserved_concurrency_leaves_100_unreserved(ep: Episode) -> None:
    img = fn(ep, "image-resizer")
    others = sum(f["reserved_concurrency"] or 0 for f in every(ep, "list_functions") if f["id"] != img["id"])
    refused(ep, "put_concurrency", "rule_violation", "reserved", function_id=img["id"], reserved=901 - others)
    assert (
        ok(ep, "put_concurrency", function_id=img["id"], reserved=900 - others)["reserved_concurrency"] == 900 - others
    )
    assert ok(ep, "put_concurrency", function_id=img["id"], reserved=None)["reserved_concurrency"] is None


def test_event_sources_are_unique_and_block_deleting_while_enabled(ep: Episode) -> None:
    img = fn(ep, "image-resizer")
    mapping = every(ep, "list_event_source_mappings", function_id=img["id"])[0]
    refused(
        ep,
        "create_event_source_mapping",
        "conflict",
        "source",
        function_id=img["id"],
        source_type="sqs",
        source=mapping["source"],
    )
    refused(ep, "delete_function", "conflict", "function_id", function_id=img["id"])
    ok(ep, "disable_event_source_mapping", event_source_mapping_id=mapping["id"])
    ok(ep, "delete_function", function_id=img["id"])
    assert all(m["function_id"] != img["id"] for m in every(ep, "list_event_source_mappings"))
