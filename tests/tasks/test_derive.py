"""Criteria derivation, stage by stage: which criteria a step's changes give, and what they depend on."""

from __future__ import annotations

import json

import pytest

from compoworld import Catalog, World
from compoworld.engine.episode import Episode
from compoworld.tasks.actions import action_of
from compoworld.tasks.criteria import (
    NEGATIVE_KINDS,
    AnswerCriterion,
    CountCriterion,
    MessageCriterion,
    NoCollateralCriterion,
    NotSentCriterion,
    StateCriterion,
    TransitionCriterion,
    check_criteria,
)
from compoworld.tasks.derive import (
    Derivation,
    Unverifiable,
    answer_criterion,
    created_ids,
    derive_criteria,
    find_value,
    is_new_id,
    no_collateral_criterion,
    settle_created,
    settle_updated,
    state_criteria,
    transition_criteria,
)
from compoworld.tasks.gates import validate_task
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.replay import WalkReplay, apply_setup, replay_walk
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.tasks.walk import Provenance, Step, Walk
from tests.tasks.handmade import (
    CONTACT,
    create_then_delete_walk,
    deal_walk,
    delete_walk,
    log_call_walk,
    retitle_twice_walk,
)


@pytest.fixture(scope="module")
def graph(crm_world: World) -> ToolGraph:
    return ToolGraph.build(crm_world.catalog)


def _start(world: World, walk: Walk) -> tuple[Derivation, WalkReplay]:
    replay = replay_walk(world, walk)
    assert replay is not None
    return Derivation(world, created_ids(replay.final)), replay


def _run_steps(d: Derivation, walk: Walk, replay: WalkReplay, upto: int) -> None:
    for j in range(upto):
        step, diff = walk.steps[j], replay.diffs[j]
        d.by_step[j] = state_criteria(d, j, step, diff) + transition_criteria(d, j, step, diff)


def test_a_step_that_only_reads_gives_no_criteria(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    d, replay = _start(crm_world, walk)
    assert state_criteria(d, 0, walk.steps[0], replay.diffs[0]) == []
    assert transition_criteria(d, 0, walk.steps[0], replay.diffs[0]) == []
    assert d.criteria == []


def test_a_created_record_is_asked_for_by_the_values_it_was_given_never_by_its_id(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 1)
    assert state_criteria(d, 1, walk.steps[1], replay.diffs[1]) == ["c0"]
    c = d.criteria[0]
    assert isinstance(c, StateCriterion) and c.mode == "added" and c.table == "crm.activities" and c.step == 1
    assert c.fields == {"contact_id": CONTACT, "kind": "call", "subject": "Renewal call"}
    assert c.record_id is None and "id" not in c.fields and "created_at" not in c.fields
    assert d.created == {walk.steps[1].result["id"]: 0}


def test_a_created_record_no_argument_identifies_is_unverifiable(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    d, replay = _start(crm_world, walk)
    step = walk.steps[1]
    with pytest.raises(Unverifiable):
        state_criteria(d, 1, Step(step.tool, {}, {}, step.result), replay.diffs[1])


def test_updating_a_record_the_task_created_extends_its_criterion_and_keeps_its_dependencies(
    crm_world: World,
) -> None:
    walk = log_call_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 2)
    before = len(d.criteria)
    assert state_criteria(d, 2, walk.steps[2], replay.diffs[2]) == ["c0"]
    assert len(d.criteria) == before
    assert d.criteria[0].fields["done"] is True and d.criteria[0].depends_on == []


def test_a_world_record_a_step_updated_is_asked_for_by_its_new_values(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 3)
    (cid,) = state_criteria(d, 3, walk.steps[3], replay.diffs[3])
    c = d.criteria[int(cid[1:])]
    assert isinstance(c, StateCriterion) and c.mode == "updated"
    assert (c.table, c.record_id, c.fields) == ("crm.contacts", CONTACT, {"title": "CFO"})


def test_a_removed_world_record_is_asked_to_be_gone(crm_world: World) -> None:
    walk = delete_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 3)
    (c,) = d.criteria
    removed = walk.steps[1].result["items"][0]["id"]
    assert isinstance(c, StateCriterion) and c.mode == "removed" and c.record_id == removed and c.fields == {}


def test_a_transition_links_a_value_found_upstream_to_the_field_that_stored_it(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 1)
    state_criteria(d, 1, walk.steps[1], replay.diffs[1])
    assert transition_criteria(d, 1, walk.steps[1], replay.diffs[1]) == ["c1"]
    t = d.criteria[1]
    assert isinstance(t, TransitionCriterion)
    assert (t.from_step, t.from_field, t.value, t.table, t.field) == (0, "id", CONTACT, "crm.activities", "contact_id")
    assert t.ref_criterion is None and t.depends_on == []


