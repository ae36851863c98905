"""Sealpoint Credentials: the school's transcript orders, holds, issued credentials and their verification.

Modeled on Parchment (Parchment Send and Award): learners (current students
and alumni with a student number), holds placed by offices (financial,
library, registrar, disciplinary) that stop transcripts from going out until
released, transcript orders to a recipient (an institution, employer, the
learner or another party) delivered electronically (secure PDF to an e-mail)
or by mail, with the learner's FERPA consent, a fee per copy and a status
submitted → on_hold → processing → sent → delivered (or cancelled before it
is sent), credentials issued (diplomas, certificates, badges) each with a
public verification code, and verifications that third parties run against
those codes. An order for a learner with an active hold waits on_hold and is
released to processing when the last hold is lifted; a revoked credential
verifies as revoked.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "transcripts",
    title="Sealpoint Credentials",
    category="academic_credentials",
    modeled_on="Parchment Send and Award (learners, holds, transcript orders with FERPA consent, electronic and "
    "mail delivery, credentials with verification codes, verifications)",
    description="Academic records for the school: transcript orders from students and alumni to schools and "
    "employers with their delivery status, holds that stop them, diplomas, certificates and badges issued, "
    "and verifications of those credentials by third parties.",
)

LearnerId = Annotated[str, IdOf("transcripts.learner")]
HoldId = Annotated[str, IdOf("transcripts.hold")]
OrderId = Annotated[str, IdOf("transcripts.order")]
CredentialId = Annotated[str, IdOf("transcripts.credential")]
VerificationId = Annotated[str, IdOf("transcripts.verification")]

StudentNumber = Annotated[str, StringConstraints(pattern=r"^S[0-9]{7}$")]
"""A student number, S and seven digits."""
VerifyCode = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{4}-[A-Z0-9]{4}$")]
"""A public verification code such as K7Q2-M9XA."""
HoldType = Literal["financial", "library", "registrar", "disciplinary"]
RecipientType = Literal["institution", "employer", "self", "other"]
Delivery = Literal["electronic", "mail"]
OrderStatus = Literal["submitted", "on_hold", "processing", "sent", "delivered", "cancelled"]
CredentialType = Literal["diploma", "certificate", "badge"]

FEE = {"electronic": 1000, "mail": 1500}


class Learner(Timestamped):
    """A student or alumnus whose records the school holds."""

    id: LearnerId
    student_number: StudentNumber
    """Student number (unique)."""
    name: PersonName
    """Legal name."""
    email: Email
    """Their e-mail."""
    program: Title
    """Program of study."""
    status: Literal["enrolled", "graduated", "withdrawn"] = "enrolled"
    """enrolled, graduated or withdrawn."""
    graduated_on: Date | None = None
    """Graduation date."""


class Hold(Created):
    """A hold on a learner's records."""

    id: HoldId
    learner_id: LearnerId
    """The learner."""
    type: HoldType
    """financial, library, registrar or disciplinary."""
    reason: Text
    """Why."""
    amount: Cents = 0
    """Balance owed (financial holds)."""
    placed_by: Email
    """The staff member who placed it."""
    status: Literal["active", "released"] = "active"
    """active or released."""
    released_at: DateTime | None = None
    """When it was released."""


class Order(Timestamped):
    """A transcript order."""

    id: OrderId
    learner_id: LearnerId
    """Whose transcript."""
    recipient_type: RecipientType
    """institution, employer, self or other."""
    recipient_name: CompanyName
    """The receiving organization or person."""
    recipient_email: Email | None = None
    """Where an electronic transcript goes."""
    mailing_address: str = ""
    """Where a paper transcript goes."""
    delivery: Delivery = "electronic"
    """electronic or mail."""
    copies: Annotated[int, Field(ge=1, le=5)] = 1
    """Number of copies."""
    fee: Cents
    """Total fee, cents."""
    status: OrderStatus = "submitted"
    """submitted, on_hold, processing, sent, delivered or cancelled."""
    sent_at: DateTime | None = None
    """When it was sent."""


