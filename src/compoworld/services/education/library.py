"""Shelfmark ILS: a public library's patrons, catalogue, copies, loans, holds, renewals and fines.

Modeled on the Koha ILS REST API v1 (``/patrons``, ``/biblios``, ``/items``,
``/checkouts`` with renewals, ``/holds``, ``/patrons/{id}/account`` and its
credits, ``/libraries``) and Koha's circulation rules:

* each patron category has its own loan limit, loan period, renewal limit and
  hold limit; DVDs go out for 7 days whatever the category; reference copies are
  not for loan;
* a patron whose card has expired, who is restricted, or who owes more than the
  ``noissuescharge`` of 5.00 can neither borrow, renew nor place holds;
* a copy waiting on the hold shelf for another patron cannot be lent, nor can
  an available copy that the title's queue of holds needs;
* a renewal is refused at the category's limit and when another patron holds
  the title; it extends the loan from today;
* returning a late copy charges the overdue fine (per day by item type, capped
  at the replacement price) and hands the copy to the next hold in the queue;
  a lost copy is charged at its replacement price;
* payments settle the oldest fines first and never exceed what is owed.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Phone,
    Quantity,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "library",
    title="Shelfmark ILS",
    category="library",
    modeled_on="Koha ILS REST API v1 (patrons, biblios, items, checkouts and renewals, holds, patron account "
    "lines and credits, libraries) with Koha circulation and fine rules",
    description="The integrated library system of a public library: branches, patrons and their cards, the "
    "catalogue and its copies, loans with limits by patron category, renewals, holds queues and the hold shelf, "
    "overdue and lost-item fines, and payments.",
)

LibraryId = Annotated[str, IdOf("library.library")]
PatronId = Annotated[str, IdOf("library.patron")]
BiblioId = Annotated[str, IdOf("library.biblio")]
ItemId = Annotated[str, IdOf("library.item")]
CheckoutId = Annotated[str, IdOf("library.checkout")]
HoldId = Annotated[str, IdOf("library.hold")]
FineId = Annotated[str, IdOf("library.fine")]
Isbn = Annotated[str, StringConstraints(pattern=r"^97[89][0-9]{10}$")]
CardNumber = Annotated[str, StringConstraints(pattern=r"^2[0-9]{7}$")]
Barcode = Annotated[str, StringConstraints(pattern=r"^3[0-9]{7}$")]

PatronCategory = Literal["ADULT", "STUDENT", "STAFF"]
ItemType = Literal["BOOK", "DVD", "REF"]
ItemStatus = Literal["available", "checked_out", "waiting", "lost"]
HoldStatus = Literal["pending", "waiting", "fulfilled", "cancelled"]
FineType = Literal["OVERDUE", "LOST", "MANUAL"]
FineStatus = Literal["open", "paid"]

CATEGORY_RULES: dict[str, tuple[int, int, int, int]] = {
    "ADULT": (10, 21, 3, 5),
    "STUDENT": (5, 14, 2, 3),
    "STAFF": (25, 28, 5, 10),
}
"""Per category: most loans at once, loan days, renewals per loan, most holds at once."""
DVD_LOAN_DAYS = 7
DAILY_FINE: dict[str, int] = {"BOOK": 25, "DVD": 100, "REF": 0}
"""Overdue fine per day, in cents, by item type."""
NO_ISSUES_CHARGE = 500
"""A patron owing more than this (cents) is blocked from circulation."""
HOLD_SHELF_DAYS = 7
CURRENCY = "USD"


# -- records -------------------------------------------------------------------------------


class Library(Record):
    """A branch of the library system."""

    id: LibraryId
    code: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,6}$")]
    """Branch code."""
    name: Title
    """Branch name."""
    city: City
    """Where it is."""
    email: Email
    """The branch's circulation desk address."""


