"""Stratus Compute: virtual machines, block volumes, security groups and snapshots in one cloud account.

Modeled on the Amazon EC2 API (DescribeInstanceTypes, RunInstances,
StopInstances, StartInstances, TerminateInstances with
DisableApiTermination, ModifyInstanceAttribute for the instance type,
CreateVolume, AttachVolume, DetachVolume, DeleteVolume, CreateSnapshot,
CreateSecurityGroup, AuthorizeSecurityGroupIngress,
RevokeSecurityGroupIngress and their error codes): instances move pending →
running ⇄ stopped → terminated through those calls only; running vCPUs are
capped by the account's quota; the instance type changes only while stopped
and must fit the image's architecture; a volume attaches only to an instance
in its availability zone, on a free device, up to the type's volume limit;
a running instance's root volume cannot be detached; only available volumes
are deleted; termination protection blocks termination; terminating deletes
the volumes marked delete-on-termination and frees the others; a security
group in use cannot be deleted and duplicate rules are refused.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import ExampleFn, Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Currency, DateTime, Email, IdOf, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "cloud",
    title="Stratus Compute",
    category="cloud_infrastructure",
    modeled_on="Amazon EC2 API 2016-11-15 (Instances, InstanceTypes, Volumes, Snapshots, SecurityGroups)",
    description="The company's cloud account: virtual machine instances and their lifecycle, instance types "
    "and prices, block storage volumes attached to instances, snapshots, firewall security groups and a "
    "monthly cost estimate by owner.",
)

TypeId = Annotated[str, IdOf("cloud.instance_type")]
InstanceId = Annotated[str, IdOf("cloud.instance")]
VolumeId = Annotated[str, IdOf("cloud.volume")]
GroupId = Annotated[str, IdOf("cloud.security_group")]
SnapshotId = Annotated[str, IdOf("cloud.snapshot")]

Zone = Literal["eu-central-1a", "eu-central-1b", "eu-central-1c"]
Arch = Literal["x86_64", "arm64"]
Image = Literal["ubuntu-24.04-x86_64", "ubuntu-24.04-arm64", "amazon-linux-2023-x86_64", "amazon-linux-2023-arm64"]
InstanceState = Literal["pending", "running", "stopping", "stopped", "shutting-down", "terminated"]
VolumeType = Literal["gp3", "io2", "st1", "sc1"]
Device = Annotated[str, StringConstraints(pattern=r"^/dev/(sd[f-p]|xvda)$")]
Cidr = Annotated[str, StringConstraints(pattern=r"^(\d{1,3}\.){3}\d{1,3}/\d{1,2}$")]
Ip = Annotated[str, StringConstraints(pattern=r"^(\d{1,3}\.){3}\d{1,3}$")]
TypeName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9]*\.[a-z0-9]+$")]
CostCenter = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9 &-]{0,39}$")]
ROOT_DEVICE = "/dev/xvda"
VCPU_QUOTA = 64
VOLUME_PRICE: dict[str, int] = {"gp3": 8, "io2": 13, "st1": 5, "sc1": 2}
"""Cents per GiB-month."""
SNAPSHOT_PRICE = 5
"""Cents per GiB-month."""
SIZE_LIMITS: dict[str, tuple[int, int]] = {
    "gp3": (1, 16384),
    "io2": (4, 16384),
    "st1": (125, 16384),
    "sc1": (125, 16384),
}


def _arch_of(image: str) -> str:
    return "arm64" if image.endswith("arm64") else "x86_64"


class InstanceType(Record):
    """A machine size and its price."""

    id: TypeId
    name: TypeName
    """Type name (t3.micro); unique."""
    vcpus: Annotated[int, Field(ge=1, le=192)]
    """Virtual CPUs."""
    memory_gib: Annotated[float, Field(gt=0, le=2048)]
    """Memory in GiB."""
    architecture: Arch
    """x86_64 or arm64; must match the image."""
    max_volumes: Annotated[int, Field(ge=1, le=40)] = 8
    """Most volumes attached at once, root included."""
    monthly_price: Cents
    """On-demand price for 730 running hours, in cents."""
    currency: Currency = "USD"
    """Price currency."""


class SecurityGroupRule(Value):
    """An inbound rule."""

    protocol: Literal["tcp", "udp", "icmp"] = Field(description="tcp, udp or icmp.")
    from_port: Annotated[int, Field(ge=0, le=65535)] = Field(description="First port.")
    to_port: Annotated[int, Field(ge=0, le=65535)] = Field(description="Last port (inclusive).")
    cidr: Cidr = Field(description="Source addresses (0.0.0.0/0 is everyone).")
    description: str = Field(default="", max_length=200, description="What the rule is for.")


class SecurityGroup(Created):
    """A firewall: the inbound traffic allowed to its instances."""

    id: GroupId
    name: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9 ._-]{1,64}$")]
    """Group name; unique."""
    description: Text
    """What it protects."""
    rules: list[SecurityGroupRule] = Field(default_factory=list, max_length=60)
    """Inbound rules."""


class Instance(Record):
    """A virtual machine."""

    id: InstanceId
    name: Title
    """The Name tag."""
    instance_type: TypeName
    """Its type's name."""
    image: Image
    """The machine image it was launched from."""
    architecture: Arch
    """The image's architecture."""
    availability_zone: Zone
    """Where it runs."""
    state: InstanceState = "running"
    """pending, running, stopping, stopped, shutting-down or terminated."""
    private_ip: Ip
    """Address inside the network."""
    public_ip: Ip | None = None
    """Internet address while running, if it has one."""
    security_group_ids: tuple[GroupId, ...] = ()
    """Its firewalls."""
    owner_email: Email
    """The Owner tag: the employee responsible for it."""
    cost_center: CostCenter = "Engineering"
    """The CostCenter tag."""
    termination_protection: bool = False
    """Whether termination is blocked (DisableApiTermination)."""
    launched_at: Annotated[DateTime, CREATED]
    """When it was launched."""
    state_changed_at: DateTime | None = None
    """When the state last changed."""


