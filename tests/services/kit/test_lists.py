"""Lists staff keep: an employee owns each, an archived one is frozen with what is on it, a delete cascades."""

from __future__ import annotations

from compoworld import Episode
from compoworld.engine.context import Ctx
from compoworld.engine.errors import RuleViolation
from compoworld.services.information.patents import Alert, Watch, Watchlist
from compoworld.services.kit.lists import require_employee
from tests.services.helpers import ServiceTools, rows

PAT = ServiceTools("patents")
WORLD = PAT.world


def test_require_employee_returns_the_person_or_refuses_naming_the_field(ep: Episode) -> None:
    ctx = Ctx(ep, WORLD.catalog.tools["patents__get_watchlist"], writable=False)
    staff = ctx.population.employees[0]
    assert require_employee(ctx, staff.email, field="owner_email") is staff
    outsider = next(p for p in ctx.population.people if p.role != "employee")
    try:
        require_employee(ctx, outsider.email, field="reviewed_by", hint="a colleague reviews it")
    except RuleViolation as e:
        assert e.field == "reviewed_by" and outsider.email in str(e) and e.hint == "a colleague reviews it"
    else:
        raise AssertionError("an outsider's e-mail was taken for staff")


def test_a_list_is_kept_by_staff_and_an_archived_one_refuses_changes_to_itself_and_its_entries(ep: Episode) -> None:
    outsider = next(p for p in WORLD.population.people if p.role != "employee")
    PAT.refused(ep, "create_watchlist", "rule_violation", "owner_email", name="Rivals", owner_email=outsider.email)
    archived = PAT.first(ep, "watchlists", status="archived")
    PAT.refused(ep, "archive_watchlist", "rule_violation", "watchlist_id", watchlist_id=archived["id"])
    PAT.refused(ep, "update_watchlist", "rule_violation", "watchlist_id", watchlist_id=archived["id"], name="Again")
    entry = PAT.first(ep, "watches", watchlist_id=archived["id"])
    PAT.refused(ep, "pause_watch", "rule_violation", "watch_id", watch_id=entry["id"])
    PAT.refused(ep, "delete_watch", "rule_violation", "watch_id", watch_id=entry["id"])


def test_deleting_a_list_deletes_its_entries_and_what_they_raised(ep: Episode) -> None:
    with_alerts = next(w for w in rows(ep, Watch) if any(a.watch_id == w.id for a in rows(ep, Alert)))
    listed = {w.id for w in rows(ep, Watch) if w.watchlist_id == with_alerts.watchlist_id}
    PAT.ok(ep, "delete_watchlist", watchlist_id=with_alerts.watchlist_id)
    assert with_alerts.watchlist_id not in {wl.id for wl in rows(ep, Watchlist)}
    assert not listed & {w.id for w in rows(ep, Watch)}
    assert not listed & {a.watch_id for a in rows(ep, Alert)}
    assert rows(ep, Watch), "other lists' entries stay"
