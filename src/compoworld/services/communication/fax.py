"""Faxline: cloud fax numbers, outbound faxes with delivery status and retries, inbound faxes, cover pages, contacts.

Modeled on the Documo mFax API (``/v1/fax/send``, ``/v1/faxes``,
``/v1/fax/{id}/resend``, ``/v1/fax/{id}/cancel``, ``/v1/numbers``,
``/v1/coverpages``, ``/v1/contacts``) and eFax Corporate: fax numbers with a
caller ID and fax-to-email delivery; outbound faxes with ``status`` queued
(scheduled), sending, success, failed (with ``resultCode`` busy / no_answer /
not_a_fax_machine) or cancelled, pages, an optional cover page, and up to
three attempts; inbound faxes received on a number, read, assigned to a
colleague, forwarded by e-mail and archived.

A fax goes out from an active number, has 1-200 pages (a cover page adds
one) and goes only to the home country unless international faxing is
enabled for the number. A fax scheduled in the future stays queued and can be
cancelled; otherwise it is dialled at once: numbers that are not fax machines
fail, and a number the contact book marks busy fails busy. A failed fax can be
resent until it has had three attempts. A number with queued faxes cannot be
released. Contacts are unique by fax number; the default cover page cannot be
deleted.
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
from compoworld.engine.types import CompanyName, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee

__all__ = ["service"]

service = Service(
    "fax",
    title="Faxline",
    category="fax",
    modeled_on="Documo mFax API (fax send / resend / cancel, faxes with status and resultCode, numbers, cover pages, "
    "contacts) and eFax Corporate (fax-to-email delivery, inbound fax handling)",
    description="The company's cloud fax: fax numbers with caller ID and e-mail delivery, outbound faxes to clinics, "
    "insurers and suppliers with delivery status and retries, inbound faxes assigned and forwarded to colleagues, "
    "cover pages and a fax contact book.",
)

NumberId = Annotated[str, IdOf("fax.number")]
ContactId = Annotated[str, IdOf("fax.contact")]
CoverId = Annotated[str, IdOf("fax.cover_page")]
FaxId = Annotated[str, IdOf("fax.outbound_fax")]
InboundId = Annotated[str, IdOf("fax.inbound_fax")]

Pages = Annotated[int, Field(ge=1, le=200)]
"""A page count (1-200)."""
OutStatus = Literal["queued", "success", "failed", "cancelled"]
ResultCode = Literal["ok", "busy", "no_answer", "not_a_fax_machine", "cancelled"]
MAX_ATTEMPTS = 3


class FaxNumber(Record):
    """A fax number of the company."""

    id: NumberId
    number: Phone
    """The number."""
    label: Title
    """What it is for (Billing, Front desk)."""
    caller_id: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """The name shown to recipients (CSID)."""
    deliver_to: tuple[Email, ...] = ()
    """Employees inbound faxes are e-mailed to."""
    international: bool = False
    """Whether it may fax abroad."""
    status: Literal["active", "released"] = "active"
    """active or released."""
    created_at: Annotated[DateTime, CREATED]
    """When it was provisioned."""


class Contact(Record):
    """A fax contact."""

    id: ContactId
    name: PersonName
    """The person or desk."""
    company: CompanyName | None = None
    """Their organization."""
    fax_number: Phone
    """Their fax number (unique in the book)."""
    email: Email | None = None
    """Their e-mail."""
    line_busy: bool = False
    """Whether their line is known to be busy (faxes fail busy)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class CoverPage(Record):
    """A cover page template."""

    id: CoverId
    name: Title
    """Its name."""
    body: Text
    """Its text."""
    is_default: bool = False
    """Used when a fax names none but asks for one."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class OutboundFax(Record):
    """A fax sent from one of the company's numbers."""

    id: FaxId
    from_number_id: NumberId
    """The sending number."""
    to_number: Phone
    """The destination fax number."""
    recipient_name: PersonName | None = None
    """Who it is for."""
    recipient_company: CompanyName | None = None
    """Their organization."""
    subject: Title
    """Its subject."""
    cover_page_id: CoverId | None = None
    """The cover page, if any."""
    documents: tuple[Annotated[str, StringConstraints(min_length=1, max_length=200)], ...]
    """File names of the documents."""
    pages: Pages
    """Pages sent (cover included)."""
    sent_by: Email
    """The employee who sent it."""
    status: OutStatus = "queued"
    """queued, success, failed or cancelled."""
    result_code: ResultCode | None = None
    """ok, busy, no_answer, not_a_fax_machine or cancelled."""
    attempts: int = 0
    """Dialing attempts so far."""
    send_at: DateTime | None = None
    """When a scheduled fax goes out."""
    completed_at: DateTime | None = None
    """When it finished."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class InboundFax(Record):
    """A fax received on one of the company's numbers."""

    id: InboundId
    number_id: NumberId
    """The receiving number."""
    from_number: Phone
    """The sender's fax number."""
    from_name: Annotated[str, StringConstraints(max_length=120)] = ""
    """The sender's caller ID."""
    pages: Pages
    """Pages received."""
    status: Literal["unread", "read", "archived"] = "unread"
    """unread, read or archived."""
    assigned_to: Email | None = None
    """The employee handling it."""
    forwarded_to: tuple[Email, ...] = ()
    """Addresses it was e-mailed to."""
    received_at: DateTime
    """When it arrived."""


