"""Trustgrid Certificates: the lifecycle of the company's TLS certificates, from request to revocation.

Modeled on Venafi TLS Protect Cloud (``/outagedetection/v1``: applications with owners, issuing
templates bound to a CA (DigiCert, an ACME CA such as Let's Encrypt, the internal Microsoft CA),
certificaterequests whose status goes PENDING_APPROVAL → ISSUED, REJECTED, FAILED or CANCELLED,
certificates with renew / revoke / retire, and certificate installations found by discovery on
hosts). Templates set the allowed domains, key types, the longest validity and whether a request
needs approval from a PKI administrator other than the requester; wildcards only where allowed.
Renewing an active certificate requests a copy; once issued it replaces the old one on every
installation. Revocation needs an RFC 5280 reason and ends every installation's use of it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "certs",
    title="Trustgrid Certificates",
    category="certificate_management",
    modeled_on="Venafi TLS Protect Cloud API: applications, issuing templates, certificaterequests "
    "(approve/reject), certificates (renew, revoke, retire), certificate installations",
    description="Certificate lifecycle management for IT and security: the applications that own TLS "
    "certificates, issuing templates per CA with their policy, certificate requests and their approval, the "
    "certificate inventory with expiry and renewals, revocations, and where each certificate is installed.",
)

ApplicationId = Annotated[str, IdOf("certs.application")]
TemplateId = Annotated[str, IdOf("certs.template")]
RequestId = Annotated[str, IdOf("certs.certificate_request")]
CertificateId = Annotated[str, IdOf("certs.certificate")]
InstallationId = Annotated[str, IdOf("certs.installation")]

DnsName = Annotated[
    str,
    StringConstraints(pattern=r"^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$"),
]
"""A lower-case DNS name, optionally a wildcard (``*.example.com``)."""
Hostname = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$")]
"""The host a certificate is installed on."""
Days = Annotated[int, Field(ge=1, le=825)]

Ca = Literal["digicert", "lets_encrypt", "internal_msca", "entrust"]
KeyType = Literal["RSA_2048", "RSA_3072", "RSA_4096", "EC_P256", "EC_P384"]
RequestStatus = Literal["pending_approval", "issued", "rejected", "failed", "cancelled"]
CertStatus = Literal["active", "expired", "revoked", "retired"]
RevokeReason = Literal["key_compromise", "ca_compromise", "affiliation_changed", "superseded", "cessation_of_operation"]
Platform = Literal["nginx", "apache", "iis", "f5_bigip", "aws_alb", "kubernetes_ingress"]


class Application(Created):
    """An application (a team's service) that owns certificates."""

    id: ApplicationId
    name: Title
    """Its name (unique)."""
    owner_email: Email
    """The employee who owns it and its certificates."""
    description: Text = ""
    """What it is."""


class Template(Record):
    """An issuing template: a CA and the policy certificates from it follow."""

    id: TemplateId
    name: Title
    """Its name."""
    ca: Ca
    """digicert, lets_encrypt (ACME), internal_msca or entrust."""
    allowed_domains: tuple[DnsName, ...]
    """Domains names must fall under."""
    key_types: tuple[KeyType, ...]
    """Key types it issues."""
    max_validity_days: Days
    """Longest validity it issues."""
    allow_wildcards: bool = False
    """Whether ``*.`` names are allowed."""
    requires_approval: bool = False
    """Whether a PKI administrator must approve each request."""


class CertificateRequest(Timestamped):
    """A request for a certificate (new or a renewal)."""

    id: RequestId
    application_id: ApplicationId
    """The owning application."""
    template_id: TemplateId
    """The issuing template."""
    common_name: DnsName
    """The subject common name."""
    sans: tuple[DnsName, ...] = ()
    """Further DNS subject alternative names."""
    key_type: KeyType
    """The key algorithm and size."""
    validity_days: Days
    """Requested validity."""
    requested_by: Email
    """Who asked."""
    renewal_of: CertificateId | None = None
    """The certificate it renews."""
    status: RequestStatus
    """pending_approval, issued, rejected, failed or cancelled."""
    decided_by: Email | None = None
    """The administrator who approved or rejected it."""
    error: Text | None = None
    """Why it was rejected or failed."""
    certificate_id: CertificateId | None = None
    """The certificate issued."""


class Certificate(Record):
    """An issued certificate in the inventory."""

    id: CertificateId
    application_id: ApplicationId
    """The owning application."""
    common_name: DnsName
    """The subject common name."""
    sans: tuple[DnsName, ...] = ()
    """Subject alternative names."""
    ca: Ca
    """Its issuer."""
    key_type: KeyType
    """Its key."""
    serial_number: Annotated[str, StringConstraints(pattern=r"^[0-9A-F]{16,40}$")]
    """Serial number (hex)."""
    valid_from: DateTime
    """Not before."""
    valid_to: DateTime
    """Not after (expiry)."""
    status: CertStatus = "active"
    """active, expired, revoked or retired."""
    revocation_reason: RevokeReason | None = None
    """Why it was revoked."""
    replaced_by_id: CertificateId | None = None
    """The renewal that replaced it."""
    request_id: RequestId | None = None
    """The request it came from (none: discovered)."""


class Installation(Created):
    """Where a certificate is installed (found by discovery or provisioned)."""

    id: InstallationId
    certificate_id: CertificateId
    """The certificate served."""
    hostname: Hostname
    """The host."""
    port: Annotated[int, Field(ge=1, le=65535)] = 443
    """The TLS port."""
    platform: Platform
    """nginx, apache, iis, f5_bigip, aws_alb or kubernetes_ingress."""


# -- rules ------------------------------------------------------------------------------------


def _pki_admins(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.staff("IT", "Engineering", fallback=6)}


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _under(name: str, domains: tuple[str, ...]) -> bool:
    base = name[2:] if name.startswith("*.") else name
    return any(base == d or base.endswith("." + d) for d in domains)


def _guard_application(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_application_delete(ctx: Ctx, new: Any, old: Any) -> None:
    live = ctx.first(Certificate, application_id=old.id, status="active")
    if live is not None:
        raise Conflict(
            f"application {old.name!r} still owns active certificate {live.common_name}",
            field="application_id",
            hint="retire or move its certificates first",
        )


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.key_types:
        raise RuleViolation("a template needs at least one key type", field="key_types", hint="list key types")


def _guard_certificate(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Application, new.application_id, field="application_id")
    if new.status == "retired" and ctx.first(Installation, certificate_id=new.id) is not None:
        raise Conflict(
            f"certificate {new.common_name} is still installed",
            field="certificate_id",
            hint="remove its installations first (certs__delete_installation)",
        )


applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=False,
    filters=("owner_email", "name"),
    search=("name", "description"),
    update=("owner_email", "description"),
    guard_update=_guard_application,
    guard_delete=_guard_application_delete,
)
templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="tpl",
    create=False,
    filters=("ca", "requires_approval"),
    search=("name",),
    update=("key_types", "max_validity_days", "requires_approval"),
    delete=False,
    guard_update=_guard_template,
    title="issuing template",
)
requests = service.resource(
    CertificateRequest,
    name="certificate_request",
    plural="certificate_requests",
    prefix="creq",
    create=False,
    filters=("application_id", "template_id", "status", "requested_by", "common_name", "renewal_of"),
    delete=False,
    transitions={"cancel": Transition("status", ("pending_approval",), "cancelled", "cancel the certificate request")},
    title="certificate request",
)
certificates = service.resource(
    Certificate,
    name="certificate",
    plural="certificates",
    prefix="cert",
    create=False,
    filters=("application_id", "common_name", "ca", "status", "serial_number"),
    search=("common_name",),
    update=("application_id",),
    delete=False,
    transitions={
        "retire": Transition(
            "status",
            ("active", "expired", "revoked"),
            "retired",
            "retire the certificate",
            description="Retire a certificate that is no longer installed: it leaves expiry monitoring.",
        ),
    },
    guard_update=_guard_certificate,
)
installations = service.resource(
    Installation,
    name="installation",
    plural="installations",
    prefix="inst",
    create=False,
    filters=("certificate_id", "hostname", "platform"),
    search=("hostname",),
    title="certificate installation",
)


