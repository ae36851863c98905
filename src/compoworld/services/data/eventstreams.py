"""Streamyard: managed event streaming (clusters, topics, schemas, consumer groups, ACLs, connectors).

Modeled on the Confluent Cloud APIs (cmk clusters, Kafka REST v3 topics and
configs, Schema Registry subjects with compatibility levels, consumer groups
and lag, service accounts and ACLs, managed connectors): clusters of type basic,
standard or dedicated with a partition limit; topics with partitions (which can
only grow), retention and a cleanup policy; schema subjects whose new versions
must be compatible with the latest (BACKWARD: no new required field; FORWARD:
no removed required field; FULL: both; NONE); consumer groups with lag, whose
offsets can be reset only while the group is empty; ACLs granting service
accounts operations on topics and groups; and source and sink connectors that
need their service account to hold WRITE (source) or READ (sink) on their
topics, running, paused or failed.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "eventstreams",
    title="Streamyard",
    category="event_streaming",
    modeled_on="Confluent Cloud APIs: Kafka clusters, topics and configs (REST v3), Schema Registry subjects and "
    "compatibility, consumer groups and lag, service accounts and ACLs, managed connectors",
    description="Managed Kafka for the company's data platform: clusters, topics with partitions and retention, "
    "schema subjects and their versions, consumer groups and how far behind they are, service accounts and "
    "the ACLs they hold, and source and sink connectors moving data in and out.",
)

ClusterId = Annotated[str, IdOf("eventstreams.cluster")]
TopicId = Annotated[str, IdOf("eventstreams.topic")]
SubjectId = Annotated[str, IdOf("eventstreams.subject")]
VersionId = Annotated[str, IdOf("eventstreams.schema_version")]
GroupId = Annotated[str, IdOf("eventstreams.consumer_group")]
AccountId = Annotated[str, IdOf("eventstreams.service_account")]
AclId = Annotated[str, IdOf("eventstreams.acl")]
ConnectorId = Annotated[str, IdOf("eventstreams.connector")]

TopicName = Annotated[str, StringConstraints(pattern=r"^[a-zA-Z0-9._-]{1,249}$")]
"""A Kafka topic name (orders.created)."""
FieldName = Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]{0,63}$")]
"""A schema field name."""

ClusterType = Literal["basic", "standard", "dedicated"]
Cloud = Literal["aws", "gcp", "azure"]
Cleanup = Literal["delete", "compact"]
Compatibility = Literal["BACKWARD", "FORWARD", "FULL", "NONE"]
SchemaType = Literal["AVRO", "JSON", "PROTOBUF"]
GroupState = Literal["stable", "empty", "dead"]
AclResource = Literal["topic", "group", "cluster"]
Operation = Literal["READ", "WRITE", "CREATE", "DESCRIBE", "ALL"]
Permission = Literal["ALLOW", "DENY"]
ConnectorKind = Literal["source", "sink"]
ConnectorStatus = Literal["running", "paused", "failed"]

LIMITS: dict[str, int] = {"basic": 100, "standard": 500, "dedicated": 4000}


class Cluster(Timestamped):
    """A Kafka cluster."""

    id: ClusterId
    name: Title
    """Its display name."""
    type: ClusterType
    """basic, standard or dedicated."""
    cloud: Cloud
    """aws, gcp or azure."""
    region: Annotated[str, StringConstraints(min_length=2, max_length=40)]
    """The cloud region."""
    owner_email: Email
    """The owning engineer."""


class Topic(Timestamped):
    """A topic."""

    id: TopicId
    cluster_id: ClusterId
    """The cluster."""
    name: TopicName
    """Its name (unique per cluster)."""
    partitions: Annotated[int, Field(ge=1, le=4000)] = 6
    """Partition count (can only grow)."""
    retention_hours: Annotated[int, Field(ge=-1, le=87600)] = 168
    """How long messages are kept (-1: forever)."""
    cleanup_policy: Cleanup = "delete"
    """delete or compact."""
    messages: Annotated[int, Field(ge=0)] = 0
    """Messages currently held."""


class Subject(Timestamped):
    """A Schema Registry subject."""

    id: SubjectId
    name: Annotated[str, StringConstraints(pattern=r"^[a-zA-Z0-9._-]{1,255}$")]
    """The subject (orders.created-value)."""
    compatibility: Compatibility = "BACKWARD"
    """BACKWARD, FORWARD, FULL or NONE."""
    schema_type: SchemaType = "AVRO"
    """AVRO, JSON or PROTOBUF."""
    latest_version: int = 0
    """Its latest version number."""


class SchemaVersion(Created):
    """A registered version of a subject's schema."""

    id: VersionId
    subject_id: SubjectId
    """The subject."""
    version: int
    """1, 2, 3…"""
    required: tuple[FieldName, ...]
    """Fields without a default."""
    optional: tuple[FieldName, ...] = ()
    """Fields with a default."""


