"""Lists that staff keep (watch lists, reading lists, trackers): owned by an employee, frozen once archived.

Reference services (patents, filings, scholarly works) let a team keep lists of
what it follows; the rules are the same wherever such a list lives: its owner
must be an employee, an archived list takes no change (neither to itself nor
to what is on it), and deleting a list deletes what hangs from it.
:class:`KeptList` holds those rules once for a service's own list model, and
:func:`require_employee` is the owner check on its own, for any field that
must name a member of staff.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, Literal, TypeVar

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Guard, ResourceSpec, Service, Transition
from compoworld.engine.types import Email, Text, Title
from compoworld.services.kit.records import Timestamped

__all__ = ["KeptList", "ListRecord", "require_employee"]


L = TypeVar("L", bound=Record)


class ListRecord(Timestamped):
    """A named list an employee keeps; a service's list model adds its own typed ``id``."""

    name: Title
    """Its name."""
    owner_email: Email
    """The employee who keeps it."""
    description: Text = ""
    """What it is for."""
    status: Literal["active", "archived"] = "active"
    """active, or archived (frozen)."""


def require_employee(ctx: Ctx, email: str, *, field: str, hint: str = "only staff can do this") -> Person:
    """The employee with this e-mail, or a refusal naming the field.

    Args:
        ctx: The call's context.
        email: The e-mail that must be a member of staff's.
        field: The argument or record field the e-mail came from (named in the refusal).
        hint: What the caller should do instead.

    Returns:
        The employee.

    Raises:
        RuleViolation: Nobody on the staff has that e-mail.
    """
    for person in ctx.population.employees:
        if person.email == email:
            return person
    raise RuleViolation(f"{email} is not an employee", field=field, hint=hint)


class KeptList(Generic[L]):
    """The rules of one list model: an employee owns it, and once archived it is frozen.

    Args:
        model: The list's record type (it has ``id``, ``status`` and ``owner_email``).
        noun: What the product calls it ("watch list"), used in refusals.
        field: The parameter that names a list (``watchlist_id``).
        frozen_hint: What to do about an archived list ("create a new watch list").
        archived: The status in which the list is frozen.
    """

    def __init__(
        self,
        model: type[L],
        *,
        noun: str,
        field: str,
        frozen_hint: str,
        archived: str = "archived",
    ) -> None:
        self.model = model
        self.noun = noun
        self.field = field
        self.frozen_hint = frozen_hint
        self.archived = archived

    def _frozen(self, list_id: str, field: str) -> RuleViolation:
        return RuleViolation(f"{self.noun} {list_id} is {self.archived}", field=field, hint=self.frozen_hint)

    def guard(self, ctx: Ctx, new: L, old: L | None) -> None:
        """Create and update guard: an archived list stays as it is, and the owner is on the staff."""
        # The model is the service's own; only these three fields are promised.
        row: Any = new
        if old is not None and _status(old) == self.archived and row.status == self.archived:
            raise self._frozen(old.id, self.field)
        require_employee(ctx, row.owner_email, field="owner_email", hint=f"{self.noun}s are kept by staff")

    def open(self, ctx: Ctx, list_id: str, field: str | None = None) -> L:
        """The list, refused when it is archived.

        Args:
            ctx: The call's context.
            list_id: The list's id.
            field: The parameter named in a refusal (default: the list parameter).
        """
        found = ctx.get(self.model, list_id, field=field or self.field)
        if _status(found) == self.archived:
            raise self._frozen(found.id, field or self.field)
        return found

    def entry_guard(self, parent: str, field: str) -> Callable[[Ctx, Any, Any], None]:
        """A guard for records on a list (update and delete): the list they are on must be open.

        Args:
            parent: The entry's field holding the list's id.
            field: The parameter named in a refusal (the entry's id parameter).
        """

        def guard(ctx: Ctx, new: Any, old: Any) -> None:
            self.open(ctx, getattr(new if new is not None else old, parent), field)

        return guard

    def declare(
        self,
        service: Service,
        *,
        name: str,
        plural: str,
        prefix: str,
        title: str,
        children: Sequence[tuple[type[Record], str]] = (),
        unarchive: bool = False,
        guard: Guard | None = None,
        guard_delete: Guard | None = None,
    ) -> ResourceSpec[L]:
        """Declare the list resource: create, find by owner or status, search, rename, archive, delete.

        Args:
            service: The service it belongs to.
            name: Singular resource name.
            plural: Plural name.
            prefix: Prefix of its ids.
            title: Human noun for it.
            children: What hangs from it, deleted with it (see :meth:`cascade`).
            unarchive: Whether an archived list can be made active again (otherwise archiving is final).
            guard: A create and update guard to run instead of :meth:`guard` (call it from yours).
            guard_delete: A delete guard to run instead of the cascade.
        """
        transitions = {
            "archive": Transition("status", ("active",), self.archived, f"archive the {title}", destructive=True)
        }
        if unarchive:
            transitions["archive"] = Transition("status", ("active",), self.archived, f"archive the {title}")
            transitions["unarchive"] = Transition("status", (self.archived,), "active", f"unarchive the {title}")
        return service.resource(
            self.model,
            name=name,
            plural=plural,
            prefix=prefix,
            create=("name", "owner_email", "description"),
            filters=("owner_email", "status"),
            search=("name", "description"),
            update=("name", "description", "owner_email"),
            transitions=transitions,
            guard_create=guard or self.guard,
            guard_update=guard or self.guard,
            guard_delete=guard_delete or self.cascade(children),
            title=title,
        )

    @staticmethod
    def cascade(children: Sequence[tuple[type[Record], str]]) -> Callable[[Ctx, None, Any], None]:
        """A delete guard that deletes what hangs from the record, deepest first.

        Args:
            children: ``(model, field)`` pairs from the record down: each model's ``field``
                holds the id of a record of the pair before it (the first: of the deleted record).
        """

        def delete(ctx: Ctx, new: None, old: Any) -> None:
            _delete_below(ctx, list(children), old.id)

        return delete


def _status(record: Record) -> str:
    status: str = record.status  # type: ignore[attr-defined]
    return status


def _delete_below(ctx: Ctx, children: list[tuple[type[Record], str]], parent_id: str) -> None:
    if not children:
        return
    (model, field), rest = children[0], children[1:]
    for record in ctx.where(model, **{field: parent_id}):
        _delete_below(ctx, rest, record.id)
        ctx.delete(record)
