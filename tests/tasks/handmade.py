"""Hand-made walks in the CRM, executed as drawn, for testing synthesis stages one at a time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compoworld import Episode, World
from compoworld.tasks.walk import Provenance, Step, Walk

Args = dict[str, Any] | Callable[[list[Step]], dict[str, Any]]
Call = tuple[str, Args, dict[str, Provenance]]

CONTACT = "con_000001"


def given(semantic: str) -> Provenance:
    return Provenance("given", semantic=semantic)


def literal() -> Provenance:
    return Provenance("literal")


def found(step: int, field: str, semantic: str) -> Provenance:
    return Provenance("step", step, field, semantic)


def make_walk(world: World, calls: list[Call]) -> Walk:
    """Execute calls in order on one episode; arguments may be computed from the earlier steps."""
    ep = Episode(world)
    steps: list[Step] = []
    for tool, args, prov in calls:
        arguments = args(steps) if callable(args) else args
        res = ep.call(tool, arguments)
        assert res.ok, (tool, res.error)
        steps.append(Step(tool, arguments, prov, res.result))
    return Walk(steps, ep)


def _email(world: World) -> str:
    return str(world.tables["crm.contacts"].records[CONTACT].email)  # type: ignore[attr-defined]


def _find(world: World) -> Call:
    return ("crm__find_contact_by_email", {"email": _email(world)}, {"email": given("email")})


def log_call_walk(world: World) -> Walk:
    """Find a contact, log a call with it, mark it done, retitle the contact, look the contact up.

    Steps: 0 read, 1 create, 2 update of what 1 created, 3 update of a world record, 4 read.
    """
    return make_walk(
        world,
        [
            _find(world),
            (
                "crm__create_activity",
                lambda s: {"contact_id": s[0].result["id"], "kind": "call", "subject": "Renewal call"},
                {"contact_id": found(0, "id", "crm.contact.id"), "kind": literal(), "subject": literal()},
            ),
            (
                "crm__complete_activity",
                lambda s: {"activity_id": s[1].result["id"]},
                {"activity_id": found(1, "id", "crm.activity.id")},
            ),
            (
                "crm__update_contact",
                lambda s: {"contact_id": s[0].result["id"], "title": "CFO"},
                {"contact_id": found(0, "id", "crm.contact.id"), "title": literal()},
            ),
            (
                "crm__get_contact",
                lambda s: {"contact_id": s[0].result["id"]},
                {"contact_id": found(0, "id", "crm.contact.id")},
            ),
        ],
    )


def deal_walk(world: World) -> Walk:
    """Find a contact, open a deal for its account, then log an activity on that new deal."""
    return make_walk(
        world,
        [
            _find(world),
            (
                "crm__create_opportunity",
                lambda s: {
                    "account_id": s[0].result["account_id"],
                    "primary_contact_id": s[0].result["id"],
                    "name": "Fleet renewal",
                    "amount": 12000,
                    "close_date": "2026-06-30",
                },
                {
                    "account_id": found(0, "account_id", "crm.account.id"),
                    "primary_contact_id": found(0, "id", "crm.contact.id"),
                    "name": literal(),
                    "amount": literal(),
                    "close_date": literal(),
                },
            ),
            (
                "crm__create_activity",
                lambda s: {
                    "contact_id": s[0].result["id"],
                    "opportunity_id": s[1].result["id"],
                    "kind": "meeting",
                    "subject": "Kickoff",
                },
                {
                    "contact_id": found(0, "id", "crm.contact.id"),
                    "opportunity_id": found(1, "id", "crm.opportunity.id"),
                    "kind": literal(),
                    "subject": literal(),
                },
            ),
        ],
    )


def delete_walk(world: World) -> Walk:
    """Find a contact, list its activities, delete the (only) one."""
    return make_walk(
        world,
        [
            _find(world),
            (
                "crm__list_activities",
                lambda s: {"contact_id": s[0].result["id"]},
                {"contact_id": found(0, "id", "crm.contact.id")},
            ),
            (
                "crm__delete_activity",
                lambda s: {"activity_id": s[1].result["items"][0]["id"]},
                {"activity_id": found(1, "items[0].id", "crm.activity.id")},
            ),
        ],
    )


def retitle_twice_walk(world: World) -> Walk:
    """Find a contact and change its title twice: the first change does not last."""
    retitle = [
        (
            "crm__update_contact",
            lambda s, title=title: {"contact_id": s[0].result["id"], "title": title},
            {"contact_id": found(0, "id", "crm.contact.id"), "title": literal()},
        )
        for title in ("CFO", "CEO")
    ]
    return make_walk(world, [_find(world), *retitle])


def create_then_delete_walk(world: World) -> Walk:
    """Find a contact, log an activity, delete it again: nothing the task made is left."""
    return make_walk(
        world,
        [
            _find(world),
            (
                "crm__create_activity",
                lambda s: {"contact_id": s[0].result["id"], "kind": "email", "subject": "Scratch"},
                {"contact_id": found(0, "id", "crm.contact.id"), "kind": literal(), "subject": literal()},
            ),
            (
                "crm__delete_activity",
                lambda s: {"activity_id": s[1].result["id"]},
                {"activity_id": found(1, "id", "crm.activity.id")},
            ),
        ],
    )


def ambiguous_walk(world: World) -> Walk:
    """Find a contact, log an activity, list the contact's activities (now two), delete the first listed."""
    return make_walk(
        world,
        [
            _find(world),
            (
                "crm__create_activity",
                lambda s: {"contact_id": s[0].result["id"], "kind": "call", "subject": "Follow-up"},
                {"contact_id": found(0, "id", "crm.contact.id"), "kind": literal(), "subject": literal()},
            ),
            (
                "crm__list_activities",
                lambda s: {"contact_id": s[0].result["id"]},
                {"contact_id": found(0, "id", "crm.contact.id")},
            ),
            (
                "crm__delete_activity",
                lambda s: {"activity_id": s[2].result["items"][0]["id"]},
                {"activity_id": found(2, "items[0].id", "crm.activity.id")},
            ),
        ],
    )
