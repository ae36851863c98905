"""The scripted demo behind ``make demo``: the catalog, then one multi-service episode.

The episode follows one customer through six services the way an agent
would: find the contact in the CRM, win the open deal, invoice the company,
charge and record the payment, e-mail the contact, book a kickoff meeting and
tell the sales channel. Every value a step uses comes from an earlier step's
result, which is what makes tasks in this world compositional.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from compoworld.engine.catalog import Catalog
from compoworld.engine.episode import Episode
from compoworld.world.world import World

__all__ = ["DemoError", "run_demo"]


class DemoError(RuntimeError):
    """A scripted step failed: the services no longer behave as the script expects."""


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _print_catalog(console: Console, catalog: Catalog, world: World) -> None:
    stats = catalog.stats()
    table = Table(
        title=f"catalog: {stats['services']} services, {stats['tools']} tools, {stats['categories']} categories"
    )
    for col in ("service", "category", "modeled on", "tools", "records"):
        table.add_column(col)
    for name, svc in catalog.services.items():
        records = sum(len(world.tables[r.table].records) for r in svc.resources)
        table.add_row(name, svc.category, svc.modeled_on, str(len(catalog.tools_of(name))), str(records))
    console.print(table)
    console.print(
        f"world seed {world.seed}: {world.record_count()} records, version {world.version}, "
        f"{len(world.population.people)} people at {len(world.population.companies)} companies"
    )


def run_demo(console: Console, *, seed: int = 0) -> Episode:
    """Print the catalog and run the scripted episode.

    Args:
        console: Where to print.
        seed: World seed.

    Returns:
        The episode, in its final state.

    Raises:
        DemoError: if a scripted step fails.
    """
    catalog = Catalog.load()
    world = World.build(catalog, seed=seed)
    _print_catalog(console, catalog, world)
    script = _Script(console, Episode(world))
    console.print("\n[bold]Scripted episode[/bold]: close a deal in negotiation and onboard the customer")
    deal = _close_deal(script)
    invoice, sent = _send_invoice(script, deal)
    _collect_payment(script, deal, invoice, sent)
    _welcome_by_mail(script, deal, sent)
    _book_kickoff(script, deal)
    _announce_in_chat(script, deal, sent)
    _print_diff(console, script.episode)
    console.print(f"\nstate hash {script.episode.state_hash()}  ({script.steps} calls, all succeeded)")
    return script.episode


class _Script:
    """The episode being scripted, narrated step by step on a console."""

    def __init__(self, console: Console, episode: Episode) -> None:
        self.console = console
        self.episode = episode
        self.steps = 0

    def call(self, tool: str, args: dict[str, Any]) -> Any:
        """Call a tool, print the call and its result, and return the result.

        Raises:
            DemoError: if the call fails.
        """
        self.steps += 1
        self.console.print(f"\n[bold cyan]{self.steps}. {tool}[/bold cyan] {_short(args, 400)}")
        res = self.episode.call(tool, args)
        if not res.ok:
            assert res.error is not None
            self.console.print(f"   [red]error[/red] {res.error.to_dict()}")
            raise DemoError(f"step {self.steps} ({tool}) failed: {res.error.message}")
        self.console.print(f"   [green]→[/green] {_short(res.result)}")
        return res.result

    def first(self, tool: str, args: dict[str, Any], pick: Callable[[dict[str, Any]], bool] = lambda _: True) -> Any:
        """Call a list tool and return the first item that ``pick`` accepts.

        Raises:
            DemoError: if the call fails or no item is accepted.
        """
        items = [r for r in self.call(tool, args)["items"] if pick(r)]
        if not items:
            raise DemoError(f"{tool} found nothing for {args}")
        return items[0]


@dataclass(frozen=True)
class _Deal:
    """The won opportunity, its account and its primary contact, as the CRM returned them.

    Attributes:
        account: The account.
        contact: The opportunity's primary contact.
        won: The opportunity, closed won.
        owner: The account owner's e-mail: the one who writes, meets and announces.
    """

    account: dict[str, Any]
    contact: dict[str, Any]
    won: dict[str, Any]
    owner: str


def _close_deal(script: _Script) -> _Deal:
    opp = script.first(
        "crm__list_opportunities", {"stage": "negotiation", "limit": 100}, lambda o: bool(o["primary_contact_id"])
    )
    account = script.call("crm__get_account", {"account_id": opp["account_id"]})
    contact = script.call("crm__get_contact", {"contact_id": opp["primary_contact_id"]})
    won = script.call("crm__advance_opportunity", {"opportunity_id": opp["id"], "stage": "closed_won"})
    return _Deal(account=account, contact=contact, won=won, owner=account["owner_email"])


def _send_invoice(script: _Script, deal: _Deal) -> tuple[Any, Any]:
    """Invoice the won amount; returns the invoice as created and as sent."""
    customer = script.first("invoicing__list_customers", {"query": deal.account["name"]})
    consulting = script.first("invoicing__list_items", {"query": "Consulting"})
    invoice = script.call(
        "invoicing__create_invoice",
        {
            "customer_id": customer["id"],
            "lines": [
                {
                    "item_id": consulting["id"],
                    "description": f"{deal.won['name']}: onboarding and consulting",
                    "quantity": 1,
                    "unit_price": deal.won["amount"],
                }
            ],
            "memo": f"Opportunity {deal.won['name']}",
            "bill_email": deal.contact["email"],
        },
    )
    sent = script.call("invoicing__send_invoice", {"invoice_id": invoice["id"]})
    return invoice, sent


def _collect_payment(script: _Script, deal: _Deal, invoice: Any, sent: Any) -> None:
    payer = script.first("payments__list_customers", {"email": deal.contact["email"]})
    charge = script.call(
        "payments__create_charge",
        {
            "customer_id": payer["id"],
            "amount": sent["total"],
            "currency": sent["currency"],
            "invoice_number": sent["doc_number"],
            "description": f"Invoice {sent['doc_number']}",
            "receipt_email": deal.contact["email"],
        },
    )
    script.call(
        "invoicing__receive_payment",
        {"invoice_id": invoice["id"], "amount": charge["amount"], "method": "credit_card", "reference": charge["id"]},
    )


def _welcome_by_mail(script: _Script, deal: _Deal, sent: Any) -> None:
    mailbox = script.first("mail__list_mailboxes", {"email": deal.owner})
    script.call(
        "mail__send_message",
        {
            "mailbox_id": mailbox["id"],
            "to": [deal.contact["email"]],
            "subject": f"Welcome aboard, {deal.account['name']}",
            "body": f"Hi {deal.contact['first_name']}, invoice {sent['doc_number']} is paid. Let's schedule the kickoff.",
        },
    )


def _book_kickoff(script: _Script, deal: _Deal) -> None:
    cal = script.first("calendar__list_calendars", {"owner_email": deal.owner, "primary": True})
    slot = script.call(
        "calendar__find_free_slot",
        {
            "attendee_emails": [deal.owner],
            "duration_minutes": 60,
            "window_start": "2026-03-03T09:00:00Z",
            "window_end": "2026-03-06T17:00:00Z",
        },
    )[0]
    script.call(
        "calendar__create_event",
        {
            "calendar_id": cal["id"],
            "summary": f"{deal.account['name']} kickoff",
            "start": slot["start"],
            "end": slot["end"],
            "attendee_emails": [deal.contact["email"]],
            "add_conference": True,
        },
    )


def _announce_in_chat(script: _Script, deal: _Deal, sent: Any) -> None:
    sales = script.first("chat__list_channels", {"name": "sales"})
    member = script.first("chat__list_members", {"email": deal.owner})
    script.call(
        "chat__post_message",
        {
            "channel_id": sales["id"],
            "member_id": member["id"],
            "text": f"Closed {deal.won['name']}: invoice {sent['doc_number']} paid.",
        },
    )


def _print_diff(console: Console, episode: Episode) -> None:
    diff = episode.diff()
    table = Table(title="final state diff")
    for col in ("table", "added", "updated", "removed"):
        table.add_column(col)
    for name, counts in diff.counts().items():
        table.add_row(name, str(counts["added"]), str(counts["updated"]), str(counts["removed"]))
    console.print(table)
    for name, td in diff.tables.items():
        for change in td.updated:
            console.print(
                f"  {name} {change.id}: "
                + ", ".join(f"{k}: {change.before.get(k)!r} → {change.after.get(k)!r}" for k in change.changed)
            )
        for rec in td.added:
            console.print(f"  {name} + {_short(rec, 200)}")