class ConsumerGroup(Record):
    """A consumer group reading topics."""

    id: GroupId
    cluster_id: ClusterId
    """The cluster."""
    group: Annotated[str, StringConstraints(pattern=r"^[a-zA-Z0-9._-]{1,200}$")]
    """The group id (billing-consumer)."""
    topic_ids: tuple[TopicId, ...]
    """Topics it reads."""
    state: GroupState = "stable"
    """stable (members connected), empty or dead."""
    members: Annotated[int, Field(ge=0)] = 0
    """Connected consumers."""
    lag: Annotated[int, Field(ge=0)] = 0
    """Messages behind, over its topics."""


class ServiceAccount(Created):
    """A service account applications authenticate as."""

    id: AccountId
    name: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]{2,63}$")]
    """Its name (unique)."""
    description: Text = ""
    """What uses it."""
    owner_email: Email
    """Who is responsible."""


class Acl(Created):
    """An ACL: a service account allowed or denied an operation on a resource."""

    id: AclId
    cluster_id: ClusterId
    """The cluster."""
    service_account_id: AccountId
    """The principal."""
    resource_type: AclResource
    """topic, group or cluster."""
    resource_name: Annotated[str, StringConstraints(min_length=1, max_length=249)]
    """The topic or group name (or a prefix)."""
    prefixed: bool = False
    """Whether resource_name is a prefix."""
    operation: Operation
    """READ, WRITE, CREATE, DESCRIBE or ALL."""
    permission: Permission = "ALLOW"
    """ALLOW or DENY."""


class Connector(Timestamped):
    """A managed source or sink connector."""

    id: ConnectorId
    cluster_id: ClusterId
    """The cluster."""
    name: Title
    """Its name."""
    plugin: Annotated[str, StringConstraints(min_length=2, max_length=60)]
    """The connector plugin (PostgresCdcSource, S3_SINK, SnowflakeSink)."""
    kind: ConnectorKind
    """source or sink."""
    topic_ids: tuple[TopicId, ...]
    """Topics it writes (source) or reads (sink)."""
    service_account_id: AccountId
    """The account it runs as."""
    status: ConnectorStatus = "running"
    """running, paused or failed."""
    error: Text = ""
    """Why it failed."""


# -- rules ------------------------------------------------------------------------------------


def _used(ctx: Ctx, cluster_id: str) -> int:
    return sum(t.partitions for t in ctx.where(Topic, cluster_id=cluster_id))


def _guard_topic(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.partitions < old.partitions:
        raise RuleViolation("partitions can only grow", field="partitions", hint=f"keep at least {old.partitions}")
    cl = ctx.get(Cluster, new.cluster_id)
    if _used(ctx, cl.id) > LIMITS[cl.type]:
        raise RuleViolation(
            f"{cl.name} would exceed its {LIMITS[cl.type]} partitions", field="partitions", hint="use fewer partitions"
        )


def _delete_topic(ctx: Ctx, new: Any, old: Any) -> None:
    for c in ctx.where(Connector, cluster_id=old.cluster_id):
        if old.id in c.topic_ids:
            raise Conflict(f"connector {c.name!r} uses {old.name}", field="topic_id", hint="delete the connector")
    for g in ctx.where(ConsumerGroup, cluster_id=old.cluster_id):
        if old.id in g.topic_ids and g.state == "stable":
            raise Conflict(f"group {g.group} is reading {old.name}", field="topic_id", hint="stop its consumers")


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="service accounts are owned by staff")
    for a in ctx.where(ServiceAccount, name=new.name):
        if a.id != new.id:
            raise Conflict(f"service account {new.name} exists", field="name", hint="pick another name")


