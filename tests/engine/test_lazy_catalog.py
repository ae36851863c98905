"""Services load on first use: the catalog index on disk, stand-ins, lazy seeding, cached world versions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from compoworld import Catalog, Episode, World
from compoworld.engine import registration
from compoworld.engine.index import IndexStore
from compoworld.engine.registration import registered, resolve
from compoworld.engine.state import canonical_json

# The commerce and finance services agree through the world's seeding contracts (orders and parcels, accounts and
# suppliers); crm, mail and helpdesk are what a small worker serves.
SUBSET = ["banking", "crm", "helpdesk", "ledger", "mail", "procurement", "shipping", "shop"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache directory of its own, holding the index entry of every registered service."""
    root = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COMPOWORLD_CACHE", str(root))
        Catalog.load()  # writes every entry
        yield root


def _records(world: World) -> dict[str, list[str]]:
    return {
        name: [canonical_json(t.records[rid].model_dump(mode="json")) for rid in t.sorted_ids]
        for name, t in world.tables.items()
    }


def _calls(world: World) -> str:
    """The state hash after the same writes in two services that share the world's contracts."""
    ep = Episode(world)
    ok = ep.call("crm__update_account", {"account_id": "acc_000002", "industry": "aerospace"}).ok
    first = ep.call("shop__list_orders", {"limit": 1})
    assert ok and first.ok
    return ep.state_hash()


@pytest.mark.parametrize("subset", [False, True], ids=["whole catalog", "subset"])
def test_a_lazily_built_world_is_the_eagerly_built_one(cache: Path, subset: bool) -> None:
    names = SUBSET if subset else list(registered())
    lazy_catalog = Catalog.load(names)
    assert lazy_catalog.imported == frozenset()  # every service answered from the index
    eager_catalog = Catalog([resolve(n) for n in names])
    assert lazy_catalog.fingerprint == eager_catalog.fingerprint
    assert list(lazy_catalog.tools) == list(eager_catalog.tools)

    eager = World.build(eager_catalog, seed=0)
    eager.seed_all()  # in name order
    lazy = World.build(lazy_catalog, seed=0)
    assert lazy.seeded == frozenset()
    for table in reversed(list(lazy.tables)):  # the other way round: seeding order must not matter
        _ = lazy.tables[table].records
    assert lazy.seeded == {n for n in names if lazy_catalog.services[n].resources}  # open-world ones hold no table
    assert _records(lazy) == _records(eager)
    assert lazy.version == eager.version
    assert _calls(lazy) == _calls(eager)

    # A fresh world of the same catalog reads its version from the cache without seeding anything.
    again = World.build(Catalog.load(names), seed=0)
    assert again.version == eager.version and again.seeded == frozenset()
    assert again.catalog.imported == frozenset()


