"""Random walks over the dependency graph, executed as drawn."""

from __future__ import annotations

import random

import pytest

from compoworld import Catalog, Episode, World
from compoworld.tasks.actions import action_of
from compoworld.tasks.arguments import ArgumentGenerator, ValuePool
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.prior import RecipePrior
from compoworld.tasks.roles import ROLE_BEARING, input_roles, output_role, role_fits
from compoworld.tasks.triggers import REACTIONS, Fired, names_reaction, reactions, silences
from compoworld.tasks.walk import WEAK, Walk, WalkConfig, draw_walk, flatten, produced_values

SERVICES = [
    "crm",
    "mail",
    "invoicing",
    "payments",
    "calendar",
    "chat",
    "shop",
    "shipping",
    "helpdesk",
    "hr",
    "teamchat",
    "identity",
    "storage",
    "campaigns",
]


@pytest.fixture(scope="module")
def setup() -> tuple[World, ToolGraph, ValuePool]:
    catalog = Catalog.load(SERVICES)
    world = World.build(catalog, seed=7)
    return world, ToolGraph.build(catalog), ValuePool.from_world(world)


# The default kind of walk, which carries its event over to another service, and one that goes on as
# the recipe prior has it, longer and across more services.
REACTING = WalkConfig(min_length=3, max_length=6, min_services=2, max_services=4)
GOING_ON = WalkConfig(min_length=4, max_length=6, min_services=3, max_services=4, react=False)
REASONS = {
    "no_start",
    "no_trigger",
    "no_reaction",
    "dead_end",
    "too_short",
    "no_write",
    "too_few_services",
    "no_fan_in",
}


@pytest.fixture(scope="module")
def drawn(setup: tuple[World, ToolGraph, ValuePool]) -> dict[bool, list[Walk]]:
    world, graph, pool = setup
    out: dict[bool, list[Walk]] = {}
    for config in (REACTING, GOING_ON):
        kept = out.setdefault(config.react, [])
        for i in range(150):
            result = draw_walk(world, graph, random.Random(i), config, pool)
            if result.walk is not None:
                kept.append(result.walk)
            else:
                assert result.reason in REASONS
                assert config.react or result.reason != "no_reaction"
    return out


@pytest.fixture(scope="module")
def walks(drawn: dict[bool, list[Walk]]) -> list[Walk]:
    return [w for kept in drawn.values() for w in kept]


def test_enough_draws_give_a_walk(drawn: dict[bool, list[Walk]]) -> None:
    # Over ten services, a walk whose first record can take no event (the trigger its task opens
    # with), or whose event no other service can carry over, is no walk; role-aware walks that must
    # touch three services end early more often.
    assert len(drawn[True]) >= 20
    assert len(drawn[False]) >= 25


def test_every_step_after_the_first_consumes_an_identifying_upstream_value(walks: list[Walk]) -> None:
    for walk in walks:
        first = walk.steps[0]
        assert any(p.kind == "given" for p in first.provenance.values())
        for i, step in enumerate(walk.steps[1:], start=1):
            upstream = [p for p in step.provenance.values() if p.sources]
            if not upstream:
                # A lookup (the mailbox a message goes out from) starts from a stated fact, for the next step.
                assert any(p.kind == "given" for p in step.provenance.values())
                assert any(i in p.sources for p in walk.steps[i + 1].provenance.values())
                continue
            assert all(k < i for p in upstream for k in p.sources)
            assert any(p.semantic not in WEAK or p.kind == "compose" for p in upstream), step


def test_ids_are_never_given_or_literal(walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]) -> None:
    _, graph, _ = setup
    for walk in walks:
        for step in walk.steps:
            ports = {p.path: p.semantic for p in graph.inputs[step.tool]}
            for name, prov in step.provenance.items():
                if ports.get(name, "").endswith(".id"):
                    assert prov.kind == "step"