# -- rules ------------------------------------------------------------------------------------


def _guard_number(ctx: Ctx, new: Any, old: Any) -> None:
    for e in new.deliver_to:
        require_employee(ctx, e, field="deliver_to", hint="faxes are delivered to staff mailboxes")
    if new.status == "released" and old.status == "active":
        queued = ctx.first(OutboundFax, from_number_id=old.id, status="queued")
        if queued is not None:
            raise Conflict(
                f"fax {queued.id} is queued on this number", field="number_id", hint="cancel queued faxes first"
            )


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    same = ctx.first(Contact, fax_number=new.fax_number)
    if same is not None and same.id != new.id:
        raise Conflict(f"{same.name} already has {new.fax_number}", field="fax_number", hint="update that contact")


def _guard_cover_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.is_default:
        raise RuleViolation(
            "the default cover page stays", field="cover_page_id", hint="make another one default first"
        )


def _guard_cover(ctx: Ctx, new: Any, old: Any) -> None:
    if new.is_default:
        for other in ctx.where(CoverPage, is_default=True):
            if other.id != new.id:
                ctx.update(other, is_default=False)


numbers = service.resource(
    FaxNumber,
    name="number",
    plural="numbers",
    prefix="num",
    create=False,
    filters=("status", "number", "international"),
    search=("label", "caller_id"),
    update=("label", "caller_id", "deliver_to", "international"),
    delete=False,
    transitions={"release": Transition("status", ("active",), "released", "release the fax number", destructive=True)},
    guard_update=_guard_number,
    title="fax number",
)
contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="ct",
    create=("name", "company", "fax_number", "email"),
    filters=("fax_number", "company", "email"),
    search=("name", "company"),
    update=("name", "company", "email"),
    guard_create=_guard_contact,
    title="fax contact",
)
covers = service.resource(
    CoverPage,
    name="cover_page",
    plural="cover_pages",
    prefix="cov",
    create=("name", "body", "is_default"),
    filters=("is_default",),
    search=("name",),
    update=("name", "body", "is_default"),
    guard_create=_guard_cover,
    guard_update=_guard_cover,
    guard_delete=_guard_cover_delete,
    title="cover page",
)
outbound = service.resource(
    OutboundFax,
    name="outbound_fax",
    plural="outbound_faxes",
    prefix="fax",
    create=False,
    filters=("from_number_id", "to_number", "status", "sent_by", "result_code"),
    search=("subject", "recipient_name", "recipient_company"),
    delete=False,
    title="outbound fax",
)
inbound = service.resource(
    InboundFax,
    name="inbound_fax",
    plural="inbound_faxes",
    prefix="in",
    create=False,
    filters=("number_id", "status", "assigned_to", "from_number"),
    search=("from_name",),
    delete=False,
    transitions={
        "mark_read": Transition("status", ("unread",), "read", "mark the inbound fax read"),
        "archive": Transition("status", ("unread", "read"), "archived", "archive the inbound fax"),
    },
    title="inbound fax",
)


