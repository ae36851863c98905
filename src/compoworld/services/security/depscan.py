"""Lockstep Dependencies: open-source dependency scanning of the company's code, its issues, ignores and fixes.

Modeled on the Snyk API (v1 and REST): organizations with a license policy (SPDX license → severity
and instructions), projects imported from a repository's manifest (npm, Maven, pip, Go modules,
NuGet; active or deactivated, retested daily, weekly or never), issues per project — vulnerabilities
with severity, CVEs, CVSS, exploit maturity and the version that fixes them, and license issues —
that are open, ignored or resolved; ignores that need a reason type and reason (temporary ignores an
expiry at most 180 days ahead; mature-exploit critical vulnerabilities cannot be ignored as
won't-fix) and reopen the issue when removed; and fix pull requests that upgrade vulnerable
packages, only for fixable open issues not already in an open fix PR, resolving them when merged.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "depscan",
    title="Lockstep Dependencies",
    category="dependency_security",
    modeled_on="Snyk API: orgs, license policy, projects (import, deactivate, test), aggregated issues, "
    "ignores, fix pull requests",
    description="Open-source dependency security for engineering: organizations and their license policy, "
    "projects scanned from repository manifests, vulnerable and license-violating packages with CVEs and "
    "severities, ignores with reasons and expiry, and fix pull requests that upgrade the packages.",
)

OrgId = Annotated[str, IdOf("depscan.organization")]
ProjectId = Annotated[str, IdOf("depscan.project")]
IssueId = Annotated[str, IdOf("depscan.issue")]
IgnoreId = Annotated[str, IdOf("depscan.ignore")]
FixPrId = Annotated[str, IdOf("depscan.fix_pr")]
RuleId = Annotated[str, IdOf("depscan.license_rule")]

RepoName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")]
"""A repository as owner/name."""
Manifest = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_./-]{1,200}$")]
"""The manifest file scanned (package.json, pom.xml, requirements.txt, go.mod …)."""
Spdx = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9.+-]{2,64}$")]
"""An SPDX license id (MIT, GPL-3.0, AGPL-3.0 …)."""
Cve = Annotated[str, StringConstraints(pattern=r"^CVE-\d{4}-\d{4,7}$")]
"""A CVE identifier."""

Ecosystem = Literal["npm", "maven", "pip", "gomodules", "nuget"]
Severity = Literal["low", "medium", "high", "critical"]
LicenseSeverity = Literal["none", "low", "medium", "high"]
IssueStatus = Literal["open", "ignored", "resolved"]
IgnoreType = Literal["not-vulnerable", "wont-fix", "temporary-ignore"]
Maturity = Literal["mature", "proof-of-concept", "no-known-exploit"]
PrStatus = Literal["open", "merged", "closed"]

MANIFESTS: dict[str, str] = {
    "npm": "package.json",
    "maven": "pom.xml",
    "pip": "requirements.txt",
    "gomodules": "go.mod",
    "nuget": "packages.config",
}
MAX_TEMPORARY = dt.timedelta(days=180)


class Organization(Created):
    """A Snyk organization: a team's projects and policies."""

    id: OrgId
    name: Title
    """Its name."""
    slug: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{1,64}$")]
    """URL slug."""
    admin_email: Email
    """Its administrator."""


class LicenseRule(Created):
    """A license policy rule of an organization."""

    id: RuleId
    org_id: OrgId
    """The organization."""
    license: Spdx
    """The SPDX license id."""
    severity: LicenseSeverity
    """none (allowed), low, medium or high."""
    instructions: Text = ""
    """What developers should do."""


class Project(Timestamped):
    """A scanned manifest of a repository."""

    id: ProjectId
    org_id: OrgId
    """The organization."""
    repo: RepoName
    """The repository."""
    target_file: Manifest
    """The manifest scanned."""
    ecosystem: Ecosystem
    """npm, maven, pip, gomodules or nuget."""
    branch: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._/-]{1,100}$")] = "main"
    """The branch monitored."""
    status: Literal["active", "deactivated"] = "active"
    """active (tested and alerting) or deactivated."""
    test_frequency: Literal["daily", "weekly", "never"] = "daily"
    """How often it is retested."""
    owner_email: Email
    """The engineer who owns it."""
    last_tested_at: DateTime | None = None
    """When it was last tested."""


