"""Lastmile Dispatch: proof of delivery, one active task per on-duty driver, linked pickups, capacity, routes."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LM = ServiceTools("lastmile")
WORLD = LM.world
ok, refused, every = LM.ok, LM.refused, LM.every
POP = WORLD.population
PHOTO = "https://files.example.com/pod/1.jpg"


def task(ep: Episode, task_id: str) -> dict[str, Any]:
    found: dict[str, Any] = ok(ep, "get_task", task_id=task_id)
    return found


def worker(ep: Episode, worker_id: str) -> dict[str, Any]:
    return next(w for w in every(ep, "list_workers") if w["id"] == worker_id)


def busy_driver(ep: Episode) -> tuple[dict[str, Any], dict[str, Any]]:
    """An on-duty driver with an active dropoff that needs a photo, and that dropoff."""
    for t in every(ep, "list_tasks", state="active"):
        if t["requirements"]["photo"]:
            return worker(ep, t["worker_id"]), t
    raise AssertionError("no active task needing a photo")


def pickup_of(ep: Episode, dropoff: dict[str, Any]) -> dict[str, Any]:
    return task(ep, dropoff["dependencies"][0])


def new_dropoff(ep: Episode, quantity: int = 1, **extra: Any) -> dict[str, Any]:
    team = every(ep, "list_teams")[0]
    rec = every(ep, "list_recipients")[0]
    made: dict[str, Any] = ok(
        ep,
        "create_task",
        destination=team["hub_address"],
        latitude=team["hub_latitude"] + 0.01,
        longitude=team["hub_longitude"],
        recipient_id=rec["id"],
        quantity=quantity,
        **extra,
    )
    return made


def test_seeded_fleet_and_recipients_come_from_the_population_and_proof_matches_requirements() -> None:
    ep = Episode(WORLD)
    people = {p.phone: p for p in POP.people}
    for r in every(ep, "list_recipients"):
        assert people[r["phone"]].name == r["name"] and people[r["phone"]].role == "consumer"
    for w in every(ep, "list_workers"):
        assert people[w["phone"]].role == "employee"
    teams = {t["id"]: t for t in every(ep, "list_teams")}
    for t in every(ep, "list_tasks", pickup_task=False):
        pickup = pickup_of(ep, t)
        assert pickup["pickup_task"] and pickup["destination"]["street"].endswith("Depot Lane")
        assert pickup["destination"]["city"] == t["destination"]["city"]
        done = t["completion"]
        if done and done["success"]:
            assert (done["signer_name"] is not None) == t["requirements"]["signature"]
            assert (done["photo_url"] is not None) == t["requirements"]["photo"]
    assert {t["state"] for t in every(ep, "list_tasks")} == {"unassigned", "assigned", "active", "completed"}
    queued = [t for t in every(ep, "list_tasks", state="unassigned") if t["team_id"]]
    assert queued and all(t["team_id"] in teams and t["worker_id"] is None for t in queued)


def test_completing_a_delivery_needs_the_proof_it_requires(ep: Episode) -> None:
    driver, active = busy_driver(ep)
    msg = refused(ep, "complete_task", "rule_violation", "photo_url", task_id=active["id"], success=True)
    assert "photo_url" in msg
    refused(ep, "complete_task", "rule_violation", "failure_reason", task_id=active["id"], success=False)
    refused(
        ep,
        "complete_task",
        "rule_violation",
        "failure_reason",
        task_id=active["id"],
        success=True,
        photo_url=PHOTO,
        failure_reason="CLOSED",
    )
    done = ok(
        ep,
        "complete_task",
        task_id=active["id"],
        success=True,
        photo_url=PHOTO,
        signer_name="Ana Lima" if active["requirements"]["signature"] else None,
    )
    assert done["state"] == "completed" and done["completion"]["photo_url"] == PHOTO
    after = worker(ep, driver["id"])
    assert after["active_task_id"] is None and after["latitude"] == active["latitude"]
    refused(ep, "complete_task", "rule_violation", "task_id", task_id=active["id"], success=True, photo_url=PHOTO)


def test_a_driver_drives_one_task_at_a_time_and_a_dropoff_waits_for_its_pickup(ep: Episode) -> None:
    driver, active = busy_driver(ep)
    waiting = [t for t in every(ep, "list_tasks", worker_id=driver["id"], state="assigned") if not t["pickup_task"]]
    dropoff = waiting[0]
    refused(ep, "start_task", "rule_violation", "task_id", task_id=dropoff["id"])  # already driving
    ok(ep, "complete_task", task_id=active["id"], success=True, photo_url=PHOTO, signer_name="Ana Lima")
    msg = refused(ep, "start_task", "rule_violation", "task_id", task_id=dropoff["id"])
    assert "depends on" in msg
    pickup = pickup_of(ep, dropoff)
    assert ok(ep, "start_task", task_id=pickup["id"])["state"] == "active"
    ok(ep, "complete_task", task_id=pickup["id"], success=True)
    started = ok(ep, "start_task", task_id=dropoff["id"])
    assert started["state"] == "active" and worker(ep, driver["id"])["active_task_id"] == dropoff["id"]
    # A failed pickup blocks its dropoff for good.
    ok(ep, "complete_task", task_id=dropoff["id"], success=False, failure_reason="NO_ANSWER")
    other = waiting[1]
    ok(ep, "start_task", task_id=other["dependencies"][0])
    ok(ep, "complete_task", task_id=other["dependencies"][0], success=False, failure_reason="CLOSED")
    assert "failed" in refused(ep, "start_task", "rule_violation", "task_id", task_id=other["id"])


def test_duty_status_gates_starting_and_going_off_duty(ep: Episode) -> None:
    driver, active = busy_driver(ep)
    refused(ep, "set_duty", "rule_violation", "on_duty", worker_id=driver["id"], on_duty=False)
    ok(ep, "complete_task", task_id=active["id"], success=True, photo_url=PHOTO, signer_name="Ana Lima")
    assert ok(ep, "set_duty", worker_id=driver["id"], on_duty=False)["on_duty"] is False
    resting = every(ep, "list_workers", on_duty=False)
    held = next(
        t for w in resting for t in every(ep, "list_tasks", worker_id=w["id"], state="assigned") if t["pickup_task"]
    )
    assert "off duty" in refused(ep, "start_task", "rule_violation", "task_id", task_id=held["id"])
    ok(ep, "set_duty", worker_id=held["worker_id"], on_duty=True)
    assert ok(ep, "start_task", task_id=held["id"])["started_at"] is not None


def test_team_containers_linked_tasks_and_vehicle_capacity_govern_assignment(ep: Episode) -> None:
    loose = next(t for t in every(ep, "list_tasks", state="unassigned", pickup_task=False) if t["team_id"] is None)
    pickup = pickup_of(ep, loose)
    team = every(ep, "list_teams")[0]
    queued = ok(ep, "assign_task", task_id=pickup["id"], team_id=team["id"])
    assert queued["state"] == "unassigned" and queued["team_id"] == team["id"]
    bike = every(ep, "list_workers", vehicle="BICYCLE")[0]
    car = next(w for w in every(ep, "list_workers", vehicle="CAR") if w["id"] != bike["id"])
    held = ok(ep, "assign_task", task_id=pickup["id"], worker_id=bike["id"])
    assert held["state"] == "assigned" and held["team_id"] is None
    msg = refused(ep, "assign_task", "rule_violation", "worker_id", task_id=loose["id"], worker_id=car["id"])
    assert "same driver" in msg
    ok(ep, "assign_task", task_id=loose["id"], worker_id=bike["id"])
    refused(
        ep, "assign_task", "rule_violation", "worker_id", task_id=loose["id"], worker_id=bike["id"], team_id=team["id"]
    )
    load = sum(
        t["quantity"]
        for t in every(ep, "list_tasks", worker_id=bike["id"], pickup_task=False)
        if t["state"] in ("assigned", "active")
    )
    big = new_dropoff(ep, quantity=bike["capacity"] - load + 1)
    assert "carries" in refused(
        ep, "assign_task", "rule_violation", "worker_id", task_id=big["id"], worker_id=bike["id"]
    )
    ok(ep, "assign_task", task_id=big["id"], worker_id=car["id"])
    refused(ep, "update_task", "rule_violation", "quantity", task_id=loose["id"], quantity=bike["capacity"])


def test_active_and_completed_tasks_cannot_be_edited_moved_or_deleted(ep: Episode) -> None:
    _, active = busy_driver(ep)
    done = every(ep, "list_tasks", state="completed")[0]
    for t in (active, done):
        refused(ep, "update_task", "rule_violation", "task_id", task_id=t["id"], notes="Call first")
        refused(ep, "delete_task", "rule_violation", "task_id", task_id=t["id"])
        refused(
            ep, "assign_task", "rule_violation", "task_id", task_id=t["id"], team_id=every(ep, "list_teams")[0]["id"]
        )
        refused(ep, "unassign_task", "rule_violation", "task_id", task_id=t["id"])
    loose = every(ep, "list_tasks", state="unassigned", pickup_task=False)[0]
    msg = refused(ep, "delete_task", "rule_violation", "task_id", task_id=loose["dependencies"][0])
    assert "depends on" in msg
    ok(ep, "delete_task", task_id=loose["id"])
    ok(ep, "delete_task", task_id=loose["dependencies"][0])
    held = every(ep, "list_tasks", state="assigned")[0]
    back = ok(ep, "unassign_task", task_id=held["id"])
    assert back["state"] == "unassigned" and back["worker_id"] is None
    refused(ep, "unassign_task", "rule_violation", "task_id", task_id=held["id"])


def test_creating_tasks_checks_recipient_window_and_dependencies(ep: Episode) -> None:
    team = every(ep, "list_teams")[0]
    base = {"destination": team["hub_address"], "latitude": team["hub_latitude"], "longitude": team["hub_longitude"]}
    refused(ep, "create_task", "rule_violation", "recipient_id", **base)
    refused(
        ep,
        "create_task",
        "rule_violation",
        "complete_before",
        pickup_task=True,
        complete_before="2000-01-01T00:00:00Z",
        **base,
    )
    refused(
        ep,
        "create_task",
        "rule_violation",
        "complete_after",
        pickup_task=True,
        complete_after="2099-01-02T00:00:00Z",
        complete_before="2099-01-01T00:00:00Z",
        **base,
    )
    done = every(ep, "list_tasks", state="completed", pickup_task=True)[0]
    refused(ep, "create_task", "rule_violation", "dependencies.0", pickup_task=True, dependencies=[done["id"]], **base)
    pickup = ok(ep, "create_task", pickup_task=True, order_number="TS-1001", **base)
    drop = new_dropoff(ep, dependencies=[pickup["id"]], requirements={"signature": True, "minimum_age": 18})
    assert drop["state"] == "unassigned" and drop["dependencies"] == [pickup["id"]]
    assert drop["tracking_url"].endswith(drop["short_id"])
    refused(
        ep,
        "update_task",
        "rule_violation",
        "complete_after",
        task_id=drop["id"],
        complete_after="2099-01-02T00:00:00Z",
        complete_before="2099-01-01T00:00:00Z",
    )


def test_route_optimisation_puts_pickups_before_dropoffs_and_numbers_the_stops(ep: Episode) -> None:
    counts = {
        w["id"]: len(every(ep, "list_tasks", worker_id=w["id"], state="assigned")) for w in every(ep, "list_workers")
    }
    busiest = max(counts, key=lambda k: counts[k])
    route = ok(ep, "optimize_route", worker_id=busiest)
    order = [s["task_id"] for s in route["stops"]]
    assert len(order) == counts[busiest] >= 4
    for s in route["stops"]:
        t = task(ep, s["task_id"])
        assert t["route_position"] == s["position"]
        for dep in t["dependencies"]:
            if dep in order:
                assert order.index(dep) < order.index(t["id"])
    etas = [s["eta"] for s in route["stops"]]
    assert etas == sorted(etas)
    assert abs(route["total_km"] - sum(s["distance_km"] for s in route["stops"])) < 0.05
    idle = next(w for w, n in counts.items() if n == 0)
    refused(ep, "optimize_route", "rule_violation", "worker_id", worker_id=idle)