def _guard_acl(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Cluster, new.cluster_id, field="cluster_id")
    ctx.get(ServiceAccount, new.service_account_id, field="service_account_id")
    same = ctx.where(Acl, service_account_id=new.service_account_id, resource_name=new.resource_name)
    for a in same:
        if a.id != new.id and (a.operation, a.resource_type, a.permission, a.cluster_id) == (
            new.operation,
            new.resource_type,
            new.permission,
            new.cluster_id,
        ):
            raise Conflict(f"ACL {a.id} already says so", field="operation", hint="nothing to add")


def _allowed(ctx: Ctx, account_id: str, cluster_id: str, topic: str, op: str) -> bool:
    ok = False
    for a in ctx.where(Acl, service_account_id=account_id, cluster_id=cluster_id, resource_type="topic"):
        match = topic.startswith(a.resource_name) if a.prefixed else topic == a.resource_name
        if match and a.operation in (op, "ALL"):
            if a.permission == "DENY":
                return False
            ok = True
    return ok


clusters = service.resource(
    Cluster,
    name="cluster",
    plural="clusters",
    prefix="lkc",
    create=False,
    filters=("type", "cloud", "owner_email"),
    search=("name",),
    update=("name", "owner_email"),
    delete=False,
)
topics = service.resource(
    Topic,
    name="topic",
    plural="topics",
    prefix="tpc",
    create=False,
    filters=("cluster_id", "name", "cleanup_policy"),
    search=("name",),
    update=("partitions", "retention_hours", "cleanup_policy"),
    guard_update=_guard_topic,
    guard_delete=_delete_topic,
)
subjects = service.resource(
    Subject,
    name="subject",
    plural="subjects",
    prefix="sbj",
    create=False,
    filters=("name", "compatibility"),
    search=("name",),
    update=("compatibility",),
    delete=False,
)
versions = service.resource(
    SchemaVersion,
    name="schema_version",
    plural="schema_versions",
    prefix="sv",
    create=False,
    get=False,
    filters=("subject_id", "version"),
    delete=False,
)
groups = service.resource(
    ConsumerGroup,
    name="consumer_group",
    plural="consumer_groups",
    prefix="cg",
    create=False,
    filters=("cluster_id", "group", "state"),
    delete=False,
)
accounts = service.resource(
    ServiceAccount,
    name="service_account",
    plural="service_accounts",
    prefix="sa",
    create=False,
    get=False,
    filters=("name", "owner_email"),
    search=("name", "description"),
    delete=False,
    guard_update=_guard_account,
)
acls = service.resource(
    Acl,
    name="acl",
    plural="acls",
    prefix="acl",
    create=(
        "cluster_id",
        "service_account_id",
        "resource_type",
        "resource_name",
        "prefixed",
        "operation",
        "permission",
    ),
    get=False,
    filters=("cluster_id", "service_account_id", "resource_type", "resource_name", "operation"),
    guard_create=_guard_acl,
    title="ACL",
)
connectors = service.resource(
    Connector,
    name="connector",
    plural="connectors",
    prefix="lcc",
    create=False,
    filters=("cluster_id", "kind", "status", "service_account_id", "plugin"),
    search=("name",),
    transitions={
        "pause": Transition("status", ("running",), "paused", "pause the connector"),
        "resume": Transition("status", ("paused",), "running", "resume the connector"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create the topic",
    write=True,
    example=first_example(Cluster, "cluster_id", where={"type": "standard"}, name="invoices.paid", partitions=3),
)
def create_topic(
    ctx: Ctx,
    cluster_id: ClusterId,
    name: TopicName,
    partitions: Annotated[int, Field(ge=1, le=4000)] = 6,
    retention_hours: Annotated[int, Field(ge=-1, le=87600)] = 168,
    cleanup_policy: Cleanup = "delete",
) -> Topic:
    """Create a topic; names are unique per cluster and the cluster's partition limit holds.

    Args:
        cluster_id: The cluster.
        name: Its name (orders.created).
        partitions: Partition count.
        retention_hours: How long messages are kept (-1: forever).
        cleanup_policy: delete or compact.
    """
    cl = ctx.get(Cluster, cluster_id, field="cluster_id")
    if ctx.first(Topic, cluster_id=cl.id, name=name) is not None:
        raise Conflict(f"topic {name} exists on {cl.name}", field="name", hint="pick another name")
    if _used(ctx, cl.id) + partitions > LIMITS[cl.type]:
        raise RuleViolation(
            f"{cl.name} allows {LIMITS[cl.type]} partitions", field="partitions", hint="use fewer or a bigger cluster"
        )
    return ctx.create(
        Topic,
        cluster_id=cl.id,
        name=name,
        partitions=partitions,
        retention_hours=retention_hours,
        cleanup_policy=cleanup_policy,
    )


def _compatible(mode: str, old: SchemaVersion, required: set[str], optional: set[str]) -> str | None:
    before_req, before_all = set(old.required), set(old.required) | set(old.optional)
    added_required = required - before_all
    removed_required = before_req - (required | optional)
    if mode in ("BACKWARD", "FULL") and added_required:
        return f"new required fields {sorted(added_required)} break {mode} compatibility"
    if mode in ("FORWARD", "FULL") and removed_required:
        return f"removing required fields {sorted(removed_required)} breaks {mode} compatibility"
    return None


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    for sub in ctx.scan(Subject):
        last = ctx.first(SchemaVersion, subject_id=sub.id, version=sub.latest_version)
        if last is not None:
            return {"subject": sub.name, "required": list(last.required), "optional": [*last.optional, "note"]}
    return None


@service.tool(intent="register the schema version", write=True, example=_example_register)
def register_schema(
    ctx: Ctx,
    subject: Annotated[str, StringConstraints(pattern=r"^[a-zA-Z0-9._-]{1,255}$")],
    required: list[FieldName],
    optional: list[FieldName] | None = None,
    schema_type: SchemaType = "AVRO",
) -> SchemaVersion:
    """Register a schema under a subject (created on first use); it must be compatible with the latest version.

    Args:
        subject: The subject (orders.created-value).
        required: Fields without a default.
        optional: Fields with a default.
        schema_type: AVRO, JSON or PROTOBUF (for a new subject).
    """
    opt = list(optional or ())
    if set(required) & set(opt) or len(set(required)) != len(required) or len(set(opt)) != len(opt):
        raise RuleViolation("each field appears once", field="required", hint="list a field once")
    sub = ctx.first(Subject, name=subject)
    if sub is None:
        sub = ctx.create(Subject, name=subject, schema_type=schema_type)
    last = ctx.first(SchemaVersion, subject_id=sub.id, version=sub.latest_version)
    if last is not None:
        if (set(last.required), set(last.optional)) == (set(required), set(opt)):
            raise Conflict(f"{subject} version {last.version} is this schema", field="required", hint="nothing new")
        problem = _compatible(sub.compatibility, last, set(required), set(opt))
        if problem is not None:
            raise RuleViolation(problem, field="required", hint="add fields with defaults, or change compatibility")
    made = ctx.create(
        SchemaVersion, subject_id=sub.id, version=sub.latest_version + 1, required=tuple(required), optional=tuple(opt)
    )
    ctx.update(sub, latest_version=made.version)
    return made


def _example_reset(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(ConsumerGroup, state="empty")
    return None if g is None or not g.topic_ids else {"consumer_group_id": g.id, "to": "latest"}


@service.tool(intent="reset the consumer group's offsets", write=True, example=_example_reset)
def reset_offsets(ctx: Ctx, consumer_group_id: GroupId, to: Literal["earliest", "latest"]) -> ConsumerGroup:
    """Reset a consumer group's offsets on all its topics to the earliest or latest message.

    The group must be empty (no connected consumers).

    Args:
        consumer_group_id: The group.
        to: earliest (re-read everything) or latest (skip to the end).
    """
    g = ctx.get(ConsumerGroup, consumer_group_id, field="consumer_group_id")
    if g.state != "empty":
        raise RuleViolation(f"group {g.group} is {g.state}", field="consumer_group_id", hint="stop its consumers")
    lag = 0 if to == "latest" else sum(ctx.get(Topic, t).messages for t in g.topic_ids)
    return ctx.update(g, lag=lag)


def _example_account(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "sa-invoice-sync", "owner_email": ctx.population.employees[0].email}


@service.tool(intent="create the service account", write=True, example=_example_account)
def create_service_account(
    ctx: Ctx,
    name: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]{2,63}$")],
    owner_email: Email,
    description: Text = "",
) -> ServiceAccount:
    """Create a service account (unique name, owned by staff).

    Args:
        name: Its name (sa-billing).
        owner_email: Who is responsible.
        description: What uses it.
    """
    made = ctx.create(ServiceAccount, name=name, owner_email=owner_email, description=description)
    _guard_account(ctx, made, None)
    return made


def _example_connector(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Acl, operation="READ", resource_type="topic", prefixed=False):
        t = ctx.first(Topic, cluster_id=a.cluster_id, name=a.resource_name)
        if t is not None:
            return {
                "cluster_id": a.cluster_id,
                "name": "Orders to S3",
                "plugin": "S3_SINK",
                "kind": "sink",
                "topic_ids": [t.id],
                "service_account_id": a.service_account_id,
            }
    return None


@service.tool(intent="create the connector", write=True, example=_example_connector)
def create_connector(
    ctx: Ctx,
    cluster_id: ClusterId,
    name: Title,
    plugin: Annotated[str, StringConstraints(min_length=2, max_length=60)],
    kind: ConnectorKind,
    topic_ids: list[TopicId],
    service_account_id: AccountId,
) -> Connector:
    """Create a connector; its service account needs WRITE (source) or READ (sink) on each of its topics.

    Args:
        cluster_id: The cluster.
        name: Its name.
        plugin: The plugin (PostgresCdcSource, S3_SINK, SnowflakeSink).
        kind: source or sink.
        topic_ids: Its topics, on that cluster.
        service_account_id: The account it runs as.
    """
    cl = ctx.get(Cluster, cluster_id, field="cluster_id")
    sa = ctx.get(ServiceAccount, service_account_id, field="service_account_id")
    if not topic_ids or len(set(topic_ids)) != len(topic_ids):
        raise RuleViolation("list each topic once, at least one", field="topic_ids", hint="topic ids")
    op = "WRITE" if kind == "source" else "READ"
    for tid in topic_ids:
        t = ctx.get(Topic, tid, field="topic_ids")
        if t.cluster_id != cl.id:
            raise RuleViolation(f"topic {t.name} is on another cluster", field="topic_ids", hint="same cluster")
        if not _allowed(ctx, sa.id, cl.id, t.name, op):
            raise RuleViolation(
                f"{sa.name} lacks {op} on topic {t.name}", field="service_account_id", hint="create the ACL first"
            )
    return ctx.create(
        Connector,
        cluster_id=cl.id,
        name=name,
        plugin=plugin,
        kind=kind,
        topic_ids=tuple(topic_ids),
        service_account_id=sa.id,
    )


@service.tool(
    intent="restart the connector",
    write=True,
    example=first_example(Connector, "connector_id", where={"status": "failed"}),
)
def restart_connector(ctx: Ctx, connector_id: ConnectorId) -> Connector:
    """Restart a failed connector; it runs again if its account still holds the ACLs it needs.

    Args:
        connector_id: The connector.
    """
    c = ctx.get(Connector, connector_id, field="connector_id")
    if c.status != "failed":
        raise RuleViolation(f"connector {c.name!r} is {c.status}", field="connector_id", hint="only failed ones")
    op = "WRITE" if c.kind == "source" else "READ"
    for tid in c.topic_ids:
        t = ctx.get(Topic, tid)
        if not _allowed(ctx, c.service_account_id, c.cluster_id, t.name, op):
            raise RuleViolation(f"the account lacks {op} on {t.name}", field="connector_id", hint="grant the ACL")
    return ctx.update(c, status="running", error="")


# -- seed -------------------------------------------------------------------------------------

TOPICS: tuple[tuple[str, int, int, Cleanup, int], ...] = (
    ("orders.created", 12, 168, "delete", 184_000),
    ("orders.shipped", 6, 168, "delete", 92_000),
    ("customers.profile", 3, -1, "compact", 41_000),
    ("payments.settled", 6, 720, "delete", 77_000),
    ("clickstream.raw", 24, 24, "delete", 2_300_000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two clusters, topics, schema subjects with versions, consumer groups, service accounts, ACLs, connectors."""
    pop = s.population
    eng = pop.staff("Engineering", "Data", "IT", fallback=4)
    prod = s.create(
        Cluster,
        name="prod-events",
        type="standard",
        cloud="aws",
        region="us-east-1",
        owner_email=eng[0].email,
        created_at=s.ago(days=500),
        updated_at=s.ago(days=50),
    )
    s.create(
        Cluster,
        name="dev-sandbox",
        type="basic",
        cloud="gcp",
        region="europe-west1",
        owner_email=eng[1 % len(eng)].email,
        created_at=s.ago(days=200),
        updated_at=s.ago(days=200),
    )
    t = {
        n: s.create(
            Topic,
            cluster_id=prod.id,
            name=n,
            partitions=p,
            retention_hours=r,
            cleanup_policy=c,
            messages=m,
            created_at=s.ago(days=450),
            updated_at=s.ago(days=30),
        )
        for n, p, r, c, m in TOPICS
    }
    for name, comp, vers in (
        (
            "orders.created-value",
            "BACKWARD",
            (
                (("order_id", "customer_email", "total_cents"), ()),
                (("order_id", "customer_email", "total_cents"), ("coupon",)),
            ),
        ),
        ("customers.profile-value", "FULL", ((("customer_id", "email"), ("phone",)),)),
        ("payments.settled-value", "FORWARD", ((("payment_id", "amount_cents", "currency"), ()),)),
    ):
        sub = s.create(
            Subject,
            name=name,
            compatibility=comp,
            latest_version=len(vers),
            created_at=s.ago(days=400),
            updated_at=s.ago(days=60),
        )
        for k, (req, opt) in enumerate(vers):
            s.create(
                SchemaVersion,
                subject_id=sub.id,
                version=k + 1,
                required=req,
                optional=opt,
                created_at=s.ago(days=400 - 100 * k),
            )
    sas = {
        n: s.create(
            ServiceAccount, name=n, description=d, owner_email=eng[k % len(eng)].email, created_at=s.ago(days=300)
        )
        for k, (n, d) in enumerate(
            (
                ("sa-orders-api", "Orders service producer"),
                ("sa-s3-archiver", "S3 sink"),
                ("sa-warehouse", "Snowflake sink"),
            )
        )
    }
    for acc, name, op, pre in (
        ("sa-orders-api", "orders.", "WRITE", True),
        ("sa-s3-archiver", "orders.created", "READ", False),
        ("sa-warehouse", "payments.settled", "READ", False),
        ("sa-s3-archiver", "clickstream.raw", "READ", False),
    ):
        s.create(
            Acl,
            cluster_id=prod.id,
            service_account_id=sas[acc].id,
            resource_type="topic",
            resource_name=name,
            prefixed=pre,
            operation=op,
            created_at=s.ago(days=290),
        )
    s.create(
        Connector,
        cluster_id=prod.id,
        name="Orders archive to S3",
        plugin="S3_SINK",
        kind="sink",
        topic_ids=(t["orders.created"].id,),
        service_account_id=sas["sa-s3-archiver"].id,
        created_at=s.ago(days=280),
        updated_at=s.ago(days=5),
    )
    s.create(
        Connector,
        cluster_id=prod.id,
        name="Payments to Snowflake",
        plugin="SnowflakeSink",
        kind="sink",
        topic_ids=(t["payments.settled"].id,),
        service_account_id=sas["sa-warehouse"].id,
        status="failed",
        error="Authentication failed: key pair rotated",
        created_at=s.ago(days=200),
        updated_at=s.ago(hours=6),
    )
    s.create(
        Connector,
        cluster_id=prod.id,
        name="Clickstream to S3",
        plugin="S3_SINK",
        kind="sink",
        topic_ids=(t["clickstream.raw"].id,),
        service_account_id=sas["sa-s3-archiver"].id,
        status="paused",
        created_at=s.ago(days=100),
        updated_at=s.ago(days=2),
    )
    for grp, tops, state, members, lag in (
        ("billing-consumer", ("orders.created", "payments.settled"), "stable", 3, 1_250),
        ("shipping-notifier", ("orders.shipped",), "empty", 0, 48_000),
        ("analytics-loader", ("clickstream.raw",), "stable", 6, 310_000),
        ("old-reporting", ("orders.created",), "dead", 0, 0),
    ):
        s.create(
            ConsumerGroup,
            cluster_id=prod.id,
            group=grp,
            topic_ids=tuple(t[x].id for x in tops),
            state=state,
            members=members,
            lag=lag,
        )