class Volume(Created):
    """A block storage volume."""

    id: VolumeId
    size_gib: Annotated[int, Field(ge=1, le=16384)]
    """Size in GiB."""
    volume_type: VolumeType = "gp3"
    """gp3 (general SSD), io2 (provisioned IOPS SSD), st1 (throughput HDD) or sc1 (cold HDD)."""
    iops: Annotated[int, Field(ge=100, le=256000)] | None = None
    """Provisioned IOPS (gp3 and io2)."""
    availability_zone: Zone
    """Where it lives; it attaches only to instances of this zone."""
    state: Literal["available", "in-use"] = "available"
    """available or in-use (attached)."""
    instance_id: InstanceId | None = None
    """The instance it is attached to."""
    device: Device | None = None
    """Device name on that instance."""
    is_root: bool = False
    """Whether it is its instance's root volume."""
    delete_on_termination: bool = False
    """Deleted when its instance terminates."""
    encrypted: bool = True
    """Encrypted at rest."""
    snapshot_id: SnapshotId | None = None
    """Snapshot it was created from."""
    owner_email: Email
    """The Owner tag."""


class Snapshot(Record):
    """A point-in-time copy of a volume."""

    id: SnapshotId
    volume_id: VolumeId
    """The volume copied (it may since have been deleted)."""
    size_gib: Annotated[int, Field(ge=1, le=16384)]
    """Size of the volume at the time."""
    encrypted: bool
    """Whether it is encrypted (like its volume)."""
    description: Text = ""
    """Description."""
    owner_email: Email
    """Who took it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was taken."""


# -- rules ------------------------------------------------------------------------------------


def _type(ctx: Ctx, name: str, field: str) -> InstanceType:
    t = ctx.first(InstanceType, name=name)
    if t is None:
        raise RuleViolation(
            f"InvalidInstanceType: no instance type {name}",
            field=field,
            hint="list types with cloud__list_instance_types",
        )
    return t


def _running_vcpus(ctx: Ctx) -> int:
    total = 0
    for inst in ctx.scan(Instance):
        if inst.state in ("pending", "running"):
            total += _type(ctx, inst.instance_type, "instance_type").vcpus
    return total


def _check_quota(ctx: Ctx, extra: int, field: str) -> None:
    used = _running_vcpus(ctx)
    if used + extra > VCPU_QUOTA:
        raise RuleViolation(
            f"VcpuLimitExceeded: {used} of {VCPU_QUOTA} vCPUs are running; {extra} more would exceed the quota",
            field=field,
            hint="stop or terminate other instances, or pick a smaller type",
        )


def _live(ctx: Ctx, instance_id: str, field: str = "instance_id") -> Instance:
    inst = ctx.get(Instance, instance_id, field=field)
    if inst.state == "terminated":
        raise RuleViolation(
            f"IncorrectInstanceState: instance {inst.id} is terminated",
            field=field,
            hint="terminated instances cannot be used; launch a new one",
        )
    return inst


def _groups(ctx: Ctx, ids: Any, field: str) -> tuple[str, ...]:
    for gid in ids:
        if ctx.find(SecurityGroup, gid) is None:
            raise RuleViolation(
                f"InvalidGroup.NotFound: {gid}", field=field, hint="list groups with cloud__list_security_groups"
            )
    return tuple(dict.fromkeys(ids))


def _guard_instance(ctx: Ctx, new: Any, old: Any) -> None:
    if old.state == "terminated":
        raise RuleViolation(
            f"instance {old.id} is terminated", field="instance_id", hint="terminated instances cannot change"
        )
    _groups(ctx, new.security_group_ids, "security_group_ids")


def _guard_volume_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.state != "available":
        raise RuleViolation(
            f"VolumeInUse: volume {old.id} is attached to {old.instance_id}",
            field="volume_id",
            hint="detach it with cloud__detach_volume first",
        )


def _guard_group_create(ctx: Ctx, new: Any, old: Any) -> None:
    if any(g.id != new.id and g.name == new.name for g in ctx.scan(SecurityGroup)):
        raise Conflict(
            f"InvalidGroup.Duplicate: a group named {new.name} exists", field="name", hint="pick another name"
        )
    for k, rule in enumerate(new.rules):
        _check_rule(rule, f"rules.{k}")


