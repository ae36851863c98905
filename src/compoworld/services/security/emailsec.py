"""Mailguard: e-mail security: detected threats, quarantine, release approvals, sender lists, reported phish.

Modeled on the Abnormal Security REST API (``/threats`` with attack type,
attack vector and remediation status, ``POST /threats/{id}`` remove/restore
actions, ``/cases`` and the abuse-mailbox of user-reported messages) and the
Proofpoint Essentials / PPS quarantine API (quarantined messages released or
deleted, release requests approved by an administrator, sender block and safe
lists per organization). Console users (administrators, analysts, read-only)
carry the permissions: only administrators edit sender lists, only
administrators and analysts approve releases or judge cases, and nobody
approves a release they asked for. Malicious and suspicious messages leave
quarantine only through an approved release request; spam and bulk the
recipient may release directly. Remediating a threat removes its messages from
every mailbox; restoring needs the threat marked a false positive first. A
reported message judged malicious is removed from every mailbox that got the
same message, and its sender may be blocked at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Domain, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "emailsec",
    title="Mailguard",
    category="email_security",
    modeled_on="Abnormal Security REST API (threats, remediation actions, cases, abuse mailbox) and Proofpoint "
    "quarantine, release requests and sender block/safe lists",
    description="E-mail security for the company's mailboxes: detected threats (phishing, malware, business "
    "e-mail compromise) and their messages, the quarantine with releases and approvals, sender block and "
    "allow lists, phishing reports from employees and their review, and remediation across mailboxes.",
)

AdminId = Annotated[str, IdOf("emailsec.admin")]
ThreatId = Annotated[str, IdOf("emailsec.threat")]
MessageId = Annotated[str, IdOf("emailsec.message")]
ReleaseId = Annotated[str, IdOf("emailsec.release_request")]
RuleId = Annotated[str, IdOf("emailsec.sender_rule")]
CaseId = Annotated[str, IdOf("emailsec.case")]
RemediationId = Annotated[str, IdOf("emailsec.remediation")]

SenderPattern = Annotated[
    str, StringConstraints(pattern=r"^([A-Za-z0-9._%+-]+@)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9-]+)+$")
]
"""A sender address or a whole sender domain."""

AdminRole = Literal["admin", "analyst", "read_only"]
AttackType = Literal["credential_phishing", "malware", "bec", "invoice_fraud", "spam", "graymail"]
AttackVector = Literal["link", "attachment", "text"]
Remediation = Literal["not_remediated", "auto_remediated", "remediated", "restored"]
Verdict = Literal["malicious", "suspicious", "spam", "bulk", "clean"]
Location = Literal["inbox", "quarantine", "removed", "deleted"]
ReleaseStatus = Literal["pending", "approved", "denied"]
ListType = Literal["block", "allow"]
CaseStatus = Literal["new", "in_review", "resolved"]
Judgement = Literal["malicious", "spam", "safe"]
Action = Literal["remove", "restore"]

DANGEROUS: tuple[Verdict, ...] = ("malicious", "suspicious")


class Admin(Record):
    """A console user of the e-mail security platform."""

    id: AdminId
    email: Email
    """The employee's e-mail (unique)."""
    name: PersonName
    """Their name."""
    role: AdminRole = "analyst"
    """admin (everything), analyst (releases, cases, remediation) or read_only."""


