"""Cadence Calendar: scheduling rules, RSVPs, rooms, free/busy and slot finding."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CALENDAR = ServiceTools("calendar")
WORLD = CALENDAR.world
ok, refused, records = CALENDAR.ok, CALENDAR.refused, CALENDAR.records
EMPLOYEES = WORLD.population.employees
ORGANIZER = EMPLOYEES[0].email
GUESTS = [p.email for p in EMPLOYEES[1:4]]
OUTSIDER = EMPLOYEES[10].email
DAY = "2026-06-10"  # far beyond the seeded month, so these tests own the day


def primary_calendar(ep: Episode, email: str) -> str:
    items = ok(ep, "list_calendars", owner_email=email, primary=True)["items"]
    assert len(items) == 1
    return str(items[0]["id"])


def room(ep: Episode, min_capacity: int = 1, max_capacity: int = 1000) -> dict[str, Any]:
    rooms = ok(ep, "list_rooms", bookable=True, limit=100)["items"]
    fitting = [r for r in rooms if min_capacity <= r["capacity"] <= max_capacity]
    assert fitting
    return dict(min(fitting, key=lambda r: (r["capacity"], r["id"])))


def t(hhmm: str, day: str = DAY) -> str:
    return f"{day}T{hhmm}:00Z"


def meeting(ep: Episode, start: str = "10:00", end: str = "11:00", **extra: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        "calendar_id": primary_calendar(ep, ORGANIZER),
        "summary": "Architecture review",
        "start": t(start),
        "end": t(end),
        "attendee_emails": GUESTS,
    }
    args.update(extra)
    return dict(ok(ep, "create_event", **args))


# -- seed --------------------------------------------------------------------------------


def test_every_employee_has_one_primary_calendar_and_the_seed_covers_every_status() -> None:
    ep = Episode(WORLD)
    for person in EMPLOYEES:
        primary_calendar(ep, person.email)
    statuses = {e.status for e in records("events")}
    answers = {a.response_status for a in records("attendees")}
    assert statuses == {"confirmed", "tentative", "cancelled"}
    assert answers == {"needs_action", "accepted", "tentative", "declined"}
    contact_emails = {p.email for p in WORLD.population.contacts}
    assert any(a.email in contact_emails for a in records("attendees"))


def test_seeded_room_bookings_never_overlap() -> None:
    events = [e for e in records("events") if e.room_id and e.status != "cancelled"]
    for a in events:
        for b in events:
            if a.id < b.id and a.room_id == b.room_id:
                assert not (a.start < b.end and b.start < a.end), (a.id, b.id)


# -- create_event ------------------------------------------------------------------------


def test_creating_an_event_makes_the_event_and_one_attendee_per_guest_plus_the_organizer() -> None:
    ep = Episode(WORLD)
    out = meeting(ep, add_conference=True)
    assert out["event"]["organizer_email"] == ORGANIZER
    assert out["event"]["meeting_link"].startswith("https://meet.")
    diff = ep.diff()
    assert diff.counts() == {
        "calendar.events": {"added": 1, "updated": 0, "removed": 0},
        "calendar.attendees": {"added": 4, "updated": 0, "removed": 0},
    }
    organizer = [a for a in out["attendees"] if a["organizer"]]
    assert [a["email"] for a in organizer] == [ORGANIZER]
    assert organizer[0]["response_status"] == "accepted"
    assert {a["response_status"] for a in out["attendees"] if not a["organizer"]} == {"needs_action"}


def test_an_event_that_ends_before_it_starts_is_refused_and_changes_nothing() -> None:
    ep = Episode(WORLD)
    refused(
        ep,
        "create_event",
        "rule_violation",
        "end",
        calendar_id=primary_calendar(ep, ORGANIZER),
        summary="Backwards",
        start=t("11:00"),
        end=t("10:00"),
    )


def test_a_room_cannot_be_double_booked_and_the_refusal_changes_nothing() -> None:
    ep = Episode(WORLD)
    r = room(ep, min_capacity=4)
    meeting(ep, "10:00", "11:00", room_id=r["id"])
    other = primary_calendar(ep, OUTSIDER)
    message = refused(
        ep,
        "create_event",
        "conflict",
        "room_id",
        calendar_id=other,
        summary="Overlapping",
        start=t("10:30"),
        end=t("11:30"),
        room_id=r["id"],
    )
    assert "already booked" in message
    # Back-to-back is fine.
    ok(ep, "create_event", calendar_id=other, summary="Right after", start=t("11:00"), end=t("11:30"), room_id=r["id"])


def test_a_room_too_small_for_the_guest_list_is_refused() -> None:
    ep = Episode(WORLD)
    small = room(ep, max_capacity=3)
    many = [p.email for p in EMPLOYEES[1 : small["capacity"] + 1]]
    refused(
        ep,
        "create_event",
        "rule_violation",
        "room_id",
        calendar_id=primary_calendar(ep, ORGANIZER),
        summary="Crowded",
        start=t("09:00"),
        end=t("09:30"),
        attendee_emails=many,
        room_id=small["id"],
    )


def test_an_unbookable_room_is_refused() -> None:
    ep = Episode(WORLD)
    closed = ok(ep, "list_rooms", bookable=False)["items"][0]
    refused(
        ep,
        "create_event",
        "rule_violation",
        "room_id",
        calendar_id=primary_calendar(ep, ORGANIZER),
        summary="In the closed room",
        start=t("09:00"),
        end=t("09:30"),
        room_id=closed["id"],
    )


# -- cancel / update ---------------------------------------------------------------------


def test_only_the_organizer_can_cancel_and_a_guest_attempt_changes_nothing() -> None:
    ep = Episode(WORLD)
    event_id = meeting(ep)["event"]["id"]
    refused(ep, "cancel_event", "rule_violation", "requester_email", event_id=event_id, requester_email=GUESTS[0])
    before = ep.snapshot()
    out = ok(ep, "cancel_event", event_id=event_id, requester_email=ORGANIZER)
    assert out["status"] == "cancelled"
    diff = ep.diff(before)
    assert list(diff.tables) == ["calendar.events"]
    assert diff.tables["calendar.events"].updated[0].changed == ["status", "updated_at"]
    refused(ep, "cancel_event", "rule_violation", "event_id", event_id=event_id, requester_email=ORGANIZER)


def test_cancelling_frees_the_room_for_another_booking() -> None:
    ep = Episode(WORLD)
    r = room(ep, min_capacity=4)
    event_id = meeting(ep, room_id=r["id"])["event"]["id"]
    ok(ep, "cancel_event", event_id=event_id, requester_email=ORGANIZER)
    free = ok(ep, "find_available_rooms", start=t("10:00"), end=t("11:00"), min_capacity=r["capacity"])
    assert r["id"] in [x["id"] for x in free]
    other = primary_calendar(ep, OUTSIDER)
    ok(
        ep,
        "create_event",
        calendar_id=other,
        summary="Takes the room",
        start=t("10:00"),
        end=t("11:00"),
        room_id=r["id"],
    )


def test_an_event_that_already_ended_cannot_be_cancelled() -> None:
    ep = Episode(WORLD)
    now = WORLD.epoch
    past = next(e for e in records("events") if e.status == "confirmed" and e.end <= now and e.transparency == "opaque")
    refused(ep, "cancel_event", "rule_violation", "event_id", event_id=past.id, requester_email=past.organizer_email)


def test_only_the_organizer_can_change_an_event() -> None:
    ep = Episode(WORLD)
    event_id = meeting(ep)["event"]["id"]
    refused(
        ep,
        "update_event",
        "rule_violation",
        "requester_email",
        event_id=event_id,
        requester_email=GUESTS[1],
        summary="Hijacked",
    )


def test_rescheduling_resets_the_guests_answers_but_not_the_organizers() -> None:
    ep = Episode(WORLD)
    event_id = meeting(ep)["event"]["id"]
    ok(ep, "respond_to_event", event_id=event_id, attendee_email=GUESTS[0], response="accepted")
    before = ep.snapshot()
    out = ok(ep, "update_event", event_id=event_id, requester_email=ORGANIZER, start=t("14:00"), end=t("15:00"))
    assert out["start"] == t("14:00")
    diff = ep.diff(before)
    changed = diff.tables["calendar.attendees"].updated
    assert [(c.after["email"], c.after["response_status"]) for c in changed] == [(GUESTS[0], "needs_action")]


def test_rescheduling_into_another_booking_of_the_room_is_refused() -> None:
    ep = Episode(WORLD)
    r = room(ep, min_capacity=4)
    meeting(ep, "10:00", "11:00", room_id=r["id"])
    later = meeting(ep, "13:00", "14:00", room_id=r["id"])["event"]["id"]
    refused(
        ep,
        "update_event",
        "conflict",
        "room_id",
        event_id=later,
        requester_email=ORGANIZER,
        start=t("10:45"),
        end=t("11:45"),
    )
    refused(ep, "update_event", "rule_violation", "end", event_id=later, requester_email=ORGANIZER, end=t("12:00"))


def test_a_cancelled_event_cannot_be_changed() -> None:
    ep = Episode(WORLD)
    event_id = meeting(ep)["event"]["id"]
    ok(ep, "cancel_event", event_id=event_id, requester_email=ORGANIZER)
    refused(ep, "update_event", "rule_violation", "event_id", event_id=event_id, requester_email=ORGANIZER, summary="x")


# -- guests ------------------------------------------------------------------------------


def test_a_guest_answers_the_invitation_and_only_their_attendee_record_changes() -> None:
    ep = Episode(WORLD)
    event_id = meeting(ep)["event"]["id"]
    before = ep.snapshot()
    out = ok(
        ep, "respond_to_event", event_id=event_id, attendee_email=GUESTS[1], response="declined", comment="On leave"
    )
    assert out["response_status"] == "declined"
    diff = ep.diff(before)
    assert diff.counts() == {"calendar.attendees": {"added": 0, "updated": 1, "removed": 0}}


def test_someone_not_invited_cannot_answer() -> None:
    ep = Episode(WORLD)
    event_id = meeting(ep)["event"]["id"]
    refused(
        ep,
        "respond_to_event",
        "not_found",
        "attendee_email",
        event_id=event_id,
        attendee_email=OUTSIDER,
        response="accepted",
    )


def test_the_organizer_cannot_decline_their_own_event() -> None:
    ep = Episode(WORLD)
    event_id = meeting(ep)["event"]["id"]
    refused(
        ep,
        "respond_to_event",
        "rule_violation",
        "response",
        event_id=event_id,
        attendee_email=ORGANIZER,
        response="declined",
    )


def test_adding_a_guest_beyond_the_rooms_capacity_is_refused() -> None:
    ep = Episode(WORLD)
    r = room(ep, max_capacity=4)
    guests = [p.email for p in EMPLOYEES[1 : r["capacity"]]]  # organizer + guests fill the room exactly
    event_id = meeting(ep, attendee_emails=guests, room_id=r["id"])["event"]["id"]
    refused(ep, "add_attendee", "rule_violation", "email", event_id=event_id, email=OUTSIDER)


def test_inviting_someone_twice_is_a_conflict_and_a_new_guest_is_added() -> None:
    ep = Episode(WORLD)
    event_id = meeting(ep)["event"]["id"]
    refused(ep, "add_attendee", "conflict", "email", event_id=event_id, email=GUESTS[0])
    before = ep.snapshot()
    out = ok(ep, "add_attendee", event_id=event_id, email=OUTSIDER, optional=True)
    assert out["display_name"] == EMPLOYEES[10].name
    assert ep.diff(before).counts() == {"calendar.attendees": {"added": 1, "updated": 0, "removed": 0}}


def test_the_organizer_cannot_be_removed_but_a_guest_can() -> None:
    ep = Episode(WORLD)
    event_id = meeting(ep)["event"]["id"]
    refused(ep, "remove_attendee", "rule_violation", "email", event_id=event_id, email=ORGANIZER)
    before = ep.snapshot()
    ok(ep, "remove_attendee", event_id=event_id, email=GUESTS[2])
    removed = ep.diff(before).tables["calendar.attendees"].removed
    assert [a["email"] for a in removed] == [GUESTS[2]]


# -- free/busy and slots -----------------------------------------------------------------


def test_freebusy_reports_merged_busy_time_and_ignores_declined_invitations() -> None:
    ep = Episode(WORLD)
    meeting(ep, "10:00", "11:00")
    meeting(ep, "10:30", "12:00", summary="Overlapping follow-up")
    ok(
        ep,
        "create_event",
        calendar_id=primary_calendar(ep, GUESTS[0]),
        summary="Late",
        start=t("15:00"),
        end=t("16:00"),
    )
    out = ok(ep, "query_freebusy", emails=[GUESTS[0], GUESTS[1], OUTSIDER], time_min=t("00:00"), time_max=t("23:59"))
    busy = {fb["email"]: [(p["start"], p["end"]) for p in fb["busy"]] for fb in out}
    assert busy[GUESTS[0]] == [(t("10:00"), t("12:00")), (t("15:00"), t("16:00"))]
    assert busy[OUTSIDER] == []
    first = ok(ep, "list_events", organizer_email=ORGANIZER, query="Architecture review")["items"][-1]
    ok(ep, "respond_to_event", event_id=first["id"], attendee_email=GUESTS[1], response="declined")
    out = ok(ep, "query_freebusy", emails=[GUESTS[1]], time_min=t("00:00"), time_max=t("23:59"))
    assert [(p["start"], p["end"]) for p in out[0]["busy"]] == [(t("10:30"), t("12:00"))]


def test_freebusy_over_a_reversed_interval_is_refused() -> None:
    ep = Episode(WORLD)
    refused(ep, "query_freebusy", "rule_violation", "time_max", emails=GUESTS, time_min=t("12:00"), time_max=t("08:00"))


def test_a_room_address_gets_the_rooms_bookings_in_freebusy() -> None:
    ep = Episode(WORLD)
    r = room(ep, min_capacity=4)
    meeting(ep, "10:00", "11:00", room_id=r["id"])
    out = ok(ep, "query_freebusy", emails=[r["email"]], time_min=t("00:00"), time_max=t("23:59"))
    assert out[0]["found"] is True
    assert [(p["start"], p["end"]) for p in out[0]["busy"]] == [(t("10:00"), t("11:00"))]


def test_find_free_slot_skips_everyones_busy_time_and_keeps_to_working_hours() -> None:
    ep = Episode(WORLD)
    meeting(ep, "09:00", "10:30")
    ok(ep, "create_event", calendar_id=primary_calendar(ep, GUESTS[2]), summary="Own", start=t("10:30"), end=t("11:00"))
    slots = ok(
        ep,
        "find_free_slot",
        attendee_emails=[ORGANIZER, GUESTS[2]],
        duration_minutes=60,
        window_start=t("08:00"),
        window_end=t("23:00"),
        max_results=20,
    )
    assert slots[0] == {"start": t("11:00"), "end": t("12:00")}
    assert slots[-1]["end"] <= t("17:00")
    assert len(slots) == 6


def test_find_free_slot_rejects_an_impossible_duration() -> None:
    ep = Episode(WORLD)
    refused(
        ep,
        "find_free_slot",
        "rule_violation",
        "duration_minutes",
        attendee_emails=GUESTS,
        duration_minutes=2,
        window_start=t("08:00"),
        window_end=t("18:00"),
    )


def test_the_agenda_lists_a_persons_events_in_time_order() -> None:
    ep = Episode(WORLD)
    meeting(ep, "14:00", "15:00", summary="Afternoon")
    meeting(ep, "09:00", "09:30", summary="Morning")
    items = ok(ep, "list_agenda", email=GUESTS[0], time_min=t("00:00"), time_max=t("23:59"))
    assert [i["event"]["summary"] for i in items] == ["Morning", "Afternoon"]
    assert all(not i["is_organizer"] for i in items)


# -- calendars and rooms -----------------------------------------------------------------


def test_a_primary_calendar_cannot_be_deleted() -> None:
    ep = Episode(WORLD)
    refused(ep, "delete_calendar", "rule_violation", "calendar_id", calendar_id=primary_calendar(ep, ORGANIZER))


def test_a_rooms_capacity_cannot_drop_below_an_upcoming_meetings_guest_count() -> None:
    ep = Episode(WORLD)
    r = room(ep, min_capacity=6)
    guests = [p.email for p in EMPLOYEES[1:5]]
    meeting(ep, attendee_emails=guests, room_id=r["id"])
    refused(ep, "update_room", "rule_violation", "capacity", room_id=r["id"], capacity=3)
    before = ep.snapshot()
    ok(ep, "update_room", room_id=r["id"], capacity=r["capacity"] + 2)
    assert ep.diff(before).tables["calendar.rooms"].updated[0].changed == ["capacity"]


def test_a_room_cannot_take_a_persons_email_address() -> None:
    ep = Episode(WORLD)
    refused(
        ep,
        "create_room",
        "conflict",
        "email",
        name="Annex",
        email=ORGANIZER,
        building="Headquarters",
        city="Berlin",
        capacity=4,
    )
