"""Behaviour of the helpdesk service (Zendesk-style tickets, comments, macros, ratings)."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

HELPDESK = ServiceTools("helpdesk")
WORLD = HELPDESK.world
ok, refused, items, first = HELPDESK.ok, HELPDESK.refused, HELPDESK.items, HELPDESK.first


def groups_of(ep: Episode, user_id: str) -> set[str]:
    return {m["group_id"] for m in items(ep, "group_memberships", user_id=user_id)}


def ticket_and_outsider(ep: Episode, status: str) -> tuple[dict[str, Any], dict[str, Any]]:
    agents = items(ep, "users", role="agent", suspended=False)
    for ticket in items(ep, "tickets", status=status):
        for agent in agents:
            if ticket["group_id"] not in groups_of(ep, agent["id"]):
                return ticket, agent
    raise AssertionError("every agent is in every ticket's group")


def requester(ep: Episode) -> dict[str, Any]:
    return first(ep, "users", role="end-user", suspended=False)


# -- the seeded world -----------------------------------------------------------------------


def test_agents_are_the_support_team_and_end_users_are_the_populations_customers() -> None:
    pop = WORLD.population
    ep = Episode(WORLD)
    staff = {u["email"] for u in items(ep, "users", role="agent") + items(ep, "users", role="admin")}
    assert staff == {p.email for p in pop.employees if p.department == "Support"}
    customers = {p.email for p in pop.contacts + pop.consumers}
    end_users = {u["email"] for u in ok(ep, "list_users", role="end-user", limit=100)["items"]}
    assert end_users <= customers
    for org in items(ep, "organizations"):
        assert org["domain"] in {c.domain for c in pop.customers}


def test_every_seeded_ticket_respects_the_assignment_rules(ep: Episode) -> None:
    statuses = set()
    cursor = None
    while True:
        page = ok(ep, "list_tickets", limit=100, cursor=cursor)
        for t in page["items"]:
            statuses.add(t["status"])
            if t["status"] in ("solved", "closed"):
                assert t["assignee_id"] is not None
            if t["assignee_id"]:
                assert t["group_id"] in groups_of(ep, t["assignee_id"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert statuses == {"new", "open", "pending", "hold", "solved", "closed"}


# -- creating tickets -----------------------------------------------------------------------


def test_creating_a_ticket_finds_the_requester_by_email_and_adds_the_first_comment(ep: Episode) -> None:
    user = requester(ep)
    ticket = ok(
        ep,
        "create_ticket",
        subject="Damaged kettle",
        description="It arrived cracked.",
        requester_email=user["email"].upper(),
        order_number="#1042",
        type="incident",
    )
    assert ticket["status"] == "new"
    assert ticket["requester_id"] == user["id"]
    assert ticket["group_id"] is not None
    diff = ep.diff()
    assert diff.counts() == {
        "helpdesk.tickets": {"added": 1, "updated": 0, "removed": 0},
        "helpdesk.comments": {"added": 1, "updated": 0, "removed": 0},
    }
    comment = diff.tables["helpdesk.comments"].added[0]
    assert comment["author_id"] == user["id"] and comment["public"] and comment["body"] == "It arrived cracked."


def test_a_ticket_for_an_unknown_email_needs_a_name_and_then_creates_the_end_user(ep: Episode) -> None:
    args = {"subject": "Hello", "description": "Question", "requester_email": "new.person@example.org"}
    refused(ep, "create_ticket", "not_found", "requester_email", **args)
    ticket = ok(ep, "create_ticket", **args, requester_name="New Person")
    user = ok(ep, "get_user", user_id=ticket["requester_id"])
    assert user["role"] == "end-user" and user["email"] == "new.person@example.org"


def test_a_suspended_user_cannot_submit_a_ticket(ep: Episode) -> None:
    banned = first(ep, "users", suspended=True)
    args = {"subject": "Hi", "description": "Let me in", "requester_email": banned["email"]}
    refused(ep, "create_ticket", "rule_violation", "requester_email", **args)


def test_creating_a_ticket_with_an_assignee_opens_it_but_only_for_agents_of_its_group(ep: Episode) -> None:
    group = first(ep, "groups", is_default=True)
    member = first(ep, "group_memberships", group_id=group["id"])
    base = {"subject": "Call back", "description": "Please call me.", "requester_email": requester(ep)["email"]}
    refused(
        ep,
        "create_ticket",
        "rule_violation",
        "assignee_id",
        **{**base, "group_id": group["id"], "assignee_id": requester(ep)["id"]},
    )
    ticket = ok(ep, "create_ticket", **base, group_id=group["id"], assignee_id=member["user_id"])
    assert ticket["status"] == "open" and ticket["assignee_id"] == member["user_id"]


def test_only_tasks_have_due_dates_and_only_incidents_link_to_problems(ep: Episode) -> None:
    base = {"subject": "Thing", "description": "Body", "requester_email": requester(ep)["email"]}
    refused(
        ep,
        "create_ticket",
        "rule_violation",
        "due_at",
        **{**base, "type": "question", "due_at": "2026-03-10T12:00:00Z"},
    )
    question = first(ep, "tickets", type="question")
    refused(
        ep,
        "create_ticket",
        "rule_violation",
        "problem_id",
        **{**base, "type": "incident", "problem_id": question["id"]},
    )
    problem = first(ep, "tickets", type="problem", status="open")
    task = ok(ep, "create_ticket", **base, type="task", due_at="2026-03-10T12:00:00Z")
    incident = ok(ep, "create_ticket", **base, type="incident", problem_id=problem["id"])
    assert task["due_at"] == "2026-03-10T12:00:00Z" and incident["problem_id"] == problem["id"]


# -- assignment and solving -----------------------------------------------------------------


def test_a_ticket_cannot_be_solved_without_an_assignee_and_nothing_changes(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="new")
    assert ticket["assignee_id"] is None
    refused(ep, "solve_ticket", "rule_violation", "ticket_id", ticket_id=ticket["id"], comment="Done")


def test_solving_an_assigned_ticket_adds_the_assignees_reply(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open", type="question")
    result = ok(ep, "solve_ticket", ticket_id=ticket["id"], comment="Fixed, thanks!")
    assert result["ticket"]["status"] == "solved" and result["ticket"]["solved_at"] is not None
    diff = ep.diff()
    comment = diff.tables["helpdesk.comments"].added[0]
    assert comment["author_id"] == ticket["assignee_id"] and comment["body"] == "Fixed, thanks!"
    assert [c.changed for c in diff.tables["helpdesk.tickets"].updated] == [["solved_at", "status", "updated_at"]]


def test_solving_a_problem_solves_its_unsolved_incidents(ep: Episode) -> None:
    problem = first(ep, "tickets", type="problem", status="open")
    incidents = items(ep, "tickets", problem_id=problem["id"])
    unsolved = {t["id"] for t in incidents if t["status"] in ("new", "open", "pending", "hold")}
    assert unsolved
    result = ok(ep, "solve_ticket", ticket_id=problem["id"])
    assert set(result["solved_incident_ids"]) == unsolved
    for tid in unsolved:
        t = ok(ep, "get_ticket", ticket_id=tid)
        assert t["status"] == "solved" and t["assignee_id"] is not None


def test_an_end_user_cannot_be_assigned_a_ticket(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="new")
    refused(
        ep, "assign_ticket", "rule_violation", "assignee_id", ticket_id=ticket["id"], assignee_id=requester(ep)["id"]
    )


def test_an_agent_outside_the_tickets_group_cannot_be_assigned_it(ep: Episode) -> None:
    ticket, outsider = ticket_and_outsider(ep, "new")
    refused(ep, "assign_ticket", "rule_violation", "assignee_id", ticket_id=ticket["id"], assignee_id=outsider["id"])


def test_assigning_a_new_ticket_to_an_agent_of_its_group_opens_it(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="new")
    member = first(ep, "group_memberships", group_id=ticket["group_id"])
    updated = ok(ep, "assign_ticket", ticket_id=ticket["id"], assignee_id=member["user_id"])
    assert updated["status"] == "open" and updated["assignee_id"] == member["user_id"]
    [change] = ep.diff().tables["helpdesk.tickets"].updated
    assert change.changed == ["assignee_id", "status", "updated_at"]


def test_moving_a_ticket_to_a_group_its_assignee_is_not_in_is_refused(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    mine = groups_of(ep, ticket["assignee_id"])
    other = next(g for g in items(ep, "groups") if g["id"] not in mine)
    refused(ep, "update_ticket", "rule_violation", "group_id", ticket_id=ticket["id"], group_id=other["id"])


# -- closed tickets are final ------------------------------------------------------------------


def test_a_closed_ticket_cannot_be_reopened_commented_on_tagged_or_edited(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="closed")
    tid = ticket["id"]
    refused(ep, "set_ticket_status", "rule_violation", "ticket_id", ticket_id=tid, status="open")
    refused(
        ep,
        "add_ticket_comment",
        "rule_violation",
        "ticket_id",
        ticket_id=tid,
        author_id=ticket["assignee_id"],
        body="Hi",
    )
    refused(ep, "add_ticket_tags", "rule_violation", "ticket_id", ticket_id=tid, tags=["late"])
    refused(ep, "update_ticket", "rule_violation", "ticket_id", ticket_id=tid, priority="urgent")
    refused(ep, "solve_ticket", "rule_violation", "ticket_id", ticket_id=tid)


def test_a_follow_up_can_only_be_opened_for_a_closed_ticket(ep: Episode) -> None:
    closed = first(ep, "tickets", status="closed")
    still_open = first(ep, "tickets", status="open")
    user = ok(ep, "get_user", user_id=closed["requester_id"])
    base = {"subject": "Again", "description": "It broke again.", "requester_email": user["email"]}
    refused(
        ep, "create_ticket", "rule_violation", "followup_source_id", **{**base, "followup_source_id": still_open["id"]}
    )
    ticket = ok(ep, "create_ticket", **base, followup_source_id=closed["id"])
    assert ticket["followup_source_id"] == closed["id"]
    assert ok(ep, "get_ticket", ticket_id=closed["id"])["status"] == "closed"


def test_closing_is_only_for_solved_tickets(ep: Episode) -> None:
    refused(ep, "close_ticket", "rule_violation", "ticket_id", ticket_id=first(ep, "tickets", status="open")["id"])
    solved = first(ep, "tickets", status="solved")
    assert ok(ep, "close_ticket", ticket_id=solved["id"])["status"] == "closed"


# -- comments ---------------------------------------------------------------------------------


def test_an_end_user_cannot_write_an_internal_note_nor_comment_on_someone_elses_ticket(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    refused(
        ep,
        "add_ticket_comment",
        "rule_violation",
        "public",
        ticket_id=ticket["id"],
        author_id=ticket["requester_id"],
        body="psst",
        public=False,
    )
    stranger = next(
        u for u in items(ep, "users", role="end-user", suspended=False) if u["id"] != ticket["requester_id"]
    )
    refused(
        ep,
        "add_ticket_comment",
        "rule_violation",
        "author_id",
        ticket_id=ticket["id"],
        author_id=stranger["id"],
        body="me too",
    )


def test_the_requesters_reply_reopens_a_pending_ticket(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="pending")
    ok(ep, "add_ticket_comment", ticket_id=ticket["id"], author_id=ticket["requester_id"], body="Here is the photo.")
    assert ok(ep, "get_ticket", ticket_id=ticket["id"])["status"] == "open"


def test_an_agents_internal_note_leaves_the_status_alone(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="pending")
    note = ok(
        ep,
        "add_ticket_comment",
        ticket_id=ticket["id"],
        author_id=ticket["assignee_id"],
        body="Chased the carrier.",
        public=False,
    )
    assert note["public"] is False
    assert ok(ep, "get_ticket", ticket_id=ticket["id"])["status"] == "pending"


# -- macros -----------------------------------------------------------------------------------


def macro(ep: Episode, title: str) -> dict[str, Any]:
    return next(m for m in items(ep, "macros") if m["title"] == title)


def test_an_inactive_macro_cannot_be_applied(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    retired = first(ep, "macros", active=False)
    refused(
        ep,
        "apply_macro",
        "rule_violation",
        "macro_id",
        ticket_id=ticket["id"],
        macro_id=retired["id"],
        agent_id=ticket["assignee_id"],
    )


def test_a_macro_that_solves_an_unassigned_ticket_is_refused(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="new")
    agent = first(ep, "users", role="agent", suspended=False)
    refused(
        ep,
        "apply_macro",
        "rule_violation",
        "macro_id",
        ticket_id=ticket["id"],
        macro_id=macro(ep, "Close and thank")["id"],
        agent_id=agent["id"],
    )


def test_applying_a_macro_sets_fields_tags_and_adds_its_comment(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    esc = macro(ep, "Escalate to technical support")
    agent = next(u for u in items(ep, "users", role="agent") if esc["set_group_id"] in groups_of(ep, u["id"]))
    result = ok(ep, "apply_macro", ticket_id=ticket["id"], macro_id=esc["id"], agent_id=agent["id"])
    t = result["ticket"]
    assert t["priority"] == "high" and t["group_id"] == esc["set_group_id"] and "escalated" in t["tags"]
    assert result["comment"]["public"] is False and result["comment"]["author_id"] == agent["id"]
    if ticket["assignee_id"] not in {
        m["user_id"] for m in items(ep, "group_memberships", group_id=esc["set_group_id"])
    }:
        assert t["assignee_id"] is None


def test_the_take_it_macro_assigns_the_agent_and_opens_a_new_ticket(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="new")
    member = first(ep, "group_memberships", group_id=ticket["group_id"])
    result = ok(
        ep, "apply_macro", ticket_id=ticket["id"], macro_id=macro(ep, "Take it")["id"], agent_id=member["user_id"]
    )
    assert result["ticket"]["assignee_id"] == member["user_id"] and result["ticket"]["status"] == "open"
    assert result["comment"] is None


# -- tags -------------------------------------------------------------------------------------


def test_adding_tags_twice_changes_nothing_the_second_time(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    ok(ep, "add_ticket_tags", ticket_id=ticket["id"], tags=["vip", "vip", "callback"])
    once = ep.state_hash()
    again = ok(ep, "add_ticket_tags", ticket_id=ticket["id"], tags=["callback"])
    assert ep.state_hash() == once
    assert {"vip", "callback"} <= set(again["tags"])
    removed = ok(ep, "remove_ticket_tags", ticket_id=ticket["id"], tags=["vip"])
    assert "vip" not in removed["tags"]


def test_tags_with_spaces_or_capitals_are_invalid_arguments(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    refused(ep, "add_ticket_tags", "invalid_arguments", "tags.0", ticket_id=ticket["id"], tags=["Needs Review"])


def test_an_unknown_priority_is_an_invalid_argument(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    refused(ep, "update_ticket", "invalid_arguments", "priority", ticket_id=ticket["id"], priority="critical")


# -- satisfaction ratings -----------------------------------------------------------------------


def test_only_solved_tickets_can_be_rated(ep: Episode) -> None:
    refused(
        ep,
        "rate_ticket",
        "rule_violation",
        "ticket_id",
        ticket_id=first(ep, "tickets", status="open")["id"],
        score="good",
    )
    refused(
        ep,
        "rate_ticket",
        "rule_violation",
        "ticket_id",
        ticket_id=first(ep, "tickets", status="closed")["id"],
        score="bad",
    )


def test_a_reason_is_only_given_with_a_bad_score(ep: Episode) -> None:
    solved = first(ep, "tickets", status="solved")
    refused(ep, "rate_ticket", "rule_violation", "reason", ticket_id=solved["id"], score="good", reason="too_slow")


def test_rating_again_changes_the_existing_rating(ep: Episode) -> None:
    unrated = next(
        t for t in items(ep, "tickets", status="solved") if not items(ep, "satisfaction_ratings", ticket_id=t["id"])
    )
    first_rating = ok(ep, "rate_ticket", ticket_id=unrated["id"], score="bad", reason="too_slow")
    second = ok(ep, "rate_ticket", ticket_id=unrated["id"], score="good", comment="Sorted in the end")
    assert second["id"] == first_rating["id"] and second["reason"] is None
    assert second["assignee_id"] == unrated["assignee_id"]
    assert len(items(ep, "satisfaction_ratings", ticket_id=unrated["id"])) == 1


# -- merging ----------------------------------------------------------------------------------


def test_merging_closes_the_duplicates_and_notes_both_sides(ep: Episode) -> None:
    target, source = items(ep, "tickets", status="open")[:2]
    agent = first(ep, "users", role="agent", suspended=False)
    result = ok(
        ep, "merge_tickets", target_ticket_id=target["id"], source_ticket_ids=[source["id"]], agent_id=agent["id"]
    )
    assert result["closed_ticket_ids"] == [source["id"]]
    assert ok(ep, "get_ticket", ticket_id=source["id"])["status"] == "closed"
    notes = ep.diff().tables["helpdesk.comments"].added
    assert {n["ticket_id"] for n in notes} == {target["id"], source["id"]}
    assert all(not n["public"] and n["author_id"] == agent["id"] for n in notes)


def test_a_ticket_cannot_be_merged_into_itself_nor_a_closed_one_merged(ep: Episode) -> None:
    target = first(ep, "tickets", status="open")
    agent = first(ep, "users", role="agent", suspended=False)
    refused(
        ep,
        "merge_tickets",
        "rule_violation",
        "source_ticket_ids",
        target_ticket_id=target["id"],
        source_ticket_ids=[target["id"]],
        agent_id=agent["id"],
    )
    closed = first(ep, "tickets", status="closed")
    refused(
        ep,
        "merge_tickets",
        "rule_violation",
        "source_ticket_ids.0",
        target_ticket_id=target["id"],
        source_ticket_ids=[closed["id"]],
        agent_id=agent["id"],
    )


# -- people, groups and organizations -----------------------------------------------------------


def test_only_agents_can_join_groups(ep: Episode) -> None:
    group = first(ep, "groups", is_default=True)
    refused(
        ep, "create_group_membership", "rule_violation", "user_id", user_id=requester(ep)["id"], group_id=group["id"]
    )


def test_an_agent_with_unsolved_tickets_in_a_group_cannot_leave_it(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    membership = first(ep, "group_memberships", user_id=ticket["assignee_id"], group_id=ticket["group_id"])
    refused(
        ep, "delete_group_membership", "rule_violation", "group_membership_id", group_membership_id=membership["id"]
    )


def test_demoting_an_agent_with_open_tickets_is_refused(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    refused(ep, "update_user", "rule_violation", "role", user_id=ticket["assignee_id"], role="end-user")


def test_the_default_group_and_busy_groups_cannot_be_deleted(ep: Episode) -> None:
    refused(ep, "delete_group", "rule_violation", "group_id", group_id=first(ep, "groups", is_default=True)["id"])
    busy = first(ep, "tickets", status="open")["group_id"]
    refused(ep, "delete_group", "rule_violation", "group_id", group_id=busy)


def test_deleting_a_quiet_group_ends_its_memberships(ep: Episode) -> None:
    quiet = next(g for g in items(ep, "groups") if g["name"] == "Onboarding")
    n = len(items(ep, "group_memberships", group_id=quiet["id"]))
    assert n > 0
    ok(ep, "delete_group", group_id=quiet["id"])
    counts = ep.diff().counts()
    assert counts["helpdesk.groups"]["removed"] == 1
    assert counts["helpdesk.group_memberships"]["removed"] == n


def test_an_organization_with_unsolved_tickets_cannot_be_deleted_and_a_quiet_one_detaches_its_users(
    ep: Episode,
) -> None:
    orgs = items(ep, "organizations")
    busy = next(
        o
        for o in orgs
        if any(t["status"] in ("new", "open", "pending", "hold") for t in items(ep, "tickets", organization_id=o["id"]))
    )
    refused(ep, "delete_organization", "rule_violation", "organization_id", organization_id=busy["id"])
    quiet = next(
        o
        for o in orgs
        if not any(
            t["status"] in ("new", "open", "pending", "hold") for t in items(ep, "tickets", organization_id=o["id"])
        )
    )
    members = {u["id"] for u in items(ep, "users", organization_id=quiet["id"])}
    result = ok(ep, "delete_organization", organization_id=quiet["id"])
    assert set(result["detached_user_ids"]) == members
    for uid in members:
        assert ok(ep, "get_user", user_id=uid)["organization_id"] is None


def test_a_user_with_tickets_cannot_be_deleted(ep: Episode) -> None:
    ticket = first(ep, "tickets", status="open")
    refused(ep, "delete_user", "rule_violation", "user_id", user_id=ticket["requester_id"])


def test_organization_domains_are_unique(ep: Episode) -> None:
    org = first(ep, "organizations")
    refused(ep, "create_organization", "conflict", "domain", name="Copycat Ltd", domain=org["domain"])


def test_find_user_by_email_matches_the_population(ep: Episode) -> None:
    person = WORLD.population.consumers[0]
    user = ok(ep, "find_user_by_email", email=person.email)
    assert user["name"] == person.name
    refused(ep, "find_user_by_email", "not_found", "email", email="nobody@nowhere.example")