def test_acting_on_a_found_world_record_links_the_step_that_found_it(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 3)
    state_criteria(d, 3, walk.steps[3], replay.diffs[3])
    (tid,) = transition_criteria(d, 3, walk.steps[3], replay.diffs[3])
    t = d.criteria[int(tid[1:])]
    assert isinstance(t, TransitionCriterion)
    assert (t.from_step, t.value, t.table, t.field) == (0, CONTACT, "crm.contacts", "id")
    assert t.description == "the record found in step 1 is the one written to crm.contacts"
    # The same change made to another contact does not pass: the found one had to be acted on.
    other = next(i for i in crm_world.tables["crm.contacts"].records if i != CONTACT)
    for contact, passed in ((CONTACT, True), (other, False)):
        episode = Episode(crm_world)
        assert episode.call("crm__update_contact", {"contact_id": contact, "title": "CFO"}).ok
        (verdict,) = check_criteria([t], episode)
        assert verdict.passed is passed
    # Updating a record the task made is asked for by that record's own criterion, not by another link.
    assert transition_criteria(d, 2, walk.steps[2], replay.diffs[2]) == []


def test_a_new_id_stored_downstream_is_matched_through_the_criterion_of_its_record(crm_world: World) -> None:
    walk = deal_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 3)
    deal = d.criteria[0]
    assert isinstance(deal, StateCriterion) and deal.table == "crm.opportunities"
    activity = next(c for c in d.criteria if isinstance(c, StateCriterion) and c.table == "crm.activities")
    assert "opportunity_id" not in activity.fields  # a new id differs between solutions
    link = next(c for c in d.criteria if isinstance(c, TransitionCriterion) and c.field == "opportunity_id")
    assert link.value is None and link.ref_criterion == deal.id
    assert deal.id in link.depends_on


def test_criteria_depend_on_the_criteria_of_the_steps_whose_values_they_use(crm_world: World) -> None:
    walk = deal_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 3)
    assert d.by_step[0] == []
    activity = next(c for c in d.criteria if isinstance(c, StateCriterion) and c.table == "crm.activities")
    assert activity.depends_on == d.by_step[1] and d.by_step[1]
    for c in d.criteria:
        assert all(int(dep[1:]) < int(c.id[1:]) for dep in c.depends_on)


def test_a_value_a_later_step_overwrites_makes_the_walk_unverifiable(crm_world: World, graph: ToolGraph) -> None:
    walk = retitle_twice_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 3)
    settle_created(d, replay.final)
    with pytest.raises(Unverifiable):
        settle_updated(d, replay.episode)
    assert derive_criteria(crm_world, graph, walk) is None


def test_a_record_the_task_created_then_deleted_makes_the_walk_unverifiable(crm_world: World, graph: ToolGraph) -> None:
    walk = create_then_delete_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 3)
    with pytest.raises(Unverifiable):
        settle_created(d, replay.final)
    assert derive_criteria(crm_world, graph, walk) is None


def test_settling_keeps_the_values_that_hold_at_the_end(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 5)
    before = [c.model_dump() for c in d.criteria]
    settle_created(d, replay.final)
    settle_updated(d, replay.episode)
    assert [c.model_dump() for c in d.criteria] == before


def test_the_answer_asked_for_is_the_last_reads_value_and_depends_on_the_last_three_step_criteria(
    crm_world: World, graph: ToolGraph
) -> None:
    walk = log_call_walk(crm_world)
    d, replay = _start(crm_world, walk)
    _run_steps(d, walk, replay, 5)
    a = answer_criterion(d, graph, walk)
    assert a.value == walk.steps[4].result["phone"] and a.step == 4 and a.id == d.next_id()
    assert a.depends_on == [cid for j in range(5) for cid in d.by_step[j]][-3:]


def test_a_last_step_that_returns_nothing_to_report_gives_no_answer(crm_world: World, graph: ToolGraph) -> None:
    walk = delete_walk(crm_world)
    d, _ = _start(crm_world, walk)
    with pytest.raises(Unverifiable):
        answer_criterion(d, graph, walk)