# -- applications and requests ----------------------------------------------------------------


@service.tool(
    intent="create the application",
    write=True,
    example=lambda ctx: {"name": "Partner Portal", "owner_email": ctx.population.employees[0].email},
)
def create_application(ctx: Ctx, name: Title, owner_email: Email, description: Text = "") -> Application:
    """Create an application to own certificates; names are unique.

    Args:
        name: Its name.
        owner_email: The employee who owns it.
        description: What it is.
    """
    for a in ctx.scan(Application):
        if a.name.lower() == name.lower():
            raise Conflict(f"application {a.name!r} exists as {a.id}", field="name", hint="use the existing one")
    _staff(ctx, owner_email, "owner_email")
    return ctx.create(Application, name=name, owner_email=owner_email, description=description)


def _serial(ctx: Ctx) -> str:
    return f"{ctx.rng.getrandbits(128):032X}"


def _issue(ctx: Ctx, req: CertificateRequest) -> CertificateRequest:
    tpl = ctx.get(Template, req.template_id)
    now = ctx.now()
    cert = ctx.create(
        Certificate,
        application_id=req.application_id,
        common_name=req.common_name,
        sans=req.sans,
        ca=tpl.ca,
        key_type=req.key_type,
        serial_number=_serial(ctx),
        valid_from=now,
        valid_to=now + dt.timedelta(days=req.validity_days),
        request_id=req.id,
    )
    if req.renewal_of is not None:
        old = ctx.get(Certificate, req.renewal_of)
        ctx.update(old, replaced_by_id=cert.id)
        for inst in ctx.where(Installation, certificate_id=old.id):
            ctx.update(inst, certificate_id=cert.id)
    return ctx.update(req, status="issued", certificate_id=cert.id)


