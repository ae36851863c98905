"""Bounded memory: session limits and idle expiry, and a load test of the HTTP server on loopback."""

from __future__ import annotations

import pytest

from compoworld import Catalog
from compoworld.serve import ServeBackend, ServeError, ServeLimits, SessionManager
from compoworld.serve.bench import bench_serve

LEAD = {"first_name": "Ada", "last_name": "Byron", "company": "Engines Ltd", "email": "ada@engines.example.com"}


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def backend() -> ServeBackend:
    return ServeBackend(Catalog.load(["crm"]))


def _refused(exc: pytest.ExceptionInfo[ServeError], type_: str) -> None:
    assert exc.value.type == type_
    assert exc.value.message and exc.value.hint


def test_the_manager_holds_at_most_max_sessions_and_drops_idle_ones(backend: ServeBackend) -> None:
    clock = FakeClock()
    closed: list[str] = []
    manager = SessionManager(ServeLimits(max_sessions=2, idle_timeout_s=10.0), clock=clock)
    manager.on_close.append(lambda s: closed.append(s.id))
    scope = backend.scope_for_services(["crm"])
    a, b = manager.create(scope), manager.create(scope)
    with pytest.raises(ServeError) as full:
        manager.create(scope)
    _refused(full, "session_limit")
    clock.now = 8.0
    manager.get(a.id)  # a is used, b is not
    clock.now = 12.0
    c = manager.create(scope)  # b was idle past the timeout: swept to make room
    assert b.id in closed and len(manager) == 2
    with pytest.raises(ServeError) as gone:
        manager.get(b.id)
    _refused(gone, "session_expired")
    with pytest.raises(ServeError) as unknown:
        manager.get("never-existed")
    _refused(unknown, "unknown_session")
    clock.now = 30.0
    assert sorted(manager.sweep()) == sorted([a.id, c.id])
    assert len(manager) == 0 and manager.stats()["expired"] == 3


def test_a_session_is_bounded_in_writes_and_snapshots(backend: ServeBackend) -> None:
    manager = SessionManager(ServeLimits(max_writes=2, max_snapshots=1))
    session = manager.create(backend.scope_for_services(["crm"]))
    assert session.call("crm__create_lead", LEAD).ok
    assert not session.call("crm__create_lead", LEAD).ok  # a refused write does not count
    assert session.call("crm__create_lead", LEAD | {"email": "b@engines.example.com"}).ok
    with pytest.raises(ServeError) as writes:
        session.call("crm__create_lead", LEAD | {"email": "c@engines.example.com"})
    _refused(writes, "write_limit")
    assert session.call("crm__list_leads", {}).ok  # reads go on
    session.snapshot()
    with pytest.raises(ServeError) as snaps:
        session.snapshot()
    _refused(snaps, "snapshot_limit")
    session.reset()
    assert session.call("crm__create_lead", LEAD).ok


@pytest.mark.slow
def test_load_on_loopback_loses_no_call_keeps_sessions_apart_and_memory_falls_back() -> None:
    out = bench_serve(clients=32, calls=1000, rounds=2, idle_timeout_s=1.0)
    assert out["calls"] == 2000
    assert out["lost"] == 0 and out["failed"] == 0
    assert out["server_counted"] == out["calls"]
    assert out["isolated"] is True
    assert out["sessions_after_expiry"] == 0
    # Live objects: what the sessions held is gone once they expired (a bounded string cache of
    # pydantic-core's keeps a few hundred blocks per round until it is full).
    grown = out["loaded_blocks"] - out["warm_baseline_blocks"]
    left = out["after_expiry_blocks"] - out["warm_baseline_blocks"]
    assert grown > 1000 and left < 0.25 * grown
    # Resident memory: a second round of sessions reuses what the first one freed.
    if out["warm_baseline_rss_mb"] is not None:
        assert out["after_expiry_rss_mb"] <= out["warm_baseline_rss_mb"] + 3.0
        assert out["peak_rss_mb"] < 400