class Patron(Timestamped):
    """A library card holder."""

    id: PatronId
    cardnumber: Annotated[CardNumber, Generated("sequence", "2{n:07d}")]
    """The library card's number."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """E-mail for notices; unique."""
    phone: Phone | None = None
    """Phone for notices."""
    category: PatronCategory = "ADULT"
    """ADULT, STUDENT or STAFF: sets the loan, renewal and hold limits."""
    library_id: LibraryId
    """Home branch."""
    expiry_date: Date
    """When the card expires; an expired card cannot borrow."""
    restricted: bool = False
    """Whether the patron is barred from circulation (a debarment)."""
    restriction_comment: str | None = None
    """Why they are restricted."""


class Biblio(Record):
    """A title in the catalogue (a bibliographic record)."""

    id: BiblioId
    title: Title
    """Title."""
    author: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """Author or director."""
    isbn: Isbn | None = None
    """ISBN-13 of books."""
    publication_year: Annotated[int, Field(ge=1450, le=2100)]
    """Year published."""
    item_type: ItemType
    """BOOK, DVD or REF (reference: not for loan)."""


class Item(Record):
    """A physical copy of a title."""

    id: ItemId
    biblio_id: BiblioId
    """The title."""
    barcode: Barcode
    """The copy's barcode; unique."""
    library_id: LibraryId
    """Its home branch."""
    item_type: ItemType
    """BOOK, DVD or REF."""
    status: ItemStatus = "available"
    """available, checked_out, waiting (on the hold shelf) or lost."""
    replacement_price: Cents
    """What a lost copy costs the borrower, in cents."""


class Checkout(Timestamped):
    """A loan of a copy to a patron."""

    id: CheckoutId
    patron_id: PatronId
    """The borrower."""
    item_id: ItemId
    """The copy."""
    biblio_id: BiblioId
    """Its title."""
    checkout_date: Date
    """When it was lent."""
    due_date: Date
    """When it is due back."""
    renewals_count: Annotated[int, Field(ge=0)] = 0
    """Times renewed."""
    checkin_date: Date | None = None
    """When it came back (or was declared lost)."""
    status: Literal["open", "returned", "lost"] = "open"
    """open, returned or lost."""


class Hold(Timestamped):
    """A patron's request for the next copy of a title."""

    id: HoldId
    patron_id: PatronId
    """Who asked."""
    biblio_id: BiblioId
    """The title."""
    pickup_library_id: LibraryId
    """Where they collect it."""
    priority: Annotated[int, Field(ge=0)] = 1
    """Place in the title's queue (1 is next); 0 once waiting or closed."""
    status: HoldStatus = "pending"
    """pending (in the queue), waiting (a copy on the hold shelf), fulfilled or cancelled."""
    item_id: ItemId | None = None
    """The copy set aside when waiting."""
    waiting_since: Date | None = None
    """When the copy was put on the hold shelf."""
    expiration_date: Date | None = None
    """The last day to collect a waiting copy."""


class Fine(Record):
    """A charge on a patron's account (a Koha debit account line)."""

    id: FineId
    patron_id: PatronId
    """Who owes it."""
    checkout_id: CheckoutId | None = None
    """The loan it is for."""
    type: FineType
    """OVERDUE, LOST or MANUAL."""
    amount: Cents
    """The charge, in cents."""
    amount_outstanding: Cents
    """What is still owed, in cents."""
    currency: Currency = CURRENCY
    """Currency of the amounts."""
    status: FineStatus = "open"
    """open or paid."""
    description: str = ""
    """What it is for."""
    created_at: Annotated[DateTime, CREATED]
    """When it was charged."""


def _guard_patron(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Library, new.library_id, field="library_id")
    if old is None and new.expiry_date <= ctx.today():
        raise RuleViolation("a new card must expire after today", field="expiry_date", hint="give a future date")


libraries = service.resource(
    Library, name="library", plural="libraries", prefix="lib", create=False, get=False, search=("name",), delete=False
)
patrons = service.resource(
    Patron,
    name="patron",
    plural="patrons",
    prefix="pat",
    create=("first_name", "last_name", "email", "phone", "category", "library_id", "expiry_date"),
    filters=("cardnumber", "email", "category", "library_id", "restricted"),
    search=("first_name", "last_name"),
    delete=False,
    unique=("email",),
    guard_create=_guard_patron,
)
biblios = service.resource(
    Biblio,
    name="biblio",
    plural="biblios",
    prefix="bib",
    create=False,
    get=False,
    filters=("isbn", "item_type", "publication_year"),
    search=("title", "author"),
    delete=False,
    title="catalogue title",
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=False,
    get=False,
    filters=("biblio_id", "barcode", "library_id", "item_type", "status"),
    delete=False,
    title="copy",
)
checkouts = service.resource(
    Checkout,
    name="checkout",
    plural="checkouts",
    prefix="co",
    create=False,
    get=False,
    filters=("patron_id", "item_id", "biblio_id", "status", "due_date"),
    delete=False,
    title="loan",
)
holds = service.resource(
    Hold,
    name="hold",
    plural="holds",
    prefix="hold",
    create=False,
    get=False,
    filters=("patron_id", "biblio_id", "pickup_library_id", "status"),
    delete=False,
)
fines = service.resource(
    Fine,
    name="fine",
    plural="fines",
    prefix="fine",
    create=False,
    get=False,
    filters=("patron_id", "checkout_id", "type", "status"),
    delete=False,
)