class Issue(Timestamped):
    """A vulnerability or license issue of a package in a project."""

    id: IssueId
    project_id: ProjectId
    """The project."""
    issue_type: Literal["vuln", "license"]
    """vuln or license."""
    package: Annotated[str, StringConstraints(min_length=1, max_length=214)]
    """The package."""
    version: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    """The version in use."""
    title: Title
    """What it is."""
    severity: Severity
    """low, medium, high or critical."""
    cves: tuple[Cve, ...] = ()
    """CVE ids."""
    cvss_score: Annotated[float, Field(ge=0, le=10)] = 0.0
    """CVSS v3 score."""
    exploit_maturity: Maturity = "no-known-exploit"
    """mature, proof-of-concept or no-known-exploit."""
    fixed_in: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None
    """The first version that fixes it (none: no fix)."""
    license: Spdx | None = None
    """The package's license (license issues)."""
    status: IssueStatus = "open"
    """open, ignored or resolved."""
    ignore_id: IgnoreId | None = None
    """The ignore covering it."""


class Ignore(Created):
    """An ignore of one issue."""

    id: IgnoreId
    issue_id: IssueId
    """The issue."""
    reason_type: IgnoreType
    """not-vulnerable, wont-fix or temporary-ignore."""
    reason: Text
    """Why."""
    expires: Date | None = None
    """The last day it applies (temporary ignores)."""
    ignored_by: Email
    """Who ignored it."""


class Upgrade(Value):
    """A package upgrade in a fix PR."""

    package: str
    """The package."""
    from_version: str
    """From."""
    to_version: str
    """To."""


class FixPr(Timestamped):
    """A fix pull request opened against the project's repository."""

    id: FixPrId
    project_id: ProjectId
    """The project."""
    issue_ids: tuple[IssueId, ...]
    """The issues it fixes."""
    upgrades: tuple[Upgrade, ...]
    """The upgrades it makes."""
    branch: Annotated[str, StringConstraints(pattern=r"^snyk-fix-[0-9a-f]{8}$")]
    """Its branch."""
    title: Title
    """Its title."""
    status: PrStatus = "open"
    """open, merged or closed."""
    opened_by: Email
    """Who opened it."""


class TestSummary(Value):
    """A project's test result."""

    project_id: ProjectId
    """The project."""
    tested_at: DateTime
    """When."""
    open_by_severity: dict[Severity, int]
    """Open issues per severity."""
    fixable: int
    """Open vulnerabilities with a fix."""
    ignored: int
    """Ignored issues."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a member", field=field, hint="use an employee's e-mail")


def _guard_project(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_project_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(FixPr, project_id=old.id, status="open") is not None:
        raise Conflict("the project has an open fix PR", field="project_id", hint="merge or close it first")
    for issue in ctx.where(Issue, project_id=old.id):
        for ig in ctx.where(Ignore, issue_id=issue.id):
            ctx.delete(ig)
        ctx.delete(issue)


def _guard_rule(ctx: Ctx, new: Any, old: Any) -> None:
    """A changed license severity applies to the organization's license issues at once."""
    if new.severity == old.severity:
        return
    for p in ctx.where(Project, org_id=new.org_id):
        for i in ctx.where(Issue, project_id=p.id, issue_type="license", license=new.license):
            if new.severity == "none":
                if i.status == "open":
                    ctx.update(i, status="resolved")
            elif i.status == "ignored":
                ctx.update(i, severity=new.severity)
            else:
                ctx.update(i, severity=new.severity, status="open")


def _guard_ignore_delete(ctx: Ctx, new: Any, old: Any) -> None:
    issue = ctx.get(Issue, old.issue_id)
    if issue.ignore_id == old.id:
        ctx.update(issue, status="open", ignore_id=None)