def _guard_group_delete(ctx: Ctx, new: Any, old: Any) -> None:
    users = [i.id for i in ctx.scan(Instance) if i.state != "terminated" and old.id in i.security_group_ids]
    if users:
        raise RuleViolation(
            f"DependencyViolation: group {old.name} is used by {', '.join(users)}",
            field="security_group_id",
            hint="remove it from those instances (cloud__update_instance) or terminate them first",
        )


def _check_rule(rule: SecurityGroupRule, field: str) -> None:
    if rule.from_port > rule.to_port:
        raise RuleViolation("from_port is above to_port", field=field, hint="give the lower port first")
    ip, bits = rule.cidr.split("/")
    if int(bits) > 32 or any(int(p) > 255 for p in ip.split(".")):
        raise RuleViolation(f"{rule.cidr} is not a valid IPv4 block", field=field, hint="e.g. 10.0.0.0/16")


types_ = service.resource(
    InstanceType,
    name="instance_type",
    plural="instance_types",
    prefix="it",
    create=False,
    get=False,
    filters=("name", "architecture", "vcpus"),
    delete=False,
    title="instance type",
)
groups = service.resource(
    SecurityGroup,
    name="security_group",
    plural="security_groups",
    prefix="sg",
    create=("name", "description", "rules"),
    get=False,
    filters=("name",),
    search=("name", "description"),
    guard_create=_guard_group_create,
    guard_delete=_guard_group_delete,
    title="security group",
)
instances = service.resource(
    Instance,
    name="instance",
    plural="instances",
    prefix="i",
    create=False,
    filters=("state", "instance_type", "availability_zone", "owner_email", "cost_center", "architecture"),
    search=("name",),
    update=("name", "security_group_ids", "owner_email", "cost_center", "termination_protection"),
    delete=False,
    guard_update=_guard_instance,
)
volumes = service.resource(
    Volume,
    name="volume",
    plural="volumes",
    prefix="vol",
    create=False,
    get=False,
    filters=("state", "instance_id", "is_root", "availability_zone", "volume_type", "owner_email", "snapshot_id"),
    guard_delete=_guard_volume_delete,
)
snapshots = service.resource(
    Snapshot,
    name="snapshot",
    plural="snapshots",
    prefix="snap",
    create=False,
    get=False,
    filters=("volume_id", "owner_email"),
    search=("description",),
)


# -- examples ---------------------------------------------------------------------------------


def _owner(ctx: Ctx) -> str:
    inst = ctx.first(Instance)
    return inst.owner_email if inst else "ops@example.com"


def _unprotected(state: str) -> ExampleFn:
    return first_example(Instance, "instance_id", where={"state": state, "termination_protection": False})


def _example_run(ctx: Ctx) -> dict[str, Any] | None:
    group = ctx.first(SecurityGroup)
    return {
        "name": "search-worker-1",
        "instance_type": "t4g.small",
        "image": "ubuntu-24.04-arm64",
        "availability_zone": "eu-central-1a",
        "owner_email": _owner(ctx),
        "security_group_ids": [group.id] if group else [],
    }


def _example_modify(ctx: Ctx) -> dict[str, Any] | None:
    for inst in ctx.where(Instance, state="stopped"):
        for t in ctx.where(InstanceType, architecture=inst.architecture):
            if t.name != inst.instance_type:
                return {"instance_id": inst.id, "instance_type": t.name}
    return None


def _example_volume(ctx: Ctx) -> dict[str, Any]:
    return {"size_gib": 100, "availability_zone": "eu-central-1a", "owner_email": _owner(ctx), "volume_type": "gp3"}


def _example_attach(ctx: Ctx) -> dict[str, Any] | None:
    for vol in ctx.where(Volume, state="available"):
        for inst in ctx.where(Instance, availability_zone=vol.availability_zone):
            if inst.state in ("running", "stopped"):
                used = {v.device for v in ctx.where(Volume, instance_id=inst.id)}
                device = next(f"/dev/sd{c}" for c in "fghijklmnop" if f"/dev/sd{c}" not in used)
                return {"volume_id": vol.id, "instance_id": inst.id, "device": device}
    return None


def _example_revoke(ctx: Ctx) -> dict[str, Any] | None:
    for g in ctx.scan(SecurityGroup):
        if g.rules:
            r = g.rules[0]
            return {
                "security_group_id": g.id,
                "protocol": r.protocol,
                "from_port": r.from_port,
                "to_port": r.to_port,
                "cidr": r.cidr,
            }
    return None


# -- domain tools -----------------------------------------------------------------------------


def _private_ip(ctx: Ctx, zone: str) -> str:
    subnet = {"eu-central-1a": 1, "eu-central-1b": 2, "eu-central-1c": 3}[zone]
    taken = {i.private_ip for i in ctx.scan(Instance)}
    n = len(taken) + 10
    while f"10.0.{subnet}.{n % 250 + 4}" in taken:
        n += 1
    return f"10.0.{subnet}.{n % 250 + 4}"


class Launch(BaseModel):
    """A launched instance and its root volume."""

    instance: Instance = Field(description="The instance.")
    root_volume: Volume = Field(description="Its root volume.")