# -- rules ---------------------------------------------------------------------------------


def _balance(ctx: Ctx, patron_id: str) -> int:
    return sum(f.amount_outstanding for f in ctx.where(Fine, patron_id=patron_id, status="open"))


def _blocks(ctx: Ctx, patron: Patron) -> list[str]:
    out = []
    if patron.expiry_date < ctx.today():
        out.append(f"the card expired on {patron.expiry_date}")
    if patron.restricted:
        out.append(f"the patron is restricted ({patron.restriction_comment or 'no reason given'})")
    owed = _balance(ctx, patron.id)
    if owed > NO_ISSUES_CHARGE:
        out.append(f"the patron owes {owed / 100:.2f}, more than the {NO_ISSUES_CHARGE / 100:.2f} allowed")
    return out


def _may_circulate(ctx: Ctx, patron: Patron, field: str = "patron_id") -> None:
    blocks = _blocks(ctx, patron)
    if blocks:
        raise RuleViolation(
            f"{patron.first_name} {patron.last_name} cannot borrow: {'; '.join(blocks)}",
            field=field,
            hint="renew the card, lift the restriction or pay the fines (library__pay_fines) first",
        )


def _queue(ctx: Ctx, biblio_id: str) -> list[Hold]:
    return sorted(ctx.where(Hold, biblio_id=biblio_id, status="pending"), key=lambda h: (h.priority, h.id))


def _renumber(ctx: Ctx, biblio_id: str) -> None:
    for n, hold in enumerate(_queue(ctx, biblio_id), start=1):
        if hold.priority != n:
            ctx.update(hold, priority=n)


def _shelve(ctx: Ctx, item: Item) -> Item:
    """Hand a returned or released copy to the title's next hold, else back to the shelf."""
    queue = _queue(ctx, item.biblio_id)
    if not queue:
        return ctx.update(item, status="available")
    today = ctx.today()
    ctx.update(
        queue[0],
        status="waiting",
        priority=0,
        item_id=item.id,
        waiting_since=today,
        expiration_date=today + dt.timedelta(days=HOLD_SHELF_DAYS),
    )
    _renumber(ctx, item.biblio_id)
    return ctx.update(item, status="waiting")


def _loan_days(patron: Patron, item: Item) -> int:
    return DVD_LOAN_DAYS if item.item_type == "DVD" else CATEGORY_RULES[patron.category][1]


# -- circulation ---------------------------------------------------------------------------


def _example_checkout(ctx: Ctx) -> dict[str, Any] | None:
    for patron in ctx.scan(Patron):
        if _blocks(ctx, patron):
            continue
        for item in ctx.where(Item, status="available", item_type="BOOK"):
            if not _queue(ctx, item.biblio_id):
                return {"patron_id": patron.id, "item_id": item.id}
    return None


class CheckoutResult(BaseModel):
    """A loan made, and the hold it fulfilled."""

    checkout: Checkout = Field(description="The loan.")
    fulfilled_hold_id: HoldId | None = Field(description="The patron's own hold on the title that the loan fulfilled.")