organizations = service.resource(
    Organization,
    name="organization",
    plural="organizations",
    prefix="org",
    create=False,
    filters=("slug",),
    delete=False,
)
license_rules = service.resource(
    LicenseRule,
    name="license_rule",
    plural="license_rules",
    prefix="lic",
    create=False,
    filters=("org_id", "license", "severity"),
    update=("severity", "instructions"),
    guard_update=_guard_rule,
    title="license policy rule",
)
projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=False,
    filters=("org_id", "repo", "ecosystem", "status", "owner_email"),
    search=("repo", "target_file"),
    update=("branch", "test_frequency", "owner_email"),
    transitions={
        "deactivate": Transition("status", ("active",), "deactivated", "deactivate the project"),
        "activate": Transition("status", ("deactivated",), "active", "activate the project"),
    },
    guard_update=_guard_project,
    guard_delete=_guard_project_delete,
)
issues = service.resource(
    Issue,
    name="issue",
    plural="issues",
    prefix="iss",
    create=False,
    filters=("project_id", "issue_type", "severity", "status", "package", "exploit_maturity", "license"),
    search=("title", "package"),
    delete=False,
)
ignores = service.resource(
    Ignore,
    name="ignore",
    plural="ignores",
    prefix="ign",
    create=False,
    filters=("issue_id", "reason_type", "ignored_by"),
    search=("reason",),
    guard_delete=_guard_ignore_delete,
)
fix_prs = service.resource(
    FixPr,
    name="fix_pr",
    plural="fix_prs",
    prefix="fix",
    create=False,
    filters=("project_id", "status", "opened_by"),
    delete=False,
    transitions={"close": Transition("status", ("open",), "closed", "close the fix pull request unmerged")},
    title="fix pull request",
)


# -- projects ---------------------------------------------------------------------------------


def _example_import(ctx: Ctx) -> dict[str, Any] | None:
    org = ctx.first(Organization)
    if org is None:
        return None
    return {"org_id": org.id, "repo": "acme/billing-worker", "ecosystem": "pip", "owner_email": org.admin_email}


@service.tool(intent="import the project", write=True, example=_example_import)
def import_project(
    ctx: Ctx,
    org_id: OrgId,
    repo: RepoName,
    ecosystem: Ecosystem,
    owner_email: Email,
    target_file: Manifest | None = None,
    branch: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._/-]{1,100}$")] = "main",
) -> Project:
    """Import a repository's manifest as a project; one project per repository, file and branch.

    Args:
        org_id: The organization.
        repo: The repository (owner/name).
        ecosystem: npm, maven, pip, gomodules or nuget.
        owner_email: The engineer who owns it.
        target_file: The manifest (default: the ecosystem's usual one).
        branch: The branch to monitor.
    """
    org = ctx.get(Organization, org_id, field="org_id")
    _staff(ctx, owner_email, "owner_email")
    manifest = target_file or MANIFESTS[ecosystem]
    for p in ctx.where(Project, org_id=org.id, repo=repo):
        if p.target_file == manifest and p.branch == branch:
            raise Conflict(f"{repo}:{manifest} is already project {p.id}", field="repo", hint="test that project")
    return ctx.create(
        Project,
        org_id=org.id,
        repo=repo,
        target_file=manifest,
        ecosystem=ecosystem,
        owner_email=owner_email,
        branch=branch,
    )


