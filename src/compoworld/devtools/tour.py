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
    ep = Episode(world)
    step = 0

    def call(tool: str, args: dict[str, Any]) -> Any:
        nonlocal step
        step += 1
        console.print(f"\n[bold cyan]{step}. {tool}[/bold cyan] {_short(args, 400)}")
        res = ep.call(tool, args)
        if not res.ok:
            assert res.error is not None
            console.print(f"   [red]error[/red] {res.error.to_dict()}")
            raise DemoError(f"step {step} ({tool}) failed: {res.error.message}")
        console.print(f"   [green]→[/green] {_short(res.result)}")
        return res.result

    def first(tool: str, args: dict[str, Any], pick: Callable[[dict[str, Any]], bool] = lambda _: True) -> Any:
        items = [r for r in call(tool, args)["items"] if pick(r)]
        if not items:
            raise DemoError(f"{tool} found nothing for {args}")
        return items[0]

    console.print("\n[bold]Scripted episode[/bold]: close a deal in negotiation and onboard the customer")
    opp = first(
        "crm__list_opportunities", {"stage": "negotiation", "limit": 100}, lambda o: bool(o["primary_contact_id"])
    )
    account = call("crm__get_account", {"account_id": opp["account_id"]})
    contact = call("crm__get_contact", {"contact_id": opp["primary_contact_id"]})
    won = call("crm__advance_opportunity", {"opportunity_id": opp["id"], "stage": "closed_won"})

    customer = first("invoicing__list_customers", {"query": account["name"]})
    consulting = first("invoicing__list_items", {"query": "Consulting"})
    invoice = call(
        "invoicing__create_invoice",
        {
            "customer_id": customer["id"],
            "lines": [
                {
                    "item_id": consulting["id"],
                    "description": f"{won['name']}: onboarding and consulting",
                    "quantity": 1,
                    "unit_price": won["amount"],
                }
            ],
            "memo": f"Opportunity {won['name']}",
            "bill_email": contact["email"],
        },
    )
    sent = call("invoicing__send_invoice", {"invoice_id": invoice["id"]})

    payer = first("payments__list_customers", {"email": contact["email"]})
    charge = call(
        "payments__create_charge",
        {
            "customer_id": payer["id"],
            "amount": sent["total"],
            "currency": sent["currency"],
            "invoice_number": sent["doc_number"],
            "description": f"Invoice {sent['doc_number']}",
            "receipt_email": contact["email"],
        },
    )
    call(
        "invoicing__receive_payment",
        {"invoice_id": invoice["id"], "amount": charge["amount"], "method": "credit_card", "reference": charge["id"]},
    )

    owner = account["owner_email"]
    mailbox = first("mail__list_mailboxes", {"email": owner})
    call(
        "mail__send_message",
        {
            "mailbox_id": mailbox["id"],
            "to": [contact["email"]],
            "subject": f"Welcome aboard, {account['name']}",
            "body": f"Hi {contact['first_name']}, invoice {sent['doc_number']} is paid. Let's schedule the kickoff.",
        },
    )
    cal = first("calendar__list_calendars", {"owner_email": owner, "primary": True})
    slot = call(
        "calendar__find_free_slot",
        {
            "attendee_emails": [owner],
            "duration_minutes": 60,
            "window_start": "2026-03-03T09:00:00Z",
            "window_end": "2026-03-06T17:00:00Z",
        },
    )[0]
    call(
        "calendar__create_event",
        {
            "calendar_id": cal["id"],
            "summary": f"{account['name']} kickoff",
            "start": slot["start"],
            "end": slot["end"],
            "attendee_emails": [contact["email"]],
            "add_conference": True,
        },
    )
    sales = first("chat__list_channels", {"name": "sales"})
    member = first("chat__list_members", {"email": owner})
    call(
        "chat__post_message",
        {
            "channel_id": sales["id"],
            "member_id": member["id"],
            "text": f"Closed {won['name']}: invoice {sent['doc_number']} paid.",
        },
    )

    diff = ep.diff()
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
    console.print(f"\nstate hash {ep.state_hash()}  ({step} calls, all succeeded)")
    return ep