@service.tool(intent="launch a virtual machine", write=True, example=_example_run)
def run_instance(
    ctx: Ctx,
    name: Title,
    instance_type: TypeName,
    image: Image,
    availability_zone: Zone,
    owner_email: Email,
    security_group_ids: list[GroupId] | None = None,
    root_volume_gib: Annotated[int, Field(ge=8, le=16384)] = 20,
    public_ip: bool = False,
    cost_center: CostCenter = "Engineering",
    termination_protection: bool = False,
) -> Launch:
    """Launch an instance with a gp3 root volume that is deleted when it terminates.

    The type's architecture must match the image's, and the running vCPUs must
    stay within the account's quota of 64.

    Args:
        name: Name tag.
        instance_type: Type name, e.g. t3.medium.
        image: Machine image.
        availability_zone: Zone to launch in.
        owner_email: E-mail of the employee responsible (Owner tag).
        security_group_ids: Firewalls to apply.
        root_volume_gib: Root volume size.
        public_ip: Give it an internet address.
        cost_center: CostCenter tag.
        termination_protection: Block termination.
    """
    t = _type(ctx, instance_type, "instance_type")
    arch = _arch_of(image)
    if t.architecture != arch:
        raise RuleViolation(
            f"InvalidParameterCombination: {t.name} is {t.architecture} but the image is {arch}",
            field="instance_type",
            hint=f"pick a {arch} type or an image for {t.architecture}",
        )
    groups_ = _groups(ctx, security_group_ids or (), "security_group_ids")
    _check_quota(ctx, t.vcpus, "instance_type")
    n = len(list(ctx.scan(Instance)))
    inst = ctx.create(
        Instance,
        name=name,
        instance_type=t.name,
        image=image,
        architecture=arch,
        availability_zone=availability_zone,
        state="running",
        private_ip=_private_ip(ctx, availability_zone),
        public_ip=f"3.120.{n // 200 + 1}.{n % 200 + 20}" if public_ip else None,
        security_group_ids=groups_,
        owner_email=owner_email,
        cost_center=cost_center,
        termination_protection=termination_protection,
        state_changed_at=ctx.now(),
    )
    root = ctx.create(
        Volume,
        size_gib=root_volume_gib,
        volume_type="gp3",
        iops=3000,
        availability_zone=availability_zone,
        state="in-use",
        instance_id=inst.id,
        device=ROOT_DEVICE,
        is_root=True,
        delete_on_termination=True,
        owner_email=owner_email,
    )
    return Launch(instance=inst, root_volume=root)


def _transition(ctx: Ctx, instance_id: str, source: tuple[str, ...], target: str, verb: str) -> Instance:
    inst = _live(ctx, instance_id)
    if inst.state not in source:
        raise RuleViolation(
            f"IncorrectInstanceState: cannot {verb} instance {inst.id} while it is {inst.state}",
            field="instance_id",
            hint=f"{verb} works on {' or '.join(source)} instances",
        )
    return ctx.update(inst, state=target, state_changed_at=ctx.now())


@service.tool(intent="stop the instance", write=True, example=_unprotected("running"))
def stop_instance(ctx: Ctx, instance_id: InstanceId) -> Instance:
    """Stop a running instance: it keeps its volumes and private address but loses its public address.

    Args:
        instance_id: The instance.
    """
    inst = _transition(ctx, instance_id, ("running",), "stopped", "stop")
    return ctx.update(inst, public_ip=None)


@service.tool(intent="start the instance", write=True, example=_unprotected("stopped"))
def start_instance(ctx: Ctx, instance_id: InstanceId) -> Instance:
    """Start a stopped instance, within the account's vCPU quota.

    Args:
        instance_id: The instance.
    """
    inst = _live(ctx, instance_id)
    if inst.state == "stopped":
        _check_quota(ctx, _type(ctx, inst.instance_type, "instance_id").vcpus, "instance_id")
    return _transition(ctx, instance_id, ("stopped",), "running", "start")


@service.tool(intent="terminate the instance", write=True, destructive=True, example=_unprotected("running"))
def terminate_instance(ctx: Ctx, instance_id: InstanceId) -> Instance:
    """Terminate an instance for good: delete-on-termination volumes are deleted, the others detached.

    Termination protection must be off.

    Args:
        instance_id: The instance.
    """
    inst = _live(ctx, instance_id)
    if inst.termination_protection:
        raise RuleViolation(
            f"OperationNotPermitted: instance {inst.id} has termination protection",
            field="instance_id",
            hint="turn it off with cloud__update_instance (termination_protection=false) first",
        )
    for vol in ctx.where(Volume, instance_id=inst.id):
        if vol.delete_on_termination:
            ctx.delete(vol)
        else:
            ctx.update(vol, state="available", instance_id=None, device=None)
    return ctx.update(inst, state="terminated", public_ip=None, state_changed_at=ctx.now())


