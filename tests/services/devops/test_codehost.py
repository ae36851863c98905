"""Forge: merge gates (checks, reviews, drafts), branch protection, archived repositories, unique release tags."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compoworld import Episode
from compoworld.services.devops.codehost import (
    Branch,
    Commit,
    Issue,
    PullRequest,
    Release,
    Repository,
    Review,
    User,
)
from tests.services.helpers import ServiceTools, get, rows, table_of

CODEHOST = ServiceTools("codehost")
WORLD = CODEHOST.world
ok, refused = CODEHOST.ok, CODEHOST.refused
POP = WORLD.population


def open_pr(ep: Episode, test: Callable[[dict[str, Any]], bool]) -> PullRequest:
    """The first open pull request in a live repository whose mergeability report passes ``test``."""
    for pr in rows(ep, PullRequest):
        live = pr.state == "open" and not get(ep, Repository, pr.repository_id).archived
        if live and test(ok(ep, "check_mergeability", pull_request_id=pr.id)):
            return pr
    raise AssertionError("no such pull request seeded")


def mergeable(report: dict[str, Any]) -> bool:
    return bool(report["mergeable"])


def reviewer_for(ep: Episode, pr: PullRequest, *, role: str | None = None) -> User:
    taken = {r.reviewer_id for r in rows(ep, Review) if r.pull_request_id == pr.id}
    return next(
        u for u in rows(ep, User) if u.id != pr.author_id and u.id not in taken and (role is None or u.role == role)
    )


def admin(ep: Episode) -> User:
    return next(u for u in rows(ep, User) if u.role == "admin")


def member(ep: Episode) -> User:
    return next(u for u in rows(ep, User) if u.role == "member")


def live_repo(ep: Episode, name: str) -> Repository:
    return next(r for r in rows(ep, Repository) if r.name == name)


def branch(ep: Episode, repo: Repository, name: str) -> Branch:
    return next(b for b in rows(ep, Branch) if b.repository_id == repo.id and b.name == name)


# -- the seeded world --------------------------------------------------------------------------


def test_seeded_world_has_engineers_and_pull_requests_in_every_state(ep: Episode) -> None:
    engineers = {p.email for p in POP.employees if p.department == "Engineering"}
    assert {u.email for u in rows(ep, User)} == engineers
    assert {u.role for u in rows(ep, User)} == {"admin", "member"}
    states = {(pr.state, pr.draft) for pr in rows(ep, PullRequest)}
    assert states >= {("open", False), ("open", True), ("merged", False), ("closed", False)}
    reports = [
        ok(ep, "check_mergeability", pull_request_id=pr.id)
        for pr in rows(ep, PullRequest)
        if pr.state == "open" and not get(ep, Repository, pr.repository_id).archived
    ]
    assert any(r["mergeable"] for r in reports)
    assert any(r["failing_checks"] for r in reports)
    assert any(r["changes_requested_by"] for r in reports)
    assert any(r["pending_checks"] for r in reports)
    assert any(r["approvals"] < r["required_approvals"] for r in reports)
    for repo in rows(ep, Repository):
        main = branch(ep, repo, repo.default_branch)
        assert any(c.sha == main.head_sha for c in rows(ep, Commit))
        numbers = [i.number for i in rows(ep, Issue) if i.repository_id == repo.id]
        numbers += [p.number for p in rows(ep, PullRequest) if p.repository_id == repo.id]
        assert sorted(numbers) == list(range(1, len(numbers) + 1))
    assert any(r.archived for r in rows(ep, Repository))


# -- merge gates -------------------------------------------------------------------------------


def test_merge_with_a_failing_check_is_refused_and_changes_nothing(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: bool(r["failing_checks"]))
    msg = refused(
        ep, "merge_pull_request", "rule_violation", "pull_request_id", pull_request_id=pr.id, merged_by_id=pr.author_id
    )
    assert "failing" in msg


def test_merge_without_an_approving_review_is_refused(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: r["blockers"] == [f"needs {r['required_approvals']} approving review(s), has 0"])
    refused(
        ep, "merge_pull_request", "rule_violation", "pull_request_id", pull_request_id=pr.id, merged_by_id=pr.author_id
    )
    # An approval from someone else makes it mergeable (the base needs one).
    report = ok(ep, "check_mergeability", pull_request_id=pr.id)
    for _ in range(report["required_approvals"]):
        ok(ep, "submit_review", pull_request_id=pr.id, reviewer_id=reviewer_for(ep, pr).id, event="approve")
    assert ok(ep, "check_mergeability", pull_request_id=pr.id)["mergeable"]


def test_an_outstanding_change_request_blocks_the_merge_until_an_admin_dismisses_it(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: bool(r["changes_requested_by"]) and not r["failing_checks"])
    refused(
        ep, "merge_pull_request", "rule_violation", "pull_request_id", pull_request_id=pr.id, merged_by_id=pr.author_id
    )
    review = next(r for r in rows(ep, Review) if r.pull_request_id == pr.id and r.state == "changes_requested")
    refused(
        ep,
        "dismiss_review",
        "rule_violation",
        "actor_id",
        review_id=review.id,
        message="Fixed.",
        actor_id=member(ep).id,
    )
    ok(ep, "dismiss_review", review_id=review.id, message="Fixed in the latest push.", actor_id=admin(ep).id)
    assert not ok(ep, "check_mergeability", pull_request_id=pr.id)["changes_requested_by"]


def test_drafts_closed_and_merged_pull_requests_cannot_be_merged(ep: Episode) -> None:
    draft = next(p for p in rows(ep, PullRequest) if p.draft and p.state == "open")
    assert "draft" in refused(
        ep,
        "merge_pull_request",
        "rule_violation",
        "pull_request_id",
        pull_request_id=draft.id,
        merged_by_id=draft.author_id,
    )
    closed = next(p for p in rows(ep, PullRequest) if p.state == "closed")
    refused(
        ep,
        "merge_pull_request",
        "rule_violation",
        "pull_request_id",
        pull_request_id=closed.id,
        merged_by_id=closed.author_id,
    )
    merged = next(p for p in rows(ep, PullRequest) if p.state == "merged")
    assert "already merged" in refused(
        ep,
        "merge_pull_request",
        "rule_violation",
        "pull_request_id",
        pull_request_id=merged.id,
        merged_by_id=merged.author_id,
    )


def test_a_successful_merge_moves_the_base_closes_fixed_issues_and_deletes_the_head(ep: Episode) -> None:
    pr = next(
        p
        for p in rows(ep, PullRequest)
        if "Fixes #" in p.body and p.state == "open" and ok(ep, "check_mergeability", pull_request_id=p.id)["mergeable"]
    )
    fixed = [i for i in rows(ep, Issue) if i.repository_id == pr.repository_id and pr.body == f"Fixes #{i.number}"]
    assert [i.state for i in fixed] == ["open"]
    merger = admin(ep)
    out = ok(
        ep,
        "merge_pull_request",
        pull_request_id=pr.id,
        merged_by_id=merger.id,
        merge_method="squash",
        delete_head_branch=True,
    )
    assert out["pull_request"]["state"] == "merged" and out["pull_request"]["merged_by_id"] == merger.id
    assert out["merge_commit"]["message"] == f"{pr.title} (#{pr.number})"
    assert get(ep, Branch, pr.base_branch_id).head_sha == out["merge_commit"]["sha"]
    assert out["head_branch_deleted"] and ep.get(table_of(ep, Branch), pr.head_branch_id) is None
    assert [i["number"] for i in out["closed_issues"]] == [fixed[0].number]
    assert get(ep, Issue, fixed[0].id).state_reason == "completed"
    counts = ep.diff().counts()
    assert counts["codehost.commits"] == {"added": 1, "updated": 0, "removed": 0}
    assert counts["codehost.branches"] == {"added": 0, "updated": 1, "removed": 1}
    assert counts["codehost.pull_requests"] == {"added": 0, "updated": 1, "removed": 0}


def test_a_merge_expecting_an_old_head_commit_is_a_conflict(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: r["mergeable"])
    refused(
        ep,
        "merge_pull_request",
        "conflict",
        "expected_head_sha",
        pull_request_id=pr.id,
        merged_by_id=pr.author_id,
        expected_head_sha="0" * 40,
    )


def test_pending_checks_block_only_where_the_base_requires_status_checks(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: bool(r["pending_checks"]) and not r["changes_requested_by"] and not r["failing_checks"])
    base = get(ep, Branch, pr.base_branch_id)
    assert base.require_status_checks
    assert any("still running" in b for b in ok(ep, "check_mergeability", pull_request_id=pr.id)["blockers"])
    refused(
        ep, "merge_pull_request", "rule_violation", "pull_request_id", pull_request_id=pr.id, merged_by_id=pr.author_id
    )
    ok(ep, "update_branch_protection", branch_id=base.id, actor_id=admin(ep).id, protected=False)
    report = ok(ep, "check_mergeability", pull_request_id=pr.id)
    assert report["pending_checks"] and not any("still running" in b for b in report["blockers"])


def test_new_commits_make_approvals_stale_where_the_base_dismisses_stale_reviews(ep: Episode) -> None:
    repo = live_repo(ep, "api-server")
    main = branch(ep, repo, "main")
    assert main.dismiss_stale_reviews
    head = next(b for b in rows(ep, Branch) if b.repository_id == repo.id and b.id != main.id)
    author = member(ep)
    for p in rows(ep, PullRequest):
        if p.head_branch_id == head.id and p.state == "open":
            ok(ep, "close_pull_request", pull_request_id=p.id)
    pr = ok(
        ep,
        "open_pull_request",
        repository_id=repo.id,
        title="Tighten validation",
        head_branch_id=head.id,
        base_branch_id=main.id,
        author_id=author.id,
    )
    ok(
        ep,
        "create_check_run",
        repository_id=repo.id,
        head_sha=head.head_sha,
        name="ci/test",
        status="completed",
        conclusion="success",
    )
    ok(ep, "submit_review", pull_request_id=pr["id"], reviewer_id=admin(ep).id, event="approve")
    assert ok(ep, "check_mergeability", pull_request_id=pr["id"])["approvals"] == 1
    pushed = ok(ep, "push_commit", branch_id=head.id, author_id=author.id, message="One more fix")
    assert get(ep, Branch, head.id).head_sha == pushed["sha"]
    report = ok(ep, "check_mergeability", pull_request_id=pr["id"])
    assert report["approvals"] == 0 and not report["mergeable"]


# -- reviews -----------------------------------------------------------------------------------


def test_authors_cannot_approve_their_own_pull_request(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: True)
    msg = refused(
        ep,
        "submit_review",
        "rule_violation",
        "reviewer_id",
        pull_request_id=pr.id,
        reviewer_id=pr.author_id,
        event="approve",
    )
    assert "own pull request" in msg
    ok(ep, "submit_review", pull_request_id=pr.id, reviewer_id=pr.author_id, event="comment", body="Rebased.")


def test_requesting_changes_needs_a_body_and_closed_pull_requests_take_no_reviews(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: True)
    refused(
        ep,
        "submit_review",
        "rule_violation",
        "body",
        pull_request_id=pr.id,
        reviewer_id=reviewer_for(ep, pr).id,
        event="request_changes",
        body="  ",
    )
    closed = next(p for p in rows(ep, PullRequest) if p.state == "closed")
    refused(
        ep,
        "submit_review",
        "rule_violation",
        "pull_request_id",
        pull_request_id=closed.id,
        reviewer_id=reviewer_for(ep, closed).id,
        event="approve",
    )


# -- pull requests and branches ----------------------------------------------------------------


def test_a_branch_cannot_be_merged_into_itself(ep: Episode) -> None:
    repo = live_repo(ep, "web-app")
    main = branch(ep, repo, "main")
    msg = refused(
        ep,
        "open_pull_request",
        "rule_violation",
        "head_branch_id",
        repository_id=repo.id,
        title="Self",
        head_branch_id=main.id,
        base_branch_id=main.id,
        author_id=member(ep).id,
    )
    assert "into itself" in msg


def test_a_second_open_pull_request_for_the_same_branches_is_a_conflict(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: True)
    refused(
        ep,
        "open_pull_request",
        "conflict",
        "head_branch_id",
        repository_id=pr.repository_id,
        title="Again",
        head_branch_id=pr.head_branch_id,
        base_branch_id=pr.base_branch_id,
        author_id=pr.author_id,
    )


def test_a_branch_without_new_commits_cannot_open_a_pull_request(ep: Episode) -> None:
    repo = live_repo(ep, "web-app")
    main = branch(ep, repo, "main")
    fresh = ok(ep, "create_branch", repository_id=repo.id, name="feature/empty", source_branch_id=main.id)
    refused(
        ep,
        "open_pull_request",
        "rule_violation",
        "head_branch_id",
        repository_id=repo.id,
        title="Empty",
        head_branch_id=fresh["id"],
        base_branch_id=main.id,
        author_id=member(ep).id,
    )
    refused(
        ep, "create_branch", "conflict", "name", repository_id=repo.id, name="feature/empty", source_branch_id=main.id
    )


def test_protected_branches_refuse_direct_pushes_and_deletion(ep: Episode) -> None:
    repo = live_repo(ep, "web-app")
    main = branch(ep, repo, "main")
    assert main.protected
    msg = refused(
        ep, "push_commit", "rule_violation", "branch_id", branch_id=main.id, author_id=admin(ep).id, message="Hotfix"
    )
    assert "pull request" in msg
    refused(ep, "delete_branch", "rule_violation", "branch_id", branch_id=main.id)


def test_branches_used_by_open_pull_requests_are_not_deleted_but_stale_ones_are(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: True)
    refused(ep, "delete_branch", "rule_violation", "branch_id", branch_id=pr.head_branch_id)
    used = {p.head_branch_id for p in rows(ep, PullRequest) if p.state == "open"}
    stale = next(
        b
        for b in rows(ep, Branch)
        if not b.protected
        and b.id not in used
        and not get(ep, Repository, b.repository_id).archived
        and b.name != get(ep, Repository, b.repository_id).default_branch
    )
    ok(ep, "delete_branch", branch_id=stale.id)
    assert ep.diff().counts() == {"codehost.branches": {"added": 0, "updated": 0, "removed": 1}}


def test_only_admins_change_branch_protection(ep: Episode) -> None:
    repo = live_repo(ep, "docs")
    main = branch(ep, repo, "main")
    assert not main.protected
    refused(
        ep,
        "update_branch_protection",
        "rule_violation",
        "actor_id",
        branch_id=main.id,
        actor_id=member(ep).id,
        protected=True,
    )
    out = ok(
        ep, "update_branch_protection", branch_id=main.id, actor_id=admin(ep).id, protected=True, required_approvals=2
    )
    assert out["protected"] and out["required_approvals"] == 2


def test_a_closed_pull_request_whose_branch_was_deleted_cannot_be_reopened(ep: Episode) -> None:
    pr = open_pr(ep, lambda r: True)
    ok(ep, "close_pull_request", pull_request_id=pr.id)
    ok(ep, "delete_branch", branch_id=pr.head_branch_id)
    msg = refused(ep, "reopen_pull_request", "rule_violation", "pull_request_id", pull_request_id=pr.id)
    assert "was deleted" in msg


def test_drafts_become_ready_only_while_open(ep: Episode) -> None:
    draft = next(p for p in rows(ep, PullRequest) if p.draft and p.state == "open")
    ok(ep, "close_pull_request", pull_request_id=draft.id)
    refused(ep, "ready_for_review_pull_request", "rule_violation", "pull_request_id", pull_request_id=draft.id)
    ok(ep, "reopen_pull_request", pull_request_id=draft.id)
    assert ok(ep, "ready_for_review_pull_request", pull_request_id=draft.id)["draft"] is False


# -- repositories and issues -------------------------------------------------------------------


def test_an_archived_repository_is_read_only_until_unarchived(ep: Episode) -> None:
    repo = next(r for r in rows(ep, Repository) if r.archived)
    refused(
        ep,
        "open_issue",
        "rule_violation",
        "repository_id",
        repository_id=repo.id,
        title="Still broken",
        author_id=member(ep).id,
    )
    refused(ep, "update_repository", "rule_violation", "repository_id", repository_id=repo.id, description="x")
    ok(ep, "unarchive_repository", repository_id=repo.id)
    issue = ok(ep, "open_issue", repository_id=repo.id, title="Still broken", author_id=member(ep).id)
    numbers = [i.number for i in rows(ep, Issue) if i.repository_id == repo.id]
    numbers += [p.number for p in rows(ep, PullRequest) if p.repository_id == repo.id]
    assert issue["number"] == max(numbers)


def test_issues_disabled_refuses_new_issues(ep: Episode) -> None:
    repo = live_repo(ep, "infra")
    ok(ep, "update_repository", repository_id=repo.id, has_issues=False)
    refused(
        ep,
        "open_issue",
        "rule_violation",
        "repository_id",
        repository_id=repo.id,
        title="Broken deploy",
        author_id=member(ep).id,
    )


def test_the_default_branch_must_exist(ep: Episode) -> None:
    repo = live_repo(ep, "web-app")
    refused(
        ep,
        "update_repository",
        "rule_violation",
        "default_branch",
        repository_id=repo.id,
        default_branch="release/2026",
    )


def test_repository_names_are_unique_ignoring_case_and_only_admins_create_public_ones(ep: Episode) -> None:
    refused(ep, "create_repository", "conflict", "name", name="Web-App", creator_id=admin(ep).id)
    refused(
        ep,
        "create_repository",
        "rule_violation",
        "visibility",
        name="sdk",
        creator_id=member(ep).id,
        visibility="public",
    )
    out = ok(ep, "create_repository", name="sdk", creator_id=admin(ep).id, visibility="public")
    assert out["full_name"].endswith("/sdk")
    counts = ep.diff().counts()
    assert counts["codehost.branches"]["added"] == 1 and counts["codehost.commits"]["added"] == 1


def test_closing_and_reopening_issues(ep: Episode) -> None:
    issue = next(i for i in rows(ep, Issue) if i.state == "open")
    closed = ok(ep, "close_issue", issue_id=issue.id, reason="not_planned")
    assert closed["state_reason"] == "not_planned" and closed["closed_at"]
    refused(ep, "close_issue", "rule_violation", "issue_id", issue_id=issue.id)
    assert ok(ep, "reopen_issue", issue_id=issue.id)["state_reason"] == "reopened"


# -- check runs and releases -------------------------------------------------------------------


def test_check_runs_need_a_known_commit_and_a_conclusion_exactly_when_completed(ep: Episode) -> None:
    repo = live_repo(ep, "web-app")
    sha = branch(ep, repo, "main").head_sha
    refused(ep, "create_check_run", "not_found", "head_sha", repository_id=repo.id, head_sha="f" * 40, name="ci/x")
    refused(
        ep,
        "create_check_run",
        "rule_violation",
        "conclusion",
        repository_id=repo.id,
        head_sha=sha,
        name="ci/x",
        status="completed",
    )
    refused(
        ep,
        "create_check_run",
        "rule_violation",
        "conclusion",
        repository_id=repo.id,
        head_sha=sha,
        name="ci/x",
        status="queued",
        conclusion="success",
    )
    run = ok(ep, "create_check_run", repository_id=repo.id, head_sha=sha, name="ci/x", status="in_progress")
    refused(ep, "update_check_run", "rule_violation", "status", check_run_id=run["id"], status="queued")
    ok(ep, "update_check_run", check_run_id=run["id"], status="completed", conclusion="failure")
    refused(
        ep,
        "update_check_run",
        "rule_violation",
        "check_run_id",
        check_run_id=run["id"],
        status="completed",
        conclusion="success",
    )


def test_a_rerun_replaces_the_failing_check_and_unblocks_the_merge(ep: Episode) -> None:
    pr = open_pr(
        ep,
        lambda r: r["blockers"] == [f"{len(r['failing_checks'])} check(s) failing: " + ", ".join(r["failing_checks"])],
    )
    report = ok(ep, "check_mergeability", pull_request_id=pr.id)
    for name in report["failing_checks"]:
        ok(
            ep,
            "create_check_run",
            repository_id=pr.repository_id,
            head_sha=report["head_sha"],
            name=name,
            status="completed",
            conclusion="success",
        )
    assert ok(ep, "check_mergeability", pull_request_id=pr.id)["mergeable"]
    ok(ep, "merge_pull_request", pull_request_id=pr.id, merged_by_id=pr.author_id)


def test_release_tags_are_unique_within_a_repository(ep: Episode) -> None:
    rel = next(r for r in rows(ep, Release) if not get(ep, Repository, r.repository_id).archived)
    msg = refused(
        ep,
        "create_release",
        "conflict",
        "tag_name",
        repository_id=rel.repository_id,
        tag_name=rel.tag_name,
        name="Again",
        author_id=member(ep).id,
    )
    assert rel.tag_name in msg
    other = next(r for r in rows(ep, Repository) if r.id != rel.repository_id and not r.archived)
    if not any(x.tag_name == rel.tag_name and x.repository_id == other.id for x in rows(ep, Release)):
        ok(
            ep,
            "create_release",
            repository_id=other.id,
            tag_name=rel.tag_name,
            name="Same tag",
            author_id=member(ep).id,
        )


def test_the_latest_release_ignores_drafts_and_prereleases(ep: Episode) -> None:
    repo = live_repo(ep, "web-app")
    latest = ok(ep, "get_latest_release", repository_id=repo.id)
    assert not latest["draft"] and not latest["prerelease"]
    ok(
        ep,
        "create_release",
        repository_id=repo.id,
        tag_name="v9.0.0-beta.1",
        name="Beta",
        author_id=member(ep).id,
        prerelease=True,
    )
    draft = ok(
        ep, "create_release", repository_id=repo.id, tag_name="v9.0.0", name="Nine", author_id=member(ep).id, draft=True
    )
    assert draft["published_at"] is None
    assert ok(ep, "get_latest_release", repository_id=repo.id)["id"] == latest["id"]
    published = ok(ep, "publish_release", release_id=draft["id"])
    assert published["published_at"] is not None
    assert ok(ep, "get_latest_release", repository_id=repo.id)["id"] == draft["id"]
    refused(ep, "publish_release", "rule_violation", "release_id", release_id=draft["id"])
