"""Inkpost: print and mail API for postcards, letters, self-mailers and checks, with tracking.

Modeled on the Lob Print & Mail API (v1): Addresses (name or company, lines,
city, state, ZIP, country; US addresses verified on creation and marked
``deliverable`` or ``undeliverable``), HTML Templates with ``{{merge_variables}}``
that every piece using them must fill, Postcards (4x6, 6x9, 6x11; only 4x6
goes abroad), Letters (color, double-sided, certified or registered mail for US
addresses only), Self-mailers (US only), Checks drawn on a Bank Account that
must first be verified with its two micro-deposit amounts, a ``send_date`` up to
180 days ahead with a cancellation window until then (default five minutes after
creation), ``deleted`` (cancelled) pieces, and tracking events (Mailed, In Transit,
In Local Area, Processed for Delivery, Delivered, Re-Routed, Returned to Sender).
No piece goes to an undeliverable address, and an address or template in use by
a piece that has not been mailed cannot be deleted.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    City,
    CompanyName,
    Country,
    DateTime,
    IdOf,
    PersonName,
    PostalCode,
    Title,
)
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "directmail",
    title="Inkpost",
    category="direct_mail",
    modeled_on="Lob Print & Mail API v1 (Addresses, Templates, Postcards, Letters, Self Mailers, Checks, "
    "Bank Accounts with micro-deposit verification, tracking events)",
    description="Printed mail sent by API for the home company: verified postal addresses, HTML templates "
    "with merge variables, postcards, letters, self-mailers and checks with a send date and cancellation "
    "window, bank accounts verified by micro-deposits, and the postal tracking events of every piece.",
)

AddressId = Annotated[str, IdOf("directmail.address")]
TemplateId = Annotated[str, IdOf("directmail.template")]
PostcardId = Annotated[str, IdOf("directmail.postcard")]
LetterId = Annotated[str, IdOf("directmail.letter")]
SelfMailerId = Annotated[str, IdOf("directmail.self_mailer")]
CheckId = Annotated[str, IdOf("directmail.check")]
BankAccountId = Annotated[str, IdOf("directmail.bank_account")]

Street = Annotated[str, StringConstraints(min_length=1, max_length=64)]
State = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
Deliverability = Literal["deliverable", "deliverable_missing_unit", "undeliverable", "not_verified"]
PieceStatus = Literal["processed", "cancelled", "mailed", "in_transit", "delivered", "returned_to_sender"]
MailType = Literal["usps_first_class", "usps_standard"]
EventType = Literal[
    "mailed", "in_transit", "in_local_area", "processed_for_delivery", "delivered", "re_routed", "returned_to_sender"
]
MergeVars = dict[Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]{0,39}$")], str]

WINDOW = dt.timedelta(minutes=5)
MAX_AHEAD = dt.timedelta(days=180)
VAR = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")
EVENT_STATUS: dict[str, PieceStatus] = {
    "mailed": "mailed",
    "in_transit": "in_transit",
    "in_local_area": "in_transit",
    "processed_for_delivery": "in_transit",
    "re_routed": "in_transit",
    "delivered": "delivered",
    "returned_to_sender": "returned_to_sender",
}


class Address(Created):
    """A postal address a piece is mailed to or from."""

    id: AddressId
    name: PersonName | None = None
    """Recipient's name (name or company is required)."""
    company: CompanyName | None = None
    """Company name."""
    address_line1: Street
    """Street and number."""
    address_line2: Street | None = None
    """Suite, unit or floor."""
    city: City
    """City."""
    state: State | None = None
    """US state code (required for US addresses)."""
    zip_code: PostalCode
    """ZIP or postal code."""
    country: Country = "US"
    """ISO country code."""
    deliverability: Deliverability = "not_verified"
    """US verification result; other countries are not verified."""


class Template(Timestamped):
    """An HTML design with merge variables, reused across pieces."""

    id: TemplateId
    description: Title
    """The template's name."""
    html: Annotated[str, StringConstraints(min_length=1, max_length=100000)]
    """The HTML, with {{variable}} placeholders."""
    merge_variables: tuple[str, ...] = ()
    """The variables its HTML uses."""