@service.tool(intent="change the instance's type", write=True, example=_example_modify)
def modify_instance_type(ctx: Ctx, instance_id: InstanceId, instance_type: TypeName) -> Instance:
    """Change a stopped instance's type; the new type must have the image's architecture and hold its volumes.

    Args:
        instance_id: The instance (stopped).
        instance_type: The new type's name.
    """
    inst = _live(ctx, instance_id)
    if inst.state != "stopped":
        raise RuleViolation(
            f"IncorrectInstanceState: instance {inst.id} is {inst.state}; the type changes only while stopped",
            field="instance_id",
            hint="stop it with cloud__stop_instance first",
        )
    t = _type(ctx, instance_type, "instance_type")
    if t.architecture != inst.architecture:
        raise RuleViolation(
            f"{t.name} is {t.architecture} but the instance's image is {inst.architecture}",
            field="instance_type",
            hint=f"pick a {inst.architecture} type",
        )
    if len(ctx.where(Volume, instance_id=inst.id)) > t.max_volumes:
        raise RuleViolation(
            f"{t.name} holds at most {t.max_volumes} volumes", field="instance_type", hint="detach volumes first"
        )
    return ctx.update(inst, instance_type=t.name)


@service.tool(intent="create a storage volume", write=True, example=_example_volume)
def create_volume(
    ctx: Ctx,
    availability_zone: Zone,
    owner_email: Email,
    size_gib: Annotated[int, Field(ge=1, le=16384)] | None = None,
    volume_type: VolumeType = "gp3",
    iops: Annotated[int, Field(ge=100, le=256000)] | None = None,
    snapshot_id: SnapshotId | None = None,
    encrypted: bool = True,
) -> Volume:
    """Create an empty volume, or one restored from a snapshot (at least the snapshot's size).

    Size limits: gp3 1-16384 GiB, io2 4-16384, st1 and sc1 125-16384. io2 needs
    iops (at most 500 per GiB); gp3 takes 3000-16000 iops (default 3000); HDD types take none.

    Args:
        availability_zone: Zone of the volume.
        owner_email: E-mail of the employee responsible (Owner tag).
        size_gib: Size; omit to use the snapshot's size.
        volume_type: gp3, io2, st1 or sc1.
        iops: Provisioned IOPS.
        snapshot_id: Snapshot to restore.
        encrypted: Encrypt at rest (always true when restoring an encrypted snapshot).
    """
    snap = ctx.get(Snapshot, snapshot_id, field="snapshot_id") if snapshot_id else None
    size = size_gib if size_gib is not None else (snap.size_gib if snap else None)
    if size is None:
        raise RuleViolation("give size_gib or a snapshot_id", field="size_gib", hint="e.g. size_gib=100")
    if snap is not None and size < snap.size_gib:
        raise RuleViolation(
            f"the snapshot is {snap.size_gib} GiB; the volume cannot be smaller",
            field="size_gib",
            hint=f"use at least {snap.size_gib}",
        )
    lo, hi = SIZE_LIMITS[volume_type]
    if not lo <= size <= hi:
        raise RuleViolation(f"{volume_type} volumes are {lo}-{hi} GiB", field="size_gib", hint=f"pick {lo} to {hi}")
    if volume_type == "io2":
        if iops is None or iops > 500 * size:
            raise RuleViolation(
                "io2 volumes need iops, at most 500 per GiB", field="iops", hint=f"pass iops up to {500 * size}"
            )
    elif volume_type == "gp3":
        iops = iops or 3000
        if not 3000 <= iops <= 16000:
            raise RuleViolation("gp3 takes 3000 to 16000 iops", field="iops", hint="omit it for 3000")
    elif iops is not None:
        raise RuleViolation(f"{volume_type} volumes take no iops", field="iops", hint="omit iops")
    return ctx.create(
        Volume,
        size_gib=size,
        volume_type=volume_type,
        iops=iops,
        availability_zone=availability_zone,
        encrypted=encrypted or bool(snap and snap.encrypted),
        snapshot_id=snap.id if snap else None,
        owner_email=owner_email,
    )


@service.tool(intent="attach the volume to the instance", write=True, example=_example_attach)
def attach_volume(ctx: Ctx, volume_id: VolumeId, instance_id: InstanceId, device: Device) -> Volume:
    """Attach an available volume to a running or stopped instance of the same availability zone.

    The device must be free on the instance and the instance's type limits how many volumes it holds.

    Args:
        volume_id: The volume.
        instance_id: The instance.
        device: Device name (/dev/sdf to /dev/sdp).
    """
    vol = ctx.get(Volume, volume_id, field="volume_id")
    inst = _live(ctx, instance_id)
    if vol.state != "available":
        raise RuleViolation(
            f"VolumeInUse: volume {vol.id} is attached to {vol.instance_id}",
            field="volume_id",
            hint="detach it first",
        )
    if inst.state not in ("running", "stopped"):
        raise RuleViolation(
            f"IncorrectInstanceState: instance {inst.id} is {inst.state}",
            field="instance_id",
            hint="attach to running or stopped instances",
        )
    if vol.availability_zone != inst.availability_zone:
        raise RuleViolation(
            f"InvalidVolume.ZoneMismatch: volume is in {vol.availability_zone}, instance in {inst.availability_zone}",
            field="instance_id",
            hint="snapshot the volume and restore it in the instance's zone",
        )
    if device == ROOT_DEVICE:
        raise RuleViolation(f"{ROOT_DEVICE} is the root device", field="device", hint="use /dev/sdf to /dev/sdp")
    attached = ctx.where(Volume, instance_id=inst.id)
    if any(v.device == device for v in attached):
        raise Conflict(
            f"InvalidParameterValue: {device} is already in use on {inst.id}",
            field="device",
            hint="pick a free device name",
        )
    limit = _type(ctx, inst.instance_type, "instance_id").max_volumes
    if len(attached) >= limit:
        raise RuleViolation(
            f"AttachmentLimitExceeded: {inst.instance_type} holds {limit} volumes",
            field="instance_id",
            hint="detach a volume or change the type",
        )
    return ctx.update(vol, state="in-use", instance_id=inst.id, device=device)