# -- domain tools -----------------------------------------------------------------------------


def _country_code(number: str) -> str:
    """The E.164 country calling code of a number ('+1', '+49', '+351')."""
    d = number[1:]
    if d[0] in "17":
        return "+" + d[0]
    two = d[:2]
    three_digit = (d[0] == "2" and two not in ("20", "27")) or two in (
        "35",
        "37",
        "38",
        "42",
        "50",
        "59",
        "67",
        "68",
        "69",
        "80",
        "85",
        "87",
        "88",
        "96",
        "97",
        "99",
    )
    return "+" + (d[:3] if three_digit else two)


def _dial(ctx: Ctx, fax: OutboundFax) -> OutboundFax:
    contact = ctx.first(Contact, fax_number=fax.to_number)
    code: ResultCode
    if contact is None and fax.to_number.endswith("00"):
        code = "not_a_fax_machine"
    elif contact is not None and contact.line_busy:
        code = "busy"
    else:
        code = "ok"
    return ctx.update(
        fax,
        status="success" if code == "ok" else "failed",
        result_code=code,
        attempts=fax.attempts + 1,
        completed_at=ctx.now(),
    )


def _example_send(ctx: Ctx) -> dict[str, Any] | None:
    num = ctx.first(FaxNumber, status="active")
    contact = next((c for c in ctx.scan(Contact) if not c.line_busy), None)
    if num is None or contact is None:
        return None
    return {
        "from_number_id": num.id,
        "to_number": contact.fax_number,
        "subject": "Signed purchase order",
        "documents": ["po-4471.pdf"],
        "pages": 2,
        "sent_by": ctx.population.employees[0].email,
    }


@service.tool(intent="send the fax", write=True, example=_example_send)
def send_fax(
    ctx: Ctx,
    from_number_id: NumberId,
    to_number: Phone,
    subject: Title,
    documents: Annotated[list[Annotated[str, StringConstraints(min_length=1, max_length=200)]], Field(min_length=1)],
    pages: Pages,
    sent_by: Email,
    cover: bool = False,
    cover_page_id: CoverId | None = None,
    send_at: DateTime | None = None,
) -> OutboundFax:
    """Send a fax from an active number now (or schedule it); the recipient comes from the contact book.

    Args:
        from_number_id: The sending number.
        to_number: The destination fax number.
        subject: Its subject.
        documents: File names of the documents.
        pages: Pages of the documents (a cover page adds one; 200 at most).
        sent_by: The employee sending it.
        cover: Add the default cover page (or give cover_page_id).
        cover_page_id: A cover page to add.
        send_at: A future time to send it; omit to send now.
    """
    num = ctx.get(FaxNumber, from_number_id, field="from_number_id")
    if num.status != "active":
        raise RuleViolation(f"{num.number} is released", field="from_number_id", hint="send from an active number")
    require_employee(ctx, sent_by, field="sent_by", hint="faxes are sent by staff")
    if to_number == num.number:
        raise RuleViolation("a number cannot fax itself", field="to_number", hint="check the destination")
    if not num.international and _country_code(to_number) != _country_code(num.number):
        raise RuleViolation(
            f"{num.number} is not enabled for international faxing", field="to_number", hint="enable it on the number"
        )
    page = None
    if cover_page_id is not None:
        page = ctx.get(CoverPage, cover_page_id, field="cover_page_id")
    elif cover:
        page = ctx.first(CoverPage, is_default=True)
        if page is None:
            raise RuleViolation("there is no default cover page", field="cover", hint="give cover_page_id")
    total = pages + (1 if page else 0)
    if total > 200:
        raise RuleViolation(f"{total} pages is over 200", field="pages", hint="split the fax")
    if send_at is not None and send_at <= ctx.now():
        raise RuleViolation("send_at must be in the future", field="send_at", hint="omit it to send now")
    contact = ctx.first(Contact, fax_number=to_number)
    fax = ctx.create(
        OutboundFax,
        from_number_id=num.id,
        to_number=to_number,
        recipient_name=contact.name if contact else None,
        recipient_company=contact.company if contact else None,
        subject=subject,
        cover_page_id=page.id if page else None,
        documents=tuple(documents),
        pages=total,
        sent_by=sent_by,
        send_at=send_at,
    )
    return fax if send_at is not None else _dial(ctx, fax)


