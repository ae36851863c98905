"""Dockyard Registry (Docker Hub-style): pushes and roles, immutable tags, retention, scans, plans and tokens."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

REG = ServiceTools("registry")
WORLD = REG.world
ok, refused, every, items, first = REG.ok, REG.refused, REG.every, REG.items, REG.first
POP = WORLD.population
ORG = POP.home.domain.split(".")[0]


def repo(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "repositories", full_name=f"{ORG}/{name}")


def member(ep: Episode, role: str, namespace: str = ORG) -> str:
    ns = first(ep, "namespaces", name=namespace)
    return str(first(ep, "members", namespace_id=ns["id"], role=role)["email"])


def digest(n: int) -> str:
    return "sha256:" + f"{n:02x}" * 32


def push(ep: Episode, repo_id: str, tag: str, n: int, who: str) -> dict[str, Any]:
    return dict(
        ok(ep, "push_image", repository_id=repo_id, tag=tag, digest=digest(n), size_bytes=1000, pushed_by_email=who)
    )


# -- the seeded world -----------------------------------------------------------------------


def test_the_organization_is_the_home_company_and_members_are_staff() -> None:
    ep = Episode(WORLD)
    for ns in every(ep, "list_namespaces"):
        assert ns["company"] == POP.home.name
    staff = {p.email: p.name for p in POP.employees}
    for m in every(ep, "list_members"):
        assert staff[m["email"]] == m["name"]


def test_seeded_repositories_respect_their_retention_and_latest_follows_the_newest_version() -> None:
    ep = Episode(WORLD)
    for r in every(ep, "list_repositories"):
        tags = items(ep, "tags", repository_id=r["id"])
        versions = [t for t in tags if t["name"] != "latest"]
        if r["retention_keep_last"] is not None:
            assert len(versions) <= r["retention_keep_last"]
        latest = [t for t in tags if t["name"] == "latest"]
        if latest:
            newest = max(versions, key=lambda t: t["pushed_at"])
            assert latest[0]["digest"] == newest["digest"]


# -- pushing --------------------------------------------------------------------------------


def test_editors_push_and_viewers_and_strangers_do_not(ep: Episode) -> None:
    r = repo(ep, "docs")
    refused(
        ep,
        "push_image",
        "rule_violation",
        "pushed_by_email",
        repository_id=r["id"],
        tag="2.0",
        digest=digest(1),
        size_bytes=10,
        pushed_by_email=member(ep, "viewer"),
    )
    refused(
        ep,
        "push_image",
        "not_found",
        "pushed_by_email",
        repository_id=r["id"],
        tag="2.0",
        digest=digest(1),
        size_bytes=10,
        pushed_by_email="someone@elsewhere.example",
    )
    res = push(ep, r["id"], "2.0", 1, member(ep, "editor"))
    assert (res["tag"]["name"], res["tag"]["digest"], res["pruned"]) == ("2.0", digest(1), [])
    assert ok(ep, "get_repository", repository_id=r["id"])["last_pushed_at"] is not None


def test_an_immutable_tag_never_moves_but_a_mutable_one_does(ep: Episode) -> None:
    editor = member(ep, "editor")
    immutable = repo(ep, "web-app")
    tag = first(ep, "tags", repository_id=immutable["id"], name="latest")
    refused(
        ep,
        "push_image",
        "conflict",
        "tag",
        repository_id=immutable["id"],
        tag="latest",
        digest=digest(9),
        size_bytes=10,
        pushed_by_email=editor,
    )
    same = ok(
        ep,
        "push_image",
        repository_id=immutable["id"],
        tag="latest",
        digest=tag["digest"],
        size_bytes=10,
        pushed_by_email=editor,
    )
    assert same["tag"]["digest"] == tag["digest"]  # re-pushing the same image is fine
    mutable = repo(ep, "docs")
    moved = push(ep, mutable["id"], "latest", 9, editor)
    assert moved["tag"]["digest"] == digest(9)
    assert len(items(ep, "tags", repository_id=mutable["id"], name="latest")) == 1


def test_a_push_applies_retention_and_keeps_latest(ep: Episode) -> None:
    r = repo(ep, "data-pipeline")
    before = items(ep, "tags", repository_id=r["id"])
    versions = sorted((t for t in before if t["name"] != "latest"), key=lambda t: t["pushed_at"])
    res = push(ep, r["id"], "9.9.9", 3, member(ep, "editor"))
    assert res["pruned"] == [versions[0]["name"]]
    names = {t["name"] for t in items(ep, "tags", repository_id=r["id"])}
    assert "latest" in names and "9.9.9" in names and versions[0]["name"] not in names
    assert len(names - {"latest"}) == r["retention_keep_last"]


def test_a_push_never_prunes_a_repository_with_immutable_tags(ep: Episode) -> None:
    r = repo(ep, "api-server")
    before = {t["name"] for t in items(ep, "tags", repository_id=r["id"])}
    assert r["immutable_tags"] and len(before - {"latest"}) == r["retention_keep_last"]
    res = push(ep, r["id"], "9.9.9", 3, member(ep, "editor"))
    assert res["pruned"] == []
    assert {t["name"] for t in items(ep, "tags", repository_id=r["id"])} == before | {"9.9.9"}


def test_retagging_points_a_new_tag_at_the_same_digest(ep: Episode) -> None:
    r = repo(ep, "billing-service")
    src = first(ep, "tags", repository_id=r["id"], name="latest")
    new = ok(
        ep, "retag_image", repository_id=r["id"], source_tag="latest", new_tag="stable", by_email=member(ep, "editor")
    )
    assert new["digest"] == src["digest"]
    refused(
        ep,
        "retag_image",
        "not_found",
        "source_tag",
        repository_id=r["id"],
        source_tag="nope",
        new_tag="x",
        by_email=member(ep, "editor"),
    )


# -- pulling and deleting -------------------------------------------------------------------


def test_private_images_are_pulled_by_members_only_and_pulls_are_counted(ep: Episode) -> None:
    r = repo(ep, "billing-service")
    refused(ep, "pull_image", "rule_violation", "email", repository_id=r["id"], tag="latest")
    refused(
        ep,
        "pull_image",
        "rule_violation",
        "email",
        repository_id=r["id"],
        tag="latest",
        email="outsider@elsewhere.example",
    )
    pulled = ok(ep, "pull_image", repository_id=r["id"], tag="latest", email=member(ep, "viewer"))
    assert pulled["last_pulled_at"] is not None
    assert ok(ep, "get_repository", repository_id=r["id"])["pull_count"] == r["pull_count"] + 1
    public = repo(ep, "docs")
    assert ok(ep, "pull_image", repository_id=public["id"], tag="latest")["name"] == "latest"


def test_recently_pulled_tags_need_force_and_immutable_ones_are_never_deleted(ep: Episode) -> None:
    editor = member(ep, "editor")
    r = repo(ep, "docs")
    refused(ep, "delete_tag", "rule_violation", "force", repository_id=r["id"], tag="latest", by_email=editor)
    ok(ep, "delete_tag", repository_id=r["id"], tag="latest", by_email=editor, force=True)
    assert items(ep, "tags", repository_id=r["id"], name="latest") == []
    immutable = repo(ep, "web-app")
    refused(
        ep,
        "delete_tag",
        "rule_violation",
        "tag",
        repository_id=immutable["id"],
        tag="1.0.0",
        by_email=editor,
        force=True,
    )
    refused(ep, "delete_repository", "rule_violation", "repository_id", repository_id=immutable["id"])


# -- scans ----------------------------------------------------------------------------------


def test_deployability_needs_a_recent_scan_within_the_policy(ep: Episode) -> None:
    r = repo(ep, "billing-service")
    ok(
        ep,
        "push_image",
        repository_id=r["id"],
        tag="2.0.0",
        digest=digest(7),
        size_bytes=5,
        pushed_by_email=member(ep, "editor"),
    )
    unscanned = ok(ep, "check_deployable", repository_id=r["id"], tag="2.0.0")
    assert not unscanned["deployable"] and unscanned["scan_id"] is None
    scan = ok(ep, "scan_image", repository_id=r["id"], tag="2.0.0")
    assert scan["digest"] == digest(7)
    assert [scan[s] for s in ("critical", "high", "medium", "low")] == [
        sum(1 for f in scan["findings"] if f["severity"] == s) for s in ("critical", "high", "medium", "low")
    ]
    strict = ok(ep, "check_deployable", repository_id=r["id"], tag="2.0.0", max_severity_allowed="none")
    assert strict["scan_id"] == scan["id"]
    assert strict["deployable"] == (not scan["findings"])
    lenient = ok(ep, "check_deployable", repository_id=r["id"], tag="2.0.0", max_severity_allowed="high")
    assert lenient["deployable"] == (scan["critical"] == 0)


def test_an_old_scan_is_stale() -> None:
    ep = Episode(WORLD)
    stale = [sc for sc in every(ep, "list_scans") if sc["scanned_at"] < "2026-02-01"]
    assert stale
    sc = stale[0]
    tag = first(ep, "tags", repository_id=sc["repository_id"], digest=sc["digest"])
    res = ok(ep, "check_deployable", repository_id=sc["repository_id"], tag=tag["name"], max_severity_allowed="high")
    assert not res["deployable"] and any("older" in r for r in res["reasons"])


# -- plans, retention runs, tokens ----------------------------------------------------------


def test_the_free_plan_allows_one_private_repository(ep: Episode) -> None:
    labs = first(ep, "namespaces", name=f"{ORG}-labs")
    owner = member(ep, "owner", f"{ORG}-labs")
    refused(
        ep,
        "create_repository",
        "rule_violation",
        "visibility",
        namespace_id=labs["id"],
        name="scratch",
        created_by_email=owner,
    )
    pub = ok(
        ep, "create_repository", namespace_id=labs["id"], name="scratch", created_by_email=owner, visibility="public"
    )
    assert pub["full_name"] == f"{ORG}-labs/scratch"
    refused(ep, "update_repository", "rule_violation", "visibility", repository_id=pub["id"], visibility="private")
    ok(ep, "update_namespace", namespace_id=labs["id"], plan="pro")
    assert ok(ep, "update_repository", repository_id=pub["id"], visibility="private")["visibility"] == "private"
    refused(
        ep,
        "create_repository",
        "conflict",
        "name",
        namespace_id=labs["id"],
        name="scratch",
        created_by_email=owner,
        visibility="public",
    )


def test_a_retention_dry_run_deletes_nothing(ep: Episode) -> None:
    r = repo(ep, "docs")
    ok(ep, "update_repository", repository_id=r["id"], retention_keep_last=2)
    before = items(ep, "tags", repository_id=r["id"])
    dry = ok(ep, "apply_retention", repository_id=r["id"])
    assert dry["dry_run"] and len(dry["removed"]) == len(before) - 1 - 2
    assert items(ep, "tags", repository_id=r["id"]) == before
    done = ok(ep, "apply_retention", repository_id=r["id"], dry_run=False)
    assert done["removed"] == dry["removed"]
    assert len(items(ep, "tags", repository_id=r["id"])) == 3


def test_tokens_are_shown_once_viewers_get_read_only_and_revoked_tokens_stay_revoked(ep: Episode) -> None:
    ns = first(ep, "namespaces", name=ORG)
    viewer = member(ep, "viewer")
    refused(
        ep,
        "create_access_token",
        "rule_violation",
        "scopes",
        namespace_id=ns["id"],
        member_email=viewer,
        description="push",
        scopes=["repo:write"],
    )
    made = ok(
        ep,
        "create_access_token",
        namespace_id=ns["id"],
        member_email=viewer,
        description="pull",
        scopes=["repo:read"],
        expires_in_days=30,
    )
    assert made["secret"].startswith(made["token"]["token_prefix"]) and len(made["secret"]) > 20
    assert "secret" not in first(ep, "access_tokens", member_email=viewer)
    ok(ep, "revoke_access_token", access_token_id=made["token"]["id"])
    refused(ep, "revoke_access_token", "rule_violation", "access_token_id", access_token_id=made["token"]["id"])
    editor = member(ep, "editor")
    for k in range(5 - len(items(ep, "access_tokens", member_email=editor, active=True))):
        ok(
            ep,
            "create_access_token",
            namespace_id=ns["id"],
            member_email=editor,
            description=f"t{k}",
            scopes=["repo:read"],
        )
    refused(
        ep,
        "create_access_token",
        "rule_violation",
        "member_email",
        namespace_id=ns["id"],
        member_email=editor,
        description="one too many",
        scopes=["repo:read"],
    )