@service.tool(intent="lend the copy to the patron", write=True, example=_example_checkout)
def checkout_item(ctx: Ctx, patron_id: PatronId, item_id: ItemId) -> CheckoutResult:
    """Lend a copy (``POST /checkouts``), due after the category's loan period (DVDs: 7 days).

    Refused for an expired, restricted or indebted patron, at the category's
    loan limit, for reference and lost copies, a copy on loan, a copy waiting
    for another patron, or an available copy the title's holds queue needs.
    The patron's own hold on the title is fulfilled.

    Args:
        patron_id: The borrower.
        item_id: The copy.
    """
    patron = ctx.get(Patron, patron_id, field="patron_id")
    item = ctx.get(Item, item_id, field="item_id")
    _may_circulate(ctx, patron)
    limit = CATEGORY_RULES[patron.category][0]
    if len(ctx.where(Checkout, patron_id=patron.id, status="open")) >= limit:
        raise RuleViolation(
            f"{patron.category} patrons may have {limit} loans at once",
            field="patron_id",
            hint="return a copy first",
        )
    if item.item_type == "REF":
        raise RuleViolation("reference copies are not for loan", field="item_id", hint="it can be read in the library")
    if item.status == "lost":
        raise RuleViolation(f"copy {item.barcode} is lost", field="item_id", hint="choose another copy of the title")
    if item.status == "checked_out":
        raise Conflict(f"copy {item.barcode} is already on loan", field="item_id", hint="place a hold on the title")
    own = ctx.first(Hold, patron_id=patron.id, biblio_id=item.biblio_id, status="waiting")
    if own is None:
        own = ctx.first(Hold, patron_id=patron.id, biblio_id=item.biblio_id, status="pending")
    if item.status == "waiting":
        shelf = ctx.first(Hold, item_id=item.id, status="waiting")
        if shelf is not None and shelf.patron_id != patron.id:
            raise RuleViolation(
                f"copy {item.barcode} is on the hold shelf for another patron",
                field="item_id",
                hint="place a hold on the title (library__place_hold)",
            )
    else:
        others = [h for h in _queue(ctx, item.biblio_id) if h.patron_id != patron.id]
        spare = [i for i in ctx.where(Item, biblio_id=item.biblio_id, status="available") if i.id != item.id]
        if len(others) > len(spare):
            raise RuleViolation(
                f"copy {item.barcode} is needed for {len(others)} hold(s) on the title by other patrons",
                field="item_id",
                hint="place a hold on the title and wait for your turn",
            )
    if own is not None:
        if own.status == "waiting" and own.item_id and own.item_id != item.id:
            released = ctx.get(Item, own.item_id)
            ctx.update(own, status="fulfilled", priority=0)
            _shelve(ctx, released)
        else:
            ctx.update(own, status="fulfilled", priority=0)
        _renumber(ctx, item.biblio_id)
    today = ctx.today()
    ctx.update(item, status="checked_out")
    loan = ctx.create(
        Checkout,
        patron_id=patron.id,
        item_id=item.id,
        biblio_id=item.biblio_id,
        checkout_date=today,
        due_date=today + dt.timedelta(days=_loan_days(patron, item)),
    )
    return CheckoutResult(checkout=loan, fulfilled_hold_id=own.id if own else None)


class CheckinResult(BaseModel):
    """A copy returned."""

    checkout: Checkout = Field(description="The closed loan.")
    item: Item = Field(description="The copy: available, or waiting for the next hold.")
    fine: Fine | None = Field(description="The overdue fine charged, if it came back late.")
    hold_id: HoldId | None = Field(description="The hold the copy now waits for, if any.")


@service.tool(
    intent="check the returned copy in",
    write=True,
    example=first_example(Checkout, "checkout_id", where={"status": "open"}),
)
def checkin_item(ctx: Ctx, checkout_id: CheckoutId) -> CheckinResult:
    """Return a copy (``DELETE /checkouts/{id}``): late copies are fined, held titles go to the hold shelf.

    The overdue fine is the item type's daily rate for each day late, at most
    the copy's replacement price.

    Args:
        checkout_id: The open loan.
    """
    loan = ctx.get(Checkout, checkout_id, field="checkout_id")
    if loan.status != "open":
        raise Conflict(f"loan {loan.id} is already {loan.status}", field="checkout_id", hint="nothing to return")
    item = ctx.get(Item, loan.item_id)
    today = ctx.today()
    late = (today - loan.due_date).days
    fine = None
    if late > 0 and DAILY_FINE[item.item_type]:
        amount = min(item.replacement_price, late * DAILY_FINE[item.item_type])
        fine = ctx.create(
            Fine,
            patron_id=loan.patron_id,
            checkout_id=loan.id,
            type="OVERDUE",
            amount=amount,
            amount_outstanding=amount,
            description=f"{late} day(s) late: {item.barcode}",
        )
    loan = ctx.update(loan, status="returned", checkin_date=today)
    item = _shelve(ctx, item)
    waiting = ctx.first(Hold, item_id=item.id, status="waiting") if item.status == "waiting" else None
    return CheckinResult(checkout=loan, item=item, fine=fine, hold_id=waiting.id if waiting else None)