def _check_policy(ctx: Ctx, tpl: Template, names: list[str], key_type: str, validity_days: int) -> None:
    for n in names:
        if not _under(n, tpl.allowed_domains):
            raise RuleViolation(
                f"{n} is outside template {tpl.name!r} ({', '.join(tpl.allowed_domains)})",
                field="common_name" if n == names[0] else "sans",
                hint="use a name under an allowed domain, or another template",
            )
        if n.startswith("*.") and not tpl.allow_wildcards:
            raise RuleViolation(
                f"template {tpl.name!r} does not issue wildcards",
                field="common_name" if n == names[0] else "sans",
                hint="list the host names, or use a template that allows wildcards",
            )
    if key_type not in tpl.key_types:
        raise RuleViolation(
            f"template {tpl.name!r} issues {', '.join(tpl.key_types)}", field="key_type", hint="pick one of those"
        )
    if validity_days > tpl.max_validity_days:
        raise RuleViolation(
            f"template {tpl.name!r} issues at most {tpl.max_validity_days} days",
            field="validity_days",
            hint=f"ask for {tpl.max_validity_days} days or fewer",
        )


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    tpl = ctx.first(Template, requires_approval=True)
    app = ctx.first(Application)
    if tpl is None or app is None:
        return None
    return {
        "application_id": app.id,
        "template_id": tpl.id,
        "common_name": f"store.{tpl.allowed_domains[0]}",
        "sans": [f"shop2.{tpl.allowed_domains[0]}"],
        "key_type": tpl.key_types[0],
        "validity_days": 90,
        "requested_by": app.owner_email,
    }


@service.tool(intent="request the certificate", write=True, example=_example_request)
def request_certificate(
    ctx: Ctx,
    application_id: ApplicationId,
    template_id: TemplateId,
    common_name: DnsName,
    key_type: KeyType,
    validity_days: Days,
    requested_by: Email,
    sans: list[DnsName] | None = None,
) -> CertificateRequest:
    """Request a certificate under a template's policy; it is issued at once unless the template needs approval.

    Args:
        application_id: The owning application.
        template_id: The issuing template.
        common_name: The subject common name.
        key_type: RSA_2048, RSA_3072, RSA_4096, EC_P256 or EC_P384 (as the template allows).
        validity_days: Requested validity, at most the template's maximum.
        requested_by: The employee asking.
        sans: Further DNS names.
    """
    app = ctx.get(Application, application_id, field="application_id")
    tpl = ctx.get(Template, template_id, field="template_id")
    _staff(ctx, requested_by, "requested_by")
    alt = tuple(dict.fromkeys(n for n in (sans or []) if n != common_name))
    _check_policy(ctx, tpl, [common_name, *alt], key_type, validity_days)
    for other in ctx.where(CertificateRequest, common_name=common_name, status="pending_approval"):
        raise Conflict(
            f"request {other.id} for {common_name} is already awaiting approval",
            field="common_name",
            hint="wait for it, or cancel it with certs__cancel_certificate_request",
        )
    req = ctx.create(
        CertificateRequest,
        application_id=app.id,
        template_id=tpl.id,
        common_name=common_name,
        sans=alt,
        key_type=key_type,
        validity_days=validity_days,
        requested_by=requested_by,
        status="pending_approval",
    )
    return req if tpl.requires_approval else _issue(ctx, req)