def test_walks_respect_their_constraints_and_write(
    drawn: dict[bool, list[Walk]], walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, _, _ = setup
    for config in (REACTING, GOING_ON):
        for walk in drawn[config.react]:
            assert config.min_length <= len(walk.steps) <= config.max_length
            assert config.min_services <= len(walk.services) <= config.max_services
    for walk in walks:
        assert any(world.catalog.tools[s.tool].writes for s in walk.steps)
        assert not walk.episode.diff().is_empty
        assert walk.setup and walk.trigger  # every walk opens with an event on its first record


def test_re_executing_a_walk_on_a_fresh_episode_gives_the_same_state(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, _, _ = setup
    for walk in walks:
        ep = Episode(world)
        for step in [*walk.setup, *walk.steps]:
            res = ep.call(step.tool, step.arguments)
            assert res.ok and res.result == step.result
        assert ep.state_hash() == walk.episode.state_hash()


def test_the_same_seed_draws_the_same_walk(setup: tuple[World, ToolGraph, ValuePool]) -> None:
    world, graph, pool = setup
    a = draw_walk(world, graph, random.Random(3), WalkConfig(), pool)
    b = draw_walk(world, graph, random.Random(3), WalkConfig(), pool)
    assert (a.walk is None) == (b.walk is None)
    if a.walk is not None and b.walk is not None:
        assert [(s.tool, s.arguments) for s in a.walk.steps] == [(s.tool, s.arguments) for s in b.walk.steps]


def test_a_value_flows_only_where_its_owners_role_fits(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, _, _ = setup
    tools = world.catalog.tools
    links = 0
    for walk in walks:
        for step in walk.steps:
            for name, prov in step.provenance.items():
                if prov.kind != "step" or prov.semantic not in ROLE_BEARING or prov.step is None:
                    continue
                held = output_role(tools[walk.steps[prov.step].tool], str(prov.field))
                accepted = input_roles(tools[step.tool], name) or input_roles(tools[step.tool], f"{name}[]")
                if held is not None and accepted is not None:
                    links += 1
                    assert role_fits(held, accepted), (walk.steps[prov.step].tool, prov.field, step.tool, name)
    assert links >= 10  # the check saw real links, not none


def test_consecutive_services_follow_the_recipe_prior_nearly_always(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, _, _ = setup
    prior = RecipePrior.default()
    tools = world.catalog.tools
    pairs = [
        (tools[a.tool], tools[b.tool])
        for walk in walks
        for a, b in zip(walk.steps, walk.steps[1:], strict=False)
        if a.tool.split("__")[0] != b.tool.split("__")[0]
    ]
    inside = sum(prior.inside(a, b) for a, b in pairs)
    assert pairs and inside / len(pairs) >= 0.9, [(a.name, b.name) for a, b in pairs if not prior.inside(a, b)]


def test_a_written_record_names_the_person_its_email_belongs_to(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, graph, _ = setup
    people = {p.email: p for p in world.population.people}
    checked = 0
    for walk in walks:
        for step in walk.steps:
            ports = {p.path: p.semantic for p in graph.inputs[step.tool]}
            person = people.get(str(step.arguments.get("email")))
            if person is None or not world.catalog.tools[step.tool].writes:
                continue
            own = {
                "person.first_name": person.first_name,
                "person.last_name": person.last_name,
                "person.name": person.name,
            }
            for name, value in step.arguments.items():
                if ports.get(name) in own:
                    checked += 1
                    assert value == own[ports[name]], (step.tool, step.arguments)
    assert checked >= 1


def test_every_read_finds_something_a_person_can_point_at(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    # A listing of many records names none of them: no later step can use it and no answer can report it.
    world, graph, _ = setup
    for walk in walks:
        for i, step in enumerate(walk.steps):
            if not world.catalog.tools[step.tool].writes:
                assert produced_values(i, step.result, graph.outputs[step.tool]), step.tool


def test_every_step_is_about_the_record_the_trigger_happened_to(walks: list[Walk]) -> None:
    for walk in walks:
        about = {0}
        for i, step in enumerate(walk.steps[1:], start=1):
            sources = {k for p in step.provenance.values() for k in p.sources}
            if not sources:
                continue  # a lookup of the mailbox or channel a message goes out from
            assert sources & about, (i, [s.tool for s in walk.steps])
            about.add(i)


def test_a_walk_creates_at_most_one_record(walks: list[Walk]) -> None:
    for walk in walks:
        creates = [s.tool for s in walk.steps if action_of(walk.episode.world.catalog.tools[s.tool]) == "create"]
        assert len(creates) <= 1, creates


def test_a_message_goes_neither_to_its_own_mailbox_nor_to_copies(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, _, _ = setup
    sent = 0
    for walk in walks:
        for step in walk.steps:
            tool = world.catalog.tools[step.tool]
            if action_of(tool) != "message":
                continue
            sent += 1
            assert not {"cc", "bcc"} & set(step.arguments)
            sender_steps = [
                p for p in step.provenance.values() if p.kind == "step" and str(p.field).split(".")[-1] == "id"
            ]
            recipients = {
                str(r)
                for k, v in step.arguments.items()
                if k in ("to", "email", "phone", "to_email")
                for r in (v if isinstance(v, list) else [v])
            }
            for p in sender_steps:
                assert p.step is not None and p.field is not None
                record = p.field.rpartition(".")[0]
                own = walk.steps[p.step].result
                for part in [x for x in record.replace("]", "").replace("[", ".").split(".") if x]:
                    own = own[int(part)] if part.isdigit() else own[part]
                addresses = {v for v in own.values() if isinstance(v, str)}
                assert not addresses & recipients, (step.tool, recipients)
    assert sent


def test_an_event_says_which_reactions_fit_it() -> None:
    def fired(**changes: object) -> Fired:
        return Fired("svc__update", {}, {}, "svc.things", "t1", dict(changes))

    unsubscribed = reactions(fired(marketing_status="unsubscribed"))
    assert unsubscribed is not None and unsubscribed.search("create_suppression")
    cancelled = reactions(fired(status="cancelled"))
    assert cancelled is not None and cancelled.search("cancel_shipment") and not cancelled.search("create_invoice")
    won = reactions(fired(stage="won"))
    assert won is not None and won.search("create_invoice")
    assert reactions(fired(archived=False)) is None  # a flag cleared is no event of a known kind,
    off = reactions(fired(active=False))  # unless the flag says the thing is live: then it ended
    assert off is not None and off.search("deactivate_user")
    retired = reactions(fired(status="deprovisioned"))
    assert retired is not None and retired.search("suspend_user")
    suspended = reactions(fired(suspended=True))
    assert suspended is not None and suspended.search("revoke_token")
    # Only an event that asks for no more contact keeps the walk from writing to its subject.
    assert silences(fired(marketing_status="unsubscribed")) and silences(fired(status="opted_out"))
    assert not silences(fired(status="cancelled")) and not silences(fired(archived=False))


def test_a_stated_text_looks_like_the_field_it_fills(setup: tuple[World, ToolGraph, ValuePool]) -> None:
    world, _, pool = setup
    gen = ArgumentGenerator(world, pool, "mail", random.Random(3), fresh=False)
    tool = world.catalog.tools["mail__send_message"]
    schema = tool.parameters_schema
    subjects = pool.by_field[("mail.thread", "subject")]
    # A subject is one of the subjects the mailbox holds, not any title of the world.
    drawn = {
        gen.value(schema["properties"]["subject"], schema, name="subject", resource="mail.thread") for _ in range(20)
    }
    assert drawn <= set(subjects) and len(drawn) > 1
    # Without a resource, the service's records of that field name serve; without a name, the type's values do.
    assert gen.value(schema["properties"]["subject"], schema, name="subject") in pool.by_field[("mail", "subject")]
    assert ("mail", "no_such_field") not in pool.by_field


def test_a_reacting_walk_carries_its_event_over_and_does_nothing_else(
    drawn: dict[bool, list[Walk]], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    # Right after the event, another service reacts to it as integrations do (a suspended user's
    # shared links revoked); then someone may be told. No step is there only because it could follow.
    world, _, _ = setup
    prior = RecipePrior.default()
    tools = world.catalog.tools
    for walk in drawn[True]:
        first = tools[walk.steps[0].tool]
        writes = [tools[s.tool] for s in walk.steps if tools[s.tool].writes]
        reactions_ = [t for t in writes if action_of(t) != "message"]
        assert 1 <= len(reactions_) <= 2, [s.tool for s in walk.steps]
        for tool in reactions_:
            assert tool.service != first.service
            assert any(names_reaction(p, tool.name.split("__", 1)[1]) for _, p in REACTIONS), tool.name
            assert prior.recipe_for(first, tool) is not None, (first.name, tool.name)
        assert sum(action_of(t) == "message" for t in writes) <= 1
        # Every read after the first finds what the next step of its own service acts on.
        for i, step in enumerate(walk.steps[1:-1], start=1):
            if not tools[step.tool].writes:
                assert tools[walk.steps[i + 1].tool].service == tools[step.tool].service


def test_a_message_goes_out_from_a_place_and_tells_its_recipient_news(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, _, _ = setup
    tools = world.catalog.tools
    people = {p.email: p for p in world.population.people}
    companies = {c.key: c.name for c in world.population.companies}
    told = 0
    for walk in walks:
        for i, step in enumerate(walk.steps):
            if action_of(tools[step.tool]) != "message":
                continue
            # A record looked up for the message (no value of the walk in it) is where it goes out
            # from, a mailbox or a channel, never a document or thread picked to comment on.
            before = walk.steps[i - 1]
            if not any(p.sources for p in before.provenance.values()):
                resource = str(tools[before.tool].resource)
                assert resource.split(".")[1].removesuffix("_member") in ("mailbox", "channel", "admin", "member")
            body = next(p for p in step.provenance.values() if p.kind == "compose")
            to = [
                str(r)
                for k, v in step.arguments.items()
                if k in ("to", "to_email", "contact_email", "email")
                for r in (v if isinstance(v, list) else [v])
            ]
            person = people.get(to[0]) if to else None
            if person is None:
                continue
            told += 1
            theirs = {person.name, person.first_name, person.last_name, person.phone, person.email}
            theirs.add(companies.get(person.company_key or "", ""))
            for k, path in body.parts:
                found = dict(flatten(walk.steps[k].result))
                assert found.get(path) not in theirs, (step.tool, path, found.get(path))
    assert told >= 1


def test_a_stated_text_names_the_company_the_work_is_about(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, _, _ = setup
    others = {c.name for c in world.population.companies if not c.home}
    for walk in walks:
        first = {str(v) for _, v in flatten(walk.steps[0].result)}
        people = {p.email: p for p in world.population.people}
        subject = {
            c.name
            for c in world.population.companies
            if c.name in first or any(people[e].company_key == c.key for e in first if e in people)
        }
        for step in walk.steps:
            for name, prov in step.provenance.items():
                value = step.arguments[name]
                if prov.kind == "literal" and isinstance(value, str):
                    named = {c for c in others if c in value}
                    assert named <= subject, (step.tool, name, value)


def test_a_reaction_is_named_by_its_verb_not_by_its_undoing() -> None:
    ending = REACTIONS[2][1]
    winning = REACTIONS[3][1]
    assert names_reaction(ending, "suspend_user") and not names_reaction(ending, "unsuspend_user")
    assert names_reaction(ending, "deactivate_item") and names_reaction(ending, "unpublish_article")
    assert names_reaction(winning, "activate_listing") and not names_reaction(winning, "deactivate_item")
    assert not names_reaction(winning, "deprovision_user") and not names_reaction(winning, "reschedule_meeting")


def test_a_thing_is_found_by_what_it_is_and_someone_is_acted_on_only_when_it_happened_to_someone(
    drawn: dict[bool, list[Walk]], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    # A wiki space archived does not reach its creator's shared links or teams: the reaction finds a
    # thing by its SKU, number or company, and a person's account only after an event that was theirs.
    world, graph, _ = setup
    tools = world.catalog.tools
    persons = {"email", "phone", "person.name", "person.first_name", "person.last_name"}
    checked = 0
    for walk in drawn[True]:
        first = tools[walk.steps[0].tool]
        spec = world.catalog.resources.get(first.resource) if first.resource else None
        own = spec is not None and bool({"email", "login"} & set(spec.model.model_fields))
        outsiders = any(
            p.semantic == "email" and output_role(first, p.path) not in (None, "employee")
            for p in graph.outputs[first.name]
        )
        if own or outsiders:
            continue
        checked += 1
        ports = {s.tool: {p.path: p.semantic for p in graph.inputs[s.tool]} for s in walk.steps}
        for i, step in enumerate(walk.steps[1:-1], start=1):
            if tools[step.tool].writes or tools[walk.steps[i + 1].tool].service != tools[step.tool].service:
                continue
            if not any(p.sources for p in step.provenance.values()):
                continue  # the mailbox or channel a message goes out from
            used = {ports[step.tool].get(k) for k, p in step.provenance.items() if p.kind == "step"}
            assert not used & persons, (first.name, step.tool, step.arguments)
    assert checked >= 1