def _example_renew(ctx: Ctx) -> dict[str, Any] | None:
    for loan in ctx.where(Checkout, status="open"):
        patron = ctx.get(Patron, loan.patron_id)
        if (
            not _blocks(ctx, patron)
            and loan.renewals_count < CATEGORY_RULES[patron.category][2]
            and not [h for h in _queue(ctx, loan.biblio_id) if h.patron_id != patron.id]
        ):
            return {"checkout_id": loan.id}
    return None


@service.tool(intent="renew the loan", write=True, example=_example_renew)
def renew_checkout(ctx: Ctx, checkout_id: CheckoutId) -> Checkout:
    """Renew a loan (``POST /checkouts/{id}/renewal``): due again one loan period from today.

    Refused at the category's renewal limit, when another patron holds the
    title, and for a patron who cannot borrow (expired, restricted, in debt).

    Args:
        checkout_id: The open loan.
    """
    loan = ctx.get(Checkout, checkout_id, field="checkout_id")
    if loan.status != "open":
        raise Conflict(f"loan {loan.id} is {loan.status}", field="checkout_id", hint="only open loans renew")
    patron = ctx.get(Patron, loan.patron_id)
    _may_circulate(ctx, patron, field="checkout_id")
    most = CATEGORY_RULES[patron.category][2]
    if loan.renewals_count >= most:
        raise RuleViolation(
            f"the loan was renewed {loan.renewals_count} times, the most for {patron.category} patrons",
            field="checkout_id",
            hint="return the copy; it can be borrowed again if nobody holds it",
        )
    if [h for h in _queue(ctx, loan.biblio_id) if h.patron_id != patron.id]:
        raise RuleViolation(
            "another patron holds this title", field="checkout_id", hint="return the copy by its due date"
        )
    item = ctx.get(Item, loan.item_id)
    return ctx.update(
        loan,
        renewals_count=loan.renewals_count + 1,
        due_date=ctx.today() + dt.timedelta(days=_loan_days(patron, item)),
    )


@service.tool(
    intent="declare the borrowed copy lost",
    write=True,
    destructive=True,
    example=first_example(Checkout, "checkout_id", where={"status": "open"}),
)
def declare_lost(ctx: Ctx, checkout_id: CheckoutId) -> Fine:
    """Mark a borrowed copy lost: the loan closes and the borrower is charged its replacement price.

    Args:
        checkout_id: The open loan.
    """
    loan = ctx.get(Checkout, checkout_id, field="checkout_id")
    if loan.status != "open":
        raise Conflict(f"loan {loan.id} is {loan.status}", field="checkout_id", hint="only open loans can be lost")
    item = ctx.get(Item, loan.item_id)
    ctx.update(loan, status="lost", checkin_date=ctx.today())
    ctx.update(item, status="lost")
    return ctx.create(
        Fine,
        patron_id=loan.patron_id,
        checkout_id=loan.id,
        type="LOST",
        amount=item.replacement_price,
        amount_outstanding=item.replacement_price,
        description=f"Lost copy {item.barcode}",
    )


# -- holds ---------------------------------------------------------------------------------


def _example_hold(ctx: Ctx) -> dict[str, Any] | None:
    for patron in ctx.scan(Patron):
        if _blocks(ctx, patron):
            continue
        for item in ctx.where(Item, status="checked_out", item_type="BOOK"):
            mine = ctx.where(Checkout, patron_id=patron.id, biblio_id=item.biblio_id, status="open")
            held = [h for h in ctx.where(Hold, patron_id=patron.id, biblio_id=item.biblio_id) if h.status in _LIVE]
            if not mine and not held:
                return {"patron_id": patron.id, "biblio_id": item.biblio_id, "pickup_library_id": patron.library_id}
    return None


_LIVE = ("pending", "waiting")


