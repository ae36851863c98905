"""The realism audit measures what a reader of a task would see: who is who, which verbs, what the wording gives away."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from compoworld import Catalog, Episode, World
from compoworld.cli import app
from compoworld.engine.entities import Person
from compoworld.tasks.actions import action_of
from compoworld.tasks.audit import TARGETS, audit_tasks
from compoworld.tasks.task import SolutionStep, Task

SERVICES = ["crm", "mail", "inventory"]
GOAL = "Sofia Dubois asked for a follow-up; make sure she hears from us about her account."


@pytest.fixture(scope="module")
def small_world() -> World:
    return World.build(Catalog.load(SERVICES), seed=0)


def _contacts(world: World) -> list[Person]:
    return [p for p in world.population.people if p.role == "contact"]


def _task(world: World, steps: list[tuple[str, dict[str, Any], dict[str, dict[str, Any]]]], instruction: str) -> Task:
    """A task with these solution steps, run once to check each call succeeds."""
    episode = Episode(world)
    for tool, arguments, _ in steps:
        res = episode.call(tool, arguments)
        assert res.ok, (tool, res.error)
    return Task(
        id=f"t-{abs(hash(json.dumps(steps, sort_keys=True))) % 10**8}",
        seed=0,
        index=0,
        world_seed=world.seed,
        world_version=world.version,
        catalog=world.catalog.fingerprint,
        instruction=instruction,
        given={},
        tools=sorted({s[0] for s in steps}),
        solution=[SolutionStep(tool=t, arguments=a, provenance=p) for t, a, p in steps],
        criteria=[],
        metadata={},
    )


def _lead(person: Person, email: str) -> tuple[str, dict[str, Any], dict[str, dict[str, Any]]]:
    args = {"first_name": person.first_name, "last_name": person.last_name, "email": email, "company": "Acme"}
    return ("crm__create_lead", args, {k: {"kind": "literal"} for k in args})


def test_a_record_pairing_one_persons_name_with_anothers_email_is_an_identity_miss(small_world: World) -> None:
    a, b = _contacts(small_world)[:2]
    right = _task(small_world, [_lead(a, a.email)], GOAL)
    wrong = _task(small_world, [_lead(a, b.email)], GOAL)
    report = audit_tasks(small_world, [right, wrong])
    identity = report.metrics["identity_consistency"]
    assert (identity.count, identity.total) == (1, 2)
    assert identity.met is False
    assert identity.examples == [(wrong.id, f"crm__create_lead: {a.name!r} beside another person's {b.email!r}")]
    # A name that is nobody's beside someone's e-mail is a miss too; a person wholly outside the world
    # (an open-world answer's) has nobody to be confused with, and is not counted.
    nobody = (
        "crm__create_lead",
        {"first_name": "Zzyzx", "last_name": "Qwerty", "email": a.email, "company": "Acme"},
        {},
    )
    outsider = (
        "crm__create_lead",
        {"first_name": "Zzyzx", "last_name": "Qwerty", "email": "zzyzx@example.org", "company": "Acme"},
        {},
    )
    metric = audit_tasks(small_world, [_task(small_world, [nobody, outsider], GOAL)]).metrics["identity_consistency"]
    assert (metric.count, metric.total) == (0, 1)
    assert "'Zzyzx Qwerty' is nobody in the world" in metric.examples[0][1]


def test_a_persons_value_the_setup_wrote_is_not_judged_against_the_world(small_world: World) -> None:
    # A source of truth updated in the setup (the crossref pattern): the person's name there is new to the world.
    listed = Episode(small_world).call("crm__list_contacts", {})
    assert listed.ok, listed.error
    emails = {c["email"]: c["id"] for c in listed.result["items"]}
    a = next(p for p in _contacts(small_world) if p.email in emails)
    renamed = {"contact_id": emails[a.email], "last_name": "Qwerty"}
    lead = (
        "crm__create_lead",
        {"first_name": a.first_name, "last_name": "Qwerty", "email": a.email, "company": "Acme"},
        {},
    )
    plain = _task(small_world, [lead], GOAL)
    setup = plain.model_copy(
        update={"setup": [SolutionStep(tool="crm__update_contact", arguments=renamed, provenance={})]}
    )
    assert audit_tasks(small_world, [plain]).metrics["identity_consistency"].total == 1
    assert audit_tasks(small_world, [setup]).metrics["identity_consistency"].total == 0


def test_a_message_greeting_someone_else_than_its_addressee_is_an_identity_miss(small_world: World) -> None:
    a, b = _contacts(small_world)[:2]

    def mail(to: Person, greeted: Person) -> tuple[str, dict[str, Any], dict[str, dict[str, Any]]]:
        args = {
            "mailbox_id": "mbx_000001",
            "to": [to.email],
            "subject": "Follow-up",
            "body": f"Hi {greeted.first_name}, hello.",
        }
        return ("mail__send_message", args, {k: {"kind": "literal"} for k in args})

    right = _task(small_world, [mail(a, a)], GOAL)
    wrong = _task(small_world, [mail(a, b)], GOAL)
    identity = audit_tasks(small_world, [right, wrong]).metrics["identity_consistency"]
    assert (identity.count, identity.total) == (1, 2)
    assert identity.examples == [
        (wrong.id, f"mail__send_message: greets {b.first_name!r} in a message to {a.email!r} ({a.first_name})")
    ]


def _send(world: World, body: str) -> tuple[str, dict[str, Any], dict[str, dict[str, Any]]]:
    args = {
        "mailbox_id": "mbx_000001",
        "to": ["sofia.dubois@zephyrlogistics.com"],
        "subject": "Follow-up",
        "body": body,
    }
    return ("mail__send_message", args, {k: {"kind": "literal"} for k in args})


def _find() -> tuple[str, dict[str, Any], dict[str, dict[str, Any]]]:
    return (
        "crm__find_contact_by_email",
        {"email": "sofia.dubois@zephyrlogistics.com"},
        {"email": {"kind": "given", "semantic": "email"}},
    )


def test_a_message_counts_only_when_its_body_carries_a_fact_found_on_the_way(small_world: World) -> None:
    # The contact's phone is found by step 0 and not in the instruction; her name is in the instruction.
    carries = _task(small_world, [_find(), _send(small_world, "We will call you on +312086413854.")], GOAL)
    stated = _task(small_world, [_find(), _send(small_world, "Dear Sofia Dubois, thanks.")], GOAL)
    report = audit_tasks(small_world, [carries, stated])
    messages = report.metrics["message_fact_tasks"]
    assert (messages.count, messages.total) == (1, 2)
    assert messages.examples[0][0] == stated.id
    assert report.actions["message"] == 2


def test_verbs_are_counted_by_what_the_tool_does(small_world: World) -> None:
    a = _contacts(small_world)[0]
    creates = _task(small_world, [_lead(a, a.email)], GOAL)
    updates = _task(
        small_world,
        [("crm__update_contact", {"contact_id": "con_000001", "title": "CFO"}, {})],
        GOAL,
    )
    report = audit_tasks(small_world, [creates, updates])
    create = report.metrics["create_share_of_writes"]
    assert (create.count, create.total, create.met) == (1, 2, False)  # 50 % > 40 %
    change = report.metrics["change_tasks"]
    assert (change.count, change.total) == (1, 2)
    assert dict(report.actions) == {"create": 1, "update": 1}


@pytest.mark.parametrize(
    ("instruction", "leak"),
    [
        ("1. Find the contact.\n2. Send her a mail.", "1."),
        ("First, find the contact; then mail her.", "First,"),
        ("Use crm__find_contact_by_email, then reply.", "crm__find_contact_by_email"),
        ("Reply to her with the value from step 1.", "step 1"),
    ],
)
def test_an_instruction_that_numbers_steps_or_names_a_tool_is_not_goal_level(
    small_world: World, instruction: str, leak: str
) -> None:
    recipe = _task(small_world, [_find()], instruction)
    goal = _task(small_world, [_find()], GOAL)
    metric = audit_tasks(small_world, [recipe, goal]).metrics["goal_level_instructions"]
    assert (metric.count, metric.total) == (1, 2)
    assert metric.examples == [(recipe.id, f"the instruction says {leak!r}")]


def test_a_customers_email_flowing_into_a_supplier_field_does_not_fit_its_role(small_world: World) -> None:
    lead_args = {"first_name": "Sofia", "last_name": "Dubois", "email": "sofia.dubois@zephyrlogistics.com"}
    create = ("crm__create_lead", {**lead_args, "company": "Zephyr Logistics"}, {})
    into_supplier = (
        "inventory__update_item",
        {"item_id": "itm_000001", "supplier_email": "sofia.dubois@zephyrlogistics.com"},
        {
            "item_id": {"kind": "literal"},
            "supplier_email": {"kind": "step", "step": 0, "field": "email", "semantic": "email"},
        },
    )
    into_mail = (
        "mail__send_message",
        {"mailbox_id": "mbx_000001", "to": ["sofia.dubois@zephyrlogistics.com"], "subject": "Welcome"},
        {"to": {"kind": "step", "step": 0, "field": "email", "semantic": "email"}},
    )
    report = audit_tasks(
        small_world, [_task(small_world, [create, into_supplier], GOAL), _task(small_world, [create, into_mail], GOAL)]
    )
    fit = report.metrics["role_fit"]
    assert (fit.count, fit.total) == (1, 2)
    assert "inventory__update_item.supplier_email" in fit.examples[0][1]


def test_a_jump_between_services_no_integration_makes_is_reported_outside_the_prior(small_world: World) -> None:
    a = _contacts(small_world)[0]
    jump = _task(
        small_world,
        [("inventory__list_items", {}, {}), _lead(a, a.email)],
        GOAL,
    )
    report = audit_tasks(small_world, [jump])
    transitions = report.metrics["prior_transitions"]
    assert (transitions.count, transitions.total) == (0, 1)
    assert dict(report.outside_prior) == {"inventory -> crm": 1}
    assert transitions.examples == [(jump.id, "inventory__list_items -> crm__create_lead")]


def test_a_read_consulted_for_another_service_s_write_is_judged_by_where_its_value_goes(small_world: World) -> None:
    a, b = _contacts(small_world)[:2]
    supplier = {"company": {"kind": "step", "step": 1, "field": "items[0].supplier"}}
    lead_b = ("crm__create_lead", _lead(b, b.email)[1], {**_lead(b, b.email)[2], **supplier})
    consulted = _task(small_world, [_lead(a, a.email), ("inventory__list_items", {}, {}), lead_b], GOAL)
    report = audit_tasks(small_world, [consulted])
    transitions = report.metrics["prior_transitions"]
    # One hop, from the read to the write that takes its value; not crm -> inventory -> crm.
    assert transitions.total == 1
    assert transitions.examples == [(consulted.id, "inventory__list_items -> crm__create_lead")]


def test_a_batch_s_repeated_steps_are_not_judged_again(small_world: World) -> None:
    a, b = _contacts(small_world)[:2]
    steps = [_lead(a, a.email), ("inventory__list_items", {}, {}), _lead(b, b.email)]
    plain = _task(small_world, steps, GOAL)
    repeated = plain.model_copy(update={"metadata": {"repeats": [1, 2]}})
    assert audit_tasks(small_world, [plain]).metrics["prior_transitions"].total == 2
    assert audit_tasks(small_world, [repeated]).metrics["prior_transitions"].total == 0


def test_the_report_reads_as_json_with_every_target(small_world: World) -> None:
    report = audit_tasks(small_world, [_task(small_world, [_find()], GOAL)])
    doc = report.to_dict()
    json.dumps(doc)
    assert list(doc["metrics"]) == list(TARGETS)
    for metric in doc["metrics"].values():
        assert metric["target"].startswith((">=", "<="))
    assert doc["metrics"]["role_fit"]["value"] is None  # nothing to measure is not a pass


def test_action_of_names_real_verbs() -> None:
    catalog = Catalog.load(["crm", "mail", "helpdesk"])
    assert action_of(catalog.tools["crm__create_lead"]) == "create"
    assert action_of(catalog.tools["crm__get_contact"]) == "read"
    assert action_of(catalog.tools["mail__send_message"]) == "message"
    assert action_of(catalog.tools["helpdesk__add_ticket_comment"]) == "message"
    assert action_of(catalog.tools["crm__update_contact"]) == "update"
    assert action_of(catalog.tools["crm__convert_lead"]) == "transition"


def test_compoworld_audit_prints_the_metrics_of_a_synthesized_set(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "set"
    res = runner.invoke(app, ["synth", "--tasks", "4", "--out", str(out), "--service", "crm", "--service", "mail"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["audit", str(out / "tasks.jsonl"), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["tasks"] == 4 and "identity_consistency" in doc["metrics"]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["audit"]["metrics"].keys() == doc["metrics"].keys()
    missing = runner.invoke(app, ["audit", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 1 and "Traceback" not in missing.output
