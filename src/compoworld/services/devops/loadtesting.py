"""Surgeload: load testing of the company's services: projects, load tests, test runs, baselines, schedules.

Modeled on the Grafana Cloud k6 REST API (``/cloud/v6/projects``,
``/load_tests`` with a script whose ``options`` hold ``scenarios`` (executor,
VUs, duration) and ``thresholds`` (``http_req_duration: ['p(95)<500']``,
``abortOnFail``), ``/load_tests/{id}/start``, ``/test_runs/{id}/abort``, test run
status queued → running → completed or aborted (by user, by threshold) with a
result passed / failed, baseline test runs for comparison, and ``/schedules``
with a frequency).

Scenario names are unique within a test; the plan allows at most 500 VUs per
scenario, 1000 per test and one hour per scenario. Thresholds pair a metric
with a statistic it has (http_req_duration: avg, med, p90, p95, p99, max;
http_req_failed and checks: rate; iterations: count). A test runs at most once
at a time; a run is measured on its target (latency grows with the VUs),
thresholds are evaluated, and a failed threshold marked abort_on_fail aborts the
run by threshold; otherwise the run completes and passes only if every threshold
holds. A queued or running run can be aborted by a user. A test's baseline is
one of its completed runs, and runs are compared metric by metric against it. A
test has at most one schedule. A test with an active run cannot be deleted, nor
a project with tests.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "loadtesting",
    title="Surgeload",
    category="load_testing",
    modeled_on="Grafana Cloud k6 REST API: projects, load tests (scenarios, thresholds), test runs (start, abort, "
    "status and result), baseline runs, schedules",
    description="Load testing for the company's web apps and APIs: projects, load tests with their scenarios "
    "and pass/fail thresholds, test runs with their status, metrics and threshold results, baselines to "
    "compare against, and recurring schedules.",
)

ProjectId = Annotated[str, IdOf("loadtesting.project")]
TestId = Annotated[str, IdOf("loadtesting.load_test")]
RunId = Annotated[str, IdOf("loadtesting.test_run")]
ScheduleId = Annotated[str, IdOf("loadtesting.schedule")]

Executor = Literal["constant-vus", "ramping-vus", "constant-arrival-rate", "per-vu-iterations", "shared-iterations"]
Metric = Literal["http_req_duration", "http_req_failed", "checks", "iterations"]
Stat = Literal["avg", "med", "p90", "p95", "p99", "max", "rate", "count"]
Operator = Literal["<", "<=", ">", ">="]
RunStatus = Literal["queued", "running", "completed", "aborted"]
RunResult = Literal["passed", "failed"]
AbortReason = Literal["by_user", "by_threshold"]
Frequency = Literal["hourly", "daily", "weekly", "monthly"]
LoadZone = Literal["amazon:us:ashburn", "amazon:de:frankfurt", "amazon:ie:dublin", "amazon:sg:singapore"]

STATS: dict[str, tuple[str, ...]] = {
    "http_req_duration": ("avg", "med", "p90", "p95", "p99", "max"),
    "http_req_failed": ("rate",),
    "checks": ("rate",),
    "iterations": ("count",),
}
MAX_VUS_SCENARIO, MAX_VUS_TEST, MAX_SECONDS = 500, 1000, 3600
ACTIVE: tuple[RunStatus, ...] = ("queued", "running")
EVERY = {"hourly": dt.timedelta(hours=1), "daily": dt.timedelta(days=1), "weekly": dt.timedelta(days=7)}


class Scenario(Value):
    """A scenario of a test's options."""

    name: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
    """Its name (unique in the test)."""
    executor: Executor
    """How it schedules VUs and iterations."""
    vus: Annotated[int, Field(ge=1, le=MAX_VUS_SCENARIO)]
    """Virtual users (the peak, for ramping executors)."""
    duration_s: Annotated[int, Field(ge=10, le=MAX_SECONDS)]
    """How long it runs."""


