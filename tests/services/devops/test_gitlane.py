"""Gitlane: merge gates (approvals, pipeline, draft, sha, protected target), pushes, pipelines, issues, milestones."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

GL = ServiceTools("gitlane")
WORLD = GL.world
ok, refused, every = GL.ok, GL.refused, GL.every
POP = WORLD.population


def project(ep: Episode, path: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_projects") if p["path_with_namespace"].endswith("/" + path))


def mr(ep: Episode, path: str, title: str) -> dict[str, Any]:
    found = every(ep, "list_merge_requests", project_id=project(ep, path)["id"], query=title)
    assert len(found) == 1, found
    return found[0]


def user(ep: Episode, n: int) -> dict[str, Any]:
    return every(ep, "list_users")[n]


def pipeline_of(ep: Episode, project_id: str, sha: str) -> dict[str, Any]:
    return max(every(ep, "list_pipelines", project_id=project_id, sha=sha), key=lambda p: p["iid"])


def branch(ep: Episode, project_id: str, name: str) -> dict[str, Any]:
    return GL.first(ep, "branches", project_id=project_id, name=name)


OWNER, PLATFORM_MAINTAINER, WEB_MAINTAINER, DEV = 0, 1, 2, 4
"""Seeded users by position: the group owner, maintainers of the subgroups, a developer of the whole group."""


def test_seeded_platform_is_the_engineering_team_and_merge_requests_point_at_their_branch_heads() -> None:
    ep = Episode(WORLD)
    engineers = {p.email: p for p in POP.staff("Engineering", fallback=8)}
    for u in every(ep, "list_users"):
        assert engineers[u["email"]].name == u["name"]
    states = {m["state"] for m in every(ep, "list_merge_requests")}
    assert states == {"opened", "merged", "closed"}
    for m in every(ep, "list_merge_requests", state="opened"):
        assert branch(ep, m["project_id"], m["source_branch"])["commit_sha"] == m["sha"]
        assert m["draft"] == m["title"].startswith("Draft:")
    paths = {p["path_with_namespace"] for p in every(ep, "list_projects")}
    assert all(p.count("/") == 2 for p in paths) and len(paths) == 5


def test_an_approved_merge_request_with_a_green_pipeline_merges_and_closes_its_issue(ep: Episode) -> None:
    m = mr(ep, "api-server", "Upgrade dependencies")
    assert m["description"] == "Closes #1" and len(m["approved_by"]) == 2
    owner = user(ep, OWNER)
    done = ok(
        ep,
        "merge_merge_request",
        merge_request_id=m["id"],
        user_id=owner["id"],
        sha=m["sha"],
        should_remove_source_branch=True,
    )
    assert done["state"] == "merged" and done["merged_by_id"] == owner["id"]
    main = branch(ep, m["project_id"], "main")
    assert main["commit_sha"] == done["merge_commit_sha"]
    assert pipeline_of(ep, m["project_id"], main["commit_sha"])["status"] == "pending"
    assert not GL.items(ep, "branches", project_id=m["project_id"], name=m["source_branch"])
    issue = GL.first(ep, "issues", project_id=m["project_id"], iid=1)
    assert issue["state"] == "closed" and issue["closed_by_merge_request_id"] == m["id"]


def test_merge_is_refused_while_approvals_pipeline_or_readiness_are_missing(ep: Episode) -> None:
    owner = user(ep, OWNER)["id"]
    for title, why in (
        ("Add per-token rate limits", "Backend maintainers: 1 of 2"),
        ("Add outgoing webhooks", "is failed"),
        ("Fix null invoice totals", "is running"),
        ("Export reports as CSV", "draft"),
    ):
        m = mr(ep, "api-server", title)
        msg = refused(
            ep, "merge_merge_request", "rule_violation", "merge_request_id", merge_request_id=m["id"], user_id=owner
        )
        assert why in msg
    ready = mr(ep, "api-server", "Upgrade dependencies")
    refused(ep, "merge_merge_request", "conflict", "sha", merge_request_id=ready["id"], user_id=owner, sha="0" * 40)
    # A developer may not merge into main, which only maintainers merge into.
    dev = user(ep, DEV)["id"]
    refused(ep, "merge_merge_request", "rule_violation", "user_id", merge_request_id=ready["id"], user_id=dev)


def test_a_project_without_the_pipeline_gate_merges_while_its_pipeline_runs(ep: Episode) -> None:
    docs = project(ep, "docs-site")
    assert not docs["only_allow_merge_if_pipeline_succeeds"] and docs["approval_rules"] == []
    m = mr(ep, "docs-site", "Upgrade dependencies")
    assert pipeline_of(ep, docs["id"], m["sha"])["status"] == "running"
    merged = ok(ep, "merge_merge_request", merge_request_id=m["id"], user_id=user(ep, WEB_MAINTAINER)["id"])
    assert merged["state"] == "merged"
    refused(
        ep,
        "merge_merge_request",
        "rule_violation",
        "merge_request_id",
        merge_request_id=m["id"],
        user_id=user(ep, OWNER)["id"],
    )


def test_approvals_respect_author_rules_access_and_duplicates(ep: Episode) -> None:
    m = mr(ep, "api-server", "Add per-token rate limits")
    author = m["author_id"]
    msg = refused(ep, "approve_merge_request", "rule_violation", "user_id", merge_request_id=m["id"], user_id=author)
    assert "does not let authors" in msg
    first = m["approved_by"][0]
    refused(ep, "approve_merge_request", "conflict", "user_id", merge_request_id=m["id"], user_id=first)
    reporter = user(ep, 5)["id"]  # only a Reporter of the web group, nothing on platform
    refused(ep, "approve_merge_request", "rule_violation", "user_id", merge_request_id=m["id"], user_id=reporter)
    blocked = every(ep, "list_users", state="blocked")[0]["id"]
    refused(ep, "approve_merge_request", "rule_violation", "user_id", merge_request_id=m["id"], user_id=blocked)
    third = next(
        u for u in project(ep, "api-server")["approval_rules"][0]["eligible_user_ids"] if u not in (author, first)
    )
    approved = ok(ep, "approve_merge_request", merge_request_id=m["id"], user_id=third, sha=m["sha"])
    assert set(approved["approved_by"]) == {first, third}
    ok(ep, "merge_merge_request", merge_request_id=m["id"], user_id=user(ep, OWNER)["id"])
    # Web App lets authors approve their own merge requests.
    w = mr(ep, "web-app", "Fix login redirect loop")
    assert project(ep, "web-app")["merge_requests_author_approval"]
    assert (
        w["author_id"]
        in ok(ep, "approve_merge_request", merge_request_id=w["id"], user_id=w["author_id"])["approved_by"]
    )


def test_a_push_moves_the_merge_request_resets_approvals_and_starts_a_pipeline(ep: Episode) -> None:
    m = mr(ep, "api-server", "Upgrade dependencies")
    br = branch(ep, m["project_id"], m["source_branch"])
    pushed = ok(ep, "push_commit", branch_id=br["id"], user_id=m["author_id"], title="Bump lockfile")
    assert pushed["approvals_reset_on"] == [m["id"]] and pushed["pipeline"]["status"] == "pending"
    now = mr(ep, "api-server", "Upgrade dependencies")
    assert now["sha"] == pushed["branch"]["commit_sha"] != m["sha"] and now["approved_by"] == []
    refused(
        ep,
        "approve_merge_request",
        "conflict",
        "sha",
        merge_request_id=m["id"],
        user_id=user(ep, OWNER)["id"],
        sha=m["sha"],
    )
    # Web App keeps approvals on push.
    w = mr(ep, "web-app", "Upgrade dependencies")
    wb = branch(ep, w["project_id"], w["source_branch"])
    kept = ok(ep, "push_commit", branch_id=wb["id"], user_id=w["author_id"], title="Fix lint")
    assert (
        kept["approvals_reset_on"] == []
        and mr(ep, "web-app", "Upgrade dependencies")["approved_by"] == w["approved_by"]
    )


def test_protected_branches_refuse_pushes_below_their_level(ep: Episode) -> None:
    api = project(ep, "api-server")
    main = branch(ep, api["id"], "main")
    refused(
        ep,
        "push_commit",
        "rule_violation",
        "branch_id",
        branch_id=main["id"],
        user_id=user(ep, DEV)["id"],
        title="Hotfix",
    )
    ok(ep, "push_commit", branch_id=main["id"], user_id=user(ep, PLATFORM_MAINTAINER)["id"], title="Hotfix")
    release = branch(ep, api["id"], "release/2.4")  # release/* takes no pushes at all, not even the owner's
    refused(
        ep,
        "push_commit",
        "rule_violation",
        "branch_id",
        branch_id=release["id"],
        user_id=user(ep, OWNER)["id"],
        title="Backport",
    )
    refused(ep, "protect_branch", "conflict", "name", project_id=api["id"], name="release/*")
    ok(ep, "create_branch", project_id=api["id"], branch="hotfix/tls", ref="main")
    ok(ep, "protect_branch", project_id=api["id"], name="hotfix/*", push_access_level=40)
    hot = branch(ep, api["id"], "hotfix/tls")
    refused(
        ep,
        "push_commit",
        "rule_violation",
        "branch_id",
        branch_id=hot["id"],
        user_id=user(ep, DEV)["id"],
        title="Patch",
    )
    reporter = user(ep, 5)["id"]
    web = project(ep, "web-app")
    feature = next(b for b in every(ep, "list_branches", project_id=web["id"]) if b["name"] != "main")
    refused(ep, "push_commit", "rule_violation", "user_id", branch_id=feature["id"], user_id=reporter, title="x")


def test_pipelines_move_pending_running_success_and_retry_after_failure(ep: Episode) -> None:
    api = project(ep, "api-server")
    br = ok(ep, "create_branch", project_id=api["id"], branch="feature/retry", ref="main")
    run = ok(ep, "push_commit", branch_id=br["id"], user_id=user(ep, DEV)["id"], title="Try it")["pipeline"]
    refused(ep, "update_pipeline_status", "rule_violation", "status", pipeline_id=run["id"], status="success")
    running = ok(ep, "update_pipeline_status", pipeline_id=run["id"], status="running")
    assert running["started_at"] is not None and running["finished_at"] is None
    failed = ok(ep, "update_pipeline_status", pipeline_id=run["id"], status="failed")
    assert failed["finished_at"] is not None
    assert ok(ep, "update_pipeline_status", pipeline_id=run["id"], status="pending")["finished_at"] is None
    ok(ep, "update_pipeline_status", pipeline_id=run["id"], status="running")
    ok(ep, "update_pipeline_status", pipeline_id=run["id"], status="success")
    refused(ep, "update_pipeline_status", "rule_violation", "status", pipeline_id=run["id"], status="failed")


def test_opening_merge_requests_checks_branches_duplicates_and_access(ep: Episode) -> None:
    api = project(ep, "api-server")
    dev = user(ep, DEV)["id"]
    ok(ep, "create_branch", project_id=api["id"], branch="feature/audit-log", ref="main")
    refused(ep, "create_branch", "conflict", "branch", project_id=api["id"], branch="feature/audit-log", ref="main")
    args = {"project_id": api["id"], "source_branch": "feature/audit-log", "target_branch": "main", "author_id": dev}
    made = ok(ep, "create_merge_request", title="Draft: Audit log", description="Closes #2", **args)
    assert made["draft"] and made["iid"] == 6 and made["web_url"].endswith("/-/merge_requests/6")
    refused(ep, "create_merge_request", "conflict", "source_branch", title="Audit log again", **args)
    refused(
        ep,
        "create_merge_request",
        "rule_violation",
        "target_branch",
        title="Self",
        **{**args, "target_branch": "feature/audit-log"},
    )
    refused(
        ep,
        "create_merge_request",
        "not_found",
        "source_branch",
        title="Gone",
        **{**args, "source_branch": "feature/nope"},
    )
    refused(
        ep,
        "create_merge_request",
        "rule_violation",
        "author_id",
        title="No access",
        **{**args, "author_id": user(ep, 5)["id"]},
    )
    closed = ok(ep, "close_merge_request", merge_request_id=made["id"])
    assert closed["state"] == "closed" and closed["closed_at"] is not None
    refused(ep, "close_merge_request", "rule_violation", "merge_request_id", merge_request_id=made["id"])


def test_issues_take_active_milestones_of_the_project_or_its_groups(ep: Episode) -> None:
    api, web = project(ep, "api-server"), project(ep, "web-app")
    author = user(ep, DEV)["id"]
    active = GL.first(ep, "milestones", project_id=api["id"], state="active")
    closed = GL.first(ep, "milestones", project_id=api["id"], state="closed")
    foreign = GL.first(ep, "milestones", project_id=web["id"], state="active")
    group_ms = next(m for m in every(ep, "list_milestones") if m["group_id"] is not None)  # the top group's
    assert group_ms["group_id"] != api["group_id"]
    base = {"project_id": api["id"], "title": "Retry webhooks", "author_id": author}
    refused(ep, "create_issue", "rule_violation", "milestone_id", milestone_id=closed["id"], **base)
    refused(ep, "create_issue", "rule_violation", "milestone_id", milestone_id=foreign["id"], **base)
    refused(ep, "create_issue", "rule_violation", "due_date", milestone_id=active["id"], due_date="2099-01-01", **base)
    made = ok(ep, "create_issue", milestone_id=active["id"], assignee_id=user(ep, OWNER)["id"], **base)
    assert made["iid"] == 5 and made["state"] == "opened"
    assert ok(ep, "create_issue", milestone_id=group_ms["id"], **base)["milestone_id"] == group_ms["id"]
    refused(ep, "create_issue", "rule_violation", "assignee_id", assignee_id=user(ep, 5)["id"], **base)
    assert ok(ep, "close_issue", issue_id=made["id"])["closed_at"] is not None
    legacy = project(ep, "legacy-portal")
    assert legacy["archived"]
    refused(ep, "create_issue", "rule_violation", "project_id", **{**base, "project_id": legacy["id"]})
