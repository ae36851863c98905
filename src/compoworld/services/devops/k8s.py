"""Helm Cluster: the company's Kubernetes cluster: namespaces, deployments, pods, services, config maps, jobs.

Modeled on the Kubernetes API (core/v1 Namespace, ResourceQuota, Pod, Service,
ConfigMap; apps/v1 Deployment with rollout history, kubectl rollout
pause/resume/undo and scale; batch/v1 Job). Names are DNS labels unique within
their namespace; namespace names are unique and default and kube-system cannot
be deleted; deleting a namespace deletes everything in it. A namespace's
ResourceQuota caps the CPU, memory and pod count of its live pods: scaling up,
rolling out or starting a job that would exceed it is refused ("exceeded
quota"). A deployment keeps its revision history: setting a new image rolls
out a new revision and replaces its pods; undo rolls back to an earlier
revision (which becomes the newest), and a paused deployment can be neither
rolled out nor rolled back until resumed. A deleted pod of a deployment is
replaced by a new one. Services select a deployment's pods; NodePorts are in
30000-32767 and unique in the cluster. An immutable config map cannot change.
Jobs run pods up to their parallelism and can be suspended and resumed.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf
from compoworld.services.devops._shared import org_handle
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "k8s",
    title="Helm Cluster",
    category="container_orchestration",
    modeled_on="Kubernetes API (v1 namespaces, resourcequotas, pods, services, configmaps; apps/v1 deployments "
    "with scale, rollout history, pause/resume and undo; batch/v1 jobs with suspend)",
    description="The company's Kubernetes cluster: team namespaces with resource quotas, deployments with replicas, "
    "image rollouts and rollbacks, their pods and phases, services exposing them, config maps and batch jobs.",
)

NamespaceId = Annotated[str, IdOf("k8s.namespace")]
DeploymentId = Annotated[str, IdOf("k8s.deployment")]
PodId = Annotated[str, IdOf("k8s.pod")]
K8sServiceId = Annotated[str, IdOf("k8s.service")]
ConfigMapId = Annotated[str, IdOf("k8s.config_map")]
JobId = Annotated[str, IdOf("k8s.job")]

Name = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")]
"""A DNS label: lower-case letters, digits and dashes, at most 63 characters."""
Image = Annotated[str, StringConstraints(pattern=r"^[a-z0-9.\-/]+(:[A-Za-z0-9._\-]{1,128})$")]
"""A container image with its tag, e.g. registry.example.com/acme/api:1.4.2."""
Millicores = Annotated[int, Field(ge=1, le=256000)]
"""CPU in millicores (1000 = one core)."""
Mebibytes = Annotated[int, Field(ge=1, le=1048576)]
"""Memory in MiB."""
Replicas = Annotated[int, Field(ge=0, le=100)]
"""A replica count."""
Port = Annotated[int, Field(ge=1, le=65535)]
"""A TCP port."""

PodPhase = Literal["Pending", "Running", "Succeeded", "Failed"]
ServiceType = Literal["ClusterIP", "NodePort", "LoadBalancer"]
JobStatus = Literal["Running", "Suspended", "Complete", "Failed"]
SYSTEM = ("default", "kube-system")
LIVE: tuple[PodPhase, ...] = ("Pending", "Running")
NODES = ("node-a1", "node-a2", "node-b1", "node-b2")
JOB_POD_PHASE: dict[str, PodPhase] = {"Complete": "Succeeded", "Failed": "Failed", "Running": "Running"}


class Namespace(Record):
    """A namespace with its resource quota."""

    id: NamespaceId
    name: Name
    """The namespace's name (unique)."""
    team_email: Email | None = None
    """The employee whose team owns it."""
    cpu_quota_m: Millicores = 8000
    """ResourceQuota requests.cpu, in millicores."""
    memory_quota_mib: Mebibytes = 16384
    """ResourceQuota requests.memory, in MiB."""
    pods_quota: Annotated[int, Field(ge=1, le=1000)] = 30
    """ResourceQuota pods."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Revision(Value):
    """One entry of a deployment's rollout history."""

    revision: int
    """The revision number."""
    image: Image
    """The image it ran."""
    change_cause: str
    """Why it was rolled out."""