@service.tool(
    intent="test the project",
    write=True,
    example=first_example(Project, "project_id", where={"status": "active"}),
)
def test_project(ctx: Ctx, project_id: ProjectId) -> TestSummary:
    """Retest an active project now and summarize its open, fixable and ignored issues; expired ignores lapse.

    Args:
        project_id: The project.
    """
    p = ctx.get(Project, project_id, field="project_id")
    if p.status != "active":
        raise RuleViolation(f"project {p.id} is deactivated", field="project_id", hint="activate it first")
    today = ctx.today()
    found = ctx.where(Issue, project_id=p.id)
    for i in found:
        ig = ctx.find(Ignore, i.ignore_id) if i.ignore_id else None
        if ig is not None and ig.expires is not None and ig.expires < today:
            ctx.update(i, status="open", ignore_id=None)
    found = ctx.where(Issue, project_id=p.id)
    live = [i for i in found if i.status == "open"]
    counts: dict[Severity, int] = {"low": 0, "medium": 0, "high": 0, "critical": 0}
    for i in live:
        counts[i.severity] += 1
    now = ctx.now()
    ctx.update(p, last_tested_at=now)
    return TestSummary(
        project_id=p.id,
        tested_at=now,
        open_by_severity=counts,
        fixable=sum(i.issue_type == "vuln" and i.fixed_in is not None for i in live),
        ignored=sum(i.status == "ignored" for i in found),
    )


# -- ignores and license policy ---------------------------------------------------------------


def _example_ignore(ctx: Ctx) -> dict[str, Any] | None:
    i = ctx.first(Issue, status="open", severity="medium")
    if i is None:
        return None
    until = (ctx.today() + dt.timedelta(days=30)).isoformat()
    owner = ctx.get(Project, i.project_id).owner_email
    reason = "Only reachable from internal admin tools; upgrade planned."
    return {
        "issue_id": i.id,
        "reason_type": "temporary-ignore",
        "reason": reason,
        "expires": until,
        "ignored_by": owner,
    }


@service.tool(intent="ignore the issue", write=True, example=_example_ignore)
def ignore_issue(
    ctx: Ctx, issue_id: IssueId, reason_type: IgnoreType, reason: Text, ignored_by: Email, expires: Date | None = None
) -> Ignore:
    """Ignore an open issue with a reason; temporary ignores need an expiry at most 180 days ahead.

    Args:
        issue_id: The issue.
        reason_type: not-vulnerable, wont-fix or temporary-ignore.
        reason: Why (required).
        ignored_by: The engineer ignoring it.
        expires: The last day the ignore applies.
    """
    issue = ctx.get(Issue, issue_id, field="issue_id")
    if issue.status != "open":
        raise Conflict(f"issue {issue.id} is {issue.status}", field="issue_id", hint="only open issues are ignored")
    if not reason.strip():
        raise RuleViolation("an ignore needs a reason", field="reason", hint="say why the issue does not apply")
    _staff(ctx, ignored_by, "ignored_by")
    today = ctx.today()
    if reason_type == "temporary-ignore" and expires is None:
        raise RuleViolation("a temporary ignore needs an expiry", field="expires", hint="give the last day")
    if expires is not None and not today < expires <= today + MAX_TEMPORARY:
        raise RuleViolation(
            f"expires must be after {today} and by {today + MAX_TEMPORARY}", field="expires", hint="pick a nearer date"
        )
    if reason_type == "wont-fix" and issue.severity == "critical" and issue.exploit_maturity == "mature":
        raise RuleViolation(
            "a critical vulnerability with a mature exploit cannot be ignored as wont-fix",
            field="reason_type",
            hint="fix it, or use a temporary-ignore with a short expiry",
        )
    ig = ctx.create(
        Ignore,
        issue_id=issue.id,
        reason_type=reason_type,
        reason=reason.strip(),
        expires=expires,
        ignored_by=ignored_by,
    )
    ctx.update(issue, status="ignored", ignore_id=ig.id)
    return ig


def _example_rule(ctx: Ctx) -> dict[str, Any] | None:
    for org in ctx.scan(Organization):
        if ctx.first(LicenseRule, org_id=org.id, license="SSPL-1.0") is None:
            return {"org_id": org.id, "license": "SSPL-1.0", "severity": "high", "instructions": "Ask legal."}
    return None