def _pending(ctx: Ctx, request_id: str, approver_email: str) -> CertificateRequest:
    req = ctx.get(CertificateRequest, request_id, field="request_id")
    if req.status != "pending_approval":
        raise Conflict(f"request {req.id} is {req.status}", field="request_id", hint="only pending ones are decided")
    if approver_email not in _pki_admins(ctx):
        raise RuleViolation(
            f"{approver_email} is not a PKI administrator", field="approver_email", hint="ask IT to decide it"
        )
    if approver_email == req.requested_by:
        raise RuleViolation(
            "a requester cannot approve their own certificate", field="approver_email", hint="ask another administrator"
        )
    return req


def _example_decide(ctx: Ctx, **extra: str) -> dict[str, Any] | None:
    req = ctx.first(CertificateRequest, status="pending_approval")
    if req is None:
        return None
    admin = next(e for e in sorted(_pki_admins(ctx)) if e != req.requested_by)
    return {"request_id": req.id, "approver_email": admin} | extra


@service.tool(intent="approve the certificate request", write=True, example=_example_decide)
def approve_request(ctx: Ctx, request_id: RequestId, approver_email: Email) -> CertificateRequest:
    """Approve a pending request; the CA issues the certificate at once (a renewal replaces the old one).

    Args:
        request_id: The request.
        approver_email: A PKI administrator other than the requester.
    """
    req = _pending(ctx, request_id, approver_email)
    return _issue(ctx, ctx.update(req, decided_by=approver_email))


@service.tool(
    intent="reject the certificate request",
    write=True,
    example=lambda ctx: _example_decide(ctx, reason="Use the internal CA for this host"),
)
def reject_request(ctx: Ctx, request_id: RequestId, approver_email: Email, reason: Text) -> CertificateRequest:
    """Reject a pending request.

    Args:
        request_id: The request.
        approver_email: A PKI administrator other than the requester.
        reason: Why (the requester sees it).
    """
    req = _pending(ctx, request_id, approver_email)
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="tell the requester why")
    return ctx.update(req, status="rejected", decided_by=approver_email, error=reason.strip())


# -- certificates -----------------------------------------------------------------------------


@service.tool(
    intent="renew the certificate",
    write=True,
    example=first_example(Certificate, "certificate_id", where={"status": "active", "replaced_by_id": None}),
)
def renew_certificate(ctx: Ctx, certificate_id: CertificateId, requested_by: Email | None = None) -> CertificateRequest:
    """Request a renewal with the same names and key type under the template of its last request.

    Args:
        certificate_id: The certificate; active or expired, not yet replaced.
        requested_by: Who asks (default: the application's owner).
    """
    cert = ctx.get(Certificate, certificate_id, field="certificate_id")
    if cert.status not in ("active", "expired"):
        raise RuleViolation(
            f"certificate {cert.common_name} is {cert.status}", field="certificate_id", hint="request a new one"
        )
    if cert.replaced_by_id is not None:
        raise Conflict(
            f"certificate {cert.id} was already renewed as {cert.replaced_by_id}",
            field="certificate_id",
            hint="renew the newer certificate",
        )
    for r in ctx.where(CertificateRequest, renewal_of=cert.id, status="pending_approval"):
        raise Conflict(f"renewal {r.id} awaits approval", field="certificate_id", hint="approve or cancel it")
    app = ctx.get(Application, cert.application_id)
    by = requested_by or app.owner_email
    _staff(ctx, by, "requested_by")
    prior = ctx.find(CertificateRequest, cert.request_id) if cert.request_id else None
    tpl = ctx.get(Template, prior.template_id) if prior else ctx.first(Template, ca=cert.ca)
    if tpl is None:
        raise RuleViolation(f"no template issues from {cert.ca}", field="certificate_id", hint="request a new one")
    days = min(tpl.max_validity_days, prior.validity_days if prior else tpl.max_validity_days)
    _check_policy(ctx, tpl, [cert.common_name, *cert.sans], cert.key_type, days)
    req = ctx.create(
        CertificateRequest,
        application_id=cert.application_id,
        template_id=tpl.id,
        common_name=cert.common_name,
        sans=cert.sans,
        key_type=cert.key_type,
        validity_days=days,
        requested_by=by,
        renewal_of=cert.id,
        status="pending_approval",
    )
    return req if tpl.requires_approval else _issue(ctx, req)