@service.tool(
    intent="detach the volume",
    write=True,
    example=first_example(Volume, "volume_id", where={"state": "in-use", "is_root": False}),
)
def detach_volume(ctx: Ctx, volume_id: VolumeId) -> Volume:
    """Detach a volume from its instance; a running instance's root volume cannot be detached.

    Args:
        volume_id: The volume.
    """
    vol = ctx.get(Volume, volume_id, field="volume_id")
    if vol.state != "in-use" or vol.instance_id is None:
        raise RuleViolation(
            f"IncorrectState: volume {vol.id} is not attached", field="volume_id", hint="nothing to detach"
        )
    inst = ctx.get(Instance, vol.instance_id)
    if vol.is_root and inst.state != "stopped":
        raise RuleViolation(
            f"OperationNotPermitted: {vol.id} is the root volume of {inst.state} instance {inst.id}",
            field="volume_id",
            hint="stop the instance first",
        )
    return ctx.update(vol, state="available", instance_id=None, device=None, is_root=False)


@service.tool(
    intent="snapshot the volume",
    write=True,
    example=first_example(Volume, "volume_id", fields={"owner_email": "owner_email"}, description="Before upgrade"),
)
def create_snapshot(ctx: Ctx, volume_id: VolumeId, owner_email: Email, description: Text = "") -> Snapshot:
    """Take a snapshot of a volume (attached or not).

    Args:
        volume_id: The volume.
        owner_email: E-mail of who takes it.
        description: Why.
    """
    vol = ctx.get(Volume, volume_id, field="volume_id")
    return ctx.create(
        Snapshot,
        volume_id=vol.id,
        size_gib=vol.size_gib,
        encrypted=vol.encrypted,
        description=description,
        owner_email=owner_email,
    )


def _rule_args(protocol: str, from_port: int, to_port: int, cidr: str, description: str) -> SecurityGroupRule:
    rule = SecurityGroupRule(
        protocol=protocol,
        from_port=from_port,
        to_port=to_port,
        cidr=cidr,
        description=description,
    )
    _check_rule(rule, "from_port")
    return rule


def _same(a: SecurityGroupRule, b: SecurityGroupRule) -> bool:
    return (a.protocol, a.from_port, a.to_port, a.cidr) == (b.protocol, b.from_port, b.to_port, b.cidr)


@service.tool(
    intent="open a port in the security group",
    write=True,
    example=first_example(
        SecurityGroup, "security_group_id", protocol="tcp", from_port=8443, to_port=8443, cidr="10.20.0.0/16"
    ),
)
def authorize_ingress(
    ctx: Ctx,
    security_group_id: GroupId,
    protocol: Literal["tcp", "udp", "icmp"],
    from_port: Annotated[int, Field(ge=0, le=65535)],
    to_port: Annotated[int, Field(ge=0, le=65535)],
    cidr: Cidr,
    description: Annotated[str, StringConstraints(max_length=200)] = "",
) -> SecurityGroup:
    """Allow inbound traffic to a group's instances; the same rule twice is refused.

    Args:
        security_group_id: The group.
        protocol: tcp, udp or icmp.
        from_port: First port.
        to_port: Last port (inclusive).
        cidr: Source addresses.
        description: What the rule is for.
    """
    g = ctx.get(SecurityGroup, security_group_id, field="security_group_id")
    rule = _rule_args(protocol, from_port, to_port, cidr, description)
    if any(_same(rule, r) for r in g.rules):
        raise Conflict("InvalidPermission.Duplicate: the rule already exists", field="cidr", hint="nothing to do")
    if len(g.rules) >= 60:
        raise RuleViolation("RulesPerSecurityGroupLimitExceeded (60)", field="security_group_id", hint="remove a rule")
    return ctx.update(g, rules=[*g.rules, rule])


@service.tool(intent="close the port in the security group", write=True, example=_example_revoke)
def revoke_ingress(
    ctx: Ctx,
    security_group_id: GroupId,
    protocol: Literal["tcp", "udp", "icmp"],
    from_port: Annotated[int, Field(ge=0, le=65535)],
    to_port: Annotated[int, Field(ge=0, le=65535)],
    cidr: Cidr,
) -> SecurityGroup:
    """Remove an inbound rule (matched by protocol, ports and source).

    Args:
        security_group_id: The group.
        protocol: tcp, udp or icmp.
        from_port: First port.
        to_port: Last port.
        cidr: Source addresses.
    """
    g = ctx.get(SecurityGroup, security_group_id, field="security_group_id")
    rule = _rule_args(protocol, from_port, to_port, cidr, "")
    kept = [r for r in g.rules if not _same(rule, r)]
    if len(kept) == len(g.rules):
        raise RuleViolation(
            "InvalidPermission.NotFound: the group has no such rule",
            field="cidr",
            hint="list the group's rules with cloud__list_security_groups",
        )
    return ctx.update(g, rules=kept)


