"""Shelfmark ILS: loan limits and periods, blocks, the holds queue and hold shelf, renewals, fines and payments."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LIB = ServiceTools("library")
WORLD = LIB.world
ok, refused, every = LIB.ok, LIB.refused, LIB.every
POP = WORLD.population


def patron(ep: Episode, n: int) -> dict[str, Any]:
    return every(ep, "list_patrons")[n]


def title(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_biblios", query=name)[0]


def copies(ep: Episode, name: str, **filters: Any) -> list[dict[str, Any]]:
    return every(ep, "list_items", biblio_id=title(ep, name)["id"], **filters)


def loan_of(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_checkouts", biblio_id=title(ep, name)["id"], status="open")[0]


def test_loan_periods_follow_the_category_and_item_type(ep: Episode) -> None:
    staff, adult = patron(ep, 0), patron(ep, 5)
    assert (staff["category"], adult["category"]) == ("STAFF", "ADULT")
    book = copies(ep, "Pride and Prejudice", status="available")
    got = ok(ep, "checkout_item", patron_id=staff["id"], item_id=book[0]["id"])["checkout"]
    assert (got["checkout_date"], got["due_date"]) == ("2026-03-02", "2026-03-30")
    assert ok(ep, "checkout_item", patron_id=adult["id"], item_id=book[1]["id"])["checkout"]["due_date"] == "2026-03-23"
    dvd = copies(ep, "Spirited Away", status="available")[0]
    assert ok(ep, "checkout_item", patron_id=adult["id"], item_id=dvd["id"])["checkout"]["due_date"] == "2026-03-09"
    refused(ep, "checkout_item", "conflict", "item_id", patron_id=staff["id"], item_id=dvd["id"])
    ref = copies(ep, "World Atlas")[0]
    refused(ep, "checkout_item", "rule_violation", "item_id", patron_id=staff["id"], item_id=ref["id"])


def test_expired_restricted_and_indebted_patrons_cannot_borrow(ep: Episode) -> None:
    item = copies(ep, "Pride and Prejudice", status="available")[0]["id"]
    for n in (9, 10, 11):
        refused(ep, "checkout_item", "rule_violation", "patron_id", patron_id=patron(ep, n)["id"], item_id=item)
    debtor = patron(ep, 10)
    account = ok(ep, "get_patron_account", patron_id=debtor["id"])
    assert (account["balance"], account["can_borrow"]) == (850, False)
    ok(ep, "pay_fines", patron_id=debtor["id"], amount=350)
    assert ok(ep, "get_patron_account", patron_id=debtor["id"])["can_borrow"] is True
    assert ok(ep, "checkout_item", patron_id=debtor["id"], item_id=item)["checkout"]["patron_id"] == debtor["id"]


def test_a_student_may_have_five_loans(ep: Episode) -> None:
    student = next(
        p
        for p in every(ep, "list_patrons", category="STUDENT")
        if not every(ep, "list_checkouts", patron_id=p["id"], status="open")
    )
    shelf = [i for i in every(ep, "list_items", status="available", item_type="BOOK")]
    held = {h["biblio_id"] for h in every(ep, "list_holds", status="pending")}
    free = [i for i in shelf if i["biblio_id"] not in held]
    for item in free[:5]:
        ok(ep, "checkout_item", patron_id=student["id"], item_id=item["id"])
    refused(ep, "checkout_item", "rule_violation", "patron_id", patron_id=student["id"], item_id=free[5]["id"])


def test_a_waiting_copy_is_lent_only_to_its_patron_and_fulfils_the_hold(ep: Episode) -> None:
    hold = every(ep, "list_holds", status="waiting")[0]
    other = patron(ep, 0)
    refused(ep, "checkout_item", "rule_violation", "item_id", patron_id=other["id"], item_id=hold["item_id"])
    got = ok(ep, "checkout_item", patron_id=hold["patron_id"], item_id=hold["item_id"])
    assert got["fulfilled_hold_id"] == hold["id"]
    assert every(ep, "list_holds", patron_id=hold["patron_id"], status="fulfilled")[0]["id"] == hold["id"]


def test_returning_a_held_title_sends_it_to_the_next_in_the_queue(ep: Episode) -> None:
    loan = loan_of(ep, "Moby-Dick")
    queue = sorted(every(ep, "list_holds", biblio_id=loan["biblio_id"], status="pending"), key=lambda h: h["priority"])
    assert [h["priority"] for h in queue] == [1, 2]
    refused(ep, "renew_checkout", "rule_violation", "checkout_id", checkout_id=loan["id"])
    back = ok(ep, "checkin_item", checkout_id=loan["id"])
    assert (back["item"]["status"], back["hold_id"], back["fine"]) == ("waiting", queue[0]["id"], None)
    nxt = every(ep, "list_holds", biblio_id=loan["biblio_id"], status="pending")
    assert [(h["id"], h["priority"]) for h in nxt] == [(queue[1]["id"], 1)]
    refused(ep, "checkin_item", "conflict", "checkout_id", checkout_id=loan["id"])
    cancelled = ok(ep, "cancel_hold", hold_id=queue[0]["id"])
    assert cancelled["status"] == "cancelled"
    assert (
        every(ep, "list_holds", biblio_id=loan["biblio_id"], status="waiting")[0]["patron_id"] == queue[1]["patron_id"]
    )


def test_late_returns_are_fined_by_the_day(ep: Episode) -> None:
    book = ok(ep, "checkin_item", checkout_id=loan_of(ep, "The Great Gatsby")["id"])
    assert (book["fine"]["amount"], book["fine"]["type"], book["item"]["status"]) == (9 * 25, "OVERDUE", "available")
    dvd = ok(ep, "checkin_item", checkout_id=loan_of(ep, "Spirited Away")["id"])
    assert dvd["fine"]["amount"] == 5 * 100
    on_time = ok(ep, "checkin_item", checkout_id=loan_of(ep, "The Overstory")["id"])
    assert on_time["fine"] is None


def test_renewals_are_limited_and_start_from_today(ep: Episode) -> None:
    loan = loan_of(ep, "The Overstory")
    renewed = ok(ep, "renew_checkout", checkout_id=loan["id"])
    assert (renewed["renewals_count"], renewed["due_date"]) == (1, "2026-03-30")
    maxed = loan_of(ep, "To Kill a Mockingbird")
    refused(ep, "renew_checkout", "rule_violation", "checkout_id", checkout_id=maxed["id"])


def test_a_lost_copy_is_charged_at_its_replacement_price(ep: Episode) -> None:
    loan = loan_of(ep, "Nineteen Eighty-Four")
    fine = ok(ep, "declare_lost", checkout_id=loan["id"])
    assert (fine["type"], fine["amount"], fine["amount_outstanding"]) == ("LOST", 1700, 1700)
    item = every(ep, "list_items", barcode=copies(ep, "Nineteen Eighty-Four", status="lost")[0]["barcode"])[0]
    assert item["status"] == "lost"
    refused(ep, "declare_lost", "conflict", "checkout_id", checkout_id=loan["id"])
    refused(ep, "checkout_item", "rule_violation", "item_id", patron_id=patron(ep, 0)["id"], item_id=item["id"])


def test_payments_settle_the_oldest_fines_and_never_exceed_the_debt(ep: Episode) -> None:
    debtor = patron(ep, 10)["id"]
    refused(ep, "pay_fines", "rule_violation", "amount", patron_id=debtor, amount=851)
    paid = ok(ep, "pay_fines", patron_id=debtor, amount=700)
    oldest = sorted(every(ep, "list_fines", patron_id=debtor), key=lambda f: f["created_at"])[0]
    assert paid["settled_fine_ids"] == [oldest["id"]] and paid["balance"] == 150
    ok(ep, "pay_fines", patron_id=debtor, amount=150)
    refused(ep, "pay_fines", "rule_violation", "patron_id", patron_id=debtor, amount=1)


def test_holds_rules_and_the_shelf_copy_set_aside_at_once(ep: Episode) -> None:
    reader = patron(ep, 1)
    gatsby = title(ep, "The Great Gatsby")
    args = {"patron_id": reader["id"], "biblio_id": gatsby["id"], "pickup_library_id": reader["library_id"]}
    hold = ok(ep, "place_hold", **args)
    assert (hold["status"], hold["expiration_date"]) == ("waiting", "2026-03-09")
    refused(ep, "place_hold", "conflict", "biblio_id", **args)
    refused(ep, "place_hold", "rule_violation", "biblio_id", **{**args, "biblio_id": title(ep, "World Atlas")["id"]})
    borrower = loan_of(ep, "The Overstory")
    refused(
        ep,
        "place_hold",
        "rule_violation",
        "biblio_id",
        patron_id=borrower["patron_id"],
        biblio_id=borrower["biblio_id"],
        pickup_library_id=reader["library_id"],
    )
    refused(ep, "place_hold", "rule_violation", "patron_id", **{**args, "patron_id": patron(ep, 9)["id"]})


def test_seeded_patrons_are_the_worlds_people() -> None:
    pats = LIB.seeded("patrons")
    staff = {p.email for p in POP.employees}
    consumers = {p.email for p in POP.consumers}
    assert all((p["email"] in staff) == (p["category"] == "STAFF") for p in pats)
    assert all(p["email"] in staff | consumers for p in pats)
    assert {c["status"] for c in LIB.seeded("checkouts")} == {"open"}
