"""Lambdaworks: serverless functions (functions, versions, aliases, invocations, concurrency, event sources).

Modeled on the AWS Lambda API (CreateFunction, UpdateFunctionCode,
UpdateFunctionConfiguration, PublishVersion, CreateAlias with routing config,
Invoke, PutFunctionConcurrency, CreateEventSourceMapping): functions with a
runtime (deprecated runtimes refused), handler, memory (128-10240 MB), timeout
(1-900 s) and environment variables; immutable numbered versions published only
when the code changed since the last one; aliases pointing at a published version
with an optional weighted second version; invocations that succeed, error or are
throttled (reserved concurrency 0), with billed duration; reserved concurrency
that leaves at least 100 of the account's 1000 unreserved; and event source
mappings from SQS, Kinesis, DynamoDB streams or Kafka with batch-size limits,
enabled or disabled, one per function and source.
"""

from __future__ import annotations

import hashlib
import math
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "functions",
    title="Lambdaworks",
    category="serverless",
    modeled_on="AWS Lambda API: functions and configuration, UpdateFunctionCode, PublishVersion, aliases with "
    "weighted routing, Invoke, reserved concurrency, event source mappings",
    description="Serverless functions: each function's runtime, memory, timeout and environment, its published "
    "versions and the aliases traffic goes through, invocations and their outcome, reserved concurrency, and "
    "the queues and streams that trigger them.",
)

FunctionId = Annotated[str, IdOf("functions.function")]
VersionId = Annotated[str, IdOf("functions.version")]
AliasId = Annotated[str, IdOf("functions.alias")]
InvocationId = Annotated[str, IdOf("functions.invocation")]
MappingId = Annotated[str, IdOf("functions.event_source_mapping")]

FunctionName = Annotated[str, StringConstraints(pattern=r"^[a-zA-Z0-9_-]{1,64}$")]
"""A function name (orders-webhook)."""
AliasName = Annotated[str, StringConstraints(pattern=r"^[a-zA-Z_-][a-zA-Z0-9_-]{0,127}$")]
"""An alias name (live, staging)."""
Handler = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.$:/-]{1,128}$")]
"""The entry point (app.handler)."""
Memory = Annotated[int, Field(ge=128, le=10240)]
Timeout = Annotated[int, Field(ge=1, le=900)]

Runtime = Literal["python3.12", "python3.11", "nodejs20.x", "nodejs18.x", "java21", "provided.al2023", "python3.7"]
State = Literal["Active", "Inactive", "Failed"]
Outcome = Literal["Success", "Error", "Throttled"]
SourceType = Literal["sqs", "kinesis", "dynamodb", "kafka"]
MappingState = Literal["Enabled", "Disabled"]

DEPRECATED: frozenset[str] = frozenset({"python3.7"})
ACCOUNT_LIMIT = 1000
MIN_UNRESERVED = 100
MAX_BATCH: dict[str, int] = {"sqs": 10000, "kinesis": 10000, "dynamodb": 10000, "kafka": 10000}


class Function(Timestamped):
    """A function and its current ($LATEST) configuration."""

    id: FunctionId
    name: FunctionName
    """Its name (unique)."""
    runtime: Runtime
    """The runtime."""
    handler: Handler
    """The entry point."""
    memory_mb: Memory = 128
    """Memory in MB."""
    timeout_s: Timeout = 3
    """Timeout in seconds."""
    environment: dict[str, str] = Field(default_factory=dict)
    """Environment variables."""
    code_sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
    """Hash of the deployed code."""
    state: State = "Active"
    """Active, Inactive or Failed."""
    reserved_concurrency: Annotated[int, Field(ge=0, le=ACCOUNT_LIMIT)] | None = None
    """Reserved concurrent executions (none: unreserved pool; 0: throttles every call)."""
    owner_email: Email
    """The owning engineer."""
    description: Text = ""
    """What it does."""


class Version(Created):
    """An immutable published version."""

    id: VersionId
    function_id: FunctionId
    """The function."""
    version: int
    """1, 2, 3…"""
    code_sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
    """Its code hash."""
    runtime: Runtime
    """Its runtime."""
    memory_mb: Memory
    """Its memory."""
    description: Text = ""
    """Release note."""