class OwnerCost(BaseModel):
    """The monthly cost of one owner's resources."""

    owner_email: Email = Field(description="The Owner tag.")
    instances: Cents = Field(description="Running instances at their monthly price, in cents.")
    volumes: Cents = Field(description="Volumes (GiB-month prices), in cents.")
    snapshots: Cents = Field(description="Snapshots (GiB-month), in cents.")
    total: Cents = Field(description="Sum, in cents.")


class CostEstimate(BaseModel):
    """Estimated monthly run-rate of the account."""

    currency: Currency = Field(description="Currency of the amounts.")
    by_owner: list[OwnerCost] = Field(description="Per owner, most expensive first.")
    total: Cents = Field(description="Total monthly cost, in cents.")
    running_vcpus: Quantity = Field(description="vCPUs running now.")
    vcpu_quota: Quantity = Field(description="The account's running vCPU quota.")


@service.tool(intent="estimate the monthly cloud cost")
def estimate_monthly_cost(ctx: Ctx, owner_email: Email | None = None) -> CostEstimate:
    """Estimate the monthly cost at today's usage: running instances, all volumes and snapshots, by owner.

    Stopped instances cost nothing, but their volumes do.

    Args:
        owner_email: Only this owner's resources; omit for everyone.
    """
    costs: dict[str, list[int]] = {}

    def add(owner: str, k: int, cents: int) -> None:
        if owner_email is None or owner == owner_email:
            costs.setdefault(owner, [0, 0, 0])[k] += cents

    for inst in ctx.where(Instance, state="running"):
        add(inst.owner_email, 0, _type(ctx, inst.instance_type, "owner_email").monthly_price)
    for vol in ctx.scan(Volume):
        add(vol.owner_email, 1, vol.size_gib * VOLUME_PRICE[vol.volume_type])
    for snap in ctx.scan(Snapshot):
        add(snap.owner_email, 2, snap.size_gib * SNAPSHOT_PRICE)
    rows = [
        OwnerCost(owner_email=o, instances=c[0], volumes=c[1], snapshots=c[2], total=sum(c)) for o, c in costs.items()
    ]
    rows.sort(key=lambda r: (-r.total, r.owner_email))
    return CostEstimate(
        currency="USD",
        by_owner=rows,
        total=sum(r.total for r in rows),
        running_vcpus=_running_vcpus(ctx),
        vcpu_quota=VCPU_QUOTA,
    )


# -- seed -------------------------------------------------------------------------------------