@service.tool(intent="add the license policy rule", write=True, example=_example_rule)
def add_license_rule(
    ctx: Ctx, org_id: OrgId, license: Spdx, severity: LicenseSeverity, instructions: Text = ""
) -> LicenseRule:
    """Add a license to an organization's policy; one rule per license.

    Args:
        org_id: The organization.
        license: The SPDX license id.
        severity: none (allowed), low, medium or high.
        instructions: What developers should do.
    """
    org = ctx.get(Organization, org_id, field="org_id")
    if ctx.first(LicenseRule, org_id=org.id, license=license) is not None:
        raise Conflict(f"{license} already has a rule", field="license", hint="update that rule's severity")
    return ctx.create(LicenseRule, org_id=org.id, license=license, severity=severity, instructions=instructions)


# -- fix pull requests ------------------------------------------------------------------------


def _example_fix(ctx: Ctx) -> dict[str, Any] | None:
    taken = {i for pr in ctx.where(FixPr, status="open") for i in pr.issue_ids}
    for i in ctx.where(Issue, status="open", issue_type="vuln"):
        if i.fixed_in is not None and i.id not in taken:
            owner = ctx.get(Project, i.project_id).owner_email
            return {"project_id": i.project_id, "issue_ids": [i.id], "opened_by": owner}
    return None


@service.tool(intent="open a fix pull request", write=True, example=_example_fix)
def open_fix_pr(ctx: Ctx, project_id: ProjectId, issue_ids: list[IssueId], opened_by: Email) -> FixPr:
    """Open a pull request upgrading the packages of open, fixable vulnerabilities of an active project.

    Args:
        project_id: The project.
        issue_ids: The vulnerabilities to fix.
        opened_by: The engineer opening it.
    """
    p = ctx.get(Project, project_id, field="project_id")
    if p.status != "active":
        raise RuleViolation(f"project {p.id} is deactivated", field="project_id", hint="activate it first")
    _staff(ctx, opened_by, "opened_by")
    if not issue_ids or len(set(issue_ids)) != len(issue_ids):
        raise RuleViolation("list each issue once, at least one", field="issue_ids", hint="pick open issues")
    taken = {i: pr.id for pr in ctx.where(FixPr, project_id=p.id, status="open") for i in pr.issue_ids}
    upgrades: dict[str, Upgrade] = {}
    for iid in issue_ids:
        i = ctx.get(Issue, iid, field="issue_ids")
        if i.project_id != p.id or i.status != "open" or i.issue_type != "vuln":
            raise RuleViolation(
                f"{i.id} is not an open vulnerability of this project", field="issue_ids", hint="list open vulns"
            )
        if i.fixed_in is None:
            raise RuleViolation(f"no fixed version of {i.package} exists", field="issue_ids", hint="ignore it instead")
        if i.id in taken:
            raise Conflict(f"{i.id} is already in fix PR {taken[i.id]}", field="issue_ids", hint="merge that PR")
        best = upgrades.get(i.package)
        to = i.fixed_in if best is None else max(best.to_version, i.fixed_in, key=_version_key)
        upgrades[i.package] = Upgrade(package=i.package, from_version=i.version, to_version=to)
    names = ", ".join(sorted(upgrades))
    return ctx.create(
        FixPr,
        project_id=p.id,
        issue_ids=tuple(issue_ids),
        upgrades=tuple(upgrades.values()),
        branch=f"snyk-fix-{ctx.rng.getrandbits(32):08x}",
        title=f"[Snyk] Security upgrade {names}"[:200],
        opened_by=opened_by,
    )


def _version_key(v: str) -> tuple[int, ...]:
    return tuple(int(x) if x.isdigit() else 0 for x in v.replace("-", ".").split("."))


@service.tool(
    intent="merge the fix pull request", write=True, example=first_example(FixPr, "fix_pr_id", where={"status": "open"})
)
def merge_fix_pr(ctx: Ctx, fix_pr_id: FixPrId) -> FixPr:
    """Merge an open fix PR: its issues are resolved and the project is retested.

    Args:
        fix_pr_id: The fix PR.
    """
    pr = ctx.get(FixPr, fix_pr_id, field="fix_pr_id")
    if pr.status != "open":
        raise Conflict(f"fix PR {pr.id} is {pr.status}", field="fix_pr_id", hint="only open PRs are merged")
    for iid in pr.issue_ids:
        i = ctx.get(Issue, iid)
        if i.status != "resolved":
            ctx.update(i, status="resolved", ignore_id=None)
    ctx.update(ctx.get(Project, pr.project_id), last_tested_at=ctx.now())
    return ctx.update(pr, status="merged")