@service.tool(
    intent="cancel the scheduled fax",
    write=True,
    example=first_example(OutboundFax, "fax_id", where={"status": "queued"}),
)
def cancel_fax(ctx: Ctx, fax_id: FaxId) -> OutboundFax:
    """Cancel a queued (scheduled) fax.

    Args:
        fax_id: The fax.
    """
    fax = ctx.get(OutboundFax, fax_id, field="fax_id")
    if fax.status != "queued":
        raise Conflict(f"fax is {fax.status}", field="fax_id", hint="only queued faxes can be cancelled")
    return ctx.update(fax, status="cancelled", result_code="cancelled", completed_at=ctx.now())


@service.tool(
    intent="resend the failed fax",
    write=True,
    example=first_example(OutboundFax, "fax_id", where={"status": "failed"}, match=lambda c, f: f.attempts < 3),
)
def resend_fax(ctx: Ctx, fax_id: FaxId) -> OutboundFax:
    """Dial a failed fax again (three attempts at most), from its number if it is still active.

    Args:
        fax_id: The fax.
    """
    fax = ctx.get(OutboundFax, fax_id, field="fax_id")
    if fax.status != "failed":
        raise Conflict(f"fax is {fax.status}", field="fax_id", hint="only failed faxes are resent")
    if fax.attempts >= MAX_ATTEMPTS:
        raise RuleViolation(f"already tried {fax.attempts} times", field="fax_id", hint="send a new fax")
    if ctx.get(FaxNumber, fax.from_number_id).status != "active":
        raise RuleViolation("its number was released", field="fax_id", hint="send a new fax from an active number")
    return _dial(ctx, fax)


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(InboundFax, status="unread")
    return None if f is None else {"inbound_fax_id": f.id, "assignee_email": ctx.population.employees[1].email}


@service.tool(intent="assign the inbound fax", write=True, example=_example_assign)
def assign_inbound(ctx: Ctx, inbound_fax_id: InboundId, assignee_email: Email) -> InboundFax:
    """Assign an inbound fax that is not archived to a colleague.

    Args:
        inbound_fax_id: The inbound fax.
        assignee_email: The employee who handles it.
    """
    f = ctx.get(InboundFax, inbound_fax_id, field="inbound_fax_id")
    if f.status == "archived":
        raise RuleViolation("the fax is archived", field="inbound_fax_id", hint="archived faxes are closed")
    require_employee(ctx, assignee_email, field="assignee_email", hint="assign faxes to staff")
    if f.assigned_to == assignee_email:
        raise Conflict(f"already assigned to {assignee_email}", field="assignee_email", hint="nothing to do")
    return ctx.update(f, assigned_to=assignee_email)