class Credential(Created):
    """A credential issued to a learner."""

    id: CredentialId
    learner_id: LearnerId
    """The learner."""
    type: CredentialType
    """diploma, certificate or badge."""
    title: Title
    """What it certifies."""
    issued_on: Date
    """Issue date."""
    code: VerifyCode
    """Public verification code (unique)."""
    status: Literal["issued", "revoked"] = "issued"
    """issued or revoked."""
    revoked_reason: str = ""
    """Why it was revoked."""


class Verification(Created):
    """A third party's check of a credential code."""

    id: VerificationId
    code: str
    """The code checked."""
    credential_id: CredentialId | None = None
    """The credential found."""
    requester_org: CompanyName
    """Who asked."""
    requester_email: Email
    """Their e-mail."""
    result: Literal["valid", "revoked", "not_found"]
    """valid, revoked or not_found."""


# -- rules ------------------------------------------------------------------------------------


def _held(ctx: Ctx, learner_id: str) -> bool:
    return bool(ctx.where(Hold, learner_id=learner_id, status="active"))


def _code(n: int) -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    x = n * 2654435761 % 32**8
    chars = "".join(alphabet[(x >> (5 * k)) % 32] for k in range(8))
    return f"{chars[:4]}-{chars[4:]}"


def _guard_hold(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "released":
        raise RuleViolation(f"hold {old.id} was released", field="hold_id", hint="place a new hold instead")
    if new.type == "financial" and new.amount <= 0:
        raise RuleViolation("a financial hold states the balance owed", field="amount", hint="give the amount")


learners = service.resource(
    Learner,
    name="learner",
    plural="learners",
    prefix="lrn",
    create=False,
    filters=("student_number", "email", "status", "program"),
    search=("name",),
    update=("email",),
    delete=False,
)
holds = service.resource(
    Hold,
    name="hold",
    plural="holds",
    prefix="hold",
    create=False,
    filters=("learner_id", "type", "status"),
    update=("reason", "amount"),
    guard_update=_guard_hold,
    delete=False,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("learner_id", "status", "recipient_type", "delivery", "recipient_email"),
    search=("recipient_name",),
    delete=False,
    title="transcript order",
)
credentials = service.resource(
    Credential,
    name="credential",
    plural="credentials",
    prefix="cred",
    create=False,
    filters=("learner_id", "type", "status", "code"),
    search=("title",),
    delete=False,
)
verifications = service.resource(
    Verification,
    name="verification",
    plural="verifications",
    prefix="ver",
    create=False,
    filters=("credential_id", "result", "requester_email"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_hold(ctx: Ctx) -> dict[str, Any] | None:
    learner = ctx.first(Learner, status="enrolled")
    return (
        None
        if learner is None
        else {
            "learner_id": learner.id,
            "type": "library",
            "reason": "Overdue books",
            "placed_by": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="place a hold on the learner", write=True, example=_example_hold)
def place_hold(
    ctx: Ctx, learner_id: LearnerId, type: HoldType, reason: Text, placed_by: Email, amount: Cents = 0
) -> Hold:
    """Place a hold that stops transcripts; new orders wait until it is released.

    Args:
        learner_id: The learner.
        type: financial, library, registrar or disciplinary.
        reason: Why (required).
        placed_by: The staff member placing it.
        amount: Balance owed (financial holds need one).
    """
    learner = ctx.get(Learner, learner_id, field="learner_id")
    require_employee(ctx, placed_by, field="placed_by", hint="holds are placed by school staff")
    if not reason.strip():
        raise RuleViolation("a hold needs a reason", field="reason", hint="say why")
    if type == "financial" and amount <= 0:
        raise RuleViolation("a financial hold states the balance owed", field="amount", hint="give the amount")
    if ctx.where(Hold, learner_id=learner.id, type=type, status="active"):
        raise Conflict(f"{learner.name} already has an active {type} hold", field="type", hint="update that hold")
    return ctx.create(Hold, learner_id=learner.id, type=type, reason=reason.strip(), amount=amount, placed_by=placed_by)


@service.tool(
    intent="release the hold",
    write=True,
    example=first_example(Hold, "hold_id", where={"status": "active"}),
)
def release_hold(ctx: Ctx, hold_id: HoldId) -> Hold:
    """Lift an active hold; with no hold left, the learner's waiting orders go to processing.

    Args:
        hold_id: The hold.
    """
    hold = ctx.get(Hold, hold_id, field="hold_id")
    if hold.status != "active":
        raise Conflict(f"hold {hold.id} was released at {hold.released_at}", field="hold_id", hint="nothing to do")
    done = ctx.update(hold, status="released", released_at=ctx.now())
    if not _held(ctx, hold.learner_id):
        for o in ctx.where(Order, learner_id=hold.learner_id, status="on_hold"):
            ctx.update(o, status="processing")
    return done


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    learner = ctx.first(Learner, status="graduated")
    return (
        None
        if learner is None
        else {
            "learner_id": learner.id,
            "recipient_type": "employer",
            "recipient_name": "Northwind Analytics",
            "recipient_email": "hr@northwind.example",
            "consent": True,
        }
    )


@service.tool(intent="order a transcript", write=True, example=_example_order)
def order_transcript(
    ctx: Ctx,
    learner_id: LearnerId,
    recipient_type: RecipientType,
    recipient_name: CompanyName,
    consent: bool,
    delivery: Delivery = "electronic",
    recipient_email: Email | None = None,
    mailing_address: Annotated[str, StringConstraints(max_length=300)] = "",
    copies: Annotated[int, Field(ge=1, le=5)] = 1,
) -> Order:
    """Order a transcript for a recipient with the learner's consent; it waits on hold while holds are active.

    Args:
        learner_id: The learner.
        recipient_type: institution, employer, self or other.
        recipient_name: The receiving organization or person.
        consent: The learner's FERPA release (must be true).
        delivery: electronic (needs recipient_email) or mail (needs mailing_address).
        recipient_email: Where the secure PDF goes.
        mailing_address: Where paper copies go.
        copies: Copies, 1-5 (electronic: 1).
    """
    learner = ctx.get(Learner, learner_id, field="learner_id")
    if not consent:
        raise RuleViolation(
            "the learner must consent to the release", field="consent", hint="ask the learner to sign the FERPA release"
        )
    if delivery == "electronic" and (recipient_email is None or copies != 1):
        raise RuleViolation(
            "an electronic transcript goes as one copy to an e-mail",
            field="recipient_email",
            hint="give recipient_email and one copy",
        )
    if delivery == "mail" and not mailing_address.strip():
        raise RuleViolation("a mailed transcript needs an address", field="mailing_address", hint="give it")
    status: OrderStatus = "on_hold" if _held(ctx, learner.id) else "processing"
    return ctx.create(
        Order,
        learner_id=learner.id,
        recipient_type=recipient_type,
        recipient_name=recipient_name,
        recipient_email=recipient_email,
        mailing_address=mailing_address.strip(),
        delivery=delivery,
        copies=copies,
        fee=FEE[delivery] * copies,
        status=status,
    )


@service.tool(
    intent="send the transcript",
    write=True,
    example=first_example(Order, "order_id", where={"status": "processing"}),
)
def send_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Send a processing order's transcript to its recipient.

    Args:
        order_id: The order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "processing":
        raise RuleViolation(
            f"order {order.id} is {order.status}",
            field="order_id",
            hint="release the learner's holds first"
            if order.status == "on_hold"
            else "only processing orders are sent",
        )
    return ctx.update(order, status="sent", sent_at=ctx.now())


@service.tool(
    intent="confirm the transcript was delivered",
    write=True,
    example=first_example(Order, "order_id", where={"status": "sent"}),
)
def confirm_delivery(ctx: Ctx, order_id: OrderId) -> Order:
    """Record that the recipient downloaded or received a sent transcript.

    Args:
        order_id: The order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "sent":
        raise RuleViolation(f"order {order.id} is {order.status}", field="order_id", hint="only sent orders")
    return ctx.update(order, status="delivered")


@service.tool(
    intent="cancel the transcript order",
    write=True,
    destructive=True,
    example=first_example(Order, "order_id", where={"status": "on_hold"}),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an order that was not sent yet.

    Args:
        order_id: The order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in ("submitted", "on_hold", "processing"):
        raise RuleViolation(f"order {order.id} is {order.status}", field="order_id", hint="it is already out")
    return ctx.update(order, status="cancelled")


@service.tool(
    intent="issue a credential",
    write=True,
    example=first_example(
        Learner, "learner_id", where={"status": "graduated"}, type="certificate", title="Certificate in Data Analytics"
    ),
)
def issue_credential(ctx: Ctx, learner_id: LearnerId, type: CredentialType, title: Title) -> Credential:
    """Issue a diploma (graduates only, once), certificate or badge with a verification code.

    Args:
        learner_id: The learner.
        type: diploma, certificate or badge.
        title: What it certifies.
    """
    learner = ctx.get(Learner, learner_id, field="learner_id")
    if type == "diploma":
        if learner.status != "graduated":
            raise RuleViolation(f"{learner.name} has not graduated", field="learner_id", hint="diplomas are final")
        if ctx.where(Credential, learner_id=learner.id, type="diploma", status="issued"):
            raise Conflict(f"{learner.name} already has a diploma", field="type", hint="revoke it to reissue")
    code = _code(ctx.next_number(Credential, "code") + 1000)
    return ctx.create(Credential, learner_id=learner.id, type=type, title=title, issued_on=ctx.today(), code=code)


@service.tool(
    intent="revoke the credential",
    write=True,
    destructive=True,
    example=first_example(
        Credential, "credential_id", where={"status": "issued", "type": "badge"}, reason="Issued in error"
    ),
)
def revoke_credential(ctx: Ctx, credential_id: CredentialId, reason: Text) -> Credential:
    """Revoke an issued credential; it then verifies as revoked.

    Args:
        credential_id: The credential.
        reason: Why (required).
    """
    cred = ctx.get(Credential, credential_id, field="credential_id")
    if cred.status != "issued":
        raise Conflict(f"credential {cred.id} is already revoked", field="credential_id", hint="nothing to do")
    if not reason.strip():
        raise RuleViolation("a revocation needs a reason", field="reason", hint="say why")
    return ctx.update(cred, status="revoked", revoked_reason=reason.strip())


@service.tool(
    intent="verify the credential",
    write=True,
    example=first_example(
        Credential,
        None,
        fields={"code": "code"},
        requester_org="Northwind Analytics",
        requester_email="hr@northwind.example",
    ),
)
def verify_credential(
    ctx: Ctx, code: Annotated[str, StringConstraints(max_length=20)], requester_org: CompanyName, requester_email: Email
) -> Verification:
    """Check a verification code for a third party; the check is logged.

    Args:
        code: The code printed on the credential.
        requester_org: The organization asking (an employer, a school).
        requester_email: Their e-mail.
    """
    cred = ctx.first(Credential, code=code.strip().upper())
    result: Literal["valid", "revoked", "not_found"] = (
        "not_found" if cred is None else "valid" if cred.status == "issued" else "revoked"
    )
    return ctx.create(
        Verification,
        code=code.strip().upper(),
        credential_id=None if cred is None else cred.id,
        requester_org=requester_org,
        requester_email=requester_email,
        result=result,
    )


# -- seed -------------------------------------------------------------------------------------

PROGRAMS = ("BS Computer Science", "BA Economics", "MBA", "BS Nursing", "Certificate in Data Analytics")


@service.seeder
def seed(s: SeedContext) -> None:
    """Learners from the world's consumers, holds, orders in every state, credentials and verifications."""
    pop = s.population
    staff = pop.staff("Finance", "People", "Operations", fallback=3)
    people = list(pop.consumers[:12]) or list(pop.contacts[:12])
    today = s.now.date()
    made = []
    for k, p in enumerate(people):
        grad = k % 3 != 0
        made.append(
            s.create(
                Learner,
                student_number=f"S{2019000 + 37 * k:07d}",
                name=p.name,
                email=p.email,
                program=PROGRAMS[k % len(PROGRAMS)],
                status="graduated" if grad else "withdrawn" if k == 9 else "enrolled",
                graduated_on=today - dt.timedelta(days=200 + 90 * k) if grad else None,
                created_at=s.ago(days=1500),
                updated_at=s.ago(days=30),
            )
        )
    held = (made[0], made[4])
    for k, (learner, htype) in enumerate(zip(held, ("financial", "library"), strict=True)):
        s.create(
            Hold,
            learner_id=learner.id,
            type=htype,
            reason=("Unpaid tuition balance", "Overdue books")[k],
            amount=125000 if htype == "financial" else 0,
            placed_by=staff[k % len(staff)].email,
            created_at=s.ago(days=20 + k),
        )
    s.create(
        Hold,
        learner_id=made[2].id,
        type="registrar",
        reason="Missing final grade",
        placed_by=staff[0].email,
        status="released",
        released_at=s.ago(days=3),
        created_at=s.ago(days=40),
    )
    plan: tuple[tuple[int, OrderStatus, Delivery, RecipientType], ...] = (
        (0, "on_hold", "electronic", "employer"),
        (1, "delivered", "electronic", "institution"),
        (2, "sent", "mail", "institution"),
        (4, "on_hold", "mail", "self"),
        (5, "processing", "electronic", "employer"),
        (7, "cancelled", "electronic", "other"),
        (8, "processing", "electronic", "institution"),
    )
    orgs = [c for c in pop.customers[:8]]
    for j, (k, status, delivery, rtype) in enumerate(plan):
        learner, org = made[k], orgs[j % len(orgs)]
        contact = pop.first_contact(org)
        s.create(
            Order,
            learner_id=learner.id,
            recipient_type=rtype,
            recipient_name=learner.name if rtype == "self" else org.name,
            recipient_email=None
            if delivery == "mail"
            else learner.email
            if rtype == "self"
            else contact.email
            if contact
            else f"records@{org.domain}",
            mailing_address="" if delivery == "electronic" else f"{org.address.street}, {org.address.city}",
            delivery=delivery,
            fee=FEE[delivery],
            status=status,
            sent_at=s.ago(days=4) if status in ("sent", "delivered") else None,
            created_at=s.ago(days=10 - j),
            updated_at=s.ago(days=2),
        )
    n = 0
    for learner in made:
        if learner.status == "graduated":
            for ctype, title in (("diploma", learner.program), ("badge", "Dean's List")):
                n += 1
                s.create(
                    Credential,
                    learner_id=learner.id,
                    type=ctype,
                    title=title,
                    issued_on=learner.graduated_on or today,
                    code=_code(n),
                    status="revoked" if n == 4 else "issued",
                    revoked_reason="Issued in error" if n == 4 else "",
                    created_at=s.ago(days=100),
                )
    for j, cred in enumerate(s.records(Credential)[:3]):
        org = orgs[j % len(orgs)]
        s.create(
            Verification,
            code=cred.code,
            credential_id=cred.id,
            requester_org=org.name,
            requester_email=f"hr@{org.domain}",
            result="revoked" if cred.status == "revoked" else "valid",
            created_at=s.ago(days=5 + j),
        )