class Alias(Timestamped):
    """A named pointer to a version, optionally splitting traffic with a second version."""

    id: AliasId
    function_id: FunctionId
    """The function."""
    name: AliasName
    """Its name (unique per function)."""
    function_version: int
    """The main version."""
    additional_version: int | None = None
    """A second version receiving part of the traffic."""
    additional_weight: Annotated[float, Field(ge=0, le=1)] = 0.0
    """Share of traffic for the second version."""


class Invocation(Record):
    """A call of a function."""

    id: InvocationId
    function_id: FunctionId
    """The function."""
    qualifier: Annotated[str, StringConstraints(min_length=1, max_length=128)] = "$LATEST"
    """$LATEST, a version number or an alias."""
    version: Annotated[str, StringConstraints(max_length=16)] = "$LATEST"
    """The version that ran."""
    outcome: Outcome
    """Success, Error or Throttled."""
    duration_ms: Annotated[int, Field(ge=0)] = 0
    """How long it ran."""
    billed_ms: Annotated[int, Field(ge=0)] = 0
    """Billed duration (rounded up to 1 ms, at least 1)."""
    error: Text = ""
    """The error message."""
    invoked_at: DateTime
    """When."""


class Mapping(Timestamped):
    """An event source mapping: a queue or stream that triggers the function."""

    id: MappingId
    function_id: FunctionId
    """The function."""
    source_type: SourceType
    """sqs, kinesis, dynamodb or kafka."""
    source: Annotated[str, StringConstraints(min_length=3, max_length=256)]
    """The queue, stream or topic name."""
    batch_size: Annotated[int, Field(ge=1, le=10000)] = 10
    """Records per batch."""
    state: MappingState = "Enabled"
    """Enabled or Disabled."""


# -- rules ------------------------------------------------------------------------------------


def _guard_function(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="functions are owned by staff")
    if new.runtime in DEPRECATED and (old is None or old.runtime != new.runtime):
        raise RuleViolation(f"runtime {new.runtime} is deprecated", field="runtime", hint="use python3.12")
    for k in new.environment:
        if not k or not (k[0].isalpha() and k.replace("_", "").isalnum()):
            raise RuleViolation(f"bad environment variable name {k!r}", field="environment", hint="LETTERS_AND_DIGITS")


def _delete_function(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Mapping, function_id=old.id, state="Enabled") is not None:
        raise Conflict(f"{old.name} has an enabled event source", field="function_id", hint="disable it first")
    for model in (Mapping, Alias, Version):
        for r in ctx.where(model, function_id=old.id):
            ctx.delete(r)


def _guard_alias(ctx: Ctx, new: Any, old: Any) -> None:
    have = {v.version for v in ctx.where(Version, function_id=new.function_id)}
    for v in (new.function_version, new.additional_version):
        if v is not None and v not in have:
            raise RuleViolation(f"version {v} is not published", field="function_version", hint="publish_version")
    if new.additional_version is None and new.additional_weight:
        raise RuleViolation("a weight needs an additional version", field="additional_weight", hint="name it")
    if new.additional_version == new.function_version:
        raise RuleViolation("the additional version must differ", field="additional_version", hint="pick another")


def _guard_mapping(ctx: Ctx, new: Any, old: Any) -> None:
    if new.batch_size > MAX_BATCH[new.source_type]:
        raise RuleViolation("batch_size too large", field="batch_size", hint=f"at most {MAX_BATCH[new.source_type]}")


functions = service.resource(
    Function,
    name="function",
    plural="functions",
    prefix="fn",
    create=False,
    filters=("name", "runtime", "state", "owner_email"),
    search=("name", "description"),
    update=("handler", "memory_mb", "timeout_s", "environment", "runtime", "description", "owner_email"),
    guard_update=_guard_function,
    guard_delete=_delete_function,
)
versions = service.resource(
    Version,
    name="version",
    plural="versions",
    prefix="fnv",
    create=False,
    get=False,
    filters=("function_id", "version"),
    delete=False,
)
aliases = service.resource(
    Alias,
    name="alias",
    plural="aliases",
    prefix="fna",
    create=False,
    get=False,
    filters=("function_id", "name"),
    update=("function_version", "additional_version", "additional_weight"),
    guard_update=_guard_alias,
)
invocations = service.resource(
    Invocation,
    name="invocation",
    plural="invocations",
    prefix="inv",
    create=False,
    get=False,
    filters=("function_id", "outcome", "qualifier"),
    delete=False,
)
mappings = service.resource(
    Mapping,
    name="event_source_mapping",
    plural="event_source_mappings",
    prefix="esm",
    create=False,
    filters=("function_id", "source_type", "state", "source"),
    update=("batch_size",),
    transitions={
        "enable": Transition("state", ("Disabled",), "Enabled", "enable the event source mapping"),
        "disable": Transition("state", ("Enabled",), "Disabled", "disable the event source mapping"),
    },
    guard_update=_guard_mapping,
)


