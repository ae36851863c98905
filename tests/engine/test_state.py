"""The uniform state interface: reset, snapshot, restore, diff, hash, SQLite export."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from compoworld import CatalogError, Episode, SeedContext, World
from compoworld.engine import sqlite as sqlite_export
from compoworld.services.sales.crm import Account, Contact


def _new_contact(ep: Episode, email: str) -> str:
    res = ep.call(
        "crm__create_contact",
        {"account_id": "acc_000001", "first_name": "Ines", "last_name": "Ortega", "email": email},
    )
    assert res.ok, res.error
    return str(res.result["id"])


def test_episodes_start_from_the_world_and_never_see_each_others_writes(crm_world: World) -> None:
    a, b = Episode(crm_world), Episode(crm_world)
    initial = a.state_hash()
    cid = _new_contact(a, "ines.ortega@example.org")
    assert b.call("crm__get_contact", {"contact_id": cid}).error is not None
    assert b.state_hash() == initial
    assert a.state_hash() != initial
    assert crm_world.tables["crm.contacts"].records.get(cid) is None


def test_diff_lists_added_updated_and_removed_records_per_table(crm_world: World) -> None:
    ep = Episode(crm_world)
    cid = _new_contact(ep, "new.person@example.org")
    assert ep.call("crm__update_account", {"account_id": "acc_000002", "industry": "aerospace"}).ok
    assert ep.call("crm__delete_activity", {"activity_id": crm_world.tables["crm.activities"].sorted_ids[0]}).ok
    diff = ep.diff()
    assert diff.counts() == {
        "crm.accounts": {"added": 0, "updated": 1, "removed": 0},
        "crm.activities": {"added": 0, "updated": 0, "removed": 1},
        "crm.contacts": {"added": 1, "updated": 0, "removed": 0},
    }
    assert diff.tables["crm.contacts"].added[0]["id"] == cid
    change = diff.tables["crm.accounts"].updated[0]
    assert change.changed == ["industry"] and change.after["industry"] == "aerospace"


def test_snapshot_restore_round_trips_in_any_order(crm_world: World) -> None:
    ep = Episode(crm_world)
    h0 = ep.state_hash()
    s0 = ep.snapshot()
    _new_contact(ep, "first@example.org")
    h1 = ep.state_hash()
    s1 = ep.snapshot()
    _new_contact(ep, "second@example.org")
    h2 = ep.state_hash()
    ep.restore(s1)
    assert ep.state_hash() == h1
    # Writing after a restore must not leak into the snapshot it came from.
    _new_contact(ep, "third@example.org")
    ep.restore(s1)
    assert ep.state_hash() == h1
    ep.restore(s0)
    assert ep.state_hash() == h0 and ep.diff().is_empty
    ep.restore(s1)
    assert ep.diff(s0).counts() == {"crm.contacts": {"added": 1, "updated": 0, "removed": 0}}
    assert h2 not in (h0, h1)


def test_restore_brings_back_the_clock_and_id_counters(crm_world: World) -> None:
    ep = Episode(crm_world)
    snap = ep.snapshot()
    first = _new_contact(ep, "a@example.org")
    ep.restore(snap)
    assert _new_contact(ep, "a@example.org") == first
    ep.reset()
    assert ep.now() == crm_world.epoch
    assert _new_contact(ep, "a@example.org") == first


def test_reset_drops_every_write(crm_world: World) -> None:
    ep = Episode(crm_world)
    h0 = ep.state_hash()
    for i in range(5):
        _new_contact(ep, f"p{i}@example.org")
    ep.reset()
    assert ep.state_hash() == h0 and ep.diff().is_empty


def test_state_hash_depends_on_records_not_on_history(crm_world: World) -> None:
    ep = Episode(crm_world)
    h0 = ep.state_hash()
    before = crm_world.tables["crm.accounts"].records["acc_000003"].industry
    assert ep.call("crm__update_account", {"account_id": "acc_000003", "industry": "mining"}).ok
    assert ep.state_hash() != h0
    assert ep.call("crm__update_account", {"account_id": "acc_000003", "industry": before}).ok
    assert ep.state_hash() == h0
    assert ep.diff().is_empty


_HASH_SCRIPT = """
import json
from compoworld import Catalog, World, Episode
w = World.build(Catalog.load(["crm"]), seed=11)
ep = Episode(w)
ep.call("crm__create_contact", {"account_id": "acc_000001", "first_name": "A", "last_name": "B", "email": "a.b@c.org"})
ep.call("crm__update_account", {"account_id": "acc_000002", "industry": "x"})
print(json.dumps([w.version, ep.state_hash()]))
"""


def test_world_version_and_state_hash_are_identical_across_processes_and_hash_seeds() -> None:
    outs = []
    for hashseed in ("1", "987"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run([sys.executable, "-c", _HASH_SCRIPT], capture_output=True, text=True, env=env, check=True)
        outs.append(json.loads(proc.stdout))
    assert outs[0] == outs[1]


def test_export_sqlite_holds_the_episode_state_for_plain_sql(crm_world: World, tmp_path: Path) -> None:
    ep = Episode(crm_world)
    cid = _new_contact(ep, "sql.person@example.org")
    path = ep.export_sqlite(tmp_path / "state.sqlite")
    con = sqlite3.connect(path)
    try:
        row = con.execute("SELECT email FROM crm__contacts WHERE id = ?", (cid,)).fetchone()
        assert row == ("sql.person@example.org",)
        n = con.execute("SELECT count(*) FROM crm__contacts").fetchone()[0]
        assert n == len(crm_world.tables["crm.contacts"].records) + 1
        meta = dict(con.execute("SELECT key, value FROM _compoworld").fetchall())
        assert meta["state_hash"] == ep.state_hash()
        address = con.execute("SELECT billing_address FROM crm__accounts LIMIT 1").fetchone()[0]
        assert set(json.loads(address)) == {"street", "city", "postal_code", "country"}
    finally:
        con.close()


def test_reset_and_snapshot_do_not_depend_on_world_size(crm_world: World) -> None:
    # Structural check (timing lives in `compoworld bench engine`): a snapshot only
    # holds the tables this episode wrote, never the world's records.
    ep = Episode(crm_world)
    _new_contact(ep, "x@example.org")
    snap = ep.snapshot()
    assert set(snap.overlay) == {"crm.contacts"}
    assert sum(len(v) for v in snap.overlay.values()) == 1


def test_seeders_can_link_records_that_point_at_each_other(crm_world: World) -> None:
    ctx = SeedContext(crm_world, "crm")
    acc = crm_world.tables["crm.accounts"].records["acc_000001"]
    assert isinstance(acc, Account)
    # A seeder may only touch records it made in this build.
    with pytest.raises(CatalogError, match="only update records it created"):
        ctx.update(acc, industry="x")
    new = ctx.create(Contact, account_id=acc.id, first_name="A", last_name="B", email="a.b@example.org")
    changed = ctx.update(new, title="Buyer")
    assert changed.title == "Buyer" and ctx.records(Contact)[-1] is changed


def test_a_snapshot_restored_in_another_episode_forks_the_state_and_the_two_stay_apart(crm_world: World) -> None:
    source, fork = Episode(crm_world), Episode(crm_world)
    first = _new_contact(source, "fork.base@example.org")
    snap = source.snapshot()
    fork.restore(snap)
    assert fork.state_hash() == source.state_hash()
    assert fork.call("crm__get_contact", {"contact_id": first}).ok
    mine = _new_contact(fork, "fork.mine@example.org")
    theirs = _new_contact(source, "fork.theirs@example.org")
    # Both drew the next id from the snapshot's counters: the same id, a different record in each episode.
    assert mine == theirs
    assert source.call("crm__get_contact", {"contact_id": theirs}).result["email"] == "fork.theirs@example.org"
    assert fork.call("crm__get_contact", {"contact_id": mine}).result["email"] == "fork.mine@example.org"
    source.restore(snap)
    assert source.state_hash() != fork.state_hash()
    assert source.call("crm__get_contact", {"contact_id": theirs}).error is not None


def test_a_failed_sqlite_export_leaves_no_file_behind(
    crm_world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ep = Episode(crm_world)
    _new_contact(ep, "sql.fail@example.org")

    def broken(value: object) -> object:
        raise RuntimeError("disk full")

    monkeypatch.setattr(sqlite_export, "_sql_value", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        ep.export_sqlite(tmp_path / "state.sqlite")
    assert list(tmp_path.iterdir()) == []
