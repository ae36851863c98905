"""Deadline Desk: budgeting, assignment limits, filing, desk edits, approvals, embargoes, publishing, corrections."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

NR = ServiceTools("newsroom")
WORLD = NR.world
ok, refused, every = NR.ok, NR.refused, NR.every
POP = WORLD.population
NOW = WORLD.epoch
BODY = " ".join(["The council voted on the budget late Tuesday after hours of debate."] * 8)


def story(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_stories", status=status)[0]


def member(ep: Episode, desk_id: str, role: str, n: int = 0) -> str:
    return str(every(ep, "list_staff", desk_id=desk_id, role=role)[n]["email"])


def test_staff_are_employees_and_stories_cover_the_worlds_companies(ep: Episode) -> None:
    assert {s["email"] for s in every(ep, "list_staff")} <= {p.email for p in POP.employees}
    names = {c.name for c in POP.companies}
    for s in every(ep, "list_stories"):
        assert any(n in s["budget_line"] for n in names)
        if s["reporter_email"]:
            assert member(ep, s["desk_id"], "reporter") == s["reporter_email"] or s["reporter_email"] == member(
                ep, s["desk_id"], "reporter", 1
            )
    assert {s["status"] for s in every(ep, "list_stories")} == {
        "budgeted",
        "assigned",
        "filed",
        "edited",
        "approved",
        "published",
        "spiked",
    }


def test_slugs_are_unique_and_plans_respect_embargoes(ep: Episode) -> None:
    desk = every(ep, "list_desks")[0]
    taken = story(ep, "budgeted")["slug"]
    refused(ep, "budget_story", "conflict", "slug", slug=taken, budget_line="x", desk_id=desk["id"])
    late, early = (NOW + dt.timedelta(hours=9)).isoformat(), (NOW + dt.timedelta(hours=3)).isoformat()
    refused(
        ep,
        "budget_story",
        "rule_violation",
        "planned_publish_at",
        slug="new-one",
        budget_line="x",
        desk_id=desk["id"],
        embargo_until=late,
        planned_publish_at=early,
    )
    made = ok(ep, "budget_story", slug="new-one", budget_line="A new story.", desk_id=desk["id"])
    assert (made["status"], made["section_ids"]) == ("budgeted", [desk["default_section_id"]])
    assert made["id"] in {b["story_id"] for b in ok(ep, "news_budget", desk_id=desk["id"])}


def test_only_active_reporters_with_room_take_assignments(ep: Episode) -> None:
    s = story(ep, "budgeted")
    editor = member(ep, s["desk_id"], "editor")
    refused(ep, "assign_story", "rule_violation", "reporter_email", story_id=s["id"], reporter_email=editor)
    reporter = member(ep, s["desk_id"], "reporter")
    desk = s["desk_id"]
    for n in range(
        5
        - len(
            [
                x
                for x in every(ep, "list_stories", reporter_email=reporter)
                if x["status"] in ("assigned", "filed", "edited")
            ]
        )
    ):
        extra = ok(ep, "budget_story", slug=f"filler-{n}", budget_line="Filler.", desk_id=desk)
        ok(ep, "assign_story", story_id=extra["id"], reporter_email=reporter)
    refused(ep, "assign_story", "rule_violation", "reporter_email", story_id=s["id"], reporter_email=reporter)
    other = member(ep, desk, "reporter", 1)
    assert ok(ep, "assign_story", story_id=s["id"], reporter_email=other)["status"] == "assigned"


def test_only_the_assigned_reporter_files_a_full_draft(ep: Episode) -> None:
    s = story(ep, "assigned")
    other = member(ep, s["desk_id"], "editor")
    refused(
        ep,
        "file_story",
        "rule_violation",
        "reporter_email",
        story_id=s["id"],
        reporter_email=other,
        headline="H",
        body=BODY,
    )
    refused(
        ep,
        "file_story",
        "rule_violation",
        "body",
        story_id=s["id"],
        reporter_email=s["reporter_email"],
        headline="H",
        body="Too short.",
    )
    filed = ok(ep, "file_story", story_id=s["id"], reporter_email=s["reporter_email"], headline="H", body=BODY)
    assert (filed["status"], filed["word_count"]) == ("filed", len(BODY.split()))
    refused(
        ep,
        "file_story",
        "rule_violation",
        "story_id",
        story_id=s["id"],
        reporter_email=s["reporter_email"],
        headline="H",
        body=BODY,
    )


def test_approval_needs_a_copy_edit_and_an_editor_of_the_desk(ep: Episode) -> None:
    s = story(ep, "filed")
    editor = member(ep, s["desk_id"], "editor")
    refused(ep, "approve_story", "rule_violation", "story_id", story_id=s["id"], editor_email=editor)
    ok(ep, "edit_story", story_id=s["id"], editor_email=editor, kind="line_edit", note="Trimmed.")
    refused(ep, "approve_story", "rule_violation", "story_id", story_id=s["id"], editor_email=editor)
    refused(
        ep,
        "edit_story",
        "rule_violation",
        "editor_email",
        story_id=s["id"],
        editor_email=s["reporter_email"],
        kind="copy_edit",
    )
    ok(ep, "edit_story", story_id=s["id"], editor_email=member(ep, s["desk_id"], "copy_editor"), kind="copy_edit")
    other_desk = next(d["id"] for d in every(ep, "list_desks") if d["id"] != s["desk_id"])
    refused(
        ep,
        "approve_story",
        "rule_violation",
        "editor_email",
        story_id=s["id"],
        editor_email=member(ep, other_desk, "editor"),
    )
    done = ok(ep, "approve_story", story_id=s["id"], editor_email=editor)
    assert (done["status"], done["approved_by"]) == ("approved", editor)


def test_a_send_back_returns_the_story_to_its_reporter(ep: Episode) -> None:
    s = story(ep, "edited")
    back = ok(ep, "send_back_story", story_id=s["id"], note="Needs a second source.")
    assert (back["status"], back["reporter_email"]) == ("assigned", s["reporter_email"])
    assert every(ep, "list_edits", story_id=s["id"], kind="send_back")[0]["note"] == "Needs a second source."
    refused(ep, "send_back_story", "rule_violation", "story_id", story_id=s["id"], note="Again please.")


def test_publishing_waits_for_the_embargo_and_needs_a_section(ep: Episode) -> None:
    embargoed = next(x for x in every(ep, "list_stories", status="approved") if x["embargo_until"])
    refused(ep, "publish_story", "rule_violation", "story_id", story_id=embargoed["id"])
    free = next(x for x in every(ep, "list_stories", status="approved") if not x["embargo_until"])
    refused(ep, "publish_story", "not_found", "section_ids", story_id=free["id"], section_ids=["sec_999999"])
    tech = next(x for x in every(ep, "list_sections") if x["path"] == "/business/tech")
    done = ok(ep, "publish_story", story_id=free["id"], section_ids=[tech["id"], free["section_ids"][0]])
    assert done["status"] == "published" and done["section_ids"][0] == tech["id"] and done["published_at"]
    refused(ep, "publish_story", "rule_violation", "story_id", story_id=free["id"])


def test_published_stories_are_corrected_not_silently_changed(ep: Episode) -> None:
    s = story(ep, "published")
    refused(ep, "update_story", "rule_violation", "story_id", story_id=s["id"], headline="Quietly new")
    editor = member(ep, s["desk_id"], "editor")
    refused(
        ep,
        "issue_correction",
        "rule_violation",
        "issued_by",
        story_id=s["id"],
        issued_by=s["reporter_email"],
        text="The vote was 7-2, not 6-3.",
    )
    c = ok(ep, "issue_correction", story_id=s["id"], issued_by=editor, text="The vote was 7-2, not 6-3.")
    assert c["kind"] == "correction"
    assert ok(ep, "get_story", story_id=s["id"])["corrections"] == s["corrections"] + 1
    refused(
        ep,
        "issue_correction",
        "conflict",
        "text",
        story_id=s["id"],
        issued_by=editor,
        text="The vote was 7-2, not 6-3.",
    )
    refused(
        ep,
        "issue_correction",
        "rule_violation",
        "story_id",
        story_id=story(ep, "approved")["id"],
        issued_by=editor,
        text="The vote was 7-2, not 6-3.",
    )


def test_spiked_stories_are_dead_and_leave_the_budget(ep: Episode) -> None:
    s = story(ep, "filed")
    ok(ep, "spike_story", story_id=s["id"])
    refused(ep, "update_story", "rule_violation", "story_id", story_id=s["id"], budget_line="Revived")
    refused(ep, "spike_story", "rule_violation", "story_id", story_id=story(ep, "published")["id"])
    assert s["id"] not in {b["story_id"] for b in ok(ep, "news_budget")}


def test_sections_nest_under_existing_parents(ep: Episode) -> None:
    refused(ep, "create_section", "conflict", "path", path="/local", name="Local again")
    refused(ep, "create_section", "rule_violation", "path", path="/sports/soccer", name="Soccer")
    ok(ep, "create_section", path="/sports", name="Sports")
    assert ok(ep, "create_section", path="/sports/soccer", name="Soccer")["path"] == "/sports/soccer"