# -- domain tools -----------------------------------------------------------------------------


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "label-renderer",
        "runtime": "python3.12",
        "handler": "app.handler",
        "owner_email": ctx.population.employees[0].email,
    }


@service.tool(intent="create the function", write=True, example=_example_create)
def create_function(
    ctx: Ctx,
    name: FunctionName,
    runtime: Runtime,
    handler: Handler,
    owner_email: Email,
    memory_mb: Memory = 128,
    timeout_s: Timeout = 3,
    environment: dict[str, str] | None = None,
    description: Text = "",
) -> Function:
    """Create a function (unique name, supported runtime) with its first code package.

    Args:
        name: Its name.
        runtime: The runtime (not deprecated).
        handler: The entry point (app.handler).
        owner_email: The owning engineer.
        memory_mb: Memory, 128-10240 MB.
        timeout_s: Timeout, 1-900 s.
        environment: Environment variables.
        description: What it does.
    """
    if ctx.first(Function, name=name) is not None:
        raise Conflict(f"function {name} exists", field="name", hint="update it instead")
    made = ctx.create(
        Function,
        name=name,
        runtime=runtime,
        handler=handler,
        owner_email=owner_email,
        memory_mb=memory_mb,
        timeout_s=timeout_s,
        environment=dict(environment or {}),
        description=description,
        code_sha256=_sha(f"{name}:1"),
    )
    _guard_function(ctx, made, None)
    return made


@service.tool(intent="deploy new code to the function", write=True, example=first_example(Function, "function_id"))
def update_function_code(ctx: Ctx, function_id: FunctionId) -> Function:
    """Deploy a new code package to $LATEST (its hash changes).

    Args:
        function_id: The function.
    """
    fn = ctx.get(Function, function_id, field="function_id")
    if fn.state == "Inactive":
        raise RuleViolation(f"{fn.name} is inactive", field="function_id", hint="invoke it to wake it first")
    return ctx.update(fn, code_sha256=_sha(fn.code_sha256 + ctx.now().isoformat()))


def _latest(ctx: Ctx, function_id: str) -> Version | None:
    found = ctx.where(Version, function_id=function_id)
    return max(found, key=lambda v: v.version) if found else None


@service.tool(
    intent="publish a version of the function",
    write=True,
    example=first_example(Function, "function_id", where={"name": "image-resizer"}),
)
def publish_version(ctx: Ctx, function_id: FunctionId, description: Text = "") -> Version:
    """Publish $LATEST as a new immutable version; refused when the code has not changed since the last one.

    Args:
        function_id: The function.
        description: Release note.
    """
    fn = ctx.get(Function, function_id, field="function_id")
    last = _latest(ctx, fn.id)
    if last is not None and last.code_sha256 == fn.code_sha256:
        raise Conflict(f"version {last.version} already has this code", field="function_id", hint="deploy new code")
    return ctx.create(
        Version,
        function_id=fn.id,
        version=(last.version + 1) if last else 1,
        code_sha256=fn.code_sha256,
        runtime=fn.runtime,
        memory_mb=fn.memory_mb,
        description=description,
    )


def _example_alias(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Version)
    return None if v is None else {"function_id": v.function_id, "name": "canary", "function_version": v.version}


@service.tool(intent="create the alias", write=True, example=_example_alias)
def create_alias(
    ctx: Ctx,
    function_id: FunctionId,
    name: AliasName,
    function_version: int,
    additional_version: int | None = None,
    additional_weight: Annotated[float, Field(ge=0, le=1)] = 0.0,
) -> Alias:
    """Create an alias pointing at a published version, optionally sending a share of traffic to another.

    Args:
        function_id: The function.
        name: The alias (live, staging).
        function_version: The main version.
        additional_version: A second version.
        additional_weight: Its share of traffic, 0-1.
    """
    fn = ctx.get(Function, function_id, field="function_id")
    if ctx.first(Alias, function_id=fn.id, name=name) is not None:
        raise Conflict(f"{fn.name} already has alias {name}", field="name", hint="update it instead")
    made = ctx.create(
        Alias,
        function_id=fn.id,
        name=name,
        function_version=function_version,
        additional_version=additional_version,
        additional_weight=additional_weight,
    )
    _guard_alias(ctx, made, None)
    return made