def test_no_collateral_allows_exactly_what_the_oracle_added_and_touched(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    _, replay = _start(crm_world, walk)
    c = no_collateral_criterion("c9", replay.final)
    assert c.id == "c9" and c.depends_on == []
    assert c.added == {"crm.activities": 1} and c.touched == {"crm.contacts": [CONTACT]}


def test_collateral_is_checked_per_service_the_work_is_in_and_once_for_the_others(
    crm_world: World, graph: ToolGraph
) -> None:
    walk = log_call_walk(crm_world)
    derived = derive_criteria(crm_world, graph, walk)
    assert derived is not None
    checks = [c for c in derived.criteria if isinstance(c, NoCollateralCriterion)]
    assert [c.services for c in checks] == [[s] for s in walk.services] + [[]]
    assert checks[-1].besides == walk.services and "any other service" in checks[-1].description
    episode = Episode(crm_world)
    base = episode.snapshot()
    for step in walk.steps:
        episode.call(step.tool, step.arguments)
    assert all(v.passed for v in check_criteria(checks, episode, "", base))
    # A stray record in a service the work is in breaks that service's check alone.
    stray = {"first_name": "Stray", "last_name": "Lead", "email": "stray@example.org", "company": "Acme"}
    assert episode.call("crm__create_lead", stray).ok
    broken = [
        c.services for c, v in zip(checks, check_criteria(checks, episode, "", base), strict=True) if not v.passed
    ]
    assert broken == [["crm"]]


def test_derive_runs_the_stages_in_order_and_numbers_criteria_as_made(crm_world: World, graph: ToolGraph) -> None:
    walk = log_call_walk(crm_world)
    derived = derive_criteria(crm_world, graph, walk)
    assert derived is not None
    kinds = [(c.id, type(c)) for c in derived.criteria]
    # One collateral check per service the walk works in, and one for every other service.
    collateral = [NoCollateralCriterion] * (len(walk.services) + 1)
    ordered = [StateCriterion, TransitionCriterion, StateCriterion, TransitionCriterion, AnswerCriterion]
    assert kinds == [(f"c{i}", k) for i, k in enumerate([*ordered, *collateral, CountCriterion])]
    assert derived.episode.state_hash() == walk.episode.state_hash()
    # A walk ending in a write has no answer criterion.
    ends_writing = derive_criteria(crm_world, graph, deal_walk(crm_world))
    assert ends_writing is not None
    assert not any(isinstance(c, AnswerCriterion) for c in ends_writing.criteria)
    kinds = [type(c) for c in ends_writing.criteria]
    assert NoCollateralCriterion in kinds
    assert set(kinds[kinds.index(NoCollateralCriterion) + 1 :]) <= {NoCollateralCriterion, CountCriterion}


def test_a_count_lock_allows_the_oracle_s_records_and_fails_a_duplicate(crm_world: World, graph: ToolGraph) -> None:
    walk = log_call_walk(crm_world)
    derived = derive_criteria(crm_world, graph, walk)
    assert derived is not None
    (lock,) = [c for c in derived.criteria if isinstance(c, CountCriterion)]
    made = next(c for c in derived.criteria if isinstance(c, StateCriterion) and c.mode == "added")
    # The lock counts records with the created record's given values, as many as the oracle made.
    assert (lock.table, lock.fields, lock.most) == (made.table, made.fields, 1) and lock.kind in NEGATIVE_KINDS
    episode = Episode(crm_world)
    base = episode.snapshot()
    assert check_criteria([lock], episode, "", base)[0].passed  # doing nothing breaks no lock
    for step in walk.steps:
        episode.call(step.tool, step.arguments)
    assert all(v.passed for v in check_criteria(derived.criteria, episode, "", base) if v.kind != "answer")
    # The same call logged (and completed) twice: every positive criterion still holds, the lock does not.
    again = episode.call(walk.steps[1].tool, walk.steps[1].arguments)
    assert episode.call(walk.steps[2].tool, {"activity_id": again.result["id"]}).ok
    (verdict,) = check_criteria([lock], episode, "", base)
    assert not verdict.passed and "2 new record(s)" in verdict.detail


def test_a_walk_that_does_not_replay_has_no_criteria(crm_world: World, graph: ToolGraph) -> None:
    walk = log_call_walk(crm_world)
    last = walk.steps[-1]
    stale = Step(last.tool, last.arguments, last.provenance, dict(last.result, title="Intern"))
    assert derive_criteria(crm_world, graph, Walk([*walk.steps[:-1], stale], walk.episode)) is None


def test_new_ids_are_recognised_inside_lists_and_objects() -> None:
    new = {"act_9"}
    assert is_new_id("act_9", new) and is_new_id(["x", "act_9"], new) and is_new_id({"a": ["act_9"]}, new)
    assert not is_new_id("act_1", new) and not is_new_id(9, new) and not is_new_id(None, new)


def test_a_value_is_found_in_added_or_updated_records_never_in_their_ids(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    _, replay = _start(crm_world, walk)
    assert find_value(replay.diffs[1], CONTACT) == ("crm.activities", "contact_id")
    assert find_value(replay.diffs[1], walk.steps[1].result["id"]) is None
    assert find_value(replay.diffs[3], "CFO") == ("crm.contacts", "title")


def _executed(world: World, calls: list[tuple[str, dict[str, object], dict[str, Provenance]]]) -> Walk:
    episode = Episode(world)
    steps = []
    for tool, args, prov in calls:
        res = episode.call(tool, args)
        assert res.ok, res
        steps.append(Step(tool, args, prov, res.result))
    return Walk(steps, episode)


def test_a_sent_message_is_asked_for_by_the_record_keeping_its_text_not_by_the_thread_it_opens(world: World) -> None:
    mailbox = Episode(world).call("mail__list_mailboxes", {}).result["items"][0]
    body = f"Hi, {mailbox['display_name']} owns the mailbox."
    walk = _executed(
        world,
        [
            ("mail__list_mailboxes", {"email": mailbox["email"]}, {"email": Provenance("given", semantic="email")}),
            (
                "mail__send_message",
                {"mailbox_id": mailbox["id"], "to": ["kim.ode@example.com"], "subject": "Owner", "body": body},
                {
                    "mailbox_id": Provenance("step", 0, "items[0].id", "mail.mailbox.id"),
                    "to": Provenance("literal"),
                    "subject": Provenance("literal"),
                    "body": Provenance("compose", semantic="text.body", parts=((0, "items[0].display_name"),)),
                },
            ),
        ],
    )
    derived = derive_criteria(world, ToolGraph.build(world.catalog), walk)
    assert derived is not None
    sent = [c for c in derived.criteria if isinstance(c, MessageCriterion)]
    assert [(c.table, c.contains) for c in sent] == [("mail.messages", {"body": [mailbox["display_name"]]})]
    # The thread the send opened is asked for by what it took from the call, as any added record.
    (thread,) = [c for c in derived.criteria if isinstance(c, StateCriterion)]
    assert thread.table == "mail.threads" and thread.fields == {"mailbox_id": mailbox["id"], "subject": "Owner"}
    mail, others = [c for c in derived.criteria if isinstance(c, NoCollateralCriterion)]
    assert (mail.services, mail.added) == (["mail"], {"mail.messages": 1, "mail.threads": 1})
    assert (others.besides, others.added) == (["mail"], {})


def test_a_record_made_beside_the_one_asked_for_needs_no_criterion_but_a_step_must_identify_one(world: World) -> None:
    owner = next(p.email for p in world.population.people if p.role == "employee")
    create = ("teamchat__create_team", {"display_name": "Freight audits", "owner_email": owner}, {})
    walk = _executed(world, [create])
    derived = derive_criteria(world, ToolGraph.build(world.catalog), walk)
    assert derived is not None
    (team,) = [c for c in derived.criteria if isinstance(c, StateCriterion)]
    assert team.table == "teamchat.teams" and team.fields["display_name"] == "Freight audits"
    # Called with nothing that names what it made, the step asks for nothing and cannot be verified.
    d, replay = _start(world, walk)
    with pytest.raises(Unverifiable):
        state_criteria(d, 0, Step(create[0], {}, {}, walk.steps[0].result), replay.diffs[0])


def test_a_task_opening_with_an_opt_out_forbids_messaging_that_person() -> None:
    world = World.build(Catalog.load(["dealflow", "storage", "mail", "transmail"]), seed=0)
    synth = Synthesizer(world, config=SynthConfig())
    tasks = [t for _, t, _ in synth.tasks(0, 6) if t is not None]
    quiet = [(t, c) for t in tasks for c in t.criteria if isinstance(c, NotSentCriterion)]
    assert quiet, "unsubscribes carried over to a CRM and a mailbox should open some of these tasks"
    for task, c in quiet:
        assert validate_task(world, task) is None, task.id
        (name, address) = next(iter(c.fields.items()))
        # The person the event is about, not someone else their record names (a deal's owner).
        assert "asked not to be contacted" in c.description and address in task.instruction + json.dumps(task.given)
        message = next(
            s for s in task.solution if name in s.arguments and action_of(world.catalog.tools[s.tool]) == "message"
        )
        episode = Episode(world)
        base = apply_setup(episode, task)
        for step in task.solution:
            episode.call(step.tool, step.arguments)
        assert check_criteria([c], episode, "", base)[0].passed
        value = message.arguments[name]
        again = {**message.arguments, name: [address] if isinstance(value, list) else address}
        assert episode.call(message.tool, again).ok
        assert not check_criteria([c], episode, "", base)[0].passed, task.id