class _Piece(Timestamped):
    to_address_id: AddressId
    """Recipient address."""
    from_address_id: AddressId | None = None
    """Return address (required for letters and checks)."""
    description: Title | None = None
    """Internal description."""
    template_id: TemplateId | None = None
    """The template of its content."""
    merge_variables: MergeVars = Field(default_factory=dict)
    """Values for the template's variables."""
    mail_type: MailType = "usps_first_class"
    """usps_first_class or usps_standard (marketing mail, slower)."""
    send_date: DateTime
    """When it goes to print; cancellable until then."""
    status: PieceStatus = "processed"
    """processed (in the cancellation window), cancelled, mailed, in_transit, delivered or returned_to_sender."""
    expected_delivery_date: Annotated[dt.date, Field()] | None = None
    """Estimated delivery day."""


class Postcard(_Piece):
    """A postcard."""

    id: PostcardId
    size: Literal["4x6", "6x9", "6x11"] = "4x6"
    """Size in inches; only 4x6 is mailed abroad."""


class Letter(_Piece):
    """A letter in an envelope."""

    id: LetterId
    color: bool = False
    """Printed in color."""
    double_sided: bool = True
    """Printed on both sides."""
    extra_service: Literal["certified", "certified_return_receipt", "registered"] | None = None
    """Certified or registered mail (US only, first class)."""


class SelfMailer(_Piece):
    """A folded self-mailer (US only)."""

    id: SelfMailerId
    size: Literal["6x18_bifold", "11x9_bifold", "12x9_bifold"] = "6x18_bifold"
    """Format."""


class Check(_Piece):
    """A printed check drawn on a verified bank account."""

    id: CheckId
    bank_account_id: BankAccountId
    """The paying account."""
    amount_cents: Annotated[int, Field(ge=1, le=99_999_999)]
    """Amount, up to 999,999.99."""
    check_number: int
    """Sequential per bank account."""
    memo: Annotated[str, StringConstraints(max_length=40)] | None = None
    """Memo line."""


class BankAccount(Timestamped):
    """A US bank account that checks are drawn on, verified by two micro-deposits."""

    id: BankAccountId
    description: Title
    """The account's name."""
    routing_number: Annotated[str, StringConstraints(pattern=r"^\d{9}$")]
    """ABA routing number."""
    account_number_last4: Annotated[str, StringConstraints(pattern=r"^\d{4}$")]
    """Last four digits of the account number."""
    account_type: Literal["company", "individual"] = "company"
    """company or individual."""
    signatory: PersonName
    """Who signs the checks."""
    verified: bool = False
    """Whether the micro-deposits were confirmed."""
    next_check_number: int = 10001
    """Number of the next check."""
    micro_deposits: tuple[int, int]
    """The two deposit amounts in cents (hidden from API responses in the real product)."""


class TrackingEvent(Record):
    """A USPS scan of a piece."""

    id: Annotated[str, IdOf("directmail.tracking_event")]
    piece_id: str
    """The postcard, letter, self-mailer or check."""
    type: EventType
    """mailed, in_transit, in_local_area, processed_for_delivery, delivered, re_routed or returned_to_sender."""
    location: Annotated[str, StringConstraints(pattern=r"^\d{5}$")] | None = None
    """ZIP code of the facility."""
    time: DateTime
    """When it was scanned."""


# -- rules ------------------------------------------------------------------------------------