def _resolve(ctx: Ctx, fn: Function, qualifier: str) -> str:
    if qualifier == "$LATEST":
        return "$LATEST"
    if qualifier.isdigit():
        if ctx.first(Version, function_id=fn.id, version=int(qualifier)) is None:
            raise RuleViolation(f"no version {qualifier}", field="qualifier", hint="see list_versions")
        return qualifier
    alias = ctx.first(Alias, function_id=fn.id, name=qualifier)
    if alias is None:
        raise RuleViolation(f"no alias {qualifier}", field="qualifier", hint="see list_aliases")
    split = alias.additional_version is not None and ctx.rng.random() < alias.additional_weight
    return str(alias.additional_version if split else alias.function_version)


@service.tool(
    intent="invoke the function",
    write=True,
    example=first_example(Function, "function_id", where={"state": "Active"}, payload='{"order_id": "A-1"}'),
)
def invoke(ctx: Ctx, function_id: FunctionId, payload: Text = "{}", qualifier: str = "$LATEST") -> Invocation:
    """Invoke a function synchronously; reserved concurrency 0 throttles, a payload the code rejects errors.

    The code rejects payloads that are not JSON objects. An inactive function becomes active.

    Args:
        function_id: The function.
        payload: The JSON event.
        qualifier: $LATEST, a version number or an alias.
    """
    fn = ctx.get(Function, function_id, field="function_id")
    version = _resolve(ctx, fn, qualifier)
    if fn.state == "Failed":
        raise RuleViolation(f"{fn.name} is in state Failed", field="function_id", hint="deploy working code")
    if fn.state == "Inactive":
        fn = ctx.update(fn, state="Active")
    base = {"qualifier": qualifier, "version": version, "invoked_at": ctx.now(), "function_id": fn.id}
    if fn.reserved_concurrency == 0:
        return ctx.create(Invocation, outcome="Throttled", error="Rate Exceeded.", **base)
    text = payload.strip()
    duration = max(1, round(120_000 / fn.memory_mb + len(text)))
    if not (text.startswith("{") and text.endswith("}")):
        return ctx.create(
            Invocation,
            outcome="Error",
            error="Runtime.UserCodeError: event is not an object",
            duration_ms=duration,
            billed_ms=math.ceil(duration),
            **base,
        )
    if duration > fn.timeout_s * 1000:
        return ctx.create(
            Invocation,
            outcome="Error",
            error=f"Task timed out after {fn.timeout_s}.00 seconds",
            duration_ms=fn.timeout_s * 1000,
            billed_ms=fn.timeout_s * 1000,
            **base,
        )
    return ctx.create(Invocation, outcome="Success", duration_ms=duration, billed_ms=duration, **base)


def _example_concurrency(ctx: Ctx) -> dict[str, Any] | None:
    fn = ctx.first(Function, state="Active")
    return None if fn is None else {"function_id": fn.id, "reserved": 25}


@service.tool(intent="reserve concurrency for the function", write=True, example=_example_concurrency)
def put_concurrency(
    ctx: Ctx, function_id: FunctionId, reserved: Annotated[int, Field(ge=0, le=ACCOUNT_LIMIT)] | None
) -> Function:
    """Reserve concurrent executions for a function (0 stops it; none releases the reservation).

    At least 100 of the account's 1000 must stay unreserved.

    Args:
        function_id: The function.
        reserved: Executions to reserve, or none to release.
    """
    fn = ctx.get(Function, function_id, field="function_id")
    others = sum(f.reserved_concurrency or 0 for f in ctx.scan(Function) if f.id != fn.id)
    if reserved is not None and others + reserved > ACCOUNT_LIMIT - MIN_UNRESERVED:
        raise RuleViolation(
            f"only {ACCOUNT_LIMIT - MIN_UNRESERVED - others} can be reserved", field="reserved", hint="reserve less"
        )
    return ctx.update(fn, reserved_concurrency=reserved)