@service.tool(
    intent="revoke the certificate",
    write=True,
    destructive=True,
    example=first_example(Certificate, "certificate_id", where={"status": "active"}, reason="superseded"),
)
def revoke_certificate(ctx: Ctx, certificate_id: CertificateId, reason: RevokeReason) -> Certificate:
    """Revoke a certificate at its CA; it can no longer be trusted and must be replaced where installed.

    Args:
        certificate_id: The certificate (active or expired).
        reason: key_compromise, ca_compromise, affiliation_changed, superseded or cessation_of_operation.
    """
    cert = ctx.get(Certificate, certificate_id, field="certificate_id")
    if cert.status in ("revoked", "retired"):
        raise Conflict(f"certificate {cert.id} is already {cert.status}", field="certificate_id", hint="nothing to do")
    return ctx.update(cert, status="revoked", revocation_reason=reason)


@service.tool(intent="list the certificates that expire soon")
def expiring_certificates(ctx: Ctx, within_days: Annotated[int, Field(ge=0, le=365)] = 30) -> list[Certificate]:
    """Active certificates that expire within the next days and are not renewed yet, soonest first.

    Args:
        within_days: How many days ahead to look.
    """
    horizon = ctx.now() + dt.timedelta(days=within_days)
    due = [c for c in ctx.where(Certificate, status="active") if c.valid_to <= horizon and c.replaced_by_id is None]
    return sorted(due, key=lambda c: (c.valid_to, c.id))


def _example_install(ctx: Ctx) -> dict[str, Any] | None:
    cert = ctx.first(Certificate, status="active")
    return (
        None if cert is None else {"certificate_id": cert.id, "hostname": "edge-09.corp.internal", "platform": "nginx"}
    )


@service.tool(intent="install the certificate on the host", write=True, example=_example_install)
def install_certificate(
    ctx: Ctx,
    certificate_id: CertificateId,
    hostname: Hostname,
    platform: Platform,
    port: Annotated[int, Field(ge=1, le=65535)] = 443,
) -> Installation:
    """Provision an active certificate to a host and port; a port serves one certificate, which it replaces.

    Args:
        certificate_id: The certificate (active, not expired).
        hostname: The host.
        platform: nginx, apache, iis, f5_bigip, aws_alb or kubernetes_ingress.
        port: The TLS port.
    """
    cert = ctx.get(Certificate, certificate_id, field="certificate_id")
    if cert.status != "active" or cert.valid_to <= ctx.now():
        raise RuleViolation(
            f"certificate {cert.common_name} is {cert.status if cert.status != 'active' else 'expired'}",
            field="certificate_id",
            hint="install an active certificate (renew this one first)",
        )
    here = ctx.first(Installation, hostname=hostname, port=port)
    if here is not None:
        if here.certificate_id == cert.id:
            raise Conflict(f"{hostname}:{port} already serves it", field="hostname", hint="nothing to do")
        return ctx.update(here, certificate_id=cert.id, platform=platform)
    return ctx.create(Installation, certificate_id=cert.id, hostname=hostname, port=port, platform=platform)


# -- seed -------------------------------------------------------------------------------------