@service.tool(intent="place a hold on the title for the patron", write=True, example=_example_hold)
def place_hold(ctx: Ctx, patron_id: PatronId, biblio_id: BiblioId, pickup_library_id: LibraryId) -> Hold:
    """Place a title-level hold (``POST /holds``): the patron joins the end of the title's queue.

    When a copy is on the shelf and nobody is ahead, it is set aside at once
    (waiting, 7 days to collect). Refused for a patron who cannot borrow, at the
    category's hold limit, for a title the patron has on loan or already holds,
    and for reference titles.

    Args:
        patron_id: The patron.
        biblio_id: The title.
        pickup_library_id: The branch to collect it at.
    """
    patron = ctx.get(Patron, patron_id, field="patron_id")
    biblio = ctx.get(Biblio, biblio_id, field="biblio_id")
    ctx.get(Library, pickup_library_id, field="pickup_library_id")
    _may_circulate(ctx, patron)
    if biblio.item_type == "REF":
        raise RuleViolation("reference titles cannot be held", field="biblio_id", hint="read it in the library")
    copies = [i for i in ctx.where(Item, biblio_id=biblio.id) if i.status != "lost"]
    if not copies:
        raise RuleViolation(
            "the title has no copy that could fill a hold", field="biblio_id", hint="ask for a purchase"
        )
    live = [h for h in ctx.where(Hold, patron_id=patron.id) if h.status in _LIVE]
    if any(h.biblio_id == biblio.id for h in live):
        raise Conflict("the patron already holds this title", field="biblio_id", hint="see library__list_holds")
    if ctx.where(Checkout, patron_id=patron.id, biblio_id=biblio.id, status="open"):
        raise RuleViolation("the patron has this title on loan", field="biblio_id", hint="renew the loan instead")
    most = CATEGORY_RULES[patron.category][3]
    if len(live) >= most:
        raise RuleViolation(
            f"{patron.category} patrons may have {most} holds at once", field="patron_id", hint="cancel a hold first"
        )
    queue = _queue(ctx, biblio.id)
    hold = ctx.create(
        Hold,
        patron_id=patron.id,
        biblio_id=biblio.id,
        pickup_library_id=pickup_library_id,
        priority=len(queue) + 1,
    )
    shelf = next((i for i in copies if i.status == "available"), None)
    if shelf is not None and not queue:
        _shelve(ctx, shelf)
        hold = ctx.get(Hold, hold.id)
    return hold


@service.tool(
    intent="cancel the hold",
    write=True,
    destructive=True,
    example=first_example(Hold, "hold_id", where={"status": "pending"}),
)
def cancel_hold(ctx: Ctx, hold_id: HoldId) -> Hold:
    """Cancel a pending or waiting hold; a copy waiting for it goes to the next hold or back on the shelf.

    Args:
        hold_id: The hold.
    """
    hold = ctx.get(Hold, hold_id, field="hold_id")
    if hold.status not in _LIVE:
        raise Conflict(f"the hold is already {hold.status}", field="hold_id", hint="nothing to cancel")
    item_id = hold.item_id if hold.status == "waiting" else None
    hold = ctx.update(hold, status="cancelled", priority=0)
    _renumber(ctx, hold.biblio_id)
    if item_id is not None:
        _shelve(ctx, ctx.get(Item, item_id))
    return hold


# -- account -------------------------------------------------------------------------------


class Payment(BaseModel):
    """A payment and the fines it settled."""

    amount: Cents = Field(description="What was paid, in cents.")
    settled_fine_ids: list[FineId] = Field(description="Fines now fully paid, oldest first.")
    balance: Cents = Field(description="What the patron still owes, in cents.")
    currency: Currency = Field(description="Currency of the amounts.")


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    fine = ctx.first(Fine, status="open")
    return None if fine is None else {"patron_id": fine.patron_id, "amount": fine.amount_outstanding}


@service.tool(intent="take the patron's payment of fines", write=True, example=_example_pay)
def pay_fines(ctx: Ctx, patron_id: PatronId, amount: Annotated[Cents, Field(ge=1)]) -> Payment:
    """Take a payment (``POST /patrons/{id}/account/credits``), settling the oldest fines first.

    Args:
        patron_id: The patron.
        amount: What they pay, in cents; at most what they owe.
    """
    patron = ctx.get(Patron, patron_id, field="patron_id")
    owed = _balance(ctx, patron.id)
    if owed == 0:
        raise RuleViolation("the patron owes nothing", field="patron_id", hint="no payment is needed")
    if amount > owed:
        raise RuleViolation(
            f"{amount / 100:.2f} is more than the {owed / 100:.2f} owed", field="amount", hint=f"pay at most {owed}"
        )
    left = amount
    settled: list[str] = []
    for fine in sorted(ctx.where(Fine, patron_id=patron.id, status="open"), key=lambda f: (f.created_at, f.id)):
        if left == 0:
            break
        take = min(left, fine.amount_outstanding)
        left -= take
        rest = fine.amount_outstanding - take
        ctx.update(fine, amount_outstanding=rest, status="paid" if rest == 0 else "open")
        if rest == 0:
            settled.append(fine.id)
    return Payment(amount=amount, settled_fine_ids=settled, balance=owed - amount, currency=CURRENCY)