def _example_forward(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(InboundFax, status="read")
    return None if f is None else {"inbound_fax_id": f.id, "to": [ctx.population.contacts[0].email]}


@service.tool(intent="forward the inbound fax by e-mail", write=True, example=_example_forward)
def forward_inbound(
    ctx: Ctx, inbound_fax_id: InboundId, to: Annotated[list[Email], Field(min_length=1, max_length=10)]
) -> InboundFax:
    """E-mail an inbound fax (as a PDF) to up to 10 addresses, each once.

    Args:
        inbound_fax_id: The inbound fax.
        to: E-mail addresses.
    """
    f = ctx.get(InboundFax, inbound_fax_id, field="inbound_fax_id")
    again = [e for e in to if e in f.forwarded_to]
    if again or len(set(to)) != len(to):
        raise Conflict(f"already forwarded to {again}", field="to", hint="list only new addresses")
    return ctx.update(f, forwarded_to=(*f.forwarded_to, *to), status="read" if f.status == "unread" else f.status)


# -- seed -------------------------------------------------------------------------------------


def _fax_of(phone: str, k: int) -> str:
    return phone[:-2] + f"{(int(phone[-2:]) + 11 + k) % 100:02d}".replace("00", "01")


@service.seeder
def seed(s: SeedContext) -> None:
    """Numbers of the home office, contacts at customer companies, outbound faxes in every state and inbound faxes."""
    pop = s.population
    home = pop.home.phone
    ops = pop.staff("Operations", "Finance", fallback=3)
    labels = (("Front desk", "FRONT DESK"), ("Billing", "BILLING DEPT"), ("Legal", "LEGAL"))
    nums = [
        s.create(
            FaxNumber,
            number=home[:-3] + f"{900 + k}",
            label=label,
            caller_id=f"{pop.home.name[:20].upper()} {cid}"[:40],
            deliver_to=(ops[k % len(ops)].email,),
            international=k == 1,
            created_at=s.ago(days=700 - 50 * k),
        )
        for k, (label, cid) in enumerate(labels)
    ]
    s.create(
        CoverPage,
        name="Standard",
        body=f"{pop.home.name} — confidential fax. If received in error, please call {home}.",
        is_default=True,
        created_at=s.ago(days=600),
    )
    s.create(
        CoverPage, name="Billing", body="Billing department: invoices and remittances.", created_at=s.ago(days=300)
    )
    made: list[Contact] = []
    for k, company in enumerate(pop.customers[:6]):
        person = pop.first_contact(company)
        if person is None:
            continue
        made.append(
            s.create(
                Contact,
                name=person.name,
                company=company.name,
                fax_number=_fax_of(company.phone, k),
                email=person.email,
                line_busy=k == 4,
                created_at=s.ago(days=200 - k),
            )
        )
    outcomes: tuple[tuple[OutStatus, ResultCode | None, int], ...] = (
        ("success", "ok", 1),
        ("success", "ok", 2),
        ("failed", "busy", 1),
        ("failed", "no_answer", 3),
        ("queued", None, 0),
        ("cancelled", "cancelled", 0),
    )
    subjects = ("Signed purchase order", "Remittance advice", "Certificate of insurance", "Credit application")
    for k, (status, code, attempts) in enumerate(outcomes):
        c = (
            made[k % len(made)]
            if status != "failed" or code != "busy"
            else next((m for m in made if m.line_busy), made[0])
        )
        created = s.ago(days=6 - k)
        s.create(
            OutboundFax,
            from_number_id=nums[k % 2].id,
            to_number=c.fax_number,
            recipient_name=c.name,
            recipient_company=c.company,
            subject=subjects[k % len(subjects)],
            documents=(f"doc-{3100 + k}.pdf",),
            pages=2 + k,
            sent_by=ops[k % len(ops)].email,
            status=status,
            result_code=code,
            attempts=attempts,
            send_at=s.ago(days=-2) if status == "queued" else None,
            completed_at=created + dt.timedelta(minutes=3) if status not in ("queued",) else None,
            created_at=created,
            updated_at=created,
        )
    for k, c in enumerate(made[:5]):
        s.create(
            InboundFax,
            number_id=nums[k % len(nums)].id,
            from_number=c.fax_number,
            from_name=(c.company or c.name)[:40].upper(),
            pages=1 + k,
            status=("unread", "unread", "read", "read", "archived")[k],
            assigned_to=ops[k % len(ops)].email if k >= 2 else None,
            received_at=s.ago(hours=5 + 20 * k),
        )
