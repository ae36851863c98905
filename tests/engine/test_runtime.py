"""The runtime: validation, structured errors, atomic calls, load-time schema checks."""

from __future__ import annotations

from typing import Annotated

import pytest

from compoworld import (
    Catalog,
    CatalogError,
    Ctx,
    Episode,
    Record,
    RuleViolation,
    SeedContext,
    Service,
    Transition,
    World,
)
from compoworld.engine.types import Cents, IdOf, Title

LEDGER = Service("ledger", title="Ledger", category="test", modeled_on="nothing", description="Test service.")


class Entry(Record):
    """A ledger entry."""

    id: Annotated[str, IdOf("ledger.entry")]
    memo: Title
    """What it is for."""
    amount: Cents
    """Amount in cents."""


LEDGER.resource(Entry, name="entry", plural="entries", prefix="ent", filters=("memo",), update=("memo", "amount"))


@LEDGER.tool(intent="post two entries", write=True)
def post_pair(ctx: Ctx, memo: Title, amount: Cents, fail_after_first: bool = False) -> list[Entry]:
    """Post a debit and a credit entry; fails half-way when asked to.

    Args:
        memo: Memo of both entries.
        amount: Amount of each.
        fail_after_first: Raise a rule violation after the first write.
    """
    first = ctx.create(Entry, memo=memo, amount=amount)
    if fail_after_first:
        raise RuleViolation("the books do not balance", field="amount", hint="post balanced entries")
    return [first, ctx.create(Entry, memo=memo, amount=amount)]


@LEDGER.tool(intent="crash", write=True)
def crash(ctx: Ctx, memo: Title) -> Entry:
    """Write, then fail with a bug.

    Args:
        memo: Memo.
    """
    ctx.create(Entry, memo=memo, amount=1)
    raise ZeroDivisionError("bug")


@LEDGER.tool(intent="sneak a write")
def sneaky_read(ctx: Ctx, memo: Title) -> int:
    """A read tool that tries to write.

    Args:
        memo: Memo.
    """
    ctx.create(Entry, memo=memo, amount=1)
    return 1


@LEDGER.tool(intent="return garbage")
def bad_result(ctx: Ctx) -> int:
    """Returns a value that is not its declared type."""
    return "not an int"  # type: ignore[return-value]


@LEDGER.tool(intent="count labels")
def count_labels(ctx: Ctx, labels: dict[str, str | list[str]]) -> int:
    """Count the labels given, one per text.

    Args:
        labels: Label texts by entry memo: one text or several.
    """
    return sum(1 if isinstance(v, str) else len(v) for v in labels.values())


@LEDGER.seeder
def seed(s: SeedContext) -> None:
    s.create(Entry, memo="Opening balance", amount=1000)


@pytest.fixture(scope="module")
def ledger() -> World:
    return World.build(Catalog([LEDGER]), seed=0)


def test_a_successful_write_call_commits_all_its_writes(ledger: World) -> None:
    ep = Episode(ledger)
    res = ep.call("ledger__post_pair", {"memo": "Rent", "amount": 500})
    assert res.ok
    assert [r["id"] for r in res.result] == ["ent_000002", "ent_000003"]
    assert ep.diff().counts() == {"ledger.entries": {"added": 2, "updated": 0, "removed": 0}}


def test_a_failing_call_leaves_no_partial_write(ledger: World) -> None:
    ep = Episode(ledger)
    h = ep.state_hash()
    res = ep.call("ledger__post_pair", {"memo": "Rent", "amount": 500, "fail_after_first": True})
    assert not res.ok and res.error is not None
    assert (res.error.type, res.error.field, res.error.hint) == ("rule_violation", "amount", "post balanced entries")
    assert ep.state_hash() == h and ep.diff().is_empty
    # the id counter rolled back too
    assert ep.call("ledger__post_pair", {"memo": "Rent", "amount": 5}).result[0]["id"] == "ent_000002"


def test_a_tool_bug_becomes_an_internal_error_and_is_rolled_back(ledger: World) -> None:
    ep = Episode(ledger)
    res = ep.call("ledger__crash", {"memo": "x"})
    assert not res.ok and res.error is not None and res.error.type == "internal_error"
    assert "ZeroDivisionError" in res.error.message
    assert ep.diff().is_empty


