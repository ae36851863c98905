"""Pkgscope Packages: open-source package metadata, versions, dependencies, licences, advisories, downloads.

Modeled on the deps.dev API v3 (GetPackage, GetVersion with ``licenses``,
``advisoryKeys``, ``isDefault``, GetDependencies, GetAdvisory with ``cvss3Score``
and ``aliases``), the PyPI JSON API (``yanked``), the npm registry
(``dist-tags.latest``, caret ranges) and downloads API, and OSV's ``/v1/query``
and ``/v1/querybatch`` (``GHSA-`` ids, ``introduced``/``fixed``, severities).

An open-world service drawn from the world seed: well-known PyPI and npm
packages plus the home company's own SDK and two customers' client libraries,
whose maintainers are the world's people. Every version of a package has a
publication date up to today, an SPDX licence and dependency ranges on other
packages of the registry; a version's resolved dependencies are the newest
non-yanked versions inside each range. Stored state is the watches: an
engineer watches a package at the version the company pins (one watch per
package and engineer, at most ten each); checking a watch reports the versions
published since the last check and the advisories that affect the pinned
version at or above the watch's minimum severity, each advisory once; a pin
moves only forward, to a published, non-yanked version.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, SemanticType, Url
from compoworld.services.kit.drawn import per_population
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "packages",
    title="Pkgscope Packages",
    category="package_data",
    modeled_on="deps.dev API v3 (packages, versions, dependencies, advisories) with the PyPI JSON API, the npm "
    "registry and downloads API, and OSV query/querybatch",
    description="Open-source package data for PyPI and npm: search packages, read their versions, licences, "
    "maintainers and resolved dependencies, find who depends on them, query known vulnerabilities of a "
    "version or a whole lock file, read download counts, and keep package watches that report new releases "
    "and advisories affecting the pinned version.",
)

Ecosystem = Literal["pypi", "npm"]
PackageName = Annotated[
    str, SemanticType("package.name", kind="ref"), StringConstraints(pattern=r"^[a-z0-9@][a-z0-9._/-]{0,79}$")
]
Version = Annotated[str, SemanticType("package.version"), StringConstraints(pattern=r"^\d{1,4}\.\d{1,4}\.\d{1,4}$")]
AdvisoryId = Annotated[
    str, SemanticType("package.advisory", kind="ref"), StringConstraints(pattern=r"^GHSA(-[a-z0-9]{4}){3}$")
]
Relation = Literal["DIRECT", "INDIRECT"]
Severity = Literal["LOW", "MODERATE", "HIGH", "CRITICAL"]
WatchId = Annotated[str, IdOf("packages.watch")]
Query = Annotated[str, StringConstraints(min_length=2, max_length=100)]
MAX_WATCHES = 10
MAX_DOWNLOAD_DAYS = 366
_RANK = {"LOW": 0, "MODERATE": 1, "HIGH": 2, "CRITICAL": 3}

# ecosystem, name, licence, summary, dependencies (names in the same ecosystem), weekly downloads
_CATALOG: tuple[tuple[str, str, str, str, tuple[str, ...], int], ...] = (
    ("pypi", "urllib3", "MIT", "HTTP library with thread-safe connection pooling", (), 90_000_000),
    ("pypi", "idna", "BSD-3-Clause", "Internationalized Domain Names in Applications", (), 80_000_000),
    ("pypi", "certifi", "MPL-2.0", "Mozilla's CA bundle for Python", (), 85_000_000),
    ("pypi", "requests", "Apache-2.0", "HTTP for Humans", ("urllib3", "idna", "certifi"), 75_000_000),
    ("pypi", "six", "MIT", "Python 2 and 3 compatibility utilities", (), 40_000_000),
    ("pypi", "python-dateutil", "Apache-2.0", "Extensions to the standard datetime module", ("six",), 60_000_000),
    ("pypi", "numpy", "BSD-3-Clause", "Fundamental package for array computing", (), 50_000_000),
    ("pypi", "pandas", "BSD-3-Clause", "Data analysis toolkit", ("numpy", "python-dateutil"), 35_000_000),
    ("pypi", "jinja2", "BSD-3-Clause", "A very fast and expressive template engine", (), 45_000_000),
    ("pypi", "flask", "BSD-3-Clause", "A simple framework for building web applications", ("jinja2",), 15_000_000),
    ("pypi", "django", "BSD-3-Clause", "A high-level Python web framework", (), 4_000_000),
    ("pypi", "pyyaml", "MIT", "YAML parser and emitter for Python", (), 55_000_000),
    ("pypi", "cryptography", "Apache-2.0", "Cryptographic recipes and primitives", (), 50_000_000),
    ("pypi", "paramiko", "LGPL-2.1-only", "SSH2 protocol library", ("cryptography",), 9_000_000),
    ("npm", "lodash", "MIT", "Lodash modular utilities", (), 50_000_000),
    ("npm", "ms", "MIT", "Tiny millisecond conversion utility", (), 200_000_000),
    ("npm", "debug", "MIT", "Small debugging utility", ("ms",), 250_000_000),
    ("npm", "qs", "BSD-3-Clause", "Querystring parser with nesting support", (), 60_000_000),
    ("npm", "semver", "ISC", "The semantic version parser used by npm", (), 280_000_000),
    ("npm", "express", "MIT", "Fast, unopinionated, minimalist web framework", ("debug", "qs"), 30_000_000),
    ("npm", "follow-redirects", "MIT", "HTTP and HTTPS modules that follow redirects", (), 40_000_000),
    ("npm", "axios", "MIT", "Promise based HTTP client", ("follow-redirects",), 45_000_000),
    ("npm", "react", "MIT", "A JavaScript library for building user interfaces", (), 25_000_000),
    ("npm", "jsonwebtoken", "MIT", "JSON Web Token implementation", ("ms", "semver"), 18_000_000),
    ("npm", "chalk", "MIT", "Terminal string styling done right", (), 300_000_000),
    ("npm", "node-gpl-widgets", "GPL-3.0-only", "Form widgets for server-rendered pages", ("lodash",), 40_000),
)
_SEVERITY_TEXT = {"LOW": "Information exposure", "MODERATE": "ReDoS", "HIGH": "Bad TLS checks", "CRITICAL": "RCE"}


@dataclass(frozen=True, slots=True)
class _Ver:
    version: str
    published: dt.date
    yanked: bool
    deps: tuple[tuple[str, str], ...]  # (dependency name, requirement)


@dataclass(frozen=True, slots=True)
class _Pkg:
    ecosystem: str
    name: str
    licence: str
    summary: str
    weekly: int
    maintainers: tuple[str, ...]
    versions: tuple[_Ver, ...]  # oldest first


@dataclass(frozen=True, slots=True)
class _Adv:
    id: str
    cve: str
    ecosystem: str
    package: str
    severity: str
    score: float
    summary: str
    introduced: str
    fixed: str | None
    published: dt.date


@dataclass(frozen=True, slots=True)
class _Db:
    packages: dict[tuple[str, str], _Pkg]
    advisories: dict[str, _Adv]


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", fold(name)).strip("-")[:30] or "acme"


@per_population
def _build(pop: Population, today: dt.date) -> _Db:
    r = random.Random(f"packages:{pop.seed}")
    outsiders = [p.email for p in pop.contacts[:12]] or [p.email for p in pop.people[:3]]
    engineers = [p.email for p in pop.staff("Engineering", "IT", fallback=3)]
    catalog = list(_CATALOG)
    own: dict[str, tuple[str, ...]] = {}
    for k, company in enumerate([pop.home, *pop.customers[:2]]):
        eco = ("pypi", "npm")[k % 2] if k else "pypi"
        name = f"{_slug(company.name)}-sdk" if k == 0 else f"{_slug(company.name)}-client"
        deps: tuple[str, ...] = ("requests", "pyyaml") if eco == "pypi" else ("axios",)
        catalog.append((eco, name, "Apache-2.0", f"Official API client for {company.name}", deps, 2_000 + 700 * k))
        staff = [p.email for p in pop.people_at(company)][:2] if k else engineers[:2]
        own[name] = tuple(staff) or tuple(outsiders[:1])
    packages: dict[tuple[str, str], _Pkg] = {}
    for eco, name, licence, summary, deps, weekly in catalog:
        count = r.randint(6, 14)
        major, minor, patch = r.randint(0, 4), r.randint(0, 9), r.randint(0, 5)
        day = today - dt.timedelta(days=r.randint(900, 2400))
        versions: list[_Ver] = []
        for n in range(count):
            if n:
                step = r.random()
                if step < 0.12:
                    major, minor, patch = major + 1, 0, 0
                elif step < 0.5:
                    minor, patch = minor + 1, 0
                else:
                    patch += 1
            last = n == count - 1
            reqs = []
            for dep in deps:
                earlier = [v for v in packages[(eco, dep)].versions if v.published <= day and not v.yanked]
                if earlier:
                    floor = earlier[max(0, len(earlier) - 3)].version
                    m = _key(floor)[0]
                    reqs.append((dep, f"^{floor}" if eco == "npm" else f">={floor},<{m + 1}"))
            versions.append(_Ver(f"{major}.{minor}.{patch}", day, not last and r.random() < 0.1, tuple(reqs)))
            gap = max(1, (today - day).days // max(1, count - n))
            day = min(today, day + dt.timedelta(days=r.randint(max(1, gap // 2), gap + gap // 2)))
        people = own.get(name) or tuple(r.sample(outsiders, min(2, len(outsiders))))
        packages[(eco, name)] = _Pkg(eco, name, licence, summary, weekly, people, tuple(versions))
    advisories: dict[str, _Adv] = {}
    chars = "23456789cfghjmpqrvwx"
    for n, pkg in enumerate(p for p in packages.values() if len(p.versions) >= 4):
        if n % 3 == 2:
            continue
        vs = pkg.versions
        start = r.randrange(0, len(vs) - 2)
        end = r.randrange(start + 1, len(vs) + 1)
        fixed = vs[end].version if end < len(vs) else None
        severity = r.choice(tuple(_RANK))
        gid = "GHSA-" + "-".join("".join(r.choice(chars) for _ in range(4)) for _ in range(3))
        published = vs[end].published if fixed else min(today, vs[-1].published + dt.timedelta(days=r.randint(1, 40)))
        advisories[gid] = _Adv(
            gid,
            f"CVE-{published.year}-{r.randint(10000, 49999)}",
            pkg.ecosystem,
            pkg.name,
            severity,
            round({"LOW": 2.5, "MODERATE": 5.0, "HIGH": 7.2, "CRITICAL": 9.1}[severity] + r.random() * 0.8, 1),
            f"{_SEVERITY_TEXT[severity]} in {pkg.name}",
            vs[start].version,
            fixed,
            published,
        )
    return _Db(packages, advisories)


def _db(ctx: Ctx) -> _Db:
    return _build(ctx.population, ctx.today())


def _affects(a: _Adv, version: str) -> bool:
    v = _key(version)
    return _key(a.introduced) <= v and (a.fixed is None or v < _key(a.fixed))


def _satisfies(eco: str, req: str, version: str) -> bool:
    v = _key(version)
    if eco == "npm":
        floor = _key(req[1:])
        return v >= floor and v[0] == floor[0]
    low, high = req.split(",")
    return v >= _key(low[2:]) and v[0] < int(high[1:])


def _latest(p: _Pkg) -> _Ver:
    return next(v for v in reversed(p.versions) if not v.yanked)


# -- result models ----------------------------------------------------------------------------------------


class PackageSummary(BaseModel):
    """A package (GetPackage)."""

    ecosystem: Ecosystem = Field(description="pypi or npm.")
    name: PackageName = Field(description="Package name.")
    summary: str = Field(description="One-line description.")
    licence: str = Field(description="SPDX licence of the latest version.")
    latest_version: Version = Field(description="The default version (npm dist-tags.latest, newest non-yanked).")
    version_count: int = Field(description="Published versions.")
    maintainers: list[Email] = Field(description="Maintainers' e-mails.")
    homepage: Url = Field(description="The package's deps.dev page.")
    weekly_downloads: int = Field(description="Downloads in the last seven days.")
    open_advisories: int = Field(description="Advisories affecting the latest version.")


class VersionInfo(BaseModel):
    """A version (GetVersion)."""

    ecosystem: Ecosystem = Field(description="pypi or npm.")
    name: PackageName = Field(description="Package name.")
    version: Version = Field(description="The version.")
    published_at: Date = Field(description="Publication date.")
    is_default: bool = Field(description="Whether it is the latest (default) version.")
    yanked: bool = Field(description="Yanked (PyPI) or deprecated (npm): not installed by default.")
    licence: str = Field(description="SPDX licence.")
    dependency_requirements: list[str] = Field(description="Declared requirements, 'name range'.")
    advisory_keys: list[AdvisoryId] = Field(description="Advisories affecting this version.")


class Dependency(BaseModel):
    """A resolved dependency (GetDependencies node)."""

    name: PackageName = Field(description="Dependency package.")
    requirement: str = Field(description="The declared range.")
    resolved_version: Version = Field(description="Newest non-yanked version inside the range.")
    relation: Relation = Field(description="DIRECT or INDIRECT (through another dependency).")
    licence: str = Field(description="Its SPDX licence.")
    advisory_keys: list[AdvisoryId] = Field(description="Advisories affecting the resolved version.")


class DependencyGraph(BaseModel):
    """The resolved dependencies of a version."""

    ecosystem: Ecosystem = Field(description="pypi or npm.")
    name: PackageName = Field(description="Package.")
    version: Version = Field(description="Version resolved.")
    dependencies: list[Dependency] = Field(description="Direct then indirect dependencies, by name.")


class Dependent(BaseModel):
    """A package whose latest version depends on the asked package."""

    name: PackageName = Field(description="Dependent package.")
    version: Version = Field(description="Its latest version.")
    requirement: str = Field(description="Its range on the asked package.")


class Advisory(BaseModel):
    """A security advisory (GetAdvisory / OSV vuln)."""

    id: AdvisoryId = Field(description="GitHub advisory id.")
    aliases: list[str] = Field(description="CVE ids.")
    ecosystem: Ecosystem = Field(description="pypi or npm.")
    package: PackageName = Field(description="Affected package.")
    summary: str = Field(description="Title.")
    severity: Severity = Field(description="LOW, MODERATE, HIGH or CRITICAL.")
    cvss3_score: float = Field(description="CVSS v3 base score.")
    introduced: Version = Field(description="First affected version.")
    fixed: Version | None = Field(description="First fixed version; null: no fix yet.")
    published: Date = Field(description="Publication date.")


class PackageVersionRef(BaseModel):
    """A package at a version, as in a lock file."""

    name: PackageName = Field(description="Package name.")
    version: Version = Field(description="Installed version.")


class AuditResult(BaseModel):
    """Vulnerabilities of one locked package (OSV querybatch result)."""

    name: PackageName = Field(description="Package.")
    version: Version = Field(description="Version.")
    advisories: list[Advisory] = Field(description="Advisories affecting it.")
    fix_version: Version | None = Field(description="Lowest version fixing them all; null if none.")


class Downloads(BaseModel):
    """Download counts over a period (npm downloads range / pypistats overall)."""

    name: PackageName = Field(description="Package.")
    start: Date = Field(description="First day.")
    end: Date = Field(description="Last day.")
    total: int = Field(description="Sum over the period.")
    daily: list[int] = Field(description="One count per day from start to end.")


# -- helpers ----------------------------------------------------------------------------------------------


def _get(ctx: Ctx, ecosystem: str, name: str, field: str = "name") -> _Pkg:
    p = _db(ctx).packages.get((ecosystem, name))
    if p is None:
        raise NotFound(f"no {ecosystem} package {name!r}", field=field, hint="find it with packages__search_packages")
    return p


def _ver(p: _Pkg, version: str | None, field: str = "version") -> _Ver:
    if version is None:
        return _latest(p)
    v = next((x for x in p.versions if x.version == version), None)
    if v is None:
        raise NotFound(
            f"{p.name} has no version {version}",
            field=field,
            hint=f"list them with packages__list_versions (latest: {_latest(p).version})",
        )
    return v


def _advs(db: _Db, p: _Pkg, version: str) -> list[_Adv]:
    found = [a for a in db.advisories.values() if (a.ecosystem, a.package) == (p.ecosystem, p.name)]
    return sorted((a for a in found if _affects(a, version)), key=lambda a: (-_RANK[a.severity], a.id))


def _advisory(a: _Adv) -> Advisory:
    return Advisory(
        id=a.id,
        aliases=[a.cve],
        ecosystem=a.ecosystem,
        package=a.package,
        summary=a.summary,
        severity=a.severity,
        cvss3_score=a.score,
        introduced=a.introduced,
        fixed=a.fixed,
        published=a.published,
    )


def _weekly(seed: int, p: _Pkg, day: dt.date) -> int:
    r = random.Random(f"packages-dl:{seed}:{p.ecosystem}:{p.name}:{day.isoformat()}")
    weekend = 0.55 if day.weekday() >= 5 else 1.0
    return int(p.weekly / 7 * weekend * (0.8 + 0.4 * r.random()))


def _summary(ctx: Ctx, p: _Pkg) -> PackageSummary:
    db, latest = _db(ctx), _latest(p)
    week = [ctx.today() - dt.timedelta(days=k) for k in range(7)]
    return PackageSummary(
        ecosystem=p.ecosystem,
        name=p.name,
        summary=p.summary,
        licence=p.licence,
        latest_version=latest.version,
        version_count=len(p.versions),
        maintainers=list(p.maintainers),
        homepage=f"https://deps.dev/{p.ecosystem}/{p.name}",
        weekly_downloads=sum(_weekly(ctx.population.seed, p, d) for d in week),
        open_advisories=len(_advs(db, p, latest.version)),
    )


def _version(db: _Db, p: _Pkg, v: _Ver) -> VersionInfo:
    return VersionInfo(
        ecosystem=p.ecosystem,
        name=p.name,
        version=v.version,
        published_at=v.published,
        is_default=v is _latest(p),
        yanked=v.yanked,
        licence=p.licence,
        dependency_requirements=[f"{n} {req}" for n, req in v.deps],
        advisory_keys=[a.id for a in _advs(db, p, v.version)],
    )


def _resolve(db: _Db, eco: str, name: str, req: str) -> _Ver:
    dep = db.packages[(eco, name)]
    ok = [v for v in dep.versions if not v.yanked and _satisfies(eco, req, v.version)]
    return ok[-1] if ok else _latest(dep)


_example_pkg = fixed_example(ecosystem="pypi", name="requests")


def _example_pinned(ctx: Ctx) -> dict[str, Any]:
    p = _get(ctx, "pypi", "requests")
    return {"ecosystem": "pypi", "name": "requests", "version": p.versions[len(p.versions) // 2].version}


# -- open-world tools -------------------------------------------------------------------------------------


@service.tool(intent="search packages", open_world=True, example=fixed_example(q="http"))
def search_packages(
    ctx: Ctx,
    q: Query | None = None,
    ecosystem: Ecosystem | None = None,
    licence: str | None = None,
    maintainer_email: Email | None = None,
    limit: Annotated[int, Field(ge=1, le=50)] = 20,
) -> list[PackageSummary]:
    """Search packages by words of the name or summary, ecosystem, licence or maintainer, most downloaded first.

    Args:
        q: Words that must all appear in the name or summary.
        ecosystem: pypi or npm.
        licence: SPDX licence id (MIT, Apache-2.0).
        maintainer_email: Only packages this person maintains.
        limit: Most results.
    """
    words = fold(q or "").split()
    found = [
        p
        for p in _db(ctx).packages.values()
        if all(w in fold(f"{p.name} {p.summary}") for w in words)
        and ecosystem in (None, p.ecosystem)
        and licence in (None, p.licence)
        and (maintainer_email is None or maintainer_email in p.maintainers)
    ]
    found.sort(key=lambda p: (-p.weekly, p.name))
    return [_summary(ctx, p) for p in found[:limit]]


@service.tool(intent="get the package", open_world=True, example=_example_pkg)
def get_package(ctx: Ctx, ecosystem: Ecosystem, name: PackageName) -> PackageSummary:
    """Get a package: summary, licence, latest version, version count, maintainers, downloads, open advisories.

    Args:
        ecosystem: pypi or npm.
        name: Package name.
    """
    return _summary(ctx, _get(ctx, ecosystem, name))


@service.tool(intent="list the package's versions", open_world=True, example=_example_pkg)
def list_versions(ctx: Ctx, ecosystem: Ecosystem, name: PackageName, include_yanked: bool = True) -> list[VersionInfo]:
    """List a package's versions, newest first, with dates, yanked flags and advisories.

    Args:
        ecosystem: pypi or npm.
        name: Package name.
        include_yanked: Whether to list yanked (deprecated) versions too.
    """
    p, db = _get(ctx, ecosystem, name), _db(ctx)
    return [_version(db, p, v) for v in reversed(p.versions) if include_yanked or not v.yanked]


@service.tool(intent="get the package version", open_world=True, example=_example_pinned)
def get_version(ctx: Ctx, ecosystem: Ecosystem, name: PackageName, version: Version | None = None) -> VersionInfo:
    """Get one version (default: the latest): date, licence, requirements and advisories.

    Args:
        ecosystem: pypi or npm.
        name: Package name.
        version: The version (default: the latest non-yanked one).
    """
    p = _get(ctx, ecosystem, name)
    return _version(_db(ctx), p, _ver(p, version))


@service.tool(intent="get the resolved dependencies", open_world=True, example=_example_pinned)
def get_dependencies(
    ctx: Ctx, ecosystem: Ecosystem, name: PackageName, version: Version | None = None
) -> DependencyGraph:
    """Resolve a version's dependency graph: each range to its newest non-yanked version, direct and indirect.

    Args:
        ecosystem: pypi or npm.
        name: Package name.
        version: The version (default: the latest).
    """
    db = _db(ctx)
    p = _get(ctx, ecosystem, name)
    v = _ver(p, version)
    out: dict[str, Dependency] = {}
    queue: list[tuple[str, str, Relation]] = [(n, req, "DIRECT") for n, req in v.deps]
    while queue:
        dep, req, relation = queue.pop(0)
        if dep in out:
            continue
        got = _resolve(db, ecosystem, dep, req)
        pkg = db.packages[(ecosystem, dep)]
        advs = [a.id for a in _advs(db, pkg, got.version)]
        out[dep] = Dependency(
            name=dep,
            requirement=req,
            resolved_version=got.version,
            relation=relation,
            licence=pkg.licence,
            advisory_keys=advs,
        )
        queue.extend((n, r, "INDIRECT") for n, r in got.deps)
    deps = sorted(out.values(), key=lambda d: (d.relation, d.name))
    return DependencyGraph(ecosystem=ecosystem, name=name, version=v.version, dependencies=deps)


@service.tool(intent="list the packages depending on a package", open_world=True, example=_example_pkg)
def list_dependents(ctx: Ctx, ecosystem: Ecosystem, name: PackageName) -> list[Dependent]:
    """List the packages whose latest version declares a dependency on this package.

    Args:
        ecosystem: pypi or npm.
        name: Package name.
    """
    _get(ctx, ecosystem, name)
    out = []
    for p in _db(ctx).packages.values():
        latest = _latest(p)
        for dep, req in latest.deps:
            if p.ecosystem == ecosystem and dep == name:
                out.append(Dependent(name=p.name, version=latest.version, requirement=req))
    return sorted(out, key=lambda d: d.name)


@service.tool(intent="query the vulnerabilities of a package version", open_world=True, example=_example_pinned)
def query_vulnerabilities(ctx: Ctx, ecosystem: Ecosystem, name: PackageName, version: Version) -> list[Advisory]:
    """List the advisories affecting a package version, most severe first (OSV /v1/query).

    Args:
        ecosystem: pypi or npm.
        name: Package name.
        version: The installed version.
    """
    p = _get(ctx, ecosystem, name)
    _ver(p, version)
    return [_advisory(a) for a in _advs(_db(ctx), p, version)]


def _example_audit(ctx: Ctx) -> dict[str, Any]:
    pins = [{"name": p.name, "version": p.versions[0].version} for p in _db(ctx).packages.values()]
    return {"ecosystem": "npm", "packages": [x for x in pins if x["name"] in ("axios", "lodash", "qs")]}


@service.tool(intent="audit a lock file for vulnerabilities", open_world=True, example=_example_audit)
def audit_lockfile(
    ctx: Ctx, ecosystem: Ecosystem, packages: Annotated[list[PackageVersionRef], Field(min_length=1, max_length=100)]
) -> list[AuditResult]:
    """Check many locked package versions at once (OSV /v1/querybatch, as npm audit and pip-audit do).

    Args:
        ecosystem: pypi or npm.
        packages: The locked packages with their versions.
    """
    db = _db(ctx)
    out = []
    for i, ref in enumerate(packages):
        p = _get(ctx, ecosystem, ref.name, f"packages.{i}.name")
        _ver(p, ref.version, f"packages.{i}.version")
        advs = _advs(db, p, ref.version)
        fixes = [v.version for v in p.versions if not v.yanked and _key(v.version) > _key(ref.version)]
        fix = next((f for f in fixes if not _advs(db, p, f)), None) if advs else None
        out.append(
            AuditResult(name=p.name, version=ref.version, advisories=[_advisory(a) for a in advs], fix_version=fix)
        )
    return out


def _example_advisory(ctx: Ctx) -> dict[str, Any]:
    return {"advisory_id": next(iter(_db(ctx).advisories))}


@service.tool(intent="get the advisory", open_world=True, example=_example_advisory)
def get_advisory(ctx: Ctx, advisory_id: AdvisoryId) -> Advisory:
    """Get a security advisory: package, severity, CVSS score, CVE alias, affected and fixed versions.

    Args:
        advisory_id: The GHSA id.
    """
    a = _db(ctx).advisories.get(advisory_id)
    if a is None:
        raise NotFound(f"no advisory {advisory_id}", field="advisory_id", hint="use packages__search_advisories")
    return _advisory(a)


@service.tool(intent="search advisories", open_world=True, example=fixed_example(severity="HIGH"))
def search_advisories(
    ctx: Ctx,
    ecosystem: Ecosystem | None = None,
    severity: Severity | None = None,
    unfixed_only: bool = False,
) -> list[Advisory]:
    """Search advisories by ecosystem, minimum severity and whether a fix exists, newest first.

    Args:
        ecosystem: pypi or npm.
        severity: Minimum severity.
        unfixed_only: Only advisories with no fixed version.
    """
    found = [
        a
        for a in _db(ctx).advisories.values()
        if ecosystem in (None, a.ecosystem)
        and (severity is None or _RANK[a.severity] >= _RANK[severity])
        and (not unfixed_only or a.fixed is None)
    ]
    return [_advisory(a) for a in sorted(found, key=lambda a: (a.published, a.id), reverse=True)]


def _example_downloads(ctx: Ctx) -> dict[str, Any]:
    end = ctx.today()
    return {
        "ecosystem": "npm",
        "name": "express",
        "start": (end - dt.timedelta(days=29)).isoformat(),
        "end": end.isoformat(),
    }


@service.tool(intent="get the download counts", open_world=True, example=_example_downloads)
def get_downloads(ctx: Ctx, ecosystem: Ecosystem, name: PackageName, start: Date, end: Date) -> Downloads:
    """Get daily download counts of a package over a period of at most 366 days, up to today.

    Args:
        ecosystem: pypi or npm.
        name: Package name.
        start: First day.
        end: Last day (up to today).
    """
    p = _get(ctx, ecosystem, name)
    if end > ctx.today():
        raise RuleViolation(f"{end} is in the future", field="end", hint=f"end on or before {ctx.today()}")
    if end < start:
        raise RuleViolation("end is before start", field="end", hint="swap the dates")
    span = (end - start).days + 1
    if span > MAX_DOWNLOAD_DAYS:
        raise RuleViolation(f"{span} days asked; at most {MAX_DOWNLOAD_DAYS}", field="start", hint="ask for less")
    first = p.versions[0].published
    days = [start + dt.timedelta(days=k) for k in range(span)]
    daily = [_weekly(ctx.population.seed, p, d) if d >= first else 0 for d in days]
    return Downloads(name=name, start=start, end=end, total=sum(daily), daily=daily)


# -- watches ----------------------------------------------------------------------------------------------


class Watch(Timestamped):
    """A package watched at the version the company pins."""

    id: WatchId
    ecosystem: Ecosystem
    """pypi or npm."""
    package_name: PackageName
    """The package."""
    pinned_version: Version
    """The version the company uses."""
    owner_email: Email
    """The engineer alerted."""
    min_severity: Severity = "MODERATE"
    """Advisories below this severity are not reported."""
    status: Literal["active", "paused"] = "active"
    """active, or paused (not checked)."""
    last_seen_version: Version
    """Versions after this one are new at the next check."""
    reported_advisories: tuple[AdvisoryId, ...] = ()
    """Advisories already reported."""
    last_checked_at: DateTime | None = None
    """When it was last checked."""


class WatchReport(BaseModel):
    """What a check of a watch found."""

    watch_id: WatchId = Field(description="The watch.")
    new_versions: list[VersionInfo] = Field(description="Versions published since the last check, oldest first.")
    new_advisories: list[Advisory] = Field(description="Advisories newly affecting the pinned version.")
    pinned_version: Version = Field(description="The pin checked.")
    latest_version: Version = Field(description="The latest version now.")


def _check_owner(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="watches belong to staff")


watches = service.resource(
    Watch,
    name="watch",
    plural="watches",
    prefix="pkw",
    create=False,
    filters=("ecosystem", "package_name", "owner_email", "status", "min_severity"),
    search=("package_name",),
    update=("min_severity",),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the package watch"),
        "resume": Transition("status", ("paused",), "active", "resume the package watch"),
    },
    title="package watch",
)


def _example_watch(ctx: Ctx) -> dict[str, Any] | None:
    taken = {(w.package_name, w.owner_email) for w in ctx.scan(Watch)}
    for person in ctx.population.employees:
        if len(ctx.where(Watch, owner_email=person.email)) >= MAX_WATCHES:
            continue
        for p in _db(ctx).packages.values():
            if (p.name, person.email) not in taken:
                pin = p.versions[len(p.versions) // 2].version
                return {"ecosystem": p.ecosystem, "name": p.name, "pinned_version": pin, "owner_email": person.email}
    return None


@service.tool(intent="watch a package", write=True, example=_example_watch)
def watch_package(
    ctx: Ctx,
    ecosystem: Ecosystem,
    name: PackageName,
    pinned_version: Version,
    owner_email: Email,
    min_severity: Severity = "MODERATE",
) -> Watch:
    """Watch a package at the pinned version: later releases and advisories on the pin are reported at checks.

    Args:
        ecosystem: pypi or npm.
        name: Package name.
        pinned_version: The version in use (published, not yanked).
        owner_email: The engineer to alert (at most ten watches each).
        min_severity: Lowest advisory severity reported.
    """
    p = _get(ctx, ecosystem, name)
    v = _ver(p, pinned_version, "pinned_version")
    if v.yanked:
        raise RuleViolation(f"{name} {v.version} is yanked", field="pinned_version", hint="pin a version not yanked")
    _check_owner(ctx, owner_email, "owner_email")
    same = ctx.first(Watch, ecosystem=ecosystem, package_name=name, owner_email=owner_email)
    if same is not None:
        raise Conflict(f"{owner_email} already watches {name} as {same.id}", field="name", hint="update that watch")
    if len(ctx.where(Watch, owner_email=owner_email)) >= MAX_WATCHES:
        raise RuleViolation(
            f"{owner_email} already has {MAX_WATCHES} watches", field="owner_email", hint="delete one first"
        )
    return ctx.create(
        Watch,
        ecosystem=ecosystem,
        package_name=name,
        pinned_version=v.version,
        owner_email=owner_email,
        min_severity=min_severity,
        last_seen_version=_latest(p).version,
        last_checked_at=ctx.now(),
    )


@service.tool(
    intent="check the package watch",
    write=True,
    example=first_example(Watch, "watch_id", where={"status": "active"}),
)
def check_watch(ctx: Ctx, watch_id: WatchId) -> WatchReport:
    """Report the versions published since the last check and new advisories on the pin; mark them reported.

    Args:
        watch_id: The watch (active).
    """
    w = ctx.get(Watch, watch_id, field="watch_id")
    if w.status != "active":
        raise RuleViolation(f"watch {w.id} is paused", field="watch_id", hint="resume it with packages__resume_watch")
    db = _db(ctx)
    p = _get(ctx, w.ecosystem, w.package_name, "watch_id")
    seen = _key(w.last_seen_version)
    new = [_version(db, p, v) for v in p.versions if _key(v.version) > seen]
    advs = [
        a
        for a in _advs(db, p, w.pinned_version)
        if _RANK[a.severity] >= _RANK[w.min_severity] and a.id not in w.reported_advisories
    ]
    ctx.update(
        w,
        last_seen_version=p.versions[-1].version,
        reported_advisories=(*w.reported_advisories, *(a.id for a in advs)),
        last_checked_at=ctx.now(),
    )
    return WatchReport(
        watch_id=w.id,
        new_versions=new,
        new_advisories=[_advisory(a) for a in advs],
        pinned_version=w.pinned_version,
        latest_version=_latest(p).version,
    )


def _example_pin(ctx: Ctx) -> dict[str, Any] | None:
    for w in ctx.scan(Watch):
        p = _get(ctx, w.ecosystem, w.package_name)
        latest = _latest(p).version
        if _key(latest) > _key(w.pinned_version):
            return {"watch_id": w.id, "version": latest}
    return None


@service.tool(intent="move the watch's pin to a newer version", write=True, example=_example_pin)
def bump_pin(ctx: Ctx, watch_id: WatchId, version: Version) -> Watch:
    """Move a watch's pinned version forward (after an upgrade); advisories fixed by it stop being reported.

    Args:
        watch_id: The watch.
        version: The new pinned version: published, not yanked, newer than the current pin.
    """
    w = ctx.get(Watch, watch_id, field="watch_id")
    p = _get(ctx, w.ecosystem, w.package_name, "watch_id")
    v = _ver(p, version)
    if v.yanked:
        raise RuleViolation(f"{p.name} {version} is yanked", field="version", hint="pick a version not yanked")
    if _key(version) <= _key(w.pinned_version):
        raise RuleViolation(
            f"{version} is not newer than the pin {w.pinned_version}",
            field="version",
            hint="a pin only moves forward; delete and re-create the watch to downgrade",
        )
    still = {a.id for a in _advs(_db(ctx), p, version)}
    return ctx.update(
        w, pinned_version=version, reported_advisories=tuple(a for a in w.reported_advisories if a in still)
    )


# -- seed -------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Engineering's watches on the packages the company uses, pinned at older versions."""
    pop = s.population
    db = _build(pop, s.now.date())
    engineers = pop.staff("Engineering", "IT", fallback=3)
    hit = {a.package: a.introduced for a in db.advisories.values()}
    pool = sorted((p for p in db.packages.values() if not p.name.endswith("-sdk")), key=lambda p: p.name not in hit)
    picks = [p for p in pool if p.ecosystem == "pypi"][:4] + [p for p in pool if p.ecosystem == "npm"][:4]
    home = next(iter(p for p in db.packages.values() if p.name.endswith("-sdk")), None)
    for k, p in enumerate([*picks, *([home] if home else [])]):
        good = [v for v in p.versions[:-1] if not v.yanked] or [p.versions[-1]]
        pin = next((v for v in good if v.version == hit.get(p.name)), good[len(good) // 2])
        seen = max(pin, p.versions[max(0, len(p.versions) - 1 - k % 3)], key=lambda v: _key(v.version))
        s.create(
            Watch,
            ecosystem=p.ecosystem,
            package_name=p.name,
            pinned_version=pin.version,
            owner_email=engineers[k % len(engineers)].email,
            min_severity=("MODERATE", "LOW", "HIGH")[k % 3],
            status="paused" if k == 4 else "active",
            last_seen_version=seen.version,
            last_checked_at=s.ago(days=20 + k),
            created_at=s.ago(days=200 + 10 * k),
            updated_at=s.ago(days=20 + k),
        )