class Deployment(Record):
    """A deployment: a replicated set of pods running one image, rolled out by revision."""

    id: DeploymentId
    namespace: Name
    """Its namespace."""
    name: Name
    """Its name (unique in the namespace); its pods carry the label app=<name>."""
    image: Image
    """The image of the current revision."""
    replicas: Replicas = 1
    """Desired pods."""
    cpu_request_m: Millicores = 250
    """CPU each pod requests."""
    memory_request_mib: Mebibytes = 256
    """Memory each pod requests."""
    revision: int = 1
    """The current revision."""
    history: tuple[Revision, ...] = ()
    """Rollout history, oldest first."""
    paused: bool = False
    """Whether rollouts are paused."""
    owner_email: Email | None = None
    """The employee responsible for it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Pod(Record):
    """A pod of a deployment or a job."""

    id: PodId
    namespace: Name
    """Its namespace."""
    name: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][-a-z0-9]{0,252}$")]
    """Its generated name."""
    deployment_id: DeploymentId | None = None
    """The deployment that owns it."""
    job_id: JobId | None = None
    """The job that owns it."""
    image: Image
    """The image it runs."""
    phase: PodPhase = "Running"
    """Pending, Running, Succeeded or Failed."""
    node: str = "node-a1"
    """The node it is scheduled on."""
    cpu_request_m: Millicores
    """CPU it requests."""
    memory_request_mib: Mebibytes
    """Memory it requests."""
    started_at: Annotated[DateTime, CREATED]
    """When it started."""


class KService(Record):
    """A service exposing a deployment's pods."""

    id: K8sServiceId
    namespace: Name
    """Its namespace."""
    name: Name
    """Its name (unique in the namespace)."""
    type: ServiceType = "ClusterIP"
    """ClusterIP, NodePort or LoadBalancer."""
    selector_app: Name
    """The app label it selects (a deployment's name)."""
    port: Port
    """The service port."""
    target_port: Port
    """The container port."""
    node_port: Annotated[int, Field(ge=30000, le=32767)] | None = None
    """The node port (NodePort and LoadBalancer)."""
    cluster_ip: str
    """Its cluster IP."""
    external_ip: str | None = None
    """The load balancer's address."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class ConfigMap(Record):
    """Configuration data a namespace's pods read."""

    id: ConfigMapId
    namespace: Name
    """Its namespace."""
    name: Name
    """Its name (unique in the namespace)."""
    data: dict[str, str] = Field(default_factory=dict)
    """Key-value configuration."""
    immutable: bool = False
    """Whether its data can no longer change."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Job(Record):
    """A batch job that runs pods to completion."""

    id: JobId
    namespace: Name
    """Its namespace."""
    name: Name
    """Its name (unique in the namespace)."""
    image: Image
    """The image it runs."""
    completions: Annotated[int, Field(ge=1, le=100)] = 1
    """Successful pods needed."""
    parallelism: Annotated[int, Field(ge=1, le=20)] = 1
    """Pods at once."""
    backoff_limit: Annotated[int, Field(ge=0, le=20)] = 6
    """Failures before the job fails."""
    succeeded: int = 0
    """Pods that succeeded."""
    failed: int = 0
    """Pods that failed."""
    status: JobStatus = "Running"
    """Running, Suspended, Complete or Failed."""
    cpu_request_m: Millicores = 500
    """CPU each pod requests."""
    memory_request_mib: Mebibytes = 512
    """Memory each pod requests."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Usage(Value):
    """A namespace's quota use."""

    namespace: Name
    """The namespace."""
    cpu_used_m: int
    """CPU requested by live pods."""
    cpu_quota_m: int
    """The CPU quota."""
    memory_used_mib: int
    """Memory requested by live pods."""
    memory_quota_mib: int
    """The memory quota."""
    pods_used: int
    """Live pods."""
    pods_quota: int
    """The pod quota."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a cluster user", field=field, hint="use an employee's e-mail")


def _ns(ctx: Ctx, name: str, field: str = "namespace") -> Namespace:
    ns = ctx.first(Namespace, name=name)
    if ns is None:
        raise RuleViolation(f'namespaces "{name}" not found', field=field, hint="list them with k8s__list_namespaces")
    return ns


def _free_name(ctx: Ctx, model: type[Record], namespace: str, name: str) -> None:
    if ctx.first(model, namespace=namespace, name=name) is not None:
        kind = model.__name__.lower().replace("kservice", "service")
        raise Conflict(f'{kind} "{name}" already exists in {namespace}', field="name", hint="pick another name")


def usage_of(ctx: Ctx, ns: Namespace) -> Usage:
    """What the namespace's live pods request against its quota."""
    live = [p for p in ctx.where(Pod, namespace=ns.name) if p.phase in LIVE]
    return Usage(
        namespace=ns.name,
        cpu_used_m=sum(p.cpu_request_m for p in live),
        cpu_quota_m=ns.cpu_quota_m,
        memory_used_mib=sum(p.memory_request_mib for p in live),
        memory_quota_mib=ns.memory_quota_mib,
        pods_used=len(live),
        pods_quota=ns.pods_quota,
    )