TYPES: tuple[tuple[str, int, float, Arch, int, int], ...] = (
    ("t3.micro", 2, 1.0, "x86_64", 759, 4),
    ("t3.medium", 2, 4.0, "x86_64", 3037, 8),
    ("m6i.large", 2, 8.0, "x86_64", 7008, 12),
    ("m6i.2xlarge", 8, 32.0, "x86_64", 28032, 16),
    ("c6i.4xlarge", 16, 32.0, "x86_64", 49640, 16),
    ("r6i.xlarge", 4, 32.0, "x86_64", 18396, 12),
    ("t4g.small", 2, 2.0, "arm64", 1226, 8),
    ("m7g.large", 2, 8.0, "arm64", 5964, 12),
)
MACHINES: tuple[tuple[str, str, Image, Zone, str, bool, bool], ...] = (
    # name, type, image, zone, state, public, protected
    ("web-app-1", "m6i.large", "ubuntu-24.04-x86_64", "eu-central-1a", "running", True, True),
    ("web-app-2", "m6i.large", "ubuntu-24.04-x86_64", "eu-central-1b", "running", True, True),
    ("api-server-1", "m7g.large", "amazon-linux-2023-arm64", "eu-central-1a", "running", False, True),
    ("billing-worker", "t3.medium", "amazon-linux-2023-x86_64", "eu-central-1b", "running", False, False),
    ("data-pipeline", "r6i.xlarge", "ubuntu-24.04-x86_64", "eu-central-1c", "stopped", False, False),
    ("bastion", "t3.micro", "amazon-linux-2023-x86_64", "eu-central-1a", "running", True, False),
    ("ci-runner-1", "c6i.4xlarge", "ubuntu-24.04-x86_64", "eu-central-1c", "running", False, False),
    ("staging-web", "t4g.small", "ubuntu-24.04-arm64", "eu-central-1a", "stopped", False, False),
    ("old-reporting", "t3.medium", "ubuntu-24.04-x86_64", "eu-central-1b", "terminated", False, False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Instance types, security groups, the company's machines in every state with volumes and snapshots."""
    pop = s.population
    _seed_instance_types(s)
    groups_ = _seed_security_groups(s)
    engineers = pop.staff("Engineering", fallback=4)
    ops = pop.staff("Operations", fallback=0) or engineers
    engineer_emails = [p.email for p in engineers]
    _seed_machines(s, groups_, engineer_emails, ops[0].email)
    _seed_spare_volumes(s, engineer_emails)


def _seed_instance_types(s: SeedContext) -> None:
    for name, vcpus, mem, arch, price, max_vols in TYPES:
        s.create(
            InstanceType,
            name=name,
            vcpus=vcpus,
            memory_gib=mem,
            architecture=arch,
            max_volumes=max_vols,
            monthly_price=price,
        )


def _seed_security_groups(s: SeedContext) -> dict[str, SecurityGroup]:
    """The groups by name; legacy-ftp is left without rules or instances."""
    web = s.create(
        SecurityGroup,
        name="web",
        description="Public HTTP and HTTPS",
        rules=[
            SecurityGroupRule(protocol="tcp", from_port=443, to_port=443, cidr="0.0.0.0/0", description="HTTPS"),
            SecurityGroupRule(protocol="tcp", from_port=80, to_port=80, cidr="0.0.0.0/0", description="HTTP"),
        ],
        created_at=s.ago(days=300),
    )
    ssh = s.create(
        SecurityGroup,
        name="bastion-ssh",
        description="SSH from the office",
        rules=[
            SecurityGroupRule(protocol="tcp", from_port=22, to_port=22, cidr="198.51.100.0/24", description="Office")
        ],
        created_at=s.ago(days=300),
    )
    internal = s.create(
        SecurityGroup,
        name="internal",
        description="Traffic inside the network",
        rules=[SecurityGroupRule(protocol="tcp", from_port=0, to_port=65535, cidr="10.0.0.0/16", description="VPC")],
        created_at=s.ago(days=300),
    )
    s.create(SecurityGroup, name="legacy-ftp", description="Old FTP access (unused)", created_at=s.ago(days=700))
    return {"web": web, "bastion-ssh": ssh, "internal": internal}


def _seed_machines(
    s: SeedContext, groups_: dict[str, SecurityGroup], engineer_emails: list[str], ops_email: str
) -> None:
    """The machines of MACHINES, each with its disks unless terminated; every fourth belongs to operations."""
    subnet = {"eu-central-1a": 1, "eu-central-1b": 2, "eu-central-1c": 3}
    web, ssh, internal = groups_["web"].id, groups_["bastion-ssh"].id, groups_["internal"].id
    for k, (name, type_name, image, zone, state, public, protected) in enumerate(MACHINES):
        owner = engineer_emails[k % len(engineer_emails)] if k % 4 != 3 else ops_email
        launched = s.ago(days=200 - 15 * k)
        group_ids = (
            (web, internal) if public and name.startswith("web") else ((ssh,) if name == "bastion" else (internal,))
        )
        inst = s.create(
            Instance,
            name=name,
            instance_type=type_name,
            image=image,
            architecture=_arch_of(image),
            availability_zone=zone,
            state=state,
            private_ip=f"10.0.{subnet[zone]}.{10 + k}",
            public_ip=f"3.120.1.{20 + k}" if public and state == "running" else None,
            security_group_ids=group_ids,
            owner_email=owner,
            cost_center="Operations" if owner == ops_email else "Engineering",
            termination_protection=protected,
            launched_at=launched,
            state_changed_at=launched if state == "running" else s.ago(days=3 + k),
        )
        if state != "terminated":
            _seed_disks(s, inst, k, launched)


def _seed_disks(s: SeedContext, inst: Instance, k: int, launched: dt.datetime) -> None:
    """The machine's root volume, a data volume for the busy ones, and their backups."""
    now, name, zone, owner = s.now, inst.name, inst.availability_zone, inst.owner_email
    root = s.create(
        Volume,
        size_gib=30 if "web" in name else 20,
        volume_type="gp3",
        iops=3000,
        availability_zone=zone,
        state="in-use",
        instance_id=inst.id,
        device=ROOT_DEVICE,
        is_root=True,
        delete_on_termination=True,
        owner_email=owner,
        created_at=launched,
    )
    if name in ("data-pipeline", "api-server-1", "ci-runner-1"):
        data = s.create(
            Volume,
            size_gib=500 if name == "data-pipeline" else 200,
            volume_type="st1" if name == "data-pipeline" else ("io2" if name == "api-server-1" else "gp3"),
            iops=None if name == "data-pipeline" else (8000 if name == "api-server-1" else 3000),
            availability_zone=zone,
            state="in-use",
            instance_id=inst.id,
            device="/dev/sdf",
            owner_email=owner,
            created_at=launched + dt.timedelta(days=1),
        )
        s.create(
            Snapshot,
            volume_id=data.id,
            size_gib=data.size_gib,
            encrypted=True,
            description=f"Nightly backup of {name}",
            owner_email=owner,
            created_at=now - dt.timedelta(days=1),
        )
    if k == 0:
        s.create(
            Snapshot,
            volume_id=root.id,
            size_gib=root.size_gib,
            encrypted=True,
            description="Golden image before the OS upgrade",
            owner_email=owner,
            created_at=now - dt.timedelta(days=40),
        )


def _seed_spare_volumes(s: SeedContext, engineer_emails: list[str]) -> None:
    """Two unattached volumes nobody cleaned up."""
    for k, (size, vtype, spare_zone) in enumerate(((100, "gp3", "eu-central-1a"), (250, "sc1", "eu-central-1b"))):
        s.create(
            Volume,
            size_gib=size,
            volume_type=vtype,
            iops=3000 if vtype == "gp3" else None,
            availability_zone=spare_zone,
            state="available",
            owner_email=engineer_emails[(k + 1) % len(engineer_emails)],
            created_at=s.ago(days=30 + k),
        )