APPS: tuple[tuple[str, str, tuple[tuple[str, int, int, str, CertStatus], ...]], ...] = (
    # application, description, certificates: (name under the home domain, template, days to expiry, host, status)
    (
        "Customer Portal",
        "The public web portal",
        (("www", 1, 200, "web-01", "active"), ("portal", 0, 12, "web-02", "active")),
    ),
    ("Payments API", "Card and payout API", (("api", 1, 25, "lb-01", "active"), ("pay", 1, -3, "", "expired"))),
    (
        "Internal Tools",
        "Intranet services",
        (("*.int", 1, 300, "proxy-01", "active"), ("wiki.int", 2, 300, "wiki-01", "active")),
    ),
    ("Mail Gateway", "Inbound mail relay", (("mail", 1, 40, "mx-01", "active"), ("smtp", 1, 90, "", "revoked"))),
    ("Legacy VPN", "Old SSL VPN appliance", (("vpn-old", 1, 20, "", "retired"),)),
)
TEMPLATES: tuple[tuple[str, Ca, tuple[KeyType, ...], int, bool, bool], ...] = (
    ("Public DV (ACME)", "lets_encrypt", ("RSA_2048", "EC_P256"), 90, False, False),
    ("Public OV", "digicert", ("RSA_2048", "RSA_3072", "EC_P256"), 397, True, True),
    ("Internal servers", "internal_msca", ("RSA_2048", "RSA_4096"), 730, False, True),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Templates, applications owned by employees, certificates in every state with installations, and requests."""
    pop = s.population
    domain = pop.home.domain
    admins = pop.staff("IT", "Engineering", fallback=6)
    tpls = [
        s.create(
            Template,
            name=name,
            ca=ca,
            allowed_domains=(f"int.{domain}",) if ca == "internal_msca" else (domain,),
            key_types=keys,
            max_validity_days=days,
            requires_approval=approve,
            allow_wildcards=wild,
        )
        for name, ca, keys, days, approve, wild in TEMPLATES
    ]
    for k, (name, desc, certs) in enumerate(APPS):
        owner = pop.employees[(3 * k) % len(pop.employees)].email
        app = s.create(Application, name=name, owner_email=owner, description=desc, created_at=s.ago(days=800))
        for j, (host, t, left, server, status) in enumerate(certs):
            tpl = tpls[t]
            days = min(tpl.max_validity_days, 397)
            cn = f"{host}.{domain}"
            req = s.create(
                CertificateRequest,
                application_id=app.id,
                template_id=tpl.id,
                common_name=cn,
                key_type=tpl.key_types[0],
                validity_days=days,
                requested_by=owner,
                status="issued",
                decided_by=admins[0].email if tpl.requires_approval else None,
                created_at=s.ago(days=days - left + 1),
                updated_at=s.ago(days=days - left),
            )
            cert = s.create(
                Certificate,
                application_id=app.id,
                common_name=cn,
                sans=(domain,) if host == "www" else (),
                ca=tpl.ca,
                key_type=tpl.key_types[0],
                serial_number=f"{s.rng.getrandbits(128):032X}",
                valid_from=s.ago(days=days - left),
                valid_to=s.ago(days=-left),
                status=status,
                revocation_reason="key_compromise" if status == "revoked" else None,
                request_id=req.id,
            )
            s.update(req, certificate_id=cert.id)
            if server:
                platform: Platform = ("nginx", "f5_bigip", "iis", "apache")[(k + j) % 4]
                s.create(Installation, certificate_id=cert.id, hostname=f"{server}.{domain}", platform=platform)
    _seed_open_requests(s, tpls, admins[0].email)


def _seed_open_requests(s: SeedContext, tpls: list[Template], admin: str) -> None:
    """A request awaiting approval, a rejected one, and an ACME order whose challenge failed."""
    domain = s.population.home.domain
    apps = s.records(Application)
    for k, (host, status, error) in enumerate(
        (
            ("shop", "pending_approval", None),
            ("*.pay", "rejected", "Wildcards are not allowed for payment hosts"),
            ("status", "failed", "ACME DNS-01 challenge failed: no TXT record _acme-challenge.status"),
        )
    ):
        tpl = tpls[0] if status == "failed" else tpls[1]
        s.create(
            CertificateRequest,
            application_id=apps[k].id,
            template_id=tpl.id,
            common_name=f"{host}.{domain}",
            key_type="RSA_2048",
            validity_days=90 if status == "failed" else 397,
            requested_by=apps[k].owner_email,
            status=status,
            decided_by=admin if status == "rejected" else None,
            error=error,
            created_at=s.ago(days=2 + k),
            updated_at=s.ago(days=1 + k),
        )