# -- seed -------------------------------------------------------------------------------------

VULNS: tuple[tuple[Ecosystem, str, str, str, Severity, str, float, Maturity, str | None], ...] = (
    ("npm", "lodash", "4.17.15", "Prototype Pollution", "high", "CVE-2020-8203", 7.4, "proof-of-concept", "4.17.19"),
    (
        "npm",
        "axios",
        "0.21.0",
        "Server-Side Request Forgery",
        "medium",
        "CVE-2020-28168",
        5.9,
        "no-known-exploit",
        "0.21.1",
    ),
    ("npm", "minimist", "1.2.5", "Prototype Pollution", "critical", "CVE-2021-44906", 9.8, "proof-of-concept", "1.2.6"),
    ("npm", "node-serialize", "0.0.4", "Arbitrary Code Execution", "critical", "CVE-2017-5941", 9.8, "mature", None),
    (
        "maven",
        "org.apache.logging.log4j:log4j-core",
        "2.14.1",
        "Remote Code Execution (Log4Shell)",
        "critical",
        "CVE-2021-44228",
        10.0,
        "mature",
        "2.17.1",
    ),
    (
        "maven",
        "com.fasterxml.jackson.core:jackson-databind",
        "2.9.10",
        "Deserialization of Untrusted Data",
        "high",
        "CVE-2020-36518",
        7.5,
        "no-known-exploit",
        "2.12.6.1",
    ),
    ("pip", "django", "3.2.4", "SQL Injection", "high", "CVE-2022-28346", 9.8, "proof-of-concept", "3.2.13"),
    (
        "pip",
        "requests",
        "2.25.0",
        "Information Exposure",
        "medium",
        "CVE-2023-32681",
        6.1,
        "no-known-exploit",
        "2.31.0",
    ),
    ("pip", "pyyaml", "5.3", "Arbitrary Code Execution", "critical", "CVE-2020-14343", 9.8, "mature", "5.4"),
    (
        "gomodules",
        "golang.org/x/net",
        "0.0.0-2021",
        "Denial of Service",
        "medium",
        "CVE-2022-41717",
        5.3,
        "no-known-exploit",
        "0.4.0",
    ),
    (
        "gomodules",
        "github.com/gin-gonic/gin",
        "1.6.3",
        "Improper Input Validation",
        "low",
        "CVE-2020-28483",
        3.7,
        "no-known-exploit",
        "1.7.0",
    ),
)
LICENSES: tuple[tuple[Ecosystem, str, str, str], ...] = (
    ("npm", "node-forge-gpl", "0.9.0", "GPL-3.0"),
    ("pip", "pyqt5", "5.15.4", "GPL-3.0"),
    ("maven", "com.mongodb:mongodb-driver-sync", "4.1.1", "AGPL-3.0"),
)
REPOS: tuple[tuple[int, str, Ecosystem, str], ...] = (
    (0, "web-shop", "npm", "daily"),
    (0, "admin-console", "npm", "weekly"),
    (1, "orders-service", "maven", "daily"),
    (1, "data-pipeline", "pip", "daily"),
    (1, "edge-proxy", "gomodules", "weekly"),
    (0, "marketing-site", "npm", "never"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two organizations with license policies, projects per repository, issues in every state, ignores and fix PRs."""
    pop = s.population
    eng = pop.staff("Engineering", fallback=6)
    owner = "".join(ch for ch in pop.home.name.lower() if ch.isalnum()) or "home"
    orgs = []
    for k, name in enumerate(("Web Platform", "Backend Services")):
        org = s.create(
            Organization,
            name=name,
            slug=name.lower().replace(" ", "-"),
            admin_email=eng[k % len(eng)].email,
            created_at=s.ago(days=700),
        )
        orgs.append(org)
        for lic, sev, note in (
            ("GPL-3.0", "high", "Copyleft: ask legal before shipping."),
            ("AGPL-3.0", "high", "Not allowed in services."),
            ("LGPL-2.1", "low", ""),
            ("MIT", "none", ""),
        ):
            s.create(
                LicenseRule, org_id=org.id, license=lic, severity=sev, instructions=note, created_at=org.created_at
            )
    for n, (o, repo, eco, freq) in enumerate(REPOS):
        p = s.create(
            Project,
            org_id=orgs[o].id,
            repo=f"{owner}/{repo}",
            target_file=MANIFESTS[eco],
            ecosystem=eco,
            test_frequency=freq,
            status="deactivated" if freq == "never" else "active",
            owner_email=eng[(n + 1) % len(eng)].email,
            last_tested_at=s.ago(days=1 + 3 * n),
            created_at=s.ago(days=500 - 40 * n),
            updated_at=s.ago(days=1 + 3 * n),
        )
        mine = [v for v in VULNS if v[0] == eco]
        for j, (_, pkg, ver, title, sev, cve, cvss, mat, fix) in enumerate(mine):
            if n == 1 and j % 2:
                continue
            s.create(
                Issue,
                project_id=p.id,
                issue_type="vuln",
                package=pkg,
                version=ver,
                title=title,
                severity=sev,
                cves=(cve,),
                cvss_score=cvss,
                exploit_maturity=mat,
                fixed_in=fix,
                status="resolved" if (n, j) == (0, 1) else "open",
                created_at=s.ago(days=90 - j),
                updated_at=s.ago(days=5),
            )
        for eco2, pkg, ver, lic in LICENSES:
            if eco2 == eco and n != 1:
                s.create(
                    Issue,
                    project_id=p.id,
                    issue_type="license",
                    package=pkg,
                    version=ver,
                    title=f"{lic} license",
                    severity="high",
                    license=lic,
                    created_at=s.ago(days=60),
                    updated_at=s.ago(days=60),
                )
    _seed_workflow(s)


def _seed_workflow(s: SeedContext) -> None:
    """An active ignore, an expired temporary ignore, an open and a merged fix PR."""
    found = s.records(Issue)
    by = s.records(Project)[0].owner_email
    medium = next(i for i in found if i.severity == "medium" and i.status == "open")
    ig = s.create(
        Ignore,
        issue_id=medium.id,
        reason_type="not-vulnerable",
        reason="The vulnerable code path is never called.",
        ignored_by=by,
        created_at=s.ago(days=20),
    )
    s.update(medium, status="ignored", ignore_id=ig.id)
    low = next(i for i in found if i.severity == "low")
    old = s.create(
        Ignore,
        issue_id=low.id,
        reason_type="temporary-ignore",
        reason="Waiting for the framework upgrade.",
        expires=(s.now - dt.timedelta(days=2)).date(),
        ignored_by=by,
        created_at=s.ago(days=60),
    )
    s.update(low, status="ignored", ignore_id=old.id)
    fixable = [i for i in found if i.status == "open" and i.issue_type == "vuln" and i.fixed_in and i.id != medium.id]
    for k, i in enumerate(fixable[:2]):
        s.create(
            FixPr,
            project_id=i.project_id,
            issue_ids=(i.id,),
            upgrades=(Upgrade(package=i.package, from_version=i.version, to_version=i.fixed_in or i.version),),
            branch=f"snyk-fix-{s.rng.getrandbits(32):08x}",
            title=f"[Snyk] Security upgrade {i.package}",
            status="merged" if k else "open",
            opened_by=by,
            created_at=s.ago(days=4 + k),
            updated_at=s.ago(days=1),
        )
        if k:
            s.update(s.records(Issue)[found.index(i)], status="resolved")