def test_a_fresh_process_imports_and_seeds_only_the_services_it_uses(cache: Path) -> None:
    code = textwrap.dedent(
        """
        import json, sys
        from compoworld import Catalog, Episode, World
        catalog = Catalog.load()
        world = World.build(catalog, seed=0)
        before = sorted(m for m in sys.modules if m.startswith("compoworld.services."))
        listed = [t.name for t in catalog.tools.values() if t.service == "mail"][:3]
        schema = catalog.tools["crm__get_contact"].parameters_schema
        version = world.version
        untouched = sorted(catalog.imported), sorted(world.seeded)
        ok = Episode(world).call("crm__list_contacts", {"limit": 2}).ok
        print(json.dumps({
            "before": before, "listed": listed, "schema": sorted(schema["properties"]), "version": version,
            "untouched": untouched, "ok": ok, "imported": sorted(catalog.imported), "seeded": sorted(world.seeded),
            "mail": "compoworld.services.communication.mail" in sys.modules,
            "crm": "compoworld.services.sales.crm" in sys.modules,
        }))
        """
    )
    env = {**os.environ, "COMPOWORLD_CACHE": str(cache)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    got: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    # Only the registry itself and the domain packages' empty __init__ modules: no service module.
    assert all(m.count(".") <= 3 and not m.endswith((".crm", ".mail")) for m in got["before"]), got["before"]
    assert len(got["listed"]) == 3 and got["schema"] == ["contact_id"]
    assert got["untouched"] == [[], []]
    assert got["version"] == World.build(Catalog.load(), seed=0).version
    assert got["ok"] and got["imported"] == ["crm"] and got["seeded"] == ["crm"]
    assert got["crm"] and not got["mail"]


def test_threads_that_first_use_a_service_together_import_and_seed_it_once(cache: Path) -> None:
    world = World.build(Catalog.load(["crm"]), seed=0)
    assert world.catalog.imported == frozenset()
    results: list[Any] = []

    def work() -> None:
        results.append(Episode(world).call("crm__list_accounts", {"limit": 5}).to_dict())

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8 and all(r == results[0] and r["ok"] for r in results)
    assert len(world.tables["crm.accounts"].records) == len(world.tables["crm.accounts"].sorted_ids)


# -- the index on disk --------------------------------------------------------------------------

_SERVICE = '''
"""A probe service for the catalog index tests."""

from typing import Annotated

from compoworld import Ctx, Record, SeedContext, Service
from compoworld.engine.types import IdOf, Title
from lazyprobe_pkg.helpers import OPENING

service = Service("lazyprobe", title="Probe", category="test", modeled_on="nothing", description="A probe.")


class Note(Record):
    """A note."""

    id: Annotated[str, IdOf("lazyprobe.note")]
    text: Title
    """What it says."""


service.resource(Note, name="note", plural="notes", prefix="nt", filters=("text",))


@service.tool(intent="count the notes")
def count_notes(ctx: Ctx) -> int:
    """Count the notes."""
    return len(list(ctx.scan(Note)))


@service.seeder
def seed(s: SeedContext) -> None:
    s.create(Note, text=OPENING)
'''


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A service package of its own, registered as ``lazyprobe``, with an empty cache."""
    pkg = tmp_path / "src" / "lazyprobe_pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text('OPENING = "first"\n')
    (pkg / "svc.py").write_text(_SERVICE)
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setenv("COMPOWORLD_CACHE", str(tmp_path / "cache"))
    registered()  # the built-in lines first, so that the probe's line is the one taken away afterwards
    monkeypatch.setitem(registration._REGISTRY, "lazyprobe", "lazyprobe_pkg.svc:service")
    for name in ("lazyprobe_pkg", "lazyprobe_pkg.svc", "lazyprobe_pkg.helpers"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return pkg


def _forget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drop the probe's modules, as a new process would not have them."""
    for name in ("lazyprobe_pkg.svc", "lazyprobe_pkg.helpers"):
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_an_entry_is_written_once_and_then_used_without_importing(probe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = Catalog.load(["lazyprobe"])
    assert first.imported == {"lazyprobe"}
    _forget(monkeypatch)
    second = Catalog.load(["lazyprobe"])
    assert second.imported == frozenset() and "lazyprobe_pkg.svc" not in sys.modules
    assert second.fingerprint == first.fingerprint
    assert second.tools["lazyprobe__count_notes"].description == "Count the notes."
    world = World.build(second, seed=0)
    assert Episode(world).call("lazyprobe__count_notes", {}).result == 1
    assert second.imported == {"lazyprobe"} and "lazyprobe_pkg.svc" in sys.modules


@pytest.mark.parametrize("changed", ["svc.py", "helpers.py"])
def test_a_changed_source_rebuilds_the_entry(probe: Path, monkeypatch: pytest.MonkeyPatch, changed: str) -> None:
    before = Catalog.load(["lazyprobe"])
    version = World.build(before, seed=0).version
    _forget(monkeypatch)
    if changed == "svc.py":
        text = _SERVICE.replace('"""Count the notes."""', '"""Count every note."""')
    else:
        text = 'OPENING = "second"\n'
    (probe / changed).write_text(text)
    after = Catalog.load(["lazyprobe"])
    assert after.imported == {"lazyprobe"}  # the stale entry was not used: the service was imported and checked
    # The fingerprint hashes the modules whose functions and classes a service uses; a constant's module is not
    # one of them, but the index follows imports, so the entry and the cached version are still not reused.
    assert (after.fingerprint != before.fingerprint) == (changed == "svc.py")
    assert World.build(after, seed=0).version != version
    _forget(monkeypatch)
    again = Catalog.load(["lazyprobe"])  # and the rebuilt entry is used from now on
    assert again.imported == frozenset() and again.fingerprint == after.fingerprint
    description = again.tools["lazyprobe__count_notes"].description
    assert description == ("Count every note." if changed == "svc.py" else "Count the notes.")


def test_a_service_edited_while_it_loads_leaves_an_entry_that_is_rebuilt(
    probe: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The module rewrites its own file as it is imported: an author saving the file in the middle of a load.
    # Both versions open with one line, so that the classes' source lines (their field docstrings) still match.
    edited = "import pathlib  # saved\n" + _SERVICE.replace('"""Count the notes."""', '"""Count every note."""')
    (probe / "svc.py").write_text(f"import pathlib; pathlib.Path(__file__).write_text({edited!r})\n" + _SERVICE)
    first = Catalog.load(["lazyprobe"])
    assert first.tools["lazyprobe__count_notes"].description == "Count the notes."
    _forget(monkeypatch)
    second = Catalog.load(["lazyprobe"])
    assert second.imported == {"lazyprobe"}  # the entry written during the edit is not taken as current
    assert second.tools["lazyprobe__count_notes"].description == "Count every note."


def test_a_corrupt_or_unwritable_cache_falls_back_to_importing(probe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Catalog.load(["lazyprobe"])
    entry = IndexStore()._dir / "lazyprobe.json"
    entry.write_text("{not json")
    _forget(monkeypatch)
    catalog = Catalog.load(["lazyprobe"])
    assert catalog.imported == {"lazyprobe"}
    assert json.loads(entry.read_text())["name"] == "lazyprobe"  # rewritten

    blocker = probe.parent / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("COMPOWORLD_CACHE", str(blocker))
    _forget(monkeypatch)
    world = World.build(Catalog.load(["lazyprobe"]), seed=0)
    assert Episode(world).call("lazyprobe__count_notes", {}).result == 1
    assert len(world.version) == 20


def test_schemas_are_read_from_the_index_when_first_asked_for_and_rendered_when_lost(
    probe: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Catalog.load(["lazyprobe"])
    expected = {n: (t.parameters_schema, t.result_schema) for n, t in first.tools.items()}
    store = IndexStore()
    (schemas,) = store._dir.glob("lazyprobe.*.schemas.json")
    _forget(monkeypatch)
    second = Catalog.load(["lazyprobe"])
    got = {n: (t.parameters_schema, t.result_schema) for n, t in second.tools.items()}
    assert got == expected and second.imported == frozenset()  # from the file beside the entry, without importing

    _forget(monkeypatch)
    third = Catalog.load(["lazyprobe"])
    schemas.write_text(schemas.read_text().replace("notes", "n0tes"))  # damaged after the entry was read
    got = {n: (t.parameters_schema, t.result_schema) for n, t in third.tools.items()}
    assert got == expected and third.imported == {"lazyprobe"}  # refused by its hash: rendered from the service


def test_a_rebuilt_entry_leaves_one_schema_file(probe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Catalog.load(["lazyprobe"])
    _forget(monkeypatch)
    (probe / "svc.py").write_text(_SERVICE.replace('"""Count the notes."""', '"""Count every note."""'))
    Catalog.load(["lazyprobe"])
    (schemas,) = IndexStore()._dir.glob("lazyprobe.*.schemas.json")
    assert "Count every note." not in schemas.read_text()  # descriptions live in the entry; schemas beside it
    assert json.loads((IndexStore()._dir / "lazyprobe.json").read_text())["schemas"] in schemas.name