class Threat(Record):
    """A detected attack: one campaign of messages from one sender."""

    id: ThreatId
    subject: Title
    """The messages' subject line."""
    sender_email: Email
    """Who sent it."""
    sender_domain: Domain
    """The sender's domain."""
    attack_type: AttackType
    """credential_phishing, malware, bec, invoice_fraud, spam or graymail."""
    attack_vector: AttackVector
    """link, attachment or text."""
    impersonated: PersonName | None = None
    """The person or brand it pretends to be."""
    remediation_status: Remediation = "not_remediated"
    """not_remediated, auto_remediated, remediated or restored."""
    false_positive: bool = False
    """Marked by an analyst as not an attack."""
    recipient_count: int = 0
    """How many mailboxes got it."""
    received_at: DateTime
    """When the first message arrived."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Message(Record):
    """One delivered or held copy of an e-mail in one mailbox."""

    id: MessageId
    threat_id: ThreatId | None = None
    """The threat it belongs to, if any."""
    recipient_email: Email
    """The mailbox (an employee)."""
    sender_email: Email
    """Who sent it."""
    subject: Title
    """Its subject line."""
    verdict: Verdict
    """malicious, suspicious, spam, bulk or clean."""
    location: Location
    """inbox, quarantine, removed (remediated) or deleted."""
    received_at: DateTime
    """When it arrived."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class ReleaseRequest(Record):
    """A recipient's request to release a quarantined message, for an administrator to decide."""

    id: ReleaseId
    message_id: MessageId
    """The quarantined message."""
    requested_by: Email
    """The recipient asking."""
    reason: Text
    """Why they need it."""
    status: ReleaseStatus = "pending"
    """pending, approved or denied."""
    decided_by: Email | None = None
    """The administrator or analyst who decided."""
    created_at: Annotated[DateTime, CREATED]
    """When it was asked."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class SenderRule(Record):
    """A block-list or allow-list entry for a sender address or domain."""

    id: RuleId
    list_type: ListType
    """block or allow."""
    value: SenderPattern
    """The address or domain."""
    comment: str = ""
    """Why."""
    created_by: Email
    """The administrator who added it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Case(Record):
    """A message an employee reported as phishing, under review."""

    id: CaseId
    message_id: MessageId
    """The reported message."""
    reporter_email: Email
    """The employee who reported it."""
    status: CaseStatus = "new"
    """new, in_review or resolved."""
    analyst_email: Email | None = None
    """The analyst reviewing it."""
    judgement: Judgement | None = None
    """malicious, spam or safe, once resolved."""
    created_at: Annotated[DateTime, CREATED]
    """When it was reported."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class RemediationAction(Record):
    """A remove or restore action across mailboxes."""

    id: RemediationId
    action: Action
    """remove or restore."""
    threat_id: ThreatId | None = None
    """The threat acted on."""
    case_id: CaseId | None = None
    """The case acted on."""
    message_count: int
    """How many messages moved."""
    requested_by: Email
    """The analyst who acted."""
    created_at: Annotated[DateTime, CREATED]
    """When it ran."""


# -- rules ------------------------------------------------------------------------------------


def _console(ctx: Ctx, email: str, field: str, *roles: AdminRole) -> Admin:
    admin = ctx.first(Admin, email=email)
    if admin is None:
        raise RuleViolation(f"{email} is not a console user", field=field, hint="list console users with list_admins")
    if admin.role not in roles:
        raise RuleViolation(
            f"{email} is {admin.role}; this needs {' or '.join(roles)}",
            field=field,
            hint="ask a console user with that role",
        )
    return admin


def _guard_admin(ctx: Ctx, new: Any, old: Any) -> None:
    if new is not None and new.email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{new.email} is not an employee", field="email", hint="use an employee's e-mail")
    demoted = (new is None or new.role != "admin") and old is not None and old.role == "admin"
    if demoted and not [a for a in ctx.where(Admin, role="admin") if a.id != old.id]:
        raise Conflict("the last administrator cannot be removed", field="admin_id", hint="promote another first")


admins = service.resource(
    Admin,
    name="admin",
    plural="admins",
    prefix="adm",
    create=("email", "name", "role"),
    get=False,
    filters=("role", "email"),
    search=("name", "email"),
    update=("role",),
    unique=("email",),
    guard_create=_guard_admin,
    guard_update=_guard_admin,
    guard_delete=_guard_admin,
    title="console user",
)
threats = service.resource(
    Threat,
    name="threat",
    plural="threats",
    prefix="thr",
    create=False,
    filters=("attack_type", "attack_vector", "remediation_status", "sender_email", "sender_domain", "false_positive"),
    search=("subject", "sender_email"),
    delete=False,
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="msg",
    create=False,
    filters=("threat_id", "recipient_email", "sender_email", "verdict", "location"),
    search=("subject",),
    delete=False,
)
releases = service.resource(
    ReleaseRequest,
    name="release_request",
    plural="release_requests",
    prefix="rr",
    create=False,
    get=False,
    filters=("message_id", "requested_by", "status"),
    delete=False,
)
rules = service.resource(
    SenderRule,
    name="sender_rule",
    plural="sender_rules",
    prefix="sr",
    create=False,
    get=False,
    filters=("list_type", "value", "created_by"),
    search=("value", "comment"),
    update=("comment",),
)
cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="case",
    create=False,
    filters=("status", "reporter_email", "analyst_email", "judgement", "message_id"),
    delete=False,
    title="reported-phish case",
)
remediations = service.resource(
    RemediationAction,
    name="remediation",
    plural="remediations",
    prefix="rem",
    create=False,
    get=False,
    filters=("action", "threat_id", "case_id", "requested_by"),
    delete=False,
)


# -- threats ----------------------------------------------------------------------------------


def _as_analyst(model: type[Threat], param: str, where: dict[str, Any]) -> Callable[[Ctx], dict[str, Any] | None]:
    pick = first_example(model, param, where=where)

    def example(ctx: Ctx) -> dict[str, Any] | None:
        found, analyst = pick(ctx), ctx.first(Admin, role="analyst")
        return None if found is None or analyst is None else found | {"requested_by": analyst.email}

    return example


def _move(ctx: Ctx, found: list[Message], to: Location) -> int:
    for m in found:
        ctx.update(m, location=to)
    return len(found)


@service.tool(
    intent="remediate the threat",
    write=True,
    example=_as_analyst(Threat, "threat_id", {"remediation_status": "not_remediated"}),
)
def remediate_threat(ctx: Ctx, threat_id: ThreatId, requested_by: Email) -> RemediationAction:
    """Remove every message of a threat from the mailboxes and the quarantine.

    Args:
        threat_id: The threat.
        requested_by: The administrator or analyst acting.
    """
    t = ctx.get(Threat, threat_id, field="threat_id")
    _console(ctx, requested_by, "requested_by", "admin", "analyst")
    if t.remediation_status in ("remediated", "auto_remediated"):
        raise Conflict(f"threat {t.id} is already {t.remediation_status}", field="threat_id", hint="nothing to do")
    live = [m for m in ctx.where(Message, threat_id=t.id) if m.location in ("inbox", "quarantine")]
    count = _move(ctx, live, "removed")
    ctx.update(t, remediation_status="remediated")
    return ctx.create(
        RemediationAction, action="remove", threat_id=t.id, message_count=count, requested_by=requested_by
    )


@service.tool(
    intent="mark the threat a false positive",
    write=True,
    example=_as_analyst(Threat, "threat_id", {"false_positive": False}),
)
def mark_false_positive(ctx: Ctx, threat_id: ThreatId, requested_by: Email) -> Threat:
    """Mark a threat as not an attack (it can then be restored to the mailboxes).

    Args:
        threat_id: The threat.
        requested_by: The administrator or analyst judging.
    """
    t = ctx.get(Threat, threat_id, field="threat_id")
    _console(ctx, requested_by, "requested_by", "admin", "analyst")
    if t.false_positive:
        raise Conflict(f"threat {t.id} is already a false positive", field="threat_id", hint="nothing to do")
    return ctx.update(t, false_positive=True)


@service.tool(
    intent="restore the threat's messages",
    write=True,
    example=_as_analyst(Threat, "threat_id", {"false_positive": True, "remediation_status": "auto_remediated"}),
)
def restore_threat(ctx: Ctx, threat_id: ThreatId, requested_by: Email) -> RemediationAction:
    """Put a remediated threat's messages back into the inboxes; the threat must be marked a false positive.

    Args:
        threat_id: The threat.
        requested_by: The administrator or analyst acting.
    """
    t = ctx.get(Threat, threat_id, field="threat_id")
    _console(ctx, requested_by, "requested_by", "admin", "analyst")
    if t.remediation_status not in ("remediated", "auto_remediated"):
        raise Conflict(f"threat {t.id} is {t.remediation_status}", field="threat_id", hint="only remediated ones")
    if not t.false_positive:
        raise RuleViolation(
            f"threat {t.id} is not marked a false positive",
            field="threat_id",
            hint="mark it with emailsec__mark_false_positive first",
        )
    count = _move(ctx, ctx.where(Message, threat_id=t.id, location="removed"), "inbox")
    ctx.update(t, remediation_status="restored")
    return ctx.create(
        RemediationAction, action="restore", threat_id=t.id, message_count=count, requested_by=requested_by
    )


# -- quarantine -------------------------------------------------------------------------------


def _quarantined(ctx: Ctx, message_id: str) -> Message:
    m = ctx.get(Message, message_id, field="message_id")
    if m.location != "quarantine":
        raise Conflict(f"message {m.id} is in {m.location}, not quarantine", field="message_id", hint="nothing held")
    return m


@service.tool(
    intent="release the message from quarantine",
    write=True,
    example=first_example(Message, "message_id", where={"location": "quarantine", "verdict": "spam"}),
)
def release_message(ctx: Ctx, message_id: MessageId) -> Message:
    """Deliver a quarantined spam or bulk message to its recipient.

    Args:
        message_id: The quarantined message.
    """
    m = _quarantined(ctx, message_id)
    if m.verdict in DANGEROUS:
        raise RuleViolation(
            f"message {m.id} is {m.verdict} and needs an approved release",
            field="message_id",
            hint="ask for one with emailsec__request_release",
        )
    return ctx.update(m, location="inbox")


@service.tool(
    intent="delete the quarantined message",
    write=True,
    destructive=True,
    example=first_example(Message, "message_id", where={"location": "quarantine"}),
)
def delete_message(ctx: Ctx, message_id: MessageId) -> Message:
    """Delete a quarantined message for good.

    Args:
        message_id: The quarantined message.
    """
    m = _quarantined(ctx, message_id)
    for r in ctx.where(ReleaseRequest, message_id=m.id, status="pending"):
        ctx.update(r, status="denied")
    return ctx.update(m, location="deleted")


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.where(Message, location="quarantine", verdict="suspicious"):
        if not ctx.where(ReleaseRequest, message_id=m.id, status="pending"):
            return {"message_id": m.id, "requested_by": m.recipient_email, "reason": "Expected this from a supplier."}
    return None


@service.tool(intent="request release of the quarantined message", write=True, example=_example_request)
def request_release(ctx: Ctx, message_id: MessageId, requested_by: Email, reason: Text) -> ReleaseRequest:
    """Ask an administrator to release a quarantined message; only its recipient may ask, once at a time.

    Args:
        message_id: The quarantined message.
        requested_by: The recipient.
        reason: Why it is needed.
    """
    m = _quarantined(ctx, message_id)
    if requested_by != m.recipient_email:
        raise RuleViolation("only the recipient may ask", field="requested_by", hint=f"ask as {m.recipient_email}")
    if not reason.strip():
        raise RuleViolation("say why you need the message", field="reason", hint="give a reason")
    if ctx.where(ReleaseRequest, message_id=m.id, status="pending"):
        raise Conflict(f"message {m.id} already has a pending request", field="message_id", hint="wait for it")
    return ctx.create(ReleaseRequest, message_id=m.id, requested_by=requested_by, reason=reason.strip())


def _decide(ctx: Ctx, request_id: str, by: str) -> ReleaseRequest:
    r = ctx.get(ReleaseRequest, request_id, field="request_id")
    if r.status != "pending":
        raise Conflict(f"request {r.id} is already {r.status}", field="request_id", hint="nothing to decide")
    _console(ctx, by, "decided_by", "admin", "analyst")
    if by == r.requested_by:
        raise RuleViolation("nobody approves their own request", field="decided_by", hint="ask another console user")
    return r


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(ReleaseRequest, status="pending"):
        for a in ctx.scan(Admin):
            if a.role != "read_only" and a.email != r.requested_by:
                return {"request_id": r.id, "decided_by": a.email}
    return None


@service.tool(intent="approve the release request", write=True, example=_example_decide)
def approve_release(ctx: Ctx, request_id: ReleaseId, decided_by: Email) -> ReleaseRequest:
    """Approve a pending release request: the message is delivered to its recipient.

    Args:
        request_id: The request.
        decided_by: The administrator or analyst approving (not the requester).
    """
    r = _decide(ctx, request_id, decided_by)
    ctx.update(_quarantined(ctx, r.message_id), location="inbox")
    return ctx.update(r, status="approved", decided_by=decided_by)


@service.tool(intent="deny the release request", write=True, example=_example_decide)
def deny_release(ctx: Ctx, request_id: ReleaseId, decided_by: Email) -> ReleaseRequest:
    """Deny a pending release request: the message stays in quarantine.

    Args:
        request_id: The request.
        decided_by: The administrator or analyst denying.
    """
    r = _decide(ctx, request_id, decided_by)
    return ctx.update(r, status="denied", decided_by=decided_by)


# -- sender lists -----------------------------------------------------------------------------


def _example_rule(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Admin, role="admin")
    return None if a is None else {"list_type": "block", "value": "promo-blast.biz", "created_by": a.email}


@service.tool(intent="add the sender to the list", write=True, example=_example_rule)
def add_sender_rule(
    ctx: Ctx, list_type: ListType, value: SenderPattern, created_by: Email, comment: str = ""
) -> SenderRule:
    """Block or allow a sender address or domain; only administrators edit the lists.

    Args:
        list_type: block or allow.
        value: The address or domain.
        created_by: The administrator.
        comment: Why.
    """
    _console(ctx, created_by, "created_by", "admin")
    value = value.lower()
    domain = value.split("@")[-1]
    if list_type == "allow" and domain == ctx.population.home.domain:
        raise RuleViolation(
            "allowing the company's own domain lets spoofed mail through",
            field="value",
            hint="allow a specific external sender instead",
        )
    for r in ctx.where(SenderRule, value=value):
        hint = "nothing to do" if r.list_type == list_type else f"delete {r.id} first"
        raise Conflict(f"{value} is already on the {r.list_type} list", field="value", hint=hint)
    return ctx.create(SenderRule, list_type=list_type, value=value, comment=comment, created_by=created_by)


# -- reported phish ---------------------------------------------------------------------------


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.where(Message, location="inbox"):
        if not ctx.where(Case, message_id=m.id):
            return {"message_id": m.id, "reporter_email": m.recipient_email}
    return None


@service.tool(intent="report the message as phishing", write=True, example=_example_report)
def report_message(ctx: Ctx, message_id: MessageId, reporter_email: Email) -> Case:
    """Report a message in one's inbox as phishing: a case opens for the security team.

    Args:
        message_id: The message in the reporter's inbox.
        reporter_email: The recipient reporting it.
    """
    m = ctx.get(Message, message_id, field="message_id")
    if reporter_email != m.recipient_email:
        raise RuleViolation("only the recipient may report it", field="reporter_email", hint=m.recipient_email)
    if m.location != "inbox":
        raise Conflict(f"message {m.id} is in {m.location}", field="message_id", hint="only inbox mail is reported")
    if ctx.where(Case, message_id=m.id):
        raise Conflict(f"message {m.id} is already reported", field="message_id", hint="see emailsec__list_cases")
    return ctx.create(Case, message_id=m.id, reporter_email=reporter_email)


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    c, a = ctx.first(Case, status="new"), ctx.first(Admin, role="analyst")
    return None if c is None or a is None else {"case_id": c.id, "analyst_email": a.email}


@service.tool(intent="take the case for review", write=True, example=_example_assign)
def assign_case(ctx: Ctx, case_id: CaseId, analyst_email: Email) -> Case:
    """Put a new or in-review case in an analyst's hands.

    Args:
        case_id: The case.
        analyst_email: The administrator or analyst reviewing.
    """
    c = ctx.get(Case, case_id, field="case_id")
    if c.status == "resolved":
        raise Conflict(f"case {c.id} is resolved", field="case_id", hint="nothing to review")
    _console(ctx, analyst_email, "analyst_email", "admin", "analyst")
    return ctx.update(c, status="in_review", analyst_email=analyst_email)


@service.tool(
    intent="resolve the reported-phish case",
    write=True,
    example=first_example(Case, "case_id", where={"status": "in_review"}, judgement="malicious", block_sender=True),
)
def resolve_case(ctx: Ctx, case_id: CaseId, judgement: Judgement, block_sender: bool = False) -> Case:
    """Judge a case under review; malicious mail is removed from every mailbox that got it.

    Args:
        case_id: The case in review.
        judgement: malicious, spam or safe.
        block_sender: Also put the sender on the block list (malicious or spam only).
    """
    c = ctx.get(Case, case_id, field="case_id")
    if c.status != "in_review" or c.analyst_email is None:
        raise Conflict(f"case {c.id} is {c.status}", field="case_id", hint="assign it with emailsec__assign_case")
    m = ctx.get(Message, c.message_id)
    if block_sender:
        if judgement == "safe":
            raise RuleViolation("a safe sender is not blocked", field="block_sender", hint="leave block_sender false")
        if not ctx.where(SenderRule, value=m.sender_email):
            ctx.create(
                SenderRule, list_type="block", value=m.sender_email, comment=f"case {c.id}", created_by=c.analyst_email
            )
    if judgement == "malicious":
        same = [
            x
            for x in ctx.where(Message, sender_email=m.sender_email, subject=m.subject)
            if x.location in ("inbox", "quarantine")
        ]
        count = _move(ctx, same, "removed")
        ctx.create(RemediationAction, action="remove", case_id=c.id, message_count=count, requested_by=c.analyst_email)
    return ctx.update(c, status="resolved", judgement=judgement)


# -- seed -------------------------------------------------------------------------------------

THREATS: tuple[tuple[str, str, str, AttackType, AttackVector, str | None, Remediation, int], ...] = (
    (
        "Action required: your mailbox password expires today",
        "it-helpdesk",
        "rnicrosoft-support.com",
        "credential_phishing",
        "link",
        "Microsoft",
        "auto_remediated",
        4,
    ),
    (
        "Overdue invoice #48211 - payment details updated",
        "accounts",
        "{vendor}-billing.net",
        "invoice_fraud",
        "text",
        "{vendor_name}",
        "not_remediated",
        2,
    ),
    (
        "Quick favour - are you at your desk?",
        "ceo.office",
        "gmail-secure.co",
        "bec",
        "text",
        "{ceo}",
        "not_remediated",
        3,
    ),
    (
        "Scanned document from Xerox device",
        "scanner",
        "docs-share.info",
        "malware",
        "attachment",
        None,
        "not_remediated",
        3,
    ),
    (
        "DocuSign: please review and sign",
        "dse",
        "docusign.net",
        "credential_phishing",
        "link",
        "DocuSign",
        "auto_remediated",
        2,
    ),
    ("Limited time: 70% off conference passes", "offers", "eventdeals.biz", "spam", "link", None, "not_remediated", 3),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Console users, threats and their messages, quarantine with release requests, sender lists, reported phish."""
    pop = s.population
    staff = pop.employees
    eng = pop.staff("Engineering", fallback=3)
    made: list[Admin] = []
    for k, p in enumerate(eng[:4]):
        role: AdminRole = ("admin", "analyst", "analyst", "read_only")[k]
        made.append(s.create(Admin, email=p.email, name=p.name, role=role))
    analyst = made[1].email if len(made) > 1 else made[0].email
    vendor = pop.customers[0]
    ceo = staff[-1].name
    for k, (subject, local, dom, atype, vector, imp, status, n) in enumerate(THREATS):
        dom = dom.format(vendor=vendor.domain.split(".")[0])
        sender = f"{local}@{dom}"
        imp = None if imp is None else imp.format(vendor_name=vendor.name, ceo=ceo)
        when = s.ago(days=20 - 3 * k, hours=k)
        t = s.create(
            Threat,
            subject=subject,
            sender_email=sender,
            sender_domain=dom,
            attack_type=atype,
            attack_vector=vector,
            impersonated=imp,
            remediation_status=status,
            false_positive=dom == "docusign.net",
            recipient_count=n,
            received_at=when,
            updated_at=when,
        )
        verdict: Verdict = (
            "spam" if atype == "spam" else "suspicious" if atype in ("bec", "invoice_fraud") else "malicious"
        )
        for j in range(n):
            to = staff[(5 * k + 3 * j + 2) % len(staff)]
            loc: Location = "removed" if status in ("remediated", "auto_remediated") else "quarantine"
            if atype == "bec" and j == 0:
                loc = "inbox"
            s.create(
                Message,
                threat_id=t.id,
                recipient_email=to.email,
                sender_email=sender,
                subject=subject,
                verdict=verdict,
                location=loc,
                received_at=when,
                updated_at=when,
            )
    for k, c in enumerate(pop.contacts[:6]):
        to = staff[(7 * k + 1) % len(staff)]
        bulk = k % 3 == 2
        s.create(
            Message,
            recipient_email=to.email,
            sender_email=c.email,
            subject=f"Newsletter: {c.last_name} update" if bulk else f"Re: next steps with {to.first_name}",
            verdict="bulk" if bulk else "clean",
            location="quarantine" if bulk else "inbox",
            received_at=s.ago(days=k + 1),
            updated_at=s.ago(days=k + 1),
        )
    held = [m for m in s.records(Message) if m.location == "quarantine" and m.verdict == "suspicious"]
    if held:
        s.create(
            ReleaseRequest,
            message_id=held[0].id,
            requested_by=held[0].recipient_email,
            reason="This is our supplier's real billing contact.",
            created_at=s.ago(hours=20),
            updated_at=s.ago(hours=20),
        )
    bec = [m for m in s.records(Message) if m.location == "inbox" and m.verdict == "suspicious"]
    clean = [m for m in s.records(Message) if m.location == "inbox" and m.verdict == "clean"]
    for m, case_status in ((bec[0], "in_review"), (clean[0], "new"), (clean[1], "resolved")):
        s.create(
            Case,
            message_id=m.id,
            reporter_email=m.recipient_email,
            status=case_status,
            analyst_email=analyst if case_status != "new" else None,
            judgement="safe" if case_status == "resolved" else None,
            created_at=s.ago(hours=30),
            updated_at=s.ago(hours=6),
        )
    for lt, value, why in (
        ("block", "eventdeals.biz", "Unsolicited marketing"),
        ("block", "rnicrosoft-support.com", "Phishing campaign"),
        ("allow", vendor.domain, "Key supplier; invoices were held as bulk"),
    ):
        s.create(
            SenderRule, list_type=lt, value=value, comment=why, created_by=made[0].email, created_at=s.ago(days=30)
        )
