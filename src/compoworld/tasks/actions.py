"""What a writing tool does to the world, in the words of the work people automate.

A task that only lists and creates teaches little; real work updates, moves
records through their states, sends messages that carry facts, and deletes.
:func:`action_of` names a tool's action from its standard kind or, for a
domain tool, from the verb its name starts with; the audit counts tasks by
these actions, and walks use them to prefer real verbs.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from compoworld.engine.tools import resolve_ref
from compoworld.engine.types import SEMANTIC_KEY

if TYPE_CHECKING:
    from compoworld.engine.tools import Tool

__all__ = ["Action", "action_of", "acts_as_outsider", "body_parameters", "ends"]

Action = Literal["read", "create", "update", "transition", "delete", "message", "other"]
"""``read`` for tools that never write; ``other`` for a write whose verb says nothing known."""

# A message is a write whose words reach a person: sent mail, chat, SMS, a comment or a note on a record.
_MESSAGE = re.compile(
    r"^(send|post|reply|add|create|forward|write|notify)_(\w+_)?"
    r"(message|email|comment|note|post|notification|invitations|reminders?|conversation)$"
)
_VERBS: dict[str, Action] = {}
for _action, _words in (
    (
        "create",
        "create add new open book issue register record log submit request schedule place buy upload "
        "enroll hire draft copy duplicate import invite generate clone replicate deposit ingest track list "
        "document push deploy shorten append counter enter file post",
    ),
    (
        "update",
        "update set edit rename change modify adjust move assign unassign tag untag mark merge enable "
        "disable attach share transfer reset reorder rate vote pick seat join leave apply link unlink "
        "reschedule resubscribe pin unpin correct toggle watch reassign allocate lock unlock retag customize "
        "follow unfollow like unlike block unblock repost crosspost mute unmute extend sponsor excuse internal "
        "top grade rotate calculate report evaluate scan",
    ),
    (
        "transition",
        "approve reject cancel close complete archive unarchive resolve publish unpublish start stop end "
        "accept decline deny confirm activate deactivate terminate reopen restore void refund renew advance "
        "release launch execute pay settle dispute waive sign verify review decide convert check revoke "
        "suspend resume pause escalate snooze acknowledge dismiss authorize engage run trigger redeem write "
        "send solve fulfil fulfill dispatch receive ship capture fill reimburse return withdraw expire hold "
        "reactivate unresolve ignore reconcile commit checkout drop rerun retry recover undelete transition "
        "suggest click pull sync respond untrash",
    ),
    ("delete", "delete remove trash detach purge discard destroy empty unsubscribe"),
):
    for _word in _words.split():
        _VERBS[_word] = _action  # type: ignore[assignment]


# Verbs that end a record's life or work: applied to a record the same task just made, they undo it.
_ENDING = frozenset(
    [
        "delete",
        "remove",
        "trash",
        "purge",
        "discard",
        "destroy",
        "archive",
        "cancel",
        "close",
        "complete",
        "deactivate",
        "void",
        "unpublish",
        "end",
        "terminate",
        "expire",
        "withdraw",
        "decline",
        "reject",
        "deny",
        "revoke",
        "suspend",
        "disqualify",
        "stop",
        "drop",
        "dismiss",
    ]
)
_MARK_ENDING = re.compile(r"^mark_\w+_(done|lost|complete|completed|closed|inactive|cancelled|canceled)$")


def ends(tool: Tool) -> bool:
    """Whether a writing tool ends what it acts on (deletes, archives, cancels, marks done or lost …)."""
    verb_phrase = tool.name.split("__", 1)[-1]
    return tool.writes and (
        tool.kind == "delete" or verb_phrase.split("_", 1)[0] in _ENDING or bool(_MARK_ENDING.match(verb_phrase))
    )


# Tools that play someone outside the team (a customer writing in): what they do is an event, not work.
_OUTSIDER = re.compile(r"\bas (the|a) (customer|visitor|buyer|candidate|applicant)\b")


def acts_as_outsider(tool: Tool) -> bool:
    """Whether a tool acts as someone outside the team (``start a conversation as the customer``).

    Such a tool simulates the world's other side; an agent working for the team never calls it.
    """
    return _OUTSIDER.search(tool.intent) is not None


def body_parameters(tool: Tool) -> list[str]:
    """The tool's top-level parameters that take free text (``text.body``), in schema order."""
    schema = tool.parameters_schema
    found: list[str] = []
    for name, prop in schema.get("properties", {}).items():
        resolved = resolve_ref(prop, schema)
        options = [resolved, *(resolve_ref(o, schema) for o in resolved.get("anyOf", []))]
        if any(o.get(SEMANTIC_KEY) == "text.body" for o in options):
            found.append(name)
    return found


def action_of(tool: Tool) -> Action:
    """What a tool does: its standard kind, or for a domain tool the verb its name starts with.

    A write counts as a message when its name says it sends, posts or comments and it
    takes free text to say it in.
    """
    if not tool.writes:
        return "read"
    verb_phrase = tool.name.split("__", 1)[-1]
    if _MESSAGE.search(verb_phrase) and body_parameters(tool):
        return "message"
    if tool.kind in ("create", "update", "transition", "delete"):
        return tool.kind
    return _VERBS.get(verb_phrase.split("_", 1)[0], "other")