class Account(BaseModel):
    """A patron's circulation summary."""

    patron: Patron = Field(description="The patron.")
    balance: Cents = Field(description="What they owe, in cents.")
    currency: Currency = Field(description="Currency of the balance.")
    loans: Quantity = Field(description="Copies on loan.")
    overdue: Quantity = Field(description="Of which overdue.")
    loan_limit: Quantity = Field(description="The most loans their category allows.")
    holds: Quantity = Field(description="Holds pending or waiting.")
    waiting_holds: list[HoldId] = Field(description="Holds with a copy on the hold shelf.")
    can_borrow: bool = Field(description="Whether they may borrow, renew and hold now.")
    blocks: list[str] = Field(description="Why not: expired card, restriction, fines over the limit.")


@service.tool(intent="check the patron's account, loans and blocks", example=first_example(Patron, "patron_id"))
def get_patron_account(ctx: Ctx, patron_id: PatronId) -> Account:
    """A patron's balance, loans, overdue loans, holds and whatever blocks them from borrowing.

    Args:
        patron_id: The patron.
    """
    patron = ctx.get(Patron, patron_id, field="patron_id")
    loans = ctx.where(Checkout, patron_id=patron.id, status="open")
    live = [h for h in ctx.where(Hold, patron_id=patron.id) if h.status in _LIVE]
    blocks = _blocks(ctx, patron)
    return Account(
        patron=patron,
        balance=_balance(ctx, patron.id),
        currency=CURRENCY,
        loans=len(loans),
        overdue=sum(1 for c in loans if c.due_date < ctx.today()),
        loan_limit=CATEGORY_RULES[patron.category][0],
        holds=len(live),
        waiting_holds=[h.id for h in live if h.status == "waiting"],
        can_borrow=not blocks,
        blocks=blocks,
    )


# -- seeding -------------------------------------------------------------------------------

_CATALOGUE: tuple[tuple[str, str, int, ItemType, int, int], ...] = (
    ("Pride and Prejudice", "Jane Austen", 1813, "BOOK", 3, 1800),
    ("Moby-Dick", "Herman Melville", 1851, "BOOK", 1, 2200),
    ("The Great Gatsby", "F. Scott Fitzgerald", 1925, "BOOK", 2, 1600),
    ("Nineteen Eighty-Four", "George Orwell", 1949, "BOOK", 2, 1700),
    ("To Kill a Mockingbird", "Harper Lee", 1960, "BOOK", 2, 1900),
    ("One Hundred Years of Solitude", "Gabriel García Márquez", 1967, "BOOK", 1, 2100),
    ("Beloved", "Toni Morrison", 1987, "BOOK", 1, 2000),
    ("The Remains of the Day", "Kazuo Ishiguro", 1989, "BOOK", 2, 1800),
    ("Wolf Hall", "Hilary Mantel", 2009, "BOOK", 1, 2600),
    ("The Overstory", "Richard Powers", 2018, "BOOK", 2, 2800),
    ("Project Hail Mary", "Andy Weir", 2021, "BOOK", 2, 2900),
    ("Tomorrow, and Tomorrow, and Tomorrow", "Gabrielle Zevin", 2022, "BOOK", 1, 2800),
    ("Spirited Away", "Hayao Miyazaki", 2001, "DVD", 2, 2500),
    ("Casablanca", "Michael Curtiz", 1942, "DVD", 1, 2000),
    ("Oxford English Dictionary", "Oxford University Press", 1989, "REF", 1, 30000),
    ("World Atlas", "National Geographic", 2019, "REF", 1, 20000),
)