def _guard_cancel(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "cancelled" and old.send_date <= ctx.now():
        raise RuleViolation(
            f"{old.id} went to print at {old.send_date:%Y-%m-%d %H:%M} UTC; the cancellation window has closed",
            field=f"{type(old).__name__.lower().replace('selfmailer', 'self_mailer')}_id",
            hint="pieces can only be cancelled before their send_date",
        )


def _unsent_users(ctx: Ctx, **equals: Any) -> list[Any]:
    models: tuple[Any, ...] = (Postcard, Letter, SelfMailer, Check)
    out: list[Any] = []
    for model in models:
        out += [p for p in ctx.where(model, **equals) if p.status == "processed"]
    return out


def _guard_address_delete(ctx: Ctx, new: Any, old: Any) -> None:
    used = _unsent_users(ctx, to_address_id=old.id) + _unsent_users(ctx, from_address_id=old.id)
    if used:
        raise Conflict(f"{used[0].id} still mails to or from it", field="address_id", hint="cancel the piece first")


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        used = _unsent_users(ctx, template_id=old.id)
        if used:
            raise Conflict(f"{used[0].id} still uses it", field="template_id", hint="wait until it is mailed")
        return
    ctx.update(new, merge_variables=tuple(dict.fromkeys(VAR.findall(new.html))))


def _piece(
    ctx: Ctx,
    model: Any,
    to_address_id: str,
    from_address_id: str | None,
    template_id: str | None,
    merge_variables: dict[str, str] | None,
    send_date: dt.datetime | None,
    mail_type: str,
    **extra: Any,
) -> Any:
    to = ctx.get(Address, to_address_id, field="to_address_id")
    if to.deliverability == "undeliverable":
        raise RuleViolation(
            f"address {to.id} is undeliverable", field="to_address_id", hint="correct the address and create it again"
        )
    if from_address_id is not None:
        sender = ctx.get(Address, from_address_id, field="from_address_id")
        if sender.country != "US":
            raise RuleViolation("the return address must be in the US", field="from_address_id", hint="use a US one")
    values = dict(merge_variables or {})
    if template_id is not None:
        tpl = ctx.get(Template, template_id, field="template_id")
        missing = [v for v in tpl.merge_variables if v not in values]
        if missing:
            raise RuleViolation(
                f"merge variables missing for template {tpl.id}: {', '.join(missing)}",
                field="merge_variables",
                hint="give a value for every {{variable}} of the template",
            )
    now = ctx.now()
    when = send_date or now + WINDOW
    if when < now or when > now + MAX_AHEAD:
        raise RuleViolation("send_date must be from now to 180 days ahead", field="send_date", hint="pick another")
    days = 4 if mail_type == "usps_first_class" else 10
    return ctx.create(
        model,
        to_address_id=to.id,
        from_address_id=from_address_id,
        template_id=template_id,
        merge_variables=values,
        send_date=when,
        mail_type=mail_type,
        expected_delivery_date=(when + dt.timedelta(days=days + (6 if to.country != "US" else 0))).date(),
        **extra,
    )


def _pieces(model: Any, name: str, plural: str, prefix: str, title: str, extra: tuple[str, ...] = ()) -> Any:
    return service.resource(
        model,
        name=name,
        plural=plural,
        prefix=prefix,
        create=False,
        filters=("status", "to_address_id", "template_id", *extra),
        search=("description",),
        delete=False,
        transitions={
            "cancel": Transition(
                "status",
                ("processed",),
                "cancelled",
                f"cancel the {title}",
                description=f"Cancel a {title} before its send_date (the cancellation window); mailed pieces cannot be.",
                destructive=True,
            )
        },
        guard_update=_guard_cancel,
        title=title,
    )


addresses = service.resource(
    Address,
    name="address",
    plural="addresses",
    prefix="adr",
    create=False,
    filters=("country", "state", "zip_code", "deliverability", "company"),
    search=("name", "company", "address_line1", "city"),
    guard_delete=_guard_address_delete,
)
templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="tmpl",
    create=("description", "html"),
    search=("description",),
    update=("description", "html"),
    guard_create=_guard_template,
    guard_update=_guard_template,
    guard_delete=_guard_template,
)
postcards = _pieces(Postcard, "postcard", "postcards", "psc", "postcard", ("size",))
letters = _pieces(Letter, "letter", "letters", "ltr", "letter", ("extra_service",))
self_mailers = _pieces(SelfMailer, "self_mailer", "self_mailers", "sfm", "self-mailer")
checks = _pieces(Check, "check", "checks", "chk", "check", ("bank_account_id",))
bank_accounts = service.resource(
    BankAccount,
    name="bank_account",
    plural="bank_accounts",
    prefix="bank",
    create=False,
    filters=("verified", "account_type"),
    search=("description", "signatory"),
    title="bank account",
)
tracking = service.resource(
    TrackingEvent,
    name="tracking_event",
    plural="tracking_events",
    prefix="evt",
    create=False,
    get=False,
    filters=("piece_id", "type"),
    delete=False,
    title="tracking event",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_address(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Harper Lee",
        "address_line1": "210 King St",
        "city": "San Francisco",
        "state": "CA",
        "zip_code": "94107",
    }


@service.tool(intent="create the address", write=True, example=_example_address)
def create_address(
    ctx: Ctx,
    address_line1: Street,
    city: City,
    zip_code: PostalCode,
    name: PersonName | None = None,
    company: CompanyName | None = None,
    address_line2: Street | None = None,
    state: State | None = None,
    country: Country = "US",
) -> Address:
    """Save an address; US addresses are verified and marked deliverable or undeliverable.

    Args:
        address_line1: Street and number.
        city: City.
        zip_code: ZIP (US: 5 digits, or ZIP+4) or postal code.
        name: Recipient's name (name or company is required).
        company: Company name.
        address_line2: Suite, unit or floor.
        state: Two-letter state code (required in the US).
        country: ISO country code.
    """
    if name is None and company is None:
        raise RuleViolation("an address needs a name or a company", field="name", hint="give at least one")
    verdict: Deliverability = "not_verified"
    if country == "US":
        if state is None:
            raise RuleViolation("US addresses need a state", field="state", hint="give the two-letter code")
        ok = re.fullmatch(r"\d{5}(-\d{4})?", zip_code) and re.match(r"\d+\s+\S", address_line1)
        verdict = "deliverable" if ok else "undeliverable"
        if ok and re.search(r"\b(apt|suite|unit)\b", address_line1.lower()) and address_line2 is None:
            verdict = "deliverable_missing_unit"
    return ctx.create(
        Address,
        name=name,
        company=company,
        address_line1=address_line1,
        address_line2=address_line2,
        city=city,
        state=state,
        zip_code=zip_code,
        country=country,
        deliverability=verdict,
    )


def _example_piece(model: Any, **extra: Any) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        to = ctx.first(Address, deliverability="deliverable", country="US")
        home = ctx.first(Address, company=ctx.population.home.name)
        if to is None or home is None:
            return None
        return {"to_address_id": to.id, "from_address_id": home.id, "description": "Spring mailer"} | extra

    return example


@service.tool(intent="send the postcard", write=True, example=_example_piece(Postcard, size="6x9"))
def create_postcard(
    ctx: Ctx,
    to_address_id: AddressId,
    from_address_id: AddressId | None = None,
    size: Literal["4x6", "6x9", "6x11"] = "4x6",
    template_id: TemplateId | None = None,
    merge_variables: MergeVars | None = None,
    send_date: DateTime | None = None,
    mail_type: MailType = "usps_first_class",
    description: Title | None = None,
) -> Postcard:
    """Create a postcard; it prints at send_date (default: in five minutes) and can be cancelled until then.

    Args:
        to_address_id: Recipient address (not undeliverable).
        from_address_id: Return address (US).
        size: 4x6, 6x9 or 6x11; abroad only 4x6.
        template_id: Template of the design.
        merge_variables: Values for every variable of the template.
        send_date: When to print, up to 180 days ahead.
        mail_type: usps_first_class or usps_standard.
        description: Internal description.
    """
    to = ctx.get(Address, to_address_id, field="to_address_id")
    if to.country != "US" and size != "4x6":
        raise RuleViolation("only 4x6 postcards are mailed abroad", field="size", hint="use size 4x6")
    return _piece(  # type: ignore[no-any-return]
        ctx,
        Postcard,
        to_address_id,
        from_address_id,
        template_id,
        merge_variables,
        send_date,
        mail_type,
        size=size,
        description=description,
    )


@service.tool(intent="send the letter", write=True, example=_example_piece(Letter, color=True))
def create_letter(
    ctx: Ctx,
    to_address_id: AddressId,
    from_address_id: AddressId,
    template_id: TemplateId | None = None,
    merge_variables: MergeVars | None = None,
    color: bool = False,
    double_sided: bool = True,
    extra_service: Literal["certified", "certified_return_receipt", "registered"] | None = None,
    send_date: DateTime | None = None,
    mail_type: MailType = "usps_first_class",
    description: Title | None = None,
) -> Letter:
    """Create a letter; certified and registered mail only go first class to US addresses.

    Args:
        to_address_id: Recipient address (not undeliverable).
        from_address_id: Return address (US, required).
        template_id: Template of the content.
        merge_variables: Values for every variable of the template.
        color: Print in color.
        double_sided: Print on both sides.
        extra_service: certified, certified_return_receipt or registered.
        send_date: When to print, up to 180 days ahead.
        mail_type: usps_first_class or usps_standard.
        description: Internal description.
    """
    to = ctx.get(Address, to_address_id, field="to_address_id")
    if extra_service is not None and (to.country != "US" or mail_type != "usps_first_class"):
        raise RuleViolation(
            f"{extra_service} mail needs a US address and first class", field="extra_service", hint="drop it"
        )
    return _piece(  # type: ignore[no-any-return]
        ctx,
        Letter,
        to_address_id,
        from_address_id,
        template_id,
        merge_variables,
        send_date,
        mail_type,
        color=color,
        double_sided=double_sided,
        extra_service=extra_service,
        description=description,
    )


@service.tool(intent="send the self-mailer", write=True, example=_example_piece(SelfMailer))
def create_self_mailer(
    ctx: Ctx,
    to_address_id: AddressId,
    from_address_id: AddressId | None = None,
    size: Literal["6x18_bifold", "11x9_bifold", "12x9_bifold"] = "6x18_bifold",
    template_id: TemplateId | None = None,
    merge_variables: MergeVars | None = None,
    send_date: DateTime | None = None,
    mail_type: MailType = "usps_standard",
    description: Title | None = None,
) -> SelfMailer:
    """Create a folded self-mailer to a US address.

    Args:
        to_address_id: Recipient address (US, not undeliverable).
        from_address_id: Return address (US).
        size: 6x18_bifold, 11x9_bifold or 12x9_bifold.
        template_id: Template of the design.
        merge_variables: Values for every variable of the template.
        send_date: When to print, up to 180 days ahead.
        mail_type: usps_first_class or usps_standard.
        description: Internal description.
    """
    if ctx.get(Address, to_address_id, field="to_address_id").country != "US":
        raise RuleViolation("self-mailers only go to US addresses", field="to_address_id", hint="send a postcard")
    return _piece(  # type: ignore[no-any-return]
        ctx,
        SelfMailer,
        to_address_id,
        from_address_id,
        template_id,
        merge_variables,
        send_date,
        mail_type,
        size=size,
        description=description,
    )


def _example_check(ctx: Ctx) -> dict[str, Any] | None:
    bank = ctx.first(BankAccount, verified=True)
    base: dict[str, Any] | None = _example_piece(Check)(ctx)
    if bank is None or base is None:
        return None
    return base | {"bank_account_id": bank.id, "amount_cents": 125000, "memo": "Invoice 2231"}


@service.tool(intent="mail the check", write=True, example=_example_check)
def create_check(
    ctx: Ctx,
    to_address_id: AddressId,
    from_address_id: AddressId,
    bank_account_id: BankAccountId,
    amount_cents: Annotated[int, Field(ge=1, le=99_999_999)],
    memo: Annotated[str, StringConstraints(max_length=40)] | None = None,
    send_date: DateTime | None = None,
    description: Title | None = None,
) -> Check:
    """Print and mail a check drawn on a verified bank account; it takes the account's next check number.

    Args:
        to_address_id: The payee's address (US, not undeliverable).
        from_address_id: The payer's address (US, required).
        bank_account_id: A verified bank account.
        amount_cents: Amount in cents, up to 999,999.99.
        memo: Memo line.
        send_date: When to print, up to 180 days ahead.
        description: Internal description.
    """
    bank = ctx.get(BankAccount, bank_account_id, field="bank_account_id")
    if not bank.verified:
        raise RuleViolation(
            f"bank account {bank.id} is not verified",
            field="bank_account_id",
            hint="confirm its micro-deposits with directmail__verify_bank_account",
        )
    if ctx.get(Address, to_address_id, field="to_address_id").country != "US":
        raise RuleViolation("checks only go to US addresses", field="to_address_id", hint="pay abroad by wire")
    ctx.update(bank, next_check_number=bank.next_check_number + 1)
    return _piece(  # type: ignore[no-any-return]
        ctx,
        Check,
        to_address_id,
        from_address_id,
        None,
        None,
        send_date,
        "usps_first_class",
        bank_account_id=bank.id,
        amount_cents=amount_cents,
        check_number=bank.next_check_number,
        memo=memo,
        description=description,
    )


@service.tool(
    intent="add the bank account",
    write=True,
    example=lambda ctx: {
        "description": "Payroll account",
        "routing_number": "322271627",
        "account_number": "123456789",
        "signatory": ctx.population.employees[0].name,
    },
)
def create_bank_account(
    ctx: Ctx,
    description: Title,
    routing_number: Annotated[str, StringConstraints(pattern=r"^\d{9}$")],
    account_number: Annotated[str, StringConstraints(pattern=r"^\d{4,17}$")],
    signatory: PersonName,
    account_type: Literal["company", "individual"] = "company",
) -> BankAccount:
    """Add a bank account for checks; two micro-deposits are sent to it and must be confirmed before use.

    Args:
        description: The account's name.
        routing_number: Nine-digit ABA routing number (checksum-valid).
        account_number: The account number.
        signatory: Who signs the checks.
        account_type: company or individual.
    """
    d = [int(c) for c in routing_number]
    if (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10:
        raise RuleViolation(f"{routing_number} is not a valid routing number", field="routing_number", hint="check it")
    seed = sum(ord(c) for c in account_number + routing_number)
    return ctx.create(
        BankAccount,
        description=description,
        routing_number=routing_number,
        account_number_last4=account_number[-4:],
        signatory=signatory,
        account_type=account_type,
        micro_deposits=(1 + seed % 97, 1 + seed * 7 % 89),
    )


@service.tool(
    intent="verify the bank account",
    write=True,
    example=lambda ctx: next(
        ({"bank_account_id": b.id, "amounts": list(b.micro_deposits)} for b in ctx.where(BankAccount, verified=False)),
        None,
    ),
)
def verify_bank_account(
    ctx: Ctx,
    bank_account_id: BankAccountId,
    amounts: Annotated[list[Annotated[int, Field(ge=1, le=99)]], Field(min_length=2, max_length=2)],
) -> BankAccount:
    """Confirm the two micro-deposit amounts (in cents, any order) so that checks can be drawn on the account.

    Args:
        bank_account_id: The bank account.
        amounts: The two deposits in cents.
    """
    bank = ctx.get(BankAccount, bank_account_id, field="bank_account_id")
    if bank.verified:
        raise Conflict(f"bank account {bank.id} is already verified", field="bank_account_id", hint="nothing to do")
    if sorted(amounts) != sorted(bank.micro_deposits):
        raise RuleViolation("the amounts do not match the deposits", field="amounts", hint="check the statement")
    return ctx.update(bank, verified=True)


# -- seed -------------------------------------------------------------------------------------

US_STREETS = ("Market St", "Main St", "Broadway", "Oak Ave", "Pine St", "Elm St", "Maple Ave", "Cedar Rd")
US_CITIES = (("San Francisco", "CA", "941"), ("Austin", "TX", "787"), ("Chicago", "IL", "606"), ("Boston", "MA", "021"))


@service.seeder
def seed(s: SeedContext) -> None:
    """The home company's US return address, recipients (US and abroad), templates, pieces in every state, checks."""
    pop = s.population
    home = s.create(
        Address,
        company=pop.home.name,
        address_line1="500 Howard St",
        address_line2="Floor 3",
        city="San Francisco",
        state="CA",
        zip_code="94105",
        deliverability="deliverable",
        created_at=s.ago(days=500),
    )
    people = list(pop.consumers[:16])
    to: list[Address] = []
    for k, p in enumerate(people):
        city, state, zip3 = US_CITIES[k % len(US_CITIES)]
        us = k % 4 != 3
        to.append(
            s.create(
                Address,
                name=p.name,
                address_line1=f"{100 + 7 * k} {US_STREETS[k % len(US_STREETS)]}" if us else p.address.street,
                city=city if us else p.address.city,
                state=state if us else None,
                zip_code=f"{zip3}{10 + k:02d}" if us else p.address.postal_code,
                country="US" if us else p.address.country,
                deliverability=("undeliverable" if k == 5 else "deliverable") if us else "not_verified",
                created_at=s.ago(days=200 - k),
            )
        )
    vendors = [
        s.create(
            Address,
            company=c.name,
            address_line1=f"{20 + 11 * k} Commerce Blvd",
            city="Austin",
            state="TX",
            zip_code=f"787{30 + k}",
            deliverability="deliverable",
            created_at=s.ago(days=300),
        )
        for k, c in enumerate(pop.customers[:4])
    ]
    promo = s.create(
        Template,
        description="Spring promo postcard",
        html="<h1>Hi {{first_name}}</h1><p>Take {{discount}} off with code {{code}}.</p>",
        merge_variables=("first_name", "discount", "code"),
        created_at=s.ago(days=90),
        updated_at=s.ago(days=90),
    )
    welcome = s.create(
        Template,
        description="Welcome letter",
        html=f"<p>Dear {{{{name}}}},</p><p>Welcome to {pop.home.name}.</p>",
        merge_variables=("name",),
        created_at=s.ago(days=120),
        updated_at=s.ago(days=120),
    )
    s.create(
        Template,
        description="Holiday card (draft)",
        html="<h1>Season's greetings, {{first_name}}!</h1>",
        merge_variables=("first_name",),
        created_at=s.ago(days=10),
        updated_at=s.ago(days=10),
    )
    flow: tuple[tuple[EventType, ...], ...] = (
        ("mailed", "in_transit", "in_local_area", "processed_for_delivery", "delivered"),
        ("mailed", "in_transit"),
        ("mailed", "in_transit", "re_routed", "returned_to_sender"),
        ("mailed",),
    )
    for k, addr in enumerate(to):
        if addr.deliverability == "undeliverable":
            continue
        first = addr.name.split()[0] if addr.name else "there"
        fields: dict[str, Any] = {
            "to_address_id": addr.id,
            "from_address_id": home.id,
            "created_at": s.ago(days=30 - k),
            "updated_at": s.ago(days=30 - k),
        }
        if k % 5 == 4 and addr.country == "US":
            model: Any = SelfMailer
            fields |= {
                "template_id": promo.id,
                "merge_variables": {"first_name": first, "discount": "20%", "code": "FOLD"},
            }
        elif k % 3 == 2:
            model = Letter
            fields |= {"template_id": welcome.id, "merge_variables": {"name": addr.name or ""}, "color": True}
        else:
            model = Postcard
            fields |= {
                "template_id": promo.id,
                "merge_variables": {"first_name": first, "discount": "15%", "code": f"SPRING{k:02d}"},
            }
        events: tuple[EventType, ...] = ()
        if k >= 11:
            when = s.ago(days=-(k - 9))
        else:
            when, events = s.ago(days=25 - k), flow[k % len(flow)]
        piece = s.create(
            model,
            description="Welcome pack" if model is Letter else "Spring campaign",
            send_date=when,
            status=EVENT_STATUS[events[-1]] if events else ("cancelled" if k == 13 else "processed"),
            expected_delivery_date=(when + dt.timedelta(days=4 if addr.country == "US" else 10)).date(),
            **fields,
        )
        for j, ev in enumerate(events):
            s.create(
                TrackingEvent,
                piece_id=piece.id,
                type=ev,
                location=home.zip_code if j == 0 else None,
                time=when + dt.timedelta(hours=12 + 20 * j),
            )
    verified = s.create(
        BankAccount,
        description="Operating account",
        routing_number="322271627",
        account_number_last4="4421",
        signatory=pop.staff("Finance", fallback=1)[0].name,
        verified=True,
        next_check_number=10004,
        micro_deposits=(32, 45),
        created_at=s.ago(days=400),
        updated_at=s.ago(days=60),
    )
    s.create(
        BankAccount,
        description="Refunds account",
        routing_number="021000021",
        account_number_last4="9087",
        signatory=pop.staff("Finance", fallback=1)[0].name,
        micro_deposits=(17, 62),
        created_at=s.ago(days=3),
        updated_at=s.ago(days=3),
    )
    for k, v in enumerate(vendors[:3]):
        when = s.ago(days=40 - 15 * k) if k < 2 else s.ago(days=-3)
        s.create(
            Check,
            to_address_id=v.id,
            from_address_id=home.id,
            bank_account_id=verified.id,
            amount_cents=250_000 + 12_500 * k,
            check_number=10001 + k,
            memo=f"Refund INV-{4100 + k}",
            description=f"Refund to {v.company}",
            send_date=when,
            status="delivered" if k < 2 else "processed",
            expected_delivery_date=(when + dt.timedelta(days=4)).date(),
            created_at=when - dt.timedelta(days=1),
            updated_at=when,
        )