def _example_mapping(ctx: Ctx) -> dict[str, Any] | None:
    fn = ctx.first(Function, name="image-resizer")
    return None if fn is None else {"function_id": fn.id, "source_type": "sqs", "source": "thumbnails-queue"}


@service.tool(intent="connect the event source to the function", write=True, example=_example_mapping)
def create_event_source_mapping(
    ctx: Ctx,
    function_id: FunctionId,
    source_type: SourceType,
    source: Annotated[str, StringConstraints(min_length=3, max_length=256)],
    batch_size: Annotated[int, Field(ge=1, le=10000)] = 10,
) -> Mapping:
    """Make a queue, stream or topic trigger a function; one mapping per function and source.

    Args:
        function_id: The function.
        source_type: sqs, kinesis, dynamodb or kafka.
        source: The queue, stream or topic name.
        batch_size: Records per batch.
    """
    fn = ctx.get(Function, function_id, field="function_id")
    if ctx.first(Mapping, function_id=fn.id, source=source) is not None:
        raise Conflict(f"{source} already triggers {fn.name}", field="source", hint="update that mapping")
    made = ctx.create(Mapping, function_id=fn.id, source_type=source_type, source=source, batch_size=batch_size)
    _guard_mapping(ctx, made, None)
    return made


# -- seed -------------------------------------------------------------------------------------

FUNCTIONS: tuple[tuple[str, Runtime, int, int, State, int | None, str], ...] = (
    ("orders-webhook", "nodejs20.x", 256, 10, "Active", 50, "Receives shop order webhooks."),
    ("image-resizer", "python3.12", 1024, 30, "Active", None, "Makes product thumbnails."),
    ("nightly-report", "python3.11", 512, 300, "Inactive", None, "Builds the nightly sales report."),
    ("legacy-export", "python3.7", 128, 60, "Active", 0, "Old CSV export, kept for one customer."),
    ("label-printer", "java21", 2048, 15, "Failed", None, "Renders shipping labels."),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Functions owned by engineers, versions and aliases, invocations, concurrency and event sources."""
    eng = s.population.staff("Engineering", "IT", fallback=4)
    for k, (name, rt, mem, to, st, rc, desc) in enumerate(FUNCTIONS):
        fn = s.create(
            Function,
            name=name,
            runtime=rt,
            handler="index.handler" if rt.startswith("node") else "app.handler",
            memory_mb=mem,
            timeout_s=to,
            environment={"STAGE": "prod", "LOG_LEVEL": "info"},
            state=st,
            reserved_concurrency=rc,
            owner_email=eng[k % len(eng)].email,
            description=desc,
            code_sha256=_sha(f"{name}:{3 - k % 2}"),
            created_at=s.ago(days=400 - 40 * k),
            updated_at=s.ago(days=3 + k),
        )
        for v in range(1, 3 - k % 2 + (1 if k == 0 else 0)):
            s.create(
                Version,
                function_id=fn.id,
                version=v,
                code_sha256=_sha(f"{name}:{v}"),
                runtime=rt,
                memory_mb=mem,
                created_at=s.ago(days=300 - 30 * v),
            )
        if k == 0:
            s.create(
                Alias,
                function_id=fn.id,
                name="live",
                function_version=2,
                additional_version=3,
                additional_weight=0.1,
                created_at=s.ago(days=30),
                updated_at=s.ago(days=1),
            )
        for j in range(3):
            outcome: Outcome = "Throttled" if rc == 0 else ("Error" if j == 2 and k == 1 else "Success")
            dur = 0 if outcome == "Throttled" else 40 + 35 * j + 10 * k
            s.create(
                Invocation,
                function_id=fn.id,
                outcome=outcome,
                duration_ms=dur,
                billed_ms=dur,
                error="Runtime.UserCodeError: event is not an object"
                if outcome == "Error"
                else ("Rate Exceeded." if outcome == "Throttled" else ""),
                invoked_at=s.ago(hours=5 - j, minutes=7 * k),
            )
    fns = s.records(Function)
    s.create(
        Mapping,
        function_id=fns[1].id,
        source_type="sqs",
        source="product-images-uploaded",
        batch_size=5,
        created_at=s.ago(days=200),
        updated_at=s.ago(days=20),
    )
    s.create(
        Mapping,
        function_id=fns[2].id,
        source_type="kinesis",
        source="sales-events",
        batch_size=500,
        state="Disabled",
        created_at=s.ago(days=150),
        updated_at=s.ago(days=9),
    )