def _fits(ctx: Ctx, namespace: str, pods: int, cpu: int, mem: int, field: str) -> None:
    if pods <= 0:
        return
    use = usage_of(ctx, _ns(ctx, namespace))
    for what, used, quota in (
        ("pods", use.pods_used + pods, use.pods_quota),
        ("requests.cpu", use.cpu_used_m + pods * cpu, use.cpu_quota_m),
        ("requests.memory", use.memory_used_mib + pods * mem, use.memory_quota_mib),
    ):
        if used > quota:
            raise RuleViolation(
                f"exceeded quota in {namespace}: {what} would be {used}, limited to {quota}",
                field=field,
                hint="scale something down or raise the namespace quota with k8s__update_namespace",
            )


def _spawn(ctx: Ctx, owner: Deployment | Job, count: int, image: str) -> None:
    for _ in range(count):
        n = ctx.next_number(Pod, "name")
        ctx.create(
            Pod,
            namespace=owner.namespace,
            name=f"{owner.name}-{n * 7919 % 1048576:05x}",
            deployment_id=owner.id if isinstance(owner, Deployment) else None,
            job_id=owner.id if isinstance(owner, Job) else None,
            image=image,
            node=NODES[n % len(NODES)],
            cpu_request_m=owner.cpu_request_m,
            memory_request_mib=owner.memory_request_mib,
        )


def _guard_namespace(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.team_email, "team_email")
    use = usage_of(ctx, new)
    used = {"cpu_quota_m": use.cpu_used_m, "memory_quota_mib": use.memory_used_mib, "pods_quota": use.pods_used}
    over = [f for f, n in used.items() if n > getattr(new, f)]
    if over:
        raise RuleViolation(
            f"namespace {new.name} already uses {used[over[0]]}, over that {over[0]}",
            field=over[0],
            hint="see k8s__namespace_usage and scale down first",
        )


def _guard_namespace_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.name in SYSTEM:
        raise RuleViolation(f"namespace {old.name} is a system namespace", field="namespace_id", hint="keep it")
    for model in (Pod, Deployment, KService, ConfigMap, Job):
        for rec in ctx.where(model, namespace=old.name):
            ctx.delete(rec)


def _guard_owner_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for pod in ctx.where(Pod, **{"deployment_id" if isinstance(old, Deployment) else "job_id": old.id}):
        ctx.delete(pod)


