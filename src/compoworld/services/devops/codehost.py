"""Forge: the company's code hosting with repositories, branches, issues, pull requests, reviews, checks and releases.

Modeled on the GitHub REST API (version 2022-11-28): ``/orgs/{org}/repos``,
``/repos/{owner}/{repo}`` (archive), ``/git/refs`` and branch protection
(``required_pull_request_reviews.required_approving_review_count``,
``dismiss_stale_reviews``, ``required_status_checks``), ``/issues`` with
``state_reason``, ``/pulls`` with ``/merge`` and ``/reviews`` (APPROVE,
REQUEST_CHANGES, COMMENT, dismissals), ``/check-runs`` and ``/releases``
(``/releases/latest``).

Users are the home company's engineers. A pull request merges only when it is
open, not a draft, has no failing check (nor, under protection, a pending one)
and has enough approving reviews with no outstanding change request; authors
cannot approve their own pull requests; protected branches refuse direct pushes
and deletion; an archived repository is read-only; release tags are unique
within a repository; merging closes the issues the pull request says it fixes.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title, Url
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "codehost",
    title="Forge",
    category="code_hosting",
    modeled_on="GitHub REST API 2022-11-28 (Repository, Branch protection, Commit, Issue, PullRequest, "
    "PullRequestReview, CheckRun, Release)",
    description="Code hosting for the company's engineers: repositories, branches with protection rules, "
    "commits, issues, pull requests with reviews and CI check runs, merges and releases.",
)

UserId = Annotated[str, IdOf("codehost.user")]
RepositoryId = Annotated[str, IdOf("codehost.repository")]
BranchId = Annotated[str, IdOf("codehost.branch")]
CommitId = Annotated[str, IdOf("codehost.commit")]
IssueId = Annotated[str, IdOf("codehost.issue")]
PullRequestId = Annotated[str, IdOf("codehost.pull_request")]
ReviewId = Annotated[str, IdOf("codehost.review")]
CheckRunId = Annotated[str, IdOf("codehost.check_run")]
ReleaseId = Annotated[str, IdOf("codehost.release")]


def _ref_name(value: str) -> str:
    if value.startswith(("/", "-")) or value.endswith(("/", ".", ".lock")) or "//" in value or ".." in value:
        raise ValueError(
            "not a valid git ref name (no leading '/' or '-', no '//' or '..', no trailing '/', '.', '.lock')"
        )
    return value


def _repo_name(value: str) -> str:
    if value in (".", ".."):
        raise ValueError("'.' and '..' are not valid repository names")
    return value


Login = Annotated[str, StringConstraints(pattern=r"^[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?$")]
"""A user's login handle."""
RepoName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._-]{1,100}$"), AfterValidator(_repo_name)]
"""A repository name."""
BranchName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._/-]{1,250}$"), AfterValidator(_ref_name)]
"""A branch name such as ``main`` or ``feature/export``."""
TagName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._/+-]{1,250}$"), AfterValidator(_ref_name)]
"""A git tag such as ``v1.2.0``."""
Sha = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]
"""A 40-hex-digit commit SHA."""
CheckName = Annotated[str, StringConstraints(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9 ._/:()-]+$")]
"""The name of a check such as ``ci/test``."""

Label = Literal["bug", "enhancement", "documentation", "question", "security", "performance"]
CheckStatus = Literal["queued", "in_progress", "completed"]
Conclusion = Literal["success", "failure", "neutral", "cancelled", "skipped", "timed_out", "action_required"]
FAILING: tuple[str, ...] = ("failure", "cancelled", "timed_out", "action_required")
_CLOSING = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)\b", re.IGNORECASE)


class User(Created):
    """An engineer of the company with an account on the code host."""

    id: UserId
    login: Login
    """Login handle, shown on commits, issues and reviews."""
    email: Email
    """Work e-mail address."""
    name: PersonName
    """Full name."""
    role: Literal["member", "admin"] = "member"
    """Organization role; admins manage branch protection and may dismiss reviews on protected branches."""


class Repository(Created):
    """A git repository of the company's organization."""

    id: RepositoryId
    name: RepoName
    """Repository name, unique in the organization (ignoring case)."""
    full_name: str
    """Organization and name, e.g. acmelabs/web-app."""
    description: Text = ""
    """What the repository holds."""
    visibility: Literal["private", "internal", "public"] = "private"
    """Who can see it: members with access, everyone in the company, or anyone."""
    default_branch: BranchName = "main"
    """Branch that pull requests target by default and releases are cut from."""
    has_issues: bool = True
    """Whether the issue tracker is enabled."""
    archived: bool = False
    """Archived repositories are read-only until unarchived."""
    homepage: Url | None = None
    """Project website."""
    pushed_at: DateTime | None = None
    """When a commit last landed."""


class Branch(Created):
    """A branch of a repository with its protection rules."""

    id: BranchId
    repository_id: RepositoryId
    """The repository."""
    name: BranchName
    """Branch name, unique in the repository."""
    head_sha: Sha
    """SHA of the commit the branch points to."""
    protected: bool = False
    """Protected branches refuse direct pushes and deletion; changes arrive through pull requests."""
    required_approvals: Annotated[int, Field(ge=0, le=6)] = 0
    """Approving reviews a pull request into this branch needs (at least 1 always)."""
    require_status_checks: bool = False
    """Whether every check must have completed successfully (none pending) before merging into this branch."""
    dismiss_stale_reviews: bool = False
    """Whether approvals stop counting once new commits are pushed to the pull request."""


class Commit(Record):
    """A commit pushed to a branch."""

    id: CommitId
    repository_id: RepositoryId
    """The repository."""
    sha: Sha
    """The commit SHA."""
    branch: BranchName
    """Branch the commit was pushed or merged to."""
    message: Title
    """Commit message headline."""
    author_id: UserId
    """Who authored it."""
    parent_sha: Sha | None = None
    """SHA of the previous commit; null for a first commit."""
    created_at: Annotated[DateTime, CREATED]
    """When it was committed."""