def test_a_read_tool_cannot_write(ledger: World) -> None:
    ep = Episode(ledger)
    res = ep.call("ledger__sneaky_read", {"memo": "x"})
    assert not res.ok and res.error is not None and res.error.type == "internal_error"
    assert ep.diff().is_empty


def test_a_result_that_breaks_its_declared_type_is_an_error(ledger: World) -> None:
    res = Episode(ledger).call("ledger__bad_result", {})
    assert not res.ok and res.error is not None and res.error.type == "internal_error"


@pytest.mark.parametrize(
    ("name", "arguments", "etype", "field", "hint_part"),
    [
        ("ledger__post_pairs", {}, "unknown_tool", None, "ledger__post_pair"),
        (None, {}, "unknown_tool", None, "exact name"),
        ("ledger__post_pair", "{not json", "invalid_arguments", None, "JSON object"),
        ("ledger__post_pair", "[1, 2]", "invalid_arguments", None, "JSON object"),
        ("ledger__post_pair", 42, "invalid_arguments", None, "JSON object"),
        ("ledger__post_pair", {"memo": "x"}, "invalid_arguments", "amount", "amount, memo"),
        ("ledger__post_pair", {"memo": "x", "amount": "ten"}, "invalid_arguments", "amount", "Amount"),
        ("ledger__post_pair", {"memo": "x", "amount": -5}, "invalid_arguments", "amount", "Amount"),
        ("ledger__post_pair", {"memo": "x", "amount": 5, "colour": "red"}, "invalid_arguments", "colour", "memo"),
        ("ledger__get_entry", {"entry_id": "ent_999999"}, "not_found", "entry_id", "list"),
        # A union's member names (``str``, ``list[str]``) are no place in the arguments: the field is where the value is.
        ("ledger__count_labels", {"labels": {"rent": 5}}, "invalid_arguments", "labels.rent", "Label texts"),
        ("ledger__count_labels", {"labels": {"rent": ["a", 5]}}, "invalid_arguments", "labels.rent.1", "Label"),
        ("ledger__count_labels", {}, "invalid_arguments", "labels", "labels"),
        ("ledger__update_entry", {"entry_id": "ent_000001"}, "rule_violation", None, "memo, amount"),
    ],
)
def test_bad_calls_give_structured_errors_and_change_nothing(
    ledger: World, name: object, arguments: object, etype: str, field: str | None, hint_part: str
) -> None:
    ep = Episode(ledger)
    h = ep.state_hash()
    res = ep.call(name, arguments)  # type: ignore[arg-type]
    assert not res.ok and res.error is not None
    assert res.error.type == etype, res.error
    assert res.error.field == field
    assert hint_part in res.error.hint
    assert ep.state_hash() == h
    assert set(res.to_dict()["error"]) == {"type", "message", "field", "hint"}


def test_arguments_may_be_a_json_string(ledger: World) -> None:
    res = Episode(ledger).call("ledger__get_entry", '{"entry_id": "ent_000001"}')
    assert res.ok and res.result["memo"] == "Opening balance"