def _guard_job(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "Suspended":
        for pod in ctx.where(Pod, job_id=new.id):
            if pod.phase in LIVE:
                ctx.delete(pod)
    elif new.status == "Running" and old.status == "Suspended":
        count = min(new.parallelism, new.completions - new.succeeded)
        _fits(ctx, new.namespace, count, new.cpu_request_m, new.memory_request_mib, "job_id")
        _spawn(ctx, new, count, new.image)


def _guard_config(ctx: Ctx, new: Any, old: Any) -> None:
    bad = [k for k in new.data if not k or not all(c.isalnum() or c in "-_." for c in k)]
    if bad:
        raise RuleViolation(f"invalid config key {bad[0]!r}", field="data", hint="use letters, digits, -, _ and .")
    if old is not None and old.immutable:
        raise RuleViolation(
            f"config map {old.name} is immutable", field="config_map_id", hint="create a new config map instead"
        )


namespaces = service.resource(
    Namespace,
    name="namespace",
    plural="namespaces",
    prefix="ns",
    create=False,
    filters=("name", "team_email"),
    search=("name",),
    update=("team_email", "cpu_quota_m", "memory_quota_mib", "pods_quota"),
    guard_update=_guard_namespace,
    guard_delete=_guard_namespace_delete,
)
deployments = service.resource(
    Deployment,
    name="deployment",
    plural="deployments",
    prefix="deploy",
    create=False,
    filters=("namespace", "name", "paused", "owner_email", "image"),
    search=("name", "image"),
    transitions={
        "pause": Transition("paused", (False,), True, "pause the rollout of the deployment"),
        "resume": Transition("paused", (True,), False, "resume the rollout of the deployment"),
    },
    guard_delete=_guard_owner_delete,
)
pods = service.resource(
    Pod,
    name="pod",
    plural="pods",
    prefix="pod",
    create=False,
    filters=("namespace", "deployment_id", "job_id", "phase", "node", "name"),
    search=("name", "image"),
    delete=False,
)
k8s_services = service.resource(
    KService,
    name="service",
    plural="services",
    prefix="svc",
    create=False,
    filters=("namespace", "type", "selector_app", "name"),
    search=("name",),
)
config_maps = service.resource(
    ConfigMap,
    name="config_map",
    plural="config_maps",
    prefix="cm",
    create=False,
    filters=("namespace", "name", "immutable"),
    search=("name",),
    update=("data", "immutable"),
    guard_update=_guard_config,
    title="config map",
)
jobs = service.resource(
    Job,
    name="job",
    plural="jobs",
    prefix="job",
    create=False,
    filters=("namespace", "status", "name"),
    search=("name", "image"),
    transitions={
        "suspend": Transition("status", ("Running",), "Suspended", "suspend the job"),
        "resume": Transition("status", ("Suspended",), "Running", "resume the job"),
    },
    guard_update=_guard_job,
    guard_delete=_guard_owner_delete,
)


# -- namespaces -------------------------------------------------------------------------------


@service.tool(
    intent="create the namespace",
    write=True,
    example=fixed_example(name="analytics", cpu_quota_m=4000, memory_quota_mib=8192, pods_quota=20),
)
def create_namespace(
    ctx: Ctx,
    name: Name,
    team_email: Email | None = None,
    cpu_quota_m: Millicores = 8000,
    memory_quota_mib: Mebibytes = 16384,
    pods_quota: Annotated[int, Field(ge=1, le=1000)] = 30,
) -> Namespace:
    """Create a namespace with its resource quota; names are unique in the cluster.

    Args:
        name: A DNS label.
        team_email: The employee whose team owns it.
        cpu_quota_m: CPU quota in millicores.
        memory_quota_mib: Memory quota in MiB.
        pods_quota: Most live pods.
    """
    if ctx.first(Namespace, name=name) is not None:
        raise Conflict(f'namespaces "{name}" already exists', field="name", hint="pick another name")
    _staff(ctx, team_email, "team_email")
    return ctx.create(
        Namespace,
        name=name,
        team_email=team_email,
        cpu_quota_m=cpu_quota_m,
        memory_quota_mib=memory_quota_mib,
        pods_quota=pods_quota,
    )


@service.tool(intent="show the namespace's quota usage", example=first_example(Namespace, "namespace_id"))
def namespace_usage(ctx: Ctx, namespace_id: NamespaceId) -> Usage:
    """CPU, memory and pods the namespace's live pods use against its quota.

    Args:
        namespace_id: The namespace.
    """
    return usage_of(ctx, ctx.get(Namespace, namespace_id, field="namespace_id"))


# -- deployments ------------------------------------------------------------------------------


@service.tool(
    intent="create the deployment",
    write=True,
    example=fixed_example(namespace="web", name="docs-site", image="nginx:1.27", cpu_request_m=100),
)
def create_deployment(
    ctx: Ctx,
    namespace: Name,
    name: Name,
    image: Image,
    replicas: Replicas = 1,
    cpu_request_m: Millicores = 250,
    memory_request_mib: Mebibytes = 256,
    owner_email: Email | None = None,
) -> Deployment:
    """Create a deployment and its pods (revision 1) within the namespace's quota.

    Args:
        namespace: The namespace's name.
        name: A DNS label unique in the namespace.
        image: The container image with its tag.
        replicas: Desired pods.
        cpu_request_m: CPU each pod requests, in millicores.
        memory_request_mib: Memory each pod requests, in MiB.
        owner_email: The employee responsible.
    """
    _ns(ctx, namespace)
    _free_name(ctx, Deployment, namespace, name)
    _staff(ctx, owner_email, "owner_email")
    _fits(ctx, namespace, replicas, cpu_request_m, memory_request_mib, "replicas")
    dep = ctx.create(
        Deployment,
        namespace=namespace,
        name=name,
        image=image,
        replicas=replicas,
        cpu_request_m=cpu_request_m,
        memory_request_mib=memory_request_mib,
        history=(Revision(revision=1, image=image, change_cause="initial"),),
        owner_email=owner_email,
    )
    _spawn(ctx, dep, replicas, image)
    return dep


def _live_pods(ctx: Ctx, dep: Deployment) -> list[Pod]:
    return [p for p in ctx.where(Pod, deployment_id=dep.id) if p.phase in LIVE]


@service.tool(
    intent="scale the deployment",
    write=True,
    example=first_example(Deployment, "deployment_id", where={"namespace": "web"}, replicas=2),
)
def scale_deployment(ctx: Ctx, deployment_id: DeploymentId, replicas: Replicas) -> Deployment:
    """Set a deployment's replicas: pods are added within the quota, or removed.

    Args:
        deployment_id: The deployment.
        replicas: Desired pods (0 scales it to zero).
    """
    dep = ctx.get(Deployment, deployment_id, field="deployment_id")
    if replicas == dep.replicas:
        raise Conflict(f"deployment {dep.name} already has {replicas} replicas", field="replicas", hint="no change")
    live = _live_pods(ctx, dep)
    extra = replicas - len(live)
    _fits(ctx, dep.namespace, extra, dep.cpu_request_m, dep.memory_request_mib, "replicas")
    if extra > 0:
        _spawn(ctx, dep, extra, dep.image)
    for pod in live[replicas:]:
        ctx.delete(pod)
    return ctx.update(dep, replicas=replicas)


def _rollout(ctx: Ctx, dep: Deployment, image: str, cause: str, field: str) -> Deployment:
    if dep.paused:
        raise RuleViolation(
            f"deployment {dep.name} is paused", field=field, hint="resume it with k8s__resume_deployment first"
        )
    number = max(r.revision for r in dep.history) + 1 if dep.history else dep.revision + 1
    for pod in _live_pods(ctx, dep):
        ctx.delete(pod)
    _spawn(ctx, dep, dep.replicas, image)
    history = (*dep.history, Revision(revision=number, image=image, change_cause=cause))
    return ctx.update(dep, image=image, revision=number, history=history[-10:])


@service.tool(
    intent="roll out a new image of the deployment",
    write=True,
    example=first_example(Deployment, "deployment_id", where={"paused": False}, image="nginx:1.27.1"),
)
def set_image(ctx: Ctx, deployment_id: DeploymentId, image: Image, change_cause: str = "") -> Deployment:
    """Roll out a new image: a new revision whose pods replace the old ones.

    Args:
        deployment_id: The deployment.
        image: The new image with its tag (must differ from the current one).
        change_cause: Why, kept in the rollout history.
    """
    dep = ctx.get(Deployment, deployment_id, field="deployment_id")
    if image == dep.image:
        raise Conflict(f"deployment {dep.name} already runs {image}", field="image", hint="give a new tag")
    return _rollout(ctx, dep, image, change_cause or f"set image {image}", "deployment_id")


def _example_undo(ctx: Ctx) -> dict[str, Any] | None:
    for dep in ctx.where(Deployment, paused=False):
        if len(dep.history) >= 2:
            return {"deployment_id": dep.id, "to_revision": dep.history[-2].revision}
    return None


@service.tool(intent="roll back the deployment", write=True, example=_example_undo)
def rollback_deployment(ctx: Ctx, deployment_id: DeploymentId, to_revision: int | None = None) -> Deployment:
    """Undo a rollout: roll back to an earlier revision (default: the previous), which becomes the newest.

    Args:
        deployment_id: The deployment.
        to_revision: A revision in its history other than the current one; omit for the previous.
    """
    dep = ctx.get(Deployment, deployment_id, field="deployment_id")
    older = [r for r in dep.history if r.revision != dep.revision]
    if not older:
        raise RuleViolation(
            f"no rollout history found for deployment {dep.name}", field="deployment_id", hint="nothing to undo"
        )
    target = older[-1] if to_revision is None else next((r for r in older if r.revision == to_revision), None)
    if target is None:
        raise RuleViolation(
            f"unable to find specified revision {to_revision} in history",
            field="to_revision",
            hint=f"pick one of {[r.revision for r in older]}",
        )
    return _rollout(ctx, dep, target.image, f"rollback to revision {target.revision}", "deployment_id")


@service.tool(
    intent="delete the pod",
    write=True,
    destructive=True,
    example=first_example(Pod, "pod_id", where={"phase": "Running"}),
)
def delete_pod(ctx: Ctx, pod_id: PodId) -> Pod:
    """Delete a pod; a live pod of a deployment is replaced by a new one.

    Args:
        pod_id: The pod.
    """
    pod = ctx.get(Pod, pod_id, field="pod_id")
    ctx.delete(pod)
    if pod.deployment_id is not None and pod.phase in LIVE:
        dep = ctx.get(Deployment, pod.deployment_id)
        _spawn(ctx, dep, 1, dep.image)
    return pod


# -- services, config maps, jobs --------------------------------------------------------------


@service.tool(
    intent="expose the deployment as a service",
    write=True,
    example=fixed_example(namespace="web", name="docs", selector_app="storefront", port=80, target_port=8080),
)
def create_service(
    ctx: Ctx,
    namespace: Name,
    name: Name,
    selector_app: Name,
    port: Port,
    target_port: Port,
    type: ServiceType = "ClusterIP",
    node_port: Annotated[int, Field(ge=30000, le=32767)] | None = None,
) -> KService:
    """Create a service selecting a deployment's pods; NodePort and LoadBalancer take a node port.

    Args:
        namespace: The namespace's name.
        name: A DNS label unique in the namespace.
        selector_app: The deployment whose pods it selects (its name, in the same namespace).
        port: The service port.
        target_port: The container port.
        type: ClusterIP, NodePort or LoadBalancer.
        node_port: 30000-32767, unique in the cluster (NodePort, LoadBalancer; omit to allocate one).
    """
    _ns(ctx, namespace)
    _free_name(ctx, KService, namespace, name)
    if ctx.first(Deployment, namespace=namespace, name=selector_app) is None:
        raise RuleViolation(
            f'no deployment "{selector_app}" in {namespace}', field="selector_app", hint="expose an existing one"
        )
    if type == "ClusterIP" and node_port is not None:
        raise RuleViolation("a ClusterIP service has no node port", field="node_port", hint="omit it")
    if type != "ClusterIP":
        taken = {s.node_port for s in ctx.scan(KService) if s.node_port is not None}
        if node_port in taken:
            raise Conflict(f"provided port {node_port} is already allocated", field="node_port", hint="pick another")
        node_port = node_port or next(p for p in range(30000, 32768) if p not in taken)
    n = ctx.next_number(KService, "ip")
    return ctx.create(
        KService,
        namespace=namespace,
        name=name,
        type=type,
        selector_app=selector_app,
        port=port,
        target_port=target_port,
        node_port=node_port,
        cluster_ip=f"10.96.{n // 250}.{n % 250 + 2}",
        external_ip=f"203.0.113.{n % 250 + 2}" if type == "LoadBalancer" else None,
    )


@service.tool(
    intent="create the config map",
    write=True,
    example=fixed_example(namespace="web", name="feature-toggles", data={"NEW_CHECKOUT": "true"}),
)
def create_config_map(
    ctx: Ctx, namespace: Name, name: Name, data: dict[str, str], immutable: bool = False
) -> ConfigMap:
    """Create a config map in a namespace (keys: letters, digits, -, _ and .).

    Args:
        namespace: The namespace's name.
        name: A DNS label unique in the namespace.
        data: Key-value configuration.
        immutable: Whether its data is frozen from now on.
    """
    _ns(ctx, namespace)
    _free_name(ctx, ConfigMap, namespace, name)
    made = ctx.create(ConfigMap, namespace=namespace, name=name, data=data, immutable=immutable)
    _guard_config(ctx, made, None)
    return made


@service.tool(
    intent="run the job",
    write=True,
    example=fixed_example(namespace="data", name="backfill-orders", image="python:3.12", completions=2),
)
def create_job(
    ctx: Ctx,
    namespace: Name,
    name: Name,
    image: Image,
    completions: Annotated[int, Field(ge=1, le=100)] = 1,
    parallelism: Annotated[int, Field(ge=1, le=20)] = 1,
    backoff_limit: Annotated[int, Field(ge=0, le=20)] = 6,
) -> Job:
    """Start a job: it runs up to its parallelism of pods within the namespace's quota.

    Args:
        namespace: The namespace's name.
        name: A DNS label unique in the namespace.
        image: The image with its tag.
        completions: Successful pods needed.
        parallelism: Pods at once (at most the completions).
        backoff_limit: Failures before the job fails.
    """
    _ns(ctx, namespace)
    _free_name(ctx, Job, namespace, name)
    if parallelism > completions:
        raise RuleViolation("parallelism exceeds completions", field="parallelism", hint=f"use at most {completions}")
    _fits(ctx, namespace, parallelism, 500, 512, "parallelism")
    job = ctx.create(
        Job,
        namespace=namespace,
        name=name,
        image=image,
        completions=completions,
        parallelism=parallelism,
        backoff_limit=backoff_limit,
    )
    _spawn(ctx, job, parallelism, image)
    return job


# -- seed -------------------------------------------------------------------------------------

APPS: tuple[tuple[str, str, str, tuple[str, ...], int, int, int], ...] = (
    ("web", "storefront", "storefront", ("2.3.0", "2.4.0", "2.4.1"), 3, 250, 256),
    ("web", "api-gateway", "gateway", ("1.8.2", "1.9.0"), 2, 500, 512),
    ("payments", "payments-api", "payments-api", ("4.0.3", "4.1.0"), 2, 500, 1024),
    ("payments", "ledger-worker", "ledger", ("0.9.1",), 1, 250, 512),
    ("data", "etl-scheduler", "etl", ("3.2.0",), 1, 1000, 2048),
    ("kube-system", "coredns", "coredns", ("1.11.1",), 2, 100, 70),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Team namespaces with quotas, deployments with rollout histories, their pods, services, config and jobs."""
    pop = s.population
    registry = f"registry.{pop.home.domain}/{org_handle(pop)}"
    eng = pop.staff("Engineering", "IT", fallback=4)
    quotas = {
        "default": (4000, 8192, 20),
        "kube-system": (4000, 4096, 20),
        "web": (8000, 16384, 30),
        "payments": (4000, 8192, 12),
        "data": (4000, 8192, 10),
    }
    for k, (name, (cpu, mem, pods_q)) in enumerate(quotas.items()):
        s.create(
            Namespace,
            name=name,
            team_email=None if name in SYSTEM else eng[k % len(eng)].email,
            cpu_quota_m=cpu,
            memory_quota_mib=mem,
            pods_quota=pods_q,
            created_at=s.ago(days=500 - 40 * k),
        )
    for k, (ns, name, repo, tags, replicas, cpu, mem) in enumerate(APPS):
        image_of = [
            f"registry.k8s.io/coredns/coredns:v{t}" if ns == "kube-system" else f"{registry}/{repo}:{t}" for t in tags
        ]
        history = tuple(
            Revision(revision=i + 1, image=img, change_cause="initial" if i == 0 else f"set image {img}")
            for i, img in enumerate(image_of)
        )
        dep = s.create(
            Deployment,
            namespace=ns,
            name=name,
            image=image_of[-1],
            replicas=replicas,
            cpu_request_m=cpu,
            memory_request_mib=mem,
            revision=len(history),
            history=history,
            paused=name == "ledger-worker",
            owner_email=None if ns in SYSTEM else eng[k % len(eng)].email,
            created_at=s.ago(days=300 - 20 * k),
            updated_at=s.ago(days=3 + k),
        )
        for r in range(replicas):
            _seed_pod(s, dep, "Running", s.ago(days=3 + k, hours=r))
        if ns != "kube-system":
            s.create(
                KService,
                namespace=ns,
                name=name,
                type="LoadBalancer" if name == "storefront" else "ClusterIP",
                selector_app=name,
                port=80 if name == "storefront" else 8080,
                target_port=8080,
                node_port=30080 if name == "storefront" else None,
                cluster_ip=f"10.96.0.{10 + k}",
                external_ip="203.0.113.10" if name == "storefront" else None,
                created_at=s.ago(days=290 - 20 * k),
            )
    for ns, name, data, days in (
        ("web", "storefront-config", {"CURRENCY": pop.home.place.currency, "LOG_LEVEL": "info"}, 100),
        ("payments", "payments-limits-v3", {"MAX_REFUND_CENTS": "500000"}, 40),
    ):
        s.create(
            ConfigMap,
            namespace=ns,
            name=name,
            data=data,
            immutable=ns == "payments",
            created_at=s.ago(days=days),
            updated_at=s.ago(days=days // 10),
        )
    for name, status, succeeded, failed, comp in (
        ("nightly-export", "Complete", 1, 0, 1),
        ("reindex-search", "Failed", 0, 6, 1),
        ("backfill-2024", "Suspended", 3, 0, 8),
        ("report-builder", "Running", 0, 0, 2),
    ):
        job = s.create(
            Job,
            namespace="data",
            name=name,
            image=f"{registry}/batch:1.{len(name)}",
            completions=comp,
            parallelism=1,
            succeeded=succeeded,
            failed=failed,
            status=status,
            created_at=s.ago(hours=30 + len(name)),
            updated_at=s.ago(hours=2 + len(name)),
        )
        if status in JOB_POD_PHASE:
            _seed_pod(s, job, JOB_POD_PHASE[status], s.ago(hours=20))


def _seed_pod(s: SeedContext, owner: Deployment | Job, phase: PodPhase, at: dt.datetime) -> None:
    s.create(
        Pod,
        namespace=owner.namespace,
        name=f"{owner.name}-{s.rng.randrange(16**5):05x}",
        deployment_id=owner.id if isinstance(owner, Deployment) else None,
        job_id=owner.id if isinstance(owner, Job) else None,
        image=owner.image,
        phase=phase,
        node=s.rng.choice(NODES),
        cpu_request_m=owner.cpu_request_m,
        memory_request_mib=owner.memory_request_mib,
        started_at=at,
    )