class Threshold(Value):
    """A pass/fail criterion on a metric."""

    metric: Metric
    """http_req_duration, http_req_failed, checks or iterations."""
    stat: Stat
    """The statistic: avg, med, p90, p95, p99, max (durations), rate or count."""
    operator: Operator
    """<, <=, > or >=."""
    value: float
    """The bound (milliseconds for durations, 0-1 for rates)."""
    abort_on_fail: bool = False
    """Whether crossing it aborts the run."""


class MetricValue(Value):
    """A measured statistic of a run."""

    metric: Metric
    """The metric."""
    stat: Stat
    """The statistic."""
    value: float
    """What was measured."""


class ThresholdResult(Value):
    """How a threshold fared in a run."""

    threshold: Threshold
    """The threshold."""
    actual: float
    """What was measured."""
    passed: bool
    """Whether it held."""


class Project(Record):
    """A project grouping load tests."""

    id: ProjectId
    name: Title
    """Its name (unique)."""
    description: Text = ""
    """What it covers."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class LoadTest(Record):
    """A load test: a script against a target with scenarios and thresholds."""

    id: TestId
    project_id: ProjectId
    """Its project."""
    name: Title
    """Its name (unique in the project)."""
    target_url: Url
    """The service it loads."""
    script: Text = ""
    """The k6 script."""
    scenarios: tuple[Scenario, ...]
    """Its scenarios."""
    thresholds: tuple[Threshold, ...] = ()
    """Its pass/fail criteria."""
    load_zone: LoadZone = "amazon:us:ashburn"
    """Where the load comes from."""
    baseline_run_id: RunId | None = None
    """The run others are compared against."""
    created_by: Email
    """The employee who wrote it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class TestRun(Record):
    """A run of a load test."""

    id: RunId
    load_test_id: TestId
    """The test."""
    status: RunStatus = "queued"
    """queued, running, completed or aborted."""
    result: RunResult | None = None
    """passed or failed (none while it runs)."""
    aborted_reason: AbortReason | None = None
    """by_user or by_threshold."""
    started_by: Email | None = None
    """Who started it (none: a schedule)."""
    vus: int
    """Peak virtual users."""
    duration_s: int
    """Planned duration."""
    metrics: tuple[MetricValue, ...] = ()
    """What it measured."""
    threshold_results: tuple[ThresholdResult, ...] = ()
    """How each threshold fared."""
    note: Text = ""
    """A note."""
    created_at: Annotated[DateTime, CREATED]
    """When it was queued."""
    ended_at: DateTime | None = None
    """When it ended."""


class Schedule(Record):
    """A recurring schedule of a load test."""

    id: ScheduleId
    load_test_id: TestId
    """The test (one schedule per test)."""
    frequency: Frequency
    """hourly, daily, weekly or monthly."""
    next_run: DateTime
    """When it runs next."""
    active: bool = True
    """Whether it runs."""
    created_by: Email
    """The employee who set it."""