def _isbn(n: int) -> str:
    body = f"978{100000000 + n * 7919:09d}"[:12]
    check = (10 - sum(int(d) * (1 if k % 2 == 0 else 3) for k, d in enumerate(body)) % 10) % 10
    return body + str(check)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three branches, staff and consumer patrons, the catalogue's copies, loans (some late), holds and fines."""
    pop = s.population
    city = pop.home.place.city
    domain = pop.home.domain
    libs = [
        s.create(Library, code=code, name=name, city=city, email=f"{code.lower()}.circ@library.{domain}")
        for code, name in (("CPL", "Central Library"), ("RIV", "Riverside Branch"), ("NGT", "Northgate Branch"))
    ]
    today = s.now.date()
    people = [(p, "STAFF") for p in pop.employees[:5]] + [
        (p, "STUDENT" if k % 4 == 3 else "ADULT") for k, p in enumerate(pop.consumers[:25])
    ]
    pats = []
    for k, (p, category) in enumerate(people):
        pats.append(
            s.create(
                Patron,
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                category=category,
                library_id=libs[k % 3].id,
                expiry_date=today - dt.timedelta(days=20) if k == 9 else today + dt.timedelta(days=200 + 10 * k),
                restricted=k == 11,
                restriction_comment="Damaged three DVDs" if k == 11 else None,
                created_at=s.ago(days=700 - 20 * k),
            )
        )
    copies: list[list[Item]] = []
    n = 0
    for b, (title, author, year, itype, count, price) in enumerate(_CATALOGUE):
        bib = s.create(
            Biblio,
            title=title,
            author=author,
            isbn=_isbn(b) if itype != "DVD" else None,
            publication_year=year,
            item_type=itype,
        )
        row = []
        for c in range(count):
            n += 1
            row.append(
                s.create(
                    Item,
                    biblio_id=bib.id,
                    barcode=f"3{n:07d}",
                    library_id=libs[(b + c) % 3].id,
                    item_type=itype,
                    replacement_price=price,
                )
            )
        copies.append(row)
    _seed_circulation(s, pats, copies, libs)


def _seed_circulation(s: SeedContext, pats: list[Patron], copies: list[list[Item]], libs: list[Library]) -> None:
    today = s.now.date()

    def lend(p: Patron, item: Item, days_ago: int, renewals: int = 0) -> Checkout:
        s.update(item, status="checked_out")
        loan_days = DVD_LOAN_DAYS if item.item_type == "DVD" else CATEGORY_RULES[p.category][1]
        out = today - dt.timedelta(days=days_ago)
        return s.create(
            Checkout,
            patron_id=p.id,
            item_id=item.id,
            biblio_id=item.biblio_id,
            checkout_date=out,
            due_date=out + dt.timedelta(days=loan_days * (renewals + 1)),
            renewals_count=renewals,
        )

    lend(pats[5], copies[1][0], 10)  # Moby-Dick, only copy
    lend(pats[6], copies[2][0], 30)  # overdue Gatsby
    lend(pats[7], copies[3][0], 5)
    lend(pats[8], copies[4][0], 60, renewals=3)  # at the renewal limit
    lend(pats[12], copies[12][0], 12)  # overdue DVD
    lend(pats[0], copies[9][0], 4)
    lend(pats[13], copies[10][0], 6)
    lend(pats[14], copies[10][1], 2)
    # Holds: a queue on Moby-Dick, one on Project Hail Mary, a copy waiting for its patron.
    for pos, k in enumerate((15, 16), start=1):
        s.create(
            Hold, patron_id=pats[k].id, biblio_id=copies[1][0].biblio_id, pickup_library_id=libs[0].id, priority=pos
        )
    s.create(Hold, patron_id=pats[17].id, biblio_id=copies[10][0].biblio_id, pickup_library_id=libs[1].id, priority=1)
    waiting = copies[7][0]
    s.update(waiting, status="waiting")
    s.create(
        Hold,
        patron_id=pats[18].id,
        biblio_id=waiting.biblio_id,
        pickup_library_id=libs[2].id,
        priority=0,
        status="waiting",
        item_id=waiting.id,
        waiting_since=today - dt.timedelta(days=2),
        expiration_date=today + dt.timedelta(days=HOLD_SHELF_DAYS - 2),
    )
    # Fines: one patron over the limit, one under it, one paid off.
    for k, amount, status in ((10, 650, "open"), (10, 200, "open"), (19, 150, "open"), (20, 300, "paid")):
        s.create(
            Fine,
            patron_id=pats[k].id,
            type="OVERDUE",
            amount=amount,
            amount_outstanding=amount if status == "open" else 0,
            status=status,
            description="Returned late",
            created_at=s.ago(days=40 - k),
        )