class Issue(Record):
    """A bug report, feature request or task in a repository's tracker."""

    id: IssueId
    repository_id: RepositoryId
    """The repository."""
    number: Annotated[int, Field(ge=1)]
    """Number within the repository, shared with pull requests (#12)."""
    title: Title
    """Issue title."""
    body: Text = ""
    """Description in Markdown."""
    state: Literal["open", "closed"] = "open"
    """Whether the issue is open."""
    state_reason: Literal["completed", "not_planned", "reopened"] | None = None
    """Why it was closed, or reopened."""
    author_id: UserId
    """Who opened it."""
    assignee_id: UserId | None = None
    """Who works on it."""
    labels: tuple[Label, ...] = ()
    """Labels."""
    closed_at: DateTime | None = None
    """When it was last closed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class PullRequest(Record):
    """A proposal to merge a head branch into a base branch of the same repository."""

    id: PullRequestId
    repository_id: RepositoryId
    """The repository."""
    number: Annotated[int, Field(ge=1)]
    """Number within the repository, shared with issues (#12)."""
    title: Title
    """Title; "Fixes #N" in the title or body closes issue N on merge."""
    body: Text = ""
    """Description in Markdown."""
    author_id: UserId
    """Who opened it."""
    head_branch_id: BranchId
    """Branch with the changes."""
    head_ref: BranchName
    """Name of the head branch."""
    base_branch_id: BranchId
    """Branch the changes go into."""
    base_ref: BranchName
    """Name of the base branch."""
    state: Literal["open", "closed", "merged"] = "open"
    """Open, closed without merging, or merged (final)."""
    draft: bool = False
    """Drafts cannot be merged until marked ready for review."""
    merged_at: DateTime | None = None
    """When it was merged."""
    merged_by_id: UserId | None = None
    """Who merged it."""
    merge_commit_sha: Sha | None = None
    """SHA of the commit the merge created on the base branch."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Review(Record):
    """A review of a pull request at one commit."""

    id: ReviewId
    pull_request_id: PullRequestId
    """The reviewed pull request."""
    reviewer_id: UserId
    """Who reviewed."""
    state: Literal["approved", "changes_requested", "commented", "dismissed"]
    """The verdict; dismissed reviews no longer count."""
    body: Text = ""
    """Review summary."""
    commit_sha: Sha
    """Head commit the review was given on."""
    dismissal_message: Text | None = None
    """Why the review was dismissed."""
    submitted_at: Annotated[DateTime, CREATED]
    """When the review was submitted."""


class CheckRun(Created):
    """One CI check (build, tests, lint …) run on a commit."""

    id: CheckRunId
    repository_id: RepositoryId
    """The repository."""
    head_sha: Sha
    """SHA of the commit checked."""
    name: CheckName
    """Check name, e.g. ci/test; the latest run of a name counts."""
    status: CheckStatus = "queued"
    """Progress of the run."""
    conclusion: Conclusion | None = None
    """Outcome once completed."""
    details_url: Url | None = None
    """Where the CI logs are."""
    started_at: DateTime | None = None
    """When it started running."""
    completed_at: DateTime | None = None
    """When it completed."""


class Release(Created):
    """A named release of a repository at a tag."""

    id: ReleaseId
    repository_id: RepositoryId
    """The repository."""
    tag_name: TagName
    """Git tag, unique in the repository, e.g. v1.4.0."""
    name: Title
    """Release title."""
    body: Text = ""
    """Release notes."""
    target_branch: BranchName
    """Branch the tag was cut from."""
    target_sha: Sha
    """Commit the tag points to."""
    draft: bool = False
    """Drafts are unpublished."""
    prerelease: bool = False
    """Marks a release candidate or beta; never the latest release."""
    author_id: UserId
    """Who created it."""
    published_at: DateTime | None = None
    """When it was published."""


# -- guards ---------------------------------------------------------------------------------


def _read_only(repo: Repository, field: str) -> RuleViolation:
    return RuleViolation(
        f"repository {repo.full_name} is archived and read-only",
        field=field,
        hint=f"unarchive it first with codehost__unarchive_repository ({repo.id})",
    )


def _writable_repo(ctx: Ctx, repository_id: str, field: str = "repository_id") -> Repository:
    repo = ctx.get(Repository, repository_id, field=field)
    if repo.archived:
        raise _read_only(repo, field)
    return repo


def _guard_repository(ctx: Ctx, new: Any, old: Any) -> None:
    if old.archived and new.archived:
        raise _read_only(old, "repository_id")
    if (
        new.default_branch != old.default_branch
        and ctx.first(Branch, repository_id=new.id, name=new.default_branch) is None
    ):
        raise RuleViolation(
            f"{new.full_name} has no branch {new.default_branch!r}",
            field="default_branch",
            hint="create the branch first (codehost__create_branch) or pick an existing one (codehost__list_branches)",
        )


def _guard_branch_delete(ctx: Ctx, new: Any, old: Any) -> None:
    repo = ctx.get(Repository, old.repository_id)
    if repo.archived:
        raise _read_only(repo, "branch_id")
    if old.name == repo.default_branch:
        raise RuleViolation(
            f"{old.name} is the default branch of {repo.full_name} and cannot be deleted",
            field="branch_id",
            hint="make another branch the default first (codehost__update_repository)",
        )
    if old.protected:
        raise RuleViolation(
            f"branch {old.name} is protected and cannot be deleted",
            field="branch_id",
            hint="an admin must remove its protection first (codehost__update_branch_protection)",
        )
    using = [p for p in ctx.where(PullRequest, head_branch_id=old.id, state="open")]
    using += [p for p in ctx.where(PullRequest, base_branch_id=old.id, state="open")]
    if using:
        raise RuleViolation(
            f"branch {old.name} is used by open pull request(s) {', '.join('#' + str(p.number) for p in using)}",
            field="branch_id",
            hint="merge or close those pull requests first",
        )


def _guard_issue(ctx: Ctx, new: Any, old: Any) -> None:
    repo = ctx.get(Repository, old.repository_id)
    if repo.archived:
        raise _read_only(repo, "issue_id")


def _guard_pull_request(ctx: Ctx, new: Any, old: Any) -> None:
    repo = ctx.get(Repository, old.repository_id)
    if repo.archived:
        raise _read_only(repo, "pull_request_id")
    if new.draft != old.draft and new.state != "open":
        raise RuleViolation(
            f"pull request #{old.number} is {old.state}; only open pull requests change draft status",
            field="pull_request_id",
            hint="reopen it first (codehost__reopen_pull_request)" if old.state == "closed" else "nothing to do",
        )
    if old.state == "closed" and new.state == "open":
        head = ctx.find(Branch, old.head_branch_id)
        base = ctx.find(Branch, old.base_branch_id)
        if head is None or base is None:
            gone = old.head_ref if head is None else old.base_ref
            raise RuleViolation(
                f"pull request #{old.number} cannot be reopened: branch {gone} was deleted",
                field="pull_request_id",
                hint="recreate the branch and open a new pull request",
            )
        for other in ctx.where(PullRequest, head_branch_id=old.head_branch_id, state="open"):
            if other.id != old.id and other.base_branch_id == old.base_branch_id:
                raise Conflict(
                    f"pull request #{other.number} is already open from {old.head_ref} into {old.base_ref}",
                    field="pull_request_id",
                    hint=f"use pull request {other.id} instead",
                )


def _guard_release(ctx: Ctx, new: Any, old: Any) -> None:
    repo = ctx.get(Repository, old.repository_id)
    if repo.archived:
        raise _read_only(repo, "release_id")


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    filters=("login", "email", "role"),
    search=("login", "name", "email"),
    delete=False,
    unique=("login", "email"),
)
repositories = service.resource(
    Repository,
    name="repository",
    plural="repositories",
    prefix="repo",
    create=False,
    filters=("name", "visibility", "archived"),
    search=("name", "description"),
    update=("description", "visibility", "homepage", "default_branch", "has_issues"),
    delete=False,
    transitions={
        "archive": Transition("archived", (False,), True, "archive the repository"),
        "unarchive": Transition("archived", (True,), False, "unarchive the repository"),
    },
    unique=("full_name",),
    guard_update=_guard_repository,
)
branches = service.resource(
    Branch,
    name="branch",
    plural="branches",
    prefix="br",
    create=False,
    filters=("repository_id", "name", "protected"),
    search=("name",),
    guard_delete=_guard_branch_delete,
)
commits = service.resource(
    Commit,
    name="commit",
    plural="commits",
    prefix="cmt",
    create=False,
    filters=("repository_id", "sha", "branch", "author_id"),
    search=("message",),
    delete=False,
    unique=("sha",),
)
issues = service.resource(
    Issue,
    name="issue",
    plural="issues",
    prefix="iss",
    create=False,
    filters=("repository_id", "number", "state", "author_id", "assignee_id"),
    search=("title", "body"),
    update=("title", "body", "assignee_id", "labels"),
    delete=False,
    guard_update=_guard_issue,
)
pull_requests = service.resource(
    PullRequest,
    name="pull_request",
    plural="pull_requests",
    prefix="pr",
    create=False,
    filters=("repository_id", "number", "state", "draft", "author_id", "head_branch_id", "base_branch_id"),
    search=("title", "body"),
    update=("title", "body"),
    delete=False,
    transitions={
        "close": Transition("state", ("open",), "closed", "close the pull request without merging"),
        "reopen": Transition("state", ("closed",), "open", "reopen the pull request"),
        "ready_for_review": Transition("draft", (True,), False, "mark the draft pull request ready for review"),
        "convert_to_draft": Transition("draft", (False,), True, "turn the pull request back into a draft"),
    },
    guard_update=_guard_pull_request,
    title="pull request",
)
reviews = service.resource(
    Review,
    name="review",
    plural="reviews",
    prefix="rvw",
    create=False,
    filters=("pull_request_id", "reviewer_id", "state"),
    delete=False,
    title="pull request review",
)
check_runs = service.resource(
    CheckRun,
    name="check_run",
    plural="check_runs",
    prefix="chk",
    create=False,
    filters=("repository_id", "head_sha", "name", "status", "conclusion"),
    delete=False,
    title="check run",
)
releases = service.resource(
    Release,
    name="release",
    plural="releases",
    prefix="rel",
    create=False,
    filters=("repository_id", "tag_name", "draft", "prerelease"),
    search=("name", "tag_name", "body"),
    update=("name", "body", "prerelease"),
    guard_update=_guard_release,
)


# -- helpers --------------------------------------------------------------------------------


def _new_sha(ctx: Ctx) -> str:
    while True:
        sha = f"{ctx.rng.getrandbits(160):040x}"
        if ctx.first(Commit, sha=sha) is None:
            return sha


def _next_number(ctx: Ctx, repository_id: str) -> int:
    numbers = [i.number for i in ctx.where(Issue, repository_id=repository_id)]
    numbers += [p.number for p in ctx.where(PullRequest, repository_id=repository_id)]
    return max(numbers, default=0) + 1


def _branch_in(ctx: Ctx, branch_id: str, repo: Repository, field: str) -> Branch:
    branch = ctx.get(Branch, branch_id, field=field)
    if branch.repository_id != repo.id:
        raise RuleViolation(
            f"branch {branch.name} ({branch.id}) belongs to another repository, not {repo.full_name}",
            field=field,
            hint=f"list the branches of {repo.full_name} with codehost__list_branches",
        )
    return branch


def _latest_checks(ctx: Ctx, repository_id: str, sha: str) -> dict[str, CheckRun]:
    """The latest run of each check name on a commit (re-runs replace earlier runs)."""
    latest: dict[str, CheckRun] = {}
    for run in ctx.where(CheckRun, head_sha=sha, repository_id=repository_id):
        latest[run.name] = run
    return latest


class Mergeability(BaseModel):
    """Whether a pull request can be merged now, and what blocks it."""

    pull_request_id: PullRequestId = Field(description="The pull request.")
    mergeable: bool = Field(description="True when nothing blocks the merge.")
    head_sha: Sha | None = Field(description="Current head commit of the pull request (null if its branch is gone).")
    approvals: int = Field(description="Approving reviews that count.")
    required_approvals: int = Field(description="Approving reviews the base branch requires (at least 1).")
    changes_requested_by: list[UserId] = Field(description="Reviewers whose latest review requests changes.")
    failing_checks: list[CheckName] = Field(description="Checks whose latest run failed.")
    pending_checks: list[CheckName] = Field(description="Checks whose latest run has not completed.")
    blockers: list[str] = Field(description="Why the merge is blocked, one reason each; empty when mergeable.")


def _mergeability(ctx: Ctx, pr: PullRequest) -> tuple[Mergeability, list[tuple[str, str]]]:
    blockers: list[tuple[str, str]] = []
    repo = ctx.get(Repository, pr.repository_id)
    head = ctx.find(Branch, pr.head_branch_id)
    base = ctx.find(Branch, pr.base_branch_id)
    if pr.state == "merged":
        blockers.append((f"pull request #{pr.number} is already merged", "nothing to do"))
    elif pr.state == "closed":
        blockers.append((f"pull request #{pr.number} is closed", "reopen it first (codehost__reopen_pull_request)"))
    if pr.draft:
        blockers.append(
            (f"pull request #{pr.number} is a draft", "mark it ready (codehost__ready_for_review_pull_request)")
        )
    if repo.archived:
        blockers.append((f"repository {repo.full_name} is archived", "unarchive it first"))
    if head is None or base is None:
        gone = pr.head_ref if head is None else pr.base_ref
        blockers.append((f"branch {gone} was deleted", "recreate the branch and open a new pull request"))
    failing: list[str] = []
    pending: list[str] = []
    approvals = 0
    required = 1
    requesters: list[str] = []
    if head is not None:
        checks = _latest_checks(ctx, pr.repository_id, head.head_sha)
        failing = sorted(n for n, r in checks.items() if r.status == "completed" and r.conclusion in FAILING)
        pending = sorted(n for n, r in checks.items() if r.status != "completed")
        strict = base is not None and base.require_status_checks
        if failing:
            blockers.append(
                (f"{len(failing)} check(s) failing: {', '.join(failing)}", "push a fix and let the checks run again")
            )
        if strict and pending:
            blockers.append(
                (f"{len(pending)} required check(s) still running: {', '.join(pending)}", "wait for them to complete")
            )
        if strict and not checks:
            blockers.append(("no status checks have run on the head commit", "run CI on the head commit first"))
        latest: dict[str, Review] = {}
        for review in ctx.where(Review, pull_request_id=pr.id):
            if review.state != "commented":
                latest[review.reviewer_id] = review
        stale_out = base is not None and base.dismiss_stale_reviews
        for reviewer, review in latest.items():
            if review.state == "changes_requested":
                requesters.append(reviewer)
            elif review.state == "approved" and (not stale_out or review.commit_sha == head.head_sha):
                approvals += 1
        required = max(1, base.required_approvals if base is not None and base.protected else 1)
        if requesters:
            blockers.append(
                (
                    f"changes requested by {len(requesters)} reviewer(s)",
                    "address the requested changes and ask for a new review, or have an admin dismiss the review",
                )
            )
        if approvals < required:
            blockers.append(
                (
                    f"needs {required} approving review(s), has {approvals}",
                    "ask a teammate other than the author to approve (codehost__submit_review)",
                )
            )
    report = Mergeability(
        pull_request_id=pr.id,
        mergeable=not blockers,
        head_sha=head.head_sha if head else None,
        approvals=approvals,
        required_approvals=required,
        changes_requested_by=sorted(requesters),
        failing_checks=failing,
        pending_checks=pending,
        blockers=[b[0] for b in blockers],
    )
    return report, blockers


def _first_mergeable(ctx: Ctx) -> PullRequest | None:
    for pr in ctx.where(PullRequest, state="open"):
        if _mergeability(ctx, pr)[0].mergeable:
            return pr
    return None


def _other_engineer(ctx: Ctx, not_id: str) -> User | None:
    for user in ctx.scan(User):
        if user.id != not_id:
            return user
    return None


def _admin(ctx: Ctx) -> User | None:
    return ctx.first(User, role="admin")


def _live_repo(ctx: Ctx) -> Repository | None:
    return ctx.first(Repository, archived=False)


# -- repositories and branches --------------------------------------------------------------


@service.tool(
    intent="create a repository", write=True, example=first_example(User, "creator_id", name="conformance-sandbox")
)
def create_repository(
    ctx: Ctx,
    name: RepoName,
    creator_id: UserId,
    description: Text = "",
    visibility: Literal["private", "internal", "public"] = "private",
    default_branch: BranchName = "main",
    has_issues: bool = True,
) -> Repository:
    """Create a repository in the organization with an initial commit on its default branch.

    Names are unique in the organization, ignoring case. Members may create
    private and internal repositories; only admins may create public ones.

    Args:
        name: Repository name, e.g. "billing-service".
        creator_id: The user creating it; authors the initial commit.
        description: What the repository holds.
        visibility: private, internal (everyone in the company) or public.
        default_branch: Name of the default branch.
        has_issues: Whether to enable the issue tracker.
    """
    creator = ctx.get(User, creator_id, field="creator_id")
    for repo in ctx.scan(Repository):
        if repo.name.casefold() == name.casefold():
            raise Conflict(
                f"name already exists on this organization: {repo.full_name} ({repo.id})",
                field="name",
                hint="choose another name, or use the existing repository",
            )
    if visibility == "public" and creator.role != "admin":
        raise RuleViolation(
            f"{creator.login} is not an organization admin and cannot create public repositories",
            field="visibility",
            hint="create it as private or internal, or ask an admin (codehost__list_users role=admin)",
        )
    repo = ctx.create(
        Repository,
        name=name,
        full_name=f"{org_handle(ctx.population)}/{name}",
        description=description,
        visibility=visibility,
        default_branch=default_branch,
        has_issues=has_issues,
        pushed_at=ctx.now(),
    )
    sha = _new_sha(ctx)
    ctx.create(
        Commit, repository_id=repo.id, sha=sha, branch=default_branch, message="Initial commit", author_id=creator.id
    )
    ctx.create(Branch, repository_id=repo.id, name=default_branch, head_sha=sha)
    return repo


def _ex_create_branch(ctx: Ctx) -> dict[str, Any] | None:
    repo = _live_repo(ctx)
    if repo is None:
        return None
    main = ctx.first(Branch, repository_id=repo.id, name=repo.default_branch)
    if main is None:
        return None
    return {"repository_id": repo.id, "name": "chore/conformance-check", "source_branch_id": main.id}


@service.tool(intent="create a branch", write=True, example=_ex_create_branch)
def create_branch(ctx: Ctx, repository_id: RepositoryId, name: BranchName, source_branch_id: BranchId) -> Branch:
    """Create a branch pointing at the current head commit of another branch of the same repository.

    Args:
        repository_id: The repository.
        name: Name of the new branch, unique in the repository, e.g. "feature/export-csv".
        source_branch_id: Branch to start from (usually the default branch).
    """
    repo = _writable_repo(ctx, repository_id)
    source = _branch_in(ctx, source_branch_id, repo, "source_branch_id")
    existing = ctx.first(Branch, repository_id=repo.id, name=name)
    if existing is not None:
        raise Conflict(
            f"reference already exists: {repo.full_name} has a branch {name} ({existing.id})",
            field="name",
            hint="choose another name or use the existing branch",
        )
    return ctx.create(Branch, repository_id=repo.id, name=name, head_sha=source.head_sha)


def _ex_push(ctx: Ctx) -> dict[str, Any] | None:
    for branch in ctx.where(Branch, protected=False):
        repo = ctx.get(Repository, branch.repository_id)
        user = ctx.first(User)
        if not repo.archived and user is not None:
            return {"branch_id": branch.id, "author_id": user.id, "message": "Tidy up error messages"}
    return None


@service.tool(intent="push a commit to the branch", write=True, example=_ex_push)
def push_commit(ctx: Ctx, branch_id: BranchId, author_id: UserId, message: Title) -> Commit:
    """Push a new commit onto a branch, moving the branch's head to it.

    Protected branches refuse direct pushes: their changes must come through a
    pull request. New commits on a pull request's branch need fresh check runs,
    and approvals go stale where the base branch dismisses stale reviews.

    Args:
        branch_id: The branch.
        author_id: Who authored the commit.
        message: Commit message headline.
    """
    branch = ctx.get(Branch, branch_id, field="branch_id")
    repo = _writable_repo(ctx, branch.repository_id, "branch_id")
    if branch.protected:
        raise RuleViolation(
            f"protected branch hook declined: {branch.name} of {repo.full_name} only changes through pull requests",
            field="branch_id",
            hint="push to a feature branch and open a pull request (codehost__open_pull_request)",
        )
    sha = _new_sha(ctx)
    commit = ctx.create(
        Commit,
        repository_id=repo.id,
        sha=sha,
        branch=branch.name,
        message=message,
        author_id=author_id,
        parent_sha=branch.head_sha,
    )
    ctx.update(branch, head_sha=sha)
    ctx.update(repo, pushed_at=ctx.now())
    return commit


def _ex_protect(ctx: Ctx) -> dict[str, Any] | None:
    admin = _admin(ctx)
    for branch in ctx.where(Branch, protected=False):
        if admin is not None and not ctx.get(Repository, branch.repository_id).archived:
            return {"branch_id": branch.id, "actor_id": admin.id, "protected": True, "required_approvals": 2}
    return None


@service.tool(intent="change the branch protection rules", write=True, idempotent=True, example=_ex_protect)
def update_branch_protection(
    ctx: Ctx,
    branch_id: BranchId,
    actor_id: UserId,
    protected: bool,
    required_approvals: Annotated[int, Field(ge=0, le=6)] = 1,
    require_status_checks: bool = True,
    dismiss_stale_reviews: bool = False,
) -> Branch:
    """Turn a branch's protection on (with its rules) or off; only organization admins may.

    Unprotecting resets the rules: merges then need one approval and no failing check.

    Args:
        branch_id: The branch.
        actor_id: The admin changing the rules.
        protected: Whether the branch is protected.
        required_approvals: Approving reviews pull requests need (0 to 6; merges always need at least 1).
        require_status_checks: Whether every check must pass, none pending, before merging.
        dismiss_stale_reviews: Whether new commits make earlier approvals stop counting.
    """
    branch = ctx.get(Branch, branch_id, field="branch_id")
    _writable_repo(ctx, branch.repository_id, "branch_id")
    actor = ctx.get(User, actor_id, field="actor_id")
    if actor.role != "admin":
        raise RuleViolation(
            f"{actor.login} is not an organization admin and cannot change branch protection",
            field="actor_id",
            hint="ask an admin (codehost__list_users with role=admin)",
        )
    if not protected:
        return ctx.update(
            branch, protected=False, required_approvals=0, require_status_checks=False, dismiss_stale_reviews=False
        )
    return ctx.update(
        branch,
        protected=True,
        required_approvals=required_approvals,
        require_status_checks=require_status_checks,
        dismiss_stale_reviews=dismiss_stale_reviews,
    )


# -- issues ---------------------------------------------------------------------------------


def _ex_open_issue(ctx: Ctx) -> dict[str, Any] | None:
    user = ctx.first(User)
    for repo in ctx.where(Repository, archived=False):
        if repo.has_issues and user is not None:
            return {
                "repository_id": repo.id,
                "title": "Export fails for empty reports",
                "author_id": user.id,
                "labels": ["bug"],
            }
    return None


@service.tool(intent="open an issue", write=True, example=_ex_open_issue)
def open_issue(
    ctx: Ctx,
    repository_id: RepositoryId,
    title: Title,
    author_id: UserId,
    body: Text = "",
    assignee_id: UserId | None = None,
    labels: list[Label] | None = None,
) -> Issue:
    """Open an issue in a repository; it gets the repository's next number.

    Archived repositories and repositories with issues disabled refuse new issues.

    Args:
        repository_id: The repository.
        title: Issue title.
        author_id: Who opens it.
        body: Description in Markdown.
        assignee_id: Who should work on it.
        labels: Labels to apply.
    """
    repo = _writable_repo(ctx, repository_id)
    if not repo.has_issues:
        raise RuleViolation(
            f"issues are disabled for {repo.full_name}",
            field="repository_id",
            hint="enable them with codehost__update_repository has_issues=true",
        )
    return ctx.create(
        Issue,
        repository_id=repo.id,
        number=_next_number(ctx, repo.id),
        title=title,
        body=body,
        author_id=author_id,
        assignee_id=assignee_id,
        labels=tuple(dict.fromkeys(labels or ())),
    )


def _open_issue_in_live_repo(ctx: Ctx, state: str) -> Issue | None:
    for issue in ctx.where(Issue, state=state):
        if not ctx.get(Repository, issue.repository_id).archived:
            return issue
    return None


def _ex_close_issue(ctx: Ctx) -> dict[str, Any] | None:
    issue = _open_issue_in_live_repo(ctx, "open")
    return None if issue is None else {"issue_id": issue.id, "reason": "completed"}


@service.tool(intent="close the issue", write=True, example=_ex_close_issue)
def close_issue(ctx: Ctx, issue_id: IssueId, reason: Literal["completed", "not_planned"] = "completed") -> Issue:
    """Close an open issue as completed or as not planned.

    Args:
        issue_id: The issue.
        reason: Whether it was done (completed) or will not be done (not_planned).
    """
    issue = ctx.get(Issue, issue_id, field="issue_id")
    _writable_repo(ctx, issue.repository_id, "issue_id")
    if issue.state == "closed":
        raise RuleViolation(
            f"issue #{issue.number} is already closed ({issue.state_reason})", field="issue_id", hint="nothing to do"
        )
    return ctx.update(issue, state="closed", state_reason=reason, closed_at=ctx.now())


def _ex_reopen_issue(ctx: Ctx) -> dict[str, Any] | None:
    issue = _open_issue_in_live_repo(ctx, "closed")
    return None if issue is None else {"issue_id": issue.id}


@service.tool(intent="reopen the issue", write=True, example=_ex_reopen_issue)
def reopen_issue(ctx: Ctx, issue_id: IssueId) -> Issue:
    """Reopen a closed issue.

    Args:
        issue_id: The issue.
    """
    issue = ctx.get(Issue, issue_id, field="issue_id")
    _writable_repo(ctx, issue.repository_id, "issue_id")
    if issue.state == "open":
        raise RuleViolation(f"issue #{issue.number} is already open", field="issue_id", hint="nothing to do")
    return ctx.update(issue, state="open", state_reason="reopened")


# -- pull requests --------------------------------------------------------------------------


def _ex_open_pr(ctx: Ctx) -> dict[str, Any] | None:
    for repo in ctx.where(Repository, archived=False):
        base = ctx.first(Branch, repository_id=repo.id, name=repo.default_branch)
        if base is None:
            continue
        for head in ctx.where(Branch, repository_id=repo.id):
            if head.id == base.id or head.head_sha == base.head_sha:
                continue
            if any(p.base_branch_id == base.id for p in ctx.where(PullRequest, head_branch_id=head.id, state="open")):
                continue
            author = ctx.first(User)
            if author is None:
                return None
            return {
                "repository_id": repo.id,
                "title": f"Merge {head.name}",
                "head_branch_id": head.id,
                "base_branch_id": base.id,
                "author_id": author.id,
            }
    return None


@service.tool(intent="open a pull request", write=True, example=_ex_open_pr)
def open_pull_request(
    ctx: Ctx,
    repository_id: RepositoryId,
    title: Title,
    head_branch_id: BranchId,
    base_branch_id: BranchId,
    author_id: UserId,
    body: Text = "",
    draft: bool = False,
) -> PullRequest:
    """Open a pull request to merge a head branch into a base branch of the same repository.

    The branches must differ and the head must have commits the base lacks; only
    one open pull request may exist per head and base. Write "Fixes #N" in the
    title or body to close issue N when it merges.

    Args:
        repository_id: The repository.
        title: Title of the pull request.
        head_branch_id: Branch with the changes.
        base_branch_id: Branch to merge into (usually the default branch).
        author_id: Who opens it.
        body: Description in Markdown.
        draft: Open it as a draft, not yet ready for review.
    """
    repo = _writable_repo(ctx, repository_id)
    head = _branch_in(ctx, head_branch_id, repo, "head_branch_id")
    base = _branch_in(ctx, base_branch_id, repo, "base_branch_id")
    if head.id == base.id:
        raise RuleViolation(
            f"cannot merge branch {head.name} into itself",
            field="head_branch_id",
            hint="choose a different head branch than the base branch",
        )
    if head.head_sha == base.head_sha:
        raise RuleViolation(
            f"no commits between {base.name} and {head.name}",
            field="head_branch_id",
            hint="push commits to the head branch first (codehost__push_commit)",
        )
    for other in ctx.where(PullRequest, head_branch_id=head.id, state="open"):
        if other.base_branch_id == base.id:
            raise Conflict(
                f"a pull request already exists for {head.name} into {base.name}: #{other.number} ({other.id})",
                field="head_branch_id",
                hint="update the existing pull request instead",
            )
    return ctx.create(
        PullRequest,
        repository_id=repo.id,
        number=_next_number(ctx, repo.id),
        title=title,
        body=body,
        author_id=author_id,
        head_branch_id=head.id,
        head_ref=head.name,
        base_branch_id=base.id,
        base_ref=base.name,
        draft=draft,
    )


@service.tool(
    intent="check whether the pull request can be merged",
    example=first_example(PullRequest, "pull_request_id", where={"state": "open"}),
)
def check_mergeability(ctx: Ctx, pull_request_id: PullRequestId) -> Mergeability:
    """Report whether a pull request can be merged now: its checks, its reviews and every blocker.

    Args:
        pull_request_id: The pull request.
    """
    pr = ctx.get(PullRequest, pull_request_id, field="pull_request_id")
    return _mergeability(ctx, pr)[0]


class MergeResult(BaseModel):
    """What merging a pull request did."""

    pull_request: PullRequest = Field(description="The merged pull request.")
    merge_commit: Commit = Field(description="The commit created on the base branch.")
    closed_issues: list[Issue] = Field(description='Issues closed because the pull request said "Fixes #N".')
    head_branch_deleted: bool = Field(description="Whether the head branch was deleted.")


def _ex_merge(ctx: Ctx) -> dict[str, Any] | None:
    pr = _first_mergeable(ctx)
    if pr is None:
        return None
    return {
        "pull_request_id": pr.id,
        "merged_by_id": pr.author_id,
        "merge_method": "squash",
        "delete_head_branch": True,
    }


@service.tool(intent="merge the pull request", write=True, example=_ex_merge)
def merge_pull_request(
    ctx: Ctx,
    pull_request_id: PullRequestId,
    merged_by_id: UserId,
    merge_method: Literal["merge", "squash", "rebase"] = "merge",
    commit_title: Title | None = None,
    expected_head_sha: Sha | None = None,
    delete_head_branch: bool = False,
) -> MergeResult:
    """Merge an open pull request into its base branch.

    Refused while the pull request is closed, merged or a draft, while any check on
    its head commit failed (or, on a branch requiring status checks, is still
    running), while a reviewer's latest review requests changes, or without enough
    approving reviews (at least one; more if the base branch requires). Issues the
    pull request says it fixes ("Fixes #N") are closed as completed.

    Args:
        pull_request_id: The pull request.
        merged_by_id: Who merges it.
        merge_method: Merge commit, squash, or rebase.
        commit_title: Headline of the merge commit; a default is derived from the pull request.
        expected_head_sha: Refuse the merge if the head branch has moved from this commit.
        delete_head_branch: Delete the head branch after merging (unless protected or still used).
    """
    pr = ctx.get(PullRequest, pull_request_id, field="pull_request_id")
    blockers = _mergeability(ctx, pr)[1]
    if blockers:
        raise RuleViolation(
            f"pull request #{pr.number} cannot be merged: {'; '.join(b[0] for b in blockers)}",
            field="pull_request_id",
            hint=blockers[0][1],
        )
    head = ctx.get(Branch, pr.head_branch_id, field="pull_request_id")
    base = ctx.get(Branch, pr.base_branch_id, field="pull_request_id")
    if expected_head_sha is not None and expected_head_sha != head.head_sha:
        raise Conflict(
            f"head branch {head.name} was modified: it is at {head.head_sha}, not {expected_head_sha}",
            field="expected_head_sha",
            hint="review the new commits and try the merge again",
        )
    repo = ctx.get(Repository, pr.repository_id)
    default_title = {
        "merge": f"Merge pull request #{pr.number} from {head.name}",
        "squash": f"{pr.title} (#{pr.number})"[:200],
        "rebase": pr.title,
    }[merge_method]
    sha = _new_sha(ctx)
    commit = ctx.create(
        Commit,
        repository_id=repo.id,
        sha=sha,
        branch=base.name,
        message=commit_title or default_title,
        author_id=merged_by_id,
        parent_sha=base.head_sha,
    )
    ctx.update(base, head_sha=sha)
    ctx.update(repo, pushed_at=ctx.now())
    merged = ctx.update(pr, state="merged", merged_at=ctx.now(), merged_by_id=merged_by_id, merge_commit_sha=sha)
    closed: list[Issue] = []
    for number in dict.fromkeys(int(n) for n in _CLOSING.findall(f"{pr.title}\n{pr.body}")):
        issue = ctx.first(Issue, repository_id=repo.id, number=number)
        if issue is not None and issue.state == "open":
            closed.append(ctx.update(issue, state="closed", state_reason="completed", closed_at=ctx.now()))
    deleted = False
    if delete_head_branch and not head.protected and head.name != repo.default_branch:
        still_used = [p for p in ctx.where(PullRequest, head_branch_id=head.id, state="open")]
        still_used += [p for p in ctx.where(PullRequest, base_branch_id=head.id, state="open")]
        if not still_used:
            ctx.delete(head)
            deleted = True
    return MergeResult(pull_request=merged, merge_commit=commit, closed_issues=closed, head_branch_deleted=deleted)


# -- reviews --------------------------------------------------------------------------------


def _ex_review(ctx: Ctx) -> dict[str, Any] | None:
    for pr in ctx.where(PullRequest, state="open"):
        if ctx.get(Repository, pr.repository_id).archived:
            continue
        reviewer = _other_engineer(ctx, pr.author_id)
        if reviewer is not None:
            return {"pull_request_id": pr.id, "reviewer_id": reviewer.id, "event": "approve", "body": "Looks good."}
    return None


@service.tool(intent="review the pull request", write=True, example=_ex_review)
def submit_review(
    ctx: Ctx,
    pull_request_id: PullRequestId,
    reviewer_id: UserId,
    event: Literal["approve", "request_changes", "comment"],
    body: Text = "",
) -> Review:
    """Submit a review of an open pull request's current head commit.

    Authors cannot approve or request changes on their own pull requests;
    requesting changes and commenting need a body.

    Args:
        pull_request_id: The pull request.
        reviewer_id: Who reviews.
        event: approve, request_changes or comment.
        body: Review summary; required for request_changes and comment.
    """
    pr = ctx.get(PullRequest, pull_request_id, field="pull_request_id")
    _writable_repo(ctx, pr.repository_id, "pull_request_id")
    if pr.state != "open":
        raise RuleViolation(
            f"pull request #{pr.number} is {pr.state} and cannot be reviewed",
            field="pull_request_id",
            hint="only open pull requests take reviews",
        )
    if pr.author_id == reviewer_id and event != "comment":
        verb = "approve" if event == "approve" else "request changes on"
        raise RuleViolation(
            f"cannot {verb} your own pull request",
            field="reviewer_id",
            hint="ask another engineer to review it; the author may only comment",
        )
    if event != "approve" and not body.strip():
        raise RuleViolation(
            f"a {event.replace('_', ' ')} review needs a body", field="body", hint="say what should change or why"
        )
    head = ctx.find(Branch, pr.head_branch_id)
    if head is None:
        raise RuleViolation(
            f"the head branch {pr.head_ref} of #{pr.number} was deleted",
            field="pull_request_id",
            hint="close the pull request",
        )
    state = {"approve": "approved", "request_changes": "changes_requested", "comment": "commented"}[event]
    return ctx.create(
        Review, pull_request_id=pr.id, reviewer_id=reviewer_id, state=state, body=body, commit_sha=head.head_sha
    )


def _ex_dismiss(ctx: Ctx) -> dict[str, Any] | None:
    admin = _admin(ctx)
    for review in ctx.where(Review, state="changes_requested"):
        pr = ctx.get(PullRequest, review.pull_request_id)
        if pr.state == "open" and not ctx.get(Repository, pr.repository_id).archived and admin is not None:
            return {"review_id": review.id, "message": "Addressed in the latest commit.", "actor_id": admin.id}
    return None


@service.tool(intent="dismiss the review", write=True, example=_ex_dismiss)
def dismiss_review(ctx: Ctx, review_id: ReviewId, message: Text, actor_id: UserId) -> Review:
    """Dismiss an approval or change request so it no longer counts toward merging.

    Only approving and change-requesting reviews of open pull requests can be
    dismissed, with a message; on a protected base branch only admins may dismiss.

    Args:
        review_id: The review.
        message: Why it is dismissed.
        actor_id: Who dismisses it.
    """
    review = ctx.get(Review, review_id, field="review_id")
    pr = ctx.get(PullRequest, review.pull_request_id, field="review_id")
    _writable_repo(ctx, pr.repository_id, "review_id")
    if review.state not in ("approved", "changes_requested"):
        raise RuleViolation(
            f"a {review.state} review cannot be dismissed",
            field="review_id",
            hint="only approvals and change requests can be dismissed",
        )
    if pr.state != "open":
        raise RuleViolation(
            f"pull request #{pr.number} is {pr.state}", field="review_id", hint="reviews of closed pull requests stay"
        )
    if not message.strip():
        raise RuleViolation("a dismissal needs a message", field="message", hint="say why the review no longer applies")
    actor = ctx.get(User, actor_id, field="actor_id")
    base = ctx.find(Branch, pr.base_branch_id)
    if base is not None and base.protected and actor.role != "admin":
        raise RuleViolation(
            f"{pr.base_ref} is protected: only admins may dismiss reviews of pull requests into it",
            field="actor_id",
            hint="ask an admin (codehost__list_users with role=admin)",
        )
    return ctx.update(review, state="dismissed", dismissal_message=message)


# -- check runs -----------------------------------------------------------------------------


def _ex_create_check(ctx: Ctx) -> dict[str, Any] | None:
    repo = _live_repo(ctx)
    if repo is None:
        return None
    branch = ctx.first(Branch, repository_id=repo.id, name=repo.default_branch)
    if branch is None:
        return None
    return {"repository_id": repo.id, "head_sha": branch.head_sha, "name": "security/scan", "status": "in_progress"}


@service.tool(intent="report a CI check on a commit", write=True, example=_ex_create_check)
def create_check_run(
    ctx: Ctx,
    repository_id: RepositoryId,
    head_sha: Sha,
    name: CheckName,
    status: CheckStatus = "queued",
    conclusion: Conclusion | None = None,
    details_url: Url | None = None,
) -> CheckRun:
    """Create a check run on a commit of a repository (a re-run of a name replaces the earlier run).

    A completed run needs a conclusion; a run that is not completed must not have one.

    Args:
        repository_id: The repository.
        head_sha: SHA of the commit to check; must be a commit of the repository.
        name: Check name, e.g. "ci/test".
        status: queued, in_progress or completed.
        conclusion: Outcome; required when status is completed.
        details_url: Link to the CI logs.
    """
    repo = _writable_repo(ctx, repository_id)
    if ctx.first(Commit, sha=head_sha, repository_id=repo.id) is None:
        raise NotFound(
            f"no commit found for SHA {head_sha} in {repo.full_name}",
            field="head_sha",
            hint="use a branch's head_sha (codehost__list_branches) or a commit's sha (codehost__list_commits)",
        )
    _check_conclusion(status, conclusion)
    now = ctx.now()
    return ctx.create(
        CheckRun,
        repository_id=repo.id,
        head_sha=head_sha,
        name=name,
        status=status,
        conclusion=conclusion,
        details_url=details_url,
        started_at=None if status == "queued" else now,
        completed_at=now if status == "completed" else None,
    )


def _check_conclusion(status: str, conclusion: str | None) -> None:
    if status == "completed" and conclusion is None:
        raise RuleViolation(
            "a completed check run needs a conclusion", field="conclusion", hint="pass e.g. success or failure"
        )
    if status != "completed" and conclusion is not None:
        raise RuleViolation(
            f"a {status} check run cannot have a conclusion yet",
            field="conclusion",
            hint="omit the conclusion, or set status to completed",
        )


@service.tool(
    intent="update the progress or result of the CI check",
    write=True,
    example=first_example(
        CheckRun,
        "check_run_id",
        match=lambda ctx, run: run.status != "completed" and not ctx.get(Repository, run.repository_id).archived,
        status="completed",
        conclusion="success",
    ),
)
def update_check_run(
    ctx: Ctx,
    check_run_id: CheckRunId,
    status: CheckStatus,
    conclusion: Conclusion | None = None,
    details_url: Url | None = None,
) -> CheckRun:
    """Move a check run forward (queued, in_progress, completed) and record its conclusion.

    Completed runs are final: create a new run of the same name to re-run a check.

    Args:
        check_run_id: The check run.
        status: The new status; cannot go back.
        conclusion: Outcome; required when status is completed.
        details_url: Link to the CI logs.
    """
    run = ctx.get(CheckRun, check_run_id, field="check_run_id")
    _writable_repo(ctx, run.repository_id, "check_run_id")
    if run.status == "completed":
        raise RuleViolation(
            f"check run {run.id} ({run.name}) already completed with {run.conclusion}",
            field="check_run_id",
            hint="create a new check run of the same name to re-run it (codehost__create_check_run)",
        )
    order = ("queued", "in_progress", "completed")
    if order.index(status) < order.index(run.status):
        raise RuleViolation(
            f"check run {run.id} is {run.status} and cannot go back to {status}",
            field="status",
            hint="create a new check run to start over",
        )
    _check_conclusion(status, conclusion)
    if status == run.status and details_url is None:
        raise RuleViolation(f"check run {run.id} is already {status}", field="status", hint="nothing to update")
    now = ctx.now()
    return ctx.update(
        run,
        status=status,
        conclusion=conclusion,
        details_url=details_url or run.details_url,
        started_at=run.started_at or now,
        completed_at=now if status == "completed" else None,
    )


# -- releases -------------------------------------------------------------------------------


def _ex_create_release(ctx: Ctx) -> dict[str, Any] | None:
    repo = _live_repo(ctx)
    user = ctx.first(User)
    if repo is None or user is None:
        return None
    return {"repository_id": repo.id, "tag_name": "v9.0.0", "name": "Version 9.0.0", "author_id": user.id}


@service.tool(intent="create a release", write=True, example=_ex_create_release)
def create_release(
    ctx: Ctx,
    repository_id: RepositoryId,
    tag_name: TagName,
    name: Title,
    author_id: UserId,
    body: Text = "",
    target_branch_id: BranchId | None = None,
    draft: bool = False,
    prerelease: bool = False,
) -> Release:
    """Create a release at a new tag on the head of a branch; it is published at once unless it is a draft.

    Tags are unique within a repository.

    Args:
        repository_id: The repository.
        tag_name: The new tag, e.g. "v1.4.0".
        name: Release title.
        author_id: Who creates it.
        body: Release notes in Markdown.
        target_branch_id: Branch to tag; omit for the default branch.
        draft: Keep it unpublished.
        prerelease: Mark it as a release candidate or beta.
    """
    repo = _writable_repo(ctx, repository_id)
    existing = ctx.first(Release, repository_id=repo.id, tag_name=tag_name)
    if existing is not None:
        raise Conflict(
            f"tag {tag_name} already exists in {repo.full_name} (release {existing.id})",
            field="tag_name",
            hint="choose a new tag, e.g. the next version number",
        )
    if target_branch_id is not None:
        target = _branch_in(ctx, target_branch_id, repo, "target_branch_id")
    else:
        found = ctx.first(Branch, repository_id=repo.id, name=repo.default_branch)
        if found is None:
            raise NotFound(
                f"{repo.full_name} has no default branch {repo.default_branch}",
                field="target_branch_id",
                hint="pass target_branch_id",
            )
        target = found
    return ctx.create(
        Release,
        repository_id=repo.id,
        tag_name=tag_name,
        name=name,
        body=body,
        target_branch=target.name,
        target_sha=target.head_sha,
        draft=draft,
        prerelease=prerelease,
        author_id=author_id,
        published_at=None if draft else ctx.now(),
    )


@service.tool(
    intent="publish the draft release",
    write=True,
    example=first_example(
        Release,
        "release_id",
        where={"draft": True},
        match=lambda ctx, rel: not ctx.get(Repository, rel.repository_id).archived,
    ),
)
def publish_release(ctx: Ctx, release_id: ReleaseId) -> Release:
    """Publish a draft release.

    Args:
        release_id: The draft release.
    """
    rel = ctx.get(Release, release_id, field="release_id")
    _writable_repo(ctx, rel.repository_id, "release_id")
    if not rel.draft:
        raise RuleViolation(f"release {rel.tag_name} is already published", field="release_id", hint="nothing to do")
    return ctx.update(rel, draft=False, published_at=ctx.now())


@service.tool(
    intent="find the latest release",
    example=first_example(
        Release, None, where={"draft": False, "prerelease": False}, fields={"repository_id": "repository_id"}
    ),
)
def get_latest_release(ctx: Ctx, repository_id: RepositoryId) -> Release:
    """Get a repository's latest published full release (drafts and prereleases never count).

    Args:
        repository_id: The repository.
    """
    repo = ctx.get(Repository, repository_id, field="repository_id")
    best: Release | None = None
    for rel in ctx.where(Release, repository_id=repo.id, draft=False, prerelease=False):
        if best is None or (rel.published_at or rel.created_at, rel.id) > (
            best.published_at or best.created_at,
            best.id,
        ):
            best = rel
    if best is None:
        raise NotFound(
            f"{repo.full_name} has no published release",
            field="repository_id",
            hint="list drafts and prereleases with codehost__list_releases",
        )
    return best


# -- seed -----------------------------------------------------------------------------------

_REPOS: tuple[tuple[str, str, str, int, bool], ...] = (
    # name, description, visibility, required approvals on main (0: unprotected), archived
    ("web-app", "Customer-facing web application", "private", 2, False),
    ("api-server", "Public REST API and webhooks", "internal", 1, False),
    ("billing-service", "Invoicing, payments and dunning", "private", 1, False),
    ("mobile-app", "iOS and Android apps", "private", 1, False),
    ("infra", "Terraform modules and deployment pipelines", "internal", 1, False),
    ("docs", "Product documentation site", "public", 0, False),
    ("data-pipeline", "Nightly ETL and reporting jobs", "internal", 1, False),
    ("legacy-portal", "Old partner portal, kept for reference", "private", 1, True),
)
_TOPICS = (
    ("feature/export-csv", "Add CSV export to reports"),
    ("fix/login-timeout", "Fix session timeout on login"),
    ("chore/upgrade-deps", "Upgrade dependencies"),
    ("feature/dark-mode", "Add dark mode"),
    ("fix/rate-limit", "Respect rate limits on retries"),
    ("feature/webhooks-v2", "Webhooks v2 payloads"),
    ("fix/currency-rounding", "Fix currency rounding in totals"),
    ("perf/cache-queries", "Cache slow dashboard queries"),
    ("docs/api-guide", "Write the API getting-started guide"),
    ("feature/sso", "Single sign-on with SAML"),
)
_ISSUES: tuple[tuple[str, tuple[Label, ...]], ...] = (
    ("Export button does nothing on empty reports", ("bug",)),
    ("Support for SAML single sign-on", ("enhancement", "security")),
    ("Document the webhook retry policy", ("documentation",)),
    ("Dashboard takes 10s to load for large accounts", ("performance", "bug")),
    ("Totals are off by one cent for EUR invoices", ("bug",)),
    ("How do I rotate API keys?", ("question",)),
    ("Add dark mode", ("enhancement",)),
    ("Login session expires after 5 minutes", ("bug", "security")),
)
_SCENARIOS = ("mergeable", "failing", "unreviewed", "changes", "draft", "merged", "pending", "closed", "stale")


@service.seeder
def seed(s: SeedContext) -> None:
    """Engineers as users; repositories with protected main branches, commits, issues, pull requests in every state."""
    users = _seed_users(s)
    shas: set[str] = set()
    # Scenarios rotate across the live repositories, so that every scenario exists somewhere.
    scenarios = itertools.cycle(_SCENARIOS)
    for name, description, visibility, approvals, archived in _REPOS:
        age = s.rng.randint(200, 900)
        repo = s.create(
            Repository,
            name=name,
            full_name=f"{org_handle(s.population)}/{name}",
            description=description,
            visibility=visibility,
            archived=archived,
            pushed_at=s.ago(days=s.rng.randint(1, 20)),
            homepage=f"https://docs.{s.population.home.domain}" if name == "docs" else None,
            created_at=s.ago(days=age),
        )
        _RepoHistory(s, repo, users, shas, approvals).seed(age, scenarios)


def _seed_users(s: SeedContext) -> list[User]:
    """The engineers, with unique logins; the first and the engineering managers are admins."""
    engineers = s.population.staff("Engineering", fallback=6)
    users: list[User] = []
    logins: set[str] = set()
    for i, person in enumerate(engineers):
        login = re.sub(r"[^a-z0-9-]", "", person.email.split("@")[0].replace(".", "-").lower())[:39].strip("-")
        while login in logins:
            login = f"{login[:36]}-{i}"
        logins.add(login)
        admin = person.job_title == "Engineering Manager" or i == 0
        users.append(
            s.create(
                User,
                login=login,
                email=person.email,
                name=person.name,
                role="admin" if admin else "member",
                created_at=utc_at(person.hire_date or s.now.date(), 10),
            )
        )
    return users


_Plan = tuple[str, str, str, str, int]
"""A feature branch to seed: (branch, title, head sha, scenario, pull request number)."""

_VERDICTS: dict[str, tuple[str, str]] = {
    "mergeable": ("approved", "Looks good to me."),
    "failing": ("approved", "LGTM once CI is green."),
    "changes": ("changes_requested", "Please add tests for the edge cases."),
    "merged": ("approved", "Ship it."),
    "pending": ("approved", "Approving; waiting on CI."),
    "unreviewed": ("commented", "Will take a closer look tomorrow."),
}
"""The review each scenario's pull request gets; the others get none."""


class _RepoHistory:
    """Seeds one repository's history: commits, issues, branches, pull requests, check runs and releases.

    Args:
        s: The seeding context; its random draws must keep their order, so the steps run in a fixed sequence.
        repo: The repository.
        users: Every user; authors are drawn from them.
        shas: SHAs already used in the world.
        approvals: Approvals main requires (0: main is unprotected).
    """

    def __init__(self, s: SeedContext, repo: Repository, users: list[User], shas: set[str], approvals: int) -> None:
        self.s = s
        self.rng = s.rng
        self.repo = repo
        self.users = users
        self.admin_id = ([u for u in users if u.role == "admin"] or users)[0].id
        self.shas = shas
        self.approvals = approvals
        self.domain = s.population.home.domain

    def sha(self) -> str:
        while True:
            value = f"{self.rng.getrandbits(160):040x}"
            if value not in self.shas:
                self.shas.add(value)
                return value

    def commit(self, branch: str, message: str, parent: str | None, when: dt.datetime) -> str:
        value = self.sha()
        self.s.create(
            Commit,
            repository_id=self.repo.id,
            sha=value,
            branch=branch,
            message=message,
            author_id=self.rng.choice(self.users).id,
            parent_sha=parent,
            created_at=when,
        )
        return value

    def seed(self, age: int, scenarios: Iterator[str]) -> None:
        main_head = self.commit("main", "Initial commit", None, self.s.ago(days=age))
        for msg in ("Set up CI workflow", "Add README and contributing guide"):
            main_head = self.commit("main", msg, main_head, self.s.ago(days=self.rng.randint(30, age)))
        # Issues first: their numbers come before the pull requests'.
        issues = self.seed_issues()
        plans = self.plan_branches(main_head, len(issues), scenarios)
        merges: dict[str, str] = {}
        for branch_name, title, _head, scenario, number in plans:
            if scenario == "merged":
                main_head = self.commit("main", f"{title} (#{number})", main_head, self.s.ago(days=1))
                merges[branch_name] = main_head
        main = self.seed_main(main_head, age)
        open_issues = [i for i in issues if i.state == "open"]
        for plan in plans:
            branch = self.s.create(
                Branch, repository_id=self.repo.id, name=plan[0], head_sha=plan[2], created_at=self.s.ago(days=20)
            )
            if plan[3] != "stale":
                fixes = open_issues.pop(0) if open_issues and plan[3] in ("mergeable", "pending") else None
                self.seed_pull_request(plan, branch, main, fixes, merges.get(plan[0]))
        self.seed_releases(main_head)

    def seed_issues(self) -> list[Issue]:
        rng, pop, archived = self.rng, self.s.population, self.repo.archived
        issues: list[Issue] = []
        for number, (title, labels) in enumerate(rng.sample(_ISSUES, k=rng.randint(3, 6)), start=1):
            closed = archived or rng.random() < 0.35
            issues.append(
                self.s.create(
                    Issue,
                    repository_id=self.repo.id,
                    number=number,
                    title=title,
                    labels=labels,
                    body=f"Seen in {rng.choice(pop.customers).name}'s account." if pop.customers else "",
                    state="closed" if closed else "open",
                    state_reason=rng.choice(("completed", "not_planned")) if closed else None,
                    author_id=rng.choice(self.users).id,
                    assignee_id=rng.choice(self.users).id if rng.random() < 0.7 else None,
                    closed_at=self.s.ago(days=rng.randint(1, 30)) if closed else None,
                    created_at=self.s.ago(days=rng.randint(31, 120)),
                    updated_at=self.s.ago(days=rng.randint(0, 30)),
                )
            )
        return issues

    def plan_branches(self, main_head: str, number: int, scenarios: Iterator[str]) -> list[_Plan]:
        """Feature branches with their commits, each with a pull request in one scenario (none when stale)."""
        plans: list[_Plan] = []
        for branch_name, title in self.rng.sample(_TOPICS, k=self.rng.randint(3, 5)):
            # An archived repository's pull requests all ended, merged or closed in turn.
            ended = "merged" if len(plans) % 2 == 0 else "closed"
            scenario = ended if self.repo.archived else next(scenarios)
            head = self.commit(branch_name, title, main_head, self.s.ago(days=self.rng.randint(2, 20)))
            if self.rng.random() < 0.5:
                head = self.commit(
                    branch_name, f"Address review: {title.lower()}", head, self.s.ago(days=self.rng.randint(1, 2))
                )
            number += 0 if scenario == "stale" else 1
            plans.append((branch_name, title, head, scenario, number))
        return plans

    def seed_main(self, main_head: str, age: int) -> Branch:
        """The main branch, protected when it requires approvals, with green checks on its head."""
        main = self.s.create(
            Branch,
            repository_id=self.repo.id,
            name="main",
            head_sha=main_head,
            protected=self.approvals > 0,
            required_approvals=self.approvals,
            require_status_checks=self.approvals > 0,
            dismiss_stale_reviews=self.repo.name == "api-server",
            created_at=self.s.ago(days=age),
        )
        for check in ("ci/build", "ci/test"):
            self.s.create(
                CheckRun,
                repository_id=self.repo.id,
                head_sha=main_head,
                name=check,
                status="completed",
                conclusion="success",
                started_at=self.s.ago(days=1),
                completed_at=self.s.ago(days=0.9),
                created_at=self.s.ago(days=1),
                details_url=f"https://ci.{self.domain}/{self.repo.name}/{main_head[:8]}",
            )
        return main

    def seed_pull_request(
        self, plan: _Plan, branch: Branch, main: Branch, fixes: Issue | None, merge_sha: str | None
    ) -> None:
        """The branch's pull request, its check runs and its reviews, as its scenario has them."""
        branch_name, title, head, scenario, number = plan
        rng, users = self.rng, self.users
        author = rng.choice(users)
        reviewer = next((u for u in rng.sample(users, k=len(users)) if u.id != author.id), None)
        state = {"merged": "merged", "closed": "closed"}.get(scenario, "open")
        pr = self.s.create(
            PullRequest,
            repository_id=self.repo.id,
            number=number,
            title=title,
            body=f"Fixes #{fixes.number}" if fixes else f"{title}. Tested locally.",
            author_id=author.id,
            head_branch_id=branch.id,
            head_ref=branch_name,
            base_branch_id=main.id,
            base_ref="main",
            state=state,
            draft=scenario == "draft",
            merged_at=self.s.ago(days=1) if state == "merged" else None,
            merged_by_id=self.admin_id if state == "merged" else None,
            merge_commit_sha=merge_sha,
            created_at=self.s.ago(days=rng.randint(3, 20)),
            updated_at=self.s.ago(days=1),
        )
        outcome = {"failing": "failure", "pending": None, "draft": None}.get(scenario, "success")
        for check in ("ci/build", "ci/test"):
            result = "success" if check == "ci/build" else outcome
            self.s.create(
                CheckRun,
                repository_id=self.repo.id,
                head_sha=head,
                name=check,
                status="completed" if result else rng.choice(("queued", "in_progress")),
                conclusion=result,
                started_at=self.s.ago(days=2),
                completed_at=self.s.ago(days=1.9) if result else None,
                details_url=f"https://ci.{self.domain}/{self.repo.name}/{head[:8]}",
                created_at=self.s.ago(days=2),
            )
        if reviewer is None:
            return
        if scenario in _VERDICTS:
            verdict, text = _VERDICTS[scenario]
            self.s.create(
                Review,
                pull_request_id=pr.id,
                reviewer_id=reviewer.id,
                state=verdict,
                body=text,
                commit_sha=head,
                submitted_at=self.s.ago(days=1.5),
            )
        if scenario == "mergeable" and self.approvals > 1:
            second = next((u for u in users if u.id not in (author.id, reviewer.id)), None)
            if second is not None:
                self.s.create(
                    Review,
                    pull_request_id=pr.id,
                    reviewer_id=second.id,
                    state="approved",
                    body="Approved.",
                    commit_sha=head,
                    submitted_at=self.s.ago(days=1.2),
                )

    def seed_releases(self, main_head: str) -> None:
        """Two published releases, a release candidate, sometimes a draft."""
        major = self.rng.randint(1, 3)
        for k, (minor, pre, draft) in enumerate(
            ((0, False, False), (1, False, False), (2, True, False), (2, False, True))
        ):
            if k == 3 and self.rng.random() < 0.5:
                continue
            tag = f"v{major}.{minor}.0" + ("-rc.1" if pre else "")
            self.s.create(
                Release,
                repository_id=self.repo.id,
                tag_name=tag,
                name=f"{self.repo.name} {tag}",
                body="Bug fixes and improvements.",
                target_branch="main",
                target_sha=main_head,
                draft=draft,
                prerelease=pre,
                author_id=self.admin_id,
                published_at=None if draft else self.s.ago(days=90 - 30 * k),
                created_at=self.s.ago(days=91 - 30 * k),
            )