class Comparison(Value):
    """A run compared with its test's baseline."""

    run_id: RunId
    """The run."""
    baseline_run_id: RunId
    """The baseline."""
    deltas: tuple[MetricValue, ...]
    """Run value minus baseline value, per statistic both measured."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a member of the organization", field=field, hint="use an employee")


def _check_options(
    scenarios: tuple[Scenario, ...] | list[Scenario], thresholds: tuple[Threshold, ...] | list[Threshold]
) -> None:
    if not scenarios:
        raise RuleViolation("a test needs a scenario", field="scenarios", hint="add one, e.g. constant-vus")
    names = [s.name for s in scenarios]
    if len(set(names)) != len(names):
        raise RuleViolation("scenario names repeat", field="scenarios", hint="name each scenario differently")
    if sum(s.vus for s in scenarios) > MAX_VUS_TEST:
        raise RuleViolation(
            f"the plan allows {MAX_VUS_TEST} VUs per test", field="scenarios", hint="lower the scenarios' VUs"
        )
    for t in thresholds:
        if t.stat not in STATS[t.metric]:
            raise RuleViolation(
                f"{t.metric} has no statistic {t.stat}",
                field="thresholds",
                hint=f"use {', '.join(STATS[t.metric])} for {t.metric}",
            )
        if t.metric in ("http_req_failed", "checks") and not 0 <= t.value <= 1:
            raise RuleViolation(f"a {t.metric} rate is 0-1", field="thresholds", hint="write 1% as 0.01")


def _guard_test(ctx: Ctx, new: Any, old: Any) -> None:
    _check_options(new.scenarios, new.thresholds)


def _guard_test_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if any(r.status in ACTIVE for r in ctx.where(TestRun, load_test_id=old.id)):
        raise Conflict(f"{old.name!r} has an active run", field="load_test_id", hint="abort it first")
    for sch in ctx.where(Schedule, load_test_id=old.id):
        ctx.delete(sch)


def _guard_project(ctx: Ctx, new: Any, old: Any) -> None:
    for p in ctx.where(Project, name=new.name):
        if p.id != new.id:
            raise Conflict(f"project {new.name!r} exists", field="name", hint="pick another name")


def _guard_project_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.where(LoadTest, project_id=old.id):
        raise Conflict(f"project {old.name!r} has load tests", field="project_id", hint="delete its tests first")


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="proj",
    create=("name", "description"),
    filters=("name",),
    search=("name", "description"),
    update=("name", "description"),
    guard_create=_guard_project,
    guard_update=_guard_project,
    guard_delete=_guard_project_delete,
)
load_tests = service.resource(
    LoadTest,
    name="load_test",
    plural="load_tests",
    prefix="lt",
    create=False,
    filters=("project_id", "created_by", "load_zone", "name"),
    search=("name", "target_url"),
    update=("scenarios", "thresholds", "script", "load_zone"),
    guard_update=_guard_test,
    guard_delete=_guard_test_delete,
    title="load test",
)
runs = service.resource(
    TestRun,
    name="test_run",
    plural="test_runs",
    prefix="run",
    create=False,
    filters=("load_test_id", "status", "result", "started_by"),
    update=("note",),
    delete=False,
    title="test run",
)
schedules = service.resource(
    Schedule,
    name="schedule",
    plural="schedules",
    prefix="sch",
    create=False,
    filters=("load_test_id", "frequency", "active"),
    update=("frequency",),
    transitions={
        "deactivate": Transition("active", (True,), False, "deactivate the schedule"),
        "activate": Transition("active", (False,), True, "activate the schedule"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_test(ctx: Ctx) -> dict[str, Any] | None:
    p = next(iter(ctx.scan(Project)), None)
    if p is None:
        return None
    return {
        "project_id": p.id,
        "name": "Search API soak",
        "target_url": f"https://api.{ctx.population.home.domain}/search",
        "scenarios": [{"name": "soak", "executor": "constant-vus", "vus": 50, "duration_s": 1800}],
        "thresholds": [{"metric": "http_req_duration", "stat": "p95", "operator": "<", "value": 400}],
        "created_by": ctx.population.employees[0].email,
    }


@service.tool(intent="create a load test", write=True, example=_example_test)
def create_load_test(
    ctx: Ctx,
    project_id: ProjectId,
    name: Title,
    target_url: Url,
    scenarios: Annotated[list[Scenario], Field(min_length=1, max_length=10)],
    created_by: Email,
    thresholds: list[Threshold] | None = None,
    script: Text = "",
    load_zone: LoadZone = "amazon:us:ashburn",
) -> LoadTest:
    """Create a load test in a project (names unique per project) with its scenarios and thresholds.

    Args:
        project_id: The project.
        name: Its name.
        target_url: The service it loads.
        scenarios: Its scenarios (unique names, at most 500 VUs each and 1000 in all, 10-3600 s).
        created_by: The employee writing it.
        thresholds: Pass/fail criteria: a metric with one of its statistics, an operator and a bound.
        script: The k6 script.
        load_zone: Where the load comes from.
    """
    project = ctx.get(Project, project_id, field="project_id")
    if ctx.first(LoadTest, project_id=project.id, name=name) is not None:
        raise Conflict(f"{project.name} already has a test {name!r}", field="name", hint="pick another name")
    _staff(ctx, created_by, "created_by")
    _check_options(scenarios, thresholds or [])
    return ctx.create(
        LoadTest,
        project_id=project.id,
        name=name,
        target_url=target_url,
        scenarios=tuple(scenarios),
        thresholds=tuple(thresholds or ()),
        script=script,
        load_zone=load_zone,
        created_by=created_by,
    )


def _measure(test: LoadTest) -> tuple[MetricValue, ...]:
    seed = int(hashlib.sha1(test.target_url.encode()).hexdigest()[:8], 16)
    vus = sum(s.vus for s in test.scenarios)
    seconds = max(s.duration_s for s in test.scenarios)
    base = 60 + seed % 140
    load = 1 + vus / 250
    avg = round(base * load, 1)
    failed = round(min(1.0, 0.0005 * (1 + seed % 5) * load**3), 4)
    values: list[tuple[Metric, Stat, float]] = [
        ("http_req_duration", "avg", avg),
        ("http_req_duration", "med", round(avg * 0.85, 1)),
        ("http_req_duration", "p90", round(avg * 1.8, 1)),
        ("http_req_duration", "p95", round(avg * 2.3, 1)),
        ("http_req_duration", "p99", round(avg * 3.6, 1)),
        ("http_req_duration", "max", round(avg * 7.5, 1)),
        ("http_req_failed", "rate", failed),
        ("checks", "rate", round(1 - failed, 4)),
        ("iterations", "count", float(vus * seconds // 2)),
    ]
    return tuple(MetricValue(metric=m, stat=s, value=v) for m, s, v in values)


def _evaluate(test: LoadTest, metrics: tuple[MetricValue, ...]) -> tuple[ThresholdResult, ...]:
    got = {(m.metric, m.stat): m.value for m in metrics}
    out = []
    for t in test.thresholds:
        v = got[(t.metric, t.stat)]
        held = {"<": v < t.value, "<=": v <= t.value, ">": v > t.value, ">=": v >= t.value}[t.operator]
        out.append(ThresholdResult(threshold=t, actual=v, passed=held))
    return tuple(out)


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.scan(LoadTest):
        if not any(r.status in ACTIVE for r in ctx.where(TestRun, load_test_id=t.id)):
            return {"load_test_id": t.id, "started_by": t.created_by}
    return None


@service.tool(intent="start the load test", write=True, example=_example_start)
def start_test_run(ctx: Ctx, load_test_id: TestId, started_by: Email, note: Text = "") -> TestRun:
    """Run a load test now: it is measured, its thresholds evaluated, and it completes or aborts by threshold.

    Refused while another run of the same test is queued or running.

    Args:
        load_test_id: The test.
        started_by: The employee starting it.
        note: A note on the run.
    """
    test = ctx.get(LoadTest, load_test_id, field="load_test_id")
    _staff(ctx, started_by, "started_by")
    active = next((r for r in ctx.where(TestRun, load_test_id=test.id) if r.status in ACTIVE), None)
    if active is not None:
        raise Conflict(
            f"run {active.id} of {test.name!r} is still {active.status}",
            field="load_test_id",
            hint="wait for it or abort it with loadtesting__abort_test_run",
        )
    metrics = _measure(test)
    results = _evaluate(test, metrics)
    aborted = any(not r.passed and r.threshold.abort_on_fail for r in results)
    return ctx.create(
        TestRun,
        load_test_id=test.id,
        status="aborted" if aborted else "completed",
        result="passed" if all(r.passed for r in results) else "failed",
        aborted_reason="by_threshold" if aborted else None,
        started_by=started_by,
        vus=sum(s.vus for s in test.scenarios),
        duration_s=max(s.duration_s for s in test.scenarios),
        metrics=metrics,
        threshold_results=results,
        note=note,
        ended_at=ctx.now(),
    )


@service.tool(
    intent="abort the test run",
    write=True,
    destructive=True,
    example=first_example(TestRun, "test_run_id", where={"status": "running"}),
)
def abort_test_run(ctx: Ctx, test_run_id: RunId) -> TestRun:
    """Abort a queued or running run (aborted by user; it fails).

    Args:
        test_run_id: The run.
    """
    run = ctx.get(TestRun, test_run_id, field="test_run_id")
    if run.status not in ACTIVE:
        raise Conflict(f"run {run.id} already {run.status}", field="test_run_id", hint="nothing to abort")
    return ctx.update(run, status="aborted", aborted_reason="by_user", result="failed", ended_at=ctx.now())


@service.tool(
    intent="make the run the test's baseline",
    write=True,
    example=first_example(TestRun, "test_run_id", where={"status": "completed"}),
)
def set_baseline(ctx: Ctx, test_run_id: RunId) -> LoadTest:
    """Make a completed run the baseline its test's runs are compared against.

    Args:
        test_run_id: The run.
    """
    run = ctx.get(TestRun, test_run_id, field="test_run_id")
    if run.status != "completed":
        raise RuleViolation(
            f"only a completed run can be a baseline (this one is {run.status})",
            field="test_run_id",
            hint="pick a completed run",
        )
    test = ctx.get(LoadTest, run.load_test_id)
    if test.baseline_run_id == run.id:
        raise Conflict("this run is already the baseline", field="test_run_id", hint="nothing to do")
    return ctx.update(test, baseline_run_id=run.id)


def _example_compare(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.scan(LoadTest):
        if t.baseline_run_id is not None:
            for r in ctx.where(TestRun, load_test_id=t.id):
                if r.metrics and r.id != t.baseline_run_id:
                    return {"test_run_id": r.id}
    return None


@service.tool(intent="compare the run with the baseline", example=_example_compare)
def compare_to_baseline(ctx: Ctx, test_run_id: RunId) -> Comparison:
    """Compare a run's statistics with its test's baseline run (run minus baseline).

    Args:
        test_run_id: The run.
    """
    run = ctx.get(TestRun, test_run_id, field="test_run_id")
    test = ctx.get(LoadTest, run.load_test_id)
    if test.baseline_run_id is None:
        raise RuleViolation(
            f"{test.name!r} has no baseline", field="test_run_id", hint="set one with loadtesting__set_baseline"
        )
    if not run.metrics:
        raise RuleViolation(f"run {run.id} measured nothing", field="test_run_id", hint="pick a finished run")
    base = {(m.metric, m.stat): m.value for m in ctx.get(TestRun, test.baseline_run_id).metrics}
    deltas = tuple(
        MetricValue(metric=m.metric, stat=m.stat, value=round(m.value - base[(m.metric, m.stat)], 4))
        for m in run.metrics
        if (m.metric, m.stat) in base
    )
    return Comparison(run_id=run.id, baseline_run_id=test.baseline_run_id, deltas=deltas)


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.scan(LoadTest):
        if not ctx.where(Schedule, load_test_id=t.id):
            return {"load_test_id": t.id, "frequency": "weekly", "created_by": t.created_by}
    return None


@service.tool(intent="schedule the load test", write=True, example=_example_schedule)
def create_schedule(
    ctx: Ctx, load_test_id: TestId, frequency: Frequency, created_by: Email, starts: DateTime | None = None
) -> Schedule:
    """Run a load test on a recurring schedule (one schedule per test).

    Args:
        load_test_id: The test.
        frequency: hourly, daily, weekly or monthly.
        created_by: The employee scheduling it.
        starts: The first run (in the future); omit for one period from now.
    """
    test = ctx.get(LoadTest, load_test_id, field="load_test_id")
    _staff(ctx, created_by, "created_by")
    if ctx.where(Schedule, load_test_id=test.id):
        raise Conflict(
            f"{test.name!r} is already scheduled", field="load_test_id", hint="update that schedule's frequency"
        )
    now = ctx.now()
    if starts is not None and starts <= now:
        raise RuleViolation("the first run must be in the future", field="starts", hint="pick a later time")
    first = starts or now + EVERY.get(frequency, dt.timedelta(days=30))
    return ctx.create(Schedule, load_test_id=test.id, frequency=frequency, next_run=first, created_by=created_by)


# -- seed -------------------------------------------------------------------------------------

TESTS: tuple[tuple[int, str, str, int, int, float], ...] = (
    (0, "Checkout API spike", "api/checkout", 300, 300, 900.0),
    (0, "Checkout API smoke", "api/checkout", 5, 60, 500.0),
    (0, "Catalog browse average load", "catalog", 120, 900, 800.0),
    (1, "Login soak", "auth/login", 60, 3600, 600.0),
    (1, "Token refresh stress", "auth/token", 450, 600, 400.0),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two projects, five tests with runs in every state, baselines and schedules."""
    eng = s.population.staff("Engineering", fallback=4)
    domain = s.population.home.domain
    projs = [
        s.create(Project, name="Storefront", description="Customer-facing web and API.", created_at=s.ago(days=300)),
        s.create(Project, name="Identity", description="Login and token services.", created_at=s.ago(days=250)),
    ]
    s.create(Project, name="Partner API", description="Planned; no tests yet.", created_at=s.ago(days=10))
    for k, (pi, name, path, vus, secs, p95) in enumerate(TESTS):
        test = s.create(
            LoadTest,
            project_id=projs[pi].id,
            name=name,
            target_url=f"https://{domain}/{path}",
            script="import http from 'k6/http';\nexport default function () { http.get(__ENV.TARGET); }",
            scenarios=(
                Scenario(
                    name="main", executor="ramping-vus" if vus > 100 else "constant-vus", vus=vus, duration_s=secs
                ),
            ),
            thresholds=(
                Threshold(metric="http_req_duration", stat="p95", operator="<", value=p95, abort_on_fail=k == 4),
                Threshold(metric="http_req_failed", stat="rate", operator="<", value=0.01),
            ),
            load_zone="amazon:de:frankfurt" if pi else "amazon:us:ashburn",
            created_by=eng[k % len(eng)].email,
            created_at=s.ago(days=200 - 20 * k),
            updated_at=s.ago(days=30),
        )
        metrics = _measure(test)
        results = _evaluate(test, metrics)
        done = []
        aborted = any(not r.passed and r.threshold.abort_on_fail for r in results)
        for n in range(3):
            done.append(
                s.create(
                    TestRun,
                    load_test_id=test.id,
                    status="aborted" if aborted else "completed",
                    result="passed" if all(r.passed for r in results) else "failed",
                    aborted_reason="by_threshold" if aborted else None,
                    started_by=test.created_by if n else None,
                    vus=vus,
                    duration_s=secs,
                    metrics=metrics,
                    threshold_results=results,
                    created_at=s.ago(days=21 - 7 * n, hours=k),
                    ended_at=s.ago(days=21 - 7 * n, hours=k) + dt.timedelta(seconds=secs + 60),
                )
            )
        if k != 1 and not aborted:
            s.update(test, baseline_run_id=done[0].id)
        if aborted:
            s.create(TestRun, load_test_id=test.id, started_by=test.created_by, vus=vus, duration_s=secs)
        if k == 2:
            s.create(
                TestRun,
                load_test_id=test.id,
                status="running",
                started_by=test.created_by,
                vus=vus,
                duration_s=secs,
                created_at=s.ago(minutes=5),
            )
        if k == 3:
            s.create(
                TestRun,
                load_test_id=test.id,
                status="aborted",
                aborted_reason="by_user",
                result="failed",
                started_by=test.created_by,
                vus=vus,
                duration_s=secs,
                created_at=s.ago(days=2),
                ended_at=s.ago(days=2) + dt.timedelta(minutes=3),
                note="Wrong environment.",
            )
        if k in (0, 3):
            s.create(
                Schedule,
                load_test_id=test.id,
                frequency="weekly" if k == 0 else "daily",
                next_run=s.ago(days=-2 if k == 0 else -1),
                active=k == 0,
                created_by=test.created_by,
            )