def test_list_tools_page_with_cursors_in_id_order(ledger: World) -> None:
    ep = Episode(ledger)
    for i in range(4):
        assert ep.call("ledger__post_pair", {"memo": f"M{i}", "amount": i}).ok
    seen: list[str] = []
    cursor = None
    while True:
        page = ep.call("ledger__list_entries", {"limit": 3, "cursor": cursor}).result
        seen.extend(r["id"] for r in page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == sorted(seen) and len(seen) == 9
    assert [r["memo"] for r in ep.call("ledger__list_entries", {"memo": "M2"}).result["items"]] == ["M2", "M2"]


def _bad_service(kind: str) -> Service:
    svc = Service("bad", title="Bad", category="test", modeled_on="nothing", description="Broken on purpose.")
    if kind == "no_doc":

        @svc.tool(intent="x")
        def nodoc(ctx: Ctx, x: int) -> int:
            return x

    elif kind == "undocumented_param":

        @svc.tool(intent="x")
        def undocumented(ctx: Ctx, x: int) -> int:
            """Do x."""
            return x

    elif kind == "no_hint":

        @svc.tool(intent="x")
        def nohint(ctx: Ctx, x) -> int:  # type: ignore[no-untyped-def]
            """Do x.

            Args:
                x: A value.
            """
            return 1

    elif kind == "unknown_resource":

        @svc.tool(intent="x")
        def dangling(ctx: Ctx, x: Annotated[str, IdOf("nowhere.thing")]) -> int:
            """Do x.

            Args:
                x: A thing.
            """
            return 1

    elif kind == "unserialisable":

        @svc.tool(intent="x")
        def weird(ctx: Ctx, x: object) -> Ctx:
            """Do x.

            Args:
                x: A thing.
            """
            return ctx

    return svc


@pytest.mark.parametrize("kind", ["no_doc", "undocumented_param", "no_hint", "unknown_resource", "unserialisable"])
def test_a_tool_whose_schema_cannot_be_derived_fails_when_the_catalog_loads(kind: str) -> None:
    with pytest.raises(CatalogError, match="bad__"):
        Catalog([_bad_service(kind)])


def test_service_names_must_fit_tool_name_rules() -> None:
    with pytest.raises(CatalogError):
        Service("Bad Name", title="x", category="x", modeled_on="x", description="x")


def test_a_parameter_type_that_cannot_be_validated_fails_when_schemas_are_rendered_and_never_crashes_a_call() -> None:
    svc = Service("lazy_bad", title="x", category="x", modeled_on="x", description="x")

    @svc.tool(intent="x")
    def takes_a_context(ctx: Ctx, other: Ctx) -> int:
        """Take something no schema can describe.

        Args:
            other: Not JSON.
        """
        return 1

    catalog = Catalog([svc])  # names, docs, hints and results are checked; validators come on first use
    with pytest.raises(CatalogError, match="lazy_bad__takes_a_context"):
        catalog.render_schemas()
    res = Episode(World.build(catalog)).call("lazy_bad__takes_a_context", {"other": 1})
    assert not res.ok and res.error is not None and res.error.type == "internal_error"


STAMPS = Service("stamps", title="Stamps", category="test", modeled_on="nothing", description="Guards that write.")


class Parcel(Record):
    """A parcel whose guard keeps a label and a revision."""

    id: Annotated[str, IdOf("stamps.parcel")]
    memo: Title
    """What it holds."""
    status: str = "open"
    """open or sealed."""
    label: str = ""
    """Set by the guard: the memo in capitals."""
    revision: int = 0
    """Set by the guard: how many writes the parcel has had."""


def _stamp(ctx: Ctx, new: Parcel, old: Parcel | None) -> None:
    ctx.update(new, label=new.memo.upper(), revision=0 if old is None else old.revision + 1)


STAMPS.resource(
    Parcel,
    name="parcel",
    plural="parcels",
    prefix="par",
    create=("memo",),
    update=("memo",),
    transitions={"seal": Transition("status", ("open",), "sealed", "seal the parcel")},
    guard_create=_stamp,
    guard_update=_stamp,
)


@STAMPS.seeder
def seed_stamps(s: SeedContext) -> None:
    s.create(Parcel, memo="first")


def test_standard_writes_return_the_record_as_their_guard_left_it() -> None:
    ep = Episode(World.build(Catalog([STAMPS]), seed=0))
    created = ep.call("stamps__create_parcel", {"memo": "books"})
    assert created.ok, created
    assert created.result["label"] == "BOOKS" and created.result["revision"] == 0
    pid = created.result["id"]
    updated = ep.call("stamps__update_parcel", {"parcel_id": pid, "memo": "maps"})
    assert updated.ok and updated.result["label"] == "MAPS" and updated.result["revision"] == 1
    sealed = ep.call("stamps__seal_parcel", {"parcel_id": pid})
    assert sealed.ok and sealed.result["status"] == "sealed" and sealed.result["revision"] == 2
    assert ep.call("stamps__get_parcel", {"parcel_id": pid}).result == sealed.result
